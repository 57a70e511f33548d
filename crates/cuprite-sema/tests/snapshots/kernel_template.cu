// A kernel template, instantiated for <float, 128> as a host object's stub asks.
template <class T, unsigned B>
__global__ void scale(T *data, T factor) {
    __shared__ T tile[B];
    tile[threadIdx.x] = data[blockIdx.x * B + threadIdx.x] * factor;
    __syncthreads();
    data[blockIdx.x * B + threadIdx.x] = tile[B - 1 - threadIdx.x];
}
