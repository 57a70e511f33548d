// Math library functions with ulp bounds become calls of the device math library's
// routines (emit/mathlib.cu), written into the module as .funcs.
__global__ void k(float *x, double *y) {
  x[0] = expf(x[0]) + sinf(x[1]) + powf(x[2], x[3]);
  y[0] = erfc(y[0]) + lgamma(y[1]);
}
