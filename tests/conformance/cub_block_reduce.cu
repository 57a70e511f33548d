// cub_block_reduce: CCCL's cub block- and warp-level primitives as nvcc builds them on
// sm_90: cub::BlockReduce (Sum, Reduce with a max functor, Sum of a partial tile),
// cub::WarpReduce (Sum per warp), cub::BlockScan (ExclusiveSum, InclusiveSum) of
// 128-thread blocks. Cuprite builds it with CCCL's headers when they are on its include
// path (see docs/FEATURES.md M6 for what stops that) and otherwise with a shared-memory
// equivalent; tests/ptx-modules runs nvcc's PTX of it, where CCCL's own code does the work.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>
#if __has_include(<cub/block/block_reduce.cuh>)
#include <cub/block/block_reduce.cuh>
#include <cub/block/block_scan.cuh>
#include <cub/warp/warp_reduce.cuh>
#define HAVE_CUB 1
#endif

#define THREADS 128

struct MaxOp {
  __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

#ifndef HAVE_CUB
// The same results from shared memory, for a build without CCCL's headers.
__device__ int tile_reduce(int v, int valid, bool is_max) {
  __shared__ int part[THREADS];
  __syncthreads();
  part[threadIdx.x] = v;
  __syncthreads();
  if (threadIdx.x == 0) {
    int acc = part[0];
    for (int i = 1; i < valid; i++) acc = is_max ? (acc > part[i] ? acc : part[i]) : acc + part[i];
    part[0] = acc;
  }
  __syncthreads();
  return part[0];
}
__device__ int tile_scan(int v, bool inclusive) {
  __shared__ int part[THREADS];
  __syncthreads();
  part[threadIdx.x] = v;
  __syncthreads();
  int acc = 0;
  for (unsigned i = 0; i < threadIdx.x; i++) acc += part[i];
  return inclusive ? acc + v : acc;
}
#endif

__global__ void block_reduce(const int* in, int* sums, int* maxes, int* partial, int valid) {
  int v = in[blockIdx.x * THREADS + threadIdx.x];
#ifdef HAVE_CUB
  typedef cub::BlockReduce<int, THREADS> Reduce;
  __shared__ typename Reduce::TempStorage tmp;
  int s = Reduce(tmp).Sum(v);
  __syncthreads();
  int m = Reduce(tmp).Reduce(v, MaxOp());
  __syncthreads();
  int p = Reduce(tmp).Sum(v, valid);
#else
  int s = tile_reduce(v, THREADS, false);
  int m = tile_reduce(v, THREADS, true);
  int p = tile_reduce(v, valid, false);
#endif
  if (threadIdx.x == 0) {
    sums[blockIdx.x] = s;
    maxes[blockIdx.x] = m;
    partial[blockIdx.x] = p;
  }
}

__global__ void warp_reduce(const int* in, int* out) {
  int v = in[threadIdx.x];
  int warp = threadIdx.x / 32;
#ifdef HAVE_CUB
  typedef cub::WarpReduce<int> Reduce;
  __shared__ typename Reduce::TempStorage tmp[THREADS / 32];
  int s = Reduce(tmp[warp]).Sum(v);
#else
  int s = v;
  for (int o = 16; o > 0; o /= 2) s += __shfl_down_sync(0xffffffffu, s, o);
#endif
  if (threadIdx.x % 32 == 0) out[warp] = s;
}

__global__ void block_scan(const int* in, int* excl, int* incl) {
  int v = in[threadIdx.x];
#ifdef HAVE_CUB
  typedef cub::BlockScan<int, THREADS> Scan;
  __shared__ typename Scan::TempStorage tmp;
  int e, i;
  Scan(tmp).ExclusiveSum(v, e);
  __syncthreads();
  Scan(tmp).InclusiveSum(v, i);
#else
  int e = tile_scan(v, false);
  int i = tile_scan(v, true);
#endif
  excl[threadIdx.x] = e;
  incl[threadIdx.x] = i;
}

int main() {
  const int blocks = 3, n = blocks * THREADS;
  int *in, *sums, *maxes, *partial, *warps, *excl, *incl;
  cudaMallocManaged(&in, n * sizeof(int));
  cudaMallocManaged(&sums, blocks * sizeof(int));
  cudaMallocManaged(&maxes, blocks * sizeof(int));
  cudaMallocManaged(&partial, blocks * sizeof(int));
  cudaMallocManaged(&warps, 4 * sizeof(int));
  cudaMallocManaged(&excl, THREADS * sizeof(int));
  cudaMallocManaged(&incl, THREADS * sizeof(int));
  for (int i = 0; i < n; i++) in[i] = (i * 37 + 11) % 101 - 50;
  block_reduce<<<blocks, THREADS>>>(in, sums, maxes, partial, 77);
  warp_reduce<<<1, THREADS>>>(in, warps);
  block_scan<<<1, THREADS>>>(in, excl, incl);
  cudaError_t err = cudaDeviceSynchronize();
  printf("sync: %s\n", cudaGetErrorString(err));
  for (int b = 0; b < blocks; b++) printf("block %d: sum %d max %d sum of first 77 %d\n", b, sums[b], maxes[b], partial[b]);
  for (int w = 0; w < 4; w++) printf("warp %d: sum %d\n", w, warps[w]);
  for (int i = 0; i < THREADS; i += 9) printf("scan %3d: exclusive %5d inclusive %5d\n", i, excl[i], incl[i]);
  return 0;
}
