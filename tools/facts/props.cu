// Prints every field of cudaDeviceProp (list generated from driver_types.h by
// gen_fields.py), cudaDeviceGetAttribute 1..130, cudaFuncGetAttributes, limits, versions.
#include <cstdio>
static void hostfn() {}
#include <cstddef>
#include <cstring>
static void pv(const char *n, int v) { printf("%s = %d\n", n, v); }
static void pv(const char *n, unsigned v) { printf("%s = %u\n", n, v); }
static void pv(const char *n, long v) { printf("%s = %ld\n", n, v); }
static void pv(const char *n, unsigned long v) { printf("%s = %lu\n", n, v); }
static void pv(const char *n, long long v) { printf("%s = %lld\n", n, v); }
static void pv(const char *n, unsigned long long v) { printf("%s = %llu\n", n, v); }
static void pv(const char *n, char v) { printf("%s = %d\n", n, (int)v); }
static void pv(const char *n, unsigned char v) { printf("%s = %d\n", n, (int)v); }
static void pv(const char *n, float v) { printf("%s = %g\n", n, v); }
static void pv(const char *n, const cudaUUID_t &u) {
  printf("%s = uuid(", n);
  for (int i = 0; i < 16; i++) printf("%02x", (unsigned char)u.bytes[i]);
  printf(")\n");
}
template <size_t N> static void pv(const char *n, const char (&a)[N]) {
  if (!strcmp(n, "name")) { printf("%s = \"%s\"\n", n, a); return; }
  printf("%s = bytes[%zu](", n, N);
  for (size_t i = 0; i < N; i++) printf("%s%02x", i ? " " : "", (unsigned char)a[i]);
  printf(")\n");
}
template <class T, size_t N> static void pv(const char *n, const T (&a)[N]) {
  char buf[128];
  for (size_t i = 0; i < N; i++) { snprintf(buf, sizeof buf, "%s[%zu]", n, i); pv(buf, a[i]); }
}
template <class T> static void pv(const char *n, const T &v) {
  printf("%s = raw[%zu](", n, sizeof(T));
  for (size_t i = 0; i < sizeof(T); i++) printf("%02x", ((const unsigned char *)&v)[i]);
  printf(")\n");
}
__global__ void small_kernel(int *p) { p[threadIdx.x] = threadIdx.x; }
__global__ void smem_kernel(int *p) {
  __shared__ int s[1024];
  s[threadIdx.x] = p[threadIdx.x];
  __syncthreads();
  p[threadIdx.x] = s[1023 - threadIdx.x];
}
__global__ void local_kernel(int *p, int k) {
  int a[100];
  for (int i = 0; i < 100; i++) a[i] = p[i] * k;
  p[threadIdx.x] = a[(threadIdx.x * k) % 100];
}
__global__ void __launch_bounds__(128) lb_kernel(int *p) { p[threadIdx.x] = 1; }
__constant__ float cbuf[100];
__global__ void const_kernel(float *p) { p[threadIdx.x] = cbuf[threadIdx.x]; }
struct AttrName { int v; const char *n; };
static const AttrName attr_names[] = {
#include "attr_names.inc"
  {-1, 0}};
static const AttrName limit_names[] = {
#include "limit_names.inc"
  {-1, 0}};
static void func_attrs(const char *kn, const void *f) {
  cudaFuncAttributes a;
  memset(&a, 0, sizeof a);
  cudaError_t e = cudaFuncGetAttributes(&a, f);
  printf("cudaFuncGetAttributes(%s) = %s\n", kn, cudaGetErrorName(e));
  char buf[160];
#define P(x) snprintf(buf, sizeof buf, "  %s.%s", kn, #x), pv(buf, a.x);
#include "func_fields.inc"
#undef P
}
int main() {
  int v = 0;
  printf("cudaRuntimeGetVersion = %s ", cudaGetErrorName(cudaRuntimeGetVersion(&v))); printf("%d\n", v);
  printf("cudaDriverGetVersion = %s ", cudaGetErrorName(cudaDriverGetVersion(&v))); printf("%d\n", v);
  printf("cudaGetDeviceCount = %s ", cudaGetErrorName(cudaGetDeviceCount(&v))); printf("%d\n", v);
  printf("cudaGetDevice = %s ", cudaGetErrorName(cudaGetDevice(&v))); printf("%d\n", v);
  cudaDeviceProp p;
  memset(&p, 0, sizeof p);
  cudaError_t e = cudaGetDeviceProperties(&p, 0);
  printf("cudaGetDeviceProperties = %s, sizeof(cudaDeviceProp) = %zu\n", cudaGetErrorName(e), sizeof(cudaDeviceProp));
  char buf[160];
#define P(x) snprintf(buf, sizeof buf, "prop.%s @%zu", #x, offsetof(cudaDeviceProp, x)), pv(buf, p.x);
#include "prop_fields.inc"
#undef P
  printf("--- cudaDeviceGetAttribute\n");
  for (int i = 0; i <= 140; i++) {
    const char *n = "?";
    for (const AttrName *a = attr_names; a->n; a++) if (a->v == i) n = a->n;
    v = -12345;
    e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)i, 0);
    printf("attr %d %s = %d (%s)\n", i, n, v, cudaGetErrorName(e));
  }
  for (const AttrName *a = attr_names; a->n; a++) if (a->v > 140) {
    v = -12345; e = cudaDeviceGetAttribute(&v, (cudaDeviceAttr)a->v, 0);
    printf("attr %d %s = %d (%s)\n", a->v, a->n, v, cudaGetErrorName(e));
  }
  cudaGetLastError();
  printf("--- limits\n");
  for (const AttrName *a = limit_names; a->n; a++) {
    size_t lv = 0; e = cudaDeviceGetLimit(&lv, (cudaLimit)a->v);
    printf("limit %d %s = %zu (%s)\n", a->v, a->n, lv, cudaGetErrorName(e));
  }
  cudaFuncCache cc; e = cudaDeviceGetCacheConfig(&cc);
  printf("cudaDeviceGetCacheConfig = %s %d\n", cudaGetErrorName(e), (int)cc);
  unsigned fl = 0; e = cudaGetDeviceFlags(&fl);
  printf("cudaGetDeviceFlags = %s 0x%x\n", cudaGetErrorName(e), fl);
  int lo = 0, hi = 0; e = cudaDeviceGetStreamPriorityRange(&lo, &hi);
  printf("cudaDeviceGetStreamPriorityRange = %s least=%d greatest=%d\n", cudaGetErrorName(e), lo, hi);
  printf("--- cudaFuncGetAttributes\n");
  func_attrs("small_kernel", (const void *)small_kernel);
  func_attrs("smem_kernel(4KiB static)", (const void *)smem_kernel);
  func_attrs("local_kernel(int[100])", (const void *)local_kernel);
  func_attrs("lb_kernel(__launch_bounds__(128))", (const void *)lb_kernel);
  func_attrs("const_kernel", (const void *)const_kernel);
  func_attrs("not_a_kernel(main)", (const void *)hostfn);
  printf("after bad: last=%s\n", cudaGetErrorName(cudaGetLastError()));
  int nb = 0;
  e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&nb, small_kernel, 256, 0);
  printf("occupancy small_kernel 256 threads: %s %d\n", cudaGetErrorName(e), nb);
  int minGrid = 0, bs = 0;
  e = cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, small_kernel, 0, 0);
  printf("max potential block size small_kernel: %s minGrid=%d block=%d\n", cudaGetErrorName(e), minGrid, bs);
  printf("sizeof: dim3=%zu float4=%zu alignof(float4)=%zu double2=%zu alignof(double2)=%zu longlong2=%zu char3=%zu alignof(char4)=%zu short3=%zu int3=%zu alignof(int2)=%zu\n",
         sizeof(dim3), sizeof(float4), alignof(float4), sizeof(double2), alignof(double2), sizeof(longlong2), sizeof(char3), alignof(char4), sizeof(short3), sizeof(int3), alignof(int2));
  return 0;
}
