/* cuda_device_runtime_api.h (Cuprite): provided by the device front-end. */
#include "device_functions.h"
