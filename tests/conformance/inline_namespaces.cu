// Inline namespaces (as libcu++ and CUB declare everything: `cuda::std::__4::`):
// members found through the enclosing namespace and through the inline one's own
// name, class and function templates, nested inline namespaces, one at file scope,
// and a kernel declared inside one (its symbol keeps the inline namespace's name,
// which the host's launch must match).
// Expected output captured from nvcc 13 (-arch=sm_90) on an H100.
#include <cstdio>

namespace lib {
inline namespace v2 {
template <class T> struct Box {
    T v;
    __device__ T twice() const { return v + v; }
};
struct Plain { int w; };
__device__ int scale(int x) { return 3 * x; }
template <class T> __device__ T add(T a, T b) { return a + b; }
inline namespace detail {
__device__ int deep(int x) { return x - 1; }
template <int N> struct Fixed { static constexpr int value = N * 10; };
}  // namespace detail
__global__ void fill(int* out, int base) { out[threadIdx.x] = scale(base + (int)threadIdx.x); }
}  // namespace v2
__device__ int user() { return scale(2) + deep(5); }  // unqualified, from the enclosing namespace
}  // namespace lib

inline namespace top {
__device__ int at_file_scope(int x) { return x * x; }
}

__global__ void probe(int* out) {
    lib::Box<int> a{7};
    lib::v2::Box<int> b{8};
    lib::Plain p{9};
    lib::v2::Plain q{10};
    out[0] = a.twice();
    out[1] = b.twice();
    out[2] = p.w + q.w;
    out[3] = lib::scale(4);
    out[4] = lib::v2::scale(5);
    out[5] = lib::add(1, 2);
    out[6] = lib::v2::add<int>(3, 4);
    out[7] = lib::deep(100);
    out[8] = lib::v2::detail::deep(200);
    out[9] = lib::Fixed<4>::value;
    out[10] = lib::v2::detail::Fixed<5>::value;
    out[11] = lib::user();
    out[12] = at_file_scope(6);
    out[13] = top::at_file_scope(7);
}

int main() {
    int* d;
    cudaMalloc(&d, 32 * sizeof(int));
    probe<<<1, 1>>>(d);
    int h[32];
    cudaMemcpy(h, d, 14 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 14; i++) printf("%d ", h[i]);
    printf("\n");
    lib::fill<<<1, 4>>>(d, 10);
    lib::v2::fill<<<1, 4>>>(d + 4, 20);
    cudaMemcpy(h, d, 8 * sizeof(int), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 8; i++) printf("%d ", h[i]);
    printf("\n%s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
