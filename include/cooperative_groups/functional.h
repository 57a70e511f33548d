/* cooperative_groups/functional.h (Cuprite): the operators cg::reduce and the scans take. */
#ifndef CUPRITE_COOPERATIVE_GROUPS_FUNCTIONAL_H
#define CUPRITE_COOPERATIVE_GROUPS_FUNCTIONAL_H

namespace cooperative_groups {

template <class T> struct plus {
    __device__ T operator()(T a, T b) const { return a + b; }
};
template <class T> struct less {
    __device__ T operator()(T a, T b) const { return b < a ? b : a; }
};
template <class T> struct greater {
    __device__ T operator()(T a, T b) const { return a < b ? b : a; }
};
template <class T> struct bit_and {
    __device__ T operator()(T a, T b) const { return a & b; }
};
template <class T> struct bit_or {
    __device__ T operator()(T a, T b) const { return a | b; }
};
template <class T> struct bit_xor {
    __device__ T operator()(T a, T b) const { return a ^ b; }
};

} // namespace cooperative_groups

#endif
