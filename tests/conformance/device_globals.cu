// device_globals: __device__ and __constant__ variables with initializers (scalars,
// arrays, structs), cudaMemcpyFromSymbol with an offset, cudaMemcpyToSymbol,
// cudaGetSymbolAddress / cudaGetSymbolSize, a kernel updating a global counter.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

struct Params { int a; float b; char tag[4]; };

__device__ int g_counter = 5;
__device__ int g_table[8] = {10, 11, 12, 13, 14, 15, 16, 17};
__device__ float g_scale = 1.5f;
__device__ Params g_params = {42, 2.25f, {'x', 'y', 'z', 0}};
__constant__ int c_lut[4] = {100, 200, 300, 400};
__device__ double g_partial[3] = {0.5};   // rest zero-initialised
__device__ unsigned long long g_big = 0x123456789abcdefULL;

__global__ void bump(int *out) {
  atomicAdd(&g_counter, 1);
  if (threadIdx.x == 0 && blockIdx.x == 0) {
    out[0] = g_table[3] + c_lut[2];
    out[1] = (int)(g_scale * 4);
    out[2] = g_params.a + (int)g_params.b;
    out[3] = g_params.tag[1];
    out[4] = (int)(g_partial[0] * 10 + g_partial[2]);
    out[5] = (int)(g_big & 0xffff);
  }
}

__global__ void scale_table() { g_table[threadIdx.x] *= 2; }

int main() {
  int *d, h[6];
  cudaMalloc(&d, sizeof(h));
  bump<<<4, 32>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("read in kernel: %d %d %d %d %d %d\n", h[0], h[1], h[2], h[3], h[4], h[5]);
  int counter = 0;
  cudaMemcpyFromSymbol(&counter, g_counter, sizeof(int));
  printf("g_counter after 128 atomicAdds: %d\n", counter);

  int part[3];
  cudaMemcpyFromSymbol(part, g_table, 3 * sizeof(int), 4 * sizeof(int));
  printf("g_table[4..6] via offset: %d %d %d\n", part[0], part[1], part[2]);

  scale_table<<<1, 8>>>();
  int tab[8];
  cudaMemcpyFromSymbol(tab, g_table, sizeof(tab));
  printf("g_table doubled:");
  for (int i = 0; i < 8; i++) printf(" %d", tab[i]);
  printf("\n");

  int repl[2] = {-1, -2};
  cudaMemcpyToSymbol(g_table, repl, sizeof(repl), 6 * sizeof(int));
  cudaMemcpyFromSymbol(tab, g_table, sizeof(tab));
  printf("g_table after offset write:");
  for (int i = 0; i < 8; i++) printf(" %d", tab[i]);
  printf("\n");

  size_t sz = 0;
  cudaGetSymbolSize(&sz, g_table);  printf("size g_table = %zu\n", sz);
  cudaGetSymbolSize(&sz, g_params); printf("size g_params = %zu\n", sz);
  cudaGetSymbolSize(&sz, c_lut);    printf("size c_lut = %zu\n", sz);
  int *addr = 0;
  cudaError_t e = cudaGetSymbolAddress((void **)&addr, g_table);
  printf("cudaGetSymbolAddress: %s, non-null: %d\n", cudaGetErrorName(e), addr != 0);
  int v7 = 0;
  cudaMemcpy(&v7, addr + 7, sizeof(int), cudaMemcpyDeviceToHost);
  printf("g_table[7] through the address: %d\n", v7);
  int newv = 777;
  cudaMemcpy(addr + 0, &newv, sizeof(int), cudaMemcpyHostToDevice);
  cudaMemcpyFromSymbol(tab, g_table, sizeof(int));
  printf("g_table[0] after cudaMemcpy to the address: %d\n", tab[0]);
  Params p;
  cudaMemcpyFromSymbol(&p, g_params, sizeof(p));
  printf("g_params = {%d, %g, \"%s\"}\n", p.a, p.b, p.tag);
  printf("sizeof(g_table) on the host = %zu\n", sizeof(g_table));
  return 0;
}
