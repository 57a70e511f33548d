// predefined_macros: macros nvcc defines in both compilation passes for -arch=sm_90:
// __CUDA_ARCH_LIST__ (the list of virtual architectures compiled for), __CUDACC__,
// __NVCC__, the CUDA version macros, and __CUDA_ARCH__ in the device pass only.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>
#define STR2(x) #x
#define STR(x) STR2(x)

__global__ void device_side(int* out) {
#ifdef __CUDA_ARCH_LIST__
  out[0] = __CUDA_ARCH_LIST__;
#else
  out[0] = -1;
#endif
#ifdef __CUDA_ARCH__
  out[1] = __CUDA_ARCH__;
#endif
#if defined(__CUDACC__) && defined(__NVCC__)
  out[2] = 1;
#endif
}

int main() {
#ifdef __CUDA_ARCH_LIST__
  printf("host __CUDA_ARCH_LIST__ = %s\n", STR(__CUDA_ARCH_LIST__));
#else
  printf("host __CUDA_ARCH_LIST__ undefined\n");
#endif
#ifdef __CUDA_ARCH__
  printf("host __CUDA_ARCH__ defined\n");
#else
  printf("host __CUDA_ARCH__ undefined\n");
#endif
#if defined(__CUDACC__) && defined(__NVCC__) && defined(__CUDACC_VER_MAJOR__) && defined(__CUDACC_VER_MINOR__) && defined(CUDART_VERSION)
  printf("host __CUDACC__ __NVCC__ __CUDACC_VER_MAJOR__=%d CUDART_VERSION=%d\n", __CUDACC_VER_MAJOR__, CUDART_VERSION);
#endif
  int* d;
  cudaMallocManaged(&d, 3 * sizeof(int));
  d[0] = d[1] = d[2] = 0;
  device_side<<<1, 1>>>(d);
  cudaDeviceSynchronize();
  printf("device __CUDA_ARCH_LIST__ = %d, __CUDA_ARCH__ = %d, __CUDACC__ and __NVCC__ %s\n", d[0], d[1], d[2] ? "defined" : "undefined");
  return 0;
}
