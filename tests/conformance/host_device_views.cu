// host_device_views: memory that host and device reach under two names stays one
// object: a __device__ array written by a kernel and read through cudaGetSymbolAddress +
// cudaMemcpy (and the other way round), symbol copies against the symbol address,
// cudaMemset through a symbol address; mapped pinned memory (cudaHostAlloc with
// cudaHostAllocMapped + cudaHostGetDevicePointer); registered memory (cudaHostRegister
// with cudaHostRegisterMapped + cudaHostGetDevicePointer); cudaMallocManaged memory
// used directly and through cudaMemcpy.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cstdlib>

__device__ int dvar[4] = {1, 2, 3, 4};
__device__ int dscalar;

__global__ void add_to_dvar(int k) { dvar[threadIdx.x] += k; }
__global__ void read_dvar(int *out) { out[threadIdx.x] = dvar[threadIdx.x]; }
__global__ void set_scalar(int v) { dscalar = v; }
__global__ void read_scalar(int *out) { *out = dscalar; }
__global__ void inc(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] += i;
}

static long long sum(const int *p, int n) {
  long long s = 0;
  for (int i = 0; i < n; i++) s += p[i];
  return s;
}

int main() {
  // A __device__ array through its symbol address.
  int *daddr = 0;
  printf("cudaGetSymbolAddress: %s\n", cudaGetErrorName(cudaGetSymbolAddress((void **)&daddr, dvar)));
  add_to_dvar<<<1, 4>>>(10);
  int h[4];
  cudaMemcpy(h, daddr, sizeof(h), cudaMemcpyDeviceToHost);
  printf("dvar via its address: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
  int w[2] = {100, 200};
  cudaMemcpy(daddr + 2, w, sizeof(w), cudaMemcpyHostToDevice);
  int *out;
  cudaMalloc(&out, 4 * sizeof(int));
  read_dvar<<<1, 4>>>(out);
  cudaMemcpy(h, out, sizeof(h), cudaMemcpyDeviceToHost);
  printf("kernel sees: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
  cudaMemcpyFromSymbol(h, dvar, sizeof(h));
  printf("cudaMemcpyFromSymbol: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
  int five = 5;
  cudaMemcpyToSymbol(dvar, &five, sizeof(int), 3 * sizeof(int));
  cudaMemcpy(h, daddr, sizeof(h), cudaMemcpyDeviceToHost);
  printf("after cudaMemcpyToSymbol at offset: %d %d %d %d\n", h[0], h[1], h[2], h[3]);

  // A __device__ scalar: kernel writes, symbol copy reads; memset through its address.
  int *saddr = 0;
  cudaGetSymbolAddress((void **)&saddr, dscalar);
  set_scalar<<<1, 1>>>(42);
  int sv = 0;
  cudaMemcpyFromSymbol(&sv, dscalar, sizeof(int));
  printf("dscalar set by a kernel: %d\n", sv);
  cudaMemset(saddr, 0x01, sizeof(int));
  read_scalar<<<1, 1>>>(out);
  cudaMemcpy(&sv, out, sizeof(int), cudaMemcpyDeviceToHost);
  printf("dscalar after cudaMemset: 0x%08x\n", (unsigned)sv);

  // Mapped pinned memory.
  const int nm = 256;
  int *mapped = 0, *dmapped = 0;
  printf("cudaHostAlloc mapped: %s\n", cudaGetErrorName(cudaHostAlloc((void **)&mapped, nm * sizeof(int), cudaHostAllocMapped)));
  for (int i = 0; i < nm; i++) mapped[i] = 1000;
  printf("cudaHostGetDevicePointer: %s\n", cudaGetErrorName(cudaHostGetDevicePointer((void **)&dmapped, mapped, 0)));
  inc<<<2, 128>>>(dmapped, nm);
  cudaDeviceSynchronize();
  printf("mapped sum after kernel: %lld\n", sum(mapped, nm));
  mapped[5] = -1;
  inc<<<2, 128>>>(dmapped, nm);
  cudaDeviceSynchronize();
  printf("mapped[5] %d mapped[255] %d\n", mapped[5], mapped[255]);
  cudaFreeHost(mapped);

  // Registered memory.
  const int nr = 1024;
  int *reg = (int *)aligned_alloc(4096, nr * sizeof(int));
  for (int i = 0; i < nr; i++) reg[i] = 1;
  printf("cudaHostRegister: %s\n", cudaGetErrorName(cudaHostRegister(reg, nr * sizeof(int), cudaHostRegisterMapped)));
  int *dreg = 0;
  printf("cudaHostGetDevicePointer: %s\n", cudaGetErrorName(cudaHostGetDevicePointer((void **)&dreg, reg, 0)));
  inc<<<4, 256>>>(dreg, nr);
  cudaDeviceSynchronize();
  printf("registered sum after kernel: %lld\n", sum(reg, nr));
  reg[1] = 50;
  cudaMemcpy(h, dreg, sizeof(h), cudaMemcpyDeviceToHost);
  printf("registered through the device pointer: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
  printf("cudaHostUnregister: %s\n", cudaGetErrorName(cudaHostUnregister(reg)));
  free(reg);

  // Managed memory, directly and through cudaMemcpy.
  int *man = 0;
  cudaMallocManaged(&man, 8 * sizeof(int));
  for (int i = 0; i < 8; i++) man[i] = i;
  inc<<<1, 8>>>(man, 8);
  cudaDeviceSynchronize();
  int src[4] = {-1, -2, -3, -4};
  cudaMemcpy(man + 4, src, sizeof(src), cudaMemcpyDefault);
  inc<<<1, 8>>>(man, 8);
  cudaDeviceSynchronize();
  printf("managed:");
  for (int i = 0; i < 8; i++) printf(" %d", man[i]);
  printf("\n");
  cudaMemcpy(h, man, sizeof(h), cudaMemcpyDefault);
  printf("managed copied out: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
  cudaFree(man);
  cudaFree(out);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
