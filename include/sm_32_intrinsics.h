/* sm_32_intrinsics.h (Cuprite): provided by the device front-end. */
#include "device_functions.h"
