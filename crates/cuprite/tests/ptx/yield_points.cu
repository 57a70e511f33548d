// A thread that waits at a cuda::barrier lets the block's other threads run: on the CPU
// the back-end marks the wait with a yield point, which the PTX back-end writes as
// `nanosleep.u32 0` (free on the GPU, a yield to Cuprite's PTX front-end).
#include <cuda/barrier>
__global__ void wait_for_all(int* out) {
    __shared__ cuda::barrier<cuda::thread_scope_block> bar;
    if (threadIdx.x == 0) init(&bar, blockDim.x);
    __syncthreads();
    out[threadIdx.x] = threadIdx.x;
    bar.arrive_and_wait();
    out[threadIdx.x] += out[(threadIdx.x + 1) % blockDim.x];
}
