// fault_trap: __trap() in a kernel ends it with cudaErrorLaunchFailure at the next
// synchronisation; the error is sticky; the program reports it and exits with 1.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void maybe_trap(int *p, int bad) {
  p[threadIdx.x] = threadIdx.x;
  if (threadIdx.x == bad) __trap();
}

int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  maybe_trap<<<1, 32>>>(d, -1);
  printf("no trap: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  maybe_trap<<<1, 32>>>(d, 7);
  printf("launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaError_t e = cudaDeviceSynchronize();
  printf("trap: %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
  printf("still: %s\n", cudaGetErrorName(cudaMemset(d, 0, 4)));
  if (e != cudaSuccess) {
    fprintf(stderr, "CUDA error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}
