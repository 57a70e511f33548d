// nan_conversions: float and double NaN, infinities and out-of-range values converted to
// every integer type in device code (C casts and the __float2int_rz-style intrinsics).
// The values come from runtime inputs so nothing folds at compile time.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cmath>

struct Out {
  int i; unsigned u; long long ll; unsigned long long ull; short s; unsigned char uc;
};

__global__ void from_float(const float *in, Out *out, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  float x = in[t];
  out[t].i = (int)x;
  out[t].u = (unsigned)x;
  out[t].ll = (long long)x;
  out[t].ull = (unsigned long long)x;
  out[t].s = (short)(int)x;
  out[t].uc = (unsigned char)(unsigned)x;
}

__global__ void from_double(const double *in, Out *out, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  double x = in[t];
  out[t].i = (int)x;
  out[t].u = (unsigned)x;
  out[t].ll = (long long)x;
  out[t].ull = (unsigned long long)x;
  out[t].s = (short)(int)x;
  out[t].uc = (unsigned char)(unsigned)x;
}

__global__ void intrinsics(const float *in, int *out, int n) {
  int t = threadIdx.x;
  if (t >= n) return;
  out[4 * t + 0] = __float2int_rn(in[t]);
  out[4 * t + 1] = __float2int_rz(in[t]);
  out[4 * t + 2] = __float2int_ru(in[t]);
  out[4 * t + 3] = __float2int_rd(in[t]);
}

int main() {
  const int n = 9;
  float hf[n] = {NAN, INFINITY, -INFINITY, 3e9f, -3e9f, 1e20f, -1.0f, 2.5f, -2.5f};
  double hd[n] = {NAN, INFINITY, -INFINITY, 3e9, -3e9, 1e20, -1.0, 2.5, -2.5};
  const char *names[n] = {"NaN", "+inf", "-inf", "3e9", "-3e9", "1e20", "-1.0", "2.5", "-2.5"};
  float *df; double *dd; Out *dout; int *di;
  cudaMalloc(&df, sizeof hf); cudaMalloc(&dd, sizeof hd);
  cudaMalloc(&dout, n * sizeof(Out)); cudaMalloc(&di, 4 * n * sizeof(int));
  cudaMemcpy(df, hf, sizeof hf, cudaMemcpyHostToDevice);
  cudaMemcpy(dd, hd, sizeof hd, cudaMemcpyHostToDevice);
  Out h[n];
  for (int pass = 0; pass < 2; ++pass) {
    if (pass == 0) from_float<<<1, 32>>>(df, dout, n);
    else from_double<<<1, 32>>>(dd, dout, n);
    cudaMemcpy(h, dout, sizeof h, cudaMemcpyDeviceToHost);
    for (int k = 0; k < n; ++k)
      printf("%s %s -> int %d, unsigned %u, long long %lld, unsigned long long %llu, short %d, uchar %u\n",
             pass == 0 ? "float" : "double", names[k], h[k].i, h[k].u, h[k].ll, h[k].ull, h[k].s, h[k].uc);
  }
  int hi[4 * n];
  intrinsics<<<1, 32>>>(df, di, n);
  cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost);
  for (int k = 0; k < n; ++k)
    printf("__float2int %s: rn %d rz %d ru %d rd %d\n", names[k], hi[4 * k], hi[4 * k + 1], hi[4 * k + 2], hi[4 * k + 3]);
  printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  return 0;
}
