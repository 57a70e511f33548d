// cxx_template_matmul: a tiled matrix multiply as a kernel template
// (template <typename T, int TILE> __global__ void matmul(...)) instantiated for float
// and double from a host function template (template <typename T> void run(int n)),
// with explicit template arguments at the launch and deduced ones elsewhere; a class
// template Matrix<T> with member functions (host and device), a traits class template
// with full specializations (Traits<float>, Traits<double>) and a partial
// specialization (Traits<const T>), a non-type template parameter used as the shared
// tile size, and a variadic __device__ function template with a fold expression.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <vector>

template <class T> struct Traits;                       // primary: declared, not defined
template <> struct Traits<float> {
  static constexpr int digits = 2;
  static const char *name() { return "float"; }
  __host__ __device__ static float eps() { return 1e-3f; }
};
template <> struct Traits<double> {
  static constexpr int digits = 4;
  static const char *name() { return "double"; }
  __host__ __device__ static double eps() { return 1e-9; }
};
template <class T> struct Traits<const T> : Traits<T> { static constexpr bool is_const = true; };

template <class T>
class Matrix {
 public:
  __host__ __device__ Matrix(T *data, int rows, int cols) : data_(data), rows_(rows), cols_(cols) {}
  __host__ __device__ T &operator()(int r, int c) { return data_[r * cols_ + c]; }
  __host__ __device__ const T &operator()(int r, int c) const { return data_[r * cols_ + c]; }
  __host__ __device__ T at_or_zero(int r, int c) const { return (r < rows_ && c < cols_) ? (*this)(r, c) : T(0); }
  __host__ __device__ int rows() const { return rows_; }
  __host__ __device__ int cols() const { return cols_; }
  T trace() const;                                       // defined below (host only)
 private:
  T *data_;
  int rows_, cols_;
};

template <class T>
T Matrix<T>::trace() const {
  T s = T(0);
  for (int i = 0; i < rows_ && i < cols_; i++) s += (*this)(i, i);
  return s;
}

template <class... Ts>
__device__ auto sum(Ts... xs) { return (xs + ...); }

template <class... Ts>
__host__ __device__ constexpr int count(Ts...) { return sizeof...(Ts); }

template <typename T, int TILE>
__global__ void matmul(Matrix<T> a, Matrix<T> b, Matrix<T> c) {
  __shared__ T ta[TILE][TILE];
  __shared__ T tb[TILE][TILE];
  int row = blockIdx.y * TILE + threadIdx.y;
  int col = blockIdx.x * TILE + threadIdx.x;
  T acc = T(0);
  for (int t = 0; t < (a.cols() + TILE - 1) / TILE; t++) {
    ta[threadIdx.y][threadIdx.x] = a.at_or_zero(row, t * TILE + threadIdx.x);
    tb[threadIdx.y][threadIdx.x] = b.at_or_zero(t * TILE + threadIdx.y, col);
    __syncthreads();
#pragma unroll
    for (int k = 0; k < TILE; k++) acc += ta[threadIdx.y][k] * tb[k][threadIdx.x];
    __syncthreads();
  }
  if (row < c.rows() && col < c.cols()) c(row, col) = acc;
}

template <typename T>
__global__ void folds(T *out) {
  out[0] = sum(T(1), T(2), T(3));
  out[1] = sum(T(0.5), 2, 3.0f);                         // mixed types: promoted
  out[2] = (T)count(1, 2.0, 'c', out);
  out[3] = Traits<T>::eps() * 1000;
  out[4] = (T)Traits<const T>::digits;
}

template <typename T, int TILE>
int multiply_and_check(const std::vector<T> &ha, const std::vector<T> &hb, std::vector<T> &hc, int n) {
  T *da, *db, *dc;
  size_t bytes = n * n * sizeof(T);
  cudaMalloc(&da, bytes); cudaMalloc(&db, bytes); cudaMalloc(&dc, bytes);
  cudaMemcpy(da, ha.data(), bytes, cudaMemcpyHostToDevice);
  cudaMemcpy(db, hb.data(), bytes, cudaMemcpyHostToDevice);
  dim3 block(TILE, TILE), grid((n + TILE - 1) / TILE, (n + TILE - 1) / TILE);
  matmul<T, TILE><<<grid, block>>>(Matrix<T>(da, n, n), Matrix<T>(db, n, n), Matrix<T>(dc, n, n));
  cudaMemcpy(hc.data(), dc, bytes, cudaMemcpyDeviceToHost);
  cudaFree(da); cudaFree(db); cudaFree(dc);
  Matrix<const T> A(ha.data(), n, n), B(hb.data(), n, n);
  Matrix<T> C(hc.data(), n, n);
  int wrong = 0;
  for (int r = 0; r < n; r++)
    for (int c = 0; c < n; c++) {
      T ref = T(0);
      for (int k = 0; k < n; k++) ref += A(r, k) * B(k, c);
      T diff = ref - C(r, c);
      if (diff > Traits<T>::eps() || -diff > Traits<T>::eps()) wrong++;
    }
  return wrong;
}

template <typename T>
void run(int n) {
  std::vector<T> ha(n * n), hb(n * n), hc(n * n);
  for (int i = 0; i < n * n; i++) { ha[i] = T((i * 7) % 11) - T(5); hb[i] = T((i * 3) % 7) * T(0.5); }
  constexpr int tile = 16;
  int wrong8 = multiply_and_check<T, 8>(ha, hb, hc, n);
  int wrong16 = multiply_and_check<T, tile>(ha, hb, hc, n);
  Matrix<T> C(hc.data(), n, n);
  printf("%s n=%d: %d/%d wrong, trace %.*f, c[0][n-1] %.*f\n", Traits<T>::name(), n, wrong8, wrong16,
         Traits<T>::digits, (double)C.trace(), Traits<T>::digits, (double)C(0, n - 1));
  T *dout, hout[5];
  cudaMalloc(&dout, sizeof(hout));
  folds<<<1, 1>>>(dout);                                  // T deduced from the argument
  folds<T><<<1, 1>>>(dout);                               // and explicit
  cudaMemcpy(hout, dout, sizeof(hout), cudaMemcpyDeviceToHost);
  printf("%s folds: %.2f %.2f %.0f %.3f %.0f\n", Traits<T>::name(), (double)hout[0], (double)hout[1],
         (double)hout[2], (double)hout[3], (double)hout[4]);
  cudaFree(dout);
}

int main() {
  run<float>(50);
  run<double>(37);
  run<float>(16);
  static_assert(count() == 0 && count(1, 2) == 2, "sizeof... in a constexpr function");
  static_assert(Traits<const float>::is_const && Traits<const double>::digits == 4, "partial specialization");
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  return 0;
}
