// streams_semantics: the legacy default stream orders itself with blocking streams
// (a kernel in a blocking stream sees what a legacy-stream kernel wrote, and the legacy
// stream sees a blocking stream's work); priorities and their range; stream flags;
// cudaStreamWaitEvent across streams; host functions and callbacks in stream order,
// also across streams through events; event flags (BlockingSync, DisableTiming,
// Interprocess); cudaErrorNotReady from a query does not become the last error.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void slow_write(int *p, int v, int spins) {
  long long t = 0;
  for (int i = 0; i < spins; i++) t += clock64() & 1;
  p[0] = v + (int)(t & 0);
}
__global__ void copy_plus(int *dst, const int *src, int add) { dst[0] = src[0] + add; }
__global__ void spin_on_host_flag(volatile int *flag) { while (*flag == 0) { } }

static int order_log[16];
static int order_n = 0;
static void CUDART_CB host_fn(void *arg) { order_log[order_n++] = (int)(size_t)arg; }
static void CUDART_CB callback(cudaStream_t, cudaError_t status, void *arg) {
  order_log[order_n++] = 100 + (int)(size_t)arg + (status == cudaSuccess ? 0 : 1000);
}

int main() {
  int lo = 1, hi = 1;
  cudaError_t pe = cudaDeviceGetStreamPriorityRange(&lo, &hi);
  printf("priority range: %s least=%d greatest=%d\n", cudaGetErrorName(pe), lo, hi);
  cudaStream_t hp, lp, blocking, nonblocking;
  printf("create with priority: %s %s\n", cudaGetErrorName(cudaStreamCreateWithPriority(&hp, cudaStreamNonBlocking, hi)),
         cudaGetErrorName(cudaStreamCreateWithPriority(&lp, cudaStreamDefault, lo + 7)));
  int p1 = 99, p2 = 99;
  unsigned f1 = 99, f2 = 99;
  cudaStreamGetPriority(hp, &p1); cudaStreamGetPriority(lp, &p2);
  cudaStreamGetFlags(hp, &f1); cudaStreamGetFlags(lp, &f2);
  printf("priorities: %d %d flags: %u %u\n", p1, p2, f1, f2);
  cudaStreamCreate(&blocking);
  cudaStreamCreateWithFlags(&nonblocking, cudaStreamNonBlocking);
  unsigned f0 = 99;
  cudaError_t fe = cudaStreamGetFlags(0, &f0);
  printf("legacy flags: %s %u\n", cudaGetErrorName(fe), f0);

  int *d;
  cudaMalloc(&d, 16 * sizeof(int));
  cudaMemset(d, 0, 16 * sizeof(int));
  // Legacy stream then a blocking stream: ordered.
  slow_write<<<1, 1>>>(d, 41, 200000);
  copy_plus<<<1, 1, 0, blocking>>>(d + 1, d, 1);
  // A blocking stream then the legacy stream: ordered.
  slow_write<<<1, 1, 0, blocking>>>(d + 2, 7, 200000);
  copy_plus<<<1, 1>>>(d + 3, d + 2, 1);
  int h[4];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("legacy->blocking: %d, blocking->legacy: %d\n", h[1], h[3]);

  // Event-ordered work across streams, with host functions on both sides.
  cudaEvent_t e1, e2;
  cudaEventCreateWithFlags(&e1, cudaEventDisableTiming);
  cudaEventCreateWithFlags(&e2, cudaEventBlockingSync);
  slow_write<<<1, 1, 0, hp>>>(d + 4, 5, 100000);
  cudaLaunchHostFunc(hp, host_fn, (void *)1);
  cudaEventRecord(e1, hp);
  cudaStreamWaitEvent(lp, e1, 0);
  copy_plus<<<1, 1, 0, lp>>>(d + 5, d + 4, 10);
  cudaStreamAddCallback(lp, callback, (void *)2, 0);
  cudaLaunchHostFunc(lp, host_fn, (void *)3);
  cudaEventRecord(e2, lp);
  cudaStreamWaitEvent(nonblocking, e2, 0);
  cudaLaunchHostFunc(nonblocking, host_fn, (void *)4);
  cudaStreamSynchronize(nonblocking);
  printf("event sync (blocking-sync event): %s\n", cudaGetErrorName(cudaEventSynchronize(e2)));
  cudaMemcpy(h, d + 4, 2 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("across streams: %d %d\n", h[0], h[1]);
  printf("host function order:");
  for (int i = 0; i < order_n; i++) printf(" %d", order_log[i]);
  printf("\n");

  // Event flags.
  float ms = -1;
  cudaEvent_t t0, t1, ipc, bad;
  cudaEventCreate(&t0);
  cudaEventCreate(&t1);
  cudaEventRecord(t0, 0);
  cudaEventRecord(t1, 0);
  cudaEventSynchronize(t1);
  printf("elapsed timed: %s\n", cudaGetErrorName(cudaEventElapsedTime(&ms, t0, t1)));
  cudaEventRecord(e1, 0);
  cudaEventSynchronize(e1);
  printf("elapsed with DisableTiming end: %s\n", cudaGetErrorName(cudaEventElapsedTime(&ms, t0, e1)));
  printf("elapsed with DisableTiming start: %s\n", cudaGetErrorName(cudaEventElapsedTime(&ms, e1, t1)));
  cudaGetLastError();
  printf("interprocess without DisableTiming: %s\n", cudaGetErrorName(cudaEventCreateWithFlags(&bad, cudaEventInterprocess)));
  cudaGetLastError();
  printf("interprocess with DisableTiming: %s\n",
         cudaGetErrorName(cudaEventCreateWithFlags(&ipc, cudaEventInterprocess | cudaEventDisableTiming)));
  printf("bad event flags: %s\n", cudaGetErrorName(cudaEventCreateWithFlags(&bad, 0x40)));
  cudaGetLastError();

  // cudaErrorNotReady is not sticky and does not become the last error.
  int *hflag;
  cudaHostAlloc(&hflag, sizeof(int), cudaHostAllocMapped);
  *hflag = 0;
  int *dflag;
  cudaHostGetDevicePointer(&dflag, hflag, 0);
  cudaEvent_t done;
  cudaEventCreate(&done);
  spin_on_host_flag<<<1, 1, 0, nonblocking>>>(dflag);
  cudaEventRecord(done, nonblocking);
  printf("query while running: %s %s\n", cudaGetErrorName(cudaStreamQuery(nonblocking)), cudaGetErrorName(cudaEventQuery(done)));
  printf("last error after NotReady: %s\n", cudaGetErrorName(cudaGetLastError()));
  *(volatile int *)hflag = 1;
  printf("sync: %s\n", cudaGetErrorName(cudaStreamSynchronize(nonblocking)));
  printf("query when done: %s %s\n", cudaGetErrorName(cudaStreamQuery(nonblocking)), cudaGetErrorName(cudaEventQuery(done)));
  printf("destroy: %s %s %s %s\n", cudaGetErrorName(cudaStreamDestroy(hp)), cudaGetErrorName(cudaStreamDestroy(lp)),
         cudaGetErrorName(cudaStreamDestroy(blocking)), cudaGetErrorName(cudaStreamDestroy(nonblocking)));
  printf("destroy legacy: %s\n", cudaGetErrorName(cudaStreamDestroy(0)));
  cudaGetLastError();
  cudaFreeHost(hflag);
  cudaFree(d);
  return 0;
}
