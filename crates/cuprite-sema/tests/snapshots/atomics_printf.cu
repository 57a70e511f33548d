// Atomics on global and shared memory, and printf with a string literal.
__device__ unsigned counter;

__global__ void histogram(const unsigned char *data, unsigned *bins, int n) {
    __shared__ unsigned local[16];
    if (threadIdx.x < 16)
        local[threadIdx.x] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&local[data[i] & 15], 1u);
    __syncthreads();
    if (threadIdx.x < 16)
        atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
    unsigned old = atomicCAS(&counter, 0u, 1u);
    if (old == 0)
        printf("block %d done, \"first\" %f\n", blockIdx.x, 0.5);
}
