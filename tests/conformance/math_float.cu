// math_float: single-precision math library in device code (sqrtf, expf, logf, sinf,
// cosf, tanf, powf, atan2f, erff, fmaf, frexpf, modff, ldexpf, cbrtf, hypotf, rounding,
// fmodf, remainderf, copysignf, fminf/fmaxf, sincosf, rsqrtf, ...). Values are checked
// against the host's double-precision libm with a tolerance and printed with 5 digits;
// exactly-rounded operations are compared bit for bit.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cmath>
#include <cstring>

#define NF 30
__global__ void mathf(const float *x, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float v = x[i];
  float a = fabsf(v) + 0.5f;
  float *r = o + i * NF;
  r[0] = sqrtf(a);
  r[1] = expf(v);
  r[2] = logf(a);
  r[3] = sinf(v);
  r[4] = cosf(v);
  r[5] = tanf(v * 0.3f);
  r[6] = powf(a, 1.7f);
  r[7] = atan2f(v, 1.5f);
  r[8] = erff(v * 0.5f);
  r[9] = fmaf(v, 3.0f, 0.25f);
  int e; r[10] = frexpf(v, &e); r[11] = (float)e;
  float ip; r[12] = modff(v, &ip); r[13] = ip;
  r[14] = ldexpf(v, 5);
  r[15] = cbrtf(v);
  r[16] = hypotf(v, 2.0f);
  r[17] = floorf(v); r[18] = ceilf(v); r[19] = truncf(v); r[20] = roundf(v); r[21] = rintf(v);
  r[22] = fmodf(v, 1.25f);
  r[23] = remainderf(v, 1.25f);
  r[24] = copysignf(2.0f, v) + fminf(v, 0.0f) + fmaxf(v, 1.0f);
  float s, c; sincosf(v, &s, &c); r[25] = s * c;
  r[26] = rsqrtf(a);
  r[27] = log2f(a) + log10f(a);
  r[28] = tanhf(v) + asinhf(v);
  r[29] = v / 3.0f;
}

static void check(const char *name, float got, double want, double tol, bool exact) {
  bool ok;
  if (exact) ok = (got == (float)want) || (std::isnan(got) && std::isnan(want));
  else ok = std::fabs(got - want) <= tol * std::fmax(1.0, std::fabs(want));
  printf("  %-12s %-12.5g %s\n", name, got, ok ? "ok" : "MISMATCH");
  if (!ok) printf("    want %.9g\n", want);
}

int main() {
  float xs[] = {-2.75f, -1.0f, -0.3f, 0.0f, 0.5f, 1.0f, 2.5f, 7.125f, 10.0f};
  const int n = sizeof(xs) / sizeof(xs[0]);
  float *dx, *dout, out[n * NF];
  cudaMalloc(&dx, sizeof(xs)); cudaMalloc(&dout, sizeof(out));
  cudaMemcpy(dx, xs, sizeof(xs), cudaMemcpyHostToDevice);
  mathf<<<2, 8>>>(dx, dout, n);
  cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) {
    double v = xs[i], a = std::fabs(v) + 0.5;
    float *r = out + i * NF;
    printf("x = %g\n", xs[i]);
    check("sqrtf", r[0], std::sqrt(a), 0, true);
    check("expf", r[1], std::exp(v), 4e-7, false);
    check("logf", r[2], std::log(a), 4e-7, false);
    check("sinf", r[3], std::sin(v), 4e-7, false);
    check("cosf", r[4], std::cos(v), 4e-7, false);
    check("tanf", r[5], std::tan((double)(float)(xs[i] * 0.3f)), 6e-7, false);
    check("powf", r[6], std::pow(a, (double)1.7f), 8e-7, false);
    check("atan2f", r[7], std::atan2(v, 1.5), 4e-7, false);
    check("erff", r[8], std::erf(v * 0.5), 4e-7, false);
    check("fmaf", r[9], std::fma(v, 3.0, 0.25), 0, true);
    int e; double fr = std::frexp(v, &e);
    check("frexpf", r[10], fr, 0, true);
    check("frexpf.exp", r[11], e, 0, true);
    double ip; double fp = std::modf(v, &ip);
    check("modff", r[12], fp, 0, true);
    check("modff.int", r[13], ip, 0, true);
    check("ldexpf", r[14], std::ldexp(v, 5), 0, true);
    check("cbrtf", r[15], std::cbrt(v), 4e-7, false);
    check("hypotf", r[16], std::hypot(v, 2.0), 4e-7, false);
    check("floorf", r[17], std::floor(v), 0, true);
    check("ceilf", r[18], std::ceil(v), 0, true);
    check("truncf", r[19], std::trunc(v), 0, true);
    check("roundf", r[20], std::round(v), 0, true);
    check("rintf", r[21], std::rint(v), 0, true);
    check("fmodf", r[22], std::fmod(v, 1.25), 0, true);
    check("remainderf", r[23], std::remainder(v, 1.25), 0, true);
    check("copysign+mm", r[24], std::copysign(2.0, v) + std::fmin(v, 0.0) + std::fmax(v, 1.0), 0, true);
    check("sincosf", r[25], std::sin(v) * std::cos(v), 6e-7, false);
    check("rsqrtf", r[26], 1.0 / std::sqrt(a), 4e-7, false);
    check("log2+log10", r[27], std::log2(a) + std::log10(a), 6e-7, false);
    check("tanh+asinh", r[28], std::tanh(v) + std::asinh(v), 6e-7, false);
    check("div", r[29], (float)(xs[i] / 3.0f), 0, true);
  }
  return 0;
}
