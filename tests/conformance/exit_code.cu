// exit_code: the program's exit status is whatever main returns (3 here), after a
// kernel has run and its printf output has been flushed.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void hello() { printf("hello from the device\n"); }

int main() {
  hello<<<1, 1>>>();
  cudaDeviceSynchronize();
  printf("returning 3\n");
  return 3;
}
