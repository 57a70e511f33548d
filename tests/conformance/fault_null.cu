// fault_null: a kernel that writes through a null pointer; the launch itself succeeds,
// the fault is reported by the next synchronisation as cudaErrorIllegalAddress, it is
// sticky (later calls fail too), and the program prints it and exits with 0.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void good(int *p) { p[threadIdx.x] = threadIdx.x; }
__global__ void bad(int *p, int idx) { if (threadIdx.x == 5) p[idx] = 42; }

int main() {
  int *d;
  cudaMalloc(&d, 64 * sizeof(int));
  good<<<1, 64>>>(d);
  printf("good kernel: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  bad<<<2, 32>>>(nullptr, 3);
  cudaError_t launch = cudaGetLastError();
  cudaError_t sync = cudaDeviceSynchronize();
  printf("launch: %s\n", cudaGetErrorName(launch));
  printf("sync: %s: %s\n", cudaGetErrorName(sync), cudaGetErrorString(sync));
  printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  int h = 0;
  cudaError_t m = cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("later cudaMemcpy: %s\n", cudaGetErrorName(m));
  int *d2;
  printf("later cudaMalloc: %s\n", cudaGetErrorName(cudaMalloc(&d2, 16)));
  good<<<1, 1>>>(d);
  printf("later launch + sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("exiting normally\n");
  return 0;
}
