// graph_capture: stream capture with a fork into two streams and a join through events
// (kernels, memset, memcpy, a host function), cudaStreamIsCapturing and
// cudaStreamGetCaptureInfo while capturing, instantiate and launch several times,
// re-capture with other arguments and cudaGraphExecUpdate, a graph launched into a
// capturing stream, capture modes, and the errors of illegal calls during capture.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void scale(float *x, float a, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] *= a; }
__global__ void add(float *x, const float *y, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] += y[i]; }
__global__ void fill(float *x, float v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) x[i] = v; }

static int host_calls = 0;
static void CUDART_CB count_call(void *) { host_calls++; }
#define E(x) cudaGetErrorName(x)

static const char *status_name(cudaStreamCaptureStatus s) {
  return s == cudaStreamCaptureStatusNone ? "None" : s == cudaStreamCaptureStatusActive ? "Active" : "Invalidated";
}

int main() {
  const int n = 1024;
  float *a, *b, *h;
  cudaMalloc(&a, n * sizeof(float));
  cudaMalloc(&b, n * sizeof(float));
  cudaMallocHost(&h, n * sizeof(float));
  cudaStream_t s1, s2, s3;
  cudaStreamCreate(&s1); cudaStreamCreate(&s2); cudaStreamCreate(&s3);
  cudaEvent_t fork, join;
  cudaEventCreate(&fork); cudaEventCreate(&join);

  cudaStreamCaptureStatus st;
  cudaError_t ce = cudaStreamIsCapturing(s1, &st);
  printf("before: %s %s\n", E(ce), status_name(st));
  printf("begin: %s\n", E(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal)));
  printf("begin again: %s\n", E(cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal)));
  cudaGetLastError();
  fill<<<n / 256, 256, 0, s1>>>(a, 1.0f, n);
  cudaEventRecord(fork, s1);
  cudaStreamWaitEvent(s2, fork, 0);
  ce = cudaStreamIsCapturing(s2, &st);
  printf("s2 joined: %s %s\n", E(ce), status_name(st));
  cudaMemsetAsync(b, 0, n * sizeof(float), s2);
  fill<<<n / 256, 256, 0, s2>>>(b, 2.0f, n);
  scale<<<n / 256, 256, 0, s1>>>(a, 3.0f, n);
  cudaEventRecord(join, s2);
  cudaStreamWaitEvent(s1, join, 0);
  unsigned long long id = 0;
  cudaGraph_t cg = nullptr;
  const cudaGraphNode_t *deps = nullptr;
  size_t ndeps = 99;
  ce = cudaStreamGetCaptureInfo(s1, &st, &id, &cg, &deps, nullptr, &ndeps);
  printf("info: %s", E(ce));
  printf(" %s id>0:%d graph:%d deps:%zu\n", status_name(st), id > 0, cg != nullptr, ndeps);
  size_t nn = 0;
  cudaGraphGetNodes(cg, nullptr, &nn);
  printf("nodes so far: %zu\n", nn);
  add<<<n / 256, 256, 0, s1>>>(a, b, n);
  cudaMemcpyAsync(h, a, n * sizeof(float), cudaMemcpyDeviceToHost, s1);
  cudaLaunchHostFunc(s1, count_call, nullptr);
  printf("not run while capturing: host_calls=%d\n", host_calls);
  cudaGraph_t g;
  printf("end: %s\n", E(cudaStreamEndCapture(s1, &g)));
  ce = cudaStreamIsCapturing(s1, &st);
  printf("after: %s %s", E(ce), status_name(st));
  ce = cudaStreamIsCapturing(s2, &st);
  printf(" / %s %s\n", E(ce), status_name(st));
  cudaGraphGetNodes(g, nullptr, &nn);
  size_t roots = 0, edges = 0;
  cudaGraphGetRootNodes(g, nullptr, &roots);
  cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges);
  printf("graph: %zu nodes, %zu roots, %zu edges\n", nn, roots, edges);

  cudaGraphExec_t ge;
  printf("instantiate: %s\n", E(cudaGraphInstantiate(&ge, g, 0)));
  for (int i = 0; i < 3; i++) cudaGraphLaunch(ge, s3);
  printf("sync: %s\n", E(cudaStreamSynchronize(s3)));
  printf("result: h[0]=%g h[%d]=%g host_calls=%d\n", h[0], n - 1, h[n - 1], host_calls);

  // Same shape, other arguments: update the executable graph in place.
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  fill<<<n / 256, 256, 0, s1>>>(a, 5.0f, n);
  cudaEventRecord(fork, s1);
  cudaStreamWaitEvent(s2, fork, 0);
  cudaMemsetAsync(b, 0, n * sizeof(float), s2);
  fill<<<n / 256, 256, 0, s2>>>(b, 0.5f, n);
  scale<<<n / 256, 256, 0, s1>>>(a, 10.0f, n);
  cudaEventRecord(join, s2);
  cudaStreamWaitEvent(s1, join, 0);
  add<<<n / 256, 256, 0, s1>>>(a, b, n);
  cudaMemcpyAsync(h, a, n * sizeof(float), cudaMemcpyDeviceToHost, s1);
  cudaLaunchHostFunc(s1, count_call, nullptr);
  cudaGraph_t g2;
  cudaStreamEndCapture(s1, &g2);
  cudaGraphExecUpdateResultInfo info;
  ce = cudaGraphExecUpdate(ge, g2, &info);
  printf("update: %s result=%d\n", E(ce), (int)info.result);
  cudaGraphLaunch(ge, s3);
  cudaStreamSynchronize(s3);
  printf("updated result: h[0]=%g host_calls=%d\n", h[0], host_calls);

  // A different shape cannot be updated.
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  fill<<<n / 256, 256, 0, s1>>>(a, 1.0f, n);
  cudaGraph_t g3;
  cudaStreamEndCapture(s1, &g3);
  ce = cudaGraphExecUpdate(ge, g3, &info);
  printf("update with other topology: %s result=%d\n", E(ce), (int)info.result);
  cudaGetLastError();

  // A graph launched into a capturing stream becomes a child graph node.
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeThreadLocal);
  ce = cudaGraphLaunch(ge, s1);
  printf("graph launch into a capturing stream: %s\n", E(ce));
  ce = cudaStreamIsCapturing(s1, &st);
  printf("status: %s %s\n", E(ce), status_name(st));
  scale<<<n / 256, 256, 0, s1>>>(a, 2.0f, n);
  cudaMemcpyAsync(h, a, n * sizeof(float), cudaMemcpyDeviceToHost, s1);
  cudaGraph_t g4;
  printf("thread-local capture: %s\n", E(cudaStreamEndCapture(s1, &g4)));
  cudaGraphExec_t ge4;
  cudaGraphInstantiate(&ge4, g4, 0);
  cudaGraphLaunch(ge4, s1);
  cudaStreamSynchronize(s1);
  printf("nested launch result: h[0]=%g host_calls=%d\n", h[0], host_calls);

  // Illegal calls during capture.
  float *tmp = nullptr;
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  printf("sync capturing stream: %s\n", E(cudaStreamSynchronize(s1)));
  ce = cudaStreamIsCapturing(s1, &st);
  printf("status: %s %s\n", E(ce), status_name(st));
  cudaGraph_t bad = (cudaGraph_t)0x1;
  ce = cudaStreamEndCapture(s1, &bad);
  printf("end invalidated: %s null:%d\n", E(ce), bad == nullptr);
  cudaGetLastError();

  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  printf("query capturing stream: %s\n", E(cudaStreamQuery(s1)));
  cudaStreamEndCapture(s1, &bad);
  cudaGetLastError();

  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  printf("cudaMalloc in global capture: %s\n", E(cudaMalloc(&tmp, 256)));
  ce = cudaStreamIsCapturing(s1, &st);
  printf("status: %s %s\n", E(ce), status_name(st));
  if (tmp) cudaFree(tmp);
  tmp = nullptr;
  cudaStreamEndCapture(s1, &bad);
  cudaGetLastError();
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  printf("legacy-stream memcpy: %s\n", E(cudaMemcpy(h, a, 4, cudaMemcpyDeviceToHost)));
  printf("end: %s\n", E(cudaStreamEndCapture(s1, &bad)));
  cudaGetLastError();

  cudaStreamBeginCapture(s1, cudaStreamCaptureModeRelaxed);
  printf("cudaMalloc in relaxed capture: %s\n", E(cudaMalloc(&tmp, 256)));
  printf("end relaxed: %s\n", E(cudaStreamEndCapture(s1, &bad)));
  if (tmp) cudaFree(tmp);
  cudaGetLastError();

  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, s1);
  printf("query captured event: %s\n", E(cudaEventQuery(fork)));
  ce = cudaStreamIsCapturing(s1, &st);
  printf("status: %s %s\n", E(ce), status_name(st));
  printf("sync captured event: %s\n", E(cudaEventSynchronize(fork)));
  ce = cudaStreamIsCapturing(s1, &st);
  printf("status: %s %s\n", E(ce), status_name(st));
  cudaStreamWaitEvent(s2, fork, 0);
  fill<<<1, 1, 0, s2>>>(b, 1.0f, 1);
  printf("end with unjoined stream: %s\n", E(cudaStreamEndCapture(s1, &bad)));
  ce = cudaStreamIsCapturing(s2, &st);
  printf("s2 after: %s %s\n", E(ce), status_name(st));
  cudaGetLastError();

  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  cudaEventRecord(fork, s1);
  cudaStreamWaitEvent(s2, fork, 0);
  printf("end in the wrong stream: %s\n", E(cudaStreamEndCapture(s2, &bad)));
  cudaGetLastError();
  ce = cudaStreamIsCapturing(s1, &st);
  printf("status: %s %s\n", E(ce), status_name(st));
  printf("end in the right stream: %s\n", E(cudaStreamEndCapture(s1, &bad)));
  cudaGetLastError();

  cudaEventRecord(join, s3);
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  printf("wait on an uncaptured event: %s\n", E(cudaStreamWaitEvent(s1, join, 0)));
  printf("end: %s\n", E(cudaStreamEndCapture(s1, &bad)));
  cudaGetLastError();

  // Unsafe calls under a global capture, in a stream that is not capturing.
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  printf("sync another stream: %s\n", E(cudaStreamSynchronize(s3)));
  ce = cudaStreamIsCapturing(s1, &st);
  printf("status: %s %s\n", E(ce), status_name(st));
  cudaStreamEndCapture(s1, &bad);
  cudaGetLastError();
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  printf("device sync: %s\n", E(cudaDeviceSynchronize()));
  ce = cudaStreamIsCapturing(s1, &st);
  printf("status: %s %s\n", E(ce), status_name(st));
  cudaStreamEndCapture(s1, &bad);
  cudaGetLastError();
  static float pageable[4];
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  printf("pageable async copy: %s\n", E(cudaMemcpyAsync(pageable, a, sizeof pageable, cudaMemcpyDeviceToHost, s1)));
  ce = cudaStreamIsCapturing(s1, &st);
  printf("status: %s %s\n", E(ce), status_name(st));
  cudaStreamEndCapture(s1, &bad);
  cudaGetLastError();
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  fill<<<1, 1>>>(b, 1.0f, 1);
  printf("legacy-stream launch: %s\n", E(cudaGetLastError()));
  ce = cudaStreamIsCapturing(s1, &st);
  printf("status: %s %s\n", E(ce), status_name(st));
  cudaStreamEndCapture(s1, &bad);
  cudaGetLastError();
  printf("capture the legacy stream: %s\n", E(cudaStreamBeginCapture(0, cudaStreamCaptureModeGlobal)));
  cudaGetLastError();
  printf("end without capture: %s\n", E(cudaStreamEndCapture(s1, &bad)));
  cudaGetLastError();
  printf("device sync: %s\n", E(cudaDeviceSynchronize()));

  cudaGraphExecDestroy(ge); cudaGraphExecDestroy(ge4);
  printf("destroy: %s %s %s %s\n", E(cudaGraphDestroy(g)), E(cudaGraphDestroy(g2)), E(cudaGraphDestroy(g3)), E(cudaGraphDestroy(g4)));
  cudaStreamDestroy(s1); cudaStreamDestroy(s2); cudaStreamDestroy(s3);
  cudaFree(a); cudaFree(b); cudaFreeHost(h);
  return 0;
}
