// Device code defined here and used from kernels.cu: a function with __syncthreads()
// and block-scope shared memory, a struct passed by value, a device variable, a static
// function whose name kernels.cu also uses, and a template instantiated in both units.
#include "shared.h"

__device__ int bias = 7;

__device__ int block_sum(const int *in) {
  __shared__ int s[256];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  return s[0];
}

__device__ int apply(Params p, int x) { return twice(x) * p.scale + p.offset; }

static __device__ int helper(int x) { return x + 100; }
__device__ int other_helper() { return helper(1); }
