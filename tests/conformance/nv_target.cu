// <nv/target>: NV_IF_TARGET, NV_IF_ELSE_TARGET and NV_DISPATCH_TARGET in host code,
// device code and __host__ __device__ functions, with the compute-capability queries
// (built with -arch=sm_90). Expected output captured from nvcc 13 on an H100.
#include <cstdio>
#include <nv/target>

__host__ __device__ int where() {
    NV_IF_ELSE_TARGET(NV_IS_DEVICE, (return 1;), (return 2;));
}

__host__ __device__ int newest() {
    NV_DISPATCH_TARGET(
        NV_PROVIDES_SM_100, (return 100;),
        NV_PROVIDES_SM_90, (return 90;),
        NV_PROVIDES_SM_80, (return 80;),
        NV_IS_HOST, (return -1;));
    return 0;
}

__host__ __device__ int exact() {
    int r = 0;
    NV_IF_TARGET(NV_IS_EXACTLY_SM_90, (r += 1;));
    NV_IF_TARGET(NV_IS_EXACTLY_SM_80, (r += 10;));
    NV_IF_TARGET(NV_ANY_TARGET, (r += 100;));
    NV_IF_TARGET(NV_NO_TARGET, (r += 1000;), (r += 10000;));
    NV_IF_TARGET(NV_IS_HOST, (r += 100000;), (r += 200000;));
    return r;
}

__global__ void probe(int *out) {
    out[0] = where();
    out[1] = newest();
    out[2] = exact();
    int a = 3, b = 4;
    NV_IF_TARGET(NV_PROVIDES_SM_70, (out[3] = a * b + 1;), (out[3] = -1;));
}

int main() {
    int *d, h[4];
    cudaMalloc(&d, sizeof h);
    probe<<<1, 1>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("device: where %d newest %d exact %d comma %d\n", h[0], h[1], h[2], h[3]);
    printf("host: where %d newest %d exact %d\n", where(), newest(), exact());
    cudaFree(d);
    return 0;
}
