#include <cstdio>
#include <optional>

template <typename... T>
__host__ __device__ constexpr int sum(T... v) { return (v + ... + 0); }

__global__ void fill(int *out) {
    if constexpr (sum(1, 2, 3) == 6) out[threadIdx.x] = sum(1, 2, 3) * int(threadIdx.x);
}

int main() {
    int *d;
    cudaMalloc(&d, 4 * sizeof(int));
    fill<<<1, 4>>>(d);
    int h[4];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    std::optional<int> last = h[3];
    std::printf("c++%ld: %d %d %d %d (last %d)\n", __cplusplus / 100 % 100, h[0], h[1], h[2], h[3], *last);
    return 0;
}
