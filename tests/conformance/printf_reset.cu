// printf_reset: cudaDeviceReset flushes the output of a kernel that was never
// synchronised with (and the program exits right after).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void say(int a, int b) { printf("device: %d + %d = %d\n", a, b, a + b); }

int main() {
  printf("before launch\n");
  say<<<1, 1>>>(2, 3);
  printf("before cudaDeviceReset\n");
  cudaError_t e = cudaDeviceReset();
  printf("after cudaDeviceReset: %s\n", cudaGetErrorName(e));
  return 0;
}
