// Launch validation: error from cudaGetLastError right after the launch, then from
// cudaDeviceSynchronize, then cudaGetLastError again.
#include <cstdio>
static void hostfn() {}
__global__ void k(int *p) { if (p) p[threadIdx.x] = 1; }
__global__ void __launch_bounds__(128) kb(int *p) { if (p) p[threadIdx.x] = 1; }
__global__ void __launch_bounds__(128, 4) kb2(int *p) { if (p) p[threadIdx.x] = 1; }
__global__ void kdyn(int *p) { extern __shared__ int s[]; s[threadIdx.x] = 1; if (p) p[0] = s[0]; }
__global__ void kstat(int *p) { __shared__ int s[10240]; s[threadIdx.x] = threadIdx.x; __syncthreads(); if (p) p[0] = s[5]; }
__global__ void kbig(int *p) { __shared__ int s[12288]; s[threadIdx.x] = threadIdx.x; __syncthreads(); if (p) p[0] = s[5]; }

static void report(const char *what) {
  cudaError_t a = cudaPeekAtLastError();
  cudaError_t b = cudaGetLastError();
  cudaError_t c = cudaDeviceSynchronize();
  cudaError_t d = cudaGetLastError();
  printf("%-44s peek=%s last=%s sync=%s last_after=%s\n", what, cudaGetErrorName(a),
         cudaGetErrorName(b), cudaGetErrorName(c), cudaGetErrorName(d));
  fflush(stdout);
}
int main() {
  report("nothing");
  k<<<1, 1024>>>(0); report("block 1024");
  k<<<1, 1025>>>(0); report("block 1025");
  k<<<1, dim3(1024, 2, 1)>>>(0); report("block (1024,2,1)");
  k<<<1, dim3(1, 1, 64)>>>(0); report("block z=64");
  k<<<1, dim3(1, 1, 65)>>>(0); report("block z=65");
  k<<<1, dim3(1, 1025, 1)>>>(0); report("block y=1025");
  k<<<1, dim3(2048, 1, 1)>>>(0); report("block x=2048");
  k<<<dim3(1, 65535, 1), 1>>>(0); report("grid y=65535");
  k<<<dim3(1, 65536, 1), 1>>>(0); report("grid y=65536");
  k<<<dim3(1, 1, 65536), 1>>>(0); report("grid z=65536");
  k<<<dim3(2147483647u, 1, 1), 1>>>(0); report("grid x=2^31-1");
  k<<<dim3(2147483648u, 1, 1), 1>>>(0); report("grid x=2^31");
  k<<<0, 1>>>(0); report("grid x=0");
  k<<<dim3(1, 0, 1), 1>>>(0); report("grid y=0");
  k<<<1, 0>>>(0); report("block 0");
  k<<<1, dim3(1, 0, 1)>>>(0); report("block y=0");
  kdyn<<<1, 1, 48 * 1024>>>(0); report("dyn smem 48KiB");
  kdyn<<<1, 1, 48 * 1024 + 1>>>(0); report("dyn smem 48KiB+1");
  kdyn<<<1, 1, 100 * 1024>>>(0); report("dyn smem 100KiB");
  kdyn<<<1, 1, 300 * 1024>>>(0); report("dyn smem 300KiB");
  kstat<<<1, 1, 8 * 1024>>>(0); report("static 40KiB + dyn 8KiB");
  kstat<<<1, 1, 8 * 1024 + 1>>>(0); report("static 40KiB + dyn 8KiB+1");
  kbig<<<1, 32>>>(0); report("static 48KiB");
  {
    cudaError_t e = cudaFuncSetAttribute(kdyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024);
    printf("cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 100KiB) = %s\n", cudaGetErrorName(e));
    kdyn<<<1, 1, 100 * 1024>>>(0); report("after attr: dyn smem 100KiB");
    kdyn<<<1, 1, 100 * 1024 + 1>>>(0); report("after attr: dyn smem 100KiB+1");
    e = cudaFuncSetAttribute(kdyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024);
    printf("cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 300KiB) = %s\n", cudaGetErrorName(e));
    report("after bad attr");
    e = cudaFuncSetAttribute(kdyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024);
    printf("cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 227KiB) = %s\n", cudaGetErrorName(e));
    e = cudaFuncSetAttribute(kdyn, cudaFuncAttributeMaxDynamicSharedMemorySize, 227 * 1024 + 1);
    printf("cudaFuncSetAttribute(MaxDynamicSharedMemorySize, 227KiB+1) = %s\n", cudaGetErrorName(e));
    report("after bad attr 2");
  }
  kb<<<1, 128>>>(0); report("launch_bounds(128) with 128");
  kb<<<1, 129>>>(0); report("launch_bounds(128) with 129");
  kb<<<1, 256>>>(0); report("launch_bounds(128) with 256");
  kb2<<<1, 256>>>(0); report("launch_bounds(128,4) with 256");
  // error then a good launch: is the error cleared / sticky?
  k<<<1, 1025>>>(0); k<<<1, 1>>>(0); report("bad launch then good launch");
  {
    int *d; cudaMalloc(&d, 4096);
    k<<<1, 1025>>>(d);
    cudaError_t e = cudaMemset(d, 0, 16);
    printf("bad launch, then cudaMemset = %s\n", cudaGetErrorName(e));
    report("  ...then");
    cudaFree(d);
  }
  {
    cudaLaunchConfig_t cfg = {};
    (void)cfg;
    void *args[] = {nullptr};
    int *nul = 0; args[0] = &nul;
    cudaError_t e = cudaLaunchKernel((const void *)k, dim3(1), dim3(1025), args, 0, 0);
    printf("cudaLaunchKernel block 1025 returns %s\n", cudaGetErrorName(e));
    report("  ...then");
    e = cudaLaunchKernel((const void *)hostfn, dim3(1), dim3(1), args, 0, 0);
    printf("cudaLaunchKernel(non-kernel function) returns %s\n", cudaGetErrorName(e));
    report("  ...then");
  }
  {
    cudaStream_t s;
    cudaStreamCreate(&s);
    k<<<1, 1, 0, s>>>(0); report("launch on created stream");
    cudaStreamDestroy(s);
    k<<<1, 1, 0, s>>>(0); report("launch on destroyed stream");
    k<<<1, 1, 0, (cudaStream_t)0x1234>>>(0); report("launch on stream 0x1234");
  }
  printf("done\n");
  return 0;
}
