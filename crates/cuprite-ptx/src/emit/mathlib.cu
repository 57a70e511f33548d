// Cuprite's device math library for the PTX back-end (emit/mathlib.rs), written for
// Cuprite from the functions' mathematical definitions. Plain CUDA C without preprocessor
// lines: the compiler driver reads it as is. Entry points are `__cuprite_ptx_<name>`,
// with the signature of the CUDA function `<name>`; helpers are `__cuprite_pm_*`.
//
// Double-precision routines carry the argument and intermediate results in
// double-double where the last bits matter (logarithm, the pow product, the
// trigonometric reduction), and evaluate Taylor or continued-fraction expansions on
// reduced ranges far enough that their truncation error is below 2^-60 relative. The
// single-precision functions evaluate the double routine and round once: within 1 ulp
// of the float result, inside CUDA's bounds (docs/MATH.md). NaNs come from arithmetic
// on the arguments, so that they have the GPU's own bits.

__device__ double __cuprite_pm_inf() { return __longlong_as_double(0x7ff0000000000000LL); }

// The NaN of an invalid operation: a NaN argument itself (unchanged: the GPU's
// arithmetic would replace its bits), else the positive quiet NaN (glibc's, so that the
// CPU and the GPU device agree).
__device__ double __cuprite_pm_nan(double x) {
  if (x != x) return x;
  return __longlong_as_double(0x7ff8000000000000LL);
}

// 2^n for -1022 <= n <= 1023.
__device__ double __cuprite_pm_pow2i(int n) { return __longlong_as_double((long long)(n + 1023) << 52); }

// x * 2^n, rounded once (steps that keep the value normal, then one that may round).
__device__ double __cuprite_pm_scale(double x, int n) {
  if (n > 2200) n = 2200;
  if (n < -2200) n = -2200;
  while (n > 1023) { x = x * __cuprite_pm_pow2i(1023); n -= 1023; }
  while (n < -1022) { x = x * __cuprite_pm_pow2i(-969); n += 969; }
  return x * __cuprite_pm_pow2i(n);
}

// e^(hi + lo), |lo| far below ulp(hi). Reduction hi = k ln2 + r, |r| <= ln2/2; Taylor
// series of degree 13 (truncation below 2^-60).
__device__ double __cuprite_pm_exp_hl(double hi, double lo) {
  if (hi != hi) return hi + hi;
  if (hi > 709.782712893384) return __cuprite_pm_inf();
  if (hi < -745.2) return 0.0;
  double k = rint(hi * 1.4426950408889634);
  double r = fma(-k, 0.6931471805599453, hi);
  r = fma(-k, 2.3190468138462996e-17, r);
  r = r + lo;
  double p = 1.6059043836821613e-10;          // 1/13!
  p = fma(p, r, 2.08767569878681e-09);         // 1/12!
  p = fma(p, r, 2.505210838544172e-08);        // 1/11!
  p = fma(p, r, 2.755731922398589e-07);        // 1/10!
  p = fma(p, r, 2.7557319223985893e-06);       // 1/9!
  p = fma(p, r, 2.48015873015873e-05);         // 1/8!
  p = fma(p, r, 0.0001984126984126984);        // 1/7!
  p = fma(p, r, 0.001388888888888889);         // 1/6!
  p = fma(p, r, 0.008333333333333333);         // 1/5!
  p = fma(p, r, 0.041666666666666664);         // 1/4!
  p = fma(p, r, 0.16666666666666666);          // 1/3!
  p = fma(p, r, 0.5);
  p = p * r * r + r;
  double e = 1.0 + p;
  int ki = (int)k;
  if (ki > 1000 || ki < -1000) {
    int h = ki / 2;
    return e * __cuprite_pm_pow2i(h) * __cuprite_pm_pow2i(ki - h);
  }
  return e * __cuprite_pm_pow2i(ki);
}

// log(x) as hi + *lo for finite x > 0: x = 2^e m, m in [sqrt(1/2), sqrt(2)),
// log m = 2 atanh(s), s = (m - 1)/(m + 1) carried in double-double.
__device__ double __cuprite_pm_log_hl(double x, double *lo) {
  long long b = __double_as_longlong(x);
  int e = 0;
  if (b < 0x0010000000000000LL) {
    x = x * 18014398509481984.0; // 2^54
    b = __double_as_longlong(x);
    e = -54;
  }
  e += (int)(b >> 52) - 1023;
  double m = __longlong_as_double((b & 0x000fffffffffffffLL) | 0x3ff0000000000000LL);
  if (m > 1.4142135623730951) {
    m = m * 0.5;
    e += 1;
  }
  double f = m - 1.0;
  double t = 2.0 + f;
  double tl = f - (t - 2.0);
  double s = f / t;
  double sl = (fma(-s, t, f) - s * tl) / t;
  double z = s * s;
  double R = 1.0 / 27.0;
  R = R * z + 1.0 / 25.0;
  R = R * z + 1.0 / 23.0;
  R = R * z + 1.0 / 21.0;
  R = R * z + 1.0 / 19.0;
  R = R * z + 1.0 / 17.0;
  R = R * z + 1.0 / 15.0;
  R = R * z + 1.0 / 13.0;
  R = R * z + 1.0 / 11.0;
  R = R * z + 1.0 / 9.0;
  R = R * z + 1.0 / 7.0;
  R = R * z + 1.0 / 5.0;
  R = R * z + 1.0 / 3.0;
  double hi = 2.0 * s;
  double l = 2.0 * sl + 2.0 * s * z * R;
  double ed = (double)e;
  double a = ed * 0.6931471805599453;
  double al = fma(ed, 0.6931471805599453, -a) + ed * 2.3190468138462996e-17;
  double sum = a + hi;
  double bb = sum - a;
  double err = (a - (sum - bb)) + (hi - bb);
  double lt = err + al + l;
  double res = sum + lt;
  *lo = lt - (res - sum);
  return res;
}

// ---------------------------------------------------------------- exponentials

__device__ double __cuprite_ptx_exp(double x) { return __cuprite_pm_exp_hl(x, 0.0); }

__device__ double __cuprite_ptx_exp2(double x) {
  if (x != x) return x;
  if (x > 1024.0) return __cuprite_pm_inf();
  if (x < -1080.0) return 0.0;
  double k = rint(x);
  double t = x - k;
  double a = t * 0.6931471805599453;
  double al = fma(t, 0.6931471805599453, -a) + t * 2.3190468138462996e-17;
  double e = __cuprite_pm_exp_hl(a, al);
  return __cuprite_pm_scale(e, (int)k);
}

__device__ double __cuprite_ptx_exp10(double x) {
  if (x != x) return x;
  if (x > 309.0) return __cuprite_pm_inf();
  if (x < -330.0) return 0.0;
  // 10^x = 2^k e^r, x = k log10(2) + t, r = t ln 10.
  double k = rint(x * 3.321928094887362);
  double t = fma(-k, 0.3010299956639812, x);
  double tl = k * 2.8037281277851704e-18;
  double a = t * 2.302585092994046;
  double al = fma(t, 2.302585092994046, -a) + t * -2.1707562233822494e-16 + tl * 2.302585092994046;
  double e = __cuprite_pm_exp_hl(a, al);
  return __cuprite_pm_scale(e, (int)k);
}

// e^x - 1 for |x| <= ln2/2 + small: Taylor series without the leading 1 (degree 15).
__device__ double __cuprite_pm_expm1_k(double x) {
  double p = 7.647163731819816e-13;            // 1/15!
  p = fma(p, x, 1.1470745597729725e-11);       // 1/14!
  p = fma(p, x, 1.6059043836821613e-10);
  p = fma(p, x, 2.08767569878681e-09);
  p = fma(p, x, 2.505210838544172e-08);
  p = fma(p, x, 2.755731922398589e-07);
  p = fma(p, x, 2.7557319223985893e-06);
  p = fma(p, x, 2.48015873015873e-05);
  p = fma(p, x, 0.0001984126984126984);
  p = fma(p, x, 0.001388888888888889);
  p = fma(p, x, 0.008333333333333333);
  p = fma(p, x, 0.041666666666666664);
  p = fma(p, x, 0.16666666666666666);
  p = fma(p, x, 0.5);
  return fma(p * x, x, x);
}

__device__ double __cuprite_ptx_expm1(double x) {
  if (x != x) return x;
  double ax = fabs(x);
  if (ax < 0.34657359027997264) {
    if (ax < 1e-300) return x;
    return __cuprite_pm_expm1_k(x);
  }
  if (x < -40.0) return -1.0;
  if (x > 40.0) return __cuprite_pm_exp_hl(x, 0.0);
  // x = k ln2 + r: e^x - 1 = 2^k (e^r - 1) + (2^k - 1), the last term exact.
  double k = rint(x * 1.4426950408889634);
  double r = fma(-k, 0.6931471805599453, x);
  double rl = -k * 2.3190468138462996e-17;
  double rr = r + rl;
  double rrl = rl - (rr - r);
  double pm = __cuprite_pm_expm1_k(rr);
  pm = pm + rrl * (1.0 + pm);
  double pk = __cuprite_pm_pow2i((int)k);
  return fma(pk, pm, pk - 1.0);
}

// ---------------------------------------------------------------- logarithms

__device__ double __cuprite_pm_log_special(double x) {
  // NaN for x < 0 or NaN, -inf for 0, x for +inf; 0 otherwise (not special).
  if (x != x) return x;
  if (x < 0.0) return __cuprite_pm_nan(x);
  if (x == 0.0) return -__cuprite_pm_inf();
  return x; // +inf
}

__device__ double __cuprite_ptx_log(double x) {
  if (!(x > 0.0) || x == __cuprite_pm_inf()) return __cuprite_pm_log_special(x);
  double lo;
  double hi = __cuprite_pm_log_hl(x, &lo);
  return hi + lo;
}

__device__ double __cuprite_ptx_log2(double x) {
  if (!(x > 0.0) || x == __cuprite_pm_inf()) return __cuprite_pm_log_special(x);
  double lo;
  double hi = __cuprite_pm_log_hl(x, &lo);
  double r = hi * 1.4426950408889634;
  double rl = fma(hi, 1.4426950408889634, -r) + (lo * 1.4426950408889634 + hi * 2.0355273740931033e-17);
  return r + rl;
}

__device__ double __cuprite_ptx_log10(double x) {
  if (!(x > 0.0) || x == __cuprite_pm_inf()) return __cuprite_pm_log_special(x);
  double lo;
  double hi = __cuprite_pm_log_hl(x, &lo);
  double r = hi * 0.4342944819032518;
  double rl = fma(hi, 0.4342944819032518, -r) + (lo * 0.4342944819032518 + hi * 1.098319650216765e-17);
  return r + rl;
}

__device__ double __cuprite_ptx_log1p(double x) {
  if (x != x) return x;
  if (x < -1.0) return __cuprite_pm_nan(x);
  if (x == -1.0) return -__cuprite_pm_inf();
  if (x == __cuprite_pm_inf()) return x;
  if (fabs(x) < 1e-300) return x;
  double u = 1.0 + x;
  double lo;
  double hi = __cuprite_pm_log_hl(u, &lo);
  // u = 1 + x rounded: log(1 + x) = log(u) + (1 + x - u)/u.
  double c = (x - (u - 1.0)) / u;
  if (u > 2.0) c = (1.0 - (u - x)) / u;
  return hi + (lo + c);
}

// ---------------------------------------------------------------- trigonometry

// The bits of 2/pi, 64 per word, most significant first.
__device__ const unsigned long long __cuprite_pm_two_over_pi[20] = {
  0xa2f9836e4e441529ULL, 0xfc2757d1f534ddc0ULL, 0xdb6295993c439041ULL, 0xfe5163abdebbc561ULL,
  0xb7246e3a424dd2e0ULL, 0x06492eea09d1921cULL, 0xfe1deb1cb129a73eULL, 0xe88235f52ebb4484ULL,
  0xe99c7026b45f7e41ULL, 0x3991d639835339f4ULL, 0x9c845f8bbdf9283bULL, 0x1ff897ffde05980fULL,
  0xef2f118b5a0a6d1fULL, 0x6d367ecf27cb09b7ULL, 0x4f463f669e5fea2dULL, 0x7527bac7ebe5f17bULL,
  0x3d0739f78a5292eaULL, 0x6bfb5fb11f8d5d08ULL, 0x56033046fc7b6babULL, 0xf0cfbc209af4361dULL};

// Bits [i, i + 64) of 2/pi (bit 0 is the first after the binary point).
__device__ unsigned long long __cuprite_pm_tpi_bits(int i) {
  if (i < 0) return i <= -64 ? 0ULL : __cuprite_pm_two_over_pi[0] >> (-i);
  int w = i >> 6;
  int sh = i & 63;
  unsigned long long a = __cuprite_pm_two_over_pi[w];
  if (sh == 0) return a;
  return (a << sh) | (__cuprite_pm_two_over_pi[w + 1] >> (64 - sh));
}

// Payne-Hanek reduction of a finite |x| >= 2^20: x = q pi/2 + r, r as hi + *lo.
__device__ double __cuprite_pm_reduce_big(double x, double *lo, int *q) {
  long long b = __double_as_longlong(x);
  int e = (int)((b >> 52) & 0x7ff) - 1075; // x = m 2^e
  unsigned long long m = (unsigned long long)((b & 0x000fffffffffffffLL) | 0x0010000000000000LL);
  // x 2/pi = m sum_i bit_i 2^(e - 1 - i): bits with e - 1 - i >= 2 add multiples of 4.
  int i0 = e - 2;
  unsigned long long w0 = __cuprite_pm_tpi_bits(i0);
  unsigned long long w1 = __cuprite_pm_tpi_bits(i0 + 64);
  unsigned long long w2 = __cuprite_pm_tpi_bits(i0 + 128);
  // x 2/pi mod 4 = (m W mod 2^192) 2^-190, W the 192 bits from bit i0: the top two bits
  // of the product are the quadrant, the other 190 the fraction.
  unsigned long long p0 = m * w2;
  unsigned long long c0 = __umul64hi(m, w2);
  unsigned long long p1 = m * w1;
  unsigned long long c1 = __umul64hi(m, w1);
  unsigned long long p2 = m * w0;
  p1 = p1 + c0;
  c1 = c1 + (p1 < c0 ? 1ULL : 0ULL);
  p2 = p2 + c1;
  int quad = (int)(p2 >> 62);
  unsigned long long f2 = p2 << 2 | p1 >> 62;
  unsigned long long f1 = p1 << 2 | p0 >> 62;
  int neg = 0;
  if (f2 >> 63) {
    // Fraction >= 1/2: take 1 - fraction, next quadrant.
    quad = quad + 1;
    neg = 1;
    f2 = ~f2;
    f1 = ~f1;
    f1 = f1 + 1ULL;
    if (f1 == 0ULL) f2 = f2 + 1ULL;
  }
  int lz = __clzll((long long)f2);
  if (lz > 0 && lz < 64) {
    f2 = f2 << lz | f1 >> (64 - lz);
    f1 = f1 << lz;
  }
  // fraction = (f2 + f1 2^-64) 2^-(64 + lz)
  double scale = __cuprite_pm_scale(1.0, -64 - lz);
  double t = (double)(f2 >> 11) * 2048.0 * scale;
  double tl = ((double)(f2 & 2047ULL) + (double)f1 * 5.421010862427522e-20) * scale;
  // r = fraction pi/2 in double-double.
  double rh = t * 1.5707963267948966;
  double rl = fma(t, 1.5707963267948966, -rh) + t * 6.123233995736766e-17 + tl * 1.5707963267948966;
  double r = rh + rl;
  double rlo = rl - (r - rh);
  if (neg) {
    r = -r;
    rlo = -rlo;
  }
  if (b < 0) {
    r = -r;
    rlo = -rlo;
    quad = -quad;
  }
  *lo = rlo;
  *q = quad & 3;
  return r;
}

// x = q pi/2 + r for finite x, |r| <= pi/4 (about), r as hi + *lo.
__device__ double __cuprite_pm_reduce(double x, double *lo, int *q) {
  if (fabs(x) < 0.7853981633974483) {
    *lo = 0.0;
    *q = 0;
    return x;
  }
  if (fabs(x) >= 1048576.0) return __cuprite_pm_reduce_big(x, lo, q);
  // Cody-Waite: pi/2 in four parts, the first three of 33 bits (k p_i exact for |k| < 2^20).
  double k = rint(x * 0.6366197723675814);
  double r1 = x - k * 1.5707963267341256;
  double p2 = k * 6.077100506303966e-11;
  double s = r1 - p2;
  double bb = s - r1;
  double err = (r1 - (s - bb)) + (-p2 - bb);
  double l = err - k * 2.0222662487111665e-21 - k * 8.4784276603689e-32;
  double r = s + l;
  *lo = l - (r - s);
  *q = ((int)(long long)k) & 3;
  return r;
}

// sin(r + rl) for |r| <= pi/4 + small: Taylor series to degree 19.
__device__ double __cuprite_pm_sin_k(double r, double rl) {
  double z = r * r;
  double p = -8.22063524662433e-18;               // -1/19!
  p = fma(p, z, 2.8114572543455206e-15);          // 1/17!
  p = fma(p, z, -7.647163731819816e-13);          // -1/15!
  p = fma(p, z, 1.6059043836821613e-10);          // 1/13!
  p = fma(p, z, -2.505210838544172e-08);          // -1/11!
  p = fma(p, z, 2.7557319223985893e-06);          // 1/9!
  p = fma(p, z, -0.0001984126984126984);          // -1/7!
  p = fma(p, z, 0.008333333333333333);            // 1/5!
  p = fma(p, z, -0.16666666666666666);            // -1/3!
  // sin(r + rl) = sin r + rl cos r, cos r ~ 1 - z/2.
  double tail = fma(r * z, p, rl * (1.0 - 0.5 * z));
  return r + tail;
}

// cos(r + rl) for |r| <= pi/4 + small: Taylor series to degree 20.
__device__ double __cuprite_pm_cos_k(double r, double rl) {
  double z = r * r;
  double p = 4.110317623312165e-19;               // 1/20!
  p = fma(p, z, -1.5619206968586225e-16);         // -1/18!
  p = fma(p, z, 4.779477332387385e-14);           // 1/16!
  p = fma(p, z, -1.1470745597729725e-11);         // -1/14!
  p = fma(p, z, 2.08767569878681e-09);            // 1/12!
  p = fma(p, z, -2.755731922398589e-07);          // -1/10!
  p = fma(p, z, 2.48015873015873e-05);            // 1/8!
  p = fma(p, z, -0.001388888888888889);           // -1/6!
  p = fma(p, z, 0.041666666666666664);            // 1/4!
  double hz = 0.5 * z;
  double w = 1.0 - hz;
  // cos(r + rl) = cos r - rl sin r.
  return w + (((1.0 - w) - hz) + (z * z * p - r * rl));
}

__device__ double __cuprite_ptx_sin(double x) {
  if (x != x || fabs(x) == __cuprite_pm_inf()) return __cuprite_pm_nan(x);
  if (x == 0.0) return x; // keeps the sign of zero
  double lo;
  int q;
  double r = __cuprite_pm_reduce(x, &lo, &q);
  double v = (q & 1) ? __cuprite_pm_cos_k(r, lo) : __cuprite_pm_sin_k(r, lo);
  return (q & 2) ? -v : v;
}

__device__ double __cuprite_ptx_cos(double x) {
  if (x != x || fabs(x) == __cuprite_pm_inf()) return __cuprite_pm_nan(x);
  double lo;
  int q;
  double r = __cuprite_pm_reduce(x, &lo, &q);
  double v = (q & 1) ? __cuprite_pm_sin_k(r, lo) : __cuprite_pm_cos_k(r, lo);
  return ((q + 1) & 2) ? -v : v;
}

__device__ void __cuprite_ptx_sincos(double x, double *s, double *c) {
  *s = __cuprite_ptx_sin(x);
  *c = __cuprite_ptx_cos(x);
}

__device__ double __cuprite_ptx_tan(double x) {
  if (x != x || fabs(x) == __cuprite_pm_inf()) return __cuprite_pm_nan(x);
  if (x == 0.0) return x; // keeps the sign of zero
  double lo;
  int q;
  double r = __cuprite_pm_reduce(x, &lo, &q);
  double s = __cuprite_pm_sin_k(r, lo);
  double c = __cuprite_pm_cos_k(r, lo);
  if (q & 1) return -c / s;
  return s / c;
}

// sin(pi x) and cos(pi x): x = n/2 + t exactly, |t| <= 1/4.
__device__ double __cuprite_pm_sinpi_red(double x, double *lo, int *q) {
  double n = rint(2.0 * x);
  double t = fma(n, -0.5, x);
  double a = t * 3.141592653589793;
  *lo = fma(t, 3.141592653589793, -a) + t * 1.2246467991473532e-16;
  double nm = n - 4.0 * floor(n * 0.25);
  *q = (int)nm;
  return a;
}

__device__ double __cuprite_ptx_sinpi(double x) {
  if (x != x || fabs(x) == __cuprite_pm_inf()) return __cuprite_pm_nan(x);
  if (fabs(x) >= 4503599627370496.0) return x * 0.0; // an even integer: +-0
  double lo;
  int q;
  double r = __cuprite_pm_sinpi_red(x, &lo, &q);
  double v = (q & 1) ? __cuprite_pm_cos_k(r, lo) : __cuprite_pm_sin_k(r, lo);
  v = (q & 2) ? -v : v;
  if (v == 0.0) v = x * 0.0; // sin(pi n) is +-0 with the sign of x
  return v;
}

__device__ double __cuprite_ptx_cospi(double x) {
  if (x != x || fabs(x) == __cuprite_pm_inf()) return __cuprite_pm_nan(x);
  if (fabs(x) >= 9007199254740992.0) return 1.0;
  double lo;
  int q;
  double r = __cuprite_pm_sinpi_red(x, &lo, &q);
  double v = (q & 1) ? __cuprite_pm_sin_k(r, lo) : __cuprite_pm_cos_k(r, lo);
  v = ((q + 1) & 2) ? -v : v;
  if (v == 0.0) v = 0.0; // cos(pi (n + 1/2)) is +0
  return v;
}

__device__ void __cuprite_ptx_sincospi(double x, double *s, double *c) {
  *s = __cuprite_ptx_sinpi(x);
  *c = __cuprite_ptx_cospi(x);
}

// atan(t) for |t| <= tan(pi/8): Taylor series to degree 47 (t^2 <= 0.1716).
__device__ double __cuprite_pm_atan_k(double t) {
  double z = t * t;
  double p = -1.0 / 47.0;
  p = p * z + 1.0 / 45.0;
  p = p * z - 1.0 / 43.0;
  p = p * z + 1.0 / 41.0;
  p = p * z - 1.0 / 39.0;
  p = p * z + 1.0 / 37.0;
  p = p * z - 1.0 / 35.0;
  p = p * z + 1.0 / 33.0;
  p = p * z - 1.0 / 31.0;
  p = p * z + 1.0 / 29.0;
  p = p * z - 1.0 / 27.0;
  p = p * z + 1.0 / 25.0;
  p = p * z - 1.0 / 23.0;
  p = p * z + 1.0 / 21.0;
  p = p * z - 1.0 / 19.0;
  p = p * z + 1.0 / 17.0;
  p = p * z - 1.0 / 15.0;
  p = p * z + 1.0 / 13.0;
  p = p * z - 1.0 / 11.0;
  p = p * z + 1.0 / 9.0;
  p = p * z - 1.0 / 7.0;
  p = p * z + 1.0 / 5.0;
  p = p * z - 1.0 / 3.0;
  return fma(t * z, p, t);
}

// atan(y/x) for 0 <= y, 0 < x, finite, as hi + *lo.
__device__ double __cuprite_pm_atan_ratio(double y, double x, double *lo) {
  // Reduce with atan(u) = pi/2 - atan(1/u) and atan(u) = pi/4 + atan((u-1)/(u+1)).
  double base = 0.0, basel = 0.0;
  double t;
  int negate = 0;
  if (y > x * 2.414213562373095) {
    t = x / y;
    base = 1.5707963267948966;
    basel = 6.123233995736766e-17;
    negate = 1;
  } else if (y > x * 0.41421356237309503) {
    t = (y - x) / (y + x);
    base = 0.7853981633974483;
    basel = 3.061616997868383e-17;
  } else {
    t = y / x;
  }
  double a = __cuprite_pm_atan_k(t);
  if (negate) a = -a;
  double r = base + a;
  *lo = basel + ((base - r) + a);
  return r;
}

__device__ double __cuprite_ptx_atan(double x) {
  if (x != x) return x;
  double ax = fabs(x);
  double r;
  if (ax == __cuprite_pm_inf()) {
    r = 1.5707963267948966;
  } else {
    double lo;
    double h = __cuprite_pm_atan_ratio(ax, 1.0, &lo);
    r = h + lo;
    if (ax < 1e-300) r = ax;
  }
  return __double_as_longlong(x) < 0 ? -r : r;
}

__device__ double __cuprite_ptx_atan2(double y, double x) {
  if (x != x || y != y) return x + y;
  double inf = __cuprite_pm_inf();
  double ay = fabs(y), ax = fabs(x);
  int xneg = __double_as_longlong(x) < 0;
  double r;
  if (ay == 0.0) {
    r = xneg ? 3.141592653589793 : 0.0;
  } else if (ax == 0.0) {
    r = 1.5707963267948966;
  } else if (ay == inf && ax == inf) {
    r = xneg ? 2.356194490192345 : 0.7853981633974483;
  } else if (ay == inf) {
    r = 1.5707963267948966;
  } else if (ax == inf) {
    r = xneg ? 3.141592653589793 : 0.0;
  } else {
    // Scale so that the quotient of the reduction neither overflows nor underflows.
    double s = 1.0;
    if (ay > 1e300 || ax > 1e300) s = 2.2250738585072014e-308 * 4503599627370496.0;
    if (ay < 1e-300 && ax < 1e-300) s = 4503599627370496.0 * 4503599627370496.0;
    double lo;
    double h;
    if (ay * s / (ax * s) < 1e-300 && !xneg) {
      h = ay / ax;
      lo = 0.0;
    } else {
      h = __cuprite_pm_atan_ratio(ay * s, ax * s, &lo);
    }
    if (xneg) {
      // pi - atan(|y/x|)
      double p = 3.141592653589793 - h;
      lo = (1.2246467991473532e-16 - lo) + ((3.141592653589793 - p) - h);
      h = p;
    }
    r = h + lo;
  }
  return __double_as_longlong(y) < 0 ? -r : r;
}

__device__ double __cuprite_ptx_asin(double x) {
  if (x != x) return x;
  double ax = fabs(x);
  if (ax > 1.0) return __cuprite_pm_nan(x);
  if (ax < 1e-300) return x;
  double c = sqrt(fma(-ax, ax, 1.0));
  double lo;
  double r = 1.5707963267948966;
  if (c != 0.0) {
    r = __cuprite_pm_atan_ratio(ax, c, &lo);
    r = r + lo;
  }
  return x < 0.0 ? -r : r;
}

__device__ double __cuprite_ptx_acos(double x) {
  if (x != x) return x;
  double ax = fabs(x);
  if (ax > 1.0) return __cuprite_pm_nan(x);
  if (x == 1.0) return 0.0;
  double c = sqrt(fma(-ax, ax, 1.0));
  double lo;
  double h = ax == 0.0 ? 1.5707963267948966 : __cuprite_pm_atan_ratio(c, ax, &lo);
  if (ax == 0.0) lo = 6.123233995736766e-17;
  if (x < 0.0) {
    double p = 3.141592653589793 - h;
    lo = (1.2246467991473532e-16 - lo) + ((3.141592653589793 - p) - h);
    h = p;
  }
  return h + lo;
}

// ---------------------------------------------------------------- hyperbolic

__device__ double __cuprite_ptx_sinh(double x) {
  if (x != x) return x;
  double ax = fabs(x);
  double r;
  if (ax < 0.5) {
    if (ax < 1e-300) return x;
    double z = x * x;
    // x + x^3/3! + ... + x^19/19!
    double p = 8.22063524662433e-18;
    p = fma(p, z, 2.8114572543455206e-15);
    p = fma(p, z, 7.647163731819816e-13);
    p = fma(p, z, 1.6059043836821613e-10);
    p = fma(p, z, 2.505210838544172e-08);
    p = fma(p, z, 2.7557319223985893e-06);
    p = fma(p, z, 0.0001984126984126984);
    p = fma(p, z, 0.008333333333333333);
    p = fma(p, z, 0.16666666666666666);
    return fma(x * z, p, x);
  }
  if (ax > 709.0) {
    double t = __cuprite_pm_exp_hl(0.5 * ax, 0.0);
    r = (0.5 * t) * t;
  } else {
    double e = __cuprite_pm_exp_hl(ax, 0.0);
    double em = __cuprite_ptx_expm1(ax);
    // sinh = (e - 1/e)/2 = (em + em/(em + 1))/2.
    r = 0.5 * (em + em / e);
  }
  return x < 0.0 ? -r : r;
}

__device__ double __cuprite_ptx_cosh(double x) {
  if (x != x) return x;
  double ax = fabs(x);
  if (ax > 709.0) {
    double t = __cuprite_pm_exp_hl(0.5 * ax, 0.0);
    return (0.5 * t) * t;
  }
  double e = __cuprite_pm_exp_hl(ax, 0.0);
  return 0.5 * e + 0.5 / e;
}

__device__ double __cuprite_ptx_tanh(double x) {
  if (x != x) return x;
  double ax = fabs(x);
  double r;
  if (ax > 22.0) {
    r = 1.0;
  } else if (ax < 1e-300) {
    return x;
  } else {
    double em = __cuprite_ptx_expm1(2.0 * ax);
    r = em / (em + 2.0);
  }
  return x < 0.0 ? -r : r;
}

__device__ double __cuprite_ptx_asinh(double x) {
  if (x != x) return x;
  double ax = fabs(x);
  double r;
  if (ax == __cuprite_pm_inf()) return x;
  if (ax < 1e-300) return x;
  if (ax > 268435456.0) {
    r = __cuprite_ptx_log(ax) + 0.6931471805599453;
  } else {
    double z = ax * ax;
    r = __cuprite_ptx_log1p(ax + z / (1.0 + sqrt(1.0 + z)));
  }
  return x < 0.0 ? -r : r;
}

__device__ double __cuprite_ptx_acosh(double x) {
  if (x != x) return x;
  if (x < 1.0) return __cuprite_pm_nan(x);
  if (x == __cuprite_pm_inf()) return x;
  if (x > 268435456.0) return __cuprite_ptx_log(x) + 0.6931471805599453;
  double t = x - 1.0;
  return __cuprite_ptx_log1p(t + sqrt(2.0 * t + t * t));
}

__device__ double __cuprite_ptx_atanh(double x) {
  if (x != x) return x;
  double ax = fabs(x);
  if (ax > 1.0) return __cuprite_pm_nan(x);
  if (ax == 1.0) return x * __cuprite_pm_inf();
  if (ax < 1e-300) return x;
  double r = 0.5 * __cuprite_ptx_log1p(2.0 * ax / (1.0 - ax));
  return x < 0.0 ? -r : r;
}

// ---------------------------------------------------------------- powers and roots

__device__ int __cuprite_pm_is_int(double y) { return floor(y) == y; }
__device__ int __cuprite_pm_is_odd(double y) {
  return __cuprite_pm_is_int(y) && fabs(y) < 9007199254740992.0 && floor(y * 0.5) != y * 0.5;
}

__device__ double __cuprite_ptx_pow(double x, double y) {
  double inf = __cuprite_pm_inf();
  if (y == 0.0 || x == 1.0) return 1.0;
  if (x != x || y != y) return x + y;
  double ax = fabs(x), ay = fabs(y);
  int odd = __cuprite_pm_is_odd(y);
  if (ay == inf) {
    if (ax == 1.0) return 1.0;
    return (ax > 1.0) == (y > 0.0) ? inf : 0.0;
  }
  if (x == 0.0) {
    double r = y < 0.0 ? inf : 0.0;
    return odd ? copysign(r, x) : r;
  }
  if (ax == inf) {
    double r = y < 0.0 ? 0.0 : inf;
    return (x < 0.0 && odd) ? -r : r;
  }
  if (x < 0.0 && !__cuprite_pm_is_int(y)) return __cuprite_pm_nan(x) + inf * 0.0;
  double lo;
  double hi = __cuprite_pm_log_hl(ax, &lo);
  double p = y * hi;
  double pl = fma(y, hi, -p) + y * lo;
  double r = __cuprite_pm_exp_hl(p, pl);
  return (x < 0.0 && odd) ? -r : r;
}

__device__ double __cuprite_ptx_cbrt(double x) {
  if (x != x || x == 0.0 || fabs(x) == __cuprite_pm_inf()) return x;
  double ax = fabs(x);
  // Exponent split, then Newton steps on a first guess from exp(log/3), finished in
  // double-double: r = r - (r^3 - a)/(3 r^2).
  double lo;
  double l = __cuprite_pm_log_hl(ax, &lo);
  double r = __cuprite_pm_exp_hl(l / 3.0, lo / 3.0);
  double r2 = r * r;
  double r2l = fma(r, r, -r2);
  double r3 = r2 * r;
  double r3l = fma(r2, r, -r3) + r2l * r;
  double d = (r3 - ax) + r3l;
  r = r - d / (3.0 * r2);
  return x < 0.0 ? -r : r;
}

__device__ double __cuprite_ptx_rcbrt(double x) {
  if (x != x) return x;
  if (x == 0.0) return copysign(__cuprite_pm_inf(), x);
  if (fabs(x) == __cuprite_pm_inf()) return copysign(0.0, x);
  return 1.0 / __cuprite_ptx_cbrt(x);
}

__device__ double __cuprite_ptx_hypot(double x, double y) {
  double inf = __cuprite_pm_inf();
  double ax = fabs(x), ay = fabs(y);
  if (ax == inf || ay == inf) return inf;
  if (x != x || y != y) return x + y;
  double a = fmax(ax, ay), b = fmin(ax, ay);
  if (a == 0.0) return 0.0;
  // Scale by a power of two near 1/a (exact), sum of squares in double-double.
  long long ea = (__double_as_longlong(a) >> 52) - 1023;
  if (ea < -1000) ea = -1000;
  int sh = -(int)ea;
  double as = __cuprite_pm_scale(a, sh), bs = __cuprite_pm_scale(b, sh);
  double a2 = as * as, a2l = fma(as, as, -a2);
  double b2 = bs * bs, b2l = fma(bs, bs, -b2);
  double s = a2 + b2;
  double sl = ((a2 - s) + b2) + a2l + b2l;
  double r = sqrt(s);
  // One Newton correction: sqrt(s + sl) = r + (s - r^2 + sl)/(2r).
  double rr = fma(-r, r, s) + sl;
  r = r + rr / (2.0 * r);
  return __cuprite_pm_scale(r, -sh);
}

__device__ double __cuprite_ptx_rhypot(double x, double y) { return 1.0 / __cuprite_ptx_hypot(x, y); }

__device__ double __cuprite_ptx_norm3d(double a, double b, double c) {
  return __cuprite_ptx_hypot(__cuprite_ptx_hypot(a, b), c);
}
__device__ double __cuprite_ptx_rnorm3d(double a, double b, double c) { return 1.0 / __cuprite_ptx_norm3d(a, b, c); }
__device__ double __cuprite_ptx_norm4d(double a, double b, double c, double d) {
  return __cuprite_ptx_hypot(__cuprite_ptx_hypot(a, b), __cuprite_ptx_hypot(c, d));
}
__device__ double __cuprite_ptx_rnorm4d(double a, double b, double c, double d) {
  return 1.0 / __cuprite_ptx_norm4d(a, b, c, d);
}

// ---------------------------------------------------------------- error function

// erf(x) for 0 <= x <= 1: 2/sqrt(pi) sum (-1)^n x^(2n+1) / (n! (2n+1)).
__device__ double __cuprite_pm_erf_series(double x) {
  double z = x * x;
  double t = x, sum = x;
  for (int n = 1; n < 40; n++) {
    t = t * -z / (double)n;
    double term = t / (2.0 * n + 1.0);
    sum = sum + term;
    if (fabs(term) < sum * 1e-18) break;
  }
  return 1.1283791670955126 * sum;
}

// erfc(x) for x >= 0.5: e^(-x^2)/sqrt(pi) / (x + 1/2 / (x + 1 / (x + 3/2 / (x + ...)))),
// evaluated from the tail.
__device__ double __cuprite_pm_erfc_cf(double x) {
  int n = x < 1.0 ? 1200 : x < 2.0 ? 300 : x < 4.0 ? 80 : 40;
  double t = x;
  for (int k = n; k >= 1; k--) t = x + (0.5 * k) / t;
  double z = x * x;
  double zl = fma(x, x, -z);
  double e = __cuprite_pm_exp_hl(-z, -zl);
  return 0.5641895835477563 * e / t;
}

__device__ double __cuprite_ptx_erf(double x) {
  if (x != x) return x;
  double ax = fabs(x);
  double r;
  if (ax >= 6.0) r = 1.0;
  else if (ax < 1e-300) return x * 1.1283791670955126;
  else if (ax <= 1.0) r = __cuprite_pm_erf_series(ax);
  else r = 1.0 - __cuprite_pm_erfc_cf(ax);
  return x < 0.0 ? -r : r;
}

__device__ double __cuprite_ptx_erfc(double x) {
  if (x != x) return x;
  if (x < 0.5) {
    if (x < -6.0) return 2.0;
    double e = x < 0.0 ? -__cuprite_ptx_erf(-x) : __cuprite_ptx_erf(x);
    return 1.0 - e;
  }
  if (x > 27.3) return 0.0;
  return __cuprite_pm_erfc_cf(x);
}

__device__ double __cuprite_ptx_normcdf(double x) {
  // Phi(x) = erfc(-x/sqrt(2))/2; the division's rounding stays inside the bound.
  return 0.5 * __cuprite_ptx_erfc(-x * 0.7071067811865476);
}

// ---------------------------------------------------------------- gamma

// log Gamma(x) for x >= 15: Stirling's series.
__device__ double __cuprite_pm_lgamma_big(double x) {
  if (x > 1e300) return x * (__cuprite_ptx_log(x) - 1.0);
  double z = 1.0 / (x * x);
  double s = 1.0 / 12.0 + z * (-1.0 / 360.0 + z * (1.0 / 1260.0 + z * (-1.0 / 1680.0 + z * (1.0 / 1188.0 + z * (-691.0 / 360360.0 + z * (1.0 / 156.0 + z * (-3617.0 / 122400.0)))))));
  double lo;
  double l = __cuprite_pm_log_hl(x, &lo);
  // (x - 1/2) log x - x + log(2 pi)/2 + s/x
  double a = (x - 0.5) * l;
  double al = fma(x - 0.5, l, -a) + (x - 0.5) * lo;
  double b = a - x;
  double bl = ((a - b) - x) + al;
  return b + (bl + 0.9189385332046728 + s / x);
}

// Gamma(x) for 0 < x < 15 as a product shifted up to 15: Gamma(x) = Gamma(x + n) / (x (x+1) ...).
__device__ double __cuprite_pm_lgamma_pos(double x) {
  if (x >= 15.0) return __cuprite_pm_lgamma_big(x);
  double prod = 1.0;
  double y = x;
  while (y < 15.0) {
    prod = prod * y;
    y = y + 1.0;
  }
  return __cuprite_pm_lgamma_big(y) - __cuprite_ptx_log(prod);
}

__device__ double __cuprite_ptx_lgamma(double x) {
  double inf = __cuprite_pm_inf();
  if (x != x) return x;
  if (fabs(x) == inf) return inf;
  if (x <= 0.0 && floor(x) == x) return inf;
  if (x == 1.0 || x == 2.0) return 0.0;
  if (x > 0.0) {
    if (x < 1e-300) return -__cuprite_ptx_log(x);
    return __cuprite_pm_lgamma_pos(x);
  }
  // Reflection: Gamma(x) Gamma(1 - x) = pi / sin(pi x).
  double s = fabs(__cuprite_ptx_sinpi(x));
  return 1.1447298858494002 - __cuprite_ptx_log(s * -x) - __cuprite_pm_lgamma_pos(-x);
}

__device__ double __cuprite_ptx_tgamma(double x) {
  double inf = __cuprite_pm_inf();
  if (x != x) return x;
  if (x == inf) return inf;
  if (x == 0.0) return copysign(inf, x);
  if (x < 0.0 && floor(x) == x) return __cuprite_pm_nan(x) + inf * 0.0;
  if (x == -inf) return __cuprite_pm_nan(x);
  if (x > 171.7) return inf;
  if (x > 0.0 && x < 15.0 && floor(x) == x) {
    double f = 1.0;
    for (double k = 2.0; k < x; k = k + 1.0) f = f * k;
    return f;
  }
  if (x > 0.0) {
    if (x < 1e-300) return 1.0 / x;
    // Gamma(x) = Gamma(x + n) / (x (x+1) ... ), Gamma(y) = exp(lgamma(y)) for y >= 15.
    double prod = 1.0;
    double y = x;
    while (y < 15.0) {
      prod = prod * y;
      y = y + 1.0;
    }
    double z = 1.0 / (y * y);
    double s = 1.0 / 12.0 + z * (-1.0 / 360.0 + z * (1.0 / 1260.0 + z * (-1.0 / 1680.0 + z * (1.0 / 1188.0 + z * (-691.0 / 360360.0 + z * (1.0 / 156.0 + z * (-3617.0 / 122400.0)))))));
    double lo;
    double l = __cuprite_pm_log_hl(y, &lo);
    double a = (y - 0.5) * l;
    double al = fma(y - 0.5, l, -a) + (y - 0.5) * lo;
    double b = a - y;
    double bl = ((a - b) - y) + al + 0.9189385332046728 + s / y;
    double h = b + bl;
    double r = __cuprite_pm_exp_hl(h, bl - (h - b));
    return r / prod;
  }
  // Reflection for x < 0.
  double s = __cuprite_ptx_sinpi(x);
  double g = __cuprite_ptx_tgamma(1.0 - x);
  if (g == inf) return copysign(0.0, s) * -1.0;
  return 3.141592653589793 / (s * g);
}

// ---------------------------------------------------------------- exact functions

__device__ double __cuprite_ptx_frexp(double x, int *e) {
  if (x != x || x == 0.0 || fabs(x) == __cuprite_pm_inf()) {
    *e = 0;
    return x;
  }
  long long b = __double_as_longlong(x);
  int adj = 0;
  if ((b & 0x7ff0000000000000LL) == 0) {
    x = x * 18014398509481984.0;
    b = __double_as_longlong(x);
    adj = -54;
  }
  *e = (int)((b >> 52) & 0x7ff) - 1022 + adj;
  return __longlong_as_double((b & 0x800fffffffffffffLL) | 0x3fe0000000000000LL);
}

__device__ double __cuprite_ptx_ldexp(double x, int n) {
  if (x != x || x == 0.0 || fabs(x) == __cuprite_pm_inf()) return x;
  return __cuprite_pm_scale(x, n);
}
__device__ double __cuprite_ptx_scalbn(double x, int n) { return __cuprite_ptx_ldexp(x, n); }
__device__ double __cuprite_ptx_scalbln(double x, long long n) {
  if (n > 4000) n = 4000;
  if (n < -4000) n = -4000;
  return __cuprite_ptx_ldexp(x, (int)n);
}

__device__ int __cuprite_ptx_ilogb(double x) {
  if (x != x) return -2147483647 - 1;
  if (x == 0.0) return -2147483647 - 1;
  if (fabs(x) == __cuprite_pm_inf()) return 2147483647;
  int e;
  __cuprite_ptx_frexp(x, &e);
  return e - 1;
}

__device__ double __cuprite_ptx_logb(double x) {
  if (x != x) return x;
  if (x == 0.0) return -__cuprite_pm_inf();
  if (fabs(x) == __cuprite_pm_inf()) return fabs(x);
  return (double)__cuprite_ptx_ilogb(x);
}

// fmod(x, y), exact: subtract y 2^k for k from the exponent difference down to 0.
__device__ double __cuprite_ptx_fmod(double x, double y) {
  double ax = fabs(x), ay = fabs(y);
  if (x != x || y != y || ax == __cuprite_pm_inf() || ay == 0.0) return __cuprite_pm_nan(x + y);
  if (ax < ay) return x;
  int ex, ey;
  __cuprite_ptx_frexp(ax, &ex);
  __cuprite_ptx_frexp(ay, &ey);
  double r = ax;
  for (int k = ex - ey; k >= 0; k--) {
    double t = __cuprite_pm_scale(ay, k);
    if (r >= t) r = r - t;
  }
  return x < 0.0 ? -r : r;
}

__device__ double __cuprite_ptx_remquo(double x, double y, int *quo) {
  double ax = fabs(x), ay = fabs(y);
  if (x != x || y != y || ax == __cuprite_pm_inf() || ay == 0.0) {
    *quo = 0;
    return __cuprite_pm_nan(x + y);
  }
  int q = 0;
  double r = ax;
  if (ax >= ay) {
    int ex, ey;
    __cuprite_ptx_frexp(ax, &ex);
    __cuprite_ptx_frexp(ay, &ey);
    for (int k = ex - ey; k >= 0; k--) {
      double t = __cuprite_pm_scale(ay, k);
      q = q << 1;
      if (r >= t) {
        r = r - t;
        q = q | 1;
      }
    }
  }
  // Round the quotient to nearest, ties to even: r > y/2, or r == y/2 with q odd.
  double r2 = 2.0 * r;
  if (r2 > ay || (r2 == ay && (q & 1))) {
    r = r - ay;
    q = q + 1;
  }
  int sgn = (x < 0.0) != (y < 0.0);
  q = q & 7;
  *quo = sgn ? -q : q;
  return x < 0.0 ? -r : r;
}

__device__ double __cuprite_ptx_remainder(double x, double y) {
  int q;
  return __cuprite_ptx_remquo(x, y, &q);
}

__device__ double __cuprite_ptx_nextafter(double x, double y) {
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  if (x == 0.0) return y > 0.0 ? 4.9406564584124654e-324 : -4.9406564584124654e-324;
  long long b = __double_as_longlong(x);
  if ((x < y) == (x > 0.0)) b = b + 1;
  else b = b - 1;
  return __longlong_as_double(b);
}

__device__ unsigned long long __cuprite_pm_nan_payload(const char *tag) {
  unsigned long long n = 0;
  int base = 10;
  int i = 0;
  if (tag[0] == '0' && (tag[1] == 'x' || tag[1] == 'X')) {
    base = 16;
    i = 2;
  }
  for (;; i++) {
    char c = tag[i];
    int d;
    if (c >= '0' && c <= '9') d = c - '0';
    else if (base == 16 && c >= 'a' && c <= 'f') d = c - 'a' + 10;
    else if (base == 16 && c >= 'A' && c <= 'F') d = c - 'A' + 10;
    else break;
    n = n * (unsigned long long)base + (unsigned long long)d;
  }
  if (tag[i] != 0) n = 0;
  return n;
}

__device__ double __cuprite_ptx_nan(const char *tag) {
  unsigned long long n = __cuprite_pm_nan_payload(tag);
  return __longlong_as_double((long long)(0x7ff8000000000000ULL | (n & 0x0007ffffffffffffULL)));
}

__device__ float __cuprite_ptx_nanf(const char *tag) {
  unsigned long long n = __cuprite_pm_nan_payload(tag);
  return __int_as_float((int)(0x7fc00000U | (unsigned)(n & 0x3fffffULL)));
}

// Rounding to integers, saturated as on the GPU (NaN gives the most negative value).
__device__ long long __cuprite_pm_sat_ll(double r) {
  if (r != r) return -9223372036854775807LL - 1;
  if (r >= 9223372036854775807.0) return 9223372036854775807LL;
  if (r <= -9223372036854775808.0) return -9223372036854775807LL - 1;
  return (long long)r;
}
__device__ long long __cuprite_ptx_llrint(double x) { return __cuprite_pm_sat_ll(rint(x)); }
__device__ long long __cuprite_ptx_lrint(double x) { return __cuprite_pm_sat_ll(rint(x)); }
__device__ long long __cuprite_ptx_llround(double x) { return __cuprite_pm_sat_ll(round(x)); }
__device__ long long __cuprite_ptx_lround(double x) { return __cuprite_pm_sat_ll(round(x)); }
__device__ long long __cuprite_ptx_llrintf(float x) { return __cuprite_pm_sat_ll(rint((double)x)); }
__device__ long long __cuprite_ptx_lrintf(float x) { return __cuprite_pm_sat_ll(rint((double)x)); }
__device__ long long __cuprite_ptx_llroundf(float x) { return __cuprite_pm_sat_ll(round((double)x)); }
__device__ long long __cuprite_ptx_lroundf(float x) { return __cuprite_pm_sat_ll(round((double)x)); }

// ---------------------------------------------------------------- single precision

// expf is not here: the back-end writes it inline (emit/math.rs, CUDA's own sequence).
__device__ float __cuprite_ptx_exp2f(float x) { return (float)__cuprite_ptx_exp2((double)x); }
__device__ float __cuprite_ptx_exp10f(float x) { return (float)__cuprite_ptx_exp10((double)x); }
__device__ float __cuprite_ptx_expm1f(float x) { return (float)__cuprite_ptx_expm1((double)x); }
__device__ float __cuprite_ptx_logf(float x) { return (float)__cuprite_ptx_log((double)x); }
__device__ float __cuprite_ptx_log2f(float x) { return (float)__cuprite_ptx_log2((double)x); }
__device__ float __cuprite_ptx_log10f(float x) { return (float)__cuprite_ptx_log10((double)x); }
__device__ float __cuprite_ptx_log1pf(float x) { return (float)__cuprite_ptx_log1p((double)x); }
__device__ float __cuprite_ptx_sinf(float x) { return (float)__cuprite_ptx_sin((double)x); }
__device__ float __cuprite_ptx_cosf(float x) { return (float)__cuprite_ptx_cos((double)x); }
__device__ float __cuprite_ptx_tanf(float x) { return (float)__cuprite_ptx_tan((double)x); }
__device__ void __cuprite_ptx_sincosf(float x, float *s, float *c) {
  *s = (float)__cuprite_ptx_sin((double)x);
  *c = (float)__cuprite_ptx_cos((double)x);
}
__device__ float __cuprite_ptx_sinpif(float x) { return (float)__cuprite_ptx_sinpi((double)x); }
__device__ float __cuprite_ptx_cospif(float x) { return (float)__cuprite_ptx_cospi((double)x); }
__device__ void __cuprite_ptx_sincospif(float x, float *s, float *c) {
  *s = (float)__cuprite_ptx_sinpi((double)x);
  *c = (float)__cuprite_ptx_cospi((double)x);
}
__device__ float __cuprite_ptx_asinf(float x) { return (float)__cuprite_ptx_asin((double)x); }
__device__ float __cuprite_ptx_acosf(float x) { return (float)__cuprite_ptx_acos((double)x); }
__device__ float __cuprite_ptx_atanf(float x) { return (float)__cuprite_ptx_atan((double)x); }
__device__ float __cuprite_ptx_atan2f(float y, float x) { return (float)__cuprite_ptx_atan2((double)y, (double)x); }
__device__ float __cuprite_ptx_sinhf(float x) { return (float)__cuprite_ptx_sinh((double)x); }
__device__ float __cuprite_ptx_coshf(float x) { return (float)__cuprite_ptx_cosh((double)x); }
__device__ float __cuprite_ptx_tanhf(float x) { return (float)__cuprite_ptx_tanh((double)x); }
__device__ float __cuprite_ptx_asinhf(float x) { return (float)__cuprite_ptx_asinh((double)x); }
__device__ float __cuprite_ptx_acoshf(float x) { return (float)__cuprite_ptx_acosh((double)x); }
__device__ float __cuprite_ptx_atanhf(float x) { return (float)__cuprite_ptx_atanh((double)x); }
__device__ float __cuprite_ptx_powf(float x, float y) { return (float)__cuprite_ptx_pow((double)x, (double)y); }
__device__ float __cuprite_ptx_cbrtf(float x) { return (float)__cuprite_ptx_cbrt((double)x); }
__device__ float __cuprite_ptx_rcbrtf(float x) { return (float)__cuprite_ptx_rcbrt((double)x); }
__device__ float __cuprite_ptx_hypotf(float x, float y) { return (float)__cuprite_ptx_hypot((double)x, (double)y); }
__device__ float __cuprite_ptx_rhypotf(float x, float y) { return (float)(1.0 / __cuprite_ptx_hypot((double)x, (double)y)); }
__device__ float __cuprite_ptx_norm3df(float a, float b, float c) {
  return (float)__cuprite_ptx_norm3d((double)a, (double)b, (double)c);
}
__device__ float __cuprite_ptx_rnorm3df(float a, float b, float c) {
  return (float)(1.0 / __cuprite_ptx_norm3d((double)a, (double)b, (double)c));
}
__device__ float __cuprite_ptx_norm4df(float a, float b, float c, float d) {
  return (float)__cuprite_ptx_norm4d((double)a, (double)b, (double)c, (double)d);
}
__device__ float __cuprite_ptx_rnorm4df(float a, float b, float c, float d) {
  return (float)(1.0 / __cuprite_ptx_norm4d((double)a, (double)b, (double)c, (double)d));
}
__device__ float __cuprite_ptx_erff(float x) { return (float)__cuprite_ptx_erf((double)x); }
__device__ float __cuprite_ptx_erfcf(float x) { return (float)__cuprite_ptx_erfc((double)x); }
__device__ float __cuprite_ptx_normcdff(float x) { return (float)__cuprite_ptx_normcdf((double)x); }
__device__ float __cuprite_ptx_lgammaf(float x) { return (float)__cuprite_ptx_lgamma((double)x); }
__device__ float __cuprite_ptx_tgammaf(float x) { return (float)__cuprite_ptx_tgamma((double)x); }
__device__ float __cuprite_ptx_frexpf(float x, int *e) { return (float)__cuprite_ptx_frexp((double)x, e); }
__device__ int __cuprite_ptx_ilogbf(float x) { return __cuprite_ptx_ilogb((double)x); }
__device__ float __cuprite_ptx_logbf(float x) { return (float)__cuprite_ptx_logb((double)x); }
__device__ float __cuprite_ptx_fmodf(float x, float y) { return (float)__cuprite_ptx_fmod((double)x, (double)y); }
__device__ float __cuprite_ptx_remainderf(float x, float y) { return (float)__cuprite_ptx_remainder((double)x, (double)y); }
__device__ float __cuprite_ptx_remquof(float x, float y, int *q) { return (float)__cuprite_ptx_remquo((double)x, (double)y, q); }
__device__ float __cuprite_ptx_scalblnf(float x, long long n) {
  if (n > 400) n = 400;
  if (n < -400) n = -400;
  return (float)__cuprite_ptx_ldexp((double)x, (int)n);
}
__device__ float __cuprite_ptx_nextafterf(float x, float y) {
  if (x != x || y != y) return x + y;
  if (x == y) return y;
  if (x == 0.0f) return y > 0.0f ? __int_as_float(1) : __int_as_float((int)0x80000001U);
  int b = __float_as_int(x);
  if ((x < y) == (x > 0.0f)) b = b + 1;
  else b = b - 1;
  return __int_as_float(b);
}
