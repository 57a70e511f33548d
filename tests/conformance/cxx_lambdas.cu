// cxx_lambdas: lambdas written in device code: captures by value and by reference,
// default captures [=] and [&], init-captures, `mutable`, generic lambdas (auto
// parameters), lambdas returning lambdas, immediately invoked lambdas, lambdas passed to
// __device__ function templates (template <class F> __device__ void apply(F f)); and
// functors (structs with a __device__ operator()) built in host code and passed by value
// to a kernel template. Needs no --extended-lambda: no lambda crosses from host to device.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

template <class F>
__device__ void apply(int *data, int n, F f) {
  for (int i = 0; i < n; i++) data[i] = f(data[i], i);
}

template <class F>
__device__ int count_if(const int *data, int n, F pred) {
  int c = 0;
  for (int i = 0; i < n; i++) if (pred(data[i])) c++;
  return c;
}

template <class F, class G>
__device__ auto compose(F f, G g) {
  return [=](auto x) { return f(g(x)); };
}

__global__ void lambdas(int *out, float *fout) {
  int local[8];
  for (int i = 0; i < 8; i++) local[i] = i + 1;
  int k = 3;
  auto add_k = [k](int v, int) { return v + k; };              // by value
  k = 100;                                                       // copy unaffected
  apply(local, 8, add_k);                                        // 4..11
  int sum = 0;
  auto accumulate = [&sum](int v, int i) { sum += v; return v * (i % 2 ? -1 : 1); };
  apply(local, 8, accumulate);                                   // by reference
  out[0] = sum;                                                  // 4+..+11 = 60
  out[1] = local[0] + local[1] + local[7];                       // 4 - 5 - 11
  int threshold = 0;
  out[2] = count_if(local, 8, [=](int v) { return v > threshold; });
  auto counter = [n = 10]() mutable { return ++n; };             // init-capture + mutable
  counter(); counter();
  out[3] = counter();                                            // 13
  auto twice = [](auto x) { return x + x; };                     // generic
  out[4] = twice(21);
  fout[0] = twice(1.25f);
  auto inc = [](int x) { return x + 1; };
  auto sq = [](int x) { return x * x; };
  auto sq_then_inc = compose(inc, sq);
  out[5] = sq_then_inc(6);                                       // 37
  int base = 5;
  auto adder = [&](int x) { return [=](int y) { return x + y + base; }; };
  out[6] = adder(10)(20);                                        // 35
  out[7] = [](int a, int b) { return a * b; }(6, 7);            // immediately invoked
  int arr[4] = {4, 1, 3, 2};
  auto by_desc = [](int a, int b) { return a > b; };
  for (int i = 0; i < 4; i++)                                    // small sort with a comparator
    for (int j = 0; j + 1 < 4 - i; j++)
      if (by_desc(arr[j + 1], arr[j])) { int t = arr[j]; arr[j] = arr[j + 1]; arr[j + 1] = t; }
  out[8] = arr[0] * 1000 + arr[1] * 100 + arr[2] * 10 + arr[3];
  int calls = 0;
  auto traced = [&calls, scale = 2.0f](float x) { ++calls; return x * scale; };
  fout[1] = traced(1.5f) + traced(2.0f);
  out[9] = calls;
}

// Per-thread lambdas: each thread captures its own index.
__global__ void per_thread(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  auto f = [i, n](int m) { return (i * m) % n; };
  if (i < n) out[i] = f(7);
}

struct Saxpy {
  float a;
  __device__ float operator()(float x, float y) const { return a * x + y; }
};

struct Clamp {
  float lo, hi;
  __device__ float operator()(float x, float y) const { float v = x - y; return v < lo ? lo : (v > hi ? hi : v); }
};

template <class Op>
__global__ void zip(const float *x, const float *y, float *z, int n, Op op) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) z[i] = op(x[i], y[i]);
}

template <class Op>
void run_zip(const char *name, Op op, const float *dx, const float *dy, float *dz, int n) {
  zip<<<(n + 31) / 32, 32>>>(dx, dy, dz, n, op);
  float h[64];
  cudaMemcpy(h, dz, n * sizeof(float), cudaMemcpyDeviceToHost);
  double s = 0;
  for (int i = 0; i < n; i++) s += h[i];
  printf("%s: z[0]=%.2f z[%d]=%.2f sum=%.2f\n", name, h[0], n - 1, h[n - 1], s);
}

int main() {
  int *d, h[16]; float *df, hf[2];
  cudaMalloc(&d, 64 * sizeof(int)); cudaMalloc(&df, sizeof(hf));
  lambdas<<<1, 1>>>(d, df);
  cudaMemcpy(h, d, 10 * sizeof(int), cudaMemcpyDeviceToHost);
  cudaMemcpy(hf, df, sizeof(hf), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 10; i++) printf("out[%d] = %d\n", i, h[i]);
  printf("fout: %.2f %.2f\n", hf[0], hf[1]);

  per_thread<<<2, 32>>>(d, 50);
  int ht[50];
  cudaMemcpy(ht, d, sizeof(ht), cudaMemcpyDeviceToHost);
  int ok = 0;
  for (int i = 0; i < 50; i++) ok += ht[i] == (i * 7) % 50;
  printf("per_thread: %d of 50\n", ok);

  const int n = 40;
  float hx[n], hy[n];
  for (int i = 0; i < n; i++) { hx[i] = 0.5f * i; hy[i] = 10.0f - i; }
  float *dx, *dy, *dz;
  cudaMalloc(&dx, sizeof(hx)); cudaMalloc(&dy, sizeof(hy)); cudaMalloc(&dz, sizeof(hx));
  cudaMemcpy(dx, hx, sizeof(hx), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, hy, sizeof(hy), cudaMemcpyHostToDevice);
  run_zip("saxpy", Saxpy{2.0f}, dx, dy, dz, n);
  Clamp c = {-5.0f, 5.0f};
  run_zip("clamp", c, dx, dy, dz, n);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(d); cudaFree(df); cudaFree(dx); cudaFree(dy); cudaFree(dz);
  return 0;
}
