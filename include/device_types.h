/* device_types.h (Cuprite): rounding modes of the intrinsics. */
#ifndef __DEVICE_TYPES_H__
#define __DEVICE_TYPES_H__
enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };
#endif
