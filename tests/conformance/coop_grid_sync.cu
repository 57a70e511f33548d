// Grid-wide synchronization in cooperative launches: a multi-phase grid reduction
// (three grid.sync() per round, shared memory and per-thread values kept across them)
// on the largest co-resident grid (cudaOccupancyMaxActiveBlocksPerMultiprocessor ×
// multiProcessorCount: more blocks than the CPU device has workers), launched with
// cudaLaunchCooperativeKernel and with cudaLaunchKernelEx + cudaLaunchAttributeCooperative;
// cg::sync(grid) and this_grid().sync(); grid_group::is_valid() in cooperative and
// plain launches; cudaDevAttrCooperativeLaunch; a grid one block too large
// (cudaErrorCooperativeLaunchTooLarge).
// Expected output captured with nvcc 13 -arch=sm_90 on an NVIDIA H100.
#include <cstdio>
#include <cooperative_groups.h>
namespace cg = cooperative_groups;

#define CHECK(x)                                                                     \
    do {                                                                             \
        cudaError_t e = (x);                                                         \
        if (e != cudaSuccess) {                                                      \
            printf("%s failed: %s\n", #x, cudaGetErrorString(e));                   \
            return 1;                                                                \
        }                                                                            \
    } while (0)

// Each round: every block sums its grid-stride share into sums[block]; after a grid
// barrier thread 0 of the grid adds the block sums; after another every thread reads
// the total and rewrites its share of the data; a third barrier ends the round.
__global__ void rounds(int *data, long long *sums, long long *totals, int n, int nrounds) {
    cg::grid_group grid = cg::this_grid();
    __shared__ long long partial[256];
    long long mine = 0; // a per-thread value that lives across every grid barrier
    for (int r = 0; r < nrounds; r++) {
        long long s = 0;
        for (int i = grid.thread_rank(); i < n; i += grid.size()) s += data[i];
        partial[threadIdx.x] = s;
        __syncthreads();
        for (int k = blockDim.x / 2; k > 0; k /= 2) {
            if (threadIdx.x < k) partial[threadIdx.x] += partial[threadIdx.x + k];
            __syncthreads();
        }
        if (threadIdx.x == 0) sums[blockIdx.x] = partial[0];
        grid.sync();
        if (grid.thread_rank() == 0) {
            long long t = 0;
            for (int b = 0; b < gridDim.x; b++) t += sums[b];
            totals[r] = t;
        }
        cg::sync(grid);
        long long total = totals[r];
        mine += total % 10 + r;
        for (int i = grid.thread_rank(); i < n; i += grid.size()) data[i] = (int)((data[i] * 3 + total) % 1001);
        cg::this_grid().sync();
    }
    if (grid.thread_rank() == grid.size() - 1) totals[nrounds] = mine;
}

__global__ void validity(int *out) {
    cg::grid_group g = cg::this_grid();
    if (g.thread_rank() == 0) *out = g.is_valid() ? 1 : 0;
}

static void reference(int *h, int n, int nrounds, long long *totals) {
    long long mine = 0;
    for (int r = 0; r < nrounds; r++) {
        long long t = 0;
        for (int i = 0; i < n; i++) t += h[i];
        totals[r] = t;
        mine += t % 10 + r;
        for (int i = 0; i < n; i++) h[i] = (int)((h[i] * 3 + t) % 1001);
    }
    totals[nrounds] = mine;
}

int main() {
    const int n = 100000, nrounds = 4, threads = 256;
    int attr = 0, perSm = 0, sms = 0;
    CHECK(cudaDeviceGetAttribute(&attr, cudaDevAttrCooperativeLaunch, 0));
    printf("cudaDevAttrCooperativeLaunch %d\n", attr);
    CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
    CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&perSm, rounds, threads, 0));
    int blocks = perSm * sms;
    printf("co-resident grid of more than one block per multiprocessor: %s\n", perSm > 1 ? "yes" : "no");

    int *h = new int[n], *d;
    long long *sums, *totals, ref[nrounds + 1], got[nrounds + 1];
    for (int i = 0; i < n; i++) h[i] = (i * 37) % 101;
    CHECK(cudaMalloc(&d, n * sizeof(int)));
    CHECK(cudaMalloc(&sums, blocks * sizeof(long long)));
    CHECK(cudaMalloc(&totals, (nrounds + 1) * sizeof(long long)));
    CHECK(cudaMemcpy(d, h, n * sizeof(int), cudaMemcpyHostToDevice));
    int nn = n, nr = nrounds;
    void *args[] = {&d, &sums, &totals, &nn, &nr};
    CHECK(cudaLaunchCooperativeKernel((void *)rounds, blocks, threads, args, 0, 0));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got, totals, sizeof got, cudaMemcpyDeviceToHost));
    reference(h, n, nrounds, ref);
    for (int r = 0; r < nrounds; r++) printf("round %d: total %lld (%s)\n", r, got[r], got[r] == ref[r] ? "ok" : "WRONG");
    printf("per-thread value across barriers: %lld (%s)\n", got[nrounds], got[nrounds] == ref[nrounds] ? "ok" : "WRONG");

    // The same kernel through cudaLaunchKernelEx with the cooperative attribute, on
    // half the co-resident grid, continuing from the data left by the first launch.
    cudaLaunchConfig_t cfg = {};
    cudaLaunchAttribute attrs[1];
    attrs[0].id = cudaLaunchAttributeCooperative;
    attrs[0].val.cooperative = 1;
    cfg.gridDim = dim3((blocks + 1) / 2);
    cfg.blockDim = dim3(threads);
    cfg.attrs = attrs;
    cfg.numAttrs = 1;
    CHECK(cudaLaunchKernelEx(&cfg, rounds, d, sums, totals, n, 2));
    CHECK(cudaDeviceSynchronize());
    CHECK(cudaMemcpy(got, totals, 3 * sizeof(long long), cudaMemcpyDeviceToHost));
    reference(h, n, 2, ref);
    printf("cudaLaunchKernelEx: totals %lld %lld, per-thread %lld (%s)\n", got[0], got[1], got[2],
           got[0] == ref[0] && got[1] == ref[1] && got[2] == ref[2] ? "ok" : "WRONG");

    int *valid;
    CHECK(cudaMallocManaged(&valid, sizeof(int)));
    *valid = -1;
    validity<<<2, 64>>>(valid);
    CHECK(cudaDeviceSynchronize());
    printf("is_valid in a <<<>>> launch: %d\n", *valid);
    void *vargs[] = {&valid};
    *valid = -1;
    CHECK(cudaLaunchCooperativeKernel((void *)validity, 2, 64, vargs, 0, 0));
    CHECK(cudaDeviceSynchronize());
    printf("is_valid in a cooperative launch: %d\n", *valid);
    *valid = -1;
    cfg.gridDim = dim3(3);
    cfg.blockDim = dim3(32);
    CHECK(cudaLaunchKernelEx(&cfg, validity, valid));
    CHECK(cudaDeviceSynchronize());
    printf("is_valid with cudaLaunchAttributeCooperative: %d\n", *valid);
    attrs[0].val.cooperative = 0;
    *valid = -1;
    CHECK(cudaLaunchKernelEx(&cfg, validity, valid));
    CHECK(cudaDeviceSynchronize());
    printf("is_valid with the attribute set to 0: %d\n", *valid);

    cudaError_t e = cudaLaunchCooperativeKernel((void *)rounds, blocks + 1, threads, args, 0, 0);
    printf("one block more than co-resident: %s\n", cudaGetErrorName(e));
    printf("cudaGetLastError: %s\n", cudaGetErrorName(cudaGetLastError()));
    e = cudaLaunchCooperativeKernel((void *)rounds, blocks, threads, args, 0, 0);
    printf("co-resident grid again: %s %s\n", cudaGetErrorName(e), cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
