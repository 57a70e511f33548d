// device_props: cudaGetDeviceCount, cudaGetDevice/SetDevice, and the cudaDeviceProp
// fields and attributes that are the same on every CUDA device of compute capability
// 3.0 and later (no name, memory sizes or clocks are printed).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

int main() {
  int count = 0;
  cudaError_t e = cudaGetDeviceCount(&count);
  printf("cudaGetDeviceCount: %s, at least one: %d\n", cudaGetErrorName(e), (int)(count >= 1));
  printf("cudaSetDevice(0): %s\n", cudaGetErrorName(cudaSetDevice(0)));
  int dev = -1;
  cudaGetDevice(&dev);
  printf("current device: %d\n", dev);
  cudaDeviceProp p;
  e = cudaGetDeviceProperties(&p, 0);
  printf("cudaGetDeviceProperties: %s\n", cudaGetErrorName(e));
  printf("warpSize = %d\n", p.warpSize);
  printf("maxThreadsPerBlock = %d\n", p.maxThreadsPerBlock);
  printf("maxThreadsDim = (%d, %d, %d)\n", p.maxThreadsDim[0], p.maxThreadsDim[1], p.maxThreadsDim[2]);
  printf("maxGridSize = (%d, %d, %d)\n", p.maxGridSize[0], p.maxGridSize[1], p.maxGridSize[2]);
  printf("sharedMemPerBlock = %zu\n", p.sharedMemPerBlock);
  printf("totalConstMem = %zu\n", p.totalConstMem);
  printf("major >= 3: %d\n", (int)(p.major >= 3));
  printf("multiProcessorCount > 0: %d\n", (int)(p.multiProcessorCount > 0));
  printf("totalGlobalMem > 0: %d\n", (int)(p.totalGlobalMem > 0));
  int v = 0;
  cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0);              printf("attr WarpSize = %d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrMaxThreadsPerBlock, 0);    printf("attr MaxThreadsPerBlock = %d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrMaxBlockDimZ, 0);          printf("attr MaxBlockDimZ = %d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrMaxGridDimY, 0);           printf("attr MaxGridDimY = %d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrMaxSharedMemoryPerBlock, 0); printf("attr MaxSharedMemoryPerBlock = %d\n", v);
  cudaDeviceGetAttribute(&v, cudaDevAttrTotalConstantMemory, 0);   printf("attr TotalConstantMemory = %d\n", v);
  int major = 0;
  cudaDeviceGetAttribute(&major, cudaDevAttrComputeCapabilityMajor, 0);
  printf("attr major matches prop: %d\n", (int)(major == p.major));
  int rt = 0;
  cudaRuntimeGetVersion(&rt);
  printf("runtime version >= 12000: %d\n", (int)(rt >= 12000));
  size_t lim = 0;
  cudaDeviceGetLimit(&lim, cudaLimitStackSize);        printf("default stack size = %zu\n", lim);
  cudaDeviceGetLimit(&lim, cudaLimitMallocHeapSize);   printf("default malloc heap = %zu\n", lim);
  printf("cudaSetDevice(count): %s\n", cudaGetErrorName(cudaSetDevice(count)));
  printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
