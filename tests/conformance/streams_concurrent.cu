// streams_concurrent: work in different streams runs concurrently. A kernel spins on a
// flag that only a kernel launched later, in another stream, sets (a grid of 64 spinning
// blocks, more than a CPU has cores, and a single block); a non-blocking stream's kernel
// spins on a flag set by a kernel in the legacy default stream (which does not wait for
// non-blocking streams); per-thread default streams of two host threads run at once.
// Both kernels are loaded before the first launch (cudaFuncGetAttributes), as CUDA's
// lazy module loading asks of programs whose kernels wait for each other.
// Every wait is bounded: the host gives up after 20 s and exits with status 3, so a
// runtime that serialises streams fails instead of hanging.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <thread>

__global__ void wait_for(volatile int *flag, int *out) {
  while (*flag == 0) { }
  if (threadIdx.x == 0) atomicAdd(out, 1);
}
__global__ void set_flag(volatile int *flag) { __threadfence_system(); *flag = 1; }

static void wait_bounded(cudaStream_t s, const char *what) {
  auto start = std::chrono::steady_clock::now();
  while (cudaStreamQuery(s) == cudaErrorNotReady) {
    if (std::chrono::steady_clock::now() - start > std::chrono::seconds(20)) {
      printf("TIMEOUT: %s\n", what);
      fflush(stdout);
      _Exit(3);
    }
    std::this_thread::sleep_for(std::chrono::microseconds(200));
  }
}

int main() {
  setenv("CUDA_MODULE_LOADING", "EAGER", 1);
  cudaFuncAttributes fa;
  cudaFuncGetAttributes(&fa, wait_for);
  cudaFuncGetAttributes(&fa, set_flag);
  int *flag, *count;
  cudaMalloc(&flag, 4 * sizeof(int));
  cudaMalloc(&count, 4 * sizeof(int));
  cudaMemset(flag, 0, 4 * sizeof(int));
  cudaMemset(count, 0, 4 * sizeof(int));
  cudaStream_t a, b, nb;
  cudaStreamCreateWithFlags(&a, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&b, cudaStreamNonBlocking);
  cudaStreamCreateWithFlags(&nb, cudaStreamNonBlocking);

  // 1. 64 spinning blocks in stream a, released by a kernel in stream b.
  wait_for<<<64, 32, 0, a>>>(flag, count);
  set_flag<<<1, 1, 0, b>>>(flag);
  wait_bounded(a, "64 spinning blocks");
  wait_bounded(b, "setter");
  printf("1: spinning grid released by another stream: %s\n", cudaGetErrorName(cudaGetLastError()));

  // 2. One spinning block, the setter launched after it into another stream.
  wait_for<<<1, 1, 0, b>>>(flag + 1, count + 1);
  set_flag<<<1, 1, 0, a>>>(flag + 1);
  wait_bounded(b, "single spinning block");
  printf("2: single block released: %s\n", cudaGetErrorName(cudaGetLastError()));

  // 3. A non-blocking stream does not wait for the legacy stream, nor it for them.
  wait_for<<<2, 32, 0, nb>>>(flag + 2, count + 2);
  set_flag<<<1, 1>>>(flag + 2);
  wait_bounded(nb, "non-blocking stream vs legacy stream");
  printf("3: legacy stream released a non-blocking stream: %s\n", cudaGetErrorName(cudaGetLastError()));

  // 4. Two host threads, each with its own per-thread default stream.
  std::thread t1([&] {
    wait_for<<<1, 1, 0, cudaStreamPerThread>>>(flag + 3, count + 3);
    wait_bounded(cudaStreamPerThread, "per-thread stream");
  });
  std::this_thread::sleep_for(std::chrono::milliseconds(50));
  std::thread t2([&] {
    set_flag<<<1, 1, 0, cudaStreamPerThread>>>(flag + 3);
    cudaStreamSynchronize(cudaStreamPerThread);
  });
  t1.join();
  t2.join();
  printf("4: per-thread streams of two threads ran at once\n");

  int h[4];
  cudaMemcpy(h, count, sizeof h, cudaMemcpyDeviceToHost);
  printf("blocks that saw their flag: %d %d %d %d\n", h[0], h[1], h[2], h[3]);
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  cudaStreamDestroy(a); cudaStreamDestroy(b); cudaStreamDestroy(nb);
  cudaFree(flag); cudaFree(count);
  return 0;
}
