// cxx_templates_misc: templates in device code: function template argument deduction
// (from values, pointers, references, arrays by reference), explicit template
// arguments, default template arguments, a class template with member functions defined
// outside the class and a member function template, nested types
// (typename Vec<T, N>::value_type), static constexpr members and static member functions
// of class templates, full specialization of a function template and of a class
// template, a constexpr variable template read in device code, and kernel templates
// launched from host function templates with deduced arguments
// (template <class T> void launch(T *d, int n) { fill<<<1, n>>>(d, T(3)); }).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

template <class T>
__device__ T maximum(T a, T b) { return a > b ? a : b; }

template <class T>
__device__ void swap_values(T &a, T &b) { T t = a; a = b; b = t; }

template <class T>
__device__ T first_of(const T *p) { return p[0]; }

template <class T, int N>
__device__ int array_length(T (&)[N]) { return N; }

template <class To, class From>
__device__ To convert(From f) { return static_cast<To>(f); }

template <class T = int, int Scale = 10>
__device__ T scaled(T v) { return v * Scale; }

// Full specialization of a function template.
template <class T>
__device__ int type_code(T) { return 0; }
template <>
__device__ int type_code<float>(float) { return 1; }
template <>
__device__ int type_code<double>(double) { return 2; }

template <class T, int N>
class Vec {
 public:
  typedef T value_type;
  using size_type = int;
  static constexpr int size = N;
  __device__ Vec();
  __device__ explicit Vec(T fill);
  __device__ T &operator[](size_type i) { return data_[i]; }
  __device__ const T &operator[](size_type i) const { return data_[i]; }
  __device__ value_type sum() const;
  template <class U>
  __device__ Vec<U, N> cast() const;
  __device__ static Vec iota(T start);
 private:
  T data_[N];
};

template <class T, int N>
__device__ Vec<T, N>::Vec() { for (int i = 0; i < N; i++) data_[i] = T(); }

template <class T, int N>
__device__ Vec<T, N>::Vec(T fill) { for (int i = 0; i < N; i++) data_[i] = fill; }

template <class T, int N>
__device__ typename Vec<T, N>::value_type Vec<T, N>::sum() const {
  value_type s = value_type();
  for (int i = 0; i < N; i++) s += data_[i];
  return s;
}

template <class T, int N>
template <class U>
__device__ Vec<U, N> Vec<T, N>::cast() const {
  Vec<U, N> r;
  for (int i = 0; i < N; i++) r[i] = static_cast<U>(data_[i]);
  return r;
}

template <class T, int N>
__device__ Vec<T, N> Vec<T, N>::iota(T start) {
  Vec v;
  for (int i = 0; i < N; i++) v[i] = start + T(i);
  return v;
}

// Full specialization of a class template.
template <class T>
struct Limits { __device__ static T lowest() { return T(0); } static constexpr int id = 0; };
template <>
struct Limits<int> { __device__ static int lowest() { return -2147483647 - 1; } static constexpr int id = 1; };

template <class V>
__device__ typename V::value_type total(const V &v) { return v.sum(); }   // nested type in a signature

template <class T>
constexpr T zero_v = T(0);                                               // variable template

template <class T>
__global__ void fill(T *d, T value) { d[threadIdx.x] = value + T(threadIdx.x); }

template <class T>
void launch(T *d, int n) { fill<<<1, n>>>(d, T(3)); }                    // T deduced at the launch

template <class T>
T sum_back(const T *d, int n) {
  T h[64], s = T(0);
  cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++) s += h[i];
  return s;
}

__global__ void misc(int *out, double *dout) {
  int k = 0;
  out[k++] = maximum(3, 9);                                // T = int
  out[k++] = (int)(maximum(2.5, 1.5) * 10);                // T = double
  out[k++] = maximum<long>(7, 'a');                        // explicit: 97
  int a = 1, b = 2;
  swap_values(a, b);                                       // T deduced from references
  out[k++] = a * 10 + b;
  short arr[6] = {4, 5, 6, 7, 8, 9};
  out[k++] = first_of(arr + 2);                            // T = short from a pointer
  out[k++] = array_length(arr);                            // N = 6 from an array reference
  out[k++] = convert<int>(3.99f);                          // To explicit, From deduced
  out[k++] = scaled(4);                                    // defaults: int, 10
  out[k++] = scaled<int, 3>(4);
  out[k++] = (int)(scaled<float>(0.5f));                   // 5
  out[k++] = type_code(1) * 100 + type_code(1.0f) * 10 + type_code(1.0);
  Vec<int, 5> v = Vec<int, 5>::iota(10);                   // 10..14
  out[k++] = v.sum();
  out[k++] = total(v);
  Vec<float, 5>::value_type f = v.cast<float>()[4] / 4;   // member template, explicit arg
  out[k++] = (int)(f * 100);                               // 350
  out[k++] = Vec<double, 7>::size + Vec<char, 3>::size;
  Vec<short, 3> sv(2);
  out[k++] = sv.sum();
  out[k++] = Limits<int>::lowest() == (-2147483647 - 1);
  out[k++] = Limits<float>::id * 10 + Limits<int>::id;
  out[k++] = (int)zero_v<float> + zero_v<int>;
  out[63] = k;
  dout[0] = v.cast<double>().sum() / 8;
}

int main() {
  int *di; float *df; double *dd; unsigned char *dc;
  cudaMalloc(&di, 64 * sizeof(int)); cudaMalloc(&df, 64 * sizeof(float));
  cudaMalloc(&dd, 64 * sizeof(double)); cudaMalloc(&dc, 64);
  launch(di, 10);                                          // int
  launch(df, 20);                                          // float
  launch(dd, 30);                                          // double
  launch(dc, 40);                                          // unsigned char
  printf("fill int: %d, float: %.1f, double: %.1f, uchar: %d\n", sum_back(di, 10), sum_back(df, 20),
         sum_back(dd, 30), (int)sum_back(dc, 40));
  int h[64]; double hd;
  misc<<<1, 1>>>(di, dd);
  cudaMemcpy(h, di, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hd, dd, sizeof(double), cudaMemcpyDeviceToHost);
  printf("misc (%d):", h[63]);
  for (int i = 0; i < h[63]; i++) printf(" %d", h[i]);
  printf("\ndouble: %.3f\n", hd);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(di); cudaFree(df); cudaFree(dd); cudaFree(dc);
  return 0;
}
