// vector_add: the classic first kernel: 1D grid, bounds check, cudaMalloc/cudaMemcpy/cudaFree.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cstdlib>

__global__ void vecAdd(const float *a, const float *b, float *c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}

int main() {
  const int n = 100000;
  size_t bytes = n * sizeof(float);
  float *ha = (float *)malloc(bytes), *hb = (float *)malloc(bytes), *hc = (float *)malloc(bytes);
  for (int i = 0; i < n; i++) { ha[i] = (float)i; hb[i] = (float)(2 * i); }
  float *da, *db, *dc;
  cudaMalloc(&da, bytes); cudaMalloc(&db, bytes); cudaMalloc(&dc, bytes);
  cudaMemcpy(da, ha, bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb, bytes, cudaMemcpyHostToDevice);
  int threads = 256, blocks = (n + threads - 1) / threads;
  vecAdd<<<blocks, threads>>>(da, db, dc, n);
  cudaError_t err = cudaGetLastError();
  printf("launch: %s\n", cudaGetErrorString(err));
  cudaMemcpy(hc, dc, bytes, cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < n; i++) if (hc[i] != 3.0f * i) bad++;
  printf("c[0]=%g c[1]=%g c[12345]=%g c[%d]=%g\n", hc[0], hc[1], hc[12345], n - 1, hc[n - 1]);
  printf("%s (%d mismatches)\n", bad ? "FAILED" : "PASSED", bad);
  cudaFree(da); cudaFree(db); cudaFree(dc);
  free(ha); free(hb); free(hc);
  return 0;
}
