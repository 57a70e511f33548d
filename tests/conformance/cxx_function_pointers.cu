// cxx_function_pointers: __device__ function pointers: a typedef'd pointer type, a
// table of pointers in __device__ memory initialised with device functions and
// selected at run time by an index read from memory, a pointer stored in a local and
// in a struct, a pointer passed to a __device__ function (higher-order function), a
// pointer fetched from a __device__ variable with cudaMemcpyFromSymbol and passed to a
// kernel as an argument (the documented way for host code to get one), a table filled
// on the device by a kernel, comparison of function pointers, and a pointer to a
// member function.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

typedef float (*binop_t)(float, float);
using unop_t = int (*)(int);

__device__ float add(float a, float b) { return a + b; }
__device__ float sub(float a, float b) { return a - b; }
__device__ float mul(float a, float b) { return a * b; }
__device__ float larger(float a, float b) { return a > b ? a : b; }

__device__ binop_t d_ops[4] = {add, sub, mul, larger};
__device__ binop_t d_mul_ptr = mul;
__device__ unop_t d_unops[3];                        // filled by a kernel

__device__ int twice(int x) { return 2 * x; }
__device__ int square(int x) { return x * x; }
__device__ int negate(int x) { return -x; }

__device__ float fold(const float *v, int n, binop_t op, float init) {
  float acc = init;
  for (int i = 0; i < n; i++) acc = op(acc, v[i]);
  return acc;
}

struct Stage { unop_t fn; int repeat; };

struct Acc {
  int value;
  __device__ void add(int x) { value += x; }
  __device__ void scale(int x) { value *= x; }
};

__global__ void apply_table(const float *a, const float *b, const int *which, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    binop_t op = d_ops[which[i] & 3];              // run-time selection
    out[i] = op(a[i], b[i]);
  }
}

__global__ void apply_arg(binop_t op, const float *a, const float *b, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = op(a[i], b[i]);              // pointer received as a kernel argument
}

__global__ void fill_unops() {
  d_unops[0] = twice;
  d_unops[1] = &square;
  d_unops[2] = negate;
}

__global__ void misc(const float *v, int n, int *iout, float *fout) {
  fout[0] = fold(v, n, add, 0.0f);
  fout[1] = fold(v, n, d_ops[3], -1e30f);
  fout[2] = fold(v + 1, 4, d_mul_ptr, 1.0f);     // 1.5 * 3 * 4.5 * 6
  Stage pipeline[3] = {{d_unops[0], 3}, {d_unops[2], 1}, {d_unops[1], 2}};
  int x = 3;
  for (const Stage &s : pipeline)
    for (int r = 0; r < s.repeat; r++) x = s.fn(x);
  iout[0] = x;                                     // 3 -> 24 -> -24 -> 576 -> 331776
  iout[1] = (d_ops[0] == add) + 2 * (d_ops[1] == add) + 4 * (d_unops[1] == square);
  binop_t none = nullptr;
  iout[2] = none == nullptr;
  void (Acc::*m)(int) = &Acc::add;
  Acc acc = {5};
  (acc.*m)(10);
  m = &Acc::scale;
  Acc *pa = &acc;
  (pa->*m)(3);
  iout[3] = acc.value;                             // 45
}

int main() {
  const int n = 12;
  float ha[n], hb[n], hout[n]; int hw[n];
  for (int i = 0; i < n; i++) { ha[i] = 1.5f * i; hb[i] = 10.0f - i; hw[i] = (i * 5) % 7; }
  float *da, *db, *dout; int *dw;
  cudaMalloc(&da, sizeof(ha)); cudaMalloc(&db, sizeof(hb)); cudaMalloc(&dout, sizeof(hout)); cudaMalloc(&dw, sizeof(hw));
  cudaMemcpy(da, ha, sizeof(ha), cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, sizeof(hb), cudaMemcpyHostToDevice);
  cudaMemcpy(dw, hw, sizeof(hw), cudaMemcpyHostToDevice);

  apply_table<<<1, 32>>>(da, db, dw, dout, n);
  cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost);
  const char *op_names[4] = {"+", "-", "*", "max"};
  printf("table:");
  for (int i = 0; i < n; i++) printf(" %s%.1f", op_names[hw[i] & 3], hout[i]);
  printf("\n");

  binop_t h_mul = nullptr;
  cudaError_t e = cudaMemcpyFromSymbol(&h_mul, d_mul_ptr, sizeof(binop_t));
  printf("cudaMemcpyFromSymbol: %s, pointer %s\n", cudaGetErrorName(e), h_mul ? "non-null" : "null");
  apply_arg<<<1, 32>>>(h_mul, da, db, dout, n);
  cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost);
  printf("mul via argument:");
  for (int i = 0; i < n; i++) printf(" %.1f", hout[i]);
  printf("\n");

  binop_t h_ops[4];
  cudaMemcpyFromSymbol(h_ops, d_ops, sizeof(h_ops));
  apply_arg<<<1, 32>>>(h_ops[1], da, db, dout, n);
  cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost);
  printf("sub via table entry: %.1f %.1f %.1f\n", hout[0], hout[5], hout[11]);

  fill_unops<<<1, 1>>>();
  int hi[4]; float hf[3]; int *di; float *df;
  cudaMalloc(&di, sizeof(hi)); cudaMalloc(&df, sizeof(hf));
  misc<<<1, 1>>>(da, n, di, df);
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  printf("fold: sum %.2f max %.2f product %.2f\n", hf[0], hf[1], hf[2]);
  printf("pipeline %d, equality %d, null %d, member pointers %d\n", hi[0], hi[1], hi[2], hi[3]);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(da); cudaFree(db); cudaFree(dout); cudaFree(dw); cudaFree(di); cudaFree(df);
  return 0;
}
