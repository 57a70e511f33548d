// asm_async_copy: asynchronous copies through inline PTX as CCCL writes them on sm_90:
// cp.async.ca/cg (with a source size that zero-fills), commit_group / wait_group /
// wait_all, cp.async.mbarrier.arrive(.noinc) on an mbarrier, one-dimensional
// cp.async.bulk global->shared completing an mbarrier's transaction count
// (arrive.expect_tx + try_wait.parity) and shared->global in a bulk group,
// fence.proxy.async, fence.mbarrier_init; and the memory-order forms: ld.acquire,
// st.release, atom/red with .sem and .scope, fence.sc / fence.acq_rel.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>

__device__ unsigned smem(const void *p) {
  unsigned long long a;
  asm("cvta.to.shared.u64 %0, %1;" : "=l"(a) : "l"(p));
  return (unsigned)a;
}

__device__ void wait_parity(unsigned b, unsigned parity) {
  asm volatile("{\n\t.reg .pred p;\n"
               "WAIT:\n\t"
               "mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1;\n\t"
               "@!p bra WAIT;\n\t}" ::"r"(b), "r"(parity) : "memory");
}

// cp.async in two groups; the second group's copies carry a smaller source size.
__global__ void groups(const int *in, int *out) {
  __shared__ __align__(16) int a[128], b[128];
  int t = threadIdx.x;  // 32 threads, each copies 4 ints per group
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(smem(a + 4 * t)), "l"(in + 4 * t) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;" ::"r"(smem(b + 4 * t)), "l"(in + 128 + 4 * t), "r"((t % 5) * 4) : "memory");
  asm volatile("cp.async.commit_group;" ::: "memory");
  asm volatile("cp.async.wait_group 1;" ::: "memory");
  asm volatile("cp.async.wait_all;" ::: "memory");
  __syncthreads();
  int s = 0;
  for (int k = 0; k < 128; k += 32) s += a[(t + k) & 127] - b[(t * 3 + k) & 127];
  out[t] = s;
}

// Each thread's cp.async copies arrive on an mbarrier (with and without .noinc).
__global__ void copy_arrive(const int *in, int *out) {
  __shared__ unsigned long long bar;
  __shared__ __align__(16) int buf[256];
  int t = threadIdx.x;  // 64 threads
  unsigned b = smem(&bar);
  if (t == 0) asm volatile("mbarrier.init.shared.b64 [%0], %1;" ::"r"(b), "r"(64 + 32) : "memory");
  asm volatile("fence.mbarrier_init.release.cluster;" ::: "memory");
  __syncthreads();
  asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(smem(buf + 4 * t)), "l"(in + 4 * t) : "memory");
  if (t < 32) asm volatile("cp.async.mbarrier.arrive.noinc.shared.b64 [%0];" ::"r"(b) : "memory");
  else asm volatile("cp.async.mbarrier.arrive.shared.b64 [%0];" ::"r"(b) : "memory");
  unsigned long long s;
  asm volatile("mbarrier.arrive.shared.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
  wait_parity(b, 0);
  out[t] = buf[(t * 5) & 255] + buf[255 - t];
}

// A bulk copy into shared memory completes the barrier's transaction count; the block
// then writes a transformed tile back with a shared->global bulk copy.
__global__ void bulk(const float *in, float *out) {
  __shared__ unsigned long long bar;
  __shared__ __align__(128) float tile[512];
  int t = threadIdx.x;  // 128 threads
  unsigned b = smem(&bar);
  if (t == 0) {
    asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(b), "r"(blockDim.x) : "memory");
    asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  }
  __syncthreads();
  unsigned long long s;
  if (t == 0) {
    asm volatile("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %0, [%1], %2;" : "=l"(s) : "r"(b), "r"(512 * 4) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(smem(tile)), "l"(in + blockIdx.x * 512), "r"(256 * 4), "r"(b) : "memory");
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(smem(tile + 256)), "l"(in + blockIdx.x * 512 + 256), "r"(256 * 4), "r"(b) : "memory");
  } else {
    asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(s) : "r"(b) : "memory");
  }
  wait_parity(b, 0);
  for (int k = t; k < 512; k += 128) tile[k] = tile[k] * 2.0f + (float)k;
  asm volatile("fence.proxy.async.shared::cta;" ::: "memory");
  __syncthreads();
  if (t == 0) {
    asm volatile("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;" ::"l"(out + blockIdx.x * 512), "r"(smem(tile)), "r"(512 * 4) : "memory");
    asm volatile("cp.async.bulk.commit_group;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group.read 0;" ::: "memory");
    asm volatile("cp.async.bulk.wait_group 0;" ::: "memory");
  }
}

// Release/acquire message passing between blocks, and atomics with orders and scopes.
__global__ void orders(unsigned *data, unsigned *flags, unsigned *counters, unsigned *out) {
  int t = threadIdx.x, blk = blockIdx.x;
  if (t == 0) {
    asm volatile("st.relaxed.gpu.global.u32 [%0], %1;" ::"l"(data + blk), "r"(blk * 10 + 7) : "memory");
    asm volatile("st.release.gpu.global.u32 [%0], %1;" ::"l"(flags + blk), "r"(1) : "memory");
  }
  unsigned old;
  asm volatile("atom.acq_rel.gpu.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(counters), "r"(1) : "memory");
  asm volatile("red.release.gpu.global.add.u32 [%0], %1;" ::"l"(counters + 1), "r"(t) : "memory");
  asm volatile("atom.relaxed.cta.global.max.u32 %0, [%1], %2;" : "=r"(old) : "l"(counters + 2), "r"(t * 3 + blk) : "memory");
  asm volatile("atom.acquire.sys.global.or.b32 %0, [%1], %2;" : "=r"(old) : "l"(counters + 3), "r"(1u << (t & 31)) : "memory");
  unsigned long long o64;
  asm volatile("atom.acq_rel.sys.global.add.u64 %0, [%1], %2;" : "=l"(o64) : "l"((unsigned long long *)(counters + 4)), "l"(1ull << 33) : "memory");
  asm volatile("fence.sc.gpu;" ::: "memory");
  asm volatile("fence.acq_rel.sys;" ::: "memory");
  // Another warp of the block waits for the flag (backing off with nanosleep).
  if (t == 32) {
    unsigned f = 0, v;
    for (;;) {
      asm volatile("ld.acquire.gpu.global.u32 %0, [%1];" : "=r"(f) : "l"(flags + blk) : "memory");
      if (f) break;
      asm volatile("nanosleep.u32 50;");
    }
    asm volatile("ld.relaxed.gpu.global.u32 %0, [%1];" : "=r"(v) : "l"(data + blk) : "memory");
    out[blk] = v;
  }
}

int main() {
  int hin[512];
  for (int i = 0; i < 512; ++i) hin[i] = (i * 37) % 101 - 50;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof hin);
  cudaMalloc(&d_out, 256 * sizeof(int));
  cudaMemcpy(d_in, hin, sizeof hin, cudaMemcpyHostToDevice);
  groups<<<1, 32>>>(d_in, d_out);
  int r[64];
  cudaMemcpy(r, d_out, 32 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("groups:");
  for (int i = 0; i < 32; ++i) printf(" %d", r[i]);
  printf("\n");

  copy_arrive<<<1, 64>>>(d_in, d_out);
  cudaMemcpy(r, d_out, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("copy_arrive:");
  for (int i = 0; i < 64; i += 3) printf(" %d", r[i]);
  printf("\n");

  static float fin[1024], fout[1024];
  for (int i = 0; i < 1024; ++i) fin[i] = (float)((i * 13) % 17) * 0.25f;
  float *d_fin, *d_fout;
  cudaMalloc(&d_fin, sizeof fin);
  cudaMalloc(&d_fout, sizeof fout);
  cudaMemcpy(d_fin, fin, sizeof fin, cudaMemcpyHostToDevice);
  bulk<<<2, 128>>>(d_fin, d_fout);
  cudaMemcpy(fout, d_fout, sizeof fout, cudaMemcpyDeviceToHost);
  printf("bulk:");
  for (int i = 0; i < 1024; i += 61) printf(" %.2f", fout[i]);
  printf("\n");

  unsigned *d_u;
  cudaMalloc(&d_u, 64 * sizeof(unsigned));
  cudaMemset(d_u, 0, 64 * sizeof(unsigned));
  orders<<<2, 64>>>(d_u, d_u + 8, d_u + 16, d_u + 32);
  unsigned u[64];
  cudaMemcpy(u, d_u, sizeof u, cudaMemcpyDeviceToHost);
  printf("orders: data %u %u flags %u %u counters %u %u %u %08x %llu msg %u %u\n", u[0], u[1], u[8], u[9], u[16], u[17], u[18], u[19],
         *(unsigned long long *)(u + 20), u[32], u[33]);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %s\n", cudaGetErrorString(e));
  return 0;
}
