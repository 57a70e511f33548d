// multi_tu (main.cu): a program of three translation units: main.cu (kernels and
// main), ops.cu (its own kernels, __device__ variable and a host wrapper that launches
// them), util.cpp (plain host C++ compiled by the host compiler). Built as
//   nvcc -arch=sm_90 -o multi_tu main.cu ops.cu util.cpp      (cuprite: same files)
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include "shared.h"

__global__ void square(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] *= p[i]; }

int main() {
  const int n = 10;
  int h[n];
  fill_sequence(h, n, 1);          // util.cpp
  int *d;
  cudaMalloc(&d, sizeof(h));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  square<<<1, 32>>>(d, n);
  int launches = add_constant_on_device(d, n, 5);   // ops.cu
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("values:");
  for (int i = 0; i < n; i++) printf(" %d", h[i]);
  printf("\nsum via util.cpp: %ld, launches in ops.cu: %d\n", sum_ints(h, n), launches);
  printf("ops.cu device counter: %d\n", read_ops_counter());
  return 0;
}
