/*
 * host_defines.h (Cuprite): the CUDA keywords and helper macros.
 *
 * In a .cu compile (__CUDACC__ defined) the CUDA keywords (__global__, __device__,
 * __host__, __shared__, __constant__, __managed__, __forceinline__, __noinline__,
 * __launch_bounds__) are NOT macros: Cuprite's host rewrite and device front-end see them
 * as identifiers. In a plain C/C++ compile that includes the CUDA headers, they are
 * defined away so that the headers are ordinary C/C++.
 */
#ifndef __HOST_DEFINES_H__
#define __HOST_DEFINES_H__

#define __CUPRITE__ 1

#if !defined(__CUDACC__)
#  ifndef __host__
#    define __host__
#  endif
#  ifndef __device__
#    define __device__
#  endif
#  ifndef __global__
#    define __global__
#  endif
#  ifndef __shared__
#    define __shared__
#  endif
#  ifndef __constant__
#    define __constant__
#  endif
#  ifndef __managed__
#    define __managed__
#  endif
#  ifndef __forceinline__
#    define __forceinline__ __inline__ __attribute__((always_inline))
#  endif
#  ifndef __noinline__
     /* empty: glibc/libstdc++ write __attribute__((__noinline__)) */
#    define __noinline__
#  endif
#  ifndef __launch_bounds__
#    define __launch_bounds__(...)
#  endif
#endif

#ifndef __align__
#  define __align__(n) __attribute__((aligned(n)))
#endif
#ifndef __builtin_align__
#  define __builtin_align__(n) __align__(n)
#endif
#ifndef __thread__
#  define __thread__ __thread
#endif
#ifndef __import__
#  define __import__
#endif
#ifndef __export__
#  define __export__
#endif
#ifndef __cdecl
#  define __cdecl
#endif
#ifndef __annotate__
#  define __annotate__(a) __attribute__((a))
#endif
#ifndef __location__
#  define __location__(a) __annotate__(a)
#endif
#ifndef CUDARTAPI
#  define CUDARTAPI
#endif
#ifndef CUDARTAPI_CDECL
#  define CUDARTAPI_CDECL
#endif
#ifndef __device_builtin__
#  define __device_builtin__
#endif
#ifndef __device_builtin_texture_type__
#  define __device_builtin_texture_type__
#endif
#ifndef __device_builtin_surface_type__
#  define __device_builtin_surface_type__
#endif
#ifndef __cudart_builtin__
#  define __cudart_builtin__
#endif
#ifndef __CUDA_ALIGN__
#  define __CUDA_ALIGN__(n) __align__(n)
#endif
#ifndef CUDART_CB
#  define CUDART_CB
#endif
#ifndef __dv
#  define __dv(v)
#endif
#ifndef __CUDA_DEPRECATED
#  define __CUDA_DEPRECATED
#endif
#ifndef __cuda_builtin_vector_align8
#  define __cuda_builtin_vector_align8(tag, members) \
     struct __align__(8) tag { members }
#endif

/* extern "C" around prototypes, only where the host C++ compiler reads them: the device
 * front-end reads plain C prototypes. */
#if defined(__cplusplus) && !defined(__CUPRITE_DEVICE_PASS__)
#  define __CUPRITE_BEGIN_C extern "C" {
#  define __CUPRITE_END_C }
#else
#  define __CUPRITE_BEGIN_C
#  define __CUPRITE_END_C
#endif

/* Default arguments in prototypes: C++ host compiles only. */
#if defined(__cplusplus) && !defined(__CUPRITE_DEVICE_PASS__)
#  define __CUPRITE_DEFAULT(v) = v
#else
#  define __CUPRITE_DEFAULT(v)
#endif

#endif /* __HOST_DEFINES_H__ */
