/* device_launch_parameters.h (Cuprite): the built-in variables, declared for host
 * compiles (the device front-end knows them itself). */
#ifndef __DEVICE_LAUNCH_PARAMETERS_H__
#define __DEVICE_LAUNCH_PARAMETERS_H__
#include "vector_types.h"
#if !defined(__CUPRITE_DEVICE_PASS__)
__CUPRITE_BEGIN_C
extern const uint3 threadIdx;
extern const uint3 blockIdx;
extern const dim3 blockDim;
extern const dim3 gridDim;
extern const int warpSize;
__CUPRITE_END_C
#endif
#endif
