// Seeded bug: the "last block" reduction of the CUDA guide's __threadfence() example,
// without the fence. Atomics are relaxed in CUDA's memory model (atomicInc, and
// libcu++'s fetch_add with memory_order_relaxed): taking a ticket orders nothing before
// it, so the last block may read a partial sum whose write is not visible yet
// (racecheck, global memory: Cuprite only). relaxed_ticket_fenced.cu is the correct pair.
#include <cstdio>
#include <cuda/atomic>
#include <cuda_runtime.h>

__device__ unsigned int ticket = 0;
__device__ unsigned int ticket_ref = 0;

__global__ void sum(const int *in, int *partial, int *result) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = in[blockIdx.x];
        unsigned int my = atomicInc(&ticket, gridDim.x);
        last = (my == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int acc = 0;
        for (unsigned int b = 0; b < gridDim.x; b++)
            acc += partial[b];
        *result = acc;
    }
}

__global__ void sum_ref(const int *in, int *partial, int *result) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = in[blockIdx.x];
        cuda::atomic_ref<unsigned int, cuda::thread_scope_device> t(ticket_ref);
        unsigned int my = t.fetch_add(1, cuda::std::memory_order_relaxed);
        last = (my == gridDim.x - 1);
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        int acc = 0;
        for (unsigned int b = 0; b < gridDim.x; b++)
            acc += partial[b];
        *result = acc;
    }
}

int main() {
    const int blocks = 16;
    int h[blocks], *in, *partial, *result;
    for (int i = 0; i < blocks; i++)
        h[i] = i + 1;
    cudaMalloc(&in, sizeof h);
    cudaMalloc(&partial, sizeof h);
    cudaMalloc(&result, sizeof(int));
    cudaMemcpy(in, h, sizeof h, cudaMemcpyHostToDevice);
    cudaMemset(partial, 0, sizeof h);
    cudaMemset(result, 0, sizeof(int));
    sum<<<blocks, 64>>>(in, partial, result);
    printf("sum: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    int r = 0;
    cudaMemcpy(&r, result, sizeof r, cudaMemcpyDeviceToHost);
    printf("sum is at most 136: %s\n", r <= 136 ? "yes" : "no");
    sum_ref<<<blocks, 64>>>(in, partial, result);
    printf("sum_ref: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaMemcpy(&r, result, sizeof r, cudaMemcpyDeviceToHost);
    printf("sum_ref is at most 136: %s\n", r <= 136 ? "yes" : "no");
    cudaFree(in);
    cudaFree(partial);
    cudaFree(result);
    return 0;
}
