/* builtin_types.h (Cuprite): the types every CUDA compile sees. */
#ifndef __BUILTIN_TYPES_H__
#define __BUILTIN_TYPES_H__
#include "host_defines.h"
#include "vector_types.h"
#include "driver_types.h"
#include "surface_types.h"
#include "texture_types.h"
#endif
