// transpose: matrix transpose through a padded 2D shared-memory tile ([32][33]) with a
// 2D grid, non-square and non-multiple-of-tile sizes, several rows per thread.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cstdlib>

#define TILE 32
#define ROWS 8

__global__ void transpose(float *out, const float *in, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x;
  int y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x;
  y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += ROWS)
    if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}

int main() {
  const int w = 100, h = 70;
  float *a = (float *)malloc(w * h * sizeof(float)), *b = (float *)malloc(w * h * sizeof(float));
  for (int i = 0; i < w * h; i++) a[i] = (float)i;
  float *da, *db;
  cudaMalloc(&da, w * h * sizeof(float)); cudaMalloc(&db, w * h * sizeof(float));
  cudaMemcpy(da, a, w * h * sizeof(float), cudaMemcpyHostToDevice);
  dim3 grid((w + TILE - 1) / TILE, (h + TILE - 1) / TILE), block(TILE, ROWS);
  transpose<<<grid, block>>>(db, da, w, h);
  cudaMemcpy(b, db, w * h * sizeof(float), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) if (b[x * h + y] != a[y * w + x]) bad++;
  printf("b[0]=%g b[1]=%g b[69]=%g b[70]=%g b[last]=%g mismatches=%d\n", b[0], b[1], b[69], b[70], b[w * h - 1], bad);
  free(a); free(b);
  return 0;
}
