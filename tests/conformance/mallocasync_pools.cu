// mallocasync_pools: cudaMallocAsync / cudaFreeAsync in a loop with kernels between
// them, in two streams; the default pool and an explicit pool (cudaMemPoolCreate,
// cudaMallocFromPoolAsync, cudaDeviceSetMemPool / GetMemPool), pool attributes (release
// threshold, reuse flags, used-memory counters and their reset), cudaMemPoolTrimTo,
// access, cudaDevAttrMemoryPoolsSupported, stream-ordered allocation during capture.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cstring>

__global__ void fill(int *p, int v, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = v + i; }
__global__ void sum(const int *p, int n, unsigned long long *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicAdd(out, (unsigned long long)p[i]);
}
#define E(x) cudaGetErrorName(x)

int main() {
  int supported = -1;
  cudaDeviceGetAttribute(&supported, cudaDevAttrMemoryPoolsSupported, 0);
  printf("memory pools supported: %d\n", supported);
  cudaStream_t s1, s2;
  cudaStreamCreate(&s1);
  cudaStreamCreateWithFlags(&s2, cudaStreamNonBlocking);
  unsigned long long *total;
  cudaMallocManaged(&total, sizeof(unsigned long long));
  *total = 0;
  const int n = 1 << 14;
  for (int it = 0; it < 50; it++) {
    cudaStream_t s = (it & 1) ? s1 : s2;
    int *p;
    cudaError_t e = cudaMallocAsync(&p, n * sizeof(int), s);
    if (e != cudaSuccess) { printf("iteration %d: %s\n", it, E(e)); return 1; }
    fill<<<n / 256, 256, 0, s>>>(p, it, n);
    sum<<<n / 256, 256, 0, s>>>(p, n, total);
    cudaFreeAsync(p, s);
  }
  cudaStreamSynchronize(s1);
  cudaStreamSynchronize(s2);
  printf("loop total: %llu\n", *total);

  cudaMemPool_t def, cur;
  printf("default pool: %s\n", E(cudaDeviceGetDefaultMemPool(&def, 0)));
  cudaDeviceGetMemPool(&cur, 0);
  printf("current is default: %d\n", cur == def);
  unsigned long long thr = 12345;
  cudaMemPoolGetAttribute(def, cudaMemPoolAttrReleaseThreshold, &thr);
  printf("default release threshold: %llu\n", thr);
  thr = 64ull << 20;
  printf("set threshold: %s\n", E(cudaMemPoolSetAttribute(def, cudaMemPoolAttrReleaseThreshold, &thr)));
  thr = 0;
  cudaMemPoolGetAttribute(def, cudaMemPoolAttrReleaseThreshold, &thr);
  printf("threshold now: %llu\n", thr);
  int reuse = -1;
  cudaMemPoolGetAttribute(def, cudaMemPoolReuseAllowOpportunistic, &reuse);
  printf("reuse opportunistic: %d\n", reuse);

  // Used-memory counters of an explicit pool.
  cudaMemPoolProps props;
  memset(&props, 0, sizeof props);
  props.allocType = cudaMemAllocationTypePinned;
  props.location.type = cudaMemLocationTypeDevice;
  props.location.id = 0;
  cudaMemPool_t pool;
  printf("pool create: %s\n", E(cudaMemPoolCreate(&pool, &props)));
  unsigned long long used = 1, used_high = 1;
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
  printf("new pool used: %llu\n", used);
  void *a, *b;
  printf("from pool: %s %s\n", E(cudaMallocFromPoolAsync(&a, 1 << 20, pool, s1)), E(cudaMallocFromPoolAsync(&b, 3 << 20, pool, s1)));
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
  printf("used after 4 MiB: %llu\n", used);
  unsigned long long reserved = 0;
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrReservedMemCurrent, &reserved);
  printf("reserved >= used: %d\n", reserved >= used);
  cudaMemsetAsync(a, 1, 1 << 20, s1);
  cudaFreeAsync(a, s1);
  cudaStreamSynchronize(s1);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &used_high);
  printf("used after freeing 1 MiB: %llu, high: %llu\n", used, used_high);
  unsigned long long zero = 0;
  printf("reset high: %s\n", E(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &zero)));
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &used_high);
  printf("high after reset: %llu\n", used_high);
  unsigned long long nonzero = 5;
  printf("set high to non-zero: %s\n", E(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemHigh, &nonzero)));
  cudaGetLastError();
  printf("set used current: %s\n", E(cudaMemPoolSetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &zero)));
  cudaGetLastError();
  printf("trim: %s\n", E(cudaMemPoolTrimTo(pool, 0)));
  cudaMemAccessDesc acc;
  acc.location.type = cudaMemLocationTypeDevice;
  acc.location.id = 0;
  acc.flags = cudaMemAccessFlagsProtReadWrite;
  printf("set access: %s\n", E(cudaMemPoolSetAccess(pool, &acc, 1)));
  cudaMemAccessFlags fl = cudaMemAccessFlagsProtNone;
  cudaMemLocation loc = acc.location;
  cudaError_t ge_ = cudaMemPoolGetAccess(&fl, pool, &loc);
  printf("get access: %s %d\n", E(ge_), (int)fl);

  // The pool cudaMallocAsync uses can be changed.
  printf("set device pool: %s\n", E(cudaDeviceSetMemPool(0, pool)));
  cudaDeviceGetMemPool(&cur, 0);
  printf("current is the new pool: %d\n", cur == pool);
  void *c;
  cudaMallocAsync(&c, 1 << 20, s1);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
  printf("used with the new current pool: %llu\n", used);
  cudaFreeAsync(c, s1);
  cudaFreeAsync(b, s1);
  cudaStreamSynchronize(s1);
  cudaMemPoolGetAttribute(pool, cudaMemPoolAttrUsedMemCurrent, &used);
  printf("used after all freed: %llu\n", used);
  cudaDeviceSetMemPool(0, def);

  // Stream-ordered allocation inside a captured graph.
  cudaStreamBeginCapture(s1, cudaStreamCaptureModeGlobal);
  int *gp;
  printf("malloc async in capture: %s\n", E(cudaMallocAsync(&gp, n * sizeof(int), s1)));
  fill<<<n / 256, 256, 0, s1>>>(gp, 1, n);
  sum<<<n / 256, 256, 0, s1>>>(gp, n, total);
  printf("free async in capture: %s\n", E(cudaFreeAsync(gp, s1)));
  cudaGraph_t g;
  printf("end: %s\n", E(cudaStreamEndCapture(s1, &g)));
  size_t nn = 0;
  cudaGraphGetNodes(g, nullptr, &nn);
  cudaGraphNode_t nodes[8];
  size_t cap = 8;
  cudaGraphGetNodes(g, nodes, &cap);
  printf("captured nodes: %zu types:", nn);
  for (size_t i = 0; i < cap; i++) {
    cudaGraphNodeType t;
    cudaGraphNodeGetType(nodes[i], &t);
    printf(" %d", (int)t);
  }
  printf("\n");
  cudaGraphExec_t ge;
  cudaGraphInstantiate(&ge, g, 0);
  *total = 0;
  for (int i = 0; i < 3; i++) cudaGraphLaunch(ge, s1);
  cudaStreamSynchronize(s1);
  printf("graph total: %llu\n", *total);
  cudaGraphExecDestroy(ge);
  cudaGraphDestroy(g);

  printf("free async of a bad pointer: %s\n", E(cudaFreeAsync((void *)0x1234, s1)));
  cudaGetLastError();
  printf("destroy default pool: %s\n", E(cudaMemPoolDestroy(def)));
  cudaGetLastError();
  printf("pool destroy: %s\n", E(cudaMemPoolDestroy(pool)));
  printf("sync: %s\n", E(cudaDeviceSynchronize()));
  cudaStreamDestroy(s1);
  cudaStreamDestroy(s2);
  cudaFree(total);
  return 0;
}
