// NVRTC: a program with a header, compile options, a compile error in the log, name
// expressions for template kernels (nvrtcGetLoweredName), the result loaded with
// cuModuleLoadData and launched with kernelParams and with a packed `extra` buffer of
// parameters of mixed sizes and alignments.
#include <cuda.h>
#include <nvrtc.h>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#define NV(x)                                                                        \
    do {                                                                             \
        nvrtcResult r_ = (x);                                                        \
        if (r_ != NVRTC_SUCCESS) {                                                   \
            printf("line %d: %s failed: %s\n", __LINE__, #x, nvrtcGetErrorString(r_)); \
            return 1;                                                                \
        }                                                                            \
    } while (0)
#define CK(x)                                                                        \
    do {                                                                             \
        CUresult r_ = (x);                                                           \
        if (r_ != CUDA_SUCCESS) {                                                    \
            const char *s_;                                                          \
            cuGetErrorName(r_, &s_);                                                 \
            printf("line %d: %s failed: %s\n", __LINE__, #x, s_);                    \
            return 1;                                                                \
        }                                                                            \
    } while (0)

static const char *kHeader = R"(
struct Affine { int n; double scale; float bias; };
)";

static const char *kSource = R"(
#include "affine.h"

template <typename T, int UNROLL>
__global__ void apply(T *out, const T *in, Affine a) {
    int base = (blockIdx.x * blockDim.x + threadIdx.x) * UNROLL;
    for (int k = 0; k < UNROLL; k++) {
        int i = base + k;
        if (i < a.n) out[i] = (T)(in[i] * a.scale + a.bias) + (T)OFFSET;
    }
}

namespace tools {
template <typename T>
__global__ void fill(T *p, T v, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = v;
}
}

extern "C" __global__ void mixed(char c, double d, short s, int *out, long long ll, float f, unsigned char u, double d2) {
    out[0] = c;
    out[1] = (int)(d * 100.0);
    out[2] = s;
    out[3] = (int)(ll / 1000);
    out[4] = (int)(f * 8.0f);
    out[5] = u;
    out[6] = (int)(d2 * 1000.0);
}
)";

static const char *kBroken = R"(
__global__ void broken(int *p) {
    p[0] = undefined_name;
}
)";

static std::string log_of(nvrtcProgram prog) {
    size_t n = 0;
    nvrtcGetProgramLogSize(prog, &n);
    std::string s(n, '\0');
    nvrtcGetProgramLog(prog, &s[0]);
    return s;
}

int main() {
    int major = 0, minor = 0;
    NV(nvrtcVersion(&major, &minor));
    printf("nvrtc major %d\n", major);
    for (int r : {0, 3, 5, 6, 9, 10})
        printf("  %d: %s\n", r, nvrtcGetErrorString((nvrtcResult)r));

    // A compile error: the status and a log that says so.
    nvrtcProgram bad;
    NV(nvrtcCreateProgram(&bad, kBroken, "broken.cu", 0, nullptr, nullptr));
    nvrtcResult r = nvrtcCompileProgram(bad, 0, nullptr);
    std::string blog = log_of(bad);
    printf("broken: %s, log mentions the name: %d\n", nvrtcGetErrorString(r), blog.find("undefined_name") != std::string::npos);
    NV(nvrtcDestroyProgram(&bad));

    // The real program.
    const char *headers[] = {kHeader};
    const char *names[] = {"affine.h"};
    nvrtcProgram prog;
    NV(nvrtcCreateProgram(&prog, kSource, "affine.cu", 1, headers, names));
    const char *lowered = nullptr;
    printf("lowered before compiling: %s\n", nvrtcGetErrorString(nvrtcGetLoweredName(prog, "apply<float, 2>", &lowered)));
    const char *exprs[] = {"apply<float, 2>", "&apply<double, 1>", "tools::fill<int>"};
    for (const char *e : exprs) NV(nvrtcAddNameExpression(prog, e));
    const char *opts[] = {"--gpu-architecture=compute_90", "-std=c++17", "-DOFFSET=1", "-default-device", "-lineinfo"};
    NV(nvrtcCompileProgram(prog, 5, opts));
    printf("adding after compiling: %s\n", nvrtcGetErrorString(nvrtcAddNameExpression(prog, "apply<int, 1>")));
    std::vector<std::string> low;
    for (const char *e : exprs) {
        NV(nvrtcGetLoweredName(prog, e, &lowered));
        printf("  %s -> %s\n", e, lowered);
        low.push_back(lowered);
    }
    printf("unknown expression: %s\n", nvrtcGetErrorString(nvrtcGetLoweredName(prog, "apply<char, 3>", &lowered)));
    size_t ptx_size = 0;
    NV(nvrtcGetPTXSize(prog, &ptx_size));
    std::vector<char> ptx(ptx_size);
    NV(nvrtcGetPTX(prog, ptx.data()));
    printf("ptx is a string of its size: %d\n", strlen(ptx.data()) + 1 == ptx_size);
    NV(nvrtcDestroyProgram(&prog));

    // Load and launch.
    CUdevice dev;
    CUcontext ctx;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    CUmodule mod;
    CK(cuModuleLoadData(&mod, ptx.data()));
    CUfunction apply_f, apply_d, fill_i, mixed;
    CK(cuModuleGetFunction(&apply_f, mod, low[0].c_str()));
    CK(cuModuleGetFunction(&apply_d, mod, low[1].c_str()));
    CK(cuModuleGetFunction(&fill_i, mod, low[2].c_str()));
    CK(cuModuleGetFunction(&mixed, mod, "mixed"));

    const int N = 100;
    std::vector<float> hf(N);
    std::vector<double> hd(N);
    for (int i = 0; i < N; i++) {
        hf[i] = i * 0.5f;
        hd[i] = i * 0.25;
    }
    CUdeviceptr inf, outf, ind, outd, ints;
    CK(cuMemAlloc(&inf, N * sizeof(float)));
    CK(cuMemAlloc(&outf, N * sizeof(float)));
    CK(cuMemAlloc(&ind, N * sizeof(double)));
    CK(cuMemAlloc(&outd, N * sizeof(double)));
    CK(cuMemAlloc(&ints, N * sizeof(int)));
    CK(cuMemcpyHtoD(inf, hf.data(), N * sizeof(float)));
    CK(cuMemcpyHtoD(ind, hd.data(), N * sizeof(double)));

    struct Affine { int n; double scale; float bias; } a = {N, 3.0, 0.5f};
    void *fargs[] = {&outf, &inf, &a};
    CK(cuLaunchKernel(apply_f, 2, 1, 1, 32, 1, 1, 0, nullptr, fargs, nullptr));
    CK(cuMemcpyDtoH(hf.data(), outf, N * sizeof(float)));
    printf("apply<float, 2>: %g %g %g\n", hf[0], hf[1], hf[99]);

    // The same struct through a packed buffer (`extra`).
    unsigned char buf[128];
    size_t off = 0;
    auto put = [&](const void *v, size_t sz, size_t al) {
        off = (off + al - 1) / al * al;
        memcpy(buf + off, v, sz);
        off += sz;
    };
    put(&outd, 8, 8);
    put(&ind, 8, 8);
    put(&a, sizeof a, alignof(Affine));
    size_t size = off;
    void *extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size, CU_LAUNCH_PARAM_END};
    CK(cuLaunchKernel(apply_d, 4, 1, 1, 32, 1, 1, 0, nullptr, nullptr, extra));
    CK(cuMemcpyDtoH(hd.data(), outd, N * sizeof(double)));
    printf("apply<double, 1> (extra, %zu bytes): %g %g\n", size, hd[2], hd[99]);

    int seven = 7, nn = N;
    void *iargs[] = {&ints, &seven, &nn};
    CK(cuLaunchKernel(fill_i, 1, 1, 1, 128, 1, 1, 0, nullptr, iargs, nullptr));
    std::vector<int> hi(N);
    CK(cuMemcpyDtoH(hi.data(), ints, N * sizeof(int)));
    printf("tools::fill<int>: %d %d\n", hi[0], hi[99]);

    // Mixed sizes and alignments in `extra`: char, double, short, pointer, long long,
    // float, unsigned char, double.
    off = 0;
    char c = -5;
    double d = 2.75;
    short s = 300;
    long long ll = 9876543210ll;
    float f = 1.625f;
    unsigned char u = 200;
    double d2 = 0.125;
    put(&c, 1, 1);
    put(&d, 8, 8);
    put(&s, 2, 2);
    put(&ints, 8, 8);
    put(&ll, 8, 8);
    put(&f, 4, 4);
    put(&u, 1, 1);
    put(&d2, 8, 8);
    size = off;
    CK(cuLaunchKernel(mixed, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, extra));
    CK(cuMemcpyDtoH(hi.data(), ints, 7 * sizeof(int)));
    printf("mixed (%zu bytes):", size);
    for (int i = 0; i < 7; i++) printf(" %d", hi[i]);
    printf("\n");
    size_t small = size - 8;
    void *short_extra[] = {CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &small, CU_LAUNCH_PARAM_END};
    CUresult sr = cuLaunchKernel(mixed, 1, 1, 1, 1, 1, 1, 0, nullptr, nullptr, short_extra);
    const char *sn;
    cuGetErrorName(sr, &sn);
    printf("buffer too small: %s\n", sn);

    CK(cuModuleUnload(mod));
    CK(cuDevicePrimaryCtxRelease(dev));
    printf("done\n");
    return 0;
}
