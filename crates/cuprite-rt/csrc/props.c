/*
 * props.c: the CPU device's cudaDeviceProp and device attributes, for the compute
 * capability selected (limits from CUDA's compute capability tables). Compiled against
 * Cuprite's own driver_types.h, so the struct layout is the header's by construction.
 */
#include <stdio.h>
#include <string.h>

#include "driver_types.h"

typedef struct cuprite_device_info {
    int ordinal;
    int major;
    int minor;
    int sm_count;
    size_t total_mem;
} cuprite_device_info;

typedef struct arch_limits {
    int threads_per_sm;
    int blocks_per_sm;
    int shared_per_sm;
    int shared_optin;
    int reserved_shared;
    int regs_per_sm;
    int regs_per_block;
    int l2_bytes;
    int grid_x;
} arch_limits;

static arch_limits limits_for(int major, int minor) {
    arch_limits l;
    l.threads_per_sm = 2048;
    l.blocks_per_sm = 32;
    l.shared_per_sm = 98304;
    l.shared_optin = 49152;
    l.reserved_shared = 0;
    l.regs_per_sm = 65536;
    l.regs_per_block = 65536;
    l.l2_bytes = 4 * 1024 * 1024;
    l.grid_x = 2147483647;
    if (major < 3) {
        l.threads_per_sm = 1536;
        l.blocks_per_sm = 8;
        l.shared_per_sm = 49152;
        l.regs_per_sm = 32768;
        l.regs_per_block = 32768;
        l.grid_x = 65535;
        l.l2_bytes = 768 * 1024;
    } else if (major == 3) {
        l.blocks_per_sm = 16;
        l.shared_per_sm = 49152;
        l.l2_bytes = 1536 * 1024;
    } else if (major == 5 || major == 6) {
        l.shared_per_sm = (major == 5 && minor == 2) ? 98304 : 65536;
    } else if (major == 7 && minor < 5) {
        l.shared_per_sm = 98304;
        l.shared_optin = 98304;
        l.l2_bytes = 6 * 1024 * 1024;
    } else if (major == 7) {
        l.threads_per_sm = 1024;
        l.blocks_per_sm = 16;
        l.shared_per_sm = 65536;
        l.shared_optin = 65536;
    } else if (major == 8 && minor == 0) {
        l.shared_per_sm = 167936;
        l.shared_optin = 166912;
        l.reserved_shared = 1024;
        l.l2_bytes = 40 * 1024 * 1024;
    } else if (major == 8) {
        l.threads_per_sm = 1536;
        l.blocks_per_sm = (minor == 9) ? 24 : 16;
        l.shared_per_sm = 102400;
        l.shared_optin = 101376;
        l.reserved_shared = 1024;
        l.l2_bytes = (minor == 9) ? 48 * 1024 * 1024 : 6 * 1024 * 1024;
    } else if (major == 12) {
        l.threads_per_sm = 1536;
        l.blocks_per_sm = 32;
        l.shared_per_sm = 102400;
        l.shared_optin = 101376;
        l.reserved_shared = 1024;
        l.l2_bytes = 48 * 1024 * 1024;
    } else { /* 9.x, 10.x, 11.x and later */
        l.shared_per_sm = 233472;
        l.shared_optin = 232448;
        l.reserved_shared = 1024;
        l.l2_bytes = 60 * 1024 * 1024;
    }
    return l;
}

/* The largest dynamic shared memory a kernel may opt in to (cudaFuncAttribute...). */
int cuprite_arch_shared_optin(int major, int minor) { return limits_for(major, minor).shared_optin; }

void cuprite_fill_props(struct cudaDeviceProp *p, const cuprite_device_info *d) {
    arch_limits l = limits_for(d->major, d->minor);
    memset(p, 0, sizeof *p);
    snprintf(p->name, sizeof p->name, "Cuprite CPU device (sm_%d%d)", d->major, d->minor);
    /* A fixed, recognisable UUID with the ordinal in its last byte. */
    memcpy(p->uuid.bytes, "CupriteCPUdevice", 16);
    p->uuid.bytes[15] = (char)('0' + (d->ordinal % 10));
    p->totalGlobalMem = d->total_mem;
    p->sharedMemPerBlock = 49152;
    p->regsPerBlock = l.regs_per_block;
    p->warpSize = 32;
    p->memPitch = 2147483647;
    p->maxThreadsPerBlock = d->major < 2 ? 512 : 1024;
    p->maxThreadsDim[0] = p->maxThreadsPerBlock;
    p->maxThreadsDim[1] = p->maxThreadsPerBlock;
    p->maxThreadsDim[2] = 64;
    p->maxGridSize[0] = l.grid_x;
    p->maxGridSize[1] = 65535;
    p->maxGridSize[2] = 65535;
    p->clockRate = 1980000;
    p->totalConstMem = 65536;
    p->major = d->major;
    p->minor = d->minor;
    p->textureAlignment = 512;
    p->texturePitchAlignment = 32;
    p->deviceOverlap = 1;
    p->multiProcessorCount = d->sm_count;
    p->kernelExecTimeoutEnabled = 0;
    p->integrated = 0;
    p->canMapHostMemory = 1;
    p->computeMode = cudaComputeModeDefault;
    p->maxTexture1D = 131072;
    p->maxTexture1DMipmap = 32768;
    p->maxTexture1DLinear = 268435456;
    p->maxTexture2D[0] = 131072;
    p->maxTexture2D[1] = 65536;
    p->maxTexture2DMipmap[0] = 32768;
    p->maxTexture2DMipmap[1] = 32768;
    p->maxTexture2DLinear[0] = 131072;
    p->maxTexture2DLinear[1] = 65000;
    p->maxTexture2DLinear[2] = 2097120;
    p->maxTexture2DGather[0] = 32768;
    p->maxTexture2DGather[1] = 32768;
    p->maxTexture3D[0] = 16384;
    p->maxTexture3D[1] = 16384;
    p->maxTexture3D[2] = 16384;
    p->maxTexture3DAlt[0] = 8192;
    p->maxTexture3DAlt[1] = 8192;
    p->maxTexture3DAlt[2] = 32768;
    p->maxTextureCubemap = 32768;
    p->maxTexture1DLayered[0] = 32768;
    p->maxTexture1DLayered[1] = 2048;
    p->maxTexture2DLayered[0] = 32768;
    p->maxTexture2DLayered[1] = 32768;
    p->maxTexture2DLayered[2] = 2048;
    p->maxTexture2DArray[0] = 32768;
    p->maxTexture2DArray[1] = 32768;
    p->maxTexture2DArray[2] = 2048;
    p->maxTextureCubemapLayered[0] = 32768;
    p->maxTextureCubemapLayered[1] = 2046;
    p->maxSurface1D = 32768;
    p->maxSurface2D[0] = 131072;
    p->maxSurface2D[1] = 65536;
    p->maxSurface3D[0] = 16384;
    p->maxSurface3D[1] = 16384;
    p->maxSurface3D[2] = 16384;
    p->maxSurface1DLayered[0] = 32768;
    p->maxSurface1DLayered[1] = 2048;
    p->maxSurface2DLayered[0] = 32768;
    p->maxSurface2DLayered[1] = 32768;
    p->maxSurface2DLayered[2] = 2048;
    p->maxSurfaceCubemap = 32768;
    p->maxSurfaceCubemapLayered[0] = 32768;
    p->maxSurfaceCubemapLayered[1] = 2046;
    p->surfaceAlignment = 512;
    p->concurrentKernels = 1;
    p->ECCEnabled = 0;
    p->pciBusID = 0;
    p->pciDeviceID = d->ordinal;
    p->pciDomainID = 0;
    p->tccDriver = 0;
    p->asyncEngineCount = 3;
    p->unifiedAddressing = 1;
    p->memoryClockRate = 3201000;
    p->memoryBusWidth = 6016;
    p->l2CacheSize = l.l2_bytes;
    p->persistingL2CacheMaxSize = d->major >= 8 ? (int)(l.l2_bytes / 8 * 5) : 0;
    p->maxThreadsPerMultiProcessor = l.threads_per_sm;
    p->streamPrioritiesSupported = 1;
    p->globalL1CacheSupported = 1;
    p->localL1CacheSupported = 1;
    p->sharedMemPerMultiprocessor = (size_t)l.shared_per_sm;
    p->regsPerMultiprocessor = l.regs_per_sm;
    p->managedMemory = 1;
    p->isMultiGpuBoard = 0;
    p->multiGpuBoardGroupID = 0;
    p->hostNativeAtomicSupported = 1;
    p->singleToDoublePrecisionPerfRatio = 2;
    p->pageableMemoryAccess = 1;
    p->concurrentManagedAccess = 1;
    p->computePreemptionSupported = 1;
    p->canUseHostPointerForRegisteredMem = 1;
    p->cooperativeLaunch = 1;
    p->cooperativeMultiDeviceLaunch = 0;
    p->sharedMemPerBlockOptin = (size_t)l.shared_optin;
    p->pageableMemoryAccessUsesHostPageTables = 1;
    p->directManagedMemAccessFromHost = 1;
    p->maxBlocksPerMultiProcessor = l.blocks_per_sm;
    p->accessPolicyMaxWindowSize = d->major >= 8 ? 134217728 : 0;
    p->reservedSharedMemPerBlock = (size_t)l.reserved_shared;
    p->hostRegisterSupported = 1;
    p->sparseCudaArraySupported = 0;
    p->hostRegisterReadOnlySupported = 1;
    p->timelineSemaphoreInteropSupported = 0;
    p->memoryPoolsSupported = 1;
    p->gpuDirectRDMASupported = 0;
    p->gpuDirectRDMAFlushWritesOptions = 0;
    p->gpuDirectRDMAWritesOrdering = 0;
    p->memoryPoolSupportedHandleTypes = 1; /* POSIX file descriptors (memory pools shared between processes) */
    p->deferredMappingCudaArraySupported = 0;
    p->ipcEventSupported = 0;
    p->clusterLaunch = d->major >= 9 ? 1 : 0;
    p->unifiedFunctionPointers = 1;
    p->deviceNumaConfig = 0;
    p->deviceNumaId = -1;
    p->mpsEnabled = 0;
    p->hostNumaId = 0;
    p->gpuPciDeviceID = 0;
    p->gpuPciSubsystemID = 0;
    p->hostNumaMultinodeIpcSupported = 0;
}

static int d_major_ge9(const struct cudaDeviceProp *p) { return p->major >= 9; }

/* cudaDeviceGetAttribute from the properties. Returns 0, or 1 for an unknown attribute. */
int cuprite_prop_attribute(const struct cudaDeviceProp *p, int attr, int *v) {
    switch ((enum cudaDeviceAttr)attr) {
    case cudaDevAttrMaxThreadsPerBlock: *v = p->maxThreadsPerBlock; break;
    case cudaDevAttrMaxBlockDimX: *v = p->maxThreadsDim[0]; break;
    case cudaDevAttrMaxBlockDimY: *v = p->maxThreadsDim[1]; break;
    case cudaDevAttrMaxBlockDimZ: *v = p->maxThreadsDim[2]; break;
    case cudaDevAttrMaxGridDimX: *v = p->maxGridSize[0]; break;
    case cudaDevAttrMaxGridDimY: *v = p->maxGridSize[1]; break;
    case cudaDevAttrMaxGridDimZ: *v = p->maxGridSize[2]; break;
    case cudaDevAttrMaxSharedMemoryPerBlock: *v = (int)p->sharedMemPerBlock; break;
    case cudaDevAttrTotalConstantMemory: *v = (int)p->totalConstMem; break;
    case cudaDevAttrWarpSize: *v = p->warpSize; break;
    case cudaDevAttrMaxPitch: *v = (int)p->memPitch; break;
    case cudaDevAttrMaxRegistersPerBlock: *v = p->regsPerBlock; break;
    case cudaDevAttrClockRate: *v = p->clockRate; break;
    case cudaDevAttrTextureAlignment: *v = (int)p->textureAlignment; break;
    case cudaDevAttrGpuOverlap: *v = p->deviceOverlap; break;
    case cudaDevAttrMultiProcessorCount: *v = p->multiProcessorCount; break;
    case cudaDevAttrKernelExecTimeout: *v = p->kernelExecTimeoutEnabled; break;
    case cudaDevAttrIntegrated: *v = p->integrated; break;
    case cudaDevAttrCanMapHostMemory: *v = p->canMapHostMemory; break;
    case cudaDevAttrComputeMode: *v = p->computeMode; break;
    case cudaDevAttrMaxTexture1DWidth: *v = p->maxTexture1D; break;
    case cudaDevAttrMaxTexture2DWidth: *v = p->maxTexture2D[0]; break;
    case cudaDevAttrMaxTexture2DHeight: *v = p->maxTexture2D[1]; break;
    case cudaDevAttrMaxTexture3DWidth: *v = p->maxTexture3D[0]; break;
    case cudaDevAttrMaxTexture3DHeight: *v = p->maxTexture3D[1]; break;
    case cudaDevAttrMaxTexture3DDepth: *v = p->maxTexture3D[2]; break;
    case cudaDevAttrMaxTexture2DLayeredWidth: *v = p->maxTexture2DLayered[0]; break;
    case cudaDevAttrMaxTexture2DLayeredHeight: *v = p->maxTexture2DLayered[1]; break;
    case cudaDevAttrMaxTexture2DLayeredLayers: *v = p->maxTexture2DLayered[2]; break;
    case cudaDevAttrSurfaceAlignment: *v = (int)p->surfaceAlignment; break;
    case cudaDevAttrConcurrentKernels: *v = p->concurrentKernels; break;
    case cudaDevAttrEccEnabled: *v = p->ECCEnabled; break;
    case cudaDevAttrPciBusId: *v = p->pciBusID; break;
    case cudaDevAttrPciDeviceId: *v = p->pciDeviceID; break;
    case cudaDevAttrTccDriver: *v = p->tccDriver; break;
    case cudaDevAttrMemoryClockRate: *v = p->memoryClockRate; break;
    case cudaDevAttrGlobalMemoryBusWidth: *v = p->memoryBusWidth; break;
    case cudaDevAttrL2CacheSize: *v = p->l2CacheSize; break;
    case cudaDevAttrMaxThreadsPerMultiProcessor: *v = p->maxThreadsPerMultiProcessor; break;
    case cudaDevAttrAsyncEngineCount: *v = p->asyncEngineCount; break;
    case cudaDevAttrUnifiedAddressing: *v = p->unifiedAddressing; break;
    case cudaDevAttrMaxTexture1DLayeredWidth: *v = p->maxTexture1DLayered[0]; break;
    case cudaDevAttrMaxTexture1DLayeredLayers: *v = p->maxTexture1DLayered[1]; break;
    case cudaDevAttrMaxTexture2DGatherWidth: *v = p->maxTexture2DGather[0]; break;
    case cudaDevAttrMaxTexture2DGatherHeight: *v = p->maxTexture2DGather[1]; break;
    case cudaDevAttrMaxTexture3DWidthAlt: *v = p->maxTexture3DAlt[0]; break;
    case cudaDevAttrMaxTexture3DHeightAlt: *v = p->maxTexture3DAlt[1]; break;
    case cudaDevAttrMaxTexture3DDepthAlt: *v = p->maxTexture3DAlt[2]; break;
    case cudaDevAttrPciDomainId: *v = p->pciDomainID; break;
    case cudaDevAttrTexturePitchAlignment: *v = (int)p->texturePitchAlignment; break;
    case cudaDevAttrMaxTextureCubemapWidth: *v = p->maxTextureCubemap; break;
    case cudaDevAttrMaxTextureCubemapLayeredWidth: *v = p->maxTextureCubemapLayered[0]; break;
    case cudaDevAttrMaxTextureCubemapLayeredLayers: *v = p->maxTextureCubemapLayered[1]; break;
    case cudaDevAttrMaxSurface1DWidth: *v = p->maxSurface1D; break;
    case cudaDevAttrMaxSurface2DWidth: *v = p->maxSurface2D[0]; break;
    case cudaDevAttrMaxSurface2DHeight: *v = p->maxSurface2D[1]; break;
    case cudaDevAttrMaxSurface3DWidth: *v = p->maxSurface3D[0]; break;
    case cudaDevAttrMaxSurface3DHeight: *v = p->maxSurface3D[1]; break;
    case cudaDevAttrMaxSurface3DDepth: *v = p->maxSurface3D[2]; break;
    case cudaDevAttrMaxSurface1DLayeredWidth: *v = p->maxSurface1DLayered[0]; break;
    case cudaDevAttrMaxSurface1DLayeredLayers: *v = p->maxSurface1DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredWidth: *v = p->maxSurface2DLayered[0]; break;
    case cudaDevAttrMaxSurface2DLayeredHeight: *v = p->maxSurface2DLayered[1]; break;
    case cudaDevAttrMaxSurface2DLayeredLayers: *v = p->maxSurface2DLayered[2]; break;
    case cudaDevAttrMaxSurfaceCubemapWidth: *v = p->maxSurfaceCubemap; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredWidth: *v = p->maxSurfaceCubemapLayered[0]; break;
    case cudaDevAttrMaxSurfaceCubemapLayeredLayers: *v = p->maxSurfaceCubemapLayered[1]; break;
    case cudaDevAttrMaxTexture1DLinearWidth: *v = p->maxTexture1DLinear; break;
    case cudaDevAttrMaxTexture2DLinearWidth: *v = p->maxTexture2DLinear[0]; break;
    case cudaDevAttrMaxTexture2DLinearHeight: *v = p->maxTexture2DLinear[1]; break;
    case cudaDevAttrMaxTexture2DLinearPitch: *v = p->maxTexture2DLinear[2]; break;
    case cudaDevAttrMaxTexture2DMipmappedWidth: *v = p->maxTexture2DMipmap[0]; break;
    case cudaDevAttrMaxTexture2DMipmappedHeight: *v = p->maxTexture2DMipmap[1]; break;
    case cudaDevAttrComputeCapabilityMajor: *v = p->major; break;
    case cudaDevAttrComputeCapabilityMinor: *v = p->minor; break;
    case cudaDevAttrMaxTexture1DMipmappedWidth: *v = p->maxTexture1DMipmap; break;
    case cudaDevAttrStreamPrioritiesSupported: *v = p->streamPrioritiesSupported; break;
    case cudaDevAttrGlobalL1CacheSupported: *v = p->globalL1CacheSupported; break;
    case cudaDevAttrLocalL1CacheSupported: *v = p->localL1CacheSupported; break;
    case cudaDevAttrMaxSharedMemoryPerMultiprocessor: *v = (int)p->sharedMemPerMultiprocessor; break;
    case cudaDevAttrMaxRegistersPerMultiprocessor: *v = p->regsPerMultiprocessor; break;
    case cudaDevAttrManagedMemory: *v = p->managedMemory; break;
    case cudaDevAttrIsMultiGpuBoard: *v = p->isMultiGpuBoard; break;
    case cudaDevAttrMultiGpuBoardGroupID: *v = p->multiGpuBoardGroupID; break;
    case cudaDevAttrHostNativeAtomicSupported: *v = p->hostNativeAtomicSupported; break;
    case cudaDevAttrSingleToDoublePrecisionPerfRatio: *v = p->singleToDoublePrecisionPerfRatio; break;
    case cudaDevAttrPageableMemoryAccess: *v = p->pageableMemoryAccess; break;
    case cudaDevAttrConcurrentManagedAccess: *v = p->concurrentManagedAccess; break;
    case cudaDevAttrComputePreemptionSupported: *v = p->computePreemptionSupported; break;
    case cudaDevAttrCanUseHostPointerForRegisteredMem: *v = p->canUseHostPointerForRegisteredMem; break;
    case cudaDevAttrReserved92: case cudaDevAttrReserved93: case cudaDevAttrReserved94: *v = 0; break;
    case cudaDevAttrCooperativeLaunch: *v = p->cooperativeLaunch; break;
    case cudaDevAttrCooperativeMultiDeviceLaunch: *v = p->cooperativeMultiDeviceLaunch; break;
    case cudaDevAttrMaxSharedMemoryPerBlockOptin: *v = (int)p->sharedMemPerBlockOptin; break;
    case cudaDevAttrCanFlushRemoteWrites: *v = 0; break;
    case cudaDevAttrHostRegisterSupported: *v = p->hostRegisterSupported; break;
    case cudaDevAttrPageableMemoryAccessUsesHostPageTables: *v = p->pageableMemoryAccessUsesHostPageTables; break;
    case cudaDevAttrDirectManagedMemAccessFromHost: *v = p->directManagedMemAccessFromHost; break;
    case cudaDevAttrMaxBlocksPerMultiprocessor: *v = p->maxBlocksPerMultiProcessor; break;
    case cudaDevAttrMaxPersistingL2CacheSize: *v = p->persistingL2CacheMaxSize; break;
    case cudaDevAttrMaxAccessPolicyWindowSize: *v = p->accessPolicyMaxWindowSize; break;
    case cudaDevAttrReservedSharedMemoryPerBlock: *v = (int)p->reservedSharedMemPerBlock; break;
    case cudaDevAttrSparseCudaArraySupported: *v = p->sparseCudaArraySupported; break;
    case cudaDevAttrHostRegisterReadOnlySupported: *v = p->hostRegisterReadOnlySupported; break;
    case cudaDevAttrTimelineSemaphoreInteropSupported: *v = p->timelineSemaphoreInteropSupported; break;
    case cudaDevAttrMemoryPoolsSupported: *v = p->memoryPoolsSupported; break;
    case cudaDevAttrGPUDirectRDMASupported: *v = p->gpuDirectRDMASupported; break;
    case cudaDevAttrGPUDirectRDMAFlushWritesOptions: *v = (int)p->gpuDirectRDMAFlushWritesOptions; break;
    case cudaDevAttrGPUDirectRDMAWritesOrdering: *v = p->gpuDirectRDMAWritesOrdering; break;
    case cudaDevAttrMemoryPoolSupportedHandleTypes: *v = (int)p->memoryPoolSupportedHandleTypes; break;
    case cudaDevAttrClusterLaunch: *v = p->clusterLaunch; break;
    case cudaDevAttrDeferredMappingCudaArraySupported: *v = p->deferredMappingCudaArraySupported; break;
    case cudaDevAttrReserved122: case cudaDevAttrReserved123: case cudaDevAttrReserved124: *v = 0; break;
    case cudaDevAttrIpcEventSupport: *v = p->ipcEventSupported; break;
    case cudaDevAttrMemSyncDomainCount: *v = d_major_ge9(p) ? 4 : 1; break;
    case cudaDevAttrReserved127: case cudaDevAttrReserved128: case cudaDevAttrReserved129: *v = 0; break;
    case cudaDevAttrNumaConfig: *v = p->deviceNumaConfig; break;
    case cudaDevAttrNumaId: *v = p->deviceNumaId; break;
    case cudaDevAttrReserved132: *v = 0; break;
    case cudaDevAttrMpsEnabled: *v = p->mpsEnabled; break;
    case cudaDevAttrHostNumaId: *v = p->hostNumaId; break;
    default: return 1;
    }
    return 0;
}

_Static_assert(sizeof(struct cudaDeviceProp) == 1008, "cudaDeviceProp must match CUDA 13 (1008 bytes)");

size_t cuprite_sizeof_device_prop(void) { return sizeof(struct cudaDeviceProp); }
