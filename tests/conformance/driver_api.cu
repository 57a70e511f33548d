// The CUDA driver API: initialisation, devices, contexts (stack, primary), memory
// (copies, sets, 2D copies, pointer attributes), streams and events, a module built with
// `nvcc -fatbin` (driver_api.prebuild) loaded from a file, kernel launches with
// kernelParams and with a packed `extra` buffer, module globals, and interoperability
// with the runtime API (pointers and streams cross, the runtime's last error is not
// touched by driver errors).
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include <string>

static const char *name(CUresult r) {
    const char *s = nullptr;
    cuGetErrorName(r, &s);
    return s ? s : "(null)";
}

#define CK(x)                                                                   \
    do {                                                                        \
        CUresult r_ = (x);                                                      \
        if (r_ != CUDA_SUCCESS) {                                               \
            printf("line %d: %s failed: %s\n", __LINE__, #x, name(r_));         \
            return 1;                                                           \
        }                                                                       \
    } while (0)
#define SAY(x) printf("%-40s -> %s\n", #x, name(x))

int main(int argc, char **argv) {
    std::string dir = argv[0];
    dir = dir.substr(0, dir.rfind('/') + 1);

    int n = -1;
    CUdevice dev = -1;
    printf("before cuInit: %s\n", name(cuDeviceGetCount(&n)));
    const char *s = nullptr;
    printf("cuGetErrorString(INVALID_VALUE): %s\n", (cuGetErrorString(CUDA_ERROR_INVALID_VALUE, &s), s));
    CUresult codes[] = {CUDA_SUCCESS, CUDA_ERROR_OUT_OF_MEMORY, CUDA_ERROR_NOT_INITIALIZED, CUDA_ERROR_INVALID_DEVICE,
                        CUDA_ERROR_INVALID_IMAGE, CUDA_ERROR_INVALID_CONTEXT, CUDA_ERROR_FILE_NOT_FOUND,
                        CUDA_ERROR_INVALID_HANDLE, CUDA_ERROR_NOT_FOUND, CUDA_ERROR_NOT_READY,
                        CUDA_ERROR_ILLEGAL_ADDRESS, CUDA_ERROR_LAUNCH_FAILED, CUDA_ERROR_NOT_SUPPORTED};
    for (CUresult c : codes) {
        const char *str = nullptr;
        cuGetErrorString(c, &str);
        printf("  %d %s: %s\n", (int)c, name(c), str);
    }
    s = "unchanged";
    CUresult bad = cuGetErrorName((CUresult)12345, &s);
    printf("unknown code: %s, string %s\n", name(bad), s ? s : "NULL");

    CK(cuInit(0));
    int version = 0;
    CK(cuDriverGetVersion(&version));
    printf("driver version >= 13000: %d\n", version >= 13000);
    CK(cuDeviceGetCount(&n));
    printf("devices: %d\n", n);
    SAY(cuDeviceGet(&dev, n));
    CK(cuDeviceGet(&dev, 0));
    char devname[256];
    CK(cuDeviceGetName(devname, sizeof devname, dev));
    printf("name is set: %d\n", devname[0] != 0);
    int v;
    CUdevice_attribute attrs[] = {CU_DEVICE_ATTRIBUTE_WARP_SIZE, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK,
                                  CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_X, CU_DEVICE_ATTRIBUTE_MAX_BLOCK_DIM_Z,
                                  CU_DEVICE_ATTRIBUTE_MAX_GRID_DIM_Y, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                                  CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, CU_DEVICE_ATTRIBUTE_UNIFIED_ADDRESSING,
                                  CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK};
    for (CUdevice_attribute a : attrs) {
        CK(cuDeviceGetAttribute(&v, a, dev));
        printf("  attribute %d = %d\n", (int)a, v);
    }
    int major, minor;
    CK(cuDeviceComputeCapability(&major, &minor, dev));
    printf("compute capability %d.%d\n", major, minor);
    size_t total = 0;
    CK(cuDeviceTotalMem(&total, dev));
    printf("total memory > 1 GiB: %d\n", total > (1ull << 30));

    // No context yet.
    CUcontext cur = (CUcontext)1;
    CK(cuCtxGetCurrent(&cur));
    printf("current before any context: %s\n", cur ? "set" : "NULL");
    CUdeviceptr p = 0;
    SAY(cuMemAlloc(&p, 16));
    SAY(cuCtxSynchronize());
    unsigned flags;
    int active = -1;
    CK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    printf("primary active before retain: %d\n", active);

    // Contexts and the stack.
    CUcontext ctx, ctx2, popped;
    CK(cuCtxCreate(&ctx, nullptr, 0, dev));
    CK(cuCtxGetCurrent(&cur));
    printf("created context is current: %d\n", cur == ctx);
    CK(cuCtxCreate(&ctx2, nullptr, 0, dev));
    CK(cuCtxGetCurrent(&cur));
    printf("second context is current: %d\n", cur == ctx2);
    CK(cuCtxPopCurrent(&popped));
    CK(cuCtxGetCurrent(&cur));
    printf("popped the second: %d, first is current: %d\n", popped == ctx2, cur == ctx);
    CK(cuCtxPushCurrent(ctx2));
    CK(cuCtxDestroy(ctx2));
    CK(cuCtxGetCurrent(&cur));
    printf("after destroying the current one, first is current: %d\n", cur == ctx);
    CK(cuCtxGetDevice(&dev));
    printf("context device %d\n", (int)dev);

    CUcontext primary;
    CK(cuDevicePrimaryCtxRetain(&primary, dev));
    CK(cuDevicePrimaryCtxGetState(dev, &flags, &active));
    printf("primary active after retain: %d, differs from created: %d\n", active, primary != ctx);

    // Memory.
    const int N = 1000;
    float ha[N], hb[N], hc[N];
    for (int i = 0; i < N; i++) {
        ha[i] = (float)i;
        hb[i] = 0.5f * i;
    }
    CUdeviceptr da, db, dc;
    SAY(cuMemAlloc(&da, 0));
    CK(cuMemAlloc(&da, N * sizeof(float)));
    CK(cuMemAlloc(&db, N * sizeof(float)));
    CK(cuMemAlloc(&dc, N * sizeof(float)));
    CK(cuMemcpyHtoD(da, ha, sizeof ha));
    CK(cuMemcpyHtoD(db, hb, sizeof hb));
    CK(cuMemcpyDtoD(dc, da, sizeof ha));
    CK(cuMemcpyDtoH(hc, dc, sizeof hc));
    printf("DtoD copy: %g %g\n", hc[1], hc[999]);
    CK(cuMemsetD32(dc, 0x3f800000u, N));
    CK(cuMemcpyDtoH(hc, dc, sizeof hc));
    printf("memsetD32 1.0f: %g %g\n", hc[0], hc[999]);
    CK(cuMemsetD16(dc, 0x4040, 2 * N));
    CK(cuMemcpyDtoH(hc, dc, sizeof hc));
    unsigned raw;
    memcpy(&raw, &hc[7], 4);
    printf("memsetD16: %08x\n", raw);
    CK(cuMemsetD8(dc + 1, 0xab, 2));
    CK(cuMemcpyDtoH(&raw, dc, 4));
    printf("memsetD8 at +1: %08x\n", raw);
    size_t freeb, totalb;
    CK(cuMemGetInfo(&freeb, &totalb));
    printf("free <= total: %d\n", freeb <= totalb);
    CUdeviceptr base;
    size_t size;
    CK(cuMemGetAddressRange(&base, &size, da + 100));
    printf("address range: base ok %d, size %zu\n", base == da, size);

    // 2D copy: a 4x3 block out of a 8-wide host array into a pitched device buffer.
    float host2d[3][8], back[3][4];
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 8; x++) host2d[y][x] = y * 10 + x;
    CUdeviceptr d2;
    CK(cuMemAlloc(&d2, 3 * 64));
    CUDA_MEMCPY2D c2;
    memset(&c2, 0, sizeof c2);
    c2.srcMemoryType = CU_MEMORYTYPE_HOST;
    c2.srcHost = host2d;
    c2.srcPitch = 8 * sizeof(float);
    c2.srcXInBytes = 2 * sizeof(float);
    c2.dstMemoryType = CU_MEMORYTYPE_DEVICE;
    c2.dstDevice = d2;
    c2.dstPitch = 64;
    c2.WidthInBytes = 4 * sizeof(float);
    c2.Height = 3;
    CK(cuMemcpy2D(&c2));
    memset(&c2, 0, sizeof c2);
    c2.srcMemoryType = CU_MEMORYTYPE_DEVICE;
    c2.srcDevice = d2;
    c2.srcPitch = 64;
    c2.dstMemoryType = CU_MEMORYTYPE_HOST;
    c2.dstHost = back;
    c2.dstPitch = 4 * sizeof(float);
    c2.WidthInBytes = 4 * sizeof(float);
    c2.Height = 3;
    CK(cuMemcpy2D(&c2));
    printf("2D copy: %g %g %g\n", back[0][0], back[1][2], back[2][3]);

    // Pointer attributes.
    void *pinned;
    CK(cuMemAllocHost(&pinned, 4096));
    unsigned mt = 0;
    CK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, da));
    printf("device memory type %u\n", mt);
    CK(cuPointerGetAttribute(&mt, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, (CUdeviceptr)pinned));
    printf("pinned memory type %u\n", mt);
    CUdeviceptr start;
    CK(cuPointerGetAttribute(&start, CU_POINTER_ATTRIBUTE_RANGE_START_ADDR, da + 40));
    size_t rsize;
    CK(cuPointerGetAttribute(&rsize, CU_POINTER_ATTRIBUTE_RANGE_SIZE, da + 40));
    printf("range start ok %d, size %zu\n", start == da, rsize);
    CUpointer_attribute which[] = {CU_POINTER_ATTRIBUTE_MEMORY_TYPE, CU_POINTER_ATTRIBUTE_IS_MANAGED};
    unsigned mtype = 77;
    int managed = 77;
    void *data[] = {&mtype, &managed};
    CK(cuPointerGetAttributes(2, which, data, da));
    printf("attributes: type %u managed %d\n", mtype, managed);
    CK(cuMemFreeHost(pinned));

    // A module from a file.
    CUmodule mod;
    SAY(cuModuleLoad(&mod, (dir + "no-such-file.fatbin").c_str()));
    CK(cuModuleLoad(&mod, (dir + "driver_api.fatbin").c_str()));
    CUfunction vadd, poly, hello, packed, missing;
    CK(cuModuleGetFunction(&vadd, mod, "vadd"));
    CK(cuModuleGetFunction(&poly, mod, "_Z4polyPfi"));
    CK(cuModuleGetFunction(&hello, mod, "hello"));
    CK(cuModuleGetFunction(&packed, mod, "packed"));
    SAY(cuModuleGetFunction(&missing, mod, "poly"));
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, poly));
    printf("poly max threads per block %d\n", v);
    CK(cuFuncGetAttribute(&v, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, vadd));
    printf("vadd max threads per block %d\n", v);

    int nn = N;
    void *args[] = {&da, &db, &dc, &nn};
    CK(cuLaunchKernel(vadd, (N + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, args, nullptr));
    CK(cuMemcpyDtoH(hc, dc, sizeof hc));
    printf("vadd: %g %g\n", hc[2], hc[999]);
    SAY(cuLaunchKernel(vadd, 1, 1, 1, 2048, 1, 1, 0, nullptr, args, nullptr));
    SAY(cuLaunchKernel(poly, 1, 1, 1, 256, 1, 1, 0, nullptr, args, nullptr));

    // Module globals.
    CUdeviceptr dcoef, dcounter;
    size_t csize, ksize;
    CK(cuModuleGetGlobal(&dcoef, &csize, mod, "coef"));
    CK(cuModuleGetGlobal(&dcounter, &ksize, mod, "counter"));
    printf("global sizes %zu %zu\n", csize, ksize);
    SAY(cuModuleGetGlobal(&dcoef, &csize, mod, "nothing"));
    float k[4] = {1.0f, 2.0f, 0.5f, 0.25f};
    CK(cuMemcpyHtoD(dcoef, k, sizeof k));
    CK(cuMemsetD32(dcounter, 0, 1));
    void *pargs[] = {&da, &nn};
    CK(cuLaunchKernel(poly, (N + 127) / 128, 1, 1, 128, 1, 1, 0, nullptr, pargs, nullptr));
    int count = 0;
    CK(cuMemcpyDtoH(hc, da, sizeof hc));
    CK(cuMemcpyDtoH(&count, dcounter, sizeof count));
    printf("poly: %g %g, counter %d\n", hc[1], hc[3], count);

    // Packed parameters (`extra`): each at its natural alignment.
    unsigned char buf[64];
    size_t off = 0;
    auto put = [&](const void *val, size_t sz, size_t al) {
        off = (off + al - 1) / al * al;
        memcpy(buf + off, val, sz);
        off += sz;
    };
    char ch = 'A';
    double dd = 3.14;
    short sh = -12;
    long long ll = 1234567890123ll;
    float ff = 2.5f;
    put(&ch, 1, 1);
    put(&dd, 8, 8);
    put(&sh, 2, 2);
    put(&dc, 8, 8);
    put(&ll, 8, 8);
    put(&ff, 4, 4);
    size_t bufsize = off;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &bufsize, CU_LAUNCH_PARAM_END};
    CK(cuLaunchKernel(packed, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, extra));
    int outs[5];
    CK(cuMemcpyDtoH(outs, dc, sizeof outs));
    printf("packed (%zu bytes): %d %d %d %d %d\n", bufsize, outs[0], outs[1], outs[2], outs[3], outs[4]);
    SAY(cuLaunchKernel(packed, 1, 1, 1, 1, 1, 1, 0, nullptr, args, extra));

    // Streams, events, device printf flushed by synchronisation.
    CUstream st;
    CUevent e0, e1;
    CK(cuStreamCreate(&st, CU_STREAM_NON_BLOCKING));
    CK(cuEventCreate(&e0, CU_EVENT_DEFAULT));
    CK(cuEventCreate(&e1, CU_EVENT_DEFAULT));
    CK(cuEventRecord(e0, st));
    int tag = 42;
    void *hargs[] = {&tag};
    CK(cuLaunchKernel(hello, 1, 1, 1, 32, 1, 1, 0, st, hargs, nullptr));
    CK(cuMemcpyHtoDAsync(db, ha, sizeof ha, st));
    CK(cuEventRecord(e1, st));
    CK(cuStreamSynchronize(st));
    float ms = -1;
    CK(cuEventElapsedTime(&ms, e0, e1));
    printf("stream done: query %s, elapsed >= 0: %d\n", name(cuStreamQuery(st)), ms >= 0);
    CK(cuEventDestroy(e0));
    CK(cuEventDestroy(e1));
    CK(cuStreamDestroy(st));

    // The runtime API in the same process: pointers and streams cross both ways.
    float *rt_ptr;
    cudaMalloc(&rt_ptr, N * sizeof(float));
    CK(cuMemcpyHtoD((CUdeviceptr)rt_ptr, ha, sizeof ha));
    cudaStream_t rst;
    cudaStreamCreate(&rst);
    void *args2[] = {&rt_ptr, &db, &dc, &nn};
    CK(cuLaunchKernel(vadd, (N + 127) / 128, 1, 1, 128, 1, 1, 0, (CUstream)rst, args2, nullptr));
    cudaStreamSynchronize(rst);
    cudaMemcpy(hc, (void *)dc, sizeof hc, cudaMemcpyDeviceToHost);
    printf("runtime pointer and stream: %g\n", hc[10]);
    SAY(cuMemAlloc(&p, 0));
    printf("runtime last error after a driver error: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaStreamDestroy(rst);
    cudaFree(rt_ptr);

    CK(cuModuleUnload(mod));
    CK(cuMemFree(da));
    CK(cuMemFree(db));
    CK(cuMemFree(dc));
    CK(cuMemFree(d2));
    CK(cuDevicePrimaryCtxRelease(dev));
    CK(cuCtxDestroy(ctx));
    printf("done\n");
    return 0;
}
