// Prints __CUDA_ARCH__ as seen by device code; built with and without -arch.
#include <cstdio>
__global__ void k(int *out) {
#ifdef __CUDA_ARCH__
  *out = __CUDA_ARCH__;
#else
  *out = -1;
#endif
}
int main() {
  int *d, h = 0;
  cudaMalloc(&d, sizeof(int));
  k<<<1, 1>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("__CUDA_ARCH__=%d sync=%s\n", h, cudaGetErrorName(e));
#ifdef __CUDACC__
  printf("host: __CUDACC__=1 __CUDACC_VER_MAJOR__=%d __CUDACC_VER_MINOR__=%d __CUDACC_VER_BUILD__=%d CUDART_VERSION=%d\n",
         __CUDACC_VER_MAJOR__, __CUDACC_VER_MINOR__, __CUDACC_VER_BUILD__, CUDART_VERSION);
#endif
  printf("host: __cplusplus=%ld\n", (long)__cplusplus);
  return 0;
}
