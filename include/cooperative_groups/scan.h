/* cooperative_groups/scan.h (Cuprite): cg::inclusive_scan and cg::exclusive_scan over a
 * tile or a coalesced group, written from the CUDA Programming Guide. Without an operator
 * they add. */
#ifndef CUPRITE_COOPERATIVE_GROUPS_SCAN_H
#define CUPRITE_COOPERATIVE_GROUPS_SCAN_H

#include "../cooperative_groups.h"
#include "functional.h"

namespace cooperative_groups {

/* Each thread combines the values of ranks 0..its own, in rank order. */
template <class GroupT, class T, class OpT>
__device__ T inclusive_scan(const GroupT &group, T value, OpT op) {
    unsigned int n = (unsigned int)group.num_threads();
    unsigned int me = (unsigned int)group.thread_rank();
    if constexpr (GroupT::__cuprite_multi_warp) {
        const T *all = group.__cuprite_gather(value);
        T acc = all[0];
        for (unsigned int r = 1; r <= me; ++r) acc = op(acc, all[r]);
        group.__cuprite_release();
        return acc;
    } else {
        T acc = group.shfl(value, 0);
        for (unsigned int r = 1; r < n; ++r) {
            T v = group.shfl(value, r);
            if (r <= me) acc = op(acc, v);
        }
        return acc;
    }
}
template <class GroupT, class T>
__device__ T inclusive_scan(const GroupT &group, T value) {
    return inclusive_scan(group, value, plus<T>());
}

/* Ranks 0..own-1; rank 0 gets T() (the value-initialised T). */
template <class GroupT, class T, class OpT>
__device__ T exclusive_scan(const GroupT &group, T value, OpT op) {
    unsigned int n = (unsigned int)group.num_threads();
    unsigned int me = (unsigned int)group.thread_rank();
    T acc = T();
    if constexpr (GroupT::__cuprite_multi_warp) {
        const T *all = group.__cuprite_gather(value);
        for (unsigned int r = 0; r < me; ++r) acc = r == 0 ? all[0] : op(acc, all[r]);
        group.__cuprite_release();
    } else {
        for (unsigned int r = 0; r < n; ++r) {
            T v = group.shfl(value, r);
            if (r < me) acc = r == 0 ? v : op(acc, v);
        }
    }
    return acc;
}
template <class GroupT, class T>
__device__ T exclusive_scan(const GroupT &group, T value) {
    return exclusive_scan(group, value, plus<T>());
}

} // namespace cooperative_groups

#endif
