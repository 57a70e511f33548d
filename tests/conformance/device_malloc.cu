// device_malloc: malloc/free/memset/memcpy in device code, per-thread buffers, an
// allocation made in one kernel and used and freed in a later one, the default heap
// size limit (cudaLimitMallocHeapSize), and malloc returning NULL when the heap is full.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__device__ int *g_saved[4];

__global__ void per_thread(int *out) {
  int t = threadIdx.x;
  int n = t + 1;
  int *buf = (int *)malloc(n * sizeof(int));
  if (!buf) { out[t] = -1; return; }
  memset(buf, 0, n * sizeof(int));
  for (int i = 0; i < n; i++) buf[i] += i * t;
  int *copy = (int *)malloc(n * sizeof(int));
  memcpy(copy, buf, n * sizeof(int));
  int s = 0;
  for (int i = 0; i < n; i++) s += copy[i];
  out[t] = s;
  free(copy);
  free(buf);
}

__global__ void keep() {
  int t = threadIdx.x;
  g_saved[t] = (int *)malloc(16 * sizeof(int));
  for (int i = 0; i < 16; i++) g_saved[t][i] = t * 100 + i;
}

__global__ void use_and_free(int *out) {
  int t = threadIdx.x;
  out[t] = g_saved[t][15];
  free(g_saved[t]);
}

__global__ void too_big(int *out) {
  void *p = malloc((size_t)1 << 40);
  out[0] = (p == NULL);
}

int main() {
  size_t heap = 0;
  cudaDeviceGetLimit(&heap, cudaLimitMallocHeapSize);
  printf("default heap size: %zu\n", heap);
  int *d, h[64];
  cudaMalloc(&d, sizeof(h));
  per_thread<<<1, 64>>>(d);
  printf("per_thread: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("sums: %d %d %d %d\n", h[0], h[1], h[10], h[63]);
  keep<<<1, 4>>>();
  use_and_free<<<1, 4>>>(d);
  cudaMemcpy(h, d, 4 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("kept across kernels: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
  too_big<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("malloc(1 TiB) returned NULL: %d\n", h[0]);
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
