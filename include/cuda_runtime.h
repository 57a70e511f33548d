/*
 * cuda_runtime.h (Cuprite): what nvcc includes implicitly in every .cu file.
 *
 * Conventions:
 *  - __CUDACC__ defined (a .cu compile): the CUDA keywords are identifiers, not macros.
 *  - __CUPRITE_DEVICE_PASS__ defined: read by Cuprite's device front-end; only plain C
 *    (enums, structs, typedefs, prototypes) is visible. C++-only parts (templates,
 *    constructors, overloads) are under !__CUPRITE_DEVICE_PASS__.
 *  - Neither: a plain C/C++ compile of a host file; the keywords are defined away.
 */
#ifndef __CUDA_RUNTIME_H__
#define __CUDA_RUNTIME_H__

#include "host_defines.h"
#include "builtin_types.h"
#include "cuda_runtime_api.h"
#include "vector_functions.h"
#include "device_launch_parameters.h"
#include "device_functions.h"
#if defined(__CUPRITE_DEVICE_PASS__) && defined(__cplusplus)
/* Texture and surface fetches: device-side templates (the one C++ part of this view). */
#include "cuprite/texture_fetch.h"
#endif

#if !defined(__CUPRITE_DEVICE_PASS__)
#include <math.h>
#include <stdlib.h>
#include <string.h>
#include <limits.h>
#include "cuprite/math_extras.h"
#include "channel_descriptor.h"

/* CUDA's math functions that C lacks, in host code (nvcc's headers provide them there
 * too, so __host__ __device__ code such as helper_math's normalize() compiles for the
 * host). Device code gets them from the device compiler. */
#define __CUPRITE_HOST_MATH1(T, NAME) static inline T NAME(T x) { return __cu_##NAME(x); }
__CUPRITE_HOST_MATH1(float, rsqrtf)
__CUPRITE_HOST_MATH1(double, rsqrt)
__CUPRITE_HOST_MATH1(float, rcbrtf)
__CUPRITE_HOST_MATH1(double, rcbrt)
__CUPRITE_HOST_MATH1(float, sinpif)
__CUPRITE_HOST_MATH1(double, sinpi)
__CUPRITE_HOST_MATH1(float, cospif)
__CUPRITE_HOST_MATH1(double, cospi)
__CUPRITE_HOST_MATH1(float, normcdff)
__CUPRITE_HOST_MATH1(double, normcdf)
__CUPRITE_HOST_MATH1(float, normcdfinvf)
__CUPRITE_HOST_MATH1(double, normcdfinv)
__CUPRITE_HOST_MATH1(float, erfinvf)
__CUPRITE_HOST_MATH1(double, erfinv)
__CUPRITE_HOST_MATH1(float, erfcinvf)
__CUPRITE_HOST_MATH1(double, erfcinv)
__CUPRITE_HOST_MATH1(float, erfcxf)
__CUPRITE_HOST_MATH1(double, erfcx)
__CUPRITE_HOST_MATH1(float, cyl_bessel_i0f)
__CUPRITE_HOST_MATH1(double, cyl_bessel_i0)
__CUPRITE_HOST_MATH1(float, cyl_bessel_i1f)
__CUPRITE_HOST_MATH1(double, cyl_bessel_i1)
#undef __CUPRITE_HOST_MATH1
static inline void sincospif(float x, float *s, float *c) { __cu_sincospif(x, s, c); }
static inline void sincospi(double x, double *s, double *c) { __cu_sincospi(x, s, c); }
static inline float rhypotf(float a, float b) { return __cu_rhypotf(a, b); }
static inline double rhypot(double a, double b) { return __cu_rhypot(a, b); }
static inline float norm3df(float a, float b, float c) { return __cu_norm3df(a, b, c); }
static inline double norm3d(double a, double b, double c) { return __cu_norm3d(a, b, c); }
static inline float rnorm3df(float a, float b, float c) { return __cu_rnorm3df(a, b, c); }
static inline double rnorm3d(double a, double b, double c) { return __cu_rnorm3d(a, b, c); }
static inline float norm4df(float a, float b, float c, float d) { return __cu_norm4df(a, b, c, d); }
static inline double norm4d(double a, double b, double c, double d) { return __cu_norm4d(a, b, c, d); }
static inline float rnorm4df(float a, float b, float c, float d) { return __cu_rnorm4df(a, b, c, d); }
static inline double rnorm4d(double a, double b, double c, double d) { return __cu_rnorm4d(a, b, c, d); }
#endif

/* Device (and host) printf without <stdio.h>, as with nvcc. */
__CUPRITE_BEGIN_C
int printf(const char *format, ...);
__CUPRITE_END_C

static __inline__ struct cudaPitchedPtr make_cudaPitchedPtr(void *d, size_t p, size_t xsz, size_t ysz) {
    struct cudaPitchedPtr s;
    s.ptr = d;
    s.pitch = p;
    s.xsize = xsz;
    s.ysize = ysz;
    return s;
}
static __inline__ struct cudaPos make_cudaPos(size_t x, size_t y, size_t z) {
    struct cudaPos p;
    p.x = x;
    p.y = y;
    p.z = z;
    return p;
}
static __inline__ struct cudaExtent make_cudaExtent(size_t w, size_t h, size_t d) {
    struct cudaExtent e;
    e.width = w;
    e.height = h;
    e.depth = d;
    return e;
}

#if defined(__cplusplus) && !defined(__CUPRITE_DEVICE_PASS__)

/* Host min/max overloads, as nvcc provides them. */
static inline int min(int a, int b) { return a < b ? a : b; }
static inline unsigned int min(unsigned int a, unsigned int b) { return a < b ? a : b; }
static inline unsigned int min(int a, unsigned int b) { return (unsigned int)a < b ? (unsigned int)a : b; }
static inline unsigned int min(unsigned int a, int b) { return a < (unsigned int)b ? a : (unsigned int)b; }
static inline long min(long a, long b) { return a < b ? a : b; }
static inline unsigned long min(unsigned long a, unsigned long b) { return a < b ? a : b; }
static inline long long min(long long a, long long b) { return a < b ? a : b; }
static inline unsigned long long min(unsigned long long a, unsigned long long b) { return a < b ? a : b; }
static inline float min(float a, float b) { return fminf(a, b); }
static inline double min(double a, double b) { return fmin(a, b); }
static inline double min(float a, double b) { return fmin((double)a, b); }
static inline double min(double a, float b) { return fmin(a, (double)b); }
static inline int max(int a, int b) { return a > b ? a : b; }
static inline unsigned int max(unsigned int a, unsigned int b) { return a > b ? a : b; }
static inline unsigned int max(int a, unsigned int b) { return (unsigned int)a > b ? (unsigned int)a : b; }
static inline unsigned int max(unsigned int a, int b) { return a > (unsigned int)b ? a : (unsigned int)b; }
static inline long max(long a, long b) { return a > b ? a : b; }
static inline unsigned long max(unsigned long a, unsigned long b) { return a > b ? a : b; }
static inline long long max(long long a, long long b) { return a > b ? a : b; }
static inline unsigned long long max(unsigned long long a, unsigned long long b) { return a > b ? a : b; }
static inline float max(float a, float b) { return fmaxf(a, b); }
static inline double max(double a, double b) { return fmax(a, b); }
static inline double max(float a, double b) { return fmax((double)a, b); }
static inline double max(double a, float b) { return fmax(a, (double)b); }

/* The C++ conveniences of the runtime API. */
template <class T>
static __inline__ cudaError_t cudaMalloc(T **devPtr, size_t size) {
    return ::cudaMalloc((void **)(void *)devPtr, size);
}
template <class T>
static __inline__ cudaError_t cudaMallocHost(T **ptr, size_t size, unsigned int flags = 0) {
    return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
static __inline__ cudaError_t cudaHostAlloc(T **ptr, size_t size, unsigned int flags) {
    return ::cudaHostAlloc((void **)(void *)ptr, size, flags);
}
template <class T>
static __inline__ cudaError_t cudaHostGetDevicePointer(T **pDevice, void *pHost, unsigned int flags) {
    return ::cudaHostGetDevicePointer((void **)(void *)pDevice, pHost, flags);
}
template <class T>
static __inline__ cudaError_t cudaMallocManaged(T **devPtr, size_t size, unsigned int flags = cudaMemAttachGlobal) {
    return ::cudaMallocManaged((void **)(void *)devPtr, size, flags);
}
template <class T>
static __inline__ cudaError_t cudaMallocPitch(T **devPtr, size_t *pitch, size_t width, size_t height) {
    return ::cudaMallocPitch((void **)(void *)devPtr, pitch, width, height);
}
/* Stream-ordered allocation, typed and from a pool (as CUDA's C++ overloads). */
template <class T>
static __inline__ cudaError_t cudaMallocAsync(T **devPtr, size_t size, cudaStream_t stream) {
    return ::cudaMallocAsync((void **)(void *)devPtr, size, stream);
}
static __inline__ cudaError_t cudaMallocAsync(void **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
    return ::cudaMallocFromPoolAsync(ptr, size, memPool, stream);
}
template <class T>
static __inline__ cudaError_t cudaMallocAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
    return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}
template <class T>
static __inline__ cudaError_t cudaMallocFromPoolAsync(T **ptr, size_t size, cudaMemPool_t memPool, cudaStream_t stream) {
    return ::cudaMallocFromPoolAsync((void **)(void *)ptr, size, memPool, stream);
}
template <class T>
static __inline__ cudaError_t cudaMemcpyToSymbol(const T &symbol, const void *src, size_t count,
                                                 size_t offset = 0,
                                                 enum cudaMemcpyKind kind = cudaMemcpyHostToDevice) {
    return ::cudaMemcpyToSymbol((const void *)&symbol, src, count, offset, kind);
}
template <class T>
static __inline__ cudaError_t cudaMemcpyToSymbolAsync(const T &symbol, const void *src, size_t count,
                                                      size_t offset = 0,
                                                      enum cudaMemcpyKind kind = cudaMemcpyHostToDevice,
                                                      cudaStream_t stream = 0) {
    return ::cudaMemcpyToSymbolAsync((const void *)&symbol, src, count, offset, kind, stream);
}
template <class T>
static __inline__ cudaError_t cudaMemcpyFromSymbol(void *dst, const T &symbol, size_t count,
                                                   size_t offset = 0,
                                                   enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost) {
    return ::cudaMemcpyFromSymbol(dst, (const void *)&symbol, count, offset, kind);
}
template <class T>
static __inline__ cudaError_t cudaMemcpyFromSymbolAsync(void *dst, const T &symbol, size_t count,
                                                        size_t offset = 0,
                                                        enum cudaMemcpyKind kind = cudaMemcpyDeviceToHost,
                                                        cudaStream_t stream = 0) {
    return ::cudaMemcpyFromSymbolAsync(dst, (const void *)&symbol, count, offset, kind, stream);
}
template <class T>
static __inline__ cudaError_t cudaGetSymbolAddress(void **devPtr, const T &symbol) {
    return ::cudaGetSymbolAddress(devPtr, (const void *)&symbol);
}
template <class T>
static __inline__ cudaError_t cudaGetSymbolSize(size_t *size, const T &symbol) {
    return ::cudaGetSymbolSize(size, (const void *)&symbol);
}
template <class T>
static __inline__ cudaError_t cudaLaunchKernel(const T *func, dim3 gridDim, dim3 blockDim, void **args,
                                               size_t sharedMem = 0, cudaStream_t stream = 0) {
    return ::cudaLaunchKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
template <class T>
static __inline__ cudaError_t cudaLaunchCooperativeKernel(const T *func, dim3 gridDim, dim3 blockDim,
                                                          void **args, size_t sharedMem = 0,
                                                          cudaStream_t stream = 0) {
    return ::cudaLaunchCooperativeKernel((const void *)func, gridDim, blockDim, args, sharedMem, stream);
}
/* The arguments are converted to the kernel's parameter types first (each is passed
 * as the parameter it binds to), then launched through cudaLaunchKernelExC. */
template <typename... ExpTypes, typename... ActTypes>
static __inline__ cudaError_t cudaLaunchKernelEx(const cudaLaunchConfig_t *config, void (*kernel)(ExpTypes...),
                                                 ActTypes &&...args) {
    return [&](ExpTypes... params) {
        void *ptrs[sizeof...(ExpTypes) + 1] = {((void *)&params)..., 0};
        return ::cudaLaunchKernelExC(config, (const void *)kernel, ptrs);
    }(static_cast<ActTypes &&>(args)...);
}
template <class T>
static __inline__ cudaError_t cudaFuncGetAttributes(struct cudaFuncAttributes *attr, T *entry) {
    return ::cudaFuncGetAttributes(attr, (const void *)entry);
}
template <class T>
static __inline__ cudaError_t cudaFuncSetAttribute(T *entry, enum cudaFuncAttribute attr, int value) {
    return ::cudaFuncSetAttribute((const void *)entry, attr, value);
}
template <class T>
static __inline__ cudaError_t cudaFuncSetCacheConfig(T *func, enum cudaFuncCache cacheConfig) {
    return ::cudaFuncSetCacheConfig((const void *)func, cacheConfig);
}
template <class T>
static __inline__ cudaError_t cudaFuncSetSharedMemConfig(T *func, enum cudaSharedMemConfig config) {
    return ::cudaFuncSetSharedMemConfig((const void *)func, config);
}
template <class T>
static __inline__ cudaError_t cudaLaunch(T *func) {
    return ::cudaLaunch((const void *)func);
}
template <class T>
static __inline__ cudaError_t cudaOccupancyMaxActiveBlocksPerMultiprocessor(int *numBlocks, T func,
                                                                           int blockSize,
                                                                           size_t dynamicSMemSize) {
    return ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(numBlocks, (const void *)func, blockSize,
                                                                     dynamicSMemSize, cudaOccupancyDefault);
}
/* Private to this search (cuprite-rt api/launch.rs says why). */
#define __CUPRITE_OCC_SEARCH_IGNORES_FUNCTION_LIMIT 0x80000000u
/* The block size with the most resident threads per multiprocessor (ties go to the
 * larger block), searched over multiples of the warp size as CUDA documents it; the
 * runtime's cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags is the model. */
template <class UnaryFunction, class T>
static __inline__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0,
    unsigned int flags = 0) {
    if (!minGridSize || !blockSize || !func) return cudaErrorInvalidValue;
    struct cudaFuncAttributes attr;
    cudaError_t err = ::cudaFuncGetAttributes(&attr, (const void *)func);
    if (err != cudaSuccess) return err;
    int dev = 0, sms = 1, perSm = 0, warp = 32, devMax = 1024;
    if ((err = ::cudaGetDevice(&dev)) != cudaSuccess) return err;
    ::cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev);
    ::cudaDeviceGetAttribute(&perSm, cudaDevAttrMaxThreadsPerMultiProcessor, dev);
    ::cudaDeviceGetAttribute(&warp, cudaDevAttrWarpSize, dev);
    ::cudaDeviceGetAttribute(&devMax, cudaDevAttrMaxThreadsPerBlock, dev);
    int maxBlock = attr.maxThreadsPerBlock < devMax ? attr.maxThreadsPerBlock : devMax;
    if (blockSizeLimit > 0 && blockSizeLimit < maxBlock) maxBlock = blockSizeLimit;
    int bestBlock = 0, bestBlocks = 0, bestThreads = 0;
    for (int b = (maxBlock + warp - 1) / warp * warp; b > 0; b -= warp) {
        int size = b > maxBlock ? maxBlock : b;
        int blocks = 0;
        err = ::cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(
            &blocks, (const void *)func, size, (size_t)blockSizeToDynamicSMemSize(size),
            flags | __CUPRITE_OCC_SEARCH_IGNORES_FUNCTION_LIMIT);
        if (err != cudaSuccess) return err;
        if (blocks * size > bestThreads) {
            bestThreads = blocks * size;
            bestBlock = size;
            bestBlocks = blocks;
        }
        if (bestThreads == perSm) break;
    }
    *blockSize = bestBlock;
    *minGridSize = bestBlocks * sms;
    return cudaSuccess;
}
template <class UnaryFunction, class T>
static __inline__ cudaError_t cudaOccupancyMaxPotentialBlockSizeVariableSMem(
    int *minGridSize, int *blockSize, T func, UnaryFunction blockSizeToDynamicSMemSize, int blockSizeLimit = 0) {
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(minGridSize, blockSize, func,
                                                                  blockSizeToDynamicSMemSize, blockSizeLimit, 0);
}
struct __cuprite_constant_dynamic_smem {
    size_t bytes;
    __host__ __device__ size_t operator()(int) const { return bytes; }
};
template <class T>
static __inline__ cudaError_t cudaOccupancyMaxPotentialBlockSizeWithFlags(int *minGridSize, int *blockSize, T func,
                                                                         size_t dynamicSMemSize = 0,
                                                                         int blockSizeLimit = 0,
                                                                         unsigned int flags = 0) {
    __cuprite_constant_dynamic_smem smem = {dynamicSMemSize};
    return cudaOccupancyMaxPotentialBlockSizeVariableSMemWithFlags(minGridSize, blockSize, func, smem,
                                                                  blockSizeLimit, flags);
}
template <class T>
static __inline__ cudaError_t cudaOccupancyMaxPotentialBlockSize(int *minGridSize, int *blockSize, T func,
                                                                size_t dynamicSMemSize = 0,
                                                                int blockSizeLimit = 0) {
    return cudaOccupancyMaxPotentialBlockSizeWithFlags(minGridSize, blockSize, func, dynamicSMemSize,
                                                      blockSizeLimit, 0);
}
template <class T>
static __inline__ cudaError_t cudaOccupancyAvailableDynamicSMemPerBlock(size_t *dynamicSmemSize, T func,
                                                                       int numBlocks, int blockSize) {
    return ::cudaOccupancyAvailableDynamicSMemPerBlock(dynamicSmemSize, (const void *)func, numBlocks, blockSize);
}
static __inline__ cudaError_t cudaEventCreate(cudaEvent_t *event, unsigned int flags) {
    return ::cudaEventCreateWithFlags(event, flags);
}
static __inline__ cudaError_t cudaMallocHost(void **ptr, size_t size, unsigned int flags) {
    return ::cudaHostAlloc(ptr, size, flags);
}

/* Legacy texture references: host objects whose fields the program sets before binding;
 * the device object registers each one with the runtime (docs/ARCHITECTURE.md). */
template <class T, int dim = 1, enum cudaTextureReadMode mode = cudaReadModeElementType>
struct texture : public textureReference {
    texture(int norm = 0, enum cudaTextureFilterMode fMode = cudaFilterModePoint,
            enum cudaTextureAddressMode aMode = cudaAddressModeClamp) {
        __cuprite_init(norm, fMode, aMode, cudaCreateChannelDesc<T>());
    }
    texture(int norm, enum cudaTextureFilterMode fMode, enum cudaTextureAddressMode aMode,
            struct cudaChannelFormatDesc desc) {
        __cuprite_init(norm, fMode, aMode, desc);
    }

private:
    void __cuprite_init(int norm, enum cudaTextureFilterMode fMode, enum cudaTextureAddressMode aMode,
                        struct cudaChannelFormatDesc desc) {
        memset((textureReference *)this, 0, sizeof(textureReference));
        normalized = norm;
        filterMode = fMode;
        addressMode[0] = addressMode[1] = addressMode[2] = aMode;
        channelDesc = desc;
        __cudaReserved[0] = mode;
        __cudaReserved[1] = dim;
    }
};
template <class T, int dim, enum cudaTextureReadMode mode>
static __inline__ cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, mode> &tex, const void *devPtr,
                                              const struct cudaChannelFormatDesc &desc, size_t size = UINT_MAX) {
    return ::cudaBindTexture(offset, &tex, devPtr, &desc, size);
}
template <class T, int dim, enum cudaTextureReadMode mode>
static __inline__ cudaError_t cudaBindTexture(size_t *offset, const struct texture<T, dim, mode> &tex, const void *devPtr,
                                              size_t size = UINT_MAX) {
    return ::cudaBindTexture(offset, &tex, devPtr, &tex.channelDesc, size);
}
template <class T, int dim, enum cudaTextureReadMode mode>
static __inline__ cudaError_t cudaBindTexture2D(size_t *offset, const struct texture<T, dim, mode> &tex, const void *devPtr,
                                                const struct cudaChannelFormatDesc &desc, size_t width, size_t height,
                                                size_t pitch) {
    return ::cudaBindTexture2D(offset, &tex, devPtr, &desc, width, height, pitch);
}
template <class T, int dim, enum cudaTextureReadMode mode>
static __inline__ cudaError_t cudaBindTexture2D(size_t *offset, const struct texture<T, dim, mode> &tex, const void *devPtr,
                                                size_t width, size_t height, size_t pitch) {
    return ::cudaBindTexture2D(offset, &tex, devPtr, &tex.channelDesc, width, height, pitch);
}
template <class T, int dim, enum cudaTextureReadMode mode>
static __inline__ cudaError_t cudaBindTextureToArray(const struct texture<T, dim, mode> &tex, cudaArray_const_t array,
                                                     const struct cudaChannelFormatDesc &desc) {
    return ::cudaBindTextureToArray(&tex, array, &desc);
}
template <class T, int dim, enum cudaTextureReadMode mode>
static __inline__ cudaError_t cudaBindTextureToArray(const struct texture<T, dim, mode> &tex, cudaArray_const_t array) {
    struct cudaChannelFormatDesc desc;
    cudaError_t err = ::cudaGetChannelDesc(&desc, array);
    return err == cudaSuccess ? ::cudaBindTextureToArray(&tex, array, &desc) : err;
}
template <class T, int dim, enum cudaTextureReadMode mode>
static __inline__ cudaError_t cudaUnbindTexture(const struct texture<T, dim, mode> &tex) {
    return ::cudaUnbindTexture(&tex);
}
template <class T, int dim, enum cudaTextureReadMode mode>
static __inline__ cudaError_t cudaGetTextureAlignmentOffset(size_t *offset, const struct texture<T, dim, mode> &tex) {
    return ::cudaGetTextureAlignmentOffset(offset, &tex);
}

/* Legacy surface references: `surface<void, dim> r;` at file scope, bound to an array. */
template <class T, int dim = 1>
struct surface : public surfaceReference {
    surface() { memset((surfaceReference *)this, 0, sizeof(surfaceReference)); }
    surface(struct cudaChannelFormatDesc desc) { channelDesc = desc; }
};
template <class T, int dim>
static __inline__ cudaError_t cudaBindSurfaceToArray(const struct surface<T, dim> &surf, cudaArray_const_t array,
                                                     const struct cudaChannelFormatDesc &desc) {
    return ::cudaBindSurfaceToArray(&surf, array, &desc);
}
template <class T, int dim>
static __inline__ cudaError_t cudaBindSurfaceToArray(const struct surface<T, dim> &surf, cudaArray_const_t array) {
    struct cudaChannelFormatDesc desc;
    cudaError_t err = ::cudaGetChannelDesc(&desc, array);
    return err == cudaSuccess ? ::cudaBindSurfaceToArray(&surf, array, &desc) : err;
}

#endif /* __cplusplus && !__CUPRITE_DEVICE_PASS__ */

#endif /* __CUDA_RUNTIME_H__ */
