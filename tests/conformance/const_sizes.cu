// const_sizes: array sizes and other constants written as C++ programs write them —
// namespace-scope const and constexpr, local const and constexpr, enumerators, sizeof,
// #define — in __shared__ arrays, local arrays and loop bounds in device code.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

const int kTile = 8;
constexpr int kHalo = 2;
#define RADIUS 1
enum { kLanes = 4 };

__global__ void stencil(const int *in, int *out, int n) {
  constexpr int width = kTile + 2 * kHalo;
  const int local_len = 3;
  __shared__ int tile[width];
  int scratch[local_len * kLanes];
  int t = threadIdx.x;
  int g = blockIdx.x * kTile + t;
  tile[t + kHalo] = g < n ? in[g] : 0;
  if (t < kHalo) {
    tile[t] = g - kHalo >= 0 ? in[g - kHalo] : 0;
    tile[t + kTile + kHalo] = g + kTile < n ? in[g + kTile] : 0;
  }
  __syncthreads();
  for (int k = 0; k < local_len * kLanes; ++k) scratch[k] = k;
  int sum = 0;
  for (int d = -RADIUS; d <= RADIUS; ++d) sum += tile[t + kHalo + d];
  if (g < n) out[g] = sum * 100 + scratch[sizeof(scratch) / sizeof(scratch[0]) - 1];
}

int main() {
  const int n = 20;
  int h[n], r[n];
  for (int i = 0; i < n; ++i) h[i] = i * i % 11;
  int *din, *dout;
  cudaMalloc(&din, sizeof h); cudaMalloc(&dout, sizeof r);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  stencil<<<(n + kTile - 1) / kTile, kTile>>>(din, dout, n);
  cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; ++i) printf("%d%c", r[i], i + 1 < n ? ' ' : '\n');
  return 0;
}
