// launch_api: launching with cudaLaunchKernel (argument array), with <<<>>> using
// integer and dim3 configurations, dynamic shared memory and a stream argument, and
// a kernel with many parameters of mixed sizes (char, short, double, pointers, struct).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

struct Pair { int a; double b; };

__global__ void mixed(char c, short s, int i, long long ll, float f, double d, Pair p, unsigned char uc, int *out, double *dout) {
  out[0] = c; out[1] = s; out[2] = i; out[3] = (int)(ll >> 32); out[4] = (int)(f * 4); out[5] = p.a; out[6] = uc;
  dout[0] = d + p.b;
}

__global__ void scale(int *p, int n, int factor) {
  extern __shared__ int tmp[];
  int t = threadIdx.x;
  if (t < n) tmp[t] = p[t] * factor;
  __syncthreads();
  if (t < n) p[t] = tmp[n - 1 - t];
}

int main() {
  int *dout; double *dd;
  cudaMalloc(&dout, 7 * sizeof(int)); cudaMalloc(&dd, sizeof(double));
  char c = -5; short s = -300; int i = 123456; long long ll = 7LL << 32; float f = 2.25f; double d = 0.125;
  Pair p = {77, 1.5}; unsigned char uc = 250;
  void *args[] = {&c, &s, &i, &ll, &f, &d, &p, &uc, &dout, &dd};
  cudaError_t e = cudaLaunchKernel((const void *)mixed, dim3(1), dim3(1), args, 0, 0);
  printf("cudaLaunchKernel: %s\n", cudaGetErrorName(e));
  int o[7]; double od;
  cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost);
  cudaMemcpy(&od, dd, sizeof(od), cudaMemcpyDeviceToHost);
  printf("mixed: %d %d %d %d %d %d %d %g\n", o[0], o[1], o[2], o[3], o[4], o[5], o[6], od);
  mixed<<<1, 1>>>('A', 1000, -1, -1LL, -0.5f, 3.0, Pair{-2, -0.5}, 7, dout, dd);
  cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost);
  cudaMemcpy(&od, dd, sizeof(od), cudaMemcpyDeviceToHost);
  printf("mixed<<<>>>: %d %d %d %d %d %d %d %g\n", o[0], o[1], o[2], o[3], o[4], o[5], o[6], od);
  const int n = 10;
  int h[n];
  for (int k = 0; k < n; k++) h[k] = k;
  int *dp;
  cudaMalloc(&dp, sizeof(h));
  cudaMemcpy(dp, h, sizeof(h), cudaMemcpyHostToDevice);
  cudaStream_t st;
  cudaStreamCreate(&st);
  scale<<<1, 16, n * sizeof(int), st>>>(dp, n, 3);
  int factor = 2, nn = n;
  void *args2[] = {&dp, &nn, &factor};
  cudaLaunchKernel((const void *)scale, dim3(1, 1, 1), dim3(16, 1, 1), args2, n * sizeof(int), st);
  cudaStreamSynchronize(st);
  cudaMemcpy(h, dp, sizeof(h), cudaMemcpyDeviceToHost);
  printf("scale:");
  for (int k = 0; k < n; k++) printf(" %d", h[k]);
  printf("\n");
  cudaStreamDestroy(st);
  return 0;
}
