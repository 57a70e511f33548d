// launch_errors: invalid launch configurations (too many threads per block, block and
// grid dimensions over the limits, zero-sized grid or block, too much dynamic shared
// memory) report their error through cudaGetLastError/cudaPeekAtLastError right after
// the launch; the error is not sticky; a valid launch still works afterwards.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void k(int *p) { if (p) atomicAdd(p, 1); }
__global__ void kdyn(int *p) { extern __shared__ int s[]; s[0] = 1; if (p) *p += s[0]; }

static void show(const char *what) {
  cudaError_t peek = cudaPeekAtLastError();
  cudaError_t e = cudaGetLastError();
  cudaError_t again = cudaGetLastError();
  printf("%-32s %s / %s | %s | after: %s\n", what, cudaGetErrorName(peek), cudaGetErrorName(e), cudaGetErrorString(e), cudaGetErrorName(again));
}

int main() {
  int *d, h = 0;
  cudaMalloc(&d, sizeof(int));
  cudaMemset(d, 0, sizeof(int));
  k<<<1, 1025>>>(d);                    show("1025 threads");
  k<<<1, dim3(32, 32, 2)>>>(d);         show("block (32,32,2)");
  k<<<1, dim3(1, 1, 65)>>>(d);          show("block z = 65");
  k<<<1, dim3(1, 1025)>>>(d);           show("block y = 1025");
  k<<<dim3(1, 65536), 1>>>(d);          show("grid y = 65536");
  k<<<dim3(1, 1, 65536), 1>>>(d);       show("grid z = 65536");
  k<<<0, 32>>>(d);                      show("grid x = 0");
  k<<<1, 0>>>(d);                       show("block x = 0");
  kdyn<<<1, 32, 48 * 1024 + 1>>>(d);    show("dynamic smem 48KiB + 1");
  kdyn<<<1, 32, 1 << 20>>>(d);          show("dynamic smem 1 MiB");
  k<<<dim3(2, 3, 4), dim3(8, 4, 2)>>>(d); show("valid launch");
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
  printf("threads that ran: %d\n", h);
  return 0;
}
