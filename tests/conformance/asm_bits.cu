// asm_bits: integer PTX in inline asm: shf.l/shf.r (wrap, clamp), prmt (default and the
// f4e/b4e/rc8/ecl/ecr/rc16 modes), bfe (u32/s32/u64), bfi, brev, popc, clz (32/64),
// mul.hi, mul.wide, mad.lo, mad.hi, mad.wide, add.cc/addc, sub.cc/subc, min/max/abs/neg,
// and/or/xor/not, shl/shr, div/rem, a "n" immediate, "h" 16-bit operands, mov packing
// {a, b} both ways, and a "+r" read-write operand.
// Expected output: captured from nvcc 13.0 (V13.0.88) -arch=sm_90 on an NVIDIA H100, driver 580.159.04 (tools/nvcc-capture.sh).
#include <cstdio>

#define N 8

__global__ void bits(const unsigned *a, const unsigned *b, unsigned *out) {
  int i = threadIdx.x;
  unsigned x = a[i], y = b[i], r[44];
  unsigned s = i * 5;
  asm("shf.l.wrap.b32 %0, %1, %2, %3;" : "=r"(r[0]) : "r"(x), "r"(y), "r"(s));
  asm("shf.r.wrap.b32 %0, %1, %2, %3;" : "=r"(r[1]) : "r"(x), "r"(y), "r"(s));
  asm("shf.l.clamp.b32 %0, %1, %2, %3;" : "=r"(r[2]) : "r"(x), "r"(y), "r"(s));
  asm("shf.r.clamp.b32 %0, %1, %2, %3;" : "=r"(r[3]) : "r"(x), "r"(y), "r"(s));
  unsigned sel = 0x7531u + i * 0x1111u;
  asm("prmt.b32 %0, %1, %2, %3;" : "=r"(r[4]) : "r"(x), "r"(y), "r"(sel));
  asm("prmt.b32.f4e %0, %1, %2, %3;" : "=r"(r[5]) : "r"(x), "r"(y), "r"(s));
  asm("prmt.b32.b4e %0, %1, %2, %3;" : "=r"(r[6]) : "r"(x), "r"(y), "r"(s));
  asm("prmt.b32.rc8 %0, %1, %2, %3;" : "=r"(r[7]) : "r"(x), "r"(y), "r"(s));
  asm("prmt.b32.ecl %0, %1, %2, %3;" : "=r"(r[8]) : "r"(x), "r"(y), "r"(s));
  asm("prmt.b32.ecr %0, %1, %2, %3;" : "=r"(r[9]) : "r"(x), "r"(y), "r"(s));
  asm("prmt.b32.rc16 %0, %1, %2, %3;" : "=r"(r[10]) : "r"(x), "r"(y), "r"(s));
  asm("bfe.u32 %0, %1, %2, %3;" : "=r"(r[11]) : "r"(x), "r"(s), "r"(i * 3 + 1));
  int sx;
  asm("bfe.s32 %0, %1, %2, %3;" : "=r"(sx) : "r"(x), "r"(s), "r"(i * 3 + 1));
  r[12] = sx;
  asm("bfi.b32 %0, %1, %2, %3, %4;" : "=r"(r[13]) : "r"(y), "r"(x), "r"(s), "r"(i + 4));
  asm("brev.b32 %0, %1;" : "=r"(r[14]) : "r"(x));
  asm("popc.b32 %0, %1;" : "=r"(r[15]) : "r"(x));
  asm("clz.b32 %0, %1;" : "=r"(r[16]) : "r"(x >> i));
  asm("mul.hi.u32 %0, %1, %2;" : "=r"(r[17]) : "r"(x), "r"(y));
  asm("mul.hi.s32 %0, %1, %2;" : "=r"(r[18]) : "r"(x), "r"(y));
  unsigned long long w, w2, w3;
  asm("mul.wide.u32 %0, %1, %2;" : "=l"(w) : "r"(x), "r"(y));
  asm("mul.wide.s32 %0, %1, %2;" : "=l"(w2) : "r"(x), "r"(y));
  asm("mad.wide.u32 %0, %1, %2, %3;" : "=l"(w3) : "r"(x), "r"(y), "l"(w2));
  r[19] = (unsigned)w; r[20] = (unsigned)(w >> 32); r[21] = (unsigned)(w2 >> 32); r[22] = (unsigned)(w3 >> 32) ^ (unsigned)w3;
  asm("mad.lo.u32 %0, %1, %2, %3;" : "=r"(r[23]) : "r"(x), "r"(y), "r"(s));
  asm("mad.hi.s32 %0, %1, %2, %3;" : "=r"(r[24]) : "r"(x), "r"(y), "r"(s));
  unsigned lo, hi;
  asm("add.cc.u32 %0, %2, %3;\n\taddc.u32 %1, %4, %5;" : "=r"(lo), "=r"(hi) : "r"(x), "r"(y), "r"(s), "r"(i));
  r[25] = lo ^ (hi << 16);
  asm("sub.cc.u32 %0, %2, %3;\n\tsubc.u32 %1, %4, %5;" : "=r"(lo), "=r"(hi) : "r"(s), "r"(x), "r"(y), "r"(i));
  r[26] = lo ^ (hi << 8);
  int mn, mx, ab, ng;
  asm("min.s32 %0, %1, %2;" : "=r"(mn) : "r"((int)x), "r"((int)y));
  asm("max.u32 %0, %1, %2;" : "=r"(mx) : "r"(x), "r"(y));
  asm("abs.s32 %0, %1;" : "=r"(ab) : "r"((int)x));
  asm("neg.s32 %0, %1;" : "=r"(ng) : "r"((int)y));
  r[27] = mn; r[28] = mx; r[29] = ab; r[30] = ng;
  asm("{\n\t.reg .b32 t;\n\tand.b32 t, %1, %2;\n\tor.b32 %0, t, %3;\n\txor.b32 %0, %0, %4;\n\tnot.b32 %0, %0;\n\t}"
      : "=r"(r[31]) : "r"(x), "r"(y), "r"(s), "n"(0x5a5a));
  asm("shl.b32 %0, %1, %2;" : "=r"(r[32]) : "r"(x), "r"(i * 5));
  asm("shr.u32 %0, %1, %2;" : "=r"(r[33]) : "r"(x), "r"(i * 5));
  asm("shr.s32 %0, %1, %2;" : "=r"(r[34]) : "r"(x), "r"(i * 5));
  asm("div.u32 %0, %1, %2;" : "=r"(r[35]) : "r"(x), "r"(y | 1));
  asm("rem.s32 %0, %1, %2;" : "=r"(r[36]) : "r"(x), "r"((y & 0xff) + 1));
  unsigned long long v = ((unsigned long long)x << 32) | y, br, pc, cz;
  asm("brev.b64 %0, %1;" : "=l"(br) : "l"(v));
  asm("{ .reg .u32 t; popc.b64 t, %1; cvt.u64.u32 %0, t; }" : "=l"(pc) : "l"(v));
  asm("{ .reg .u32 t; clz.b64 t, %1; cvt.u64.u32 %0, t; }" : "=l"(cz) : "l"(v >> (i * 7)));
  r[37] = (unsigned)(br >> 32) ^ (unsigned)br; r[38] = (unsigned)pc + ((unsigned)cz << 8);
  unsigned short h1 = (unsigned short)x, h2;
  asm("add.u16 %0, %1, %2;" : "=h"(h2) : "h"(h1), "h"((unsigned short)y));
  unsigned long long e64;
  asm("bfe.u64 %0, %1, %2, %3;" : "=l"(e64) : "l"(v), "r"(s + 20), "r"(24));
  r[39] = h2 ^ (unsigned)(e64 << 8);
  unsigned long long packed;
  asm("mov.b64 %0, {%1, %2};" : "=l"(packed) : "r"(x), "r"(y));
  unsigned plo, phi;
  asm("mov.b64 {%0, %1}, %2;" : "=r"(plo), "=r"(phi) : "l"(packed * 3));
  r[40] = (unsigned)(packed >> 32) ^ (unsigned)(packed << 4);
  r[41] = plo ^ (phi >> 3);
  unsigned acc = i;
  asm("add.u32 %0, %0, %1;\n\tmul.lo.u32 %0, %0, 3;" : "+r"(acc) : "r"(x));
  r[42] = acc;
  unsigned hh;
  unsigned short q1 = (unsigned short)(x >> 16), q2 = (unsigned short)y, q3, q4;
  asm("mov.b32 %0, {%1, %2};" : "=r"(hh) : "h"(q1), "h"(q2));
  asm("mov.b32 {%0, %1}, %2;" : "=h"(q3), "=h"(q4) : "r"(hh ^ 0x00ff00ffu));
  r[43] = hh ^ ((unsigned)q3 << 1) ^ ((unsigned)q4 << 17);
  for (int k = 0; k < 44; k++) out[i * 44 + k] = r[k];
}

int main() {
  unsigned ha[N] = {0x12345678u, 0xdeadbeefu, 0x80000000u, 0x7fffffffu, 0x0000ff01u, 0xffffffffu, 0x00000001u, 0xcafef00du};
  unsigned hb[N] = {0x9abcdef0u, 0x00000003u, 0x80000001u, 0xfffffffeu, 0x01020304u, 0x00000000u, 0x76543210u, 0x0badc0deu};
  unsigned *da, *db, *dout, h[N * 44];
  cudaMalloc(&da, sizeof(ha)); cudaMalloc(&db, sizeof(hb)); cudaMalloc(&dout, sizeof(h));
  cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, sizeof(hb), cudaMemcpyHostToDevice);
  bits<<<1, N>>>(da, db, dout);
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  const char *names[44] = {"shf.l.wrap", "shf.r.wrap", "shf.l.clamp", "shf.r.clamp", "prmt", "prmt.f4e", "prmt.b4e",
                           "prmt.rc8", "prmt.ecl", "prmt.ecr", "prmt.rc16", "bfe.u32", "bfe.s32", "bfi", "brev",
                           "popc", "clz", "mul.hi.u32", "mul.hi.s32", "mul.wide.u32 lo", "mul.wide.u32 hi",
                           "mul.wide.s32 hi", "mad.wide", "mad.lo", "mad.hi.s32", "add.cc/addc", "sub.cc/subc",
                           "min.s32", "max.u32", "abs.s32", "neg.s32", "logic", "shl", "shr.u32", "shr.s32",
                           "div.u32", "rem.s32", "brev.b64", "popc/clz.b64", "add.u16/bfe.u64", "mov.b64 pack", "mov.b64 unpack", "+r", "mov.b32 h pack"};
  for (int k = 0; k < 44; k++) {
    printf("%-16s", names[k]);
    for (int i = 0; i < N; i++) printf(" %08x", h[i * 44 + k]);
    printf("\n");
  }
  return 0;
}
