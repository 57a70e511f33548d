// div_by_zero: integer division and remainder by zero, INT_MIN / -1, and shifts by the
// width or more in device code, with operands known only at run time: no trap, and the
// values a GPU produces. Also float-to-int conversions of out-of-range values.
// Signed x % 0 is left out on purpose: nvcc gives -1 or x depending on the code around
// it (see tests/facts/README.md), so no single answer is right.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <climits>
#include <cmath>

__global__ void k(const int *iv, const unsigned *uv, const float *fv, int *o, unsigned *uo) {
  int zero = iv[0], minus1 = iv[1], x = iv[2], nx = iv[3], imin = iv[4], sh = iv[5], zero2 = iv[6];
  o[0] = x / zero; o[1] = 0; o[2] = nx / zero; o[3] = 0; o[4] = zero2 / zero;
  o[5] = imin / minus1; o[6] = imin % minus1;
  uo[0] = uv[0] / uv[1]; uo[1] = uv[0] % uv[1];
  o[7] = x << sh; o[8] = nx >> sh; uo[2] = uv[0] >> sh; uo[3] = uv[0] << (sh + 1);
  o[9] = (int)fv[0]; o[10] = (int)fv[1]; o[11] = (int)fv[2]; o[12] = (int)fv[3];
  uo[4] = (unsigned)fv[4]; uo[5] = (unsigned)fv[2];
}

int main() {
  int iv[7] = {0, -1, 17, -17, INT_MIN, 32, 0};
  unsigned uv[2] = {123u, 0u};
  float fv[5] = {NAN, INFINITY, 3e9f, -3e9f, -1.0f};
  int *div, *dov; unsigned *duv, *duo; float *dfv;
  cudaMalloc(&div, sizeof(iv)); cudaMalloc(&duv, sizeof(uv)); cudaMalloc(&dfv, sizeof(fv));
  cudaMalloc(&dov, 13 * sizeof(int)); cudaMalloc(&duo, 6 * sizeof(unsigned));
  cudaMemcpy(div, iv, sizeof(iv), cudaMemcpyHostToDevice);
  cudaMemcpy(duv, uv, sizeof(uv), cudaMemcpyHostToDevice);
  cudaMemcpy(dfv, fv, sizeof(fv), cudaMemcpyHostToDevice);
  k<<<1, 1>>>(div, duv, dfv, dov, duo);
  cudaError_t e = cudaDeviceSynchronize();
  int o[13]; unsigned uo[6];
  cudaMemcpy(o, dov, sizeof(o), cudaMemcpyDeviceToHost);
  cudaMemcpy(uo, duo, sizeof(uo), cudaMemcpyDeviceToHost);
  printf("sync: %s\n", cudaGetErrorName(e));
  printf("17/0=%d -17/0=%d 0/0=%d\n", o[0], o[2], o[4]);
  printf("INT_MIN/-1=%d INT_MIN%%-1=%d\n", o[5], o[6]);
  printf("123u/0u=%u 123u%%0u=%u\n", uo[0], uo[1]);
  printf("17<<32=%d -17>>32=%d 123u>>32=%u 123u<<33=%u\n", o[7], o[8], uo[2], uo[3]);
  printf("(int)NaN=%d (int)inf=%d (int)3e9=%d (int)-3e9=%d (unsigned)-1.0f=%u (unsigned)3e9f=%u\n", o[9], o[10], o[11], o[12], uo[4], uo[5]);
  return 0;
}
