// launch_bounds: __launch_bounds__(maxThreads) and (maxThreads, minBlocks) kernels run
// correctly within the bound; a launch with more threads than the bound fails at
// launch time with the error CUDA reports, which is not sticky.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void __launch_bounds__(128) bounded(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = threadIdx.x * 2;
}
__global__ void __launch_bounds__(256, 2) bounded2(int *out) {
  out[blockIdx.x * blockDim.x + threadIdx.x] += 1;
}

int main() {
  int *d, h[512];
  cudaMalloc(&d, sizeof(h));
  cudaMemset(d, 0, sizeof(h));
  bounded<<<4, 128>>>(d);
  cudaError_t e = cudaGetLastError();
  printf("128 threads with __launch_bounds__(128): %s\n", cudaGetErrorName(e));
  bounded2<<<2, 256>>>(d);
  printf("256 threads with __launch_bounds__(256, 2): %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  long s = 0;
  for (int i = 0; i < 512; i++) s += h[i];
  printf("checksum %ld\n", s);
  bounded<<<1, 256>>>(d);
  e = cudaGetLastError();
  printf("256 threads with __launch_bounds__(128): %s (%s)\n", cudaGetErrorName(e), cudaGetErrorString(e));
  printf("cudaDeviceSynchronize afterwards: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  bounded2<<<1, 257>>>(d);
  printf("257 threads with __launch_bounds__(256, 2): %s\n", cudaGetErrorName(cudaGetLastError()));
  cudaFuncAttributes attr;
  cudaFuncGetAttributes(&attr, bounded);
  printf("cudaFuncGetAttributes(bounded).maxThreadsPerBlock = %d\n", attr.maxThreadsPerBlock);
  return 0;
}
