// Separable compilation: main.cu sets a device variable defined in library.cu through its
// symbol and launches kernels of kernels.cu, which call device functions of library.cu.
// Expected output: nvcc 13.0 -arch=sm_90 -rdc=true on an NVIDIA GPU.
#include <cstdio>
#include "shared.h"

void run_sum(const int *in, int *out, int blocks, int threads);
void run_apply(int *data, int n, Params p);
void run_helpers(int *o);

int main() {
  const int blocks = 3, threads = 128, n = blocks * threads;
  int h[n];
  for (int i = 0; i < n; i++) h[i] = (i * 7) % 19;
  int *in, *out;
  cudaMalloc(&in, sizeof h);
  cudaMalloc(&out, sizeof h);
  cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
  int b = 1000;
  cudaMemcpyToSymbol(bias, &b, sizeof b);
  run_sum(in, out, blocks, threads);
  int sums[blocks];
  cudaMemcpy(sums, out, sizeof sums, cudaMemcpyDeviceToHost);
  for (int i = 0; i < blocks; i++) printf("block %d: %d\n", i, sums[i]);
  run_apply(in, 8, Params{3, -1});
  cudaMemcpy(h, in, 8 * sizeof(int), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 8; i++) printf("%d ", h[i]);
  printf("\n");
  run_helpers(out);
  cudaMemcpy(h, out, 2 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("helpers: %d %d\n", h[0], h[1]);
  printf("status: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
