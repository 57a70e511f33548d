// asm_mbarrier: mbarrier objects in shared memory through inline PTX, as libcu++'s
// cuda::barrier and cuda::ptx write them on sm_90: init, arrive (with a count, with
// .release.cta), arrive_drop, expect_tx / complete_tx, arrive.expect_tx, test_wait on a
// state and try_wait.parity in a loop (threads block until the phase completes: each
// reads what the others wrote before arriving), several phases, pending_count, inval;
// elect.sync, nanosleep in a spin-wait, and the cluster special registers of a launch
// without clusters.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>

__device__ unsigned smem(const void *p) {
  unsigned long long a;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(a) : "l"(p));
  return (unsigned)a;
}

__device__ void bar_init(unsigned b, unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(count) : "memory");
}
__device__ unsigned long long bar_arrive(unsigned b) {
  unsigned long long s;
  asm volatile("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
  return s;
}
__device__ void bar_wait_parity(unsigned b, unsigned parity) {
  asm volatile("{\n\t.reg .pred p;\n"
               "WAIT:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
               "@!p bra WAIT;\n\t}" ::"r"(b), "r"(parity) : "memory");
}
__device__ void bar_wait_state(unsigned b, unsigned long long s) {
  asm volatile("{\n\t.reg .pred p;\n"
               "TEST:\n\t"
               "mbarrier.test_wait.shared.b64 p, [%0], %1;\n\t"
               "@!p bra TEST;\n\t}" ::"r"(b), "l"(s) : "memory");
}
__device__ bool bar_test_parity(unsigned b, unsigned parity) {
  unsigned r;
  asm volatile("{\n\t.reg .pred p;\n\tmbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2;\n\tselp.u32 %0, 1, 0, p;\n\t}"
               : "=r"(r) : "r"(b), "r"(parity) : "memory");
  return r != 0;
}

// Three phases of a barrier shared by the block: every thread writes, arrives, waits,
// then reads what a thread of another warp wrote in the same phase.
__global__ void phases(int *out) {
  __shared__ unsigned long long bar;
  __shared__ int vals[96];
  unsigned b = smem(&bar);
  int t = threadIdx.x;
  if (t == 0) bar_init(b, blockDim.x);
  __syncthreads();
  int acc = 0;
  for (int phase = 0; phase < 3; ++phase) {
    vals[t] = (phase + 1) * 1000 + t;
    unsigned long long s = bar_arrive(b);
    if (phase == 1) bar_wait_state(b, s);
    else bar_wait_parity(b, phase & 1);
    acc += vals[(t + 37) % blockDim.x];
    __syncthreads();  // nobody overwrites vals before all have read
  }
  out[blockIdx.x * blockDim.x + t] = acc;
}

// Counted arrivals, arrive_drop, transaction counts, pending_count, test_wait.parity.
__global__ void counts(unsigned *out) {
  __shared__ unsigned long long bar;
  unsigned b = smem(&bar);
  int t = threadIdx.x;
  if (t == 0) {
    bar_init(b, 3);
    unsigned long long s;
    unsigned pc;
    out[0] = bar_test_parity(b, 0);  // phase 0 has not completed
    out[1] = bar_test_parity(b, 1);  // the phase "before" it counts as completed
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(2) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pc) : "l"(s));
    out[2] = pc;
    out[3] = bar_test_parity(b, 0);
    asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(256) : "memory");
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
    asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(pc) : "l"(s));
    out[4] = pc;
    out[5] = bar_test_parity(b, 0);  // arrivals done, 256 bytes still expected
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(200) : "memory");
    out[6] = bar_test_parity(b, 0);
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(56) : "memory");
    out[7] = bar_test_parity(b, 0);  // phase 0 completed
    out[8] = bar_test_parity(b, 1);  // phase 1 has not
    // Phase 1: arrive_drop lowers the count of this and later phases to 2.
    asm volatile("mbarrier.arrive_drop.shared.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
    out[9] = bar_test_parity(b, 1);
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
    out[10] = bar_test_parity(b, 1);
    // Phase 2 expects 2 arrivals; arrive.expect_tx arrives and expects 64 bytes.
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(64) : "memory");
    asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
    out[11] = bar_test_parity(b, 0);
    asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(64) : "memory");
    out[12] = bar_test_parity(b, 0);
    asm volatile("mbarrier.inval.shared.b64 [%0];" ::"r"(b) : "memory");
  }
}

// A producer warp fills a two-slot ring, consumer warp waits on "full" barriers and
// releases slots through "empty" barriers: the pattern of sm_90 pipelines.
__global__ void ring(const int *in, int n, int *out) {
  __shared__ unsigned long long full[2], empty[2];
  __shared__ int slot[2][32];
  int t = threadIdx.x, lane = t & 31;
  if (t == 0) {
    for (int k = 0; k < 2; ++k) {
      bar_init(smem(&full[k]), 32);
      bar_init(smem(&empty[k]), 32);
    }
  }
  __syncthreads();
  int rounds = n / 32;
  if (t < 32) {  // producer
    for (int r = 0; r < rounds; ++r) {
      int k = r & 1;
      if (r >= 2) bar_wait_parity(smem(&empty[k]), ((r >> 1) - 1) & 1);
      slot[k][lane] = in[r * 32 + lane] * 2;
      bar_arrive(smem(&full[k]));
    }
  } else {  // consumer
    int sum = 0;
    for (int r = 0; r < rounds; ++r) {
      int k = r & 1;
      bar_wait_parity(smem(&full[k]), (r >> 1) & 1);
      sum += slot[k][(lane + r) & 31];
      bar_arrive(smem(&empty[k]));
    }
    out[lane] = sum;
  }
}

__global__ void misc(unsigned *out, volatile int *flag) {
  int t = threadIdx.x, lane = t & 31;
  unsigned leader, elected, leader2, elected2 = 0;
  asm volatile("{\n\t.reg .pred p;\n\telect.sync %0|p, 0xffffffff;\n\tselp.u32 %1, 1, 0, p;\n\t}" : "=r"(leader), "=r"(elected));
  leader2 = 99;
  if (lane >= 5 && lane < 12) {
    asm volatile("{\n\t.reg .pred p;\n\telect.sync %0|p, %2;\n\tselp.u32 %1, 1, 0, p;\n\t}" : "=r"(leader2), "=r"(elected2) : "r"(0xfe0u));
  }
  unsigned crank, ncrank, cid, ncid, cctaid, cnctaid, expl;
  asm("mov.u32 %0, %%cluster_ctarank;" : "=r"(crank));
  asm("mov.u32 %0, %%cluster_nctarank;" : "=r"(ncrank));
  asm("mov.u32 %0, %%clusterid.x;" : "=r"(cid));
  asm("mov.u32 %0, %%nclusterid.x;" : "=r"(ncid));
  asm("mov.u32 %0, %%cluster_ctaid.x;" : "=r"(cctaid));
  asm("mov.u32 %0, %%cluster_nctaid.x;" : "=r"(cnctaid));
  asm("{\n\t.reg .pred p;\n\tmov.pred p, %%is_explicit_cluster;\n\tselp.u32 %0, 1, 0, p;\n\t}" : "=r"(expl));
  // Thread 0 of each block spins until the block's last thread has set the flag.
  if (t == 0) {
    while (flag[blockIdx.x] == 0) asm volatile("nanosleep.u32 100;");
  }
  if (t == blockDim.x - 1) {
    __threadfence_block();
    flag[blockIdx.x] = 1;
  }
  unsigned *o = out + (blockIdx.x * blockDim.x + t) * 11;
  o[0] = leader; o[1] = elected; o[2] = leader2; o[3] = elected2;
  o[4] = crank; o[5] = ncrank; o[6] = cid; o[7] = ncid; o[8] = cctaid; o[9] = cnctaid; o[10] = expl;
}

int main() {
  int *d_out;
  cudaMalloc(&d_out, 2 * 96 * sizeof(int));
  phases<<<2, 96>>>(d_out);
  int h[192];
  cudaMemcpy(h, d_out, sizeof h, cudaMemcpyDeviceToHost);
  printf("phases:");
  for (int i = 0; i < 192; i += 13) printf(" %d", h[i]);
  printf("\n");

  unsigned *d_u;
  cudaMalloc(&d_u, 2 * 64 * 11 * sizeof(unsigned));
  cudaMemset(d_u, 0, 2 * 64 * 11 * sizeof(unsigned));
  counts<<<1, 32>>>(d_u);
  unsigned c[13];
  cudaMemcpy(c, d_u, sizeof c, cudaMemcpyDeviceToHost);
  printf("counts:");
  for (int i = 0; i < 13; ++i) printf(" %u", c[i]);
  printf("\n");

  int hin[256];
  for (int i = 0; i < 256; ++i) hin[i] = i * 7 % 31;
  int *d_in, *d_r;
  cudaMalloc(&d_in, sizeof hin);
  cudaMalloc(&d_r, 32 * sizeof(int));
  cudaMemcpy(d_in, hin, sizeof hin, cudaMemcpyHostToDevice);
  ring<<<1, 64>>>(d_in, 256, d_r);
  int r[32];
  cudaMemcpy(r, d_r, sizeof r, cudaMemcpyDeviceToHost);
  printf("ring:");
  for (int i = 0; i < 32; ++i) printf(" %d", r[i]);
  printf("\n");

  int *d_flag;
  cudaMalloc(&d_flag, 2 * sizeof(int));
  cudaMemset(d_flag, 0, 2 * sizeof(int));
  cudaMemset(d_u, 0, 2 * 64 * 11 * sizeof(unsigned));
  misc<<<2, 64>>>(d_u, d_flag);
  static unsigned m[2 * 64 * 11];
  cudaMemcpy(m, d_u, sizeof m, cudaMemcpyDeviceToHost);
  const int shown[] = {0, 1, 5, 6, 11, 12, 33, 64, 100};
  for (int t : shown) {
    printf("misc %3d:", t);
    for (int k = 0; k < 11; ++k) printf(" %u", m[t * 11 + k]);
    printf("\n");
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %s\n", cudaGetErrorString(e));
  return 0;
}
