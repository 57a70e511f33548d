// host_cpp: ordinary host C++ around kernels: std::vector, std::string, iostream
// (std::cout interleaved with device printf), a host class that owns device memory
// (RAII), lambdas and <algorithm> on the host, exceptions on the host.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <iostream>
#include <vector>
#include <string>
#include <algorithm>
#include <numeric>
#include <stdexcept>

__global__ void negate(int *p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = -p[i];
  if (i == 0) printf("device: negating %d values\n", n);
}

class DeviceBuffer {
 public:
  explicit DeviceBuffer(size_t n) : n_(n) {
    if (cudaMalloc(&ptr_, n * sizeof(int)) != cudaSuccess) throw std::runtime_error("cudaMalloc failed");
  }
  ~DeviceBuffer() { cudaFree(ptr_); }
  DeviceBuffer(const DeviceBuffer &) = delete;
  void upload(const std::vector<int> &v) { cudaMemcpy(ptr_, v.data(), n_ * sizeof(int), cudaMemcpyHostToDevice); }
  std::vector<int> download() const {
    std::vector<int> v(n_);
    cudaMemcpy(v.data(), ptr_, n_ * sizeof(int), cudaMemcpyDeviceToHost);
    return v;
  }
  int *get() { return ptr_; }
  size_t size() const { return n_; }
 private:
  int *ptr_ = nullptr;
  size_t n_;
};

int main() {
  std::vector<int> v(20);
  std::iota(v.begin(), v.end(), 1);
  std::string label = "values";
  {
    DeviceBuffer buf(v.size());
    buf.upload(v);
    std::cout << "host: launching for " << buf.size() << " " << label << std::endl;
    negate<<<1, 32>>>(buf.get(), (int)buf.size());
    cudaDeviceSynchronize();
    std::cout << "host: synchronised" << std::endl;
    v = buf.download();
  }
  std::sort(v.begin(), v.end(), [](int a, int b) { return a < b; });
  std::cout << "sorted: ";
  for (int x : v) std::cout << x << ' ';
  std::cout << "\nsum: " << std::accumulate(v.begin(), v.end(), 0) << '\n';
  try {
    // (1 << 62) ints is 2^64 bytes, which wraps to 0 in size_t: cudaMalloc(0) succeeds,
    // so this prints "unexpected success" on a GPU too, and the last error stays clear.
    DeviceBuffer huge((size_t)1 << 62);
    std::cout << "unexpected success\n";
  } catch (const std::exception &e) {
    std::cout << "caught: " << e.what() << '\n';
  }
  printf("last error after failed cudaMalloc: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
