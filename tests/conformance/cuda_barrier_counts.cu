// cuda::barrier beyond "every thread arrives once": expected counts smaller than the
// block, producer/consumer warps that wait for each other, arrive() tokens and
// wait(token), arrive(n), arrive_and_drop, a completion function, and a
// thread_scope_device barrier in global memory shared by the blocks of a cooperative
// launch. Expected output captured with nvcc 13 -arch=sm_90 on an NVIDIA H100.
#include <cstdio>
#include <cuda/barrier>
#include <cooperative_groups.h>
#include <utility>
#include <new>

struct CountPhases {
    int *count;
    __device__ void operator()() const { (*count)++; }
};

// Warp 0 produces a row per round into a double buffer; the other warps consume it.
// `full[b]` expects the 32 producers and all consumers; `empty[b]` likewise.
__global__ void producer_consumer(int *out, int nrounds) {
    __shared__ int buf[2][32];
    __shared__ cuda::barrier<cuda::thread_scope_block> full[2], empty[2];
    if (threadIdx.x == 0) {
        for (int b = 0; b < 2; b++) {
            init(&full[b], blockDim.x);
            init(&empty[b], blockDim.x);
        }
    }
    __syncthreads();
    long long acc = 0;
    for (int r = 0; r < nrounds; r++) {
        int b = r % 2;
        if (threadIdx.x < 32) {
            if (r >= 2) empty[b].arrive_and_wait(); // consumers are done with round r - 2
            buf[b][threadIdx.x] = r * 1000 + threadIdx.x * 7 + blockIdx.x;
            (void)full[b].arrive();
        } else {
            if (r >= 2) (void)empty[b].arrive();
            full[b].arrive_and_wait();
            acc += buf[b][(threadIdx.x * 5) % 32] * (r + 1);
        }
    }
    if (threadIdx.x >= 32) out[blockIdx.x * blockDim.x + threadIdx.x] = (int)(acc % 100000);
}

// 39 of 64 threads use a barrier expecting 40 arrivals: thread 0 arrives for two
// (arrive(2)) in every phase. Phase 0 and 1: 40 arrivals, thread 5 leaves in phase 1
// with arrive_and_drop; phase 2 expects 39. The completion function counts phases; the
// barrier is made with placement new in shared storage, as the programming guide shows
// for barriers with a completion function.
using counting_barrier = cuda::barrier<cuda::thread_scope_block, CountPhases>;
__global__ void counts(int *out, int *phases) {
    __shared__ alignas(counting_barrier) unsigned char storage[sizeof(counting_barrier)];
    __shared__ int stage[40];
    counting_barrier *bar = reinterpret_cast<counting_barrier *>(storage);
    if (threadIdx.x == 0) new (bar) counting_barrier(40, CountPhases{phases});
    __syncthreads();
    if (threadIdx.x >= 39) return;
    int n = threadIdx.x == 0 ? 2 : 1;
    stage[threadIdx.x] = threadIdx.x * 3 + 1;
    auto t = bar->arrive(n);
    bar->wait(std::move(t));
    int s = 0;
    for (int i = 0; i < 39; i++) s += stage[i];
    if (threadIdx.x == 5) {
        bar->arrive_and_drop();
        out[threadIdx.x] = s;
        return;
    }
    bar->wait(bar->arrive(n)); // everyone has read `stage`
    stage[threadIdx.x] += 1000;
    bar->wait(bar->arrive(n)); // 39 expected now
    int s2 = 0;
    for (int i = 0; i < 39; i++) s2 += stage[i];
    out[threadIdx.x] = s2 - s;
}

// A barrier in global memory that every thread of every block arrives at: the blocks
// of a cooperative launch are co-resident, so they may wait for each other.
__global__ void device_scope(cuda::barrier<cuda::thread_scope_device> *bar, int *data, int *out) {
    unsigned n = gridDim.x * blockDim.x, me = blockIdx.x * blockDim.x + threadIdx.x;
    if (me == 0) init(bar, n);
    cooperative_groups::this_grid().sync();
    data[me] = me * 2 + 1;
    bar->arrive_and_wait();
    out[me] = data[(me + 37) % n] - data[me];
}

int main() {
    int *out, *phases, *data;
    cudaMallocManaged(&out, 4096 * sizeof(int));
    cudaMallocManaged(&phases, sizeof(int));
    cudaMallocManaged(&data, 4096 * sizeof(int));
    producer_consumer<<<3, 96>>>(out, 7);
    printf("producer_consumer: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    for (int b = 0; b < 3; b++) printf("  block %d: %d %d %d\n", b, out[b * 96 + 32], out[b * 96 + 50], out[b * 96 + 95]);
    *phases = 0;
    counts<<<1, 64>>>(out, phases);
    printf("counts: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
    printf("  phases completed %d; sums %d %d %d %d %d\n", *phases, out[0], out[4], out[5], out[6], out[38]);
    cuda::barrier<cuda::thread_scope_device> *bar;
    cudaMalloc(&bar, sizeof *bar);
    void *args[] = {&bar, &data, &out};
    cudaError_t e = cudaLaunchCooperativeKernel((void *)device_scope, 4, 64, args, 0, 0);
    printf("device_scope: %s %s\n", cudaGetErrorString(e), cudaGetErrorString(cudaDeviceSynchronize()));
    int bad = 0;
    for (int i = 0; i < 256; i++) bad += out[i] != (int)(((i + 37) % 256) * 2 + 1) - (i * 2 + 1);
    printf("  mismatches %d, out[0] %d out[255] %d\n", bad, out[0], out[255]);
    return 0;
}
