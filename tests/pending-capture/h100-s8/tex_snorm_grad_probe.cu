// tex_snorm_grad_probe: measurements for modelling (not a conformance program).
// (1) linear filtering of signed 8/16-bit texels read as normalized floats: rows of two
// texels (t, 0) sampled with weight 256-a on t, and rows of random pairs (t0, t1) with
// random weights; printed as round(value * 32767).
// (2) the level of detail tex2DGrad derives from gradients: a 256x256 mipmapped float
// array whose levels hold their index, so a fetch returns the (blended) level; dx = (p, q)
// texels for p, q in 0..16, then dx = (p, 0) with dy = (0, q); printed as round(lod*256).
// Captured on an H100 with nvcc 13.0.
#include <cstdio>
#include <cstring>
#include <cmath>

__global__ void k2(cudaTextureObject_t t, const float2 *c, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2D<float>(t, c[i].x, c[i].y);
}
__global__ void kg(cudaTextureObject_t t, const float4 *g, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(g[i].x, g[i].y), make_float2(g[i].z, g[i].w));
}
static unsigned seed = 99;
static unsigned rnd() { seed = seed * 1103515245u + 12345u; return (seed >> 8) & 0xffffff; }

int main() {
  float2 *dc; cudaMalloc(&dc, 65536 * sizeof(float2));
  float *dout; cudaMalloc(&dout, 65536 * sizeof(float));
  static float2 c[65536]; static float o[65536];
  const int as[] = {0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 100, 128, 144, 171, 200, 233, 250, 254, 255};
  const int na = 20;
  for (int bits = 8; bits <= 16; bits += 8) {
    cudaChannelFormatDesc d = cudaCreateChannelDesc(bits, 0, 0, 0, cudaChannelFormatKindSigned);
    cudaArray_t a; cudaMallocArray(&a, &d, 2, 512);
    static short h[2 * 512];
    int vals[256];
    for (int r = 0; r < 256; r++) vals[r] = bits == 8 ? r - 128 : (r == 255 ? 32767 : -32768 + r * 257 + (int)(rnd() % 200));
    int pairs[256][2];
    for (int r = 0; r < 256; r++) {
      pairs[r][0] = vals[rnd() % 256]; pairs[r][1] = vals[rnd() % 256];
      h[2 * r] = vals[r]; h[2 * r + 1] = 0;
      h[2 * (256 + r)] = pairs[r][0]; h[2 * (256 + r) + 1] = pairs[r][1];
    }
    if (bits == 8) {
      static signed char b[2 * 512];
      for (int i = 0; i < 1024; i++) b[i] = (signed char)h[i];
      cudaMemcpy2DToArray(a, 0, 0, b, 2, 2, 512, cudaMemcpyHostToDevice);
    } else {
      cudaMemcpy2DToArray(a, 0, 0, h, 4, 4, 512, cudaMemcpyHostToDevice);
    }
    cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeArray; r.res.array.array = a;
    cudaTextureDesc td; memset(&td, 0, sizeof(td));
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t t; cudaCreateTextureObject(&t, &r, &td, 0);
    int n = 0;
    for (int row = 0; row < 256; row++) for (int k = 0; k < na; k++) c[n++] = make_float2(0.5f + as[k] / 256.0f, row + 0.5f);
    int wr[256][8];
    for (int row = 0; row < 256; row++) for (int k = 0; k < 8; k++) { wr[row][k] = rnd() % 256; c[n++] = make_float2(0.5f + wr[row][k] / 256.0f, 256 + row + 0.5f); }
    cudaMemcpy(dc, c, n * sizeof(float2), cudaMemcpyHostToDevice);
    k2<<<(n + 127) / 128, 128>>>(t, dc, dout, n);
    cudaMemcpy(o, dout, n * sizeof(float), cudaMemcpyDeviceToHost);
    int m = 0;
    printf("snorm%d weights:", bits);
    for (int k = 0; k < na; k++) printf(" %d", as[k]);
    printf("\n");
    for (int row = 0; row < 256; row++) {
      printf("snorm%d t %d:", bits, vals[row]);
      for (int k = 0; k < na; k++) printf(" %ld", lrintf(o[m++] * 32767.0f));
      printf("\n");
    }
    for (int row = 0; row < 256; row++) {
      printf("snorm%d pair %d %d:", bits, pairs[row][0], pairs[row][1]);
      for (int k = 0; k < 8; k++) printf(" %d=%ld", wr[row][k], lrintf(o[m++] * 32767.0f));
      printf("\n");
    }
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
  // (2) gradients.
  {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m; cudaMallocMipmappedArray(&m, &fd, make_cudaExtent(256, 256, 0), 9, 0);
    for (int l = 0; l < 9; l++) {
      cudaArray_t a; cudaGetMipmappedArrayLevel(&a, m, l);
      int w = 256 >> l;
      static float v[65536];
      for (int i = 0; i < w * w; i++) v[i] = (float)l;
      cudaMemcpy2DToArray(a, 0, 0, v, w * 4, w * 4, w, cudaMemcpyHostToDevice);
    }
    cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeMipmappedArray; r.res.mipmap.mipmap = m;
    cudaTextureDesc td; memset(&td, 0, sizeof(td));
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear; td.mipmapFilterMode = cudaFilterModeLinear;
    td.normalizedCoords = 1; td.maxMipmapLevelClamp = 8;
    cudaTextureObject_t t; cudaCreateTextureObject(&t, &r, &td, 0);
    static float4 g[4096];
    float4 *dg; cudaMalloc(&dg, sizeof(g));
    int n = 0;
    for (int p = 0; p <= 16; p++) for (int q = 0; q <= 16; q++) g[n++] = make_float4(p / 256.0f, q / 256.0f, 0, 0);
    for (int p = 0; p <= 8; p++) for (int q = 0; q <= 8; q++) g[n++] = make_float4(p / 256.0f, 0, 0, q / 256.0f);
    for (int k = 0; k <= 64; k++) g[n++] = make_float4(4 / 256.0f, k / 16.0f / 256.0f, 0, 0);
    for (int k = 0; k <= 64; k++) g[n++] = make_float4((1 + k / 64.0f) / 256.0f, 0, 0, 0);
    cudaMemcpy(dg, g, n * sizeof(float4), cudaMemcpyHostToDevice);
    kg<<<(n + 127) / 128, 128>>>(t, dg, dout, n);
    cudaMemcpy(o, dout, n * sizeof(float), cudaMemcpyDeviceToHost);
    int k = 0;
    printf("grad dx (p, q), p, q = 0..16:");
    for (int i = 0; i < 289; i++) printf(" %ld", lrintf(o[k++] * 256));
    printf("\ngrad dx (p, 0) dy (0, q), p, q = 0..8:");
    for (int i = 0; i < 81; i++) printf(" %ld", lrintf(o[k++] * 256));
    printf("\ngrad dx (4, k/16), k = 0..64:");
    for (int i = 0; i < 65; i++) printf(" %ld", lrintf(o[k++] * 256));
    printf("\ngrad dx (1 + k/64, 0), k = 0..64:");
    for (int i = 0; i < 65; i++) printf(" %ld", lrintf(o[k++] * 256));
    printf("\n");
    cudaDestroyTextureObject(t);
    cudaFreeMipmappedArray(m);
  }
  return 0;
}
