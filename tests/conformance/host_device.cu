// host_device: __host__ __device__ functions called from host and device code give
// the same results; __CUDA_ARCH__ distinguishes the two compilations; __device__
// helpers with __forceinline__ / __noinline__; a static __device__ function.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__host__ __device__ int collatz_steps(unsigned long long n) {
  int steps = 0;
  while (n != 1) { n = (n & 1) ? 3 * n + 1 : n / 2; steps++; }
  return steps;
}

__host__ __device__ inline float lerp(float a, float b, float t) { return a + t * (b - a); }

__host__ __device__ int where() {
#ifdef __CUDA_ARCH__
  return 1;   // device compilation
#else
  return 0;   // host compilation
#endif
}

__device__ __forceinline__ int sq(int x) { return x * x; }
__device__ __noinline__ int cube(int x) { return x * sq(x); }
static __device__ int twice(int x) { return 2 * x; }

__global__ void k(int *steps, float *l, int *w, int *c) {
  int i = threadIdx.x;
  steps[i] = collatz_steps(i + 1);
  l[i] = lerp(0.0f, 8.0f, i / 8.0f);
  w[i] = where();
  c[i] = cube(i) + twice(i);
}

int main() {
  const int n = 16;
  int *ds, *dw, *dc; float *dl;
  cudaMalloc(&ds, n * sizeof(int)); cudaMalloc(&dw, n * sizeof(int)); cudaMalloc(&dc, n * sizeof(int)); cudaMalloc(&dl, n * sizeof(float));
  k<<<1, n>>>(ds, dl, dw, dc);
  int s[n], w[n], c[n]; float l[n];
  cudaMemcpy(s, ds, sizeof(s), cudaMemcpyDeviceToHost);
  cudaMemcpy(w, dw, sizeof(w), cudaMemcpyDeviceToHost);
  cudaMemcpy(c, dc, sizeof(c), cudaMemcpyDeviceToHost);
  cudaMemcpy(l, dl, sizeof(l), cudaMemcpyDeviceToHost);
  int same = 1;
  for (int i = 0; i < n; i++) {
    printf("%2d: collatz %3d (host %3d) lerp %g (host %g) where %d (host %d) cube+twice %d\n", i, s[i], collatz_steps(i + 1), l[i], lerp(0.0f, 8.0f, i / 8.0f), w[i], where(), c[i]);
    same &= s[i] == collatz_steps(i + 1) && l[i] == lerp(0.0f, 8.0f, i / 8.0f);
  }
  printf("host and device agree: %d\n", same);
  return 0;
}
