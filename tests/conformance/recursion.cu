// recursion: recursive __device__ functions (factorial, Fibonacci, Ackermann-like,
// mutual recursion) evaluated per thread.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__device__ unsigned long long fact(int n) { return n <= 1 ? 1ULL : (unsigned long long)n * fact(n - 1); }
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ int is_odd(int n);
__device__ int is_even(int n) { return n == 0 ? 1 : is_odd(n - 1); }
__device__ int is_odd(int n) { return n == 0 ? 0 : is_even(n - 1); }
__device__ int gcd(int a, int b) { return b == 0 ? a : gcd(b, a % b); }
__device__ void hanoi(int n, int from, int to, int via, int *moves) {
  if (n == 0) return;
  hanoi(n - 1, from, via, to, moves);
  (*moves)++;
  hanoi(n - 1, via, to, from, moves);
}

__global__ void run(unsigned long long *f, int *fb, int *parity, int *g, int *h) {
  int i = threadIdx.x;
  f[i] = fact(i);
  fb[i] = fib(i);
  parity[i] = is_even(i);
  g[i] = gcd(1071 * (i + 1), 462);
  int m = 0;
  hanoi(i % 12, 0, 2, 1, &m);
  h[i] = m;
}

int main() {
  const int n = 21;
  unsigned long long *df, hf[n];
  int *dfb, *dp, *dg, *dh, hfb[n], hp[n], hg[n], hh[n];
  cudaMalloc(&df, sizeof(hf)); cudaMalloc(&dfb, sizeof(hfb)); cudaMalloc(&dp, sizeof(hp));
  cudaMalloc(&dg, sizeof(hg)); cudaMalloc(&dh, sizeof(hh));
  run<<<1, n>>>(df, dfb, dp, dg, dh);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %s\n", cudaGetErrorName(e));
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hfb, dfb, sizeof(hfb), cudaMemcpyDeviceToHost);
  cudaMemcpy(hp, dp, sizeof(hp), cudaMemcpyDeviceToHost);
  cudaMemcpy(hg, dg, sizeof(hg), cudaMemcpyDeviceToHost);
  cudaMemcpy(hh, dh, sizeof(hh), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    printf("%2d: %2d! = %llu, fib = %d, even = %d, gcd = %d, hanoi moves = %d\n", i, i, hf[i], hfb[i], hp[i], hg[i], hh[i]);
  return 0;
}
