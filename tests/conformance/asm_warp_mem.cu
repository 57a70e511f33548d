// asm_warp_mem: warp and memory PTX in inline asm: shfl.sync (bfly, up, down, idx),
// vote.sync (ballot, all, any), activemask, ld.global / ld.global.nc / st.global with cache
// hints, ld.shared / st.shared through cvta.to.shared, atom (add, cas, exch, max, with
// .gpu/.relaxed), red.global.add, bar.sync, membar.gl, fence.acq_rel.gpu, "memory" clobbers.
// Expected output: captured from nvcc 13.0 (V13.0.88) -arch=sm_90 on an NVIDIA H100, driver 580.159.04 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cstring>

__global__ void warp(const int *in, int *out, unsigned *counters) {
  __shared__ int tile[64];
  int t = threadIdx.x;
  int v;
  asm volatile("ld.global.nc.s32 %0, [%1];" : "=r"(v) : "l"(in + t));
  int w;
  asm volatile("ld.global.ca.s32 %0, [%1+4];" : "=r"(w) : "l"(in + (t & ~1)));
  {
    unsigned long long sp;
    asm volatile("{\n\t.reg .u64 s;\n\tcvta.to.shared.u64 s, %1;\n\tst.shared.s32 [s], %2;\n\tmov.u64 %0, s;\n\t}"
                 : "=l"(sp) : "l"(tile + t), "r"(v * 3) : "memory");
  }
  asm volatile("bar.sync 0;" ::: "memory");
  int nb;
  asm volatile("{\n\t.reg .u64 s;\n\tcvta.to.shared.u64 s, %1;\n\tld.shared.s32 %0, [s];\n\t}" : "=r"(nb) : "l"(tile + (63 - t)) : "memory");
  int x, up, down, idx;
  asm volatile("shfl.sync.bfly.b32 %0, %1, %2, %3, %4;" : "=r"(x) : "r"(v), "r"(1), "r"(0x1f), "r"(0xffffffff));
  asm volatile("shfl.sync.up.b32 %0, %1, %2, %3, %4;" : "=r"(up) : "r"(v), "r"(2), "r"(0), "r"(0xffffffff));
  asm volatile("shfl.sync.down.b32 %0, %1, %2, %3, %4;" : "=r"(down) : "r"(v), "r"(3), "r"(0x1f), "r"(0xffffffff));
  asm volatile("shfl.sync.idx.b32 %0, %1, %2, %3, %4;" : "=r"(idx) : "r"(v), "r"(5), "r"(0x1f), "r"(0xffffffff));
  int seg;
  asm volatile("shfl.sync.down.b32 %0, %1, 1, 0x181f, -1;" : "=r"(seg) : "r"(v));
  unsigned ballot, act;
  int all, any;
  asm volatile("{\n\t.reg .pred p;\n\tsetp.gt.s32 p, %1, 40;\n\tvote.sync.ballot.b32 %0, p, 0xffffffff;\n\t}" : "=r"(ballot) : "r"(v));
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.ge.s32 p, %1, 0;\n\tvote.sync.all.pred q, p, 0xffffffff;\n\tselp.s32 %0, 1, 0, q;\n\t}" : "=r"(all) : "r"(v));
  asm volatile("{\n\t.reg .pred p, q;\n\tsetp.eq.s32 p, %1, 17;\n\tvote.sync.any.pred q, p, 0xffffffff;\n\tselp.s32 %0, 1, 0, q;\n\t}" : "=r"(any) : "r"(v));
  act = 0;
  if (t % 3 == 0) asm volatile("activemask.b32 %0;" : "=r"(act));
  int *o = out + t * 12;
  asm volatile("st.global.wb.s32 [%0], %1;" :: "l"(o), "r"(x) : "memory");
  asm volatile("st.global.s32 [%0+4], %1;" :: "l"(o), "r"(up) : "memory");
  o[2] = down; o[3] = idx; o[4] = seg; o[5] = (int)ballot; o[6] = all; o[7] = any; o[8] = (int)act; o[9] = w; o[10] = nb;
  unsigned old;
  asm volatile("atom.global.add.u32 %0, [%1], %2;" : "=r"(old) : "l"(counters), "r"(1u) : "memory");
  asm volatile("red.global.add.u32 [%0], %1;" :: "l"(counters + 1), "r"((unsigned)v) : "memory");
  asm volatile("atom.relaxed.gpu.global.max.s32 %0, [%1], %2;" : "=r"(old) : "l"(counters + 2), "r"(v) : "memory");
  asm volatile("membar.gl;" ::: "memory");
  asm volatile("fence.acq_rel.gpu;" ::: "memory");
  unsigned prev;
  asm volatile("atom.global.exch.b32 %0, [%1], %2;" : "=r"(prev) : "l"(counters + 3), "r"(5u) : "memory");
  unsigned cas;
  asm volatile("atom.global.cas.b32 %0, [%1], %2, %3;" : "=r"(cas) : "l"(counters + 4), "r"(0u), "r"(100u + t) : "memory");
  o[11] = (cas == 0);
  unsigned long long big;
  asm volatile("atom.global.add.u64 %0, [%1], %2;" : "=l"(big) : "l"((unsigned long long *)(counters + 6)), "l"(1ull << 33) : "memory");
  float fold;
  asm volatile("atom.global.add.f32 %0, [%1], %2;" : "=f"(fold) : "l"((float *)(counters + 5)), "f"(0.5f) : "memory");
}

int main() {
  const int n = 64;
  int h_in[n + 2], h_out[n * 12];
  unsigned hc[8];
  for (int i = 0; i < n + 2; i++) h_in[i] = (i * 37) % 61;
  int *d_in, *d_out;
  unsigned *dc;
  cudaMalloc(&d_in, sizeof(h_in)); cudaMalloc(&d_out, sizeof(h_out)); cudaMalloc(&dc, sizeof(hc));
  cudaMemcpy(d_in, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
  cudaMemset(dc, 0, sizeof(hc));
  warp<<<1, n>>>(d_in, d_out, dc);
  cudaError_t e = cudaDeviceSynchronize();
  printf("launch: %s\n", cudaGetErrorString(e));
  cudaMemcpy(h_out, d_out, sizeof(h_out), cudaMemcpyDeviceToHost);
  cudaMemcpy(hc, dc, sizeof(hc), cudaMemcpyDeviceToHost);
  int cas_winners = 0;
  for (int t = 0; t < n; t++) {
    int *o = h_out + t * 12;
    cas_winners += o[11];
    printf("t%02d bfly %2d up %2d down %2d idx %2d seg %2d ballot %08x all %d any %d act %08x w %2d nb %3d\n", t, o[0], o[1],
           o[2], o[3], o[4], o[5], o[6], o[7], o[8], o[9], o[10]);
  }
  float fsum;
  memcpy(&fsum, &hc[5], 4);
  unsigned long long big;
  memcpy(&big, &hc[6], 8);
  printf("count %u sum %u max %u exch %u cas-winners %d (cas value in range %d) fsum %g big %llx\n", hc[0], hc[1], hc[2],
         hc[3], cas_winners, hc[4] >= 100 && hc[4] < 164, fsum, big);
  return 0;
}
