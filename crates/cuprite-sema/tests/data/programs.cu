#include <cstdio>
#include <cstdlib>
#define TILE 16
const int BINS = 64;
typedef struct { float re, im; } Complex;
enum class Mode : int { Fast = 1, Slow = 2 };
static __device__ __host__ inline Complex cmul(Complex a, Complex b) {
    Complex r; r.re = a.re * b.re - a.im * b.im; r.im = a.re * b.im + a.im * b.re; return r;
}
__global__ void matmul(const float *A, const float *B, float *C, int n) {
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    int row = blockIdx.y * TILE + threadIdx.y, col = blockIdx.x * TILE + threadIdx.x;
    float acc = 0.0f;
    for (int t = 0; t < (n + TILE - 1) / TILE; ++t) {
        As[threadIdx.y][threadIdx.x] = (row < n && t * TILE + threadIdx.x < n) ? A[row * n + t * TILE + threadIdx.x] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = (col < n && t * TILE + threadIdx.y < n) ? B[(t * TILE + threadIdx.y) * n + col] : 0.0f;
        __syncthreads();
#pragma unroll
        for (int k = 0; k < TILE; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        __syncthreads();
    }
    if (row < n && col < n) C[row * n + col] = acc;
}
__global__ void histo(const unsigned char *data, int n, unsigned int *bins) {
    __shared__ unsigned int local[BINS];
    for (int i = threadIdx.x; i < BINS; i += blockDim.x) local[i] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i] % BINS], 1u);
    __syncthreads();
    for (int i = threadIdx.x; i < BINS; i += blockDim.x) atomicAdd(&bins[i], local[i]);
}
__device__ void warpReduce(volatile float *s, int tid) {
    s[tid] += s[tid + 32]; s[tid] += s[tid + 16]; s[tid] += s[tid + 8];
}
__global__ void red(float *g, Complex *c, Mode m) {
    extern __shared__ float sdata[];
    unsigned int tid = threadIdx.x;
    sdata[tid] = g[tid];
    __syncthreads();
    if (tid < 32) warpReduce(sdata, tid);
    if (tid == 0) g[blockIdx.x] = sdata[0];
    c[tid] = cmul(c[tid], c[tid + 1]);
    if (m == Mode::Fast) g[0] = (float)(int)Mode::Slow;
    float3 a = make_float3(1, 2, 3);
    int2 b = make_int2(1, 2);
    double2 d2; d2.x = 1; d2.y = a.z;
    g[1] = a.x + b.y + d2.x;
    dim3 blk(1, 2, 3);
    unsigned long long addr = (unsigned long long)g;
    g[2] = (addr & 0xf) ? 1.0f : 0.5;
    char *bytes = (char *)g; bytes[0] = 'a';
    const float PI = 3.14159265f;
    g[3] = sinf(PI) + cosf(PI * 2) + __sinf(1.f) + rsqrtf(4.f) + exp2f(3.f) + floorf(2.5f) + fminf(1.f, 2.f);
    int q; float r = remquof(5.f, 3.f, &q); float s, co; sincosf(1.f, &s, &co); (void)r;
    g[4] = truncf(1.5f) + llrintf(2.5f) + ilogbf(8.f) + ldexpf(1.f, 3) + frexpf(8.f, &q) + modff(1.5f, &s);
}
int main() { return 0; }
