// indexing_2d3d: dim3 grids and blocks in two and three dimensions; every thread
// writes its linear index and coordinates; gridDim/blockDim read in device code.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void fill2d(int *out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) out[y * w + x] = y * 1000 + x;
}

__global__ void fill3d(int *out, int nx, int ny, int nz) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  if (x < nx && y < ny && z < nz) {
    int tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
    int bid = blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z);
    out[(z * ny + y) * nx + x] = bid * (blockDim.x * blockDim.y * blockDim.z) + tid;
  }
}

__global__ void dims(int *out) {
  out[0] = gridDim.x; out[1] = gridDim.y; out[2] = gridDim.z;
  out[3] = blockDim.x; out[4] = blockDim.y; out[5] = blockDim.z;
  out[6] = warpSize;
}

int main() {
  const int w = 37, h = 19;
  int *d, hbuf[37 * 19];
  cudaMalloc(&d, sizeof(hbuf));
  fill2d<<<dim3((w + 7) / 8, (h + 3) / 4), dim3(8, 4)>>>(d, w, h);
  cudaMemcpy(hbuf, d, sizeof(hbuf), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) if (hbuf[y * w + x] != y * 1000 + x) bad++;
  printf("2d: out[0]=%d out[last]=%d mismatches=%d\n", hbuf[0], hbuf[w * h - 1], bad);

  const int nx = 10, ny = 6, nz = 5;
  int *d3, h3[10 * 6 * 5];
  cudaMalloc(&d3, sizeof(h3));
  dim3 block(4, 3, 2), grid((nx + 3) / 4, (ny + 2) / 3, (nz + 1) / 2);
  fill3d<<<grid, block>>>(d3, nx, ny, nz);
  cudaMemcpy(h3, d3, sizeof(h3), cudaMemcpyDeviceToHost);
  long sum = 0;
  for (int i = 0; i < nx * ny * nz; i++) sum += h3[i];
  printf("3d: grid (%u,%u,%u) block (%u,%u,%u)\n", grid.x, grid.y, grid.z, block.x, block.y, block.z);
  printf("3d: out[0]=%d out[1]=%d out[nx]=%d out[nx*ny]=%d out[last]=%d sum=%ld\n", h3[0], h3[1], h3[nx], h3[nx * ny], h3[nx * ny * nz - 1], sum);

  int hd[7];
  dims<<<dim3(3, 2, 4), dim3(5, 6, 7)>>>(d);
  cudaMemcpy(hd, d, sizeof(hd), cudaMemcpyDeviceToHost);
  printf("gridDim=(%d,%d,%d) blockDim=(%d,%d,%d) warpSize=%d\n", hd[0], hd[1], hd[2], hd[3], hd[4], hd[5], hd[6]);
  dim3 def;
  dim3 one(7);
  printf("dim3 defaults: (%u,%u,%u) (%u,%u,%u)\n", def.x, def.y, def.z, one.x, one.y, one.z);
  cudaFree(d); cudaFree(d3);
  return 0;
}
