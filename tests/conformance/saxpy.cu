// saxpy: y = a*x + y with a grid-stride loop and a scalar kernel parameter; values are
// chosen so that the result is exact with or without FMA contraction.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <vector>

__global__ void saxpy(int n, float a, const float *x, float *y) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
    y[i] = a * x[i] + y[i];
}

int main() {
  const int n = 1 << 20;
  std::vector<float> x(n), y(n);
  for (int i = 0; i < n; i++) { x[i] = (float)(i % 1000) * 0.5f; y[i] = (float)(i % 7); }
  float *dx, *dy;
  cudaMalloc(&dx, n * sizeof(float));
  cudaMalloc(&dy, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  saxpy<<<64, 256>>>(n, 2.0f, dx, dy);   // fewer threads than elements: grid-stride loop
  cudaDeviceSynchronize();
  cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
  double sum = 0;
  int bad = 0;
  for (int i = 0; i < n; i++) {
    float want = 2.0f * ((float)(i % 1000) * 0.5f) + (float)(i % 7);
    if (y[i] != want) bad++;
    sum += y[i];
  }
  printf("y[0..4] = %g %g %g %g %g\n", y[0], y[1], y[2], y[3], y[4]);
  printf("sum = %.1f, mismatches = %d\n", sum, bad);
  cudaFree(dx); cudaFree(dy);
  return bad != 0;
}
