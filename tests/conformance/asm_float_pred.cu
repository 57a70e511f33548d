// asm_float_pred: floating point and predicates in inline PTX: cvt with rounding modes
// (.rn/.rz/.rm/.rp to integer and f64->f32, .rni/.rzi/.rmi/.rpi float rounding, .sat,
// f32<->f16), add/mul/fma/div.rn, min/max/abs/neg on floats, setp + selp, set, predicated
// instructions (@p, @!p), a branch to a label inside the asm, and "f"/"d" operands.
// Expected output: captured from nvcc 13.0 (V13.0.88) -arch=sm_90 on an NVIDIA H100, driver 580.159.04 (tools/nvcc-capture.sh).
#include <cstdio>

#define N 8

__global__ void fp(const float *a, const double *d, float *fo, int *io) {
  int i = threadIdx.x;
  float x = a[i];
  double y = d[i];
  int rn, rz, rm, rp;
  asm("cvt.rni.s32.f32 %0, %1;" : "=r"(rn) : "f"(x));
  asm("cvt.rzi.s32.f32 %0, %1;" : "=r"(rz) : "f"(x));
  asm("cvt.rmi.s32.f32 %0, %1;" : "=r"(rm) : "f"(x));
  asm("cvt.rpi.s32.f32 %0, %1;" : "=r"(rp) : "f"(x));
  io[i * 12 + 0] = rn; io[i * 12 + 1] = rz; io[i * 12 + 2] = rm; io[i * 12 + 3] = rp;
  float f_rn, f_rz, f_rm, f_rp;
  asm("cvt.rn.f32.f64 %0, %1;" : "=f"(f_rn) : "d"(y));
  asm("cvt.rz.f32.f64 %0, %1;" : "=f"(f_rz) : "d"(y));
  asm("cvt.rm.f32.f64 %0, %1;" : "=f"(f_rm) : "d"(y));
  asm("cvt.rp.f32.f64 %0, %1;" : "=f"(f_rp) : "d"(y));
  fo[i * 16 + 0] = f_rn; fo[i * 16 + 1] = f_rz; fo[i * 16 + 2] = f_rm; fo[i * 16 + 3] = f_rp;
  float ri, sat;
  asm("cvt.rni.f32.f32 %0, %1;" : "=f"(ri) : "f"(x));
  asm("cvt.sat.f32.f32 %0, %1;" : "=f"(sat) : "f"(x));
  fo[i * 16 + 4] = ri; fo[i * 16 + 5] = sat;
  unsigned short hb;
  float back;
  asm("cvt.rn.f16.f32 %0, %1;" : "=h"(hb) : "f"(x * 1000.0f));
  asm("cvt.f32.f16 %0, %1;" : "=f"(back) : "h"(hb));
  io[i * 12 + 4] = hb; fo[i * 16 + 6] = back;
  unsigned u8s;
  asm("cvt.sat.u8.s32 %0, %1;" : "=r"(u8s) : "r"((rn % 100) * 50));
  io[i * 12 + 5] = u8s;
  float s, m, fm, q, mn, mx, ab, ng;
  asm("add.rn.f32 %0, %1, %2;" : "=f"(s) : "f"(x), "f"(0.1f));
  asm("mul.rz.f32 %0, %1, %2;" : "=f"(m) : "f"(x), "f"(3.3f));
  asm("fma.rn.f32 %0, %1, %2, %3;" : "=f"(fm) : "f"(x), "f"(x), "f"(-1.0f));
  asm("div.rn.f32 %0, %1, %2;" : "=f"(q) : "f"(1.0f), "f"(x));
  asm("min.f32 %0, %1, %2;" : "=f"(mn) : "f"(x), "f"(0.5f));
  asm("max.f32 %0, %1, %2;" : "=f"(mx) : "f"(x), "f"(0.5f));
  asm("abs.f32 %0, %1;" : "=f"(ab) : "f"(x));
  asm("neg.f32 %0, %1;" : "=f"(ng) : "f"(x));
  fo[i * 16 + 7] = s; fo[i * 16 + 8] = m; fo[i * 16 + 9] = fm; fo[i * 16 + 10] = q;
  fo[i * 16 + 11] = mn; fo[i * 16 + 12] = mx; fo[i * 16 + 13] = ab; fo[i * 16 + 14] = ng;
  double dd;
  asm("fma.rn.f64 %0, %1, %2, %3;" : "=d"(dd) : "d"(y), "d"(y), "d"(0.25));
  fo[i * 16 + 15] = (float)dd;
  int sel, clamp, branchy, setv;
  asm("{\n\t.reg .pred p;\n\tsetp.gt.f32 p, %1, 0f00000000;\n\tselp.s32 %0, 1, -1, p;\n\t}" : "=r"(sel) : "f"(x));
  asm("{\n\t.reg .pred p, q;\n\tmov.s32 %0, %1;\n\tsetp.lt.s32 p, %1, -3;\n\t@p mov.s32 %0, -3;\n\tsetp.le.s32 q, %1, 3;\n\t@!q mov.s32 %0, 3;\n\t}"
      : "=r"(clamp) : "r"(rn));
  asm("{\n\t.reg .pred p;\n\t.reg .u32 n;\n\tmov.u32 %0, 0;\n\tmov.u32 n, %1;\n"
      "ASM_LOOP:\n\tsetp.eq.u32 p, n, 0;\n\t@p bra ASM_DONE;\n\tadd.u32 %0, %0, n;\n\tsub.u32 n, n, 1;\n\tbra ASM_LOOP;\n"
      "ASM_DONE:\n\t}" : "=r"(branchy) : "r"(i + 3));
  asm("set.ge.u32.f32 %0, %1, %2;" : "=r"(setv) : "f"(x), "f"(1.0f));
  io[i * 12 + 6] = sel; io[i * 12 + 7] = clamp; io[i * 12 + 8] = branchy; io[i * 12 + 9] = setv;
  int andp;
  asm("{\n\t.reg .pred a, b, c;\n\tsetp.ne.s32 a, %1, 0;\n\tsetp.gt.s32 b, %2, 2;\n\tand.pred c, a, b;\n\tselp.u32 %0, 7, 9, c;\n\t}"
      : "=r"(andp) : "r"(rn), "r"(i));
  io[i * 12 + 10] = andp;
  long long ll;
  asm("cvt.rzi.s64.f64 %0, %1;" : "=l"(ll) : "d"(y * 1e10));
  io[i * 12 + 11] = (int)(ll % 1000003);
}

int main() {
  float ha[N] = {2.5f, -2.5f, 0.49999997f, -7.75f, 1e10f, 3.5f, -0.0f, 100.125f};
  double hd[N] = {1.0000000596046448, -1.0000000596046448, 3.14159265358979, 1e-40, -2.7182818284590452, 0.1, 1e39, 123456789.123};
  float *da, *fo, hf[N * 16];
  double *dd;
  int *io, hi[N * 12];
  cudaMalloc(&da, sizeof(ha)); cudaMalloc(&dd, sizeof(hd)); cudaMalloc(&fo, sizeof(hf)); cudaMalloc(&io, sizeof(hi));
  cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice);
  cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice);
  fp<<<1, N>>>(da, dd, fo, io);
  cudaMemcpy(hf, fo, sizeof(hf), cudaMemcpyDeviceToHost);
  cudaMemcpy(hi, io, sizeof(hi), cudaMemcpyDeviceToHost);
  for (int i = 0; i < N; i++) {
    printf("x=%g: cvt.ri %d %d %d %d", ha[i], hi[i * 12], hi[i * 12 + 1], hi[i * 12 + 2], hi[i * 12 + 3]);
    printf(" | f64->f32 %a %a %a %a", hf[i * 16], hf[i * 16 + 1], hf[i * 16 + 2], hf[i * 16 + 3]);
    printf(" | rni %g sat %g f16 %04x back %g u8sat %d\n", hf[i * 16 + 4], hf[i * 16 + 5], hi[i * 12 + 4], hf[i * 16 + 6], hi[i * 12 + 5]);
    printf("   add %a mul.rz %a fma %a div %a min %g max %g abs %g neg %g f64fma %a\n", hf[i * 16 + 7], hf[i * 16 + 8],
           hf[i * 16 + 9], hf[i * 16 + 10], hf[i * 16 + 11], hf[i * 16 + 12], hf[i * 16 + 13], hf[i * 16 + 14], hf[i * 16 + 15]);
    printf("   selp %d clamp %d loop %d set %d and.pred %d s64 %d\n", hi[i * 12 + 6], hi[i * 12 + 7], hi[i * 12 + 8],
           hi[i * 12 + 9], hi[i * 12 + 10], hi[i * 12 + 11]);
  }
  return 0;
}
