// reduction: block-level tree reduction in shared memory with __syncthreads inside a
// loop (interleaved and sequential addressing), a second pass over the partial sums,
// and a reduction of unsigned long long.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <vector>

#define BLOCK 256

__global__ void reduce_seq(const int *in, int *out, int n) {
  __shared__ int s[BLOCK];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x * 2 + t;
  int v = 0;
  if (i < n) v = in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  s[t] = v;
  __syncthreads();
  for (unsigned stride = blockDim.x / 2; stride > 0; stride >>= 1) {
    if (t < stride) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce_interleaved(const int *in, int *out, int n) {
  __shared__ int s[BLOCK];
  unsigned t = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + t;
  s[t] = i < n ? in[i] : 0;
  __syncthreads();
  for (unsigned stride = 1; stride < blockDim.x; stride *= 2) {
    if (t % (2 * stride) == 0) s[t] += s[t + stride];
    __syncthreads();
  }
  if (t == 0) out[blockIdx.x] = s[0];
}

__global__ void reduce_u64(const unsigned long long *in, unsigned long long *out, int n) {
  __shared__ unsigned long long s[BLOCK];
  unsigned long long acc = 0;
  for (int i = threadIdx.x; i < n; i += blockDim.x) acc += in[i];
  s[threadIdx.x] = acc;
  __syncthreads();
  for (int stride = blockDim.x / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) s[threadIdx.x] += s[threadIdx.x + stride];
    __syncthreads();
  }
  if (threadIdx.x == 0) *out = s[0];
}

int main() {
  const int n = 1000003;
  std::vector<int> h(n);
  long long want = 0;
  for (int i = 0; i < n; i++) { h[i] = (i % 2001) - 1000 + (i % 3); want += h[i]; }
  int *din, *dpart, *dfinal;
  cudaMalloc(&din, n * sizeof(int));
  int blocks = (n + 2 * BLOCK - 1) / (2 * BLOCK);
  cudaMalloc(&dpart, blocks * sizeof(int));
  cudaMalloc(&dfinal, sizeof(int) * 16);
  cudaMemcpy(din, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  reduce_seq<<<blocks, BLOCK>>>(din, dpart, n);
  // second pass: reduce the partial sums repeatedly until one value is left
  int m = blocks;
  int *src = dpart;
  while (m > 1) {
    int b2 = (m + 2 * BLOCK - 1) / (2 * BLOCK);
    int *dst;
    cudaMalloc(&dst, b2 * sizeof(int));
    reduce_seq<<<b2, BLOCK>>>(src, dst, m);
    src = dst; m = b2;
  }
  int got = 0;
  cudaMemcpy(&got, src, sizeof(int), cudaMemcpyDeviceToHost);
  printf("blocks=%d sum=%d expected=%lld\n", blocks, got, want);

  int blocks2 = (n + BLOCK - 1) / BLOCK;
  int *dpart2;
  cudaMalloc(&dpart2, blocks2 * sizeof(int));
  reduce_interleaved<<<blocks2, BLOCK>>>(din, dpart2, n);
  std::vector<int> part(blocks2);
  cudaMemcpy(part.data(), dpart2, blocks2 * sizeof(int), cudaMemcpyDeviceToHost);
  long long s2 = 0;
  for (int v : part) s2 += v;
  printf("interleaved: first partials %d %d %d, total %lld\n", part[0], part[1], part[2], s2);

  const int n3 = 5000;
  std::vector<unsigned long long> h3(n3);
  unsigned long long w3 = 0;
  for (int i = 0; i < n3; i++) { h3[i] = 0x100000000ULL * (i % 17) + i; w3 += h3[i]; }
  unsigned long long *d3, *d3o, r3 = 0;
  cudaMalloc(&d3, n3 * sizeof(unsigned long long));
  cudaMalloc(&d3o, sizeof(unsigned long long));
  cudaMemcpy(d3, h3.data(), n3 * sizeof(unsigned long long), cudaMemcpyHostToDevice);
  reduce_u64<<<1, BLOCK>>>(d3, d3o, n3);
  cudaMemcpy(&r3, d3o, sizeof(r3), cudaMemcpyDeviceToHost);
  printf("u64 sum = %llu (expected %llu)\n", r3, w3);
  return 0;
}
