/* math_functions.h (Cuprite): device math is built into the device front-end; host code
 * gets the C library's. */
#ifndef __MATH_FUNCTIONS_H__
#define __MATH_FUNCTIONS_H__
#include "device_functions.h"
#if !defined(__CUPRITE_DEVICE_PASS__)
#include <math.h>
#endif
#endif
