/* common_functions.h (Cuprite): provided by the device front-end. */
#include "device_functions.h"
