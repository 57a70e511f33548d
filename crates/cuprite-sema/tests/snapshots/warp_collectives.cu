// Warp shuffles, votes and a count barrier.
__device__ int warpSum(int v) {
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffff, v, offset);
    return v;
}

__global__ void warps(const int *in, int *out, unsigned *masks) {
    int x = in[threadIdx.x];
    int sum = warpSum(x);
    unsigned ballot = __ballot_sync(0xffffffff, x > 0);
    int all = __all_sync(0xffffffff, x != 0);
    int first = __shfl_sync(0xffffffff, x, 0);
    int positive = __syncthreads_count(x > 0);
    if ((threadIdx.x & 31) == 0) {
        out[threadIdx.x / 32] = sum + all + first + positive;
        masks[threadIdx.x / 32] = ballot;
    }
}
