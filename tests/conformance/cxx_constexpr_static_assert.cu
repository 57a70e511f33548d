// cxx_constexpr_static_assert: compile-time evaluation around device code: constexpr
// functions (recursive, with loops, with local variables and branches) marked
// __host__ __device__ and called both at compile time and at run time on the device,
// static_assert at file scope, in a kernel, in a kernel template and in a struct,
// constexpr variables as template arguments, array sizes (local, __shared__,
// __constant__), and case labels, constexpr static members, if constexpr,
// type traits (std::is_same, std::is_integral) and sizeof in constant expressions.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <type_traits>

__host__ __device__ constexpr unsigned long long factorial(int n) { return n <= 1 ? 1ULL : n * factorial(n - 1); }

__host__ __device__ constexpr int fib(int n) {
  int a = 0, b = 1;
  for (int i = 0; i < n; i++) { int t = a + b; a = b; b = t; }
  return a;
}

__host__ __device__ constexpr int ilog2(unsigned v) {
  int r = -1;
  while (v) { v >>= 1; ++r; }
  return r;
}

__host__ __device__ constexpr bool is_prime(int n) {
  if (n < 2) return false;
  for (int d = 2; d * d <= n; d++)
    if (n % d == 0) return false;
  return true;
}

__host__ __device__ constexpr int nth_prime(int k) {
  int found = -1, n = 1;
  while (found < k) {
    ++n;
    if (is_prime(n)) ++found;
  }
  return n;
}

static_assert(factorial(10) == 3628800ULL, "factorial");
static_assert(fib(20) == 6765, "fib");
static_assert(ilog2(1024) == 10 && ilog2(1) == 0, "ilog2");
static_assert(nth_prime(9) == 29, "primes");
static_assert(sizeof(float4) == 16 && alignof(double2) == 16, "vector types");

constexpr int kBlock = 1 << ilog2(200);                     // 128
constexpr int kTaps = fib(6);                               // 8
__constant__ float c_taps[kTaps];

struct Config {
  static constexpr int width = 4;
  static constexpr int height = fib(5);                      // 5
  static constexpr int cells = width * height;
  static_assert(cells == 20, "static_assert in a struct");
};

template <int N>
struct Pow2Table {
  int v[N];
  __host__ __device__ constexpr Pow2Table() : v() { for (int i = 0; i < N; i++) v[i] = 1 << i; }
};

template <class T, int N>
__global__ void scaled_fill(T *out) {
  static_assert(N > 0 && N <= 1024, "N in range");
  static_assert(std::is_integral<T>::value || std::is_floating_point<T>::value, "arithmetic T");
  T local[N];
  for (int i = 0; i < N; i++) local[i] = T(i);
  int t = threadIdx.x;
  if (t < N) {
    if constexpr (std::is_integral<T>::value) out[t] = local[t] * T(fib(7));   // 13
    else out[t] = local[t] / T(4);
  }
}

__global__ void compute(int *out, unsigned long long *big) {
  static_assert(kBlock == 128, "kBlock");
  constexpr int n = nth_prime(4);                            // 11
  __shared__ int tile[kBlock];
  int arr[n];
  int t = threadIdx.x;
  tile[t] = t;
  __syncthreads();
  if (t == 0) {
    for (int i = 0; i < n; i++) arr[i] = tile[i] * i;
    int s = 0;
    for (int i = 0; i < n; i++) s += arr[i];
    out[0] = s;                                              // sum of i^2, i < 11 = 385
    out[1] = fib(tile[25]);                                  // run-time argument: 75025
    out[2] = ilog2((unsigned)tile[100] * 1000);
    out[3] = is_prime(tile[97]) + is_prime(tile[91]) * 2;
    out[4] = Config::cells + Config::height;
    constexpr Pow2Table<10> table;
    out[5] = table.v[9];
    int k = tile[3];
    switch (k) {
      case fib(4): out[6] = 100; break;                      // fib(4) = 3
      case kTaps: out[6] = 200; break;
      default: out[6] = 300;
    }
    float acc = 0.0f;
    for (int i = 0; i < kTaps; i++) acc += c_taps[i];
    out[7] = (int)acc;
    out[8] = sizeof(arr) / sizeof(arr[0]);
    big[0] = factorial(tile[20]);                            // 20! fits in 64 bits
    constexpr unsigned long long f15 = factorial(15);
    big[1] = f15;
  }
}

int main() {
  float taps[kTaps];
  for (int i = 0; i < kTaps; i++) taps[i] = 0.5f * i;        // sum 14
  cudaMemcpyToSymbol(c_taps, taps, sizeof(taps));
  int *d, h[9]; unsigned long long *db, hb[2];
  cudaMalloc(&d, sizeof(h)); cudaMalloc(&db, sizeof(hb));
  compute<<<1, kBlock>>>(d, db);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(hb, db, sizeof(hb), cudaMemcpyDeviceToHost);
  printf("compute:");
  for (int i = 0; i < 9; i++) printf(" %d", h[i]);
  printf("\n20! = %llu, 15! = %llu\n", hb[0], hb[1]);

  constexpr int N = Config::width * 4;                       // 16
  int *di, hi[N]; float *df, hf[N];
  cudaMalloc(&di, sizeof(hi)); cudaMalloc(&df, sizeof(hf));
  scaled_fill<int, N><<<1, 32>>>(di);
  scaled_fill<float, N><<<1, 32>>>(df);
  cudaMemcpy(hi, di, sizeof(hi), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  printf("int:  %d %d %d\nfloat: %.2f %.2f %.2f\n", hi[1], hi[2], hi[N - 1], hf[1], hf[2], hf[N - 1]);
  printf("host: fib(30) = %d, nth_prime(99) = %d, kBlock = %d\n", fib(30), nth_prime(99), kBlock);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(d); cudaFree(db); cudaFree(di); cudaFree(df);
  return 0;
}
