// streams_events: streams created and destroyed, kernels and cudaMemcpyAsync in
// several streams, cudaStreamSynchronize, cudaStreamQuery, cudaStreamWaitEvent across
// streams, cudaLaunchHostFunc / cudaStreamAddCallback ordering within a stream, events
// recorded and synchronised (only success is checked, never the elapsed time).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void fill(int *p, int n, int v) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = v + i; }
__global__ void addk(int *dst, const int *src, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) dst[i] += src[i]; }

static int order_log[8];
static int order_n = 0;
static void CUDART_CB host_fn(void *arg) { order_log[order_n++] = (int)(size_t)arg; }
static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *arg) { order_log[order_n++] = 100 + (int)(size_t)arg + (status == cudaSuccess ? 0 : 1000); }

int main() {
  const int n = 4096;
  cudaStream_t s1, s2;
  printf("create: %s %s\n", cudaGetErrorName(cudaStreamCreate(&s1)), cudaGetErrorName(cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking)));
  int *a, *b, *h;
  cudaMalloc(&a, n * sizeof(int)); cudaMalloc(&b, n * sizeof(int));
  cudaMallocHost(&h, n * sizeof(int));
  cudaEvent_t start, stop, ev;
  cudaEventCreate(&start); cudaEventCreate(&stop); cudaEventCreateWithFlags(&ev, cudaEventDisableTiming);
  cudaEventRecord(start, s1);
  fill<<<n / 256, 256, 0, s1>>>(a, n, 1000);
  cudaEventRecord(ev, s1);
  fill<<<n / 256, 256, 0, s2>>>(b, n, 0);
  cudaStreamWaitEvent(s2, ev, 0);
  addk<<<n / 256, 256, 0, s2>>>(b, a, n);
  cudaLaunchHostFunc(s2, host_fn, (void *)1);
  cudaStreamAddCallback(s2, callback, (void *)2, 0);
  cudaLaunchHostFunc(s2, host_fn, (void *)3);
  cudaMemcpyAsync(h, b, n * sizeof(int), cudaMemcpyDeviceToHost, s2);
  cudaEventRecord(stop, s2);
  printf("stream sync: %s\n", cudaGetErrorName(cudaStreamSynchronize(s2)));
  printf("event sync: %s\n", cudaGetErrorName(cudaEventSynchronize(stop)));
  printf("query after sync: %s %s %s\n", cudaGetErrorName(cudaStreamQuery(s2)), cudaGetErrorName(cudaEventQuery(stop)), cudaGetErrorName(cudaEventQuery(start)));
  float ms = -1;
  cudaError_t e = cudaEventElapsedTime(&ms, start, stop);
  printf("elapsed time: %s, non-negative: %d\n", cudaGetErrorName(e), (int)(ms >= 0));
  printf("h[0]=%d h[1]=%d h[4095]=%d\n", h[0], h[1], h[n - 1]);
  printf("host function order:");
  for (int i = 0; i < order_n; i++) printf(" %d", order_log[i]);
  printf("\n");
  // default stream ordering: legacy stream waits for s1 work
  fill<<<n / 256, 256, 0, s1>>>(a, n, 7);
  cudaMemcpy(h, a, sizeof(int) * 2, cudaMemcpyDeviceToHost);
  printf("after default-stream copy: %d %d\n", h[0], h[1]);
  cudaMemsetAsync(a, 0, n * sizeof(int), s1);
  cudaMemcpyAsync(h, a, 8, cudaMemcpyDeviceToHost, s1);
  cudaStreamSynchronize(s1);
  printf("after memsetAsync: %d %d\n", h[0], h[1]);
  printf("destroy: %s %s\n", cudaGetErrorName(cudaStreamDestroy(s1)), cudaGetErrorName(cudaStreamDestroy(s2)));
  printf("event destroy: %s\n", cudaGetErrorName(cudaEventDestroy(ev)));
  cudaEventDestroy(start); cudaEventDestroy(stop);
  cudaFreeHost(h);
  return 0;
}
