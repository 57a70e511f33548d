// barriers: __syncthreads under a condition that is uniform across the block (depends
// on blockIdx and kernel arguments only), threads that return early before a barrier
// (the remaining threads still synchronise), and barriers in a loop with a uniform
// trip count.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void uniform_cond(int *out, int mode) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  if (mode == 1 || blockIdx.x % 2 == 0) {      // uniform within a block
    int v = s[127 - t];
    __syncthreads();
    s[t] = v * 2;
    __syncthreads();
  }
  out[blockIdx.x * 128 + t] = s[(t + 1) % 128];
}

__global__ void early_exit(const int *in, int *out, int n) {
  __shared__ int s[256];
  int t = threadIdx.x;
  int g = blockIdx.x * blockDim.x + t;
  if (g >= n) return;                          // the last block has fewer live threads
  s[t] = in[g];
  __syncthreads();
  int live = min((int)blockDim.x, n - (int)(blockIdx.x * blockDim.x));
  out[g] = s[(t + 1) % live] - s[t];
}

__global__ void loop_barrier(int *data, int iters) {
  __shared__ int buf[2][64];
  int t = threadIdx.x;
  buf[0][t] = t;
  __syncthreads();
  int cur = 0;
  for (int k = 0; k < iters; k++) {
    buf[1 - cur][t] = buf[cur][(t + 1) % 64] + buf[cur][(t + 63) % 64];
    __syncthreads();
    cur = 1 - cur;
  }
  data[t] = buf[cur][t];
}

int main() {
  int *d, h[4 * 128];
  cudaMalloc(&d, sizeof(h));
  for (int mode = 0; mode < 2; mode++) {
    uniform_cond<<<4, 128>>>(d, mode);
    cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
    printf("mode %d:", mode);
    for (int b = 0; b < 4; b++) printf(" block%d[0]=%d [127]=%d", b, h[b * 128], h[b * 128 + 127]);
    printf("\n");
  }
  const int n = 300;
  int hin[n], hout[n];
  for (int i = 0; i < n; i++) hin[i] = i * i % 97;
  int *din, *dout;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dout, sizeof(hout));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  early_exit<<<2, 256>>>(din, dout, n);
  cudaError_t e = cudaDeviceSynchronize();
  cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost);
  long sum = 0;
  for (int i = 0; i < n; i++) sum += (long)hout[i] * (i + 1);
  printf("early_exit: %s out[0]=%d out[255]=%d out[256]=%d out[299]=%d weighted=%ld\n", cudaGetErrorName(e), hout[0], hout[255], hout[256], hout[299], sum);
  int *dl, hl[64];
  cudaMalloc(&dl, sizeof(hl));
  loop_barrier<<<1, 64>>>(dl, 10);
  cudaMemcpy(hl, dl, sizeof(hl), cudaMemcpyDeviceToHost);
  printf("loop_barrier:");
  for (int i = 0; i < 8; i++) printf(" %d", hl[i]);
  printf(" ... %d\n", hl[63]);
  return 0;
}
