// multi_tu (util.cpp): plain host C++ with no CUDA in it.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include "shared.h"
#include <numeric>
#include <vector>

void fill_sequence(int *p, int n, int start) {
  std::vector<int> v(n);
  std::iota(v.begin(), v.end(), start);
  for (int i = 0; i < n; i++) p[i] = v[i];
}

long sum_ints(const int *p, int n) { return std::accumulate(p, p + n, 0L); }
