// asm_special_regs: special registers read with inline PTX (mov.u32 %0, %%laneid; ...):
// %laneid, %tid.*, %ntid.*, %ctaid.*, %nctaid.*, %lanemask_*, %dynamic_smem_size, and
// the ordering-only checks of %clock, %clock64, %globaltimer, %smid < %nsmid, %warpid < %nwarpid.
// Expected output: captured from nvcc 13.0 (V13.0.88) -arch=sm_90 on an NVIDIA H100, driver 580.159.04 (tools/nvcc-capture.sh).
#include <cstdio>

__device__ unsigned lane_id() {
  unsigned r;
  asm("mov.u32 %0, %%laneid;" : "=r"(r));
  return r;
}

__global__ void regs(unsigned *out) {
  unsigned tx, ty, ntx, nty, cx, ncx, lt, le, eq, ge, gt, dyn;
  asm volatile("mov.u32 %0, %%tid.x;" : "=r"(tx));
  asm volatile("mov.u32 %0, %%tid.y;" : "=r"(ty));
  asm("mov.u32 %0, %%ntid.x;\n\tmov.u32 %1, %%ntid.y;" : "=r"(ntx), "=r"(nty));
  asm("mov.u32 %0, %%ctaid.x;" : "=r"(cx));
  asm("mov.u32 %0, %%nctaid.x;" : "=r"(ncx));
  asm("mov.u32 %0, %%lanemask_lt;" : "=r"(lt));
  asm("mov.u32 %0, %%lanemask_le;" : "=r"(le));
  asm("mov.u32 %0, %%lanemask_eq;" : "=r"(eq));
  asm("mov.u32 %0, %%lanemask_ge;" : "=r"(ge));
  asm("mov.u32 %0, %%lanemask_gt;" : "=r"(gt));
  asm("mov.u32 %0, %%dynamic_smem_size;" : "=r"(dyn));
  unsigned linear = ty * ntx + tx;
  unsigned g = cx * (ntx * nty) + linear;
  unsigned *o = out + g * 14;
  o[0] = tx; o[1] = ty; o[2] = ntx; o[3] = nty; o[4] = cx; o[5] = ncx;
  o[6] = lane_id(); o[7] = lt; o[8] = le; o[9] = eq; o[10] = dyn; o[12] = ge; o[13] = gt;
  unsigned long long c0, c1, t0, t1;
  unsigned s0, s1, sm, nsm, w, nw;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c0));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(s0));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  volatile float x = 1.0f;
  for (int i = 0; i < 200; i++) x = x * 1.0001f + 0.5f;
  asm volatile("mov.u64 %0, %%clock64;" : "=l"(c1));
  asm volatile("mov.u32 %0, %%clock;" : "=r"(s1));
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t1));
  asm("mov.u32 %0, %%smid;" : "=r"(sm));
  asm("mov.u32 %0, %%nsmid;" : "=r"(nsm));
  asm volatile("mov.u32 %0, %%warpid;" : "=r"(w));
  asm("mov.u32 %0, %%nwarpid;" : "=r"(nw));
  o[11] = (c1 > c0) | ((s1 != s0) << 1) | ((t1 >= t0) << 2) | ((t0 != 0) << 3) | ((sm < nsm) << 4) | ((w < nw) << 5);
}

int main() {
  const int blocks = 2, bx = 16, by = 3, n = blocks * bx * by;
  unsigned *d, h[n * 14];
  cudaMalloc(&d, sizeof(h));
  regs<<<blocks, dim3(bx, by), 100>>>(d);
  cudaError_t e = cudaDeviceSynchronize();
  printf("launch: %s\n", cudaGetErrorString(e));
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i += 7) {
    unsigned *o = h + i * 14;
    printf("t%02d tid=(%u,%u) ntid=(%u,%u) ctaid=%u nctaid=%u lane=%u lt=%08x le=%08x eq=%08x ge=%08x gt=%08x dyn=%u flags=%u\n",
           i, o[0], o[1], o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[12], o[13], o[10], o[11]);
  }
  return 0;
}
