// fast_intrinsics: single-precision intrinsics. Exact ones compared bit for bit:
// rounding-mode arithmetic (__fadd_rn/rz/ru/rd, __fmul_r*, __fdiv_r*, __fsqrt_r*,
// __frcp_r*, __fmaf_r*), conversions (__float2int_rn/rz/ru/rd, __float2uint_r*,
// __int2float_r*, __double2float_r*), reinterpretation (__float_as_int, __int_as_float,
// __double_as_longlong, __hiloint2double, __double2hiint/loint), __saturatef.
// Approximate ones (__sinf, __cosf, __expf, __logf, __powf, __fdividef, __tanf,
// __exp10f, __log2f, __log10f) are checked against libm with a loose tolerance.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cmath>

__global__ void exact(const float *x, unsigned *o) {
  float a = x[0], b = x[1], c = x[2];          // 1.0, 3.0, 1e-8
  int n = 0;
  o[n++] = __float_as_uint(__fadd_rn(a, c)); o[n++] = __float_as_uint(__fadd_ru(a, c));
  o[n++] = __float_as_uint(__fadd_rd(-a, -c)); o[n++] = __float_as_uint(__fadd_rz(-a, -c));
  o[n++] = __float_as_uint(__fdiv_rn(a, b)); o[n++] = __float_as_uint(__fdiv_rz(a, b));
  o[n++] = __float_as_uint(__fdiv_ru(a, b)); o[n++] = __float_as_uint(__fdiv_rd(a, b));
  o[n++] = __float_as_uint(__fmul_rn(b, 0.1f)); o[n++] = __float_as_uint(__fmul_ru(b, 0.1f));
  o[n++] = __float_as_uint(__fsqrt_rn(b)); o[n++] = __float_as_uint(__fsqrt_rd(b));
  o[n++] = __float_as_uint(__frcp_rn(b)); o[n++] = __float_as_uint(__frcp_ru(b));
  o[n++] = __float_as_uint(__fmaf_rn(b, 0.1f, c)); o[n++] = __float_as_uint(__fmaf_rz(b, 0.1f, -c));
  float h = x[3];                              // 2.5
  o[n++] = __float2int_rn(h); o[n++] = __float2int_rz(-h); o[n++] = __float2int_ru(h); o[n++] = __float2int_rd(-h);
  o[n++] = __float2int_rn(3.5f * a); o[n++] = __float2uint_rn(h); o[n++] = __float2uint_ru(h + c);
  o[n++] = __float_as_uint(__int2float_rn(16777217 * (int)a)); o[n++] = __float_as_uint(__int2float_ru(16777217 * (int)a));
  o[n++] = __float_as_uint(__uint2float_rd(4294967295u * (unsigned)a));
  double d = (double)x[4];                     // 0.1f widened
  o[n++] = __float_as_uint(__double2float_rn(d / 3.0)); o[n++] = __float_as_uint(__double2float_ru(d / 3.0));
  o[n++] = __float_as_int(a * -2.0f); o[n++] = __float_as_uint(__int_as_float(0x40490fdb));
  long long ll = __double_as_longlong(1.0 + d); o[n++] = (unsigned)(ll >> 32); o[n++] = (unsigned)ll;
  double hl = __hiloint2double(0x3ff80000, 0x1); o[n++] = __double2hiint(hl); o[n++] = __double2loint(hl);
  o[n++] = __float_as_uint(__saturatef(h)); o[n++] = __float_as_uint(__saturatef(-h)); o[n++] = __float_as_uint(__saturatef(0.25f * a));
  o[n++] = __float_as_uint(__saturatef(nanf("")));
  o[63] = n;
}

__global__ void approx(const float *x, float *o, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  o[i * 10 + 0] = __sinf(v); o[i * 10 + 1] = __cosf(v); o[i * 10 + 2] = __expf(v); o[i * 10 + 3] = __logf(v + 2.0f);
  o[i * 10 + 4] = __powf(v + 2.0f, 1.5f); o[i * 10 + 5] = __fdividef(v, 7.0f); o[i * 10 + 6] = __tanf(v * 0.5f);
  o[i * 10 + 7] = __exp10f(v * 0.5f); o[i * 10 + 8] = __log2f(v + 2.0f); o[i * 10 + 9] = __log10f(v + 2.0f);
}

int main() {
  float xs[5] = {1.0f, 3.0f, 1e-8f, 2.5f, 0.1f};
  float *dx; unsigned *dout, out[64];
  cudaMalloc(&dx, sizeof(xs)); cudaMalloc(&dout, sizeof(out));
  cudaMemcpy(dx, xs, sizeof(xs), cudaMemcpyHostToDevice);
  exact<<<1, 1>>>(dx, dout);
  cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
  const char *names[] = {"fadd_rn(1,1e-8)", "fadd_ru(1,1e-8)", "fadd_rd(-1,-1e-8)", "fadd_rz(-1,-1e-8)", "fdiv_rn(1,3)",
    "fdiv_rz(1,3)", "fdiv_ru(1,3)", "fdiv_rd(1,3)", "fmul_rn(3,0.1)", "fmul_ru(3,0.1)", "fsqrt_rn(3)", "fsqrt_rd(3)",
    "frcp_rn(3)", "frcp_ru(3)", "fmaf_rn(3,.1,1e-8)", "fmaf_rz(3,.1,-1e-8)", "float2int_rn(2.5)", "float2int_rz(-2.5)",
    "float2int_ru(2.5)", "float2int_rd(-2.5)", "float2int_rn(3.5)", "float2uint_rn(2.5)", "float2uint_ru(2.5+)",
    "int2float_rn(2^24+1)", "int2float_ru(2^24+1)", "uint2float_rd(2^32-1)", "double2float_rn(.1/3)", "double2float_ru(.1/3)",
    "float_as_int(-2)", "int_as_float(pi bits)", "double_as_ll hi", "double_as_ll lo", "hiloint2double hi", "hiloint2double lo",
    "saturatef(2.5)", "saturatef(-2.5)", "saturatef(0.25)", "saturatef(nan)"};
  int count = (int)out[63];
  printf("%d exact results\n", count);
  for (int i = 0; i < count && i < (int)(sizeof(names) / sizeof(names[0])); i++) printf("  %-24s 0x%08x\n", names[i], out[i]);

  float vs[6] = {-3.0f, -1.0f, -0.25f, 0.0f, 0.5f, 1.5f};
  float *dv, *dapp, app[60];
  cudaMalloc(&dv, sizeof(vs)); cudaMalloc(&dapp, sizeof(app));
  cudaMemcpy(dv, vs, sizeof(vs), cudaMemcpyHostToDevice);
  approx<<<1, 8>>>(dv, dapp, 6);
  cudaMemcpy(app, dapp, sizeof(app), cudaMemcpyDeviceToHost);
  const char *an[10] = {"__sinf", "__cosf", "__expf", "__logf", "__powf", "__fdividef", "__tanf", "__exp10f", "__log2f", "__log10f"};
  int bad = 0;
  for (int i = 0; i < 6; i++) {
    double v = vs[i];
    double want[10] = {sin(v), cos(v), exp(v), log(v + 2), pow(v + 2, 1.5), v / 7, tan(v * 0.5), pow(10.0, v * 0.5), log2(v + 2), log10(v + 2)};
    for (int j = 0; j < 10; j++) {
      double err = fabs(app[i * 10 + j] - want[j]);
      if (err > 1e-5 * fmax(1.0, fabs(want[j])) + 2e-6) { bad++; printf("  %s(%g) = %.7g, libm %.7g\n", an[j], v, app[i * 10 + j], want[j]); }
    }
  }
  printf("approximate intrinsics within tolerance: %s\n", bad ? "NO" : "yes");
  return 0;
}
