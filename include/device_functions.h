/* device_functions.h (Cuprite): device intrinsics (__syncthreads, atomics, math ...) are
 * built into Cuprite's device front-end; this header exists so that programs that include
 * it compile. */
#ifndef __DEVICE_FUNCTIONS_H__
#define __DEVICE_FUNCTIONS_H__
#include "host_defines.h"
/* Device clock() returns clock_t, which nvcc makes visible without <ctime>. */
#include <time.h>
#endif
