/* device_types.h (Cuprite): rounding modes of the intrinsics. */
#ifndef __CUPRITE_DEVICE_TYPES_H__
#define __CUPRITE_DEVICE_TYPES_H__
enum cudaRoundMode { cudaRoundNearest, cudaRoundZero, cudaRoundPosInf, cudaRoundMinInf };
#endif
