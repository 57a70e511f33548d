// const_conv: 1D and 2D convolution with the filter in __constant__ memory, uploaded
// with cudaMemcpyToSymbol (whole symbol and with an offset); integer-valued data.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

#define R 3
__constant__ float c_filter[2 * R + 1];
__constant__ int c_kernel2d[3][3];

__global__ void conv1d(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 0;
  for (int j = -R; j <= R; j++) {
    int k = i + j;
    if (k >= 0 && k < n) s += c_filter[j + R] * in[k];
  }
  out[i] = s;
}

__global__ void conv2d(const int *in, int *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h) return;
  int s = 0;
  for (int dy = -1; dy <= 1; dy++)
    for (int dx = -1; dx <= 1; dx++) {
      int xx = min(max(x + dx, 0), w - 1), yy = min(max(y + dy, 0), h - 1);
      s += c_kernel2d[dy + 1][dx + 1] * in[yy * w + xx];
    }
  out[y * w + x] = s;
}

int main() {
  const int n = 50;
  float h_in[n], h_out[n];
  for (int i = 0; i < n; i++) h_in[i] = (float)(i % 10);
  float filt[2 * R + 1] = {1, 2, 3, 4, 3, 2, 1};
  cudaMemcpyToSymbol(c_filter, filt, sizeof(filt));
  float *din, *dout;
  cudaMalloc(&din, sizeof(h_in)); cudaMalloc(&dout, sizeof(h_out));
  cudaMemcpy(din, h_in, sizeof(h_in), cudaMemcpyHostToDevice);
  conv1d<<<2, 32>>>(din, dout, n);
  cudaMemcpy(h_out, dout, sizeof(h_out), cudaMemcpyDeviceToHost);
  printf("conv1d:");
  for (int i = 0; i < 16; i++) printf(" %g", h_out[i]);
  printf(" ... %g\n", h_out[n - 1]);

  // change the middle tap only, through an offset
  float mid = -10;
  cudaMemcpyToSymbol(c_filter, &mid, sizeof(float), R * sizeof(float));
  conv1d<<<2, 32>>>(din, dout, n);
  cudaMemcpy(h_out, dout, sizeof(h_out), cudaMemcpyDeviceToHost);
  printf("conv1d (middle tap -10):");
  for (int i = 0; i < 8; i++) printf(" %g", h_out[i]);
  printf("\n");

  const int w = 8, h = 6;
  int img[w * h], res[w * h];
  for (int i = 0; i < w * h; i++) img[i] = (i * 5) % 9;
  int lap[3][3] = {{0, 1, 0}, {1, -4, 1}, {0, 1, 0}};
  cudaMemcpyToSymbol(c_kernel2d, lap, sizeof(lap));
  int *di, *dr;
  cudaMalloc(&di, sizeof(img)); cudaMalloc(&dr, sizeof(res));
  cudaMemcpy(di, img, sizeof(img), cudaMemcpyHostToDevice);
  conv2d<<<dim3(2, 2), dim3(4, 4)>>>(di, dr, w, h);
  cudaMemcpy(res, dr, sizeof(res), cudaMemcpyDeviceToHost);
  for (int y = 0; y < h; y++) {
    for (int x = 0; x < w; x++) printf("%4d", res[y * w + x]);
    printf("\n");
  }
  float back[2 * R + 1];
  cudaMemcpyFromSymbol(back, c_filter, sizeof(back));
  printf("filter read back:");
  for (int i = 0; i < 2 * R + 1; i++) printf(" %g", back[i]);
  printf("\n");
  return 0;
}
