// Exclusive prefix sum of 2M ints: a work-efficient (up-sweep/down-sweep) scan of 512
// elements per block in shared memory, the block totals scanned recursively, then added
// back to each block.
#include "../common/cuda_check.h"

#define N (1 << 21)
#define THREADS 256
#define ELEMS (2 * THREADS)
#define REPS 1

__global__ void scan_blocks(const int *in, int *out, int *block_sums, int n)
{
    __shared__ int buf[ELEMS];
    int base = blockIdx.x * ELEMS, t = threadIdx.x;
    buf[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
    buf[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
    int offset = 1;
    for (int d = ELEMS / 2; d > 0; d >>= 1) { // up-sweep: partial sums in place
        __syncthreads();
        if (t < d) {
            int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
            buf[b] += buf[a];
        }
        offset *= 2;
    }
    if (t == 0) {
        if (block_sums) block_sums[blockIdx.x] = buf[ELEMS - 1];
        buf[ELEMS - 1] = 0;
    }
    for (int d = 1; d < ELEMS; d *= 2) { // down-sweep
        offset >>= 1;
        __syncthreads();
        if (t < d) {
            int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
            int x = buf[a];
            buf[a] = buf[b];
            buf[b] += x;
        }
    }
    __syncthreads();
    if (base + 2 * t < n) out[base + 2 * t] = buf[2 * t];
    if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = buf[2 * t + 1];
}

__global__ void add_block_offsets(int *out, const int *offsets, int n)
{
    int i = blockIdx.x * ELEMS + threadIdx.x;
    int add = offsets[blockIdx.x];
    if (i < n) out[i] += add;
    if (i + THREADS < n) out[i + THREADS] += add;
}

// Scratch for each level's block totals, allocated once before timing.
static int *level_sums[8], *level_scans[8];

static void scan(const int *in, int *out, int n, int level)
{
    int blocks = (n + ELEMS - 1) / ELEMS;
    if (blocks == 1) {
        scan_blocks<<<1, THREADS>>>(in, out, nullptr, n);
        return;
    }
    scan_blocks<<<blocks, THREADS>>>(in, out, level_sums[level], n);
    scan(level_sums[level], level_scans[level], blocks, level + 1);
    add_block_offsets<<<blocks, THREADS>>>(out, level_scans[level], n);
}

int main()
{
    int *h = (int *)malloc(N * sizeof(int)), *got = (int *)malloc(N * sizeof(int));
    uint32_t s = 13;
    for (int i = 0; i < N; ++i) h[i] = (int)bench_below(&s, 10);
    int *din, *dout;
    CHECK(cudaMalloc(&din, N * sizeof(int)));
    CHECK(cudaMalloc(&dout, N * sizeof(int)));
    CHECK(cudaMemcpy(din, h, N * sizeof(int), cudaMemcpyHostToDevice));
    for (int n = N, l = 0; n > 1; n = (n + ELEMS - 1) / ELEMS, ++l) {
        CHECK(cudaMalloc(&level_sums[l], ((n + ELEMS - 1) / ELEMS) * sizeof(int)));
        CHECK(cudaMalloc(&level_scans[l], ((n + ELEMS - 1) / ELEMS) * sizeof(int)));
    }
    scan(din, dout, N, 0); // warm-up
    BenchTimer t;
    t.begin();
    for (int r = 0; r < REPS; ++r)
        scan(din, dout, N, 0);
    double ms = t.end();
    CHECK(cudaMemcpy(got, dout, N * sizeof(int), cudaMemcpyDeviceToHost));
    int ok = 1, run = 0;
    double sum = 0;
    for (int i = 0; i < N; ++i) {
        if (got[i] != run) ok = 0;
        run += h[i];
        sum += (double)got[i] * (i % 3);
    }
    bench_report("scan", ms, sum, ok);
    return ok ? 0 : 1;
}
