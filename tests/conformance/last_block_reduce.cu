// last_block_reduce: single-pass sum over all blocks: each block writes its partial
// sum, calls __threadfence(), takes a ticket with atomicInc, and the block that takes
// the last ticket adds up all partial sums (reading them through volatile pointers).
// Also __threadfence_block and __threadfence_system compile and run.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <vector>

__device__ unsigned int ticket = 0;

__global__ void sum_all(const int *in, int n, volatile int *partial, int *result) {
  __shared__ int s[128];
  __shared__ bool am_last;
  int t = threadIdx.x;
  int v = 0;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) v += in[i];
  s[t] = v;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (t < k) s[t] += s[t + k];
    __syncthreads();
  }
  if (t == 0) {
    partial[blockIdx.x] = s[0];
    __threadfence();
    unsigned int my = atomicInc(&ticket, gridDim.x);
    am_last = (my == gridDim.x - 1);
  }
  __syncthreads();
  if (am_last) {
    int acc = 0;
    for (int b = t; b < gridDim.x; b += blockDim.x) acc += partial[b];
    s[t] = acc;
    __syncthreads();
    for (int k = blockDim.x / 2; k > 0; k >>= 1) {
      if (t < k) s[t] += s[t + k];
      __syncthreads();
    }
    if (t == 0) { *result = s[0]; ticket = 0; }
  }
  __threadfence_block();
  __threadfence_system();
}

int main() {
  const int n = 300000, blocks = 97;
  std::vector<int> h(n);
  long long want = 0;
  for (int i = 0; i < n; i++) { h[i] = (i % 100) - 49; want += h[i]; }
  int *din, *dpart, *dres, res = 0;
  cudaMalloc(&din, n * sizeof(int)); cudaMalloc(&dpart, blocks * sizeof(int)); cudaMalloc(&dres, sizeof(int));
  cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  for (int rep = 0; rep < 3; rep++) {
    cudaMemset(dres, 0, sizeof(int));
    sum_all<<<blocks, 128>>>(din, n, dpart, dres);
    cudaMemcpy(&res, dres, sizeof(int), cudaMemcpyDeviceToHost);
    printf("run %d: sum %d (expected %lld)\n", rep, res, want);
  }
  return 0;
}
