// math_double: double-precision math library in device code (sqrt, exp, log, sin, cos,
// pow, atan2, erf, erfc, lgamma, tgamma, fma, frexp, modf, ldexp, cbrt, hypot, expm1,
// log1p, fmod, remainder, trunc/round/rint), checked against the host's libm with a
// tolerance; exactly-rounded operations compared bit for bit; values printed with 10
// significant digits.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cmath>

#define ND 24
__global__ void mathd(const double *x, double *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  double v = x[i], a = fabs(v) + 0.5;
  double *r = o + i * ND;
  r[0] = sqrt(a); r[1] = exp(v); r[2] = log(a); r[3] = sin(v); r[4] = cos(v);
  r[5] = pow(a, 2.3); r[6] = atan2(v, -1.5); r[7] = erf(v); r[8] = erfc(v);
  r[9] = lgamma(a); r[10] = tgamma(a); r[11] = fma(v, 1.0 / 3.0, 0.125);
  int e; r[12] = frexp(v, &e); r[13] = e;
  double ip; r[14] = modf(v, &ip); r[15] = ip;
  r[16] = ldexp(v, -7); r[17] = cbrt(v); r[18] = hypot(v, 3.0);
  r[19] = expm1(v * 1e-3) + log1p(a);
  r[20] = fmod(v, 0.75); r[21] = remainder(v, 0.75);
  r[22] = trunc(v) + round(v) * 10 + rint(v) * 100;
  r[23] = v / 7.0;
}

static void check(const char *name, double got, double want, double tol) {
  bool ok = tol == 0 ? got == want : std::fabs(got - want) <= tol * std::fmax(1.0, std::fabs(want));
  printf("  %-10s %-18.10g %s\n", name, got, ok ? "ok" : "MISMATCH");
  if (!ok) printf("    want %.17g\n", want);
}

int main() {
  double xs[] = {-3.5, -0.7, 0.0, 0.2, 1.0, 2.75, 9.5};
  const int n = sizeof(xs) / sizeof(xs[0]);
  double *dx, *dout, out[n * ND];
  cudaMalloc(&dx, sizeof(xs)); cudaMalloc(&dout, sizeof(out));
  cudaMemcpy(dx, xs, sizeof(xs), cudaMemcpyHostToDevice);
  mathd<<<1, 32>>>(dx, dout, n);
  cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
  const double t = 1e-14;
  for (int i = 0; i < n; i++) {
    double v = xs[i], a = std::fabs(v) + 0.5, *r = out + i * ND;
    printf("x = %g\n", v);
    check("sqrt", r[0], std::sqrt(a), 0);
    check("exp", r[1], std::exp(v), t);
    check("log", r[2], std::log(a), t);
    check("sin", r[3], std::sin(v), t);
    check("cos", r[4], std::cos(v), t);
    check("pow", r[5], std::pow(a, 2.3), t);
    check("atan2", r[6], std::atan2(v, -1.5), t);
    check("erf", r[7], std::erf(v), t);
    check("erfc", r[8], std::erfc(v), 1e-13);
    check("lgamma", r[9], std::lgamma(a), 1e-13);
    check("tgamma", r[10], std::tgamma(a), 1e-13);
    check("fma", r[11], std::fma(v, 1.0 / 3.0, 0.125), 0);
    int e; double fr = std::frexp(v, &e);
    check("frexp", r[12], fr, 0); check("frexp.e", r[13], e, 0);
    double ip; double fp = std::modf(v, &ip);
    check("modf", r[14], fp, 0); check("modf.int", r[15], ip, 0);
    check("ldexp", r[16], std::ldexp(v, -7), 0);
    check("cbrt", r[17], std::cbrt(v), t);
    check("hypot", r[18], std::hypot(v, 3.0), t);
    check("expm1+lp", r[19], std::expm1(v * 1e-3) + std::log1p(a), t);
    check("fmod", r[20], std::fmod(v, 0.75), 0);
    check("remainder", r[21], std::remainder(v, 0.75), 0);
    check("rounding", r[22], std::trunc(v) + std::round(v) * 10 + std::rint(v) * 100, 0);
    check("div", r[23], v / 7.0, 0);
  }
  return 0;
}
