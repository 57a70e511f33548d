/* cuda_pipeline_primitives.h (Cuprite): the pipeline primitives of the CUDA Programming
 * Guide ("Pipeline Primitives Interface"). A copy is done when __pipeline_memcpy_async is
 * called, which every later commit and wait then finds complete (reading the
 * destination before the wait is a race, so no correct program sees a difference). */
#ifndef CUPRITE_CUDA_PIPELINE_PRIMITIVES_H
#define CUPRITE_CUDA_PIPELINE_PRIMITIVES_H

#include <cstddef>

/* Copies size_and_align - zfill bytes and fills the remaining zfill bytes with zeros. */
__device__ inline void __pipeline_memcpy_async(void *dst_shared, const void *src_global, size_t size_and_align, size_t zfill = 0) {
    size_t n = size_and_align - zfill;
    memcpy(dst_shared, src_global, n);
    if (zfill) memset((char *)dst_shared + n, 0, zfill);
}
__device__ inline void __pipeline_commit() {}
__device__ inline void __pipeline_wait_prior(size_t) {}

#endif
