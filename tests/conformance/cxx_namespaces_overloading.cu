// cxx_namespaces_overloading: C++ name lookup and overload resolution in device code:
// nested and anonymous namespaces, `using namespace`, using-declarations, qualified
// names, a namespace alias, overloads chosen by C++ ranks (exact match, promotion,
// conversion; int / float / double / long / char / unsigned), default arguments,
// __device__ and __host__ __device__ overloads, enum class, constexpr functions used as
// array sizes and in static_assert, auto, decltype, nullptr, static_cast and
// reinterpret_cast, range-for over arrays.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

namespace geo {
  namespace detail {
    __host__ __device__ constexpr int square(int x) { return x * x; }
    __device__ int counter_base = 100;
  }
  __host__ __device__ constexpr int table_size(int side) { return detail::square(side) + 1; }
  __device__ int area(int w, int h = 2) { return w * h; }
  namespace shapes {
    enum class Kind : unsigned char { Point = 1, Line = 2, Poly = 7 };
    __device__ int code(Kind k) { return static_cast<int>(k) * 10; }
  }
}

namespace {
  __device__ int hidden(int x) { return x + 1000; }   // internal linkage
  constexpr int kLocal = 3;
}

namespace gs = geo::shapes;   // namespace alias

// Overload set: which one is chosen is encoded in the result.
__device__ int which(int) { return 1; }
__device__ int which(float) { return 2; }
__device__ int which(double) { return 3; }
__device__ int which(long) { return 4; }
__device__ int which(unsigned) { return 5; }
__device__ int which(const char *) { return 6; }
__device__ int which(void *) { return 7; }

// A double and a long long overload: float -> double is a promotion, which beats the
// float -> long long conversion.
__device__ int prom(double) { return 10; }
__device__ int prom(long long) { return 20; }

// __device__ and __host__ __device__ overloads with different parameter types.
__device__ int space(float) { return 100; }
__host__ __device__ int space(int) { return 200; }

__device__ int with_defaults(int a, int b = 5, int c = 7) { return a * 100 + b * 10 + c; }

static_assert(geo::table_size(3) == 10, "constexpr at file scope");
static_assert(sizeof(gs::Kind) == 1, "enum class with a fixed underlying type");

struct Pair { int a; int b; };

__global__ void lookups(int *out) {
  using namespace geo;
  using geo::shapes::Kind;
  using detail::square;
  int i = 0;
  out[i++] = square(7);                          // using-declaration
  out[i++] = area(4);                            // default argument
  out[i++] = area(4, 5);
  out[i++] = geo::area(3);                       // qualified
  out[i++] = gs::code(Kind::Poly);               // alias + enum class
  out[i++] = hidden(kLocal);                     // anonymous namespace
  out[i++] = detail::counter_base;               // nested namespace variable
  out[i++] = which(1);                           // int
  out[i++] = which(1.0f);                        // float
  out[i++] = which(1.0);                         // double
  out[i++] = which(1L);                          // long
  out[i++] = which(1u);                          // unsigned
  out[i++] = which("x");                         // const char*
  out[i++] = which(static_cast<void *>(out));    // void*
  out[i++] = which('c');                         // char -> int (promotion)
  short s = 2;
  out[i++] = which(s);                           // short -> int (promotion)
  out[i++] = prom(1.5f);                         // float -> double (promotion)
  out[i++] = prom(3LL);                          // exact
  out[i++] = space(1.0f);                        // __device__ overload
  out[i++] = space(1);                           // __host__ __device__ overload
  out[i++] = with_defaults(1);
  out[i++] = with_defaults(1, 2);
  out[i++] = with_defaults(1, 2, 3);
  out[29] = i;                                   // count of results
}

__global__ void features(int *out, float *fout) {
  constexpr int N = geo::table_size(2);          // 5: constexpr as an array size
  int arr[N];
  static_assert(N == 5, "constexpr in device code");
  for (int k = 0; k < N; k++) arr[k] = k * k;
  int sum = 0;
  for (int v : arr) sum += v;                    // range-for over a local array
  out[0] = sum;                                  // 0+1+4+9+16 = 30
  auto x = 2.5f;                                 // auto -> float
  decltype(x) y = x * 2;                         // float
  auto z = sum + 0L;                             // long
  out[1] = sizeof(y) + 10 * sizeof(z);           // 4 + 80
  int *p = nullptr;
  out[2] = (p == nullptr) ? 1 : 0;
  float f = 1.0f;
  unsigned bits = *reinterpret_cast<unsigned *>(&f);
  out[3] = static_cast<int>(bits >> 23);         // 127
  Pair pairs[3] = {{1, 2}, {3, 4}, {5, 6}};
  int dotp = 0;
  for (const Pair &q : pairs) dotp += q.a * q.b; // 2 + 12 + 30
  out[4] = dotp;
  for (auto &q : pairs) q.a = -q.a;
  out[5] = pairs[0].a + pairs[1].a + pairs[2].a;
  gs::Kind k = gs::Kind::Line;
  switch (k) {
    case gs::Kind::Point: out[6] = 1; break;
    case gs::Kind::Line: out[6] = 2; break;
    default: out[6] = 3; break;
  }
  out[7] = static_cast<int>(7.9f);               // truncation
  fout[0] = static_cast<float>(sum) / 4;         // 7.5
  fout[1] = y;
}

int main() {
  int *d, h[30] = {0};
  cudaMalloc(&d, sizeof(h));
  cudaMemset(d, 0, sizeof(h));
  lookups<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  const char *names[] = {"square(7)", "area(4)", "area(4,5)", "geo::area(3)", "code(Poly)",
                         "hidden(kLocal)", "counter_base", "which(int)", "which(float)",
                         "which(double)", "which(long)", "which(unsigned)", "which(const char*)",
                         "which(void*)", "which(char)", "which(short)", "prom(float)",
                         "prom(long long)", "space(float)", "space(int)", "defaults(1)",
                         "defaults(1,2)", "defaults(1,2,3)"};
  for (int i = 0; i < h[29]; i++) printf("%-18s = %d\n", names[i], h[i]);
  printf("results: %d\n", h[29]);
  printf("host: space(3) = %d, table_size(4) = %d\n", space(3), geo::table_size(4));

  int *d2, h2[8]; float *df, hf[2];
  cudaMalloc(&d2, sizeof(h2)); cudaMalloc(&df, sizeof(hf));
  features<<<1, 1>>>(d2, df);
  cudaMemcpy(h2, d2, sizeof(h2), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  printf("features: %d %d %d %d %d %d %d %d\n", h2[0], h2[1], h2[2], h2[3], h2[4], h2[5], h2[6], h2[7]);
  printf("floats: %.2f %.2f\n", hf[0], hf[1]);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(d); cudaFree(d2); cudaFree(df);
  return 0;
}
