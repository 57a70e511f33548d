#include <cstdio>
#include <type_traits>
#ifndef __CUDACC__
#define __device__
#define __host__
#define __global__
#endif
// Templates: the same program as host C++ (g++) and in kernels (Cuprite). The kernels
// are templates launched from a host function template, so their specializations come
// from the host object's stubs.

template <class T> __host__ __device__ T mx(T a, T b) { return a > b ? a : b; }
__host__ __device__ int mx(int a, int b) { return a > b ? a + 1000 : b + 1000; }   // preferred on a tie
template <class T> __host__ __device__ const char *kind(T) { return "value"; }
template <class T> __host__ __device__ const char *kind(T *) { return "pointer"; }
template <class T> __host__ __device__ const char *kind(const T *) { return "const pointer"; }

template <class T, int N> struct Arr {
  T d[N];
  typedef T value_type;
  static constexpr int size = N;
  __host__ __device__ T sum() const;
  template <class U> __host__ __device__ Arr<U, N> as() const {
    Arr<U, N> r;
    for (int i = 0; i < N; i++) r.d[i] = static_cast<U>(d[i]);
    return r;
  }
};
template <class T, int N> __host__ __device__ T Arr<T, N>::sum() const {
  T s = T();
  for (int i = 0; i < N; i++) s += d[i];
  return s;
}
template <class T> struct Name { __host__ __device__ static const char *get() { return "other"; } };
template <> struct Name<float> { __host__ __device__ static const char *get() { return "float"; } };
template <class T> struct Name<T *> { __host__ __device__ static const char *get() { return "pointer"; } };

template <class... Ts> __host__ __device__ double total(Ts... xs) { return (0.0 + ... + xs); }
template <class... Ts> __host__ __device__ int count(Ts...) { return (int)sizeof...(Ts); }
template <class F, class... As> __host__ __device__ auto invoke(F f, As... as) { return f(as...); }
struct Mul { __host__ __device__ int operator()(int a, int b) const { return a * b; } };
template <class V> __host__ __device__ typename V::value_type first(const V &v) { return v.d[0]; }

template <class T, int N> __host__ __device__ void body(T seed) {
  static_assert(N > 0, "N");
  Arr<T, N> a;
  for (int i = 0; i < N; i++) a.d[i] = seed + T(i);
  printf("%s N=%d sum=%.2f first=%.2f as-int=%d\n", Name<T>::get(), Arr<T, N>::size, (double)a.sum(), (double)first(a),
         a.template as<int>().sum());
  printf("mx %d %.1f %d\n", mx(3, 4), mx(2.5, 1.5), mx<long>(7, 'a') > 50);
  int x = 1;
  const int *cp = &x;
  printf("%s %s %s %s\n", kind(x), kind(&x), kind(cp), Name<int *>::get());
  printf("total %.2f count %d %d invoke %d\n", total(1, 2.5f, seed), count(), count(1, 'c', &x), invoke(Mul(), 6, 7));
  printf("traits %d %d\n", (int)std::is_integral<T>::value, (int)std::is_same<typename Arr<T, N>::value_type, float>::value);
}

#ifdef __CUDACC__
template <class T, int N> __global__ void kern(T seed) { body<T, N>(seed); }
template <class T> void launch(T seed) {
  kern<T, 3><<<1, 1>>>(seed);
  cudaDeviceSynchronize();
}
#else
template <class T> void launch(T seed) { body<T, 3>(seed); }
#endif

int main() {
  launch(1.5f);
  launch(2);
  launch(0.25);
  return 0;
}
