// Kernels that call device code of library.cu (separable compilation), and launch helpers
// for main.cu.
#include <cstdio>
#include "shared.h"

static __device__ int helper(int x) { return x + 1; }

__global__ void k_sum(const int *in, int *out) {
  int s = block_sum(in + blockIdx.x * blockDim.x);
  if (threadIdx.x == 0) out[blockIdx.x] = s + bias;
}

__global__ void k_apply(int *data, Params p) { data[threadIdx.x] = apply(p, twice(data[threadIdx.x])); }

__global__ void k_helpers(int *o) {
  o[0] = helper(1);
  o[1] = other_helper();
}

void run_sum(const int *in, int *out, int blocks, int threads) { k_sum<<<blocks, threads>>>(in, out); }
void run_apply(int *data, int n, Params p) { k_apply<<<1, n>>>(data, p); }
void run_helpers(int *o) { k_helpers<<<1, 1>>>(o); }
