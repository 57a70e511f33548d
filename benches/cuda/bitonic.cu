// Bitonic sort of 1M unsigned ints: the sorting network of log2(n)(log2(n)+1)/2 stages, one
// launch per stage; each thread owns one element and compares it with its partner i^j.
#include "../common/cuda_check.h"

#define N (1 << 20)

__global__ void bitonic_stage(unsigned int *a, int j, int k)
{
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int partner = i ^ j;
    if (partner > i) {
        unsigned int x = a[i], y = a[partner];
        bool ascending = (i & k) == 0;
        if ((x > y) == ascending) {
            a[i] = y;
            a[partner] = x;
        }
    }
}

int main()
{
    unsigned int *h = (unsigned int *)malloc(N * sizeof(unsigned int)), *got = (unsigned int *)malloc(N * sizeof(unsigned int));
    uint32_t s = 41;
    double want = 0;
    for (int i = 0; i < N; ++i) {
        h[i] = bench_rand(&s);
        want += h[i];
    }
    unsigned int *d;
    CHECK(cudaMalloc(&d, N * sizeof(unsigned int)));
    CHECK(cudaMemcpy(d, h, N * sizeof(unsigned int), cudaMemcpyHostToDevice));
    bitonic_stage<<<N / 256, 256>>>(d, 1, 2); // warm-up (one stage; the input stays a permutation)
    CHECK(cudaMemcpy(d, h, N * sizeof(unsigned int), cudaMemcpyHostToDevice));
    BenchTimer t;
    t.begin();
    for (int k = 2; k <= N; k <<= 1)
        for (int j = k >> 1; j > 0; j >>= 1)
            bitonic_stage<<<N / 256, 256>>>(d, j, k);
    double ms = t.end();
    CHECK(cudaMemcpy(got, d, N * sizeof(unsigned int), cudaMemcpyDeviceToHost));
    int ok = 1;
    double sum = 0, weighted = 0;
    for (int i = 0; i < N; ++i) {
        if (i > 0 && got[i - 1] > got[i]) ok = 0;
        sum += got[i];
        weighted += (double)got[i] * (i % 7);
    }
    if (sum != want) ok = 0;
    bench_report("bitonic", ms, weighted, ok);
    return ok ? 0 : 1;
}
