// clock: clock() and clock64() in device code increase monotonically within a thread
// (only the ordering is checked, never the values).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void k(int *ok, long long *delta_positive) {
  long long a = clock64();
  clock_t c1 = clock();
  volatile float x = 1.0f;
  for (int i = 0; i < 1000; i++) x = x * 1.0001f + 0.5f;
  long long b = clock64();
  clock_t c2 = clock();
  long long c = clock64();
  int good = (b > a) && (c >= b);
  ok[threadIdx.x + blockIdx.x * blockDim.x] = good;
  if (threadIdx.x == 0 && blockIdx.x == 0) *delta_positive = (b - a) > 0 && (long long)(c2 - c1) != 0;
}

int main() {
  const int n = 256;
  int *d, h[n];
  long long *dp, hp = 0;
  cudaMalloc(&d, sizeof(h)); cudaMalloc(&dp, sizeof(long long));
  k<<<4, 64>>>(d, dp);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hp, dp, sizeof(hp), cudaMemcpyDeviceToHost);
  int good = 0;
  for (int i = 0; i < n; i++) good += h[i];
  printf("monotonic in %d of %d threads, positive deltas: %lld\n", good, n, hp);
  return 0;
}
