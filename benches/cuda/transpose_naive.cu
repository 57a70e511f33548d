// Matrix transpose of a 4096x4096 float matrix, 32x8 thread blocks each moving a 32x32 tile.
#include "../common/cuda_check.h"

#define N 4096
#define TILE 32
#define ROWS 8
#define REPS 4

// Naive: each thread reads one element and writes it transposed (the writes are strided).
__global__ void transpose_naive(const float *in, float *out, int n)
{
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[x * n + (y + j)] = in[(y + j) * n + x];
}

int main()
{
    size_t bytes = (size_t)N * N * sizeof(float);
    float *in = (float *)malloc(bytes), *out = (float *)malloc(bytes);
    uint32_t s = 11;
    for (size_t i = 0; i < (size_t)N * N; ++i) in[i] = (float)bench_below(&s, 1000);
    float *din, *dout;
    CHECK(cudaMalloc(&din, bytes));
    CHECK(cudaMalloc(&dout, bytes));
    CHECK(cudaMemcpy(din, in, bytes, cudaMemcpyHostToDevice));
    dim3 block(TILE, ROWS), grid(N / TILE, N / TILE);
    transpose_naive<<<grid, block>>>(din, dout, N); // warm-up
    BenchTimer t;
    t.begin();
    for (int r = 0; r < REPS; ++r)
        transpose_naive<<<grid, block>>>(din, dout, N);
    double ms = t.end();
    CHECK(cudaMemcpy(out, dout, bytes, cudaMemcpyDeviceToHost));
    int ok = 1;
    double sum = 0;
    for (int i = 0; i < N; ++i)
        for (int j = 0; j < N; ++j) {
            if (out[(size_t)j * N + i] != in[(size_t)i * N + j]) ok = 0;
            sum += out[(size_t)i * N + j] * (double)((i + 2 * j) % 13);
        }
    bench_report("transpose_naive", ms, sum, ok);
    return ok ? 0 : 1;
}
