// Linear filtering of 8- and 16-bit integer texels read as normalized floats where the
// weighted sum falls exactly halfway between two steps of the result (1/65535 for
// unsigned texels, 1/32767 for signed ones): uchar, ushort and short pairs of texels at
// weights 128/256 (a tie whenever the two codes' sum is odd), 64/256, 192/256 and random
// ones, and 2D footprints. Every value printed exactly (%a).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (the run tool).
#include <cstdio>
#include <cstring>

__global__ void k2(cudaTextureObject_t t, const float2 *c, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2D<float>(t, c[i].x, c[i].y);
}
static unsigned seed = 2024;
static unsigned rnd() { seed = seed * 1103515245u + 12345u; return (seed >> 8) & 0xffffff; }

int main() {
  float2 *dc; cudaMalloc(&dc, 4096 * sizeof(float2));
  float *dout; cudaMalloc(&dout, 4096 * sizeof(float));
  static float2 c[4096]; static float o[4096];
  const char *names[] = {"uchar", "ushort", "short"};
  const int bits[] = {8, 16, 16};
  const cudaChannelFormatKind kinds[] = {cudaChannelFormatKindUnsigned, cudaChannelFormatKindUnsigned, cudaChannelFormatKindSigned};
  for (int f = 0; f < 3; f++) {
    const int w = 2, h = 64;
    cudaChannelFormatDesc d = cudaCreateChannelDesc(bits[f], 0, 0, 0, kinds[f]);
    cudaArray_t a; cudaMallocArray(&a, &d, w, h);
    static unsigned short v16[w * h]; static unsigned char v8[w * h];
    for (int i = 0; i < w * h; i++) {
      unsigned r = rnd();
      if (bits[f] == 8) v8[i] = r & 255;
      else v16[i] = (unsigned short)(r & 65535);
    }
    if (bits[f] == 8) cudaMemcpy2DToArray(a, 0, 0, v8, w, w, h, cudaMemcpyHostToDevice);
    else cudaMemcpy2DToArray(a, 0, 0, v16, 2 * w, 2 * w, h, cudaMemcpyHostToDevice);
    cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeArray; r.res.array.array = a;
    cudaTextureDesc td; memset(&td, 0, sizeof(td));
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t t; cudaCreateTextureObject(&t, &r, &td, 0);
    int n = 0;
    const int ws[] = {128, 64, 192};
    for (int row = 0; row < h; row++) {
      for (int k = 0; k < 3; k++) c[n++] = make_float2(0.5f + ws[k] / 256.0f, row + 0.5f);
      c[n++] = make_float2(0.5f + (rnd() % 257) / 256.0f, row + 0.5f);
    }
    // 2D footprints: the pair of rows (row, row + 1) at (a, b) on a grid of eighths.
    for (int row = 0; row + 1 < h; row += 8)
      for (int b = 0; b <= 256; b += 32) for (int aa = 0; aa <= 256; aa += 32)
        c[n++] = make_float2(0.5f + aa / 256.0f, row + 0.5f + b / 256.0f);
    cudaMemcpy(dc, c, n * sizeof(float2), cudaMemcpyHostToDevice);
    k2<<<(n + 127) / 128, 128>>>(t, dc, dout, n);
    cudaMemcpy(o, dout, n * sizeof(float), cudaMemcpyDeviceToHost);
    printf("%s texels:", names[f]);
    for (int i = 0; i < w * h; i++) {
      if (bits[f] == 8) printf(" %d", v8[i]);
      else if (kinds[f] == cudaChannelFormatKindSigned) printf(" %d", (short)v16[i]);
      else printf(" %d", v16[i]);
    }
    printf("\n%s pairs at 128, 64, 192, random:", names[f]);
    for (int i = 0; i < 4 * h; i++) printf(" %a", o[i]);
    printf("\n%s 2D footprints:", names[f]);
    for (int i = 4 * h; i < n; i++) printf(" %a", o[i]);
    printf("\n");
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
  cudaFree(dc); cudaFree(dout);
  return 0;
}
