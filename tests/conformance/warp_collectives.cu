// warp_collectives: warp operations in a block whose last warp is partial (48 threads:
// warp 1 has lanes 0-15 only), warps that diverge from each other, lanes of one warp that
// split into two halves with their own masks, a shuffle after __syncthreads_count, warp
// reductions in device functions called by one warp or the other, width 8/16 segments,
// __match_any_sync / __match_all_sync, __reduce_*_sync, __uni_sync, __syncwarp, and a
// ballot after some lanes have returned.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh);
// it equals what was first derived by hand from the guide's semantics.
#include <cstdio>

__device__ int warpSum32(int v) {
  for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}
__device__ int warpSum16(int v) {
  for (int o = 8; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffu, v, o, 16);
  return v;
}

__global__ void k(int *out) {
  int t = threadIdx.x, lane = t & 31;
  int *r = out + (blockIdx.x * blockDim.x + t) * 18;
  unsigned am = (t < 32) ? 0xffffffffu : 0xffffu;  // the lanes that exist
  r[0] = __ballot_sync(am, lane & 1);
  r[1] = __reduce_add_sync(am, lane);
  r[2] = __shfl_down_sync(am, t, 4, 16);
  int v = t;
  if (t < 32) v = __shfl_down_sync(0xffffffffu, v, 1);
  int c = __syncthreads_count(v > 20);
  r[3] = v;
  r[4] = c;
  int a;
  if (lane < 16) a = __shfl_xor_sync(0xffffu, lane, 1);
  else a = __shfl_xor_sync(0xffff0000u, lane * 2, 2);
  r[5] = a;
  r[6] = __match_any_sync(am, lane % 4);
  int p1 = -5, p2 = -5;
  r[7] = __match_all_sync(am, t / 32, &p1);
  r[8] = p1;
  r[9] = __match_all_sync(am, lane < 8, &p2);
  r[10] = p2;
  r[11] = __reduce_min_sync(am, 10 - lane);
  r[12] = (int)__reduce_max_sync(am, (unsigned)(10 - lane));
  r[13] = (int)(__reduce_and_sync(am, 0xf0u | lane) ^ __reduce_or_sync(am, (unsigned)lane << 8) ^ __reduce_xor_sync(am, 1u << (lane % 5 + 16)));
  r[14] = __shfl_xor_sync(am, lane, 16, 16) * 100 + __shfl_xor_sync(am, lane, 9, 8);
  r[15] = (t < 32) ? warpSum32(lane) : warpSum16(lane);
  __syncwarp(am);
  double d = __shfl_up_sync(am, t * 1.5, 3, 16);
  r[16] = (int)(d * 10) * 10 + __uni_sync(am, lane < 40) * 2 + __uni_sync(am, lane < 10);
  if (lane >= 20) return;
  r[17] = __ballot_sync(am & 0xfffffu, lane % 3 == 0);
}

int main() {
  const int n = 48, blocks = 2;
  int *d, h[blocks * n * 18];
  cudaMalloc(&d, sizeof(h));
  cudaMemset(d, 0, sizeof(h));
  k<<<blocks, n>>>(d);
  printf("sync: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  int same = 1;
  for (int i = 0; i < n * 18; i++) same &= h[i] == h[n * 18 + i];
  printf("blocks agree: %d\n", same);
  for (int j = 0; j < 18; j++) {
    printf("%2d:", j);
    for (int t = 0; t < n; t += (t < 28 || (t >= 32 && t < 44)) ? 3 : 1) printf(" %x", h[t * 18 + j]);
    printf("\n");
  }
  return 0;
}
