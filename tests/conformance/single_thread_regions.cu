// Regions that one thread of each row of a block runs (`if (threadIdx.x == c)`), which
// Cuprite runs as their own thread loops over x = c only: halo loads of a 1D
// dynamic-programming row (pathfinder-like), c not a constant (blockDim.x - 1), a local
// set in the region and read after it, `if (threadIdx.x != 0) return;`, a 2D block (one
// thread per row of threads enters), and a comparison against a per-thread value (not
// such a region). Every result is checked against the host and printed.
// Expected output: nvcc 13.0 on an H100 (-arch=sm_90); each result is also checked
// against the host computation and prints "ok".
#include <climits>
#include <cstdio>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("error %d at %d\n", (int)e, __LINE__); return 1; } } while (0)
#define T 64

__global__ void dp_row(const int *wall, const int *prev, int *next, int cols)
{
    __shared__ int p[T + 2];
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    p[threadIdx.x + 1] = x < cols ? prev[x] : INT_MAX;
    if (threadIdx.x == 0)
        p[0] = x > 0 ? prev[x - 1] : INT_MAX;
    if (threadIdx.x == blockDim.x - 1)
        p[blockDim.x + 1] = x + 1 < cols ? prev[x + 1] : INT_MAX;
    __syncthreads();
    int best = min(p[threadIdx.x + 1], min(p[threadIdx.x], p[threadIdx.x + 2]));
    if (x < cols)
        next[x] = wall[x] + best;
}

__global__ void row_sums(const int *in, int *sums, int *flags, int w)
{
    __shared__ int rows[8][T];
    int tx = threadIdx.x, ty = threadIdx.y;
    rows[ty][tx] = in[(blockIdx.x * blockDim.y + ty) * w + tx];
    __syncthreads();
    int mine = -1;
    if (tx == 0) { // one thread per row of threads sums the row
        int s = 0;
        for (int k = 0; k < (int)blockDim.x; ++k)
            s += rows[ty][k];
        sums[blockIdx.x * blockDim.y + ty] = s;
        mine = s % 7;
    }
    // a per-thread comparison: every thread whose tx equals its row's first element
    if (tx == rows[ty][0] % (int)blockDim.x)
        flags[(blockIdx.x * blockDim.y + ty) * w + tx] = 2 + mine;
    __syncthreads();
    if (threadIdx.x != 0 || threadIdx.y != 0)
        return;
    flags[blockIdx.x * blockDim.y * w] += 1000;
}

int main()
{
    const int cols = 1000, rows = 20; // the last block is partial
    int *wall = new int[rows * cols], *a = new int[cols], *b = new int[cols];
    for (int i = 0; i < rows * cols; ++i) wall[i] = (i * 7919) % 10;
    int *dwall, *d0, *d1;
    CHECK(cudaMalloc(&dwall, rows * cols * sizeof(int)));
    CHECK(cudaMalloc(&d0, cols * sizeof(int)));
    CHECK(cudaMalloc(&d1, cols * sizeof(int)));
    CHECK(cudaMemcpy(dwall, wall, rows * cols * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(d0, wall, cols * sizeof(int), cudaMemcpyHostToDevice));
    for (int r = 1; r < rows; ++r) {
        dp_row<<<(cols + T - 1) / T, T>>>(dwall + r * cols, d0, d1, cols);
        int *t = d0; d0 = d1; d1 = t;
    }
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(b, d0, cols * sizeof(int), cudaMemcpyDeviceToHost));
    for (int x = 0; x < cols; ++x) a[x] = wall[x];
    for (int r = 1; r < rows; ++r) {
        int *n = new int[cols];
        for (int x = 0; x < cols; ++x) {
            int m = a[x];
            if (x > 0 && a[x - 1] < m) m = a[x - 1];
            if (x + 1 < cols && a[x + 1] < m) m = a[x + 1];
            n[x] = wall[r * cols + x] + m;
        }
        delete[] a;
        a = n;
    }
    int ok = 1;
    long long s = 0;
    for (int x = 0; x < cols; ++x) { ok &= a[x] == b[x]; s += (long long)b[x] * (x % 5 + 1); }
    printf("dp_row: checksum %lld b[0]=%d b[999]=%d %s\n", s, b[0], b[cols - 1], ok ? "ok" : "WRONG");

    // row_sums: 3 blocks of 64x8 threads over a 24x64 matrix.
    const int w = T, h = 24;
    int *in = new int[w * h], *sums = new int[h], *flags = new int[w * h];
    for (int i = 0; i < w * h; ++i) in[i] = (i * 31 + 7) % 97;
    int *din, *dsums, *dflags;
    CHECK(cudaMalloc(&din, w * h * sizeof(int)));
    CHECK(cudaMalloc(&dsums, h * sizeof(int)));
    CHECK(cudaMalloc(&dflags, w * h * sizeof(int)));
    CHECK(cudaMemcpy(din, in, w * h * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dflags, 0, w * h * sizeof(int)));
    row_sums<<<3, dim3(w, 8)>>>(din, dsums, dflags, w);
    CHECK(cudaMemcpy(sums, dsums, h * sizeof(int), cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(flags, dflags, w * h * sizeof(int), cudaMemcpyDeviceToHost));
    ok = 1;
    long long fs = 0;
    for (int y = 0; y < h; ++y) {
        int sum = 0;
        for (int x = 0; x < w; ++x) sum += in[y * w + x];
        ok &= sums[y] == sum;
        for (int x = 0; x < w; ++x) {
            int want = x == in[y * w] % w ? 2 + (x == 0 ? sum % 7 : -1) : 0;
            if (x == 0 && y % 8 == 0) want += 1000;
            ok &= flags[y * w + x] == want;
            fs += (long long)flags[y * w + x] * (x + 1);
        }
    }
    printf("row_sums: sums[0]=%d sums[23]=%d flags %lld %s\n", sums[0], sums[h - 1], fs, ok ? "ok" : "WRONG");
    return 0;
}
