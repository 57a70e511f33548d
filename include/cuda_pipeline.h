/* cuda_pipeline.h (Cuprite): the pipeline primitives (cuda_pipeline_primitives.h). */
#ifndef CUPRITE_CUDA_PIPELINE_H
#define CUPRITE_CUDA_PIPELINE_H
#include "cuda_pipeline_primitives.h"
#endif
