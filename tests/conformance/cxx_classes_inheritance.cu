// cxx_classes_inheritance: classes in device code: single inheritance (base constructor
// in the member-initializer list, inherited members and member functions, hiding,
// derived-to-base conversion of pointers, references and values), public / protected /
// private access, constructors and destructors with side effects (counters in global
// memory, updated with atomics; scopes, loops, early return, temporaries), aggregate
// and brace initialization, default member initializers, static constexpr members, and
// a struct passed by value to a kernel.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

struct Counters { int ctor; int dtor; int copy; };
__device__ Counters g_count;

class Tracked {
 public:
  __device__ Tracked() : id_(0) { atomicAdd(&g_count.ctor, 1); }
  __device__ explicit Tracked(int id) : id_(id) { atomicAdd(&g_count.ctor, 1); }
  __device__ Tracked(const Tracked &o) : id_(o.id_) { atomicAdd(&g_count.copy, 1); }
  __device__ ~Tracked() { atomicAdd(&g_count.dtor, 1); }
  __device__ int id() const { return id_; }
 private:
  int id_;
};

class Account {
 public:
  __device__ Account(int owner, int balance) : balance_(balance), owner_(owner) {}
  __device__ int owner() const { return owner_; }
  __device__ int balance() const { return balance_; }
  __device__ void deposit(int amount) { balance_ += amount; ++ops_; }
  __device__ int describe() const { return 1; }          // hidden in Savings
  __device__ int ops() const { return ops_; }
 protected:
  __device__ void set_balance(int b) { balance_ = b; ++ops_; }
  int balance_;
 private:
  int owner_;
  int ops_ = 0;                                            // default member initializer
};

class Savings : public Account {
 public:
  static constexpr int kRatePercent = 5;
  __device__ Savings(int owner, int balance, int years) : Account(owner, balance), years_(years) {}
  __device__ void accrue() {
    for (int y = 0; y < years_; y++) set_balance(balance_ + balance_ * kRatePercent / 100);
  }
  __device__ int describe() const { return 2; }
 private:
  int years_;
};

__device__ int base_describe(const Account &a) { return a.describe() * 100 + a.balance() % 100; }
__device__ int balance_of(Account a) { return a.balance(); }       // sliced copy

struct Params {                                            // passed by value to a kernel
  int n;
  float scale;
  int offsets[4];
  struct { short lo, hi; } range;
  double bias;
};

struct Point { int x, y; };
struct Rect { Point min, max; int tag = 9; };

__global__ void accounts(int *out) {
  Savings s(7, 1000, 3);
  s.deposit(100);                                          // inherited
  s.accrue();
  Account &base = s;                                       // derived -> base reference
  Account *bp = &s;                                        // derived -> base pointer
  out[0] = s.balance();
  out[1] = base.owner();
  out[2] = s.describe();                                   // Savings::describe
  out[3] = base.describe();                                // Account::describe (not virtual)
  out[4] = bp->ops();
  out[5] = base_describe(s);
  out[6] = balance_of(s);
  out[7] = Savings::kRatePercent;
}

__device__ int early(int k) {
  Tracked a(k);
  if (k > 2) return a.id();                                // destroys a on this path
  Tracked b(a);
  return b.id() * 10;
}

__global__ void lifetimes(int *out) {
  int t = threadIdx.x;
  {
    Tracked x(t);                                          // 1 ctor, 1 dtor per thread
  }
  for (int i = 0; i < 3; i++) { Tracked loop(i); }        // 3 ctors, 3 dtors per thread
  Tracked arr[2];                                          // 2 ctors (default)
  out[t] = early(t) + arr[0].id() + Tracked(5).id();      // temporary: 1 ctor, 1 dtor
}

__global__ void init_forms(Params p, int *out, float *fout) {
  Point a = {1, 2};
  Point b{3, 4};
  Rect r{a, b};                                            // tag from its default initializer
  Rect r2 = {{-1, -2}, {5, 6}, 1};
  int arr[5] = {1, 2};                                     // rest zero
  Point pts[] = {{1, 1}, {2, 3}, {5, 8}};
  out[0] = r.max.x * r.max.y - r.min.x * r.min.y + r.tag;  // 12 - 2 + 9
  out[1] = r2.min.x + r2.max.y + r2.tag;                   // -1 + 6 + 1
  out[2] = arr[0] + arr[1] + arr[2] + arr[4];
  out[3] = sizeof(pts) / sizeof(pts[0]);
  out[4] = pts[2].x * pts[2].y;
  out[5] = p.n + p.offsets[0] + p.offsets[3];
  out[6] = p.range.lo + p.range.hi;
  fout[0] = p.scale * (float)p.bias;
}

int main() {
  int *d, h[8];
  cudaMalloc(&d, 64 * sizeof(int));
  accounts<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("accounts: balance %d owner %d describe %d/%d ops %d base %d sliced %d rate %d\n",
         h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7]);

  Counters zero = {0, 0, 0};
  cudaMemcpyToSymbol(g_count, &zero, sizeof(zero));
  const int threads = 64;
  lifetimes<<<1, threads>>>(d);
  int life[threads];
  cudaMemcpy(life, d, sizeof(life), cudaMemcpyDeviceToHost);
  Counters c;
  cudaMemcpyFromSymbol(&c, g_count, sizeof(c));
  printf("lifetimes: ctor %d dtor %d copy %d (balanced: %s)\n", c.ctor, c.dtor, c.copy,
         c.ctor + c.copy == c.dtor ? "yes" : "no");
  printf("early: %d %d %d %d %d\n", life[0], life[1], life[2], life[3], life[63]);

  Params p;
  p.n = 10; p.scale = 1.5f; p.offsets[0] = 100; p.offsets[1] = 0; p.offsets[2] = 0; p.offsets[3] = 1000;
  p.range.lo = -3; p.range.hi = 30; p.bias = 4.0;
  float *df, hf;
  cudaMalloc(&df, sizeof(float));
  init_forms<<<1, 1>>>(p, d, df);
  cudaMemcpy(h, d, 7 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(&hf, df, sizeof(float), cudaMemcpyDeviceToHost);
  printf("init: %d %d %d %d %d %d %d %.2f\n", h[0], h[1], h[2], h[3], h[4], h[5], h[6], hf);
  printf("sizeof(Params) = %d, sizeof(Rect) = %d\n", (int)sizeof(Params), (int)sizeof(Rect));
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(d); cudaFree(df);
  return 0;
}
