// A struct with a method, an aligned vector struct, and initialized device variables.
struct __attribute__((aligned(16))) float4 { float x, y, z, w; };

struct Particle {
    float4 pos;
    float mass;
    __device__ float weight(float g) const { return mass * g; }
};

__constant__ float gravity = 9.81f;
__constant__ int table[4] = {1, -2, 3};
__device__ unsigned long long big = 0xffffffffffffffffull;
__device__ const int *third = &table[2];

__global__ void weigh(const Particle *p, float *w, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        w[i] = p[i].weight(gravity) + p[i].pos.x + table[i & 3] + (float)big;
}
