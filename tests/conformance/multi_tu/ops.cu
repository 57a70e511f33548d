// multi_tu (ops.cu): kernels and a __device__ variable private to this translation unit,
// reached from main.cu through host wrapper functions.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include "shared.h"

__device__ int ops_counter = 0;

__global__ void add_constant(int *p, int n, int c) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { p[i] += c; atomicAdd(&ops_counter, 1); }
}

int add_constant_on_device(int *d, int n, int c) {
  add_constant<<<(n + 3) / 4, 4>>>(d, n, c);
  add_constant<<<1, n>>>(d, n, -1);
  return 2;
}

int read_ops_counter() {
  int v = -1;
  cudaMemcpyFromSymbol(&v, ops_counter, sizeof(int));
  return v;
}
