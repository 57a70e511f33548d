// A driver-API program as cuda-samples' vectorAddDrv is built: plain C++ linked with
// -lcuda (and the static runtime), loading a module that `nvcc -fatbin` wrote.
#include <cuda.h>
#include <cstdio>
#include <cstdlib>
#define CK(x) do { CUresult r = (x); if (r != CUDA_SUCCESS) { const char *s; cuGetErrorName(r, &s); printf("%s -> %s\n", #x, s); exit(1);} } while (0)
int main() {
    CUdevice dev;
    CUcontext ctx;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuCtxCreate(&ctx, NULL, 0, dev));
    CUmodule m;
    CK(cuModuleLoad(&m, "kernels.fatbin"));
    CUfunction f, g;
    CK(cuModuleGetFunction(&f, m, "vadd"));
    CK(cuModuleGetFunction(&g, m, "_Z4bumpi"));
    const int N = 1000;
    float ha[N], hb[N], hc[N];
    for (int i = 0; i < N; i++) { ha[i] = i; hb[i] = 2 * i; }
    CUdeviceptr a, b, c;
    CK(cuMemAlloc(&a, sizeof ha)); CK(cuMemAlloc(&b, sizeof hb)); CK(cuMemAlloc(&c, sizeof hc));
    CK(cuMemcpyHtoD(a, ha, sizeof ha)); CK(cuMemcpyHtoD(b, hb, sizeof hb));
    int n = N;
    void *args[] = {&a, &b, &c, &n};
    CK(cuLaunchKernel(f, (N + 255) / 256, 1, 1, 256, 1, 1, 0, 0, args, 0));
    CK(cuMemcpyDtoH(hc, c, sizeof hc));
    // The legacy launch: block shape, a parameter buffer filled by offset, a grid.
    CK(cuMemsetD32(c, 0, N));
    CK(cuFuncSetBlockShape(f, 256, 1, 1));
    CK(cuParamSetv(f, 0, &a, sizeof a));
    CK(cuParamSetv(f, 8, &b, sizeof b));
    CK(cuParamSetv(f, 16, &c, sizeof c));
    CK(cuParamSeti(f, 24, N));
    CK(cuParamSetSize(f, 28));
    CK(cuLaunchGrid(f, (N + 255) / 256, 1));
    float legacy[N];
    CK(cuMemcpyDtoH(legacy, c, sizeof legacy));
    if (legacy[999] != hc[999]) { printf("legacy launch: %g\n", legacy[999]); return 1; }
    int by = 3;
    void *args2[] = {&by};
    CK(cuLaunchKernel(g, 4, 1, 1, 32, 1, 1, 0, 0, args2, 0));
    CUdeviceptr cnt; size_t sz;
    CK(cuModuleGetGlobal(&cnt, &sz, m, "counter"));
    int hv;
    CK(cuMemcpyDtoH(&hv, cnt, sizeof hv));
    printf("driver: c[999] = %g, counter %d (%zu bytes)\n", hc[999], hv, sz);
    CK(cuModuleUnload(m));
    CK(cuCtxDestroy(ctx));
    return 0;
}
