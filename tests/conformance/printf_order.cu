// printf_order: host printf and device printf interleave at CUDA's flush points
// (cudaDeviceSynchronize, blocking cudaMemcpy), also when stdout is a
// pipe; device output of a kernel that the program never synchronises with is lost
// at exit on a GPU.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void say(int tag) { printf("device says %d\n", tag); }

int main() {
  printf("host 1\n");
  say<<<1, 1>>>(1);
  printf("host 2 (launched, not synchronised)\n");
  cudaDeviceSynchronize();
  printf("host 3 (after cudaDeviceSynchronize)\n");
  say<<<1, 1>>>(2);
  say<<<1, 1>>>(3);
  int *d, h = 0;
  cudaMalloc(&d, sizeof(int));
  printf("host 4 (two launches)\n");
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("host 5 (after blocking cudaMemcpy)\n");
  say<<<1, 1>>>(4);
  printf("host 6 (launched 4, returning without synchronising: device says 4 never appears)\n");
  return 0;
}
