// Device faults: argv[1] = assert | trap | null | addr10 | recursion | oob.
#include <cstdio>
#include <cstring>
#include <cassert>
__global__ void k_assert(int *p, int lim) {
  int t = threadIdx.x;
  assert(t < lim);
  p[t] = t;
}
__global__ void k_trap(int *p) { if (threadIdx.x == 1) __trap(); p[threadIdx.x] = 1; }
__global__ void k_null(int *p) { p[threadIdx.x] = 1; }
__device__ int rec(volatile int *buf, int n) {
  volatile int local[64];
  for (int i = 0; i < 64; i++) local[i] = n + i;
  if (n < 0) return 0;
  return rec(buf, n + 1) + local[n & 63] + buf[0];
}
__global__ void k_rec(int *p) { p[threadIdx.x] = rec(p, 1); }
__global__ void k_ok(int *p) { p[threadIdx.x] = 7; }
static void r(const char *what, cudaError_t e) { printf("%-40s %s | %s\n", what, cudaGetErrorName(e), cudaGetErrorString(e)); fflush(stdout); }
int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "assert";
  int *d;
  cudaMalloc(&d, 1 << 20);
  cudaMemset(d, 0, 1 << 20);
  size_t st = 0; cudaDeviceGetLimit(&st, cudaLimitStackSize);
  printf("mode %s, stack limit %zu\n", m, st);
  if (!strcmp(m, "assert")) k_assert<<<2, 4>>>(d, 2);
  else if (!strcmp(m, "trap")) k_trap<<<1, 4>>>(d);
  else if (!strcmp(m, "null")) k_null<<<1, 4>>>((int *)0);
  else if (!strcmp(m, "addr10")) k_null<<<1, 1>>>((int *)0x10);
  else if (!strcmp(m, "oob")) k_null<<<1, 1>>>(d + (1 << 28));
  else if (!strcmp(m, "recursion")) k_rec<<<1, 1>>>(d);
  r("cudaGetLastError after launch", cudaGetLastError());
  r("cudaDeviceSynchronize", cudaDeviceSynchronize());
  r("cudaGetLastError", cudaGetLastError());
  r("cudaPeekAtLastError", cudaPeekAtLastError());
  r("cudaDeviceSynchronize again", cudaDeviceSynchronize());
  int *d2 = 0;
  r("cudaMalloc", cudaMalloc(&d2, 64));
  int h = 0;
  r("cudaMemcpy D2H", cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost));
  k_ok<<<1, 1>>>(d);
  r("launch of good kernel: cudaGetLastError", cudaGetLastError());
  r("cudaDeviceSynchronize", cudaDeviceSynchronize());
  r("cudaGetLastError", cudaGetLastError());
  r("cudaDeviceReset", cudaDeviceReset());
  r("cudaMalloc after reset", cudaMalloc(&d2, 64));
  k_ok<<<1, 1>>>(d2);
  r("good kernel after reset: sync", cudaDeviceSynchronize());
  printf("returning 0\n");
  return 0;
}
