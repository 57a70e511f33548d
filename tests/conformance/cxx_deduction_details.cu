// C++ details that real device code (mma.h-style libraries) relies on: a static data
// member read through an object; deduction against a class template whose trailing
// arguments are defaults; a namespace's function template deducing from its own
// namespace's class template when called from outside; overloads of one function
// template that differ only in a parameter type's template argument; a conditional of
// one enumeration type keeps that type; a C-style cast to a class constructs it.
// Expected output from nvcc 13 on an H100.
#include <cstdio>

namespace lib {
struct row;
struct col;
enum layout { by_row, by_col };
template <class Use, int N, class T, class Layout = void> struct tile {
    static const int count = N * 2;
    T x[N];
};
template <class Use, int N, class T> __device__ int kind_of(const tile<Use, N, T, row> &) { return 1; }
template <class Use, int N, class T> __device__ int kind_of(const tile<Use, N, T, col> &) { return 2; }
template <class Use, int N, class T> __device__ int kind_of(const tile<Use, N, T> &) { return 3; }
template <class Use, int N, class T> __device__ T total(const tile<Use, N, T> &t) {
    T s = 0;
    for (int i = 0; i < t.count / 2; i++) s += t.x[i];
    return s;
}
__device__ int layout_code(layout l) { return l == by_row ? 10 : 20; }
__device__ int layout_code(int) { return 30; }
}

struct fixed {
    int v;
    __device__ fixed(float f) : v((int)(f * 256.0f)) {}
};

__global__ void k(int *out) {
    lib::tile<int, 4, float, lib::row> r;
    lib::tile<int, 4, float, lib::col> c;
    lib::tile<int, 4, float> d;
    for (int i = 0; i < 4; i++) d.x[i] = i + 0.5f;
    out[0] = r.count;
    out[1] = lib::kind_of(r) * 100 + lib::kind_of(c) * 10 + lib::kind_of(d);
    out[2] = (int)lib::total(d);
    bool flag = threadIdx.x == 0;
    out[3] = lib::layout_code(flag ? lib::by_col : lib::by_row);
    fixed f = (fixed)1.5f;
    out[4] = f.v;
}

int main() {
    int *out;
    cudaMallocManaged(&out, 5 * sizeof(int));
    k<<<1, 1>>>(out);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s: count %d kinds %d total %d layout %d fixed %d\n", cudaGetErrorString(e), out[0], out[1], out[2], out[3], out[4]);
    return 0;
}
