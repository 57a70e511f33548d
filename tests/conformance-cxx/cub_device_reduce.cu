// cub_device_reduce: cub::DeviceReduce::Sum (the two-call temporary-storage protocol) over 100000 ints, as nvcc 13.0 builds CCCL's device-wide reduction on sm_90.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cub/device/device_reduce.cuh>

int main() {
  const int n = 100000;
  int *in, *out;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&out, sizeof(int));
  long long ref = 0;
  for (int i = 0; i < n; i++) { in[i] = (i * 7919) % 1000 - 400; ref += in[i]; }
  void* tmp = nullptr;
  size_t bytes = 0;
  cudaError_t e1 = cub::DeviceReduce::Sum(tmp, bytes, in, out, n);
  printf("query: %s, temporary storage %s\n", cudaGetErrorString(e1), bytes > 0 ? "needed" : "none");
  cudaMalloc(&tmp, bytes);
  cudaError_t e2 = cub::DeviceReduce::Sum(tmp, bytes, in, out, n);
  cudaError_t e4 = cudaDeviceSynchronize();
  printf("sum: %s, sync %s\n", cudaGetErrorString(e2), cudaGetErrorString(e4));
  printf("sum %d (host %lld)\n", out[0], ref);
  cudaFree(tmp);
  return 0;
}
