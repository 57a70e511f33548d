#include <cstdio>
#ifndef __CUDACC__
#define __device__
#define __host__
#define __global__
#endif
#include <cuda/atomic>
#include <cuda/std/atomic>
#include <cuda/std/limits>
#include <cuda/std/complex>
#include <cuda/std/tuple>
#include <cuda/std/array>
#include <cuda/std/bit>
#include <cuda/std/functional>
// Cuprite's libcu++ headers: the same program as host C++ (g++, Cuprite's headers on the
// include path, their host branch) and in a kernel (their device branch): every atomic
// operation on every value type, one thread, and the other cuda::std headers.

template <class T> __host__ __device__ void ints(const char *name, T start) {
  T x = start;
  cuda::atomic_ref<T, cuda::thread_scope_device> a(x);
  long long r[16];
  int k = 0;
  r[k++] = (long long)a.fetch_add(5);
  r[k++] = (long long)a.fetch_sub(3);
  r[k++] = (long long)a.fetch_and((T)0x3c);
  r[k++] = (long long)a.fetch_or((T)0x41);
  r[k++] = (long long)a.fetch_xor((T)0x0f);
  r[k++] = (long long)a.fetch_min((T)7);
  r[k++] = (long long)a.fetch_max((T)90);
  r[k++] = (long long)a.exchange((T)12);
  T e = (T)13;
  r[k++] = a.compare_exchange_strong(e, (T)40);
  r[k++] = (long long)e;
  r[k++] = a.compare_exchange_weak(e, (T)41);
  r[k++] = (long long)(a++);
  r[k++] = (long long)(--a);
  r[k++] = (long long)(a += (T)100);
  r[k++] = (long long)a.load();
  r[k++] = (long long)x;
  printf("%s:", name);
  for (int i = 0; i < k; i++) printf(" %lld", r[i]);
  printf("\n");
}

struct Neighbours {
  char c[4];
  short s[2];
};

__host__ __device__ void body() {
  ints<char>("char", (char)3);
  ints<signed char>("schar", (signed char)-3);
  ints<unsigned char>("uchar", (unsigned char)250);
  ints<short>("short", (short)-300);
  ints<unsigned short>("ushort", (unsigned short)65530);
  ints<int>("int", -7);
  ints<unsigned>("unsigned", 4000000000u);
  ints<long long>("llong", -(1ll << 40));
  ints<unsigned long long>("ullong", ~0ull - 2);
  // Small atomics leave their neighbours alone.
  Neighbours n = {{1, 2, 3, 4}, {500, -500}};
  cuda::atomic_ref<char>(n.c[1]).fetch_add(10);
  cuda::atomic_ref<char>(n.c[3]).exchange(-1);
  cuda::atomic_ref<short>(n.s[1]).fetch_sub(1);
  printf("neighbours %d %d %d %d %d %d\n", n.c[0], n.c[1], n.c[2], n.c[3], n.s[0], n.s[1]);
  bool flag = false;
  cuda::atomic_ref<bool> fb(flag);
  bool was = fb.exchange(true);
  bool ex = false;
  bool ok = fb.compare_exchange_strong(ex, false);
  printf("bool %d %d %d %d %d\n", was, ok, ex, fb.load(), flag);
  float f = 1.5f;
  cuda::atomic_ref<float> af(f);
  float f0 = af.fetch_add(2.25f), f1 = af.fetch_sub(0.5f), f2 = af.fetch_max(10.0f), f3 = af.fetch_min(-1.0f);
  printf("float %.2f %.2f %.2f %.2f %.2f\n", f0, f1, f2, f3, af.load());
  double d = 0.25;
  cuda::std::atomic_ref<double> ad(d);
  double d0 = ad.fetch_add(1.0), d1 = ad.exchange(-2.0);
  printf("double %.2f %.2f %.2f\n", d0, d1, d);
  int arr[8] = {0, 1, 2, 3, 4, 5, 6, 7};
  int *p = arr;
  cuda::atomic_ref<int *> ap(p);
  int *p0 = ap.fetch_add(3);
  int *p1 = ap.fetch_sub(1);
  p1 = ap++;
  printf("pointer %d %d %d %d\n", *p0, *p1, *ap.load(), (int)(p - arr));
  cuda::std::atomic_flag fl;
  fl.clear();
  bool t0 = fl.test_and_set(), t1 = fl.test_and_set(), t2 = fl.test();
  printf("flag %d %d %d\n", t0, t1, t2);

  printf("limits %d %u %lld %d %d %d %.9g %.17g\n", cuda::std::numeric_limits<short>::min(), cuda::std::numeric_limits<unsigned>::max(),
         cuda::std::numeric_limits<long long>::min(), cuda::std::numeric_limits<double>::digits, cuda::std::numeric_limits<char>::is_signed,
         cuda::std::numeric_limits<unsigned char>::digits, cuda::std::numeric_limits<float>::epsilon(), cuda::std::numeric_limits<double>::denorm_min());
  cuda::std::complex<double> z(1.0, 2.0), w(3.0, -1.0);
  cuda::std::complex<double> q = z / w, m = z * w;
  printf("complex %.6f %.6f %.1f %.1f %.6f\n", q.real(), q.imag(), m.real(), m.imag(), cuda::std::abs(z));
  cuda::std::tuple<int, float, long long> t(1, 2.5f, 3ll);
  cuda::std::get<2>(t) += 10;
  cuda::std::array<unsigned, 3> bits = {{0x80u, 0xffu, 0x10000u}};
  printf("tuple %d %.1f %lld size %d\n", cuda::std::get<0>(t), cuda::std::get<1>(t), cuda::std::get<2>(t), (int)cuda::std::tuple_size<cuda::std::tuple<int, int>>::value);
  printf("bit %d %d %d %u %u\n", cuda::std::popcount(bits[1]), cuda::std::countr_zero(bits[2]), cuda::std::countl_zero((unsigned short)bits[0]),
         cuda::std::bit_ceil(bits[1]), cuda::std::rotr(bits[0], 8));
  printf("functional %d %d\n", cuda::std::plus<int>()(2, 3), (int)cuda::std::less<double>()(1.0, 0.5));
}

#ifdef __CUDACC__
__global__ void kern() { body(); }
int main() {
  kern<<<1, 1>>>();
  cudaDeviceSynchronize();
  return 0;
}
#else
int main() {
  body();
  return 0;
}
#endif
