// launch_blocking_env: with CUDA_LAUNCH_BLOCKING=1 (set before the first CUDA call) a
// kernel launch returns after the kernel finished: its write to mapped host memory is
// visible right away, without a synchronisation.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cstdlib>

__global__ void slow_store(volatile int *p, int v) {
  long long t = 0;
  for (int i = 0; i < 2000000; i++) t += clock64() & 1;
  *p = v + (int)(t & 0);
}

int main() {
  setenv("CUDA_LAUNCH_BLOCKING", "1", 1);
  int *h, *d;
  cudaHostAlloc(&h, sizeof(int), cudaHostAllocMapped);
  *h = 0;
  cudaHostGetDevicePointer(&d, h, 0);
  cudaStream_t s;
  cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
  slow_store<<<1, 1, 0, s>>>(d, 42);
  printf("value right after the launch: %d\n", *(volatile int *)h);
  slow_store<<<1, 1>>>(d, 43);
  printf("value after a legacy-stream launch: %d\n", *(volatile int *)h);
  cudaStreamDestroy(s);
  cudaFreeHost(h);
  return 0;
}
