// cuda_arrays_legacy: the deprecated linear copies to and from CUDA arrays as the
// 2008-2012 guides use them: cudaMemcpyToArray/FromArray of whole arrays, of part of a
// row, and of a range that starts mid-row and runs across rows; cudaMemcpyArrayToArray.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (driver 580.159.04; the run tool).
#include <cstdio>
#include <cstring>

#define E(call) printf("%-40s %s\n", #call, cudaGetErrorName(call)); cudaGetLastError()

int main() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a, b;
  cudaMallocArray(&a, &fd, 4, 3);
  cudaMallocArray(&b, &fd, 4, 3);
  float src[12], out[12];
  for (int i = 0; i < 12; i++) src[i] = i + 1;
  E(cudaMemcpyToArray(a, 0, 0, src, sizeof(src), cudaMemcpyHostToDevice));
  memset(out, 0, sizeof(out));
  E(cudaMemcpyFromArray(out, a, 0, 0, sizeof(out), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 12; i++) printf("%g ", out[i]);
  printf("\n");
  float z[12] = {0};
  cudaMemcpyToArray(b, 0, 0, z, sizeof(z), cudaMemcpyHostToDevice);
  E(cudaMemcpyToArray(b, 4, 1, src, 2 * sizeof(float), cudaMemcpyHostToDevice));
  E(cudaMemcpyToArray(b, 8, 0, src, 6 * sizeof(float), cudaMemcpyHostToDevice));
  memset(out, 0, sizeof(out));
  E(cudaMemcpyFromArray(out, b, 0, 0, sizeof(out), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 12; i++) printf("%g ", out[i]);
  printf("\n");
  memset(out, 0, sizeof(out));
  E(cudaMemcpyFromArray(out, a, 4, 1, 5 * sizeof(float), cudaMemcpyDeviceToHost));
  for (int i = 0; i < 12; i++) printf("%g ", out[i]);
  printf("\n");
  E(cudaMemcpyToArray(a, 0, 0, src, 13 * sizeof(float), cudaMemcpyHostToDevice));
  E(cudaMemcpyToArray(a, 0, 3, src, 4, cudaMemcpyHostToDevice));
  E(cudaMemcpyArrayToArray(b, 0, 0, a, 0, 0, sizeof(src), cudaMemcpyDeviceToDevice));
  E(cudaMemcpyArrayToArray(b, 4, 1, a, 0, 0, 3 * sizeof(float), cudaMemcpyDeviceToDevice));
  memset(out, 0, sizeof(out));
  cudaMemcpyFromArray(out, b, 0, 0, sizeof(out), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 12; i++) printf("%g ", out[i]);
  printf("\n");
  float *d;
  cudaMalloc(&d, sizeof(src));
  E(cudaMemcpyFromArray(d, a, 0, 0, sizeof(src), cudaMemcpyDeviceToDevice));
  E(cudaMemcpyToArray(b, 0, 0, d, sizeof(src), cudaMemcpyDeviceToDevice));
  cudaFreeArray(a);
  cudaFreeArray(b);
  return 0;
}
