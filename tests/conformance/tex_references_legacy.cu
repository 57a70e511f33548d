// tex_references_legacy: legacy texture references as the 2008-2012 programming guides
// teach them. File-scope texture<float> (default template arguments), texture<float, 2>
// and texture<uchar4, 2, cudaReadModeNormalizedFloat>; fields set from host code before
// each bind; tex1Dfetch over linear memory bound with cudaBindTexture (C++ form without a
// descriptor), rebinding to another buffer between launches, the offset out-parameter
// for a pointer 12 bytes past a 256-byte boundary, the C form through
// cudaGetTextureReference with an explicit descriptor; tex2D with linear filtering and
// normalized coordinates from a CUDA array bound with cudaBindTextureToArray in the wrap,
// clamp, mirror and border address modes; cudaBindTexture2D over pitched memory; a
// normalized-float read of uchar4 texels; cudaUnbindTexture, then a fetch through the
// unbound reference (the guide: undefined; Cuprite: the launch fails with
// cudaErrorInvalidTexture).
// Expected output: nvcc 13 no longer compiles texture references, so this program cannot
// be captured on a GPU. tex_references_twin_objects.cu does the same computation with
// texture objects; its output was captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100
// (the run tool), and this program's expected output is that file, unchanged (its last
// line, the unbound fetch, is printed literally by the twin).
#include <cstdio>

texture<float> texLin;
texture<float, 2, cudaReadModeElementType> tex2;
texture<float, 2> texP;
texture<uchar4, 2, cudaReadModeNormalizedFloat> texU;

__global__ void fetchLin(float *out, int n, int shift) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch(texLin, i + shift);
}
__global__ void sample2D(const float2 *c, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex2D(tex2, c[i].x, c[i].y);
}
__global__ void samplePitch(float *out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D(texP, x - 1 + 0.5f, y - 1 + 0.5f);
}
__global__ void readU4(float4 *out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D(texU, x + 0.5f, y + 0.5f);
}

static void printLin(const char *label, int n, int shift) {
  float *d_out, out[80];
  cudaMalloc(&d_out, sizeof out);
  fetchLin<<<1, 80>>>(d_out, n, shift);
  cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%s:", label);
  for (int i = 0; i < n; i++) printf("%s%g", i % 12 ? " " : "\n  ", out[i]);
  printf("\n");
  cudaFree(d_out);
}

int main() {
  float a[64], b[64];
  for (int i = 0; i < 64; i++) { a[i] = i * 0.25f - 3.0f; b[i] = 100.0f + i; }
  float *d_a, *d_b;
  cudaMalloc(&d_a, sizeof a);
  cudaMalloc(&d_b, sizeof b);
  cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice);
  size_t off = 99;
  cudaBindTexture(&off, texLin, d_a, sizeof a);
  printf("bind a: offset %d\n", (int)off);
  printLin("fetch a", 70, 0);
  cudaBindTexture(&off, texLin, d_b, sizeof b);
  printf("rebind b: offset %d\n", (int)off);
  printLin("fetch b", 70, 0);
  cudaBindTexture(&off, texLin, d_a + 3, 20 * sizeof(float));
  printf("bind a+3: offset %d\n", (int)off);
  printLin("fetch a+3", 24, (int)(off / sizeof(float)));
  const textureReference *ref = 0;
  cudaGetTextureReference(&ref, &texLin);
  cudaChannelFormatDesc desc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaBindTexture(&off, ref, d_b + 8, &desc, 16 * sizeof(float));
  printf("C form, b+8: offset %d\n", (int)off);
  printLin("fetch b+8", 20, (int)(off / sizeof(float)));

  const int W = 8, H = 4;
  float img[H][W];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) img[y][x] = (float)(y * W + x);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  cudaMallocArray(&arr, &fd, W, H);
  cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
  const int NC = 9;
  float2 coords[NC] = {{0.0f, 0.0f}, {0.03f, 0.1f}, {0.5f, 0.5f}, {0.99f, 0.9f}, {1.2f, -0.3f},
                       {-0.45f, 1.7f}, {0.3333f, 0.6667f}, {2.01f, 0.5f}, {0.0625f, 0.125f}};
  float2 *d_c;
  float *d_s, s[NC];
  cudaMalloc(&d_c, sizeof coords);
  cudaMalloc(&d_s, sizeof s);
  cudaMemcpy(d_c, coords, sizeof coords, cudaMemcpyHostToDevice);
  const char *names[4] = {"wrap", "clamp", "mirror", "border"};
  cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror, cudaAddressModeBorder};
  for (int m = 0; m < 4; m++) {
    tex2.addressMode[0] = modes[m];
    tex2.addressMode[1] = modes[m];
    tex2.filterMode = cudaFilterModeLinear;
    tex2.normalized = true;
    printf("bind array (%s): %s\n", names[m], cudaGetErrorName(cudaBindTextureToArray(tex2, arr)));
    sample2D<<<1, NC>>>(d_c, d_s, NC);
    cudaMemcpy(s, d_s, sizeof s, cudaMemcpyDeviceToHost);
    for (int i = 0; i < NC; i++) printf("  tex2D(%g, %g) = %.6f\n", coords[i].x, coords[i].y, s[i]);
  }

  const int PW = 5, PH = 3;
  float p[PH][PW];
  for (int y = 0; y < PH; y++)
    for (int x = 0; x < PW; x++) p[y][x] = 10.0f * y + x;
  float *d_p;
  size_t pitch;
  cudaMallocPitch(&d_p, &pitch, PW * sizeof(float), PH);
  cudaMemcpy2D(d_p, pitch, p, PW * sizeof(float), PW * sizeof(float), PH, cudaMemcpyHostToDevice);
  {
    texP.addressMode[0] = texP.addressMode[1] = cudaAddressModeClamp;
    cudaError_t e = cudaBindTexture2D(&off, texP, d_p, texP.channelDesc, PW, PH, pitch);
    printf("bind pitch2D: %s, offset %d\n", cudaGetErrorName(e), (int)off);
    const int OW = PW + 2, OH = PH + 2;
    float o[OH * OW], *d_o;
    cudaMalloc(&d_o, sizeof o);
    samplePitch<<<1, dim3(OW, OH)>>>(d_o, OW, OH);
    cudaMemcpy(o, d_o, sizeof o, cudaMemcpyDeviceToHost);
    for (int y = 0; y < OH; y++) {
      printf(" ");
      for (int x = 0; x < OW; x++) printf(" %4g", o[y * OW + x]);
      printf("\n");
    }
  }

  const int UW = 4, UH = 3;
  uchar4 u[UH][UW];
  for (int y = 0; y < UH; y++)
    for (int x = 0; x < UW; x++) u[y][x] = make_uchar4(x * 60, y * 100, x + y * 4, 255);
  cudaChannelFormatDesc ud = cudaCreateChannelDesc<uchar4>();
  cudaArray_t uarr;
  cudaMallocArray(&uarr, &ud, UW, UH);
  cudaMemcpy2DToArray(uarr, 0, 0, u, UW * sizeof(uchar4), UW * sizeof(uchar4), UH, cudaMemcpyHostToDevice);
  {
    printf("bind uchar4 array: %s\n", cudaGetErrorName(cudaBindTextureToArray(texU, uarr, ud)));
    float4 f[UH * UW], *d_f;
    cudaMalloc(&d_f, sizeof f);
    readU4<<<1, dim3(UW, UH)>>>(d_f, UW, UH);
    cudaMemcpy(f, d_f, sizeof f, cudaMemcpyDeviceToHost);
    for (int i = 0; i < UW * UH; i++) printf("  (%d,%d) = %.5f %.5f %.5f %.5f\n", i % UW, i / UW, f[i].x, f[i].y, f[i].z, f[i].w);
  }
  printf("unbind: %s\n", cudaGetErrorName(cudaUnbindTexture(texLin)));
  float *d_out;
  cudaMalloc(&d_out, 4 * sizeof(float));
  fetchLin<<<1, 4>>>(d_out, 4, 0);
  printf("fetch unbound: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
