// Launch latency: an empty kernel launched and synchronised 2000 times, each round trip
// timed on the host; reports the median in microseconds (and the mean of 10000 launches
// queued back to back with one synchronisation at the end).
#include <algorithm>
#include <chrono>
#include <vector>
#include "../common/cuda_check.h"

#define ROUNDS 2000
#define QUEUED 10000

__global__ void empty_kernel() {}

int main()
{
    empty_kernel<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    std::vector<double> us(ROUNDS);
    for (int r = 0; r < ROUNDS; ++r) {
        auto t0 = std::chrono::steady_clock::now();
        empty_kernel<<<1, 1>>>();
        CHECK(cudaDeviceSynchronize());
        us[r] = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count();
    }
    std::sort(us.begin(), us.end());
    auto t0 = std::chrono::steady_clock::now();
    for (int r = 0; r < QUEUED; ++r)
        empty_kernel<<<1, 1>>>();
    CHECK(cudaDeviceSynchronize());
    double queued = std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - t0).count() / QUEUED;
    CHECK(cudaGetLastError());
    printf("BENCH launch us=%.2f queued_us=%.2f\n", us[ROUNDS / 2], queued);
    return 0;
}
