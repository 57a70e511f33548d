// sync_count: __syncthreads_count, __syncthreads_and, __syncthreads_or over predicates
// that hold for all, some and none of the threads of a block.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void votes_ok(int *out) {
  int t = threadIdx.x;
  int b = blockIdx.x;
  int r0 = __syncthreads_count(t % 3 == 0);
  int r1 = __syncthreads_and(t % 3 == 0);
  int r2 = __syncthreads_or(t % 3 == 0);
  int r3 = __syncthreads_and(t >= 0);
  int r4 = __syncthreads_or(t > 100000);
  int r5 = __syncthreads_count(t < 10 * b);
  int r6 = __syncthreads_or(t < 10 * b);
  int r7 = __syncthreads_count(1);
  if (t == 0) {
    int *o = out + b * 8;
    o[0] = r0; o[1] = r1 != 0; o[2] = r2 != 0; o[3] = r3 != 0; o[4] = r4 != 0; o[5] = r5; o[6] = r6 != 0; o[7] = r7;
  }
}

int main() {
  int *d, h[3 * 8];
  cudaMalloc(&d, sizeof(h));
  votes_ok<<<3, 100>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  for (int b = 0; b < 3; b++)
    printf("block %d: count(t%%3==0)=%d and=%d or=%d and(all)=%d or(none)=%d count(t<10b)=%d or(t<10b)=%d count(1)=%d\n",
           b, h[b * 8], h[b * 8 + 1], h[b * 8 + 2], h[b * 8 + 3], h[b * 8 + 4], h[b * 8 + 5], h[b * 8 + 6], h[b * 8 + 7]);
  return 0;
}
