/* channel_descriptor.h (Cuprite): cudaCreateChannelDesc<T>() for the scalar and vector
 * types, and the half-precision forms. */
#ifndef __CHANNEL_DESCRIPTOR_H__
#define __CHANNEL_DESCRIPTOR_H__
#include "cuda_runtime_api.h"
#include <limits.h>
#ifdef __cplusplus

static __inline__ __host__ struct cudaChannelFormatDesc __cuprite_channel_desc(int x, int y, int z, int w,
                                                                                 enum cudaChannelFormatKind f) {
    struct cudaChannelFormatDesc d;
    d.x = x; d.y = y; d.z = z; d.w = w; d.f = f;
    return d;
}

template <class T> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc(void) {
    return __cuprite_channel_desc(0, 0, 0, 0, cudaChannelFormatKindNone);
}

static __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDescHalf(void) {
    return __cuprite_channel_desc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDescHalf1(void) {
    return __cuprite_channel_desc(16, 0, 0, 0, cudaChannelFormatKindFloat);
}
static __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDescHalf2(void) {
    return __cuprite_channel_desc(16, 16, 0, 0, cudaChannelFormatKindFloat);
}
static __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDescHalf4(void) {
    return __cuprite_channel_desc(16, 16, 16, 16, cudaChannelFormatKindFloat);
}

#define __CUPRITE_CHANNEL(T, X, Y, Z, W, K)                                                       \
    template <> __inline__ __host__ cudaChannelFormatDesc cudaCreateChannelDesc<T>(void) {      \
        return __cuprite_channel_desc(X, Y, Z, W, K);                                           \
    }
#define __CUPRITE_CHANNELS(S, U, BITS)                                                            \
    __CUPRITE_CHANNEL(S, BITS, 0, 0, 0, cudaChannelFormatKindSigned)                              \
    __CUPRITE_CHANNEL(U, BITS, 0, 0, 0, cudaChannelFormatKindUnsigned)                            \
    __CUPRITE_CHANNEL(S##1, BITS, 0, 0, 0, cudaChannelFormatKindSigned)                           \
    __CUPRITE_CHANNEL(u##S##1, BITS, 0, 0, 0, cudaChannelFormatKindUnsigned)                      \
    __CUPRITE_CHANNEL(S##2, BITS, BITS, 0, 0, cudaChannelFormatKindSigned)                        \
    __CUPRITE_CHANNEL(u##S##2, BITS, BITS, 0, 0, cudaChannelFormatKindUnsigned)                   \
    __CUPRITE_CHANNEL(S##4, BITS, BITS, BITS, BITS, cudaChannelFormatKindSigned)                  \
    __CUPRITE_CHANNEL(u##S##4, BITS, BITS, BITS, BITS, cudaChannelFormatKindUnsigned)
__CUPRITE_CHANNELS(short, unsigned short, 16)
__CUPRITE_CHANNELS(int, unsigned int, 32)
/* char: signed or not as the host's char is (nvcc does the same). */
#if CHAR_MIN == 0 || defined(__CHAR_UNSIGNED__)
__CUPRITE_CHANNEL(char, 8, 0, 0, 0, cudaChannelFormatKindUnsigned)
#else
__CUPRITE_CHANNEL(char, 8, 0, 0, 0, cudaChannelFormatKindSigned)
#endif
__CUPRITE_CHANNEL(signed char, 8, 0, 0, 0, cudaChannelFormatKindSigned)
__CUPRITE_CHANNEL(unsigned char, 8, 0, 0, 0, cudaChannelFormatKindUnsigned)
__CUPRITE_CHANNEL(char1, 8, 0, 0, 0, cudaChannelFormatKindSigned)
__CUPRITE_CHANNEL(uchar1, 8, 0, 0, 0, cudaChannelFormatKindUnsigned)
__CUPRITE_CHANNEL(char2, 8, 8, 0, 0, cudaChannelFormatKindSigned)
__CUPRITE_CHANNEL(uchar2, 8, 8, 0, 0, cudaChannelFormatKindUnsigned)
__CUPRITE_CHANNEL(char4, 8, 8, 8, 8, cudaChannelFormatKindSigned)
__CUPRITE_CHANNEL(uchar4, 8, 8, 8, 8, cudaChannelFormatKindUnsigned)
__CUPRITE_CHANNEL(float, 32, 0, 0, 0, cudaChannelFormatKindFloat)
__CUPRITE_CHANNEL(float1, 32, 0, 0, 0, cudaChannelFormatKindFloat)
__CUPRITE_CHANNEL(float2, 32, 32, 0, 0, cudaChannelFormatKindFloat)
__CUPRITE_CHANNEL(float4, 32, 32, 32, 32, cudaChannelFormatKindFloat)
#if !defined(__LP64__)
__CUPRITE_CHANNEL(long, 32, 0, 0, 0, cudaChannelFormatKindSigned)
__CUPRITE_CHANNEL(unsigned long, 32, 0, 0, 0, cudaChannelFormatKindUnsigned)
#endif
#undef __CUPRITE_CHANNELS
#undef __CUPRITE_CHANNEL

#endif /* __cplusplus */
#endif
