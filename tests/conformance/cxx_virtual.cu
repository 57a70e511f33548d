// cxx_virtual: virtual functions in device code: an abstract base class with pure
// virtual functions, overriding (override, final), a three-level hierarchy whose
// override calls the base version (Base::f()), a virtual call from a non-virtual base
// member (template method), a virtual destructor with side effects; objects created ON
// THE DEVICE, with `new` in one kernel and with placement new into cudaMalloc'd memory,
// called through base pointers in another kernel, then destroyed (delete through a base
// pointer, and explicit destructor calls for the placement-new objects).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <new>

__device__ int g_destroyed[4];   // per kind: how many destructors ran

struct Shape {
  __device__ Shape(int id) : id(id) {}
  __device__ virtual ~Shape() { atomicAdd(&g_destroyed[0], 1); }
  __device__ virtual float area() const = 0;
  __device__ virtual float perimeter() const = 0;
  __device__ virtual int kind() const { return 0; }
  // Non-virtual, calls virtuals: the "template method" pattern.
  __device__ float compactness() const { float p = perimeter(); return p > 0.0f ? 100.0f * area() / (p * p) : 0.0f; }
  int id;
};

struct Circle : Shape {
  __device__ Circle(int id, float r) : Shape(id), r(r) {}
  __device__ ~Circle() override { atomicAdd(&g_destroyed[1], 1); }
  __device__ float area() const override { return 3.0f * r * r; }   // pi = 3 keeps it exact
  __device__ float perimeter() const override { return 6.0f * r; }
  __device__ int kind() const override { return 1; }
  float r;
};

struct Rect : Shape {
  __device__ Rect(int id, float w, float h) : Shape(id), w(w), h(h) {}
  __device__ ~Rect() override { atomicAdd(&g_destroyed[2], 1); }
  __device__ float area() const override { return w * h; }
  __device__ float perimeter() const override { return 2.0f * (w + h); }
  __device__ int kind() const override { return 2; }
  float w, h;
};

struct Square final : Rect {
  __device__ Square(int id, float s) : Rect(id, s, s) {}
  __device__ ~Square() override { atomicAdd(&g_destroyed[3], 1); }
  __device__ int kind() const override { return 10 + Rect::kind(); }   // calls the base version
};

__device__ Shape *g_shapes[64];  // created by `new` in make_shapes

__global__ void make_shapes(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  float s = 1.0f + (float)(i % 5);
  switch (i % 3) {
    case 0: g_shapes[i] = new Circle(i, s); break;
    case 1: g_shapes[i] = new Rect(i, s, 2.0f); break;
    default: g_shapes[i] = new Square(i, s); break;
  }
}

__global__ void measure(Shape *const *shapes, int n, float *area, float *perim, int *kind, float *compact) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Shape &sh = *shapes[i];                     // through a base reference
  area[i] = sh.area();
  perim[i] = shapes[i]->perimeter();                // through a base pointer
  kind[i] = sh.kind() * 1000 + sh.id;
  compact[i] = sh.compactness();
}

__global__ void copy_table(Shape **dst, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) dst[i] = g_shapes[i];
}

__global__ void destroy_shapes(int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { delete g_shapes[i]; g_shapes[i] = nullptr; }
}

// Placement new into memory the host allocated: each thread builds one object in its slot.
union Slot { char c[sizeof(Circle)]; char r[sizeof(Square)]; double align; };

__global__ void build_in_place(Slot *slots, Shape **ptrs, int n) {
  int i = threadIdx.x;
  if (i >= n) return;
  void *mem = &slots[i];
  Shape *p = (i % 2) ? static_cast<Shape *>(new (mem) Square(100 + i, 0.5f * i))
                     : static_cast<Shape *>(new (mem) Circle(100 + i, 0.25f * i));
  ptrs[i] = p;
}

__global__ void destroy_in_place(Shape **ptrs, int n) {
  int i = threadIdx.x;
  if (i < n) ptrs[i]->~Shape();                     // virtual: runs the derived destructors
}

static void report(const char *what, Shape **dptrs, int n) {
  float *da, *dp, *dc; int *dk;
  cudaMalloc(&da, n * sizeof(float)); cudaMalloc(&dp, n * sizeof(float));
  cudaMalloc(&dc, n * sizeof(float)); cudaMalloc(&dk, n * sizeof(int));
  measure<<<(n + 31) / 32, 32>>>(dptrs, n, da, dp, dk, dc);
  float ha[64], hp[64], hc[64]; int hk[64];
  cudaMemcpy(ha, da, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hp, dp, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hc, dc, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaMemcpy(hk, dk, n * sizeof(int), cudaMemcpyDeviceToHost);
  float total = 0.0f;
  for (int i = 0; i < n; i++) {
    total += ha[i];
    if (i < 6 || i == n - 1)
      printf("%s[%2d]: kind %5d area %6.2f perimeter %6.2f compactness %.3f\n", what, i, hk[i], ha[i], hp[i], hc[i]);
  }
  printf("%s: total area %.2f\n", what, total);
  cudaFree(da); cudaFree(dp); cudaFree(dc); cudaFree(dk);
}

int main() {
  const int n = 40;
  int zero[4] = {0, 0, 0, 0}, destroyed[4];
  cudaMemcpyToSymbol(g_destroyed, zero, sizeof(zero));
  make_shapes<<<2, 32>>>(n);
  Shape **dtable;
  cudaMalloc(&dtable, n * sizeof(Shape *));
  copy_table<<<1, 64>>>(dtable, n);
  report("heap", dtable, n);
  destroy_shapes<<<2, 32>>>(n);
  cudaMemcpyFromSymbol(destroyed, g_destroyed, sizeof(destroyed));
  printf("after delete: Shape %d Circle %d Rect %d Square %d\n", destroyed[0], destroyed[1], destroyed[2], destroyed[3]);

  const int m = 8;
  Slot *slots; Shape **ptrs;
  cudaMalloc(&slots, m * sizeof(Slot)); cudaMalloc(&ptrs, m * sizeof(Shape *));
  build_in_place<<<1, m>>>(slots, ptrs, m);
  report("placed", ptrs, m);
  destroy_in_place<<<1, m>>>(ptrs, m);
  cudaMemcpyFromSymbol(destroyed, g_destroyed, sizeof(destroyed));
  printf("after ~Shape(): Shape %d Circle %d Rect %d Square %d\n", destroyed[0], destroyed[1], destroyed[2], destroyed[3]);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(dtable); cudaFree(slots); cudaFree(ptrs);
  return 0;
}
