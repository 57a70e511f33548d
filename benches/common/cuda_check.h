// CUDA-side helpers of the benchmark suite: stop on any runtime error, and time a section
// with events (the section's launches are followed by cudaEventSynchronize).
#ifndef CUPRITE_BENCH_CUDA_CHECK_H
#define CUPRITE_BENCH_CUDA_CHECK_H
#include <cuda_runtime.h>
#include "bench.h"

#define CHECK(call)                                                                    \
    do {                                                                               \
        cudaError_t err_ = (call);                                                     \
        if (err_ != cudaSuccess) {                                                     \
            fprintf(stderr, "%s:%d: %s\n", __FILE__, __LINE__, cudaGetErrorString(err_)); \
            exit(1);                                                                   \
        }                                                                              \
    } while (0)

struct BenchTimer {
    cudaEvent_t start, stop;
    BenchTimer() { CHECK(cudaEventCreate(&start)); CHECK(cudaEventCreate(&stop)); }
    void begin() { CHECK(cudaDeviceSynchronize()); CHECK(cudaEventRecord(start)); }
    // Milliseconds since begin(), after every launch in between has finished.
    double end()
    {
        CHECK(cudaGetLastError());
        CHECK(cudaEventRecord(stop));
        CHECK(cudaEventSynchronize(stop));
        CHECK(cudaDeviceSynchronize());
        float ms = 0;
        CHECK(cudaEventElapsedTime(&ms, start, stop));
        return ms;
    }
};
#endif
