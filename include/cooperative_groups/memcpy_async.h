/* cooperative_groups/memcpy_async.h (Cuprite): cg::memcpy_async and cg::wait, written from
 * the CUDA Programming Guide. The group's threads copy the bytes at once (each thread a
 * share of them); wait and wait_prior synchronise the group, after which every thread
 * sees the whole copy, as the guide promises. */
#ifndef CUPRITE_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H
#define CUPRITE_COOPERATIVE_GROUPS_MEMCPY_ASYNC_H

#include "../cooperative_groups.h"

namespace cooperative_groups {

template <class GroupT>
__device__ void memcpy_async(const GroupT &group, void *dst, const void *src, size_t bytes) {
    unsigned int n = (unsigned int)group.num_threads();
    char *d = (char *)dst;
    const char *s = (const char *)src;
    for (size_t i = (size_t)group.thread_rank(); i < bytes; i += n) d[i] = s[i];
}
/* Element counts: copies min(dst_count, src_count) elements. */
template <class GroupT, class T>
__device__ void memcpy_async(const GroupT &group, T *dst, size_t dst_count, const T *src, size_t src_count) {
    size_t count = dst_count < src_count ? dst_count : src_count;
    memcpy_async(group, (void *)dst, (const void *)src, count * sizeof(T));
}

template <class GroupT> __device__ void wait(const GroupT &group) { group.sync(); }
template <unsigned int NumStages, class GroupT> __device__ void wait_prior(const GroupT &group) { group.sync(); }

} // namespace cooperative_groups

#endif
