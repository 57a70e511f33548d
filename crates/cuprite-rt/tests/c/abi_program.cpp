// A program as Cuprite builds it, written by hand: a device module following
// cuprite_abi.h (kernel entries + tables), host stubs calling __cuprite_launch_from_stub,
// and launches through __cudaPushCallConfiguration. Each mode checks one area.
#include <cuda_runtime.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "cuprite_abi.h"

#define CHECK(call)                                                                       \
    do {                                                                                  \
        cudaError_t e_ = (call);                                                          \
        if (e_ != cudaSuccess) {                                                          \
            printf("FAIL %s:%d %s -> %s\n", __FILE__, __LINE__, #call, cudaGetErrorName(e_)); \
            exit(1);                                                                      \
        }                                                                                 \
    } while (0)
#define EXPECT(cond)                                                      \
    do {                                                                  \
        if (!(cond)) {                                                    \
            printf("FAIL %s:%d %s\n", __FILE__, __LINE__, #cond);         \
            exit(1);                                                      \
        }                                                                 \
    } while (0)

static cuprite_dim3 block_of(const cuprite_launch *L, uint64_t b) {
    cuprite_dim3 d;
    d.x = (unsigned)(b % L->grid_dim.x);
    d.y = (unsigned)((b / L->grid_dim.x) % L->grid_dim.y);
    d.z = (unsigned)(b / ((uint64_t)L->grid_dim.x * L->grid_dim.y));
    return d;
}

/* ---- device side (what cuprite-cpu would generate) ---------------------------------- */
int dev_scale_instance[4] = {0, 0, 0, 0};            // __device__ int scale[4]
extern "C" void k_add_entry(cuprite_block_run *run) {
    const cuprite_launch *L = run->launch;
    int *out = *(int **)L->args[0];
    const int *a = *(const int **)L->args[1];
    const int *b = *(const int **)L->args[2];
    int n = *(int *)L->args[3];
    unsigned threads = L->block_dim.x * L->block_dim.y * L->block_dim.z;
    for (uint64_t blk = run->first_block; blk < run->end_block; blk++) {
        run->fault_block = block_of(L, blk);
        for (unsigned t = 0; t < threads; t++) {
            long i = (long)blk * threads + t;
            if (i < n) out[i] = a[i] + b[i] * dev_scale_instance[0];
        }
    }
}
extern "C" void k_fault_entry(cuprite_block_run *run) {
    const cuprite_launch *L = run->launch;
    int *p = *(int **)L->args[0];
    for (uint64_t blk = run->first_block; blk < run->end_block; blk++) {
        run->fault_block = block_of(L, blk);
        for (unsigned t = 0; t < L->block_dim.x; t++) {
            run->fault_thread_linear = t;
            if (blk == 3 && t == 17) *(volatile int *)p = 42; /* p is NULL */
        }
    }
}
extern "C" void k_assert_entry(cuprite_block_run *run) {
    const cuprite_launch *L = run->launch;
    int lim = *(int *)L->args[0];
    for (uint64_t blk = run->first_block; blk < run->end_block; blk++) {
        for (unsigned t = 0; t < L->block_dim.x; t++) {
            if (!((int)t < lim)) {
                cuprite_dim3 th = {t, 0, 0};
                __cuprite_assert_fail("t < lim", "faults.cu", 7, "void k_assert(int)", block_of(L, blk), th);
            }
        }
    }
}
static int __attribute__((noinline)) recurse(volatile int *p, int depth) {
    volatile char frame[4096];
    frame[0] = (char)depth;
    return recurse(p, depth + 1) + frame[0];
}
extern "C" void k_recursion_entry(cuprite_block_run *run) {
    run->fault_block = block_of(run->launch, run->first_block);
    run->fault_thread_linear = 0;
    recurse(NULL, 0);
}
extern "C" void k_trap_entry(cuprite_block_run *run) {
    (void)run;
    __cuprite_trap();
}
extern "C" void k_print_entry(cuprite_block_run *run) {
    const cuprite_launch *L = run->launch;
    int tag = *(int *)L->args[0];
    for (uint64_t blk = run->first_block; blk < run->end_block; blk++)
        __cuprite_printf("device printf tag=%d block=%d\n", tag, (int)blk);
}
extern "C" void k_shared_entry(cuprite_block_run *run) {
    const cuprite_launch *L = run->launch;
    int *out = *(int **)L->args[0];
    size_t off = CUPRITE_DYNAMIC_SHARED_OFFSET(100);
    for (uint64_t blk = run->first_block; blk < run->end_block; blk++) {
        int *dyn = (int *)(run->shared + off);
        size_t n = L->dynamic_shared_bytes / sizeof(int);
        for (size_t i = 0; i < n; i++) dyn[i] = (int)i;
        long sum = 0;
        for (size_t i = 0; i < n; i++) sum += dyn[i];
        out[blk] = (int)sum + (((uintptr_t)run->shared % 64) == 0 ? 0 : 1000000);
    }
}
extern "C" void k_touch_entry(cuprite_block_run *run) {
    volatile char *p = *(volatile char **)run->launch->args[0];
    run->fault_block = block_of(run->launch, run->first_block);
    run->fault_thread_linear = 0;
    p[0] = (char)(p[0] + 1);
}
extern "C" void k_slow_entry(cuprite_block_run *run) {
    const cuprite_launch *L = run->launch;
    int *flag = *(int **)L->args[0];
    for (uint64_t blk = run->first_block; blk < run->end_block; blk++) {
        struct timespec ts = {0, 20 * 1000 * 1000};
        nanosleep(&ts, NULL);
        __atomic_fetch_add(flag, 1, __ATOMIC_SEQ_CST);
    }
}

/* ---- host side (what the driver's host rewrite would produce) ------------------------ */
int scale[4];  // the host shadow of __device__ int scale[4]
int not_a_symbol[4];
void k_add(int *out, const int *a, const int *b, int n) {
    void *args[] = {&out, &a, &b, &n};
    __cuprite_launch_from_stub((const void *)k_add, args);
}
void k_fault(int *p) {
    void *args[] = {&p};
    __cuprite_launch_from_stub((const void *)k_fault, args);
}
void k_assert(int lim) {
    void *args[] = {&lim};
    __cuprite_launch_from_stub((const void *)k_assert, args);
}
void k_recursion(void) { __cuprite_launch_from_stub((const void *)k_recursion, NULL); }
void k_trap(void) { __cuprite_launch_from_stub((const void *)k_trap, NULL); }
void k_print(int tag) {
    void *args[] = {&tag};
    __cuprite_launch_from_stub((const void *)k_print, args);
}
void k_shared(int *out) {
    void *args[] = {&out};
    __cuprite_launch_from_stub((const void *)k_shared, args);
}
void k_bounded(int *out) {
    void *args[] = {&out};
    __cuprite_launch_from_stub((const void *)k_bounded, args);
}
void k_touch(char *p) {
    void *args[] = {&p};
    __cuprite_launch_from_stub((const void *)k_touch, args);
}
void k_slow(int *flag) {
    void *args[] = {&flag};
    __cuprite_launch_from_stub((const void *)k_slow, args);
}

static const uint32_t sz_add[] = {8, 8, 8, 4}, al_add[] = {8, 8, 8, 4};
static const uint32_t sz_p[] = {8}, al_p[] = {8};
static const uint32_t sz_i[] = {4}, al_i[] = {4};
static const cuprite_kernel_desc kernels[] = {
    {(const void *)k_add, "_Z5k_addPiPKiS1_i", "k_add", k_add_entry, 4, sz_add, al_add, 0, 0, 0, 0, 0},
    {(const void *)k_fault, "_Z7k_faultPi", "k_fault", k_fault_entry, 1, sz_p, al_p, 0, 0, 0, 0, 0},
    {(const void *)k_assert, "_Z8k_asserti", "k_assert", k_assert_entry, 1, sz_i, al_i, 0, 0, 0, 0, 0},
    {(const void *)k_trap, "_Z6k_trapv", "k_trap", k_trap_entry, 0, NULL, NULL, 0, 0, 0, 0, 0},
    {(const void *)k_recursion, "_Z11k_recursionv", "k_recursion", k_recursion_entry, 0, NULL, NULL, 0, 0, 0, 0, 0},
    {(const void *)k_print, "_Z7k_printi", "k_print", k_print_entry, 1, sz_i, al_i, 0, 0, 0, 0, 0},
    {(const void *)k_shared, "_Z8k_sharedPi", "k_shared", k_shared_entry, 1, sz_p, al_p, 100, 0, 0, 0, 0},
    {(const void *)k_bounded, "_Z9k_boundedPi", "k_bounded", k_shared_entry, 1, sz_p, al_p, 0, 0, 0, 128, 0},
    {(const void *)k_slow, "_Z6k_slowPi", "k_slow", k_slow_entry, 1, sz_p, al_p, 0, 0, 0, 0, 0},
    {(const void *)k_touch, "_Z7k_touchPc", "k_touch", k_touch_entry, 1, sz_p, al_p, 0, 0, 0, 0, 0},
};
static const cuprite_var_desc vars[] = {
    {(const void *)scale, "scale", dev_scale_instance, sizeof dev_scale_instance, 0},
};
static const cuprite_module_desc module = {CUPRITE_ABI_VERSION, "abi_program.cu", kernels,
                                           sizeof kernels / sizeof kernels[0], vars, 1};
__attribute__((constructor)) static void register_module(void) { __cuprite_register_module(&module); }

#define LAUNCH(g, b, s, st, call) (__cudaPushCallConfiguration(dim3 g, dim3 b, s, st) ? (void)0 : call)

static const char *en(cudaError_t e) { return cudaGetErrorName(e); }

static int mode_basic(void) {
    const int n = 1000;
    int *a, *b, *out;
    CHECK(cudaMalloc(&a, n * sizeof(int)));
    CHECK(cudaMalloc((void **)&b, n * sizeof(int)));
    CHECK(cudaMalloc(&out, n * sizeof(int)));
    EXPECT((uintptr_t)a % 256 == 0);
    int *h = (int *)malloc(n * sizeof(int));
    for (int i = 0; i < n; i++) h[i] = i;
    CHECK(cudaMemcpy(a, h, n * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(b, h, n * sizeof(int), cudaMemcpyDefault));
    int sc[4] = {3, 0, 0, 0};
    CHECK(cudaMemcpyToSymbol(scale, sc, sizeof sc));
    int back = 0;
    CHECK(cudaMemcpyFromSymbol(&back, scale, sizeof(int), 0, cudaMemcpyDeviceToHost));
    EXPECT(back == 3);
    size_t ssz = 0;
    CHECK(cudaGetSymbolSize(&ssz, scale));
    EXPECT(ssz == 16);
    void *saddr = NULL;
    CHECK(cudaGetSymbolAddress(&saddr, scale));
    EXPECT(saddr == (void *)dev_scale_instance);
    EXPECT(cudaMemcpyToSymbol(scale, sc, 20) == cudaErrorInvalidValue);
    EXPECT(cudaMemcpyToSymbol(scale, sc, 8, 12) == cudaErrorInvalidValue);
    EXPECT(cudaMemcpyToSymbol(not_a_symbol, sc, 4) == cudaErrorInvalidSymbol);
    EXPECT(cudaMemcpyToSymbol(scale, sc, 4, 0, cudaMemcpyDeviceToHost) == cudaErrorInvalidMemcpyDirection);
    EXPECT(cudaGetLastError() == cudaErrorInvalidMemcpyDirection);
    EXPECT(cudaGetLastError() == cudaSuccess);

    cudaEvent_t e0, e1;
    CHECK(cudaEventCreate(&e0));
    CHECK(cudaEventCreate(&e1));
    float ms = 0;
    EXPECT(cudaEventElapsedTime(&ms, e0, e1) == cudaErrorInvalidResourceHandle);
    EXPECT(cudaGetLastError() == cudaErrorInvalidResourceHandle);
    EXPECT(cudaEventQuery(e0) == cudaSuccess);
    CHECK(cudaEventRecord(e0, 0));
    LAUNCH((4), (256), 0, 0, k_add(out, a, b, n));
    CHECK(cudaGetLastError());
    CHECK(cudaEventRecord(e1));
    CHECK(cudaEventSynchronize(e1));
    CHECK(cudaEventElapsedTime(&ms, e0, e1));
    EXPECT(ms >= 0.0f);
    CHECK(cudaMemcpy(h, out, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(h[i] == i + 3 * i);

    // cudaLaunchKernel with a stream
    cudaStream_t st;
    CHECK(cudaStreamCreate(&st));
    int nn = n;
    void *args[] = {&out, &a, &a, &nn};
    CHECK(cudaLaunchKernel((const void *)k_add, dim3(8), dim3(128), args, 0, st));
    CHECK(cudaStreamSynchronize(st));
    EXPECT(cudaStreamQuery(st) == cudaSuccess);
    CHECK(cudaMemcpy(h, out, n * sizeof(int), cudaMemcpyDeviceToHost));
    for (int i = 0; i < n; i++) EXPECT(h[i] == 4 * i);
    EXPECT(cudaLaunchKernel((const void *)mode_basic, dim3(1), dim3(1), args, 0, 0) == cudaErrorInvalidResourceHandle);
    EXPECT(cudaGetLastError() == cudaErrorInvalidResourceHandle);
    CHECK(cudaStreamDestroy(st));

    // launch validation (CUDA 13: cudaErrorInvalidValue, not sticky)
    LAUNCH((1), (1025), 0, 0, k_add(out, a, b, n));
    EXPECT(cudaPeekAtLastError() == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    EXPECT(cudaDeviceSynchronize() == cudaSuccess);
    LAUNCH((1, 65536), (1), 0, 0, k_add(out, a, b, n));
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    LAUNCH((1), (1, 1, 65), 0, 0, k_add(out, a, b, n));
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    LAUNCH((0), (1), 0, 0, k_add(out, a, b, n));
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    LAUNCH((1), (129), 0, 0, k_bounded(out));
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    LAUNCH((1), (128), 0, 0, k_bounded(out));
    CHECK(cudaGetLastError());

    // shared memory: static 100 bytes + dynamic
    LAUNCH((2), (32), 49152 - 100, 0, k_shared(out));
    CHECK(cudaGetLastError());
    LAUNCH((2), (32), 49152 - 99, 0, k_shared(out));
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaFuncSetAttribute(k_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 100 * 1024));
    EXPECT(cudaFuncSetAttribute(k_shared, cudaFuncAttributeMaxDynamicSharedMemorySize, 300 * 1024) == cudaErrorInvalidValue);
    cudaGetLastError();
    LAUNCH((2), (32), 100 * 1024, 0, k_shared(out));
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(h, out, 2 * sizeof(int), cudaMemcpyDeviceToHost));
    long m = 100 * 1024 / 4;
    EXPECT(h[0] == (int)(m * (m - 1) / 2) && h[1] == h[0]);

    struct cudaFuncAttributes fa;
    CHECK(cudaFuncGetAttributes(&fa, k_bounded));
    EXPECT(fa.maxThreadsPerBlock == 128);
    CHECK(cudaFuncGetAttributes(&fa, k_shared));
    EXPECT(fa.sharedSizeBytes == 100);

    // memory misuse
    EXPECT(cudaMemcpy(h, h, 4, (cudaMemcpyKind)7) == cudaErrorInvalidMemcpyDirection);
    EXPECT(cudaMemcpy(h, h + 1, 4, cudaMemcpyDeviceToHost) == cudaErrorInvalidValue);
    EXPECT(cudaMemcpy(h, a, 4, cudaMemcpyHostToDevice) == cudaErrorInvalidValue);
    EXPECT(cudaMemcpy(NULL, NULL, 0, cudaMemcpyDeviceToHost) == cudaSuccess);
    EXPECT(cudaMemset(h, 0, 4) == cudaErrorInvalidValue);
    CHECK(cudaMemset(a, 0, n * sizeof(int)));
    EXPECT(cudaFree(h) == cudaErrorInvalidValue);
    EXPECT(cudaFree(a + 1) == cudaErrorInvalidValue);
    int *z = (int *)1;
    CHECK(cudaMalloc(&z, 0));
    EXPECT(z == NULL);
    EXPECT(cudaMalloc(&z, (size_t)1 << 60) == cudaErrorMemoryAllocation);
    CHECK(cudaFree(a));
    EXPECT(cudaFree(a) == cudaErrorInvalidValue);
    cudaGetLastError();

    int *pinned;
    CHECK(cudaHostAlloc(&pinned, 64, cudaHostAllocMapped));
    unsigned fl = 0;
    CHECK(cudaHostGetFlags(&fl, pinned));
    EXPECT(fl == cudaHostAllocMapped);
    void *dp = NULL;
    CHECK(cudaHostGetDevicePointer(&dp, pinned, 0));
    EXPECT(dp == pinned);
    struct cudaPointerAttributes pa;
    CHECK(cudaPointerGetAttributes(&pa, pinned));
    EXPECT(pa.type == cudaMemoryTypeHost);
    CHECK(cudaPointerGetAttributes(&pa, b));
    EXPECT(pa.type == cudaMemoryTypeDevice);
    EXPECT(cudaFree(pinned) == cudaErrorInvalidValue);
    CHECK(cudaFreeHost(pinned));

    // device management
    struct cudaDeviceProp prop;
    CHECK(cudaGetDeviceProperties(&prop, 0));
    EXPECT(sizeof(prop) == 1008);
    EXPECT(prop.warpSize == 32 && prop.maxThreadsPerBlock == 1024 && prop.maxGridSize[1] == 65535);
    EXPECT(strstr(prop.name, "Cuprite") != NULL);
    EXPECT(prop.clockRate > 0 && prop.deviceOverlap == 1);
    int v = 0;
    CHECK(cudaDeviceGetAttribute(&v, cudaDevAttrWarpSize, 0));
    EXPECT(v == 32);
    EXPECT(cudaDeviceGetAttribute(&v, (cudaDeviceAttr)100000, 0) == cudaErrorInvalidValue);
    EXPECT(cudaSetDevice(5) == cudaErrorInvalidDevice);
    CHECK(cudaRuntimeGetVersion(&v));
    EXPECT(v == 13000);
    size_t lim = 0;
    CHECK(cudaDeviceGetLimit(&lim, cudaLimitPrintfFifoSize));
    EXPECT(lim == 8650752);
    size_t fr = 0, tot = 0;
    CHECK(cudaMemGetInfo(&fr, &tot));
    EXPECT(tot > 0 && fr <= tot);
    EXPECT(strcmp(cudaGetErrorString(cudaErrorIllegalAddress), "an illegal memory access was encountered") == 0);
    EXPECT(strcmp(cudaGetErrorName((cudaError_t)12345), "unrecognized error code") == 0);
    cudaGetLastError();
    CHECK(cudaDeviceSynchronize());
    printf("basic OK\n");
    return 0;
}

static int mode_fault(const char *which) {
    int *d;
    CHECK(cudaMalloc(&d, 16));
    if (!strcmp(which, "null")) LAUNCH((8), (32), 0, 0, k_fault(NULL));
    if (!strcmp(which, "assert")) LAUNCH((2), (4), 0, 0, k_assert(2));
    if (!strcmp(which, "trap")) LAUNCH((1), (1), 0, 0, k_trap());
    if (!strcmp(which, "recursion")) LAUNCH((1), (1), 0, 0, k_recursion());
    cudaError_t e = cudaDeviceSynchronize();
    printf("sync %s\n", en(e));
    printf("last %s\n", en(cudaGetLastError()));
    printf("peek %s\n", en(cudaPeekAtLastError()));
    printf("sync again %s\n", en(cudaDeviceSynchronize()));
    int *x;
    printf("malloc %s\n", en(cudaMalloc(&x, 16)));
    int h[4];
    printf("memcpy %s\n", en(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost)));
    LAUNCH((1), (1), 0, 0, k_print(1));
    printf("launch %s\n", en(cudaGetLastError()));
    printf("reset %s\n", en(cudaDeviceReset()));
    int *y;
    printf("malloc after reset %s\n", en(cudaMalloc(&y, 16)));
    LAUNCH((1), (1), 0, 0, k_print(2));
    printf("after reset sync %s\n", en(cudaDeviceSynchronize()));
    return 0;
}

static int mode_printf(void) {
    printf("host A\n");
    LAUNCH((1), (1), 0, 0, k_print(10));
    printf("host B (after launch, before sync)\n");
    CHECK(cudaDeviceSynchronize());
    printf("host C (after sync)\n");
    int *d;
    CHECK(cudaMalloc(&d, 16));
    LAUNCH((2), (1), 0, 0, k_print(11));
    int h[4];
    CHECK(cudaMemcpy(h, d, 16, cudaMemcpyDeviceToHost));
    printf("host D (after memcpy)\n");
    LAUNCH((1), (1), 0, 0, k_print(12));
    CHECK(cudaDeviceReset());
    printf("host E (after reset)\n");
    LAUNCH((1), (1), 0, 0, k_print(13));
    printf("host F returning without sync\n");
    return 0;
}

static int mode_async(void) {
    int *flag;
    CHECK(cudaMallocManaged(&flag, sizeof(int)));
    *flag = 0;
    cudaEvent_t e;
    CHECK(cudaEventCreate(&e));
    LAUNCH((5), (1), 0, 0, k_slow(flag));
    CHECK(cudaEventRecord(e));
    // the launch returned before the kernel finished
    cudaError_t q = cudaEventQuery(e);
    printf("query before sync %s\n", en(q));
    printf("last after NotReady %s\n", en(cudaGetLastError()));
    CHECK(cudaEventSynchronize(e));
    printf("query after sync %s flag %d\n", en(cudaEventQuery(e)), *flag);
    return 0;
}

static int mode_formats(void) {
    int r1 = __cuprite_printf("star: [%*d] %s %p %s %lld %x %5.2f%% [%.*f] [%zu] [%k]\n", 6, 42, "hi", (void *)0,
                              (const char *)0, -1234567890123LL, 42u, 3.14159, 3, 1.5);
    int r2 = __cuprite_printf("no args\n");
    CHECK(cudaDeviceSynchronize());
    printf("returned %d and %d\n", r1, r2);
    return 0;
}

/* Device memory is carved from 2 MiB chunks: accesses past an allocation fault only
 * where mapped memory ends. */
static int mode_memory(void) {
    const size_t chunk = 2u << 20;
    float *a, *b;
    CHECK(cudaMalloc(&a, 256 * 256 * sizeof(float)));
    CHECK(cudaMalloc(&b, 1000));
    EXPECT((uintptr_t)a % 256 == 0 && (uintptr_t)b % 256 == 0);
    LAUNCH((1), (1), 0, 0, k_touch((char *)(a + 256 * 256 + 255)));  // one row past the end
    CHECK(cudaDeviceSynchronize());
    LAUNCH((1), (1), 0, 0, k_touch((char *)(a - 256)));  // one row before the first array
    CHECK(cudaDeviceSynchronize());
    LAUNCH((1), (1), 0, 0, k_touch((char *)((uintptr_t)a | (chunk - 1))));  // the chunk's last byte
    CHECK(cudaDeviceSynchronize());
    char *big;
    CHECK(cudaMalloc(&big, 3 << 20));
    EXPECT((uintptr_t)big % chunk == 0);
    LAUNCH((1), (1), 0, 0, k_touch(big + 2 * chunk - 1));  // rounded up to whole chunks
    CHECK(cudaDeviceSynchronize());
    cudaPointerAttributes at;
    CHECK(cudaPointerGetAttributes(&at, a + 100));
    EXPECT(at.type == cudaMemoryTypeDevice && at.devicePointer == (void *)(a + 100));
    EXPECT(cudaFree(b + 1) == cudaErrorInvalidValue);
    EXPECT(cudaGetLastError() == cudaErrorInvalidValue);
    CHECK(cudaFree(b));
    EXPECT(cudaFree(b) == cudaErrorInvalidValue);
    cudaGetLastError();
    float *c;
    CHECK(cudaMalloc(&c, 1000));
    EXPECT(c == b);  // freed memory is reused
    size_t fr = 0, tot = 0;
    CHECK(cudaMemGetInfo(&fr, &tot));
    EXPECT(tot > 0 && fr <= tot);
    CHECK(cudaDeviceReset());
    EXPECT(cudaFree(a) == cudaErrorInvalidValue);
    EXPECT(cudaFree(big) == cudaErrorInvalidValue);
    cudaGetLastError();
    CHECK(cudaPointerGetAttributes(&at, a));
    EXPECT(at.type == cudaMemoryTypeUnregistered);
    CHECK(cudaMalloc(&a, 16));
    LAUNCH((1), (1), 0, 0, k_touch((char *)a + ((size_t)1 << 40)));  // far from anything mapped
    printf("far %s\n", en(cudaDeviceSynchronize()));
    printf("memory OK\n");
    return 0;
}

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "basic";
    if (!strcmp(mode, "basic")) return mode_basic();
    if (!strcmp(mode, "printf")) return mode_printf();
    if (!strcmp(mode, "async")) return mode_async();
    if (!strcmp(mode, "formats")) return mode_formats();
    if (!strcmp(mode, "memory")) return mode_memory();
    return mode_fault(mode);
}
