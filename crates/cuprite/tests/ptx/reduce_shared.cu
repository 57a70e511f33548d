// Golden PTX test: dynamic shared memory, barriers, a loop, an atomic.
extern __shared__ float buf[];

__global__ void reduce(const float *in, float *out, int n) {
    unsigned t = threadIdx.x;
    unsigned i = blockIdx.x * blockDim.x + t;
    buf[t] = i < n ? in[i] : 0.0f;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (t < s) buf[t] += buf[t + s];
        __syncthreads();
    }
    if (t == 0) atomicAdd(out, buf[0]);
}
