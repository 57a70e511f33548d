// How many device printf lines survive when many threads print (default FIFO).
#include <cstdio>
__global__ void many() { printf("line %07d\n", blockIdx.x * blockDim.x + threadIdx.x); }
int main() {
  size_t v = 0;
  cudaDeviceGetLimit(&v, cudaLimitPrintfFifoSize);
  fprintf(stderr, "printf fifo limit = %zu\n", v);
  many<<<256, 256>>>();
  cudaError_t e = cudaDeviceSynchronize();
  fprintf(stderr, "sync=%s\n", cudaGetErrorName(e));
  return 0;
}
