// warp_shuffle: __shfl_sync, __shfl_up_sync, __shfl_down_sync, __shfl_xor_sync (with a
// width argument), a warp-level sum with __shfl_down_sync, __ballot_sync, __any_sync,
// __all_sync, __activemask in converged code, and 64-bit / float shuffles.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void k(int *o, float *of, long long *ol, unsigned *ob) {
  int lane = threadIdx.x & 31, t = threadIdx.x;
  const unsigned full = 0xffffffffu;
  o[t * 6 + 0] = __shfl_sync(full, t * 10, 3);
  o[t * 6 + 1] = __shfl_up_sync(full, t, 2);
  o[t * 6 + 2] = __shfl_down_sync(full, t, 5);
  o[t * 6 + 3] = __shfl_xor_sync(full, t, 1);
  o[t * 6 + 4] = __shfl_sync(full, t, lane + 1, 8);      // wraps inside groups of 8
  int v = lane + 1;
  for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(full, v, off);
  o[t * 6 + 5] = v;
  of[t] = __shfl_xor_sync(full, 0.5f * t, 16);
  ol[t] = __shfl_sync(full, (long long)t << 33, 31 - lane);
  unsigned b = __ballot_sync(full, lane % 3 == 0);
  int any = __any_sync(full, lane == 17);
  int all = __all_sync(full, lane < 31);
  unsigned am = __activemask();
  if (lane == 0) { ob[(t / 32) * 4 + 0] = b; ob[(t / 32) * 4 + 1] = any; ob[(t / 32) * 4 + 2] = all; ob[(t / 32) * 4 + 3] = am; }
}

int main() {
  const int n = 64;
  int *d, h[n * 6]; float *df, hf[n]; long long *dl, hl[n]; unsigned *db, hb[8];
  cudaMalloc(&d, sizeof(h)); cudaMalloc(&df, sizeof(hf)); cudaMalloc(&dl, sizeof(hl)); cudaMalloc(&db, sizeof(hb));
  k<<<1, n>>>(d, df, dl, db);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hl, dl, sizeof(hl), cudaMemcpyDeviceToHost);
  cudaMemcpy(hb, db, sizeof(hb), cudaMemcpyDeviceToHost);
  const char *names[6] = {"shfl(3)", "shfl_up(2)", "shfl_down(5)", "shfl_xor(1)", "shfl w8", "warp sum"};
  for (int j = 0; j < 6; j++) {
    printf("%-13s", names[j]);
    for (int t = 0; t < n; t += 5) printf(" %d", h[t * 6 + j]);
    printf("\n");
  }
  printf("float xor16:");
  for (int t = 0; t < n; t += 7) printf(" %g", hf[t]);
  printf("\nlong long:");
  for (int t = 0; t < n; t += 9) printf(" %lld", hl[t]);
  printf("\n");
  for (int w = 0; w < 2; w++) printf("warp %d: ballot=0x%08x any=%u all=%u activemask=0x%08x\n", w, hb[w * 4], hb[w * 4 + 1], hb[w * 4 + 2], hb[w * 4 + 3]);
  return 0;
}
