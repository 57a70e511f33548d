// qualifiers: __restrict__, const, volatile, __ldg, __align__(n) structs, #pragma unroll
// (with and without a count), static __shared__ multi-dimensional arrays, __shared__
// variables declared inside a block scope, local arrays and pointer arithmetic in
// device code, pointers to pointers, and __CUDACC__.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

struct __align__(16) Quad { float a, b, c, d; };

__global__ void k(const float *__restrict__ in, float *__restrict__ out, Quad *q, int *misc) {
  __shared__ float grid2[4][8];
  int t = threadIdx.x;
  grid2[t / 8][t % 8] = __ldg(&in[t]);
  __syncthreads();
  float s = 0;
#pragma unroll
  for (int i = 0; i < 4; i++) s += grid2[i][t % 8];
#pragma unroll 2
  for (int i = 0; i < 5; i++) s += 0.25f;
  out[t] = s;
  if (t == 0) {
    volatile int v = 3;
    v = v * 7;
    int local[10];
    int *p = local;
    for (int i = 0; i < 10; i++) *p++ = i * i;
    int *mid = local + 5;
    int **pp = &mid;
    misc[0] = v;
    misc[1] = (*pp)[2] + mid[-1] + (int)(p - local);
    misc[2] = sizeof(Quad);
    misc[3] = __alignof__(Quad);
    {
      __shared__ int inner;
      inner = 99;
      misc[4] = inner;
    }
    Quad qq = q[1];
    qq.a += qq.d;
    q[0] = qq;
  }
}

int main() {
  float in[32], out[32];
  for (int i = 0; i < 32; i++) in[i] = (float)i;
  Quad hq[2] = {{0, 0, 0, 0}, {1.5f, 2.5f, 3.5f, 4.5f}};
  float *din, *dout; Quad *dq; int *dm, m[5];
  cudaMalloc(&din, sizeof(in)); cudaMalloc(&dout, sizeof(out)); cudaMalloc(&dq, sizeof(hq)); cudaMalloc(&dm, sizeof(m));
  cudaMemcpy(din, in, sizeof(in), cudaMemcpyHostToDevice);
  cudaMemcpy(dq, hq, sizeof(hq), cudaMemcpyHostToDevice);
  k<<<1, 32>>>(din, dout, dq, dm);
  cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
  cudaMemcpy(hq, dq, sizeof(hq), cudaMemcpyDeviceToHost);
  cudaMemcpy(m, dm, sizeof(m), cudaMemcpyDeviceToHost);
  printf("out:");
  for (int i = 0; i < 32; i += 4) printf(" %g", out[i]);
  printf("\nmisc: %d %d %d %d %d\n", m[0], m[1], m[2], m[3], m[4]);
  printf("quad: %g %g %g %g\n", hq[0].a, hq[0].b, hq[0].c, hq[0].d);
#ifdef __CUDACC__
  printf("__CUDACC__ defined\n");
#endif
  return 0;
}
