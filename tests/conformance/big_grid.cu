// big_grid: a one-dimensional grid with more than 65535 blocks (x may go up to
// 2^31-1), a 2D grid of 65535 rows, and a kernel launched 200 times in a row.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void mark(unsigned char *flags, long long n) {
  long long i = (long long)blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) flags[i] = (unsigned char)(1 + (i % 7));
}

__global__ void rows(int *count) {
  if (threadIdx.x == 0 && blockIdx.y == gridDim.y - 1) atomicAdd(count, 1);
  if (threadIdx.x == 0 && blockIdx.x == 0) atomicAdd(count + 1, (int)blockIdx.y % 3);
}

__global__ void tick(int *c) { atomicAdd(c, 1); }

int main() {
  const long long n = 200000LL * 32 + 5;
  unsigned char *d;
  cudaMalloc(&d, n);
  cudaMemset(d, 0, n);
  unsigned blocks = (unsigned)((n + 31) / 32);
  mark<<<blocks, 32>>>(d, n);
  printf("blocks: %u, launch: %s\n", blocks, cudaGetErrorName(cudaGetLastError()));
  unsigned char *h = new unsigned char[n];
  cudaMemcpy(h, d, n, cudaMemcpyDeviceToHost);
  long long sum = 0, zeros = 0;
  for (long long i = 0; i < n; i++) { sum += h[i]; zeros += h[i] == 0; }
  printf("sum %lld, unset %lld\n", sum, zeros);
  int *c, hc[2];
  cudaMalloc(&c, 2 * sizeof(int));
  cudaMemset(c, 0, 2 * sizeof(int));
  rows<<<dim3(3, 65535), 32>>>(c);
  cudaMemcpy(hc, c, sizeof(hc), cudaMemcpyDeviceToHost);
  printf("2D grid: last-row blocks %d, sum of y%%3 over x=0 blocks %d\n", hc[0], hc[1]);
  cudaMemset(c, 0, sizeof(int));
  for (int i = 0; i < 200; i++) tick<<<2, 64>>>(c);
  cudaMemcpy(hc, c, sizeof(int), cudaMemcpyDeviceToHost);
  printf("200 launches: %d\n", hc[0]);
  delete[] h;
  return 0;
}
