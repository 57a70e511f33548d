// tex_grad_lod: the level of detail tex2DGrad derives from gradients, and how tex2DLod's
// fraction becomes the blend weight between two levels. A 256x256 mipmapped float array
// whose level l holds l, linear mipmap filtering, so a fetch returns level + weight (printed
// times 256): gradients of 1 + i/256 texels along x (every 8-bit mantissa) and of
// 1 + (i + 0.5)/256 (the mantissa is truncated), along y through dy, every integer (p, q)
// with q <= p <= 32 through dx and through dy, (8, k/32) at fine angles; tex2DLod at i/1024.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (the run tool).
#include <cstdio>
#include <cstring>
__global__ void kg(cudaTextureObject_t t, const float4 *g, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(g[i].x, g[i].y), make_float2(g[i].z, g[i].w));
}
__global__ void kl(cudaTextureObject_t t, const float *l, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLod<float>(t, 0.5f, 0.5f, l[i]);
}
int main() {
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
  static float4 g[8192]; static float o[8192]; static float lv[8192];
  float4 *dg; cudaMalloc(&dg, sizeof(g)); float *dout; cudaMalloc(&dout, sizeof(o)); float *dl; cudaMalloc(&dl, sizeof(lv));
  int n = 0;
  for (int i = 0; i < 256; i++) g[n++] = make_float4((1 + i / 256.0f) / 256.0f, 0, 0, 0);           // A: x axis, 1 + i/256
  for (int i = 0; i < 256; i++) g[n++] = make_float4((1 + (i + 0.5f) / 256.0f) / 256.0f, 0, 0, 0);  // B: 1 + (i+.5)/256
  for (int i = 0; i < 256; i++) g[n++] = make_float4(0, 0, 0, (2 + 2 * i / 256.0f) / 256.0f);      // C: dy y axis, 2(1 + i/256)
  for (int p = 0; p <= 32; p++) for (int q = 0; q <= p; q++) g[n++] = make_float4(p / 256.0f, q / 256.0f, 0, 0);  // D
  for (int p = 0; p <= 32; p++) for (int q = 0; q <= p; q++) g[n++] = make_float4(0, 0, q / 256.0f, p / 256.0f);  // E: dy
  for (int k = 0; k < 256; k++) g[n++] = make_float4(8 / 256.0f, k / 32.0f / 256.0f, 0, 0);         // F: (8, k/32)
  cudaMemcpy(dg, g, n * sizeof(float4), cudaMemcpyHostToDevice);
  kg<<<(n + 127) / 128, 128>>>(t, dg, dout, n);
  cudaMemcpy(o, dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  int k = 0;
  const char *names[] = {"A x 1+i/256", "B x 1+(i+.5)/256", "C dy 2+2i/256", "D (p,q) q<=p<=32", "E dy (q,p) q<=p<=32", "F (8,k/32)"};
  const int counts[] = {256, 256, 256, 561, 561, 256};
  for (int s = 0; s < 6; s++) {
    printf("%s:", names[s]);
    for (int i = 0; i < counts[s]; i++) printf(" %ld", lrintf(o[k++] * 256));
    printf("\n");
  }
  int nl = 0;
  for (int i = 0; i < 1024; i++) lv[nl++] = i / 1024.0f;
  cudaMemcpy(dl, lv, nl * sizeof(float), cudaMemcpyHostToDevice);
  kl<<<(nl + 127) / 128, 128>>>(t, dl, dout, nl);
  cudaMemcpy(o, dout, nl * sizeof(float), cudaMemcpyDeviceToHost);
  printf("L lod i/1024:");
  for (int i = 0; i < nl; i++) printf(" %ld", lrintf(o[i] * 256));
  printf("\n");
  return 0;
}
