#include <cstdio>
#ifndef __CUDACC__
#define __device__
#define __host__
#endif
namespace geo {
struct Vec3 {
  float x, y, z;
  __host__ __device__ Vec3() : x(0), y(0), z(0) {}
  __host__ __device__ Vec3(float a, float b, float c) : x(a), y(b), z(c) {}
  __host__ __device__ explicit Vec3(float s) : x(s), y(s), z(s) {}
  __host__ __device__ float len2() const { return x * x + y * y + z * z; }
  __host__ __device__ float dot(const Vec3& o) const;
  __host__ __device__ Vec3 operator+(const Vec3& o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
  __host__ __device__ Vec3 operator-() const { return Vec3(-x, -y, -z); }
  __host__ __device__ Vec3& operator+=(const Vec3& o) { x += o.x; y += o.y; z += o.z; return *this; }
  __host__ __device__ float& operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
  __host__ __device__ float operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }
  __host__ __device__ bool operator==(const Vec3& o) const { return x == o.x && y == o.y && z == o.z; }
};
__host__ __device__ float Vec3::dot(const Vec3& o) const { return x * o.x + y * o.y + z * o.z; }
__host__ __device__ inline Vec3 operator*(float s, const Vec3& v) { return Vec3(s * v.x, s * v.y, s * v.z); }
}  // namespace geo

class Counter {
 public:
  __host__ __device__ Counter(int start = 10) : n_(start) {}
  __host__ __device__ Counter& operator++() { n_ += kStep; return *this; }
  __host__ __device__ Counter operator++(int) { Counter old = *this; n_ += kStep; return old; }
  __host__ __device__ int get() const { return n_; }
  __host__ __device__ operator int() const { return n_; }
  __host__ __device__ static int twice(int v) { return 2 * v; }
 private:
  static constexpr int kStep = 2;
  int n_;
};

struct Tracer {
  int id;
  __host__ __device__ Tracer(int i) : id(i) { printf("ctor %d\n", id); }
  __host__ __device__ Tracer(const Tracer& o) : id(o.id + 100) { printf("copy %d\n", id); }
  __host__ __device__ ~Tracer() { printf("dtor %d\n", id); }
  __host__ __device__ int value() const { return id; }
};

__host__ __device__ Tracer make(int i) { Tracer t(i); return t; }
__host__ __device__ int peek(Tracer t) { return t.value(); }

struct Base {
  int b;
  __host__ __device__ Base(int v) : b(v) {}
  __host__ __device__ int twiceB() const { return 2 * b; }
};
struct Derived : Base {
  int d;
  __host__ __device__ Derived(int x, int y) : Base(x), d(y) {}
  __host__ __device__ int sum() const { return b + d + twiceB(); }
};
__host__ __device__ int baseOf(const Base& r) { return r.b; }

__host__ __device__ int overl(int) { return 1; }
__host__ __device__ int overl(float) { return 2; }
__host__ __device__ int overl(double) { return 3; }
__host__ __device__ int overl(const geo::Vec3&) { return 4; }
__host__ __device__ int defa(int a, int b = 5, int c = 7) { return a * 100 + b * 10 + c; }

__host__ __device__ void body(int tag) {
  typedef geo::Vec3 Vec3;
  Vec3 a(1, 2, 3), b{4, 5, 6};
  Vec3 c = a + b;
  c += 2.0f * a;
  Vec3 n = -c;
  n[1] = 7.5f;
  const Vec3& cr = n;
  printf("[%d] c=(%g,%g,%g) len2=%g dot=%g n=(%g,%g,%g) idx=%g eq=%d %d\n", tag, c.x, c.y, c.z, c.len2(), a.dot(b), n.x, n.y, n.z, cr[1],
         (int)(a == a), (int)(a == b));
  Counter k;
  ++k;
  Counter k2 = k++;
  int asInt = k;
  printf("[%d] counter %d %d %d twice=%d\n", tag, k.get(), k2.get(), asInt + 1, Counter::twice(21));
  {
    Tracer t1(1);
    Tracer t2 = make(2);
    printf("[%d] peek %d\n", tag, peek(t1));
    for (int i = 0; i < 2; ++i) {
      Tracer loop(10 + i);
      if (i == 1) break;
    }
  }
  Derived dv(3, 4);
  printf("[%d] derived sum=%d base=%d\n", tag, dv.sum(), baseOf(dv));
  printf("[%d] overloads %d %d %d %d %d defaults %d %d %d\n", tag, overl(1), overl(1.0f), overl(1.0), overl('c'), overl(a), defa(1), defa(1, 2), defa(1, 2, 3));
  Vec3 e(2.0f);
  printf("[%d] explicit %g\n", tag, e.len2());
}

#ifdef __CUDACC__
__global__ void kern() { body(1); }
#endif

int main() {
#ifdef __CUDACC__
  kern<<<1, 1>>>();
  cudaDeviceSynchronize();
#else
  body(1);
#endif
  return 0;
}
