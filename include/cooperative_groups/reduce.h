/* cooperative_groups/reduce.h (Cuprite): cg::reduce over a tile or a coalesced group, and
 * the function objects it takes (plus, less, greater, bit_and, bit_or, bit_xor), written
 * from the CUDA Programming Guide. Every thread of the group gets the result. */
#ifndef CUPRITE_COOPERATIVE_GROUPS_REDUCE_H
#define CUPRITE_COOPERATIVE_GROUPS_REDUCE_H

#include "../cooperative_groups.h"
#include "functional.h"

namespace cooperative_groups {

/* Threads of the group combine their values in rank order: the value of rank 0 first,
 * so that every thread computes the same result. */
template <class GroupT, class T, class OpT>
__device__ T reduce(const GroupT &group, T value, OpT op) {
    unsigned int n = (unsigned int)group.num_threads();
    if constexpr (GroupT::__cuprite_multi_warp) {
        const T *all = group.__cuprite_gather(value);
        T acc = all[0];
        for (unsigned int r = 1; r < n; ++r) acc = op(acc, all[r]);
        group.__cuprite_release();
        return acc;
    } else {
        T acc = group.shfl(value, 0);
        for (unsigned int r = 1; r < n; ++r) {
            acc = op(acc, group.shfl(value, r));
        }
        return acc;
    }
}

} // namespace cooperative_groups

#endif
