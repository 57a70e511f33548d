#include <cstdio>
#include <cassert>
#include <cmath>
#define N 256
const int M = 128;
const float SCALE = 2.5f;
struct Particle { float3 pos; float3 vel; int id; };
typedef unsigned int uint;
enum Color { RED, GREEN = 5, BLUE };
__constant__ float coeffs[4] = {1.0f, 2.0f, 3.0f, 4.0f};
__device__ int counter;
__device__ int table[3] = {1, 2, 3};
__device__ int *tp = &table[1];
namespace ns { __device__ float g; }
__device__ __forceinline__ float sq(float x) { return x * x; }
__device__ int fact(int n) { return n <= 1 ? 1 : n * fact(n - 1); }
__device__ void swap(int &a, int &b) { int t = a; a = b; b = t; }
__host__ __device__ float hd(float x) { return x + 1; }
__global__ void __launch_bounds__(256, 2) reduce(const float *in, float *out, int n) {
    __shared__ float s[N];
    extern __shared__ float dyn[];
    unsigned tid = threadIdx.x;
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    s[tid] = (i < n) ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
        if (tid < st) s[tid] += s[tid + st];
        __syncthreads();
    }
    if (tid == 0) { out[blockIdx.x] = s[0]; atomicAdd(&counter, 1); }
    dyn[tid] = sqrtf(s[tid]) + sqrt(2.0) + sqrt(s[0]) + fabsf(-1.f) + min(3, 4) + max(1.0f, 2.0f) + __expf(1.0f);
}
__global__ void misc(Particle *p, int n, double *d, unsigned long long *u) {
    int i = threadIdx.x;
    Particle q = p[i];
    q.pos.x += q.vel.x * SCALE;
    p[i] = q;
    float4 v = make_float4(1, 2, 3, 4);
    v.w = v.x * v.y + v.z;
    int a = 1, b = 2;
    swap(a, b);
    switch (a) { case 1: b++; case 2: b--; break; default: b = 0; }
    Color c = GREEN;
    if (c == BLUE || (a > 1 && b < 2)) goto done;
    do { a--; } while (a > 0);
    d[i] = pow(2.0, 3) + fma(1.0, 2.0, 3.0) + fact(5) + M + sq(2.f) + hd(1.f);
    atomicAdd(u, 1ull); atomicCAS(u, 0ull, 1ull); atomicExch((float*)d, 1.0f);
    printf("i=%d f=%f %s %c\n", i, v.x, "str", 'c');
    assert(i < n);
    uint3 t = threadIdx; dim3 bd = blockDim;
    p[i].id = t.x + bd.y + warpSize + __popc(a) + __float_as_int(1.0f) + __float2int_rn(2.5f) + sizeof(Particle);
    int arr[2][3] = {{1,2,3},{4,5,6}};
    int flat[2][2] = {1, 2, 3};
    char str[] = "hi";
    p[i].id += arr[1][2] + flat[1][0] + str[0] + coeffs[2] + table[0] + *tp + ns::g;
    int *pp = &a; pp++; --pp; long diff = pp - &a; (void)diff;
    unsigned x = ~0u >> 3; x <<= 2; x %= 7; x ^= 0xff;
    bool bb = !x; bb = bb && x;
    float f = (float)x / 3; f -= 1.0f; f *= 2;
    f++;
    clock_t c0 = clock(); long long c1 = clock64(); (void)c0; (void)c1;
    __threadfence();
    int cnt = __syncthreads_count(i > 2);
    p[i].id += cnt;
done:
    return;
}
int main() { return 0; }
