// Kernels whose memory counters Cuprite's profiler must count exactly as Nsight Compute
// does on an H100 (crates/cuprite/tests/profile.rs; ncu's CSV is in gpu/counters.ncu.csv).
// Each kernel is launched once (copy_strided twice), in this order.
#include <cstdio>
#include <cuda_runtime.h>

#define N (1 << 16)
#define W 256
#define TILE 32
#define ROWS 8

__global__ void copy_coalesced(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void copy_offset(const float *in, float *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i + 1];
}

__global__ void copy_strided(const float *in, float *out, int n, int stride) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[(i * stride) & (n - 1)];
}

__global__ void copy_float4(const float4 *in, float4 *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void copy_double(const double *in, double *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void copy_bytes(const unsigned char *in, unsigned char *out, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i];
}

__global__ void transpose_naive(float *out, const float *in) {
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[x * W + (y + j)] = in[(y + j) * W + x];
}

__global__ void transpose_tiled(float *out, const float *in) {
    __shared__ float tile[TILE][TILE];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * W + x] = tile[threadIdx.x][threadIdx.y + j];
}

__global__ void transpose_padded(float *out, const float *in) {
    __shared__ float tile[TILE][TILE + 1];
    int x = blockIdx.x * TILE + threadIdx.x;
    int y = blockIdx.y * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * W + x];
    __syncthreads();
    x = blockIdx.y * TILE + threadIdx.x;
    y = blockIdx.x * TILE + threadIdx.y;
    for (int j = 0; j < TILE; j += ROWS)
        out[(y + j) * W + x] = tile[threadIdx.x][threadIdx.y + j];
}

// Interleaved addressing with a strided index: bank conflicts.
__global__ void reduce_interleaved(const float *in, float *out) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned d = 1; d < blockDim.x; d *= 2) {
        unsigned k = 2 * d * t;
        if (k < blockDim.x)
            s[k] += s[k + d];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// Sequential addressing: no bank conflicts.
__global__ void reduce_sequential(const float *in, float *out) {
    __shared__ float s[256];
    unsigned t = threadIdx.x;
    s[t] = in[blockIdx.x * blockDim.x + t];
    __syncthreads();
    for (unsigned d = blockDim.x / 2; d > 0; d >>= 1) {
        if (t < d)
            s[t] += s[t + d];
        __syncthreads();
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}

// 8-byte shared accesses, one of them with a stride of two elements; and a broadcast.
__global__ void shared_double(const double *in, double *out) {
    __shared__ double s[512];
    unsigned t = threadIdx.x;
    s[t] = in[t];
    s[t + 256] = in[t] * 2.0;
    __syncthreads();
    out[t] = s[(2 * t) & 511] + s[0];
}

// Half of each warp takes each side.
__global__ void branch_divergent(const int *in, int *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    int v = in[i];
    if (threadIdx.x & 1)
        v = v * 3 + 1;
    else
        v = v / 2;
    out[i] = v;
}

int main() {
    float *fa, *fb;
    cudaMalloc(&fa, (N + 64) * sizeof(float));
    cudaMalloc(&fb, (N + 64) * sizeof(float));
    float *h = new float[N + 64];
    for (int i = 0; i < N + 64; i++)
        h[i] = (float)(i % 97);
    cudaMemcpy(fa, h, (N + 64) * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemset(fb, 0, (N + 64) * sizeof(float));

    copy_coalesced<<<N / 256, 256>>>(fa, fb, N);
    copy_offset<<<N / 256, 256>>>(fa, fb, N);
    copy_strided<<<N / 256, 256>>>(fa, fb, N, 2);
    copy_strided<<<N / 256, 256>>>(fa, fb, N, 33);
    copy_float4<<<N / 4 / 128, 128>>>((const float4 *)fa, (float4 *)fb, N / 4);
    copy_double<<<N / 2 / 256, 256>>>((const double *)fa, (double *)fb, N / 2);
    copy_bytes<<<N / 256, 256>>>((const unsigned char *)fa, (unsigned char *)fb, N);
    dim3 grid(W / TILE, W / TILE), block(TILE, ROWS);
    transpose_naive<<<grid, block>>>(fb, fa);
    transpose_tiled<<<grid, block>>>(fb, fa);
    transpose_padded<<<grid, block>>>(fb, fa);
    reduce_interleaved<<<N / 256, 256>>>(fa, fb);
    reduce_sequential<<<N / 256, 256>>>(fa, fb);
    cudaMemcpy(h, fb, 256 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("sums: %g %g %g\n", h[0], h[1], h[255]);
    shared_double<<<1, 256>>>((const double *)fa, (double *)fb);
    branch_divergent<<<4, 256>>>((const int *)fa, (int *)fb);
    printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    cudaFree(fa);
    cudaFree(fb);
    delete[] h;
    return 0;
}
