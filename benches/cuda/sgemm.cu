// Tiled SGEMM, C = A * B for 512x512 matrices: 16x16 tiles of A and B staged in shared
// memory, one output element per thread.
#include "../common/cuda_check.h"

#define N 512
#define TILE 16
#define REPS 1

__global__ void sgemm_tiled(const float *A, const float *B, float *C, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y;
    int col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < n / TILE; ++t) {
        As[threadIdx.y][threadIdx.x] = A[row * n + t * TILE + threadIdx.x];
        Bs[threadIdx.y][threadIdx.x] = B[(t * TILE + threadIdx.y) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    C[row * n + col] = acc;
}

int main()
{
    size_t bytes = (size_t)N * N * sizeof(float);
    float *A = (float *)malloc(bytes), *B = (float *)malloc(bytes), *C = (float *)malloc(bytes);
    uint32_t s = 3;
    for (int i = 0; i < N * N; ++i) A[i] = (float)bench_below(&s, 5) - 2.0f;
    for (int i = 0; i < N * N; ++i) B[i] = (float)bench_below(&s, 5) - 2.0f;
    float *dA, *dB, *dC;
    CHECK(cudaMalloc(&dA, bytes));
    CHECK(cudaMalloc(&dB, bytes));
    CHECK(cudaMalloc(&dC, bytes));
    CHECK(cudaMemcpy(dA, A, bytes, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dB, B, bytes, cudaMemcpyHostToDevice));

    dim3 block(TILE, TILE), grid(N / TILE, N / TILE);
    sgemm_tiled<<<grid, block>>>(dA, dB, dC, N); // warm-up
    BenchTimer t;
    t.begin();
    for (int r = 0; r < REPS; ++r)
        sgemm_tiled<<<grid, block>>>(dA, dB, dC, N);
    double ms = t.end();
    CHECK(cudaMemcpy(C, dC, bytes, cudaMemcpyDeviceToHost));

    // Serial reference (i-k-j order); exact because the inputs are small integers.
    float *ref = (float *)calloc((size_t)N * N, sizeof(float));
    for (int i = 0; i < N; ++i)
        for (int k = 0; k < N; ++k)
            for (int j = 0; j < N; ++j)
                ref[i * N + j] += A[i * N + k] * B[k * N + j];
    int ok = 1;
    double sum = 0;
    for (int i = 0; i < N * N; ++i) {
        if (C[i] != ref[i]) ok = 0;
        sum += C[i] * (double)(i % 7 + 1);
    }
    bench_report("sgemm", ms, sum, ok);
    return ok ? 0 : 1;
}
