/* cooperative_groups.h (Cuprite): CUDA's cooperative groups, written for Cuprite from the
 * CUDA Programming Guide's description of them. Every group is built on the warp builtins
 * (__shfl_sync, __ballot_sync, __syncwarp, __match_any_sync, ...): a group inside one warp
 * is the mask of its lanes; a thread block is __syncthreads.
 *
 * Supported: thread_group, thread_block (this_thread_block), thread_block_tile<N> for
 * N = 1, 2, 4, 8, 16, 32 (tiled_partition<N>), dynamic tiled_partition(g, n) for n a power
 * of two up to 32, coalesced_group (coalesced_threads), labeled_partition,
 * binary_partition, grid_group (this_grid; sync() in cooperative launches); cg::reduce, inclusive_scan and
 * exclusive_scan (cooperative_groups/reduce.h, scan.h), memcpy_async + wait
 * (cooperative_groups/memcpy_async.h; the copy is done at once, wait synchronises).
 * Not supported yet: multi-grid groups. */
#ifndef CUPRITE_COOPERATIVE_GROUPS_H
#define CUPRITE_COOPERATIVE_GROUPS_H

#include "cuda_runtime.h"
#include <string.h> /* memcpy: shuffles of any type */

namespace cooperative_groups {

/* Implementation details: the calling thread's place in its block and warp. */
namespace __cuprite_cg {
__device__ __forceinline__ unsigned int block_rank() {
    return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
__device__ __forceinline__ unsigned int block_threads() { return blockDim.x * blockDim.y * blockDim.z; }
__device__ __forceinline__ unsigned int lane() { return block_rank() & 31u; }
/* Lanes below the calling one. */
__device__ __forceinline__ unsigned int lanes_below() { return (1u << lane()) - 1u; }
/* The mask of the aligned run of `n` lanes (n a power of two, at most 32) holding the caller. */
__device__ __forceinline__ unsigned int tile_mask(unsigned int n) {
    if (n >= 32u) return 0xffffffffu;
    return ((1u << n) - 1u) << (lane() & ~(n - 1u));
}
/* The lane of the `rank`-th set bit of `mask` (32 when there is none). */
__device__ __forceinline__ unsigned int lane_of_rank(unsigned int mask, unsigned int rank) {
    unsigned int seen = 0;
    for (unsigned int l = 0; l < 32u; ++l) {
        if (mask & (1u << l)) {
            if (seen == rank) return l;
            ++seen;
        }
    }
    return 32u;
}
/* A ballot of `mask`'s lanes packed so that bit i stands for the group's rank i. */
__device__ __forceinline__ unsigned int pack_bits(unsigned int mask, unsigned int bits) {
    unsigned int out = 0, r = 0;
    for (unsigned int l = 0; l < 32u; ++l) {
        if (mask & (1u << l)) {
            if (bits & (1u << l)) out |= 1u << r;
            ++r;
        }
    }
    return out;
}

/* Shuffles of any type: the warp builtins take the arithmetic types directly; any other
 * trivially copyable type (uint4, a struct) travels as 32-bit words. One function per
 * kind, so that each use is one warp collective. */
#define __CUPRITE_CG_SHFL_TYPE(NAME, BUILTIN, T)                                                  \
    __device__ __forceinline__ T NAME(unsigned int mask, T v, int arg, int width) {              \
        return BUILTIN(mask, v, arg, width);                                                       \
    }
#define __CUPRITE_CG_SHFL(NAME, BUILTIN)                                                           \
    __CUPRITE_CG_SHFL_TYPE(NAME, BUILTIN, int)                                                     \
    __CUPRITE_CG_SHFL_TYPE(NAME, BUILTIN, unsigned int)                                            \
    __CUPRITE_CG_SHFL_TYPE(NAME, BUILTIN, long long)                                               \
    __CUPRITE_CG_SHFL_TYPE(NAME, BUILTIN, unsigned long long)                                      \
    __CUPRITE_CG_SHFL_TYPE(NAME, BUILTIN, float)                                                   \
    __CUPRITE_CG_SHFL_TYPE(NAME, BUILTIN, double)                                                  \
    template <class T> __device__ T NAME(unsigned int mask, T v, int arg, int width) {             \
        unsigned int words[(sizeof(T) + 3) / 4];                                                   \
        memcpy(words, &v, sizeof(T));                                                              \
        for (unsigned int i = 0; i < (sizeof(T) + 3) / 4; ++i) words[i] = BUILTIN(mask, words[i], arg, width); \
        T out = v;                                                                                 \
        memcpy(&out, words, sizeof(T));                                                            \
        return out;                                                                                \
    }
__CUPRITE_CG_SHFL(shfl_idx, __shfl_sync)
__CUPRITE_CG_SHFL(shfl_up, __shfl_up_sync)
__CUPRITE_CG_SHFL(shfl_down, __shfl_down_sync)
__CUPRITE_CG_SHFL(shfl_xor, __shfl_xor_sync)
#undef __CUPRITE_CG_SHFL
#undef __CUPRITE_CG_SHFL_TYPE
} // namespace __cuprite_cg

/* Kinds of a generic thread_group. */
enum { __cuprite_cg_block = 0, __cuprite_cg_warp_level = 1 };

/* Any group: a thread block, or a set of lanes of one warp (a tile, a coalesced group, a
 * partition). It remembers the caller's rank and the group's size. */
class thread_group {
protected:
    unsigned int kind_;
    unsigned int size_;
    unsigned int rank_;
    unsigned int mask_; /* the group's lanes, for warp-level groups */
public:
    __device__ thread_group(unsigned int kind, unsigned int size, unsigned int rank, unsigned int mask)
        : kind_(kind), size_(size), rank_(rank), mask_(mask) {}
    __device__ void sync() const {
        if (kind_ == __cuprite_cg_block) __syncthreads();
        else __syncwarp(mask_);
    }
    __device__ unsigned long long size() const { return size_; }
    __device__ unsigned long long num_threads() const { return size_; }
    __device__ unsigned long long thread_rank() const { return rank_; }
    /* For Cuprite's own partitions: the lanes of a warp-level group (0 for a block). */
    __device__ unsigned int __cuprite_mask() const { return kind_ == __cuprite_cg_block ? 0u : mask_; }
};

namespace __cuprite_cg {
/* The exchange buffer of tiles larger than a warp: a 16-byte slot per thread. */
__device__ __forceinline__ void *multi_warp_slots() {
    __shared__ unsigned long long slots[2 * 1024];
    return slots;
}
}

/* The calling thread's block. */
class thread_block : public thread_group {
public:
    __device__ thread_block()
        : thread_group(__cuprite_cg_block, __cuprite_cg::block_threads(), __cuprite_cg::block_rank(), 0u) {}
    __device__ void sync() const { __syncthreads(); }
    __device__ unsigned int size() const { return __cuprite_cg::block_threads(); }
    __device__ unsigned int num_threads() const { return __cuprite_cg::block_threads(); }
    __device__ unsigned int thread_rank() const { return __cuprite_cg::block_rank(); }
    __device__ dim3 group_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    __device__ dim3 thread_index() const { return dim3(threadIdx.x, threadIdx.y, threadIdx.z); }
    __device__ dim3 dim_threads() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
    __device__ dim3 group_dim() const { return dim3(blockDim.x, blockDim.y, blockDim.z); }
};

__device__ __forceinline__ thread_block this_thread_block() { return thread_block(); }

/* Scratch memory that CUDA asks for tiles larger than a warp on compute capabilities
 * before 8.0. Cuprite keeps its own buffer, so this holds nothing. */
struct __cuprite_block_tile_memory {
    unsigned char __cuprite_unused;
};
template <unsigned int MaxBlockSize = 1024>
struct block_tile_memory : __cuprite_block_tile_memory {};
__device__ __forceinline__ thread_block this_thread_block(__cuprite_block_tile_memory &) { return thread_block(); }

/* Lanes of one warp, given by a mask, ranked in lane order: what coalesced_threads(),
 * labeled_partition and binary_partition give. */
class coalesced_group : public thread_group {
    unsigned int meta_rank_;
    unsigned int meta_size_;
public:
    static constexpr bool __cuprite_multi_warp = false;
    __device__ explicit coalesced_group(unsigned int mask, unsigned int meta_rank = 0, unsigned int meta_size = 1)
        : thread_group(__cuprite_cg_warp_level, __popc(mask), __popc(mask & __cuprite_cg::lanes_below()), mask),
          meta_rank_(meta_rank), meta_size_(meta_size) {}
    __device__ void sync() const { __syncwarp(mask_); }
    __device__ unsigned int size() const { return size_; }
    __device__ unsigned int num_threads() const { return size_; }
    __device__ unsigned int thread_rank() const { return rank_; }
    /* Which of the tiles of a tiled_partition this is (0 of 1 otherwise). */
    __device__ unsigned int meta_group_rank() const { return meta_rank_; }
    __device__ unsigned int meta_group_size() const { return meta_size_; }

    template <class T> __device__ T shfl(T var, unsigned int src_rank) const {
        unsigned int l = __cuprite_cg::lane_of_rank(mask_, src_rank % size_);
        return __cuprite_cg::shfl_idx(mask_, var, (int)l, 32);
    }
    /* A source outside the group leaves the caller's own value, as the hardware does. */
    template <class T> __device__ T shfl_down(T var, unsigned int delta) const {
        unsigned int r = rank_ + delta;
        unsigned int l = r < size_ ? __cuprite_cg::lane_of_rank(mask_, r) : __cuprite_cg::lane();
        return __cuprite_cg::shfl_idx(mask_, var, (int)l, 32);
    }
    template <class T> __device__ T shfl_up(T var, unsigned int delta) const {
        unsigned int l = rank_ >= delta ? __cuprite_cg::lane_of_rank(mask_, rank_ - delta) : __cuprite_cg::lane();
        return __cuprite_cg::shfl_idx(mask_, var, (int)l, 32);
    }
    __device__ int any(int pred) const { return __any_sync(mask_, pred); }
    __device__ int all(int pred) const { return __all_sync(mask_, pred); }
    __device__ unsigned int ballot(int pred) const {
        return __cuprite_cg::pack_bits(mask_, __ballot_sync(mask_, pred));
    }
    template <class T> __device__ unsigned int match_any(T val) const {
        return __cuprite_cg::pack_bits(mask_, __match_any_sync(mask_, val));
    }
    template <class T> __device__ unsigned int match_all(T val, int &pred) const {
        return __cuprite_cg::pack_bits(mask_, __match_all_sync(mask_, val, &pred));
    }
};

__device__ __forceinline__ coalesced_group coalesced_threads() { return coalesced_group(__activemask()); }

/* A tile of Size consecutive threads (Size a power of two up to 1024). Up to 32: the
 * aligned run of Size lanes of a warp holding the caller, with the warp's collectives.
 * Larger (several warps): sync, ranks, and cg::reduce / cg::inclusive_scan /
 * cg::exclusive_scan, which exchange values through a shared buffer between block
 * barriers — so every thread of the block must take part, as when each tile of a
 * tiled_partition does the same thing (otherwise the launch fails with Cuprite's
 * divergent-barrier error, never a wrong value). */
template <unsigned int Size, typename ParentT = void>
class thread_block_tile : public thread_group {
    static_assert(Size == 1 || Size == 2 || Size == 4 || Size == 8 || Size == 16 || Size == 32 || Size == 64 ||
                      Size == 128 || Size == 256 || Size == 512 || Size == 1024,
                  "thread_block_tile sizes are powers of two up to 1024");
    unsigned int meta_rank_;
    unsigned int meta_size_;
public:
    static constexpr bool __cuprite_multi_warp = Size > 32;
    __device__ thread_block_tile(unsigned int meta_rank, unsigned int meta_size)
        : thread_group(Size > 32 ? __cuprite_cg_block : __cuprite_cg_warp_level, Size,
                       Size > 32 ? __cuprite_cg::block_rank() & (Size - 1u) : __cuprite_cg::lane() & (Size - 1u),
                       Size > 32 ? 0u : __cuprite_cg::tile_mask(Size)),
          meta_rank_(meta_rank), meta_size_(meta_size) {}
    __device__ void sync() const {
        if (Size > 32) __syncthreads();
        else __syncwarp(mask_);
    }
    /* Tiles larger than a warp: every thread's value, in the tile's rank order, until
     * the next __cuprite_release(). */
    template <class T> __device__ const T *__cuprite_gather(T value) const {
        static_assert(sizeof(T) <= 16, "values of tiles larger than a warp are at most 16 bytes");
        T *slots = (T *)__cuprite_cg::multi_warp_slots();
        __syncthreads();
        slots[__cuprite_cg::block_rank()] = value;
        __syncthreads();
        return slots + (__cuprite_cg::block_rank() & ~(Size - 1u));
    }
    __device__ void __cuprite_release() const { __syncthreads(); }
    __device__ unsigned int size() const { return Size; }
    __device__ unsigned int num_threads() const { return Size; }
    __device__ unsigned int thread_rank() const { return rank_; }
    __device__ unsigned int meta_group_rank() const { return meta_rank_; }
    __device__ unsigned int meta_group_size() const { return meta_size_; }

    template <class T> __device__ T shfl(T var, int src_rank) const {
        return __cuprite_cg::shfl_idx(mask_, var, src_rank, Size);
    }
    template <class T> __device__ T shfl_up(T var, unsigned int delta) const {
        return __cuprite_cg::shfl_up(mask_, var, (int)delta, Size);
    }
    template <class T> __device__ T shfl_down(T var, unsigned int delta) const {
        return __cuprite_cg::shfl_down(mask_, var, (int)delta, Size);
    }
    template <class T> __device__ T shfl_xor(T var, unsigned int lane_mask) const {
        return __cuprite_cg::shfl_xor(mask_, var, (int)lane_mask, Size);
    }
    __device__ int any(int pred) const { return __any_sync(mask_, pred); }
    __device__ int all(int pred) const { return __all_sync(mask_, pred); }
    /* Bit i stands for the tile's thread of rank i. */
    __device__ unsigned int ballot(int pred) const { return __ballot_sync(mask_, pred) >> (__cuprite_cg::lane() & ~(Size - 1u)); }
    template <class T> __device__ unsigned int match_any(T val) const {
        return __match_any_sync(mask_, val) >> (__cuprite_cg::lane() & ~(Size - 1u));
    }
    template <class T> __device__ unsigned int match_all(T val, int &pred) const {
        return __match_all_sync(mask_, val, &pred) >> (__cuprite_cg::lane() & ~(Size - 1u));
    }
};

/* Static tiles of a block, or of a larger tile. */
template <unsigned int Size, class ParentT>
__device__ thread_block_tile<Size> tiled_partition(const ParentT &parent) {
    return thread_block_tile<Size>((unsigned int)parent.thread_rank() / Size,
                                   ((unsigned int)parent.num_threads() + Size - 1u) / Size);
}

/* Dynamic tiles: `tile_size` a power of two, at most 32. Tiles of a warp-level group
 * take consecutive ranks of it. */
__device__ __forceinline__ thread_group tiled_partition(const thread_group &parent, unsigned int tile_size) {
    unsigned int rank = (unsigned int)parent.thread_rank();
    unsigned int pmask = parent.__cuprite_mask();
    if (pmask == 0u) {
        return thread_group(__cuprite_cg_warp_level, tile_size, rank % tile_size, __cuprite_cg::tile_mask(tile_size));
    }
    unsigned int first = rank - rank % tile_size;
    unsigned int mask = 0, r = 0;
    for (unsigned int l = 0; l < 32u; ++l) {
        if (pmask & (1u << l)) {
            if (r >= first && r < first + tile_size) mask |= 1u << l;
            ++r;
        }
    }
    return thread_group(__cuprite_cg_warp_level, __popc(mask), rank % tile_size, mask);
}

/* Tiles of a coalesced group: consecutive ranks of it. */
__device__ __forceinline__ coalesced_group tiled_partition(const coalesced_group &parent, unsigned int tile_size) {
    unsigned int mask = tiled_partition((const thread_group &)parent, tile_size).__cuprite_mask();
    return coalesced_group(mask, parent.thread_rank() / tile_size, (parent.num_threads() + tile_size - 1u) / tile_size);
}

/* The threads of a warp-level group with the same label (labeled_partition) or the same
 * predicate (binary_partition). */
template <class GroupT>
__device__ coalesced_group labeled_partition(const GroupT &g, int label) {
    unsigned int mask = g.__cuprite_mask();
    return coalesced_group(__match_any_sync(mask, label));
}
template <class GroupT>
__device__ coalesced_group binary_partition(const GroupT &g, bool pred) {
    unsigned int mask = g.__cuprite_mask();
    unsigned int yes = __ballot_sync(mask, pred);
    return coalesced_group(pred ? yes : (mask & ~yes));
}

/* The whole grid. sync() is the grid barrier of cooperative launches: on the CPU device
 * it ends a grid phase (every block runs up to it, keeping its threads' state, then all
 * go on). Outside a cooperative launch sync() ends the kernel with
 * cudaErrorLaunchFailure, and is_valid() is still true: both as measured on an H100
 * with CUDA 13. */
class grid_group {
public:
    __device__ bool is_valid() const { return true; }
    __device__ unsigned long long thread_rank() const {
        return (unsigned long long)block_rank() * __cuprite_cg::block_threads() + __cuprite_cg::block_rank();
    }
    __device__ unsigned long long size() const { return num_blocks() * __cuprite_cg::block_threads(); }
    __device__ unsigned long long num_threads() const { return size(); }
    __device__ unsigned long long num_blocks() const {
        return (unsigned long long)gridDim.x * gridDim.y * gridDim.z;
    }
    __device__ unsigned long long block_rank() const {
        return blockIdx.x + (unsigned long long)gridDim.x * (blockIdx.y + (unsigned long long)gridDim.y * blockIdx.z);
    }
    __device__ dim3 group_dim() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
    __device__ dim3 dim_blocks() const { return dim3(gridDim.x, gridDim.y, gridDim.z); }
    __device__ dim3 block_index() const { return dim3(blockIdx.x, blockIdx.y, blockIdx.z); }
    __device__ void sync() const { __cuprite_grid_sync(); }
};

__device__ __forceinline__ grid_group this_grid() { return grid_group(); }

/* cg::sync(g) for any group. */
template <class GroupT> __device__ void sync(const GroupT &g) { g.sync(); }

} // namespace cooperative_groups

#endif
