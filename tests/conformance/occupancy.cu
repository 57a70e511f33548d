// Occupancy API and the cuda_occupancy.h calculator: resident blocks per
// multiprocessor for several block sizes and shared-memory uses, the block size
// that maximises occupancy (constant and per-block-size dynamic shared memory, a
// __launch_bounds__ limit, a caller's limit), the dynamic shared memory left for N
// blocks, and the errors for bad arguments. Figures that depend on the number of
// multiprocessors are printed per multiprocessor. Expected output: nvcc 13, H100.
#include <cstdio>
#include <cuda_runtime.h>
#include <cuda_occupancy.h>

__global__ void plain(float *p) { p[threadIdx.x] += 1.0f; }

__global__ void staticShared(float *p) {
    __shared__ float tile[2560]; // 10 KiB
    tile[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = tile[(threadIdx.x + 1) % blockDim.x];
}

__global__ void dynamicShared(float *p) {
    extern __shared__ float buf[];
    buf[threadIdx.x] = p[threadIdx.x];
    __syncthreads();
    p[threadIdx.x] = buf[blockDim.x - 1 - threadIdx.x];
}

__global__ void __launch_bounds__(256) bounded(float *p) { p[threadIdx.x] *= 2.0f; }

struct SmemPerBlock {
    size_t operator()(int blockSize) const { return (size_t)blockSize * 48; }
};

static void blocks(const char *name, const void *f, int bs, size_t smem) {
    int n = -1;
    cudaError_t e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, bs, smem);
    printf("%-13s bs=%4d smem=%6zu -> %s blocks=%d\n", name, bs, smem, cudaGetErrorName(e), n);
}

int main() {
    int sms = 0;
    cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0);
    const int sizes[] = {32, 64, 96, 128, 192, 256, 384, 512, 640, 768, 1024};
    for (int bs : sizes) blocks("plain", (const void *)plain, bs, 0);
    for (int bs : sizes) blocks("staticShared", (const void *)staticShared, bs, 0);
    const size_t smems[] = {0, 1000, 4096, 20000, 40000, 49152};
    for (size_t s : smems) blocks("dynamicShared", (const void *)dynamicShared, 128, s);
    for (size_t s : smems) blocks("dynamicShared", (const void *)dynamicShared, 512, s);
    blocks("bounded", (const void *)bounded, 256, 0);
    blocks("bounded", (const void *)bounded, 512, 0);
    blocks("plain", (const void *)plain, 0, 0);
    blocks("plain", (const void *)plain, 1025, 0);
    blocks("dynamicShared", (const void *)dynamicShared, 128, 49153);
    printf("opt-in 100000: %s\n", cudaGetErrorName(cudaFuncSetAttribute(dynamicShared, cudaFuncAttributeMaxDynamicSharedMemorySize, 100000)));
    blocks("dynamicShared", (const void *)dynamicShared, 128, 60000);
    blocks("dynamicShared", (const void *)dynamicShared, 128, 100000);
    blocks("dynamicShared", (const void *)dynamicShared, 128, 100001);
    // A limit of 0 forbids dynamic shared memory; the sections below run with it, then
    // again with 48 KiB.
    cudaFuncSetAttribute(dynamicShared, cudaFuncAttributeMaxDynamicSharedMemorySize, 0);
    const int limits[] = {0, 49152};
    for (int limit : limits) {
    cudaFuncSetAttribute(dynamicShared, cudaFuncAttributeMaxDynamicSharedMemorySize, limit);
    printf("-- dynamic shared memory limit %d\n", limit);
    float *d = nullptr;
    cudaMalloc(&d, 32 * sizeof(float));
    cudaGetLastError(); // clears the errors of the calls above
    dynamicShared<<<1, 32, 32 * sizeof(float)>>>(d);
    printf("launch with 128 bytes: %s\n", cudaGetErrorName(cudaGetLastError()));
    cudaDeviceSynchronize();
    cudaFree(d);

    int minGrid = 0, bs = 0;
    cudaError_t e;
    e = cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, plain);
    printf("potential plain: %s bs=%d minGrid/SM=%d\n", cudaGetErrorName(e), bs, minGrid / sms);
    e = cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, plain, 0, 200);
    printf("potential plain limit 200: %s bs=%d minGrid/SM=%d\n", cudaGetErrorName(e), bs, minGrid / sms);
    e = cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, bounded);
    printf("potential bounded: %s bs=%d minGrid/SM=%d\n", cudaGetErrorName(e), bs, minGrid / sms);
    e = cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, staticShared);
    printf("potential staticShared: %s bs=%d minGrid/SM=%d\n", cudaGetErrorName(e), bs, minGrid / sms);
    const size_t fixed[] = {8192, 30000, 45000};
    for (size_t s : fixed) {
        e = cudaOccupancyMaxPotentialBlockSize(&minGrid, &bs, dynamicShared, s);
        printf("potential dynamicShared %zu: %s bs=%d minGrid/SM=%d\n", s, cudaGetErrorName(e), bs, minGrid / sms);
    }
    e = cudaOccupancyMaxPotentialBlockSizeVariableSMem(&minGrid, &bs, dynamicShared, SmemPerBlock());
    printf("potential variable 48*bs: %s bs=%d minGrid/SM=%d\n", cudaGetErrorName(e), bs, minGrid / sms);
    e = cudaOccupancyMaxPotentialBlockSizeVariableSMem(&minGrid, &bs, dynamicShared,
                                                       [](int b) { return (size_t)(b * b / 8); });
    printf("potential variable bs^2/8: %s bs=%d minGrid/SM=%d\n", cudaGetErrorName(e), bs, minGrid / sms);

    const int avail[][2] = {{1, 128}, {2, 256}, {4, 256}, {8, 128}, {16, 64}, {3, 1024}};
    for (auto &a : avail) {
        size_t bytes = 0;
        e = cudaOccupancyAvailableDynamicSMemPerBlock(&bytes, dynamicShared, a[0], a[1]);
        printf("available %2d x %4d: %s bytes=%zu\n", a[0], a[1], cudaGetErrorName(e), bytes);
    }

    // The header-only calculator, fed from the runtime's properties and attributes.
    cudaDeviceProp prop;
    cudaGetDeviceProperties(&prop, 0);
    cudaFuncAttributes fa;
    cudaFuncGetAttributes(&fa, dynamicShared);
    cudaOccDeviceProp occProp(prop);
    cudaOccFuncAttributes occAttr(fa);
    occAttr.numRegs = 16; // fixed, so the register limit does not depend on the compiler
    cudaOccDeviceState state;
    const int occSizes[] = {64, 256, 1024};
    const size_t occSmem[] = {0, 12000, 47000};
    for (int b : occSizes)
        for (size_t s : occSmem) {
            cudaOccResult r;
            cudaOccError oe = cudaOccMaxActiveBlocksPerMultiprocessor(&r, &occProp, &occAttr, &state, b, s);
            printf("occ bs=%4d smem=%5zu: err=%d active=%d warps=%d blocks=%d shared=%d regs=%d\n", b, s, (int)oe,
                   r.activeBlocksPerMultiprocessor, r.blockLimitWarps, r.blockLimitBlocks, r.blockLimitSharedMem,
                   r.blockLimitRegs);
        }
    int occMin = 0, occBs = 0;
    cudaOccError oe = cudaOccMaxPotentialOccupancyBlockSize(&occMin, &occBs, &occProp, &occAttr, &state, nullptr, 20000);
    printf("occ potential smem 20000: err=%d bs=%d minGrid/SM=%d\n", (int)oe, occBs, occMin / sms);
    size_t occAvail = 0;
    oe = cudaOccAvailableDynamicSMemPerBlock(&occAvail, &occProp, &occAttr, &state, 4, 256);
    printf("occ available 4 x 256: err=%d bytes=%zu\n", (int)oe, occAvail);
    oe = cudaOccMaxActiveBlocksPerMultiprocessor(nullptr, &occProp, &occAttr, &state, 64, 0);
    printf("occ null result: err=%d\n", (int)oe);
    }
    return 0;
}
