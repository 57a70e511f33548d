// NVRTC's floating-point options: --ftz=true / -ftz=true and --use_fast_math /
// -use_fast_math flush subnormal inputs and results to zero; --fmad=false stops
// multiply-add contraction; without options neither happens. The kernel is compiled
// once per option set and launched on the same inputs.
#include <cuda.h>
#include <nvrtc.h>
#include <cstdio>
#include <vector>

#define NV(x) do { nvrtcResult r_ = (x); if (r_ != NVRTC_SUCCESS) { printf("line %d: %s\n", __LINE__, nvrtcGetErrorString(r_)); return 1; } } while (0)
#define CK(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char *s_; cuGetErrorName(r_, &s_); printf("line %d: %s\n", __LINE__, s_); return 1; } } while (0)

static const char *kSource = R"(
extern "C" __global__ void probe(const float *in, float *out) {
    float a = in[0], b = in[1], sub = in[2], c = in[3], d = in[4];
    out[0] = a * b;          // a subnormal product
    out[1] = sub + 0.0f;     // a subnormal input
    out[2] = sub * 4.0f;     // a subnormal input, normal result
    out[3] = c * c + d;      // contracted unless --fmad=false
}
)";

static int run(CUdevice dev, const char *name, std::vector<const char *> opts, CUdeviceptr in, CUdeviceptr out)
{
    nvrtcProgram prog;
    NV(nvrtcCreateProgram(&prog, kSource, "probe.cu", 0, nullptr, nullptr));
    opts.insert(opts.begin(), "--gpu-architecture=compute_90");
    nvrtcResult r = nvrtcCompileProgram(prog, (int)opts.size(), opts.data());
    if (r != NVRTC_SUCCESS) {
        printf("%s: %s\n", name, nvrtcGetErrorString(r));
        return 1;
    }
    size_t n;
    NV(nvrtcGetPTXSize(prog, &n));
    std::vector<char> ptx(n);
    NV(nvrtcGetPTX(prog, ptx.data()));
    NV(nvrtcDestroyProgram(&prog));
    CUmodule mod;
    CUfunction f;
    CK(cuModuleLoadData(&mod, ptx.data()));
    CK(cuModuleGetFunction(&f, mod, "probe"));
    void *args[] = {&in, &out};
    CK(cuLaunchKernel(f, 1, 1, 1, 1, 1, 1, 0, nullptr, args, nullptr));
    float h[4];
    CK(cuMemcpyDtoH(h, out, sizeof h));
    printf("%-22s %a %a %a %a\n", name, h[0], h[1], h[2], h[3]);
    CK(cuModuleUnload(mod));
    return 0;
}

int main()
{
    CUdevice dev;
    CUcontext ctx;
    CK(cuInit(0));
    CK(cuDeviceGet(&dev, 0));
    CK(cuDevicePrimaryCtxRetain(&ctx, dev));
    CK(cuCtxSetCurrent(ctx));
    const float c = 1.0f + 0x1p-12f;
    float h[5] = {0x1p-70f, 0x1p-60f, 0x1p-130f, c, -1.0f};
    CUdeviceptr in, out;
    CK(cuMemAlloc(&in, sizeof h));
    CK(cuMemAlloc(&out, 4 * sizeof(float)));
    CK(cuMemcpyHtoD(in, h, sizeof h));
    int bad = 0;
    bad |= run(dev, "(none)", {}, in, out);
    bad |= run(dev, "--ftz=true", {"--ftz=true"}, in, out);
    bad |= run(dev, "-ftz=true", {"-ftz=true"}, in, out);
    bad |= run(dev, "--ftz=false", {"--ftz=false"}, in, out);
    bad |= run(dev, "--use_fast_math", {"--use_fast_math"}, in, out);
    bad |= run(dev, "-use_fast_math", {"-use_fast_math"}, in, out);
    bad |= run(dev, "--fmad=false", {"--fmad=false"}, in, out);
    bad |= run(dev, "-fmad=false -ftz=true", {"-fmad=false", "-ftz=true"}, in, out);
    return bad;
}
