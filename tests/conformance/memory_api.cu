// memory_api: cudaMemcpy in every direction including cudaMemcpyDefault and
// device-to-device, cudaMemset (byte pattern), cudaMallocHost/cudaFreeHost,
// cudaHostAlloc (mapped) with cudaHostGetDevicePointer used by a kernel,
// cudaMallocPitch + cudaMemcpy2D + cudaMemset2D, cudaMemGetInfo sanity,
// 256-byte alignment of cudaMalloc.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cstring>

__global__ void inc(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] += 1; }
__global__ void rows(float *base, size_t pitch, int w, int h) {
  int x = threadIdx.x, y = blockIdx.x;
  if (x < w && y < h) { float *row = (float *)((char *)base + y * pitch); row[x] += y * 100 + x; }
}

int main() {
  const int n = 1000;
  int *pinned;
  printf("cudaMallocHost: %s\n", cudaGetErrorName(cudaMallocHost(&pinned, n * sizeof(int))));
  for (int i = 0; i < n; i++) pinned[i] = i;
  int *a, *b;
  cudaMalloc(&a, n * sizeof(int)); cudaMalloc(&b, n * sizeof(int));
  printf("aligned to 256: %d %d\n", (int)((size_t)a % 256 == 0), (int)((size_t)b % 256 == 0));
  printf("H2D default: %s\n", cudaGetErrorName(cudaMemcpy(a, pinned, n * sizeof(int), cudaMemcpyDefault)));
  inc<<<4, 256>>>(a, n);
  printf("D2D: %s\n", cudaGetErrorName(cudaMemcpy(b, a, n * sizeof(int), cudaMemcpyDeviceToDevice)));
  inc<<<4, 256>>>(b, n);
  int h[n];
  printf("D2H default: %s\n", cudaGetErrorName(cudaMemcpy(h, b, sizeof(h), cudaMemcpyDefault)));
  printf("h[0]=%d h[999]=%d\n", h[0], h[999]);
  cudaMemcpy(pinned, a, sizeof(h), cudaMemcpyDeviceToHost);
  printf("pinned[10]=%d\n", pinned[10]);
  int hh[4] = {1, 2, 3, 4}, hh2[4];
  printf("H2H: %s\n", cudaGetErrorName(cudaMemcpy(hh2, hh, sizeof(hh), cudaMemcpyHostToHost)));
  printf("hh2 = %d %d %d %d\n", hh2[0], hh2[1], hh2[2], hh2[3]);
  printf("memset: %s\n", cudaGetErrorName(cudaMemset(a, 0xab, n * sizeof(int))));
  cudaMemset(a + 10, 0, 2 * sizeof(int));
  cudaMemcpy(h, a, sizeof(h), cudaMemcpyDeviceToHost);
  printf("after memset: 0x%08x 0x%08x 0x%08x\n", (unsigned)h[9], (unsigned)h[10], (unsigned)h[12]);
  printf("cudaFreeHost: %s\n", cudaGetErrorName(cudaFreeHost(pinned)));

  int *mapped, *dmapped;
  printf("cudaHostAlloc mapped: %s\n", cudaGetErrorName(cudaHostAlloc(&mapped, 64 * sizeof(int), cudaHostAllocMapped)));
  for (int i = 0; i < 64; i++) mapped[i] = 10 * i;
  printf("cudaHostGetDevicePointer: %s\n", cudaGetErrorName(cudaHostGetDevicePointer((void **)&dmapped, mapped, 0)));
  inc<<<1, 64>>>(dmapped, 64);
  cudaDeviceSynchronize();
  printf("mapped after kernel: %d %d %d\n", mapped[0], mapped[1], mapped[63]);
  cudaFreeHost(mapped);

  const int w = 13, hgt = 7;
  float *dp; size_t pitch = 0;
  printf("cudaMallocPitch: %s\n", cudaGetErrorName(cudaMallocPitch((void **)&dp, &pitch, w * sizeof(float), hgt)));
  printf("pitch >= row bytes: %d, pitch multiple of 32: %d\n", (int)(pitch >= w * sizeof(float)), (int)(pitch % 32 == 0));
  float img[hgt][w];
  for (int y = 0; y < hgt; y++) for (int x = 0; x < w; x++) img[y][x] = 0.5f;
  printf("cudaMemset2D: %s\n", cudaGetErrorName(cudaMemset2D(dp, pitch, 0, w * sizeof(float), hgt)));
  printf("cudaMemcpy2D H2D: %s\n", cudaGetErrorName(cudaMemcpy2D(dp, pitch, img, w * sizeof(float), (w - 3) * sizeof(float), hgt, cudaMemcpyHostToDevice)));
  rows<<<hgt, 32>>>(dp, pitch, w, hgt);
  float back[hgt][w];
  printf("cudaMemcpy2D D2H: %s\n", cudaGetErrorName(cudaMemcpy2D(back, w * sizeof(float), dp, pitch, w * sizeof(float), hgt, cudaMemcpyDeviceToHost)));
  for (int y = 0; y < hgt; y += 3) {
    for (int x = 0; x < w; x++) printf(" %g", back[y][x]);
    printf("\n");
  }
  size_t freeb = 0, total = 0;
  cudaMemGetInfo(&freeb, &total);
  printf("cudaMemGetInfo: free <= total: %d, total > 0: %d\n", (int)(freeb <= total), (int)(total > 0));
  cudaFree(a); cudaFree(b); cudaFree(dp);
  return 0;
}
