// Correct pair of relaxed_ticket_race.cu: the "last block" reduction of the CUDA guide's
// __threadfence() example. The tickets are relaxed atomics, and fences order the partial
// sums before them: __threadfence() (the guide's form, whose last block reads after
// __syncthreads()), and libcu++'s release and acquire fences around a relaxed fetch_add.
// racecheck must report nothing.
#include <cstdio>
#include <cuda/atomic>
#include <cuda_runtime.h>

__device__ unsigned int ticket = 0;
__device__ unsigned int ticket_ref = 0;

__global__ void sum(const int *in, int *partial, int *result) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = in[blockIdx.x];
        __threadfence();
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
    if (threadIdx.x != 0)
        return;
    partial[blockIdx.x] = in[blockIdx.x];
    cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device);
    cuda::atomic_ref<unsigned int, cuda::thread_scope_device> t(ticket_ref);
    unsigned int my = t.fetch_add(1, cuda::std::memory_order_relaxed);
    if (my == gridDim.x - 1) {
        cuda::atomic_thread_fence(cuda::std::memory_order_acquire, cuda::thread_scope_device);
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
    printf("sum: %d\n", r);
    sum_ref<<<blocks, 64>>>(in, partial, result);
    printf("sum_ref: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaMemcpy(&r, result, sizeof r, cudaMemcpyDeviceToHost);
    printf("sum_ref: %d\n", r);
    cudaFree(in);
    cudaFree(partial);
    cudaFree(result);
    return 0;
}
