// atomics: a histogram with atomicAdd from many blocks (global and shared memory),
// atomicAdd on float (integer-valued, so exact) and double, atomicSub, atomicMax,
// atomicMin, atomicExch, atomicCAS (lock-free max of a float), atomicInc/atomicDec with
// wrap-around, atomicAnd/Or/Xor, and 64-bit atomicAdd/atomicCAS.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <vector>

#define BINS 16

__global__ void histo(const int *data, int n, unsigned *global_bins) {
  __shared__ unsigned bins[BINS];
  if (threadIdx.x < BINS) bins[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    atomicAdd(&bins[data[i] % BINS], 1u);
  __syncthreads();
  if (threadIdx.x < BINS) atomicAdd(&global_bins[threadIdx.x], bins[threadIdx.x]);
}

struct Acc {
  int sum, sub, mx, mn, exch_count, andv, orv, xorv;
  unsigned inc, dec;
  float fsum;
  double dsum;
  unsigned long long u64sum, u64cas;
  float fmax_cas;
};

__device__ void atomicMaxFloat(float *addr, float v) {
  int *ia = (int *)addr;
  int old = *ia, assumed;
  do {
    assumed = old;
    if (__int_as_float(assumed) >= v) break;
    old = atomicCAS(ia, assumed, __float_as_int(v));
  } while (old != assumed);
}

__global__ void many(Acc *a, int *exch_slot) {
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  atomicAdd(&a->sum, g);
  atomicSub(&a->sub, 2);
  atomicMax(&a->mx, (g * 7919) % 10007);
  atomicMin(&a->mn, (g * 7919) % 10007 + 5);
  int old = atomicExch(exch_slot, g);
  if (old >= 0) atomicAdd(&a->exch_count, 1);
  atomicAnd(&a->andv, ~(1 << (g % 31)));
  atomicOr(&a->orv, 1 << (g % 20));
  atomicXor(&a->xorv, g);
  atomicInc(&a->inc, 99u);          // wraps to 0 after reaching 99
  atomicDec(&a->dec, 50u);          // wraps to 50 after reaching 0
  atomicAdd(&a->fsum, (float)(g % 8));
  atomicAdd(&a->dsum, 0.5 * (g % 4));
  atomicAdd(&a->u64sum, 0x100000000ULL + g);
  unsigned long long cur = a->u64cas, prev;
  do { prev = cur; cur = atomicCAS(&a->u64cas, prev, prev + 3); } while (cur != prev);
  atomicMaxFloat(&a->fmax_cas, (float)((g * 31) % 1000) * 0.25f);
}

int main() {
  const int n = 100000;
  std::vector<int> h(n);
  unsigned want[BINS] = {0};
  for (int i = 0; i < n; i++) { h[i] = (i * 2654435761u) >> 7 & 0xffff; want[h[i] % BINS]++; }
  int *dd; unsigned *db, got[BINS];
  cudaMalloc(&dd, n * sizeof(int)); cudaMalloc(&db, sizeof(got));
  cudaMemcpy(dd, h.data(), n * sizeof(int), cudaMemcpyHostToDevice);
  cudaMemset(db, 0, sizeof(got));
  histo<<<40, 128>>>(dd, n, db);
  cudaMemcpy(got, db, sizeof(got), cudaMemcpyDeviceToHost);
  int ok = 1;
  printf("histogram:");
  for (int b = 0; b < BINS; b++) { printf(" %u", got[b]); ok &= got[b] == want[b]; }
  printf("\nhistogram %s\n", ok ? "matches" : "MISMATCH");

  Acc a0 = {0, 1000000, -1, 1 << 30, 0, -1, 0, 0, 0, 0, 0.0f, 0.0, 0, 7, 0.0f};
  Acc *da; int *dx, init = -1;
  cudaMalloc(&da, sizeof(Acc)); cudaMalloc(&dx, sizeof(int));
  cudaMemcpy(da, &a0, sizeof(Acc), cudaMemcpyHostToDevice);
  cudaMemcpy(dx, &init, sizeof(int), cudaMemcpyHostToDevice);
  const int blocks = 50, threads = 200;   // 10000 threads
  many<<<blocks, threads>>>(da, dx);
  Acc r;
  cudaMemcpy(&r, da, sizeof(Acc), cudaMemcpyDeviceToHost);
  printf("sum=%d sub=%d max=%d min=%d exch_count=%d\n", r.sum, r.sub, r.mx, r.mn, r.exch_count);
  printf("and=0x%08x or=0x%08x xor=%d\n", (unsigned)r.andv, (unsigned)r.orv, r.xorv);
  printf("inc=%u dec=%u\n", r.inc, r.dec);
  printf("fsum=%.1f dsum=%.1f\n", r.fsum, r.dsum);
  printf("u64sum=%llu u64cas=%llu fmax=%g\n", r.u64sum, r.u64cas, r.fmax_cas);
  return 0;
}
