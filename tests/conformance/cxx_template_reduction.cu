// cxx_template_reduction: a templated tree reduction: the element type and the block
// size are template parameters (template <class T, unsigned BLOCK> __global__ void
// reduce(...)), dynamic shared memory reached through a SharedMemory<T> class template
// whose specializations each declare their own `extern __shared__` array (one
// declaration per type, as extern __shared__ arrays of different types may not share a
// name), `if (BLOCK >= N)` branches resolved at compile time, a warp-synchronous tail
// for the last 32 elements with __syncwarp, explicit template arguments at the launch,
// instantiations for float, int and double, and a second pass over the partial sums.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

template <class T>
struct SharedMemory {
  __device__ T *get() {
    extern __shared__ unsigned char smem_bytes[];
    return reinterpret_cast<T *>(smem_bytes);
  }
  __device__ operator T *() { return get(); }
};

template <>
struct SharedMemory<int> {
  __device__ int *get() { extern __shared__ int smem_int[]; return smem_int; }
  __device__ operator int *() { return get(); }
};

template <>
struct SharedMemory<double> {
  __device__ double *get() { extern __shared__ double smem_double[]; return smem_double; }
  __device__ operator double *() { return get(); }
};

template <class T>
struct Plus {
  __device__ T operator()(T a, T b) const { return a + b; }
  __device__ static T identity() { return T(0); }
};

template <class T, unsigned BLOCK>
__device__ void block_tail(volatile T *s, unsigned tid) {
  // The last 64 -> 1 steps; each step syncs the warp so that it is correct without
  // relying on lockstep execution.
  T v = s[tid];
  if (BLOCK >= 64) { v += s[tid + 32]; __syncwarp(); s[tid] = v; __syncwarp(); }
  if (BLOCK >= 32) { v += s[tid + 16]; __syncwarp(); s[tid] = v; __syncwarp(); }
  if (BLOCK >= 16) { v += s[tid + 8]; __syncwarp(); s[tid] = v; __syncwarp(); }
  if (BLOCK >= 8) { v += s[tid + 4]; __syncwarp(); s[tid] = v; __syncwarp(); }
  if (BLOCK >= 4) { v += s[tid + 2]; __syncwarp(); s[tid] = v; __syncwarp(); }
  if (BLOCK >= 2) { v += s[tid + 1]; __syncwarp(); s[tid] = v; __syncwarp(); }
}

template <class T, unsigned BLOCK>
__global__ void reduce(const T *in, T *out, int n) {
  static_assert((BLOCK & (BLOCK - 1)) == 0 && BLOCK >= 64, "BLOCK: a power of two, at least 64");
  T *s = SharedMemory<T>();
  Plus<T> op;
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (BLOCK * 2) + tid;
  unsigned stride = BLOCK * 2 * gridDim.x;
  T acc = Plus<T>::identity();
  while (i < (unsigned)n) {                       // grid-stride, two elements per step
    acc = op(acc, in[i]);
    if (i + BLOCK < (unsigned)n) acc = op(acc, in[i + BLOCK]);
    i += stride;
  }
  s[tid] = acc;
  __syncthreads();
  if (BLOCK >= 1024) { if (tid < 512) s[tid] = acc = op(acc, s[tid + 512]); __syncthreads(); }
  if (BLOCK >= 512) { if (tid < 256) s[tid] = acc = op(acc, s[tid + 256]); __syncthreads(); }
  if (BLOCK >= 256) { if (tid < 128) s[tid] = acc = op(acc, s[tid + 128]); __syncthreads(); }
  if (BLOCK >= 128) { if (tid < 64) s[tid] = acc = op(acc, s[tid + 64]); __syncthreads(); }
  if (tid < 32) block_tail<T, BLOCK>(s, tid);
  if (tid == 0) out[blockIdx.x] = s[0];
}

template <class T, unsigned BLOCK>
T reduce_on_device(const T *h, int n, int blocks) {
  T *din, *dpart, *dres, res;
  cudaMalloc(&din, n * sizeof(T));
  cudaMalloc(&dpart, blocks * sizeof(T));
  cudaMalloc(&dres, sizeof(T));
  cudaMemcpy(din, h, n * sizeof(T), cudaMemcpyHostToDevice);
  reduce<T, BLOCK><<<blocks, BLOCK, BLOCK * sizeof(T)>>>(din, dpart, n);
  reduce<T, BLOCK><<<1, BLOCK, BLOCK * sizeof(T)>>>(dpart, dres, blocks);
  cudaMemcpy(&res, dres, sizeof(T), cudaMemcpyDeviceToHost);
  cudaFree(din); cudaFree(dpart); cudaFree(dres);
  return res;
}

int main() {
  const int n = 100000;
  static float hf[n];
  static int hi[n];
  static double hd[n];
  long long isum = 0;
  double dsum = 0;
  for (int i = 0; i < n; i++) {
    hf[i] = (float)(i % 16) * 0.25f;             // exactly representable partial sums
    hi[i] = (i * 37) % 101 - 50;
    hd[i] = (double)(i % 10) * 0.5;
    isum += hi[i];
    dsum += hd[i];
  }
  float rf = reduce_on_device<float, 256>(hf, n, 64);
  int ri = reduce_on_device<int, 128>(hi, n, 40);
  int ri2 = reduce_on_device<int, 1024>(hi, n, 7);
  double rd = reduce_on_device<double, 512>(hd, n, 33);
  float small = reduce_on_device<float, 64>(hf, 1000, 3);
  printf("float  BLOCK=256:  %.2f\n", rf);
  printf("int    BLOCK=128:  %d (host %lld)\n", ri, isum);
  printf("int    BLOCK=1024: %d\n", ri2);
  printf("double BLOCK=512:  %.2f (host %.2f)\n", rd, dsum);
  printf("float  BLOCK=64, n=1000: %.2f\n", small);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
