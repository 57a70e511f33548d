// stencil_halo: 1D stencil with a shared-memory tile plus halo cells loaded by the
// first threads of the block, and a 2D 5-point stencil with a 2D shared tile + halo.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cstdlib>

#define RADIUS 3
#define BS 64

__global__ void stencil1d(const int *in, int *out, int n) {
  __shared__ int tile[BS + 2 * RADIUS];
  int g = blockIdx.x * blockDim.x + threadIdx.x;
  int l = threadIdx.x + RADIUS;
  tile[l] = g < n ? in[g] : 0;
  if (threadIdx.x < RADIUS) {
    int left = g - RADIUS, right = g + BS;
    tile[l - RADIUS] = left >= 0 ? in[left] : 0;
    tile[l + BS] = right < n ? in[right] : 0;
  }
  __syncthreads();
  if (g < n) {
    int s = 0;
    for (int o = -RADIUS; o <= RADIUS; o++) s += tile[l + o];
    out[g] = s;
  }
}

#define T2 8
__global__ void stencil2d(const float *in, float *out, int w, int h) {
  __shared__ float t[T2 + 2][T2 + 2];
  int x = blockIdx.x * T2 + threadIdx.x, y = blockIdx.y * T2 + threadIdx.y;
  int lx = threadIdx.x + 1, ly = threadIdx.y + 1;
  #define AT(xx, yy) (((xx) >= 0 && (xx) < w && (yy) >= 0 && (yy) < h) ? in[(yy) * w + (xx)] : 0.0f)
  t[ly][lx] = AT(x, y);
  if (threadIdx.x == 0) t[ly][0] = AT(x - 1, y);
  if (threadIdx.x == T2 - 1) t[ly][T2 + 1] = AT(x + 1, y);
  if (threadIdx.y == 0) t[0][lx] = AT(x, y - 1);
  if (threadIdx.y == T2 - 1) t[T2 + 1][lx] = AT(x, y + 1);
  __syncthreads();
  if (x < w && y < h)
    out[y * w + x] = t[ly][lx] * 4.0f - t[ly - 1][lx] - t[ly + 1][lx] - t[ly][lx - 1] - t[ly][lx + 1];
}

int main() {
  const int n = 1000;
  int *in = (int *)malloc(n * sizeof(int)), *out = (int *)malloc(n * sizeof(int));
  for (int i = 0; i < n; i++) in[i] = (i * 37) % 101;
  int *din, *dout;
  cudaMalloc(&din, n * sizeof(int)); cudaMalloc(&dout, n * sizeof(int));
  cudaMemcpy(din, in, n * sizeof(int), cudaMemcpyHostToDevice);
  stencil1d<<<(n + BS - 1) / BS, BS>>>(din, dout, n);
  cudaMemcpy(out, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0; long sum = 0;
  for (int i = 0; i < n; i++) {
    int s = 0;
    for (int o = -RADIUS; o <= RADIUS; o++) if (i + o >= 0 && i + o < n) s += in[i + o];
    if (s != out[i]) bad++;
    sum += out[i];
  }
  printf("stencil1d: out[0]=%d out[63]=%d out[64]=%d out[999]=%d sum=%ld mismatches=%d\n", out[0], out[63], out[64], out[999], sum, bad);

  const int w = 20, h = 13;
  float img[w * h], res[w * h];
  for (int i = 0; i < w * h; i++) img[i] = (float)((i * 7) % 5);
  float *di, *dr;
  cudaMalloc(&di, sizeof(img)); cudaMalloc(&dr, sizeof(res));
  cudaMemcpy(di, img, sizeof(img), cudaMemcpyHostToDevice);
  stencil2d<<<dim3((w + T2 - 1) / T2, (h + T2 - 1) / T2), dim3(T2, T2)>>>(di, dr, w, h);
  cudaMemcpy(res, dr, sizeof(res), cudaMemcpyDeviceToHost);
  for (int y = 0; y < 4; y++) {
    for (int x = 0; x < 12; x++) printf("%4g", res[y * w + x]);
    printf("\n");
  }
  double tot = 0;
  for (int i = 0; i < w * h; i++) tot += res[i];
  printf("stencil2d total = %g\n", tot);
  return 0;
}
