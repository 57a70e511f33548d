/* mma.h (Cuprite): the warp matrix functions (nvcuda::wmma), written from the CUDA
 * Programming Guide's "Warp Matrix Functions" section.
 *
 * A fragment holds its tile spread over the 32 lanes of the warp: element e of lane l is
 * the tile's element number e * 32 + l in row-major order (the guide leaves the mapping
 * unspecified; it only has to be the same for every fragment of one kind, so element-wise
 * code over `x[]` works). mma_sync gathers the warp's A and B tiles in a scratch buffer
 * from the device heap (taken by lane 0 and handed to the others with a shuffle), so every
 * lane can compute its own elements of D; each product is exact and the sums run in
 * float (double for double, 32-bit integer for 8-bit integer inputs), one k after the
 * other: the tensor cores' order of summation differs, so low bits may differ from a GPU.
 * tf32 inputs use only the 19 bits the format has, as the tensor cores do.
 *
 * Shapes and types: m16n16k16, m32n8k16, m8n32k16 with half or bf16 inputs (float or half
 * accumulators) and signed/unsigned char inputs (int accumulators); m16n16k8 with tf32
 * inputs (float accumulators); m8n8k4 with double. The sub-byte experimental types
 * (u4, s4, b1) and bmma_sync are refused at compile time. */
#ifndef __CUDA_MMA_H__
#define __CUDA_MMA_H__

#include <cuda_fp16.h>
#include <cuda_bf16.h>

namespace nvcuda {
namespace wmma {

struct row_major;
struct col_major;
struct matrix_a;
struct matrix_b;
struct accumulator;

namespace precision {
struct tf32;
}
namespace experimental {
namespace precision {
struct u4;
struct s4;
struct b1;
}
enum bmmaBitOp { bmmaBitOpXOR = 1, bmmaBitOpAND = 2 };
enum bmmaAccumulateOp { bmmaAccumulateOpPOPC = 1 };
}

enum layout_t { mem_row_major, mem_col_major };

/* The tile a fragment holds, its storage type and the type mma_sync computes in. */
template <class Use, int M, int N, int K> struct __tile_shape;
template <int M, int N, int K> struct __tile_shape<matrix_a, M, N, K> {
    static const int rows = M, cols = K;
};
template <int M, int N, int K> struct __tile_shape<matrix_b, M, N, K> {
    static const int rows = K, cols = N;
};
template <int M, int N, int K> struct __tile_shape<accumulator, M, N, K> {
    static const int rows = M, cols = N;
};

template <class T> struct __element {
    typedef T storage;
    typedef T compute;
};
template <> struct __element<__half> {
    typedef __half storage;
    typedef float compute;
};
template <> struct __element<__nv_bfloat16> {
    typedef __nv_bfloat16 storage;
    typedef float compute;
};
template <> struct __element<precision::tf32> {
    typedef float storage;
    typedef float compute;
};
template <> struct __element<signed char> {
    typedef signed char storage;
    typedef int compute;
};
template <> struct __element<unsigned char> {
    typedef unsigned char storage;
    typedef int compute;
};
template <class T> struct __sub_byte {
    static const bool value = false;
};
template <> struct __sub_byte<experimental::precision::u4> {
    static const bool value = true;
};
template <> struct __sub_byte<experimental::precision::s4> {
    static const bool value = true;
};
template <> struct __sub_byte<experimental::precision::b1> {
    static const bool value = true;
};

template <class Use, int M, int N, int K, class T, class Layout = void> class fragment {
    static_assert(!__sub_byte<T>::value, "wmma: the experimental sub-byte and single-bit types (u4, s4, b1) are not supported by Cuprite yet");

public:
    typedef typename __element<T>::storage storage_element_type;
    typedef storage_element_type element_type;
    static const int num_rows = __tile_shape<Use, M, N, K>::rows;
    static const int num_cols = __tile_shape<Use, M, N, K>::cols;
    static const int num_elements = num_rows * num_cols / 32;
    storage_element_type x[num_rows * num_cols / 32];
};

/* Where element e of this lane sits in the row-major tile. */
__device__ inline unsigned int __lane_index(int e) { return (unsigned int)e * 32u + (threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z)) % 32u; }

template <class Use, int M, int N, int K, class T, class Layout, class V>
__device__ inline void fill_fragment(fragment<Use, M, N, K, T, Layout> &f, const V &v) {
    for (int e = 0; e < f.num_elements; e++) f.x[e] = v;
}

template <class P> __device__ inline P __at(const P *p, unsigned int r, unsigned int c, unsigned ldm, bool row) { return row ? p[r * ldm + c] : p[c * ldm + r]; }

/* Loads of A and B: their layout is part of the type. */
template <class Use, int M, int N, int K, class T, class P>
__device__ inline void load_matrix_sync(fragment<Use, M, N, K, T, row_major> &f, const P *p, unsigned ldm) {
    for (int e = 0; e < f.num_elements; e++) {
        unsigned int i = __lane_index(e);
        f.x[e] = p[(i / f.num_cols) * ldm + i % f.num_cols];
    }
}
template <class Use, int M, int N, int K, class T, class P>
__device__ inline void load_matrix_sync(fragment<Use, M, N, K, T, col_major> &f, const P *p, unsigned ldm) {
    for (int e = 0; e < f.num_elements; e++) {
        unsigned int i = __lane_index(e);
        f.x[e] = p[(i % f.num_cols) * ldm + i / f.num_cols];
    }
}
/* Loads and stores of accumulators: the layout is an argument. */
template <int M, int N, int K, class T, class P>
__device__ inline void load_matrix_sync(fragment<accumulator, M, N, K, T, void> &f, const P *p, unsigned ldm, layout_t layout) {
    for (int e = 0; e < f.num_elements; e++) {
        unsigned int i = __lane_index(e), r = i / f.num_cols, c = i % f.num_cols;
        f.x[e] = layout == mem_row_major ? p[r * ldm + c] : p[c * ldm + r];
    }
}
template <int M, int N, int K, class T, class P>
__device__ inline void store_matrix_sync(P *p, const fragment<accumulator, M, N, K, T, void> &f, unsigned ldm, layout_t layout) {
    for (int e = 0; e < f.num_elements; e++) {
        unsigned int i = __lane_index(e), r = i / f.num_cols, c = i % f.num_cols;
        if (layout == mem_row_major) p[r * ldm + c] = f.x[e];
        else p[c * ldm + r] = f.x[e];
    }
}

/* A tf32 value as the tensor cores read it: the low 13 bits of the mantissa dropped. */
__device__ inline float __tf32_bits(float v) { return __int_as_float(__float_as_int(v) & (int)0xffffe000); }
template <class T, class C> __device__ inline C __operand(const T &v) { return (C)v; }
template <> __device__ inline float __operand<__half, float>(const __half &v) { return __half2float(v); }
template <> __device__ inline float __operand<__nv_bfloat16, float>(const __nv_bfloat16 &v) { return __bfloat162float(v); }

/* The operand value mma_sync uses, by input type. */
template <class T> struct __mma_input {
    template <class S> __device__ static typename __element<T>::compute get(const S &v) { return __operand<S, typename __element<T>::compute>(v); }
};
template <> struct __mma_input<precision::tf32> {
    __device__ static float get(float v) { return __tf32_bits(v); }
};

template <class Acc, class Compute> __device__ inline Acc __mma_result(Compute v, bool satf) { return (Acc)v; }
template <> __device__ inline int __mma_result<int, long long>(long long v, bool satf) {
    if (satf) return v < -2147483647LL - 1 ? (int)(-2147483647 - 1) : v > 2147483647LL ? 2147483647 : (int)v;
    return (int)(unsigned int)(unsigned long long)v;
}
template <class Compute> struct __wide {
    typedef Compute type;
};
template <> struct __wide<int> {
    typedef long long type;
};

template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class TD>
__device__ inline void __mma(fragment<accumulator, M, N, K, TD, void> &d, const fragment<matrix_a, M, N, K, TA, LA> &a, const fragment<matrix_b, M, N, K, TB, LB> &b,
                             const fragment<accumulator, M, N, K, TC, void> &c, bool satf) {
    typedef typename __element<TA>::compute Compute;
    typedef typename __wide<Compute>::type Sum;
    const int a_count = M * K, b_count = K * N;
    unsigned long long scratch = 0;
    if (__lane_index(0) == 0) scratch = (unsigned long long)malloc(sizeof(Compute) * (a_count + b_count));
    scratch = __shfl_sync(0xffffffffu, scratch, 0);
    if (scratch == 0) __trap(); /* the device heap is exhausted (cudaLimitMallocHeapSize) */
    Compute *as = (Compute *)scratch, *bs = as + a_count;
    for (int e = 0; e < a.num_elements; e++) as[__lane_index(e)] = __mma_input<TA>::get(a.x[e]);
    for (int e = 0; e < b.num_elements; e++) bs[__lane_index(e)] = __mma_input<TB>::get(b.x[e]);
    __syncwarp();
    for (int e = 0; e < d.num_elements; e++) {
        unsigned int i = __lane_index(e), r = i / N, col = i % N;
        Sum acc = (Sum)__operand<TC, Compute>(c.x[e]);
        for (int k = 0; k < K; k++) acc += (Sum)as[r * K + k] * (Sum)bs[k * N + col];
        d.x[e] = __mma_result<TD, Sum>(acc, satf);
    }
    __syncwarp();
    if (__lane_index(0) == 0) free(as);
}

template <int M, int N, int K, class TA, class LA, class TB, class LB, class TC, class TD>
__device__ inline void mma_sync(fragment<accumulator, M, N, K, TD, void> &d, const fragment<matrix_a, M, N, K, TA, LA> &a, const fragment<matrix_b, M, N, K, TB, LB> &b,
                                const fragment<accumulator, M, N, K, TC, void> &c) {
    __mma(d, a, b, c, false);
}
/* Integer inputs take satf (saturate to the int range), as in CUDA 13. */
template <int M, int N, int K, class TA, class LA, class TB, class LB>
__device__ inline void mma_sync(fragment<accumulator, M, N, K, int, void> &d, const fragment<matrix_a, M, N, K, TA, LA> &a, const fragment<matrix_b, M, N, K, TB, LB> &b,
                                const fragment<accumulator, M, N, K, int, void> &c, bool satf) {
    __mma(d, a, b, c, satf);
}

__device__ inline float __float_to_tf32(float in) {
    /* Round to nearest, ties away from zero, to 10 mantissa bits (cvt.rna.tf32.f32). */
    unsigned int u = (unsigned int)__float_as_int(in);
    if ((u & 0x7f800000u) == 0x7f800000u) return in; /* Inf and NaN as they are */
    return __int_as_float((int)((u + 0x1000u) & 0xffffe000u));
}

namespace experimental {
template <class... Ts> __device__ inline void bmma_sync(Ts &...) {
    static_assert(sizeof...(Ts) == 0, "wmma: bmma_sync (single-bit matrix multiply) is not supported by Cuprite yet");
}
}

} // namespace wmma
} // namespace nvcuda

#endif
