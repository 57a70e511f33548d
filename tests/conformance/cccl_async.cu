// cccl_async: libcu++'s asynchronous barrier and pipeline and cub::BlockReduce, as
// CUDA's own headers implement them on sm_90 (mbarrier, cp.async, cp.async.bulk in
// inline PTX): a tile copied with cuda::memcpy_async completing a block-scope
// cuda::barrier, a thread-scope cuda::pipeline double-buffering its copies, and a block
// reduction. Cuprite builds it with its own <cuda/barrier> and <cuda/pipeline> (and a
// shared-memory reduction where cub is absent); tests/ptx-modules runs nvcc's PTX of it,
// where CCCL's inline PTX does the work.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cuda/barrier>
#include <cuda/pipeline>
#if __has_include(<cub/block/block_reduce.cuh>)
#include <cub/block/block_reduce.cuh>
#define HAVE_CUB 1
#endif

__device__ int block_sum(int v) {
#ifdef HAVE_CUB
  typedef cub::BlockReduce<int, 128> Reduce;
  __shared__ typename Reduce::TempStorage tmp;
  return Reduce(tmp).Sum(v);  // valid in thread 0
#else
  __shared__ int part[128];
  part[threadIdx.x] = v;
  __syncthreads();
  for (int s = 64; s > 0; s >>= 1) {
    if (threadIdx.x < s) part[threadIdx.x] += part[threadIdx.x + s];
    __syncthreads();
  }
  return part[0];
#endif
}

// 128 threads: the tile (512 ints) arrives through one memcpy_async on a block barrier.
__global__ void barrier_tile(const int *in, int *out) {
  __shared__ alignas(128) int tile[512];
  __shared__ cuda::barrier<cuda::thread_scope_block> bar;
  int t = threadIdx.x;
  if (t == 0) init(&bar, blockDim.x);
  __syncthreads();
  if (t == 0) cuda::memcpy_async(tile, in + blockIdx.x * 512, cuda::aligned_size_t<16>(512 * sizeof(int)), bar);
  bar.arrive_and_wait();
  int v = tile[t] + 2 * tile[t + 128] + 3 * tile[t + 256] + 4 * tile[511 - t];
  // A second phase of the same barrier.
  tile[t] = v;
  bar.arrive_and_wait();
  int s = block_sum(tile[(t * 7) & 127]);
  if (t == 0) out[blockIdx.x] = s;
}

// Each thread streams its own elements through a two-stage thread-scope pipeline.
__global__ void pipeline_stream(const int *in, int n, int *out) {
  __shared__ alignas(16) int buf[2][128];
  int t = threadIdx.x;
  cuda::pipeline<cuda::thread_scope_thread> pipe = cuda::make_pipeline();
  int chunks = n / 128, acc = 0;
  for (int c = 0; c < 2 && c < chunks; ++c) {
    pipe.producer_acquire();
    cuda::memcpy_async(&buf[c][t], in + c * 128 + t, sizeof(int), pipe);
    pipe.producer_commit();
  }
  for (int c = 0; c < chunks; ++c) {
    pipe.consumer_wait();
    acc = acc * 3 + buf[c & 1][t];
    pipe.consumer_release();
    if (c + 2 < chunks) {
      pipe.producer_acquire();
      cuda::memcpy_async(&buf[c & 1][t], in + (c + 2) * 128 + t, sizeof(int), pipe);
      pipe.producer_commit();
    }
  }
  out[t] = acc;
}

int main() {
  const int n = 1024;
  static int h[n];
  for (int i = 0; i < n; ++i) h[i] = (i * 29) % 97 - 40;
  int *d_in, *d_out;
  cudaMalloc(&d_in, sizeof h);
  cudaMalloc(&d_out, 128 * sizeof(int));
  cudaMemcpy(d_in, h, sizeof h, cudaMemcpyHostToDevice);
  barrier_tile<<<2, 128>>>(d_in, d_out);
  int r[128];
  cudaMemcpy(r, d_out, 2 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("barrier_tile: %d %d\n", r[0], r[1]);
  pipeline_stream<<<1, 128>>>(d_in, 640, d_out);
  cudaMemcpy(r, d_out, sizeof r, cudaMemcpyDeviceToHost);
  printf("pipeline_stream:");
  for (int i = 0; i < 128; i += 9) printf(" %d", r[i]);
  printf("\n");
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync: %s\n", cudaGetErrorString(e));
  return 0;
}
