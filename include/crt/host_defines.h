/* Cuprite: crt/host_defines.h is an alias of host_defines.h. */
#include "../host_defines.h"
