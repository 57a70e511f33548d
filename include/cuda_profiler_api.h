/* cuda_profiler_api.h (Cuprite): profiler control. With no profiler attached,
 * cudaProfilerStart/Stop succeed and do nothing, as on a GPU run outside a profiler. */
#ifndef __CUDA_PROFILER_API_H__
#define __CUDA_PROFILER_API_H__
#include "cuda_runtime_api.h"
#endif
