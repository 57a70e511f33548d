// warp_synchronous_shared: lanes of one warp that communicate through (non-volatile)
// shared memory between two barriers, as warp-synchronous code written for GPUs whose
// warps execute in lock step does: each lane stores, then reads what a neighbouring lane
// of the same warp stored, with no barrier in between (with __syncwarp(), and without);
// and a volatile warp-synchronous shift where each lane reads the value below it before
// any lane overwrites it, lane 0 of each warp taking another path.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA GPU (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void exchange(const int *in, int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = in[t] * 3;
  __syncwarp();
  out[t] = s[t ^ 1] + s[t ^ 2];
}

__global__ void neighbours(const int *in, int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  // Between these barriers, lanes exchange through shared memory in lock step.
  volatile int *v = s;
  int below = (t & 31) ? v[t - 1] : 0;
  v[t] = below + 1000;
  __syncthreads();
  out[t] = s[t];
}

// The same exchange through plain (non-volatile) shared memory, with no barrier or
// __syncwarp() between a lane's store and its neighbour's load.
__global__ void exchange_plain(const int *in, int *out) {
  __shared__ int s[128];
  unsigned t = threadIdx.x;
  s[t] = in[t] * 3;
  out[t] = s[t ^ 1] + s[t ^ 2];
}

int main() {
  int h[128], r[128];
  for (int i = 0; i < 128; i++) h[i] = (i * 7) % 23;
  int *din, *dout;
  cudaMalloc(&din, sizeof h);
  cudaMalloc(&dout, sizeof h);
  cudaMemcpy(din, h, sizeof h, cudaMemcpyHostToDevice);
  exchange<<<1, 128>>>(din, dout);
  cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < 128; i++) bad += r[i] != 3 * h[i ^ 1] + 3 * h[i ^ 2];
  printf("exchange: %d %d %d %d ... %d; mismatches %d\n", r[0], r[1], r[2], r[3], r[127], bad);
  neighbours<<<1, 128>>>(din, dout);
  cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
  bad = 0;
  for (int i = 0; i < 128; i++) bad += r[i] != ((i & 31) ? h[i - 1] : 0) + 1000;
  printf("neighbours: %d %d %d %d ... %d; mismatches %d\n", r[0], r[1], r[2], r[3], r[127], bad);
  exchange_plain<<<1, 128>>>(din, dout);
  cudaMemcpy(r, dout, sizeof r, cudaMemcpyDeviceToHost);
  bad = 0;
  for (int i = 0; i < 128; i++) bad += r[i] != 3 * h[i ^ 1] + 3 * h[i ^ 2];
  printf("exchange_plain: %d %d %d %d ... %d; mismatches %d\n", r[0], r[1], r[2], r[3], r[127], bad);
  printf("status: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
