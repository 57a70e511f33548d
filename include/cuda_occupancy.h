/* Cuprite: the occupancy calculator as a header-only host library (cuda_occupancy.h).
 *
 * Written for Cuprite from the documented interface: the names, fields and error codes
 * are CUDA's, the code is ours. It computes how many blocks of a kernel fit on one
 * multiprocessor from a device's limits (threads, warps, blocks, registers, shared
 * memory) and the kernel's attributes, and the block size that maximises that. The
 * runtime's cudaOccupancy* functions use the same model (cuprite-rt api/launch.rs). */
#ifndef __cuda_occupancy_h__
#define __cuda_occupancy_h__

#include <stddef.h>

#ifndef __OCC_INLINE
#define __OCC_INLINE static inline
#endif

typedef enum cudaOccError_enum {
    CUDA_OCC_SUCCESS = 0,
    CUDA_OCC_ERROR_INVALID_INPUT = 1,
    CUDA_OCC_ERROR_UNKNOWN_DEVICE = 2
} cudaOccError;

typedef enum cudaOccCacheConfig_enum {
    CACHE_PREFER_NONE = 0x00,
    CACHE_PREFER_SHARED = 0x01,
    CACHE_PREFER_L1 = 0x02,
    CACHE_PREFER_EQUAL = 0x03
} cudaOccCacheConfig;

typedef enum cudaOccCarveoutConfig_enum {
    SHAREDMEM_CARVEOUT_DEFAULT = -1,
    SHAREDMEM_CARVEOUT_MAX_SHARED = 100,
    SHAREDMEM_CARVEOUT_MAX_L1 = 0,
    SHAREDMEM_CARVEOUT_HALF = 50
} cudaOccCarveoutConfig;

typedef enum cudaOccPartitionedGCConfig_enum {
    PARTITIONED_GC_OFF = 0,
    PARTITIONED_GC_ON = 1,
    PARTITIONED_GC_ON_STRICT = 2
} cudaOccPartitionedGCConfig;

typedef enum cudaOccFuncShmemConfig_enum {
    FUNC_SHMEM_LIMIT_DEFAULT = 0x00,
    FUNC_SHMEM_LIMIT_OPTIN = 0x01
} cudaOccFuncShmemConfig;

/* Which limits stopped more blocks from fitting (a bit set in cudaOccResult). */
typedef enum cudaOccLimitingFactor_enum {
    OCC_LIMIT_WARPS = 0x01,
    OCC_LIMIT_REGISTERS = 0x02,
    OCC_LIMIT_SHARED_MEMORY = 0x04,
    OCC_LIMIT_BLOCKS = 0x08,
    OCC_LIMIT_BARRIERS = 0x10
} cudaOccLimitingFactor;

struct cudaOccDeviceProp {
    int computeMajor;
    int computeMinor;
    int maxThreadsPerBlock;
    int maxThreadsPerMultiprocessor;
    int regsPerBlock;
    int regsPerMultiprocessor;
    int warpSize;
    size_t sharedMemPerBlock;
    size_t sharedMemPerMultiprocessor;
    int numSms;
    size_t sharedMemPerBlockOptin;
    size_t reservedSharedMemPerBlock;
#ifdef __cplusplus
    cudaOccDeviceProp()
        : computeMajor(0), computeMinor(0), maxThreadsPerBlock(0), maxThreadsPerMultiprocessor(0),
          regsPerBlock(0), regsPerMultiprocessor(0), warpSize(0), sharedMemPerBlock(0),
          sharedMemPerMultiprocessor(0), numSms(0), sharedMemPerBlockOptin(0), reservedSharedMemPerBlock(0) {}
    /* From a cudaDeviceProp (any type with its field names). */
    template <class DeviceProp>
    cudaOccDeviceProp(const DeviceProp &p)
        : computeMajor(p.major), computeMinor(p.minor), maxThreadsPerBlock(p.maxThreadsPerBlock),
          maxThreadsPerMultiprocessor(p.maxThreadsPerMultiProcessor), regsPerBlock(p.regsPerBlock),
          regsPerMultiprocessor(p.regsPerMultiprocessor), warpSize(p.warpSize),
          sharedMemPerBlock(p.sharedMemPerBlock), sharedMemPerMultiprocessor(p.sharedMemPerMultiprocessor),
          numSms(p.multiProcessorCount), sharedMemPerBlockOptin(p.sharedMemPerBlockOptin),
          reservedSharedMemPerBlock(p.reservedSharedMemPerBlock) {}
#endif
};

struct cudaOccFuncAttributes {
    int maxThreadsPerBlock;
    int numRegs;
    size_t sharedSizeBytes;
    cudaOccPartitionedGCConfig partitionedGCConfig;
    cudaOccFuncShmemConfig shmemLimitConfig;
    size_t maxDynamicSharedSizeBytes;
    int numBlockBarriers;
#ifdef __cplusplus
    cudaOccFuncAttributes()
        : maxThreadsPerBlock(0), numRegs(0), sharedSizeBytes(0), partitionedGCConfig(PARTITIONED_GC_OFF),
          shmemLimitConfig(FUNC_SHMEM_LIMIT_DEFAULT), maxDynamicSharedSizeBytes(0), numBlockBarriers(0) {}
    /* From a cudaFuncAttributes (any type with its field names). */
    template <class FuncAttributes>
    cudaOccFuncAttributes(const FuncAttributes &a)
        : maxThreadsPerBlock(a.maxThreadsPerBlock), numRegs(a.numRegs), sharedSizeBytes(a.sharedSizeBytes),
          partitionedGCConfig(PARTITIONED_GC_OFF), shmemLimitConfig(FUNC_SHMEM_LIMIT_OPTIN),
          maxDynamicSharedSizeBytes(a.maxDynamicSharedSizeBytes), numBlockBarriers(1) {}
#endif
};

struct cudaOccDeviceState {
    cudaOccCacheConfig cacheConfig;
    cudaOccCarveoutConfig carveoutConfig;
#ifdef __cplusplus
    cudaOccDeviceState() : cacheConfig(CACHE_PREFER_NONE), carveoutConfig(SHAREDMEM_CARVEOUT_DEFAULT) {}
#endif
};

struct cudaOccResult {
    int activeBlocksPerMultiprocessor;
    unsigned int limitingFactors;
    int blockLimitRegs;
    int blockLimitSharedMem;
    int blockLimitWarps;
    int blockLimitBlocks;
    int blockLimitBarriers;
    int allocatedRegistersPerBlock;
    size_t allocatedSharedMemPerBlock;
    cudaOccPartitionedGCConfig partitionedGCConfig;
};

#ifdef __cplusplus

/* Per-architecture allocation rules that cudaDeviceProp does not carry. */
__OCC_INLINE int __cuprite_occ_max_blocks_per_sm(int major, int minor) {
    if (major >= 9 || (major == 8 && minor == 0)) return 32;
    if (major == 8) return 16; /* 8.6, 8.7, 8.9 */
    if (major == 7 && minor == 5) return 16;
    if (major >= 5) return 32;
    return 16;
}
__OCC_INLINE int __cuprite_occ_round_up(int v, int unit) { return (v + unit - 1) / unit * unit; }
__OCC_INLINE size_t __cuprite_occ_round_up_size(size_t v, size_t unit) { return (v + unit - 1) / unit * unit; }
/* Registers are allocated per warp in units of 256. */
enum { __cuprite_occ_reg_unit = 256, __cuprite_occ_shmem_unit = 128 };

__OCC_INLINE cudaOccError cudaOccMaxActiveBlocksPerMultiprocessor(
    cudaOccResult *result, const cudaOccDeviceProp *prop, const cudaOccFuncAttributes *attr,
    const cudaOccDeviceState *state, int blockSize, size_t dynamicSmemSize) {
    (void)state;
    if (!result || !prop || !attr || blockSize <= 0 || prop->warpSize <= 0 || prop->computeMajor <= 0)
        return CUDA_OCC_ERROR_INVALID_INPUT;
    cudaOccResult r = cudaOccResult();
    int warps = (blockSize + prop->warpSize - 1) / prop->warpSize;
    int maxWarpsPerSm = prop->maxThreadsPerMultiprocessor / prop->warpSize;
    r.blockLimitWarps = blockSize > prop->maxThreadsPerBlock ? 0 : maxWarpsPerSm / warps;
    r.blockLimitBlocks = __cuprite_occ_max_blocks_per_sm(prop->computeMajor, prop->computeMinor);
    r.blockLimitBarriers = r.blockLimitBlocks;
    int regsPerWarp = __cuprite_occ_round_up(attr->numRegs * prop->warpSize, __cuprite_occ_reg_unit);
    r.allocatedRegistersPerBlock = regsPerWarp * warps;
    if (r.allocatedRegistersPerBlock > prop->regsPerBlock) r.blockLimitRegs = 0;
    else r.blockLimitRegs = regsPerWarp > 0 ? (prop->regsPerMultiprocessor / regsPerWarp) / warps : r.blockLimitBlocks;
    size_t smem = attr->sharedSizeBytes + dynamicSmemSize;
    size_t limit = attr->shmemLimitConfig == FUNC_SHMEM_LIMIT_OPTIN ? prop->sharedMemPerBlockOptin : prop->sharedMemPerBlock;
    r.allocatedSharedMemPerBlock = __cuprite_occ_round_up_size(smem + prop->reservedSharedMemPerBlock, __cuprite_occ_shmem_unit);
    if (smem > limit || dynamicSmemSize > attr->maxDynamicSharedSizeBytes) r.blockLimitSharedMem = 0;
    else if (r.allocatedSharedMemPerBlock == 0) r.blockLimitSharedMem = r.blockLimitBlocks; /* uses none */
    else r.blockLimitSharedMem = (int)(prop->sharedMemPerMultiprocessor / r.allocatedSharedMemPerBlock);
    int n = r.blockLimitWarps;
    if (r.blockLimitBlocks < n) n = r.blockLimitBlocks;
    if (r.blockLimitRegs < n) n = r.blockLimitRegs;
    if (r.blockLimitSharedMem < n) n = r.blockLimitSharedMem;
    r.activeBlocksPerMultiprocessor = n;
    if (r.blockLimitWarps == n) r.limitingFactors |= OCC_LIMIT_WARPS;
    if (r.blockLimitRegs == n) r.limitingFactors |= OCC_LIMIT_REGISTERS;
    if (r.blockLimitSharedMem == n) r.limitingFactors |= OCC_LIMIT_SHARED_MEMORY;
    if (r.blockLimitBlocks == n) r.limitingFactors |= OCC_LIMIT_BLOCKS;
    *result = r;
    return CUDA_OCC_SUCCESS;
}

/* The block size (a multiple of the warp size, at most blockSizeLimit when it is
 * positive) with the most resident threads per multiprocessor; ties go to the larger
 * block. blockSizeToSmem maps a block size to its dynamic shared memory. */
template <class UnaryFunction>
__OCC_INLINE cudaOccError cudaOccMaxPotentialOccupancyBlockSizeVariableSMem(
    int *minGridSize, int *blockSize, const cudaOccDeviceProp *prop, const cudaOccFuncAttributes *attr,
    const cudaOccDeviceState *state, UnaryFunction blockSizeToSmem, int blockSizeLimit = 0) {
    if (!minGridSize || !blockSize || !prop || !attr || prop->warpSize <= 0) return CUDA_OCC_ERROR_INVALID_INPUT;
    int maxBlock = prop->maxThreadsPerBlock;
    if (attr->maxThreadsPerBlock > 0 && attr->maxThreadsPerBlock < maxBlock) maxBlock = attr->maxThreadsPerBlock;
    if (blockSizeLimit > 0 && blockSizeLimit < maxBlock) maxBlock = blockSizeLimit;
    int bestBlock = 0, bestBlocks = 0, bestThreads = 0;
    int start = __cuprite_occ_round_up(maxBlock, prop->warpSize);
    for (int b = start; b > 0; b -= prop->warpSize) {
        int size = b > maxBlock ? maxBlock : b;
        cudaOccResult r;
        cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&r, prop, attr, state, size, blockSizeToSmem(size));
        if (e != CUDA_OCC_SUCCESS) return e;
        if (r.activeBlocksPerMultiprocessor * size > bestThreads) {
            bestThreads = r.activeBlocksPerMultiprocessor * size;
            bestBlock = size;
            bestBlocks = r.activeBlocksPerMultiprocessor;
        }
        if (bestThreads == prop->maxThreadsPerMultiprocessor) break; /* full: no smaller size beats it */
    }
    *blockSize = bestBlock;
    *minGridSize = bestBlocks * prop->numSms;
    return CUDA_OCC_SUCCESS;
}

struct __cuprite_occ_constant_smem {
    size_t bytes;
    size_t operator()(int) const { return bytes; }
};

__OCC_INLINE cudaOccError cudaOccMaxPotentialOccupancyBlockSize(
    int *minGridSize, int *blockSize, const cudaOccDeviceProp *prop, const cudaOccFuncAttributes *attr,
    const cudaOccDeviceState *state, size_t (*blockSizeToDynamicSMemSize)(int), size_t dynamicSMemSize) {
    if (blockSizeToDynamicSMemSize)
        return cudaOccMaxPotentialOccupancyBlockSizeVariableSMem(minGridSize, blockSize, prop, attr, state,
                                                                 blockSizeToDynamicSMemSize);
    __cuprite_occ_constant_smem constant = {dynamicSMemSize};
    return cudaOccMaxPotentialOccupancyBlockSizeVariableSMem(minGridSize, blockSize, prop, attr, state, constant);
}

/* The most dynamic shared memory a block may use so that numBlocks blocks of
 * blockSize threads still fit on one multiprocessor. */
__OCC_INLINE cudaOccError cudaOccAvailableDynamicSMemPerBlock(
    size_t *dynamicSmemSize, const cudaOccDeviceProp *prop, const cudaOccFuncAttributes *attr,
    const cudaOccDeviceState *state, int numBlocks, int blockSize) {
    if (!dynamicSmemSize || !prop || !attr || numBlocks <= 0) return CUDA_OCC_ERROR_INVALID_INPUT;
    cudaOccResult r;
    cudaOccError e = cudaOccMaxActiveBlocksPerMultiprocessor(&r, prop, attr, state, blockSize, 0);
    if (e != CUDA_OCC_SUCCESS) return e;
    if (r.activeBlocksPerMultiprocessor < numBlocks) return CUDA_OCC_ERROR_INVALID_INPUT;
    size_t perBlock = prop->sharedMemPerMultiprocessor / (size_t)numBlocks;
    perBlock = perBlock / __cuprite_occ_shmem_unit * __cuprite_occ_shmem_unit;
    size_t used = attr->sharedSizeBytes; /* the reservation is not taken off, as CUDA reports it */
    size_t avail = perBlock > used ? perBlock - used : 0;
    size_t limit = attr->shmemLimitConfig == FUNC_SHMEM_LIMIT_OPTIN ? prop->sharedMemPerBlockOptin : prop->sharedMemPerBlock;
    limit = limit > attr->sharedSizeBytes ? limit - attr->sharedSizeBytes : 0;
    if (attr->maxDynamicSharedSizeBytes < limit) limit = attr->maxDynamicSharedSizeBytes;
    *dynamicSmemSize = avail < limit ? avail : limit;
    return CUDA_OCC_SUCCESS;
}

#endif /* __cplusplus */
#endif /* __cuda_occupancy_h__ */
