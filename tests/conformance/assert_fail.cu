// assert_fail: assert() in device code; passing assertions do nothing, a failing one
// makes the next synchronisation return cudaErrorAssert (sticky). The assertion message
// goes to stderr (not compared: its path depends on the command line).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cassert>

__global__ void check_positive(const int *v, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) assert(v[i] > 0);
}

int main() {
  int h[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  int *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  check_positive<<<1, 8>>>(d, 8);
  printf("all positive: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  h[6] = -1;
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  check_positive<<<2, 4>>>(d, 8);
  cudaError_t e = cudaDeviceSynchronize();
  printf("one negative: %s: %s\n", cudaGetErrorName(e), cudaGetErrorString(e));
  printf("again: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("cudaMemcpy afterwards: %s\n", cudaGetErrorName(cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost)));
  return 0;
}
