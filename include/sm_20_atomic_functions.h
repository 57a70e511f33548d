/* sm_20_atomic_functions.h (Cuprite): provided by the device front-end. */
#include "device_functions.h"
