// cxx_vector_class: a small Vec3 class in device code: default, value and copy
// constructors, member functions, const methods, operator overloading (+ - * / += -=
// *= ==, unary -, []), references (const Vec3& parameters, Vec3& returns, reference
// locals), a static member function; used by an n-body force kernel and a triangle
// normal kernel, checked against the same class on the host.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cmath>

class Vec3 {
 public:
  __host__ __device__ Vec3() : x(0.0f), y(0.0f), z(0.0f) {}
  __host__ __device__ Vec3(float a, float b, float c) : x(a), y(b), z(c) {}
  __host__ __device__ explicit Vec3(float s) : x(s), y(s), z(s) {}
  __host__ __device__ Vec3(const Vec3 &o) : x(o.x), y(o.y), z(o.z) {}
  __host__ __device__ Vec3 &operator=(const Vec3 &o) { x = o.x; y = o.y; z = o.z; return *this; }

  __host__ __device__ float dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
  __host__ __device__ Vec3 cross(const Vec3 &o) const {
    return Vec3(y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x);
  }
  __host__ __device__ float length2() const { return dot(*this); }
  __host__ __device__ float length() const { return sqrtf(length2()); }
  __host__ __device__ Vec3 &normalize() { float l = length(); if (l > 0.0f) *this /= l; return *this; }

  __host__ __device__ Vec3 operator+(const Vec3 &o) const { return Vec3(x + o.x, y + o.y, z + o.z); }
  __host__ __device__ Vec3 operator-(const Vec3 &o) const { return Vec3(x - o.x, y - o.y, z - o.z); }
  __host__ __device__ Vec3 operator*(float s) const { return Vec3(x * s, y * s, z * s); }
  __host__ __device__ Vec3 operator/(float s) const { return Vec3(x / s, y / s, z / s); }
  __host__ __device__ Vec3 operator-() const { return Vec3(-x, -y, -z); }
  __host__ __device__ Vec3 &operator+=(const Vec3 &o) { x += o.x; y += o.y; z += o.z; return *this; }
  __host__ __device__ Vec3 &operator-=(const Vec3 &o) { x -= o.x; y -= o.y; z -= o.z; return *this; }
  __host__ __device__ Vec3 &operator*=(float s) { x *= s; y *= s; z *= s; return *this; }
  __host__ __device__ Vec3 &operator/=(float s) { x /= s; y /= s; z /= s; return *this; }
  __host__ __device__ bool operator==(const Vec3 &o) const { return x == o.x && y == o.y && z == o.z; }
  __host__ __device__ bool operator!=(const Vec3 &o) const { return !(*this == o); }
  __host__ __device__ float &operator[](int i) { return i == 0 ? x : (i == 1 ? y : z); }
  __host__ __device__ float operator[](int i) const { return i == 0 ? x : (i == 1 ? y : z); }

  __host__ __device__ static Vec3 unit(int axis) { Vec3 v; v[axis] = 1.0f; return v; }
  __host__ __device__ static float distance(const Vec3 &a, const Vec3 &b) { return (a - b).length(); }

  float x, y, z;
};

__host__ __device__ inline Vec3 operator*(float s, const Vec3 &v) { return v * s; }

// Plain struct of bodies in global memory; Vec3 is trivially laid out as 3 floats.
struct Body { Vec3 pos; float mass; };

// Accumulates into `acc` through a reference parameter; returns the reference.
__host__ __device__ Vec3 &accumulate_force(Vec3 &acc, const Body &me, const Body &other) {
  Vec3 d = other.pos - me.pos;
  float r2 = d.length2() + 0.25f;       // softening
  float inv = 1.0f / (r2 * sqrtf(r2));
  acc += d * (other.mass * inv);
  return acc;
}

__global__ void nbody_step(const Body *in, Vec3 *force, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const Body &me = in[i];               // reference local bound to global memory
  Vec3 acc;                             // default constructor
  for (int j = 0; j < n; j++)
    if (j != i) accumulate_force(acc, me, in[j]);
  Vec3 copy(acc);                       // copy constructor
  copy *= me.mass;
  force[i] = copy;
}

__global__ void normals(const Vec3 *verts, const int *tris, Vec3 *out, int ntris) {
  int t = blockIdx.x * blockDim.x + threadIdx.x;
  if (t >= ntris) return;
  const Vec3 &a = verts[tris[3 * t]], &b = verts[tris[3 * t + 1]], &c = verts[tris[3 * t + 2]];
  Vec3 nrm = (b - a).cross(c - a);
  nrm.normalize();
  out[t] = nrm;
}

__global__ void ops(int *flags, Vec3 *res) {
  Vec3 a(1.0f, 2.0f, 3.0f), b(4.0f, -5.0f, 6.0f), s(2.0f);
  Vec3 c = a + b;                        // (5,-3,9)
  Vec3 d = c - s;                        // (3,-5,7)
  d -= Vec3::unit(1);                    // (3,-6,7)
  Vec3 e = -d / 2.0f;                    // (-1.5,3,-3.5)
  Vec3 f = 0.5f * e;                     // (-0.75,1.5,-1.75)
  Vec3 &ref = f;
  ref[2] = 10.0f;                        // writes f.z through operator[] and a reference
  ref *= 2.0f;                           // (-1.5,3,20)
  flags[0] = (a == Vec3(1.0f, 2.0f, 3.0f));
  flags[1] = (a != b);
  flags[2] = (Vec3::unit(0).cross(Vec3::unit(1)) == Vec3::unit(2));
  flags[3] = (int)Vec3::distance(Vec3(0.0f), Vec3(3.0f, 4.0f, 0.0f));
  flags[4] = (int)a.dot(b);              // 4 - 10 + 18 = 12
  const Vec3 k(7.0f, 8.0f, 9.0f);
  flags[5] = (int)(k[0] + k[1] + k[2]);  // const operator[]
  res[0] = c; res[1] = d; res[2] = e; res[3] = f;
}

static void print(const char *label, const Vec3 &v) { printf("%s (%.3f, %.3f, %.3f)\n", label, v.x, v.y, v.z); }

int main() {
  const int n = 8;
  Body hb[n];
  for (int i = 0; i < n; i++) {
    hb[i].pos = Vec3((float)(i % 3), (float)(i / 3), (float)((i * 5) % 4)) * 0.5f;
    hb[i].mass = 1.0f + 0.25f * i;
  }
  Body *db; Vec3 *dforce;
  cudaMalloc(&db, sizeof(hb)); cudaMalloc(&dforce, n * sizeof(Vec3));
  cudaMemcpy(db, hb, sizeof(hb), cudaMemcpyHostToDevice);
  nbody_step<<<2, 4>>>(db, dforce, n);
  Vec3 hforce[n];
  cudaMemcpy(hforce, dforce, sizeof(hforce), cudaMemcpyDeviceToHost);
  int close = 0;
  Vec3 total;
  for (int i = 0; i < n; i++) {
    Vec3 acc;
    for (int j = 0; j < n; j++) if (j != i) accumulate_force(acc, hb[i], hb[j]);
    acc *= hb[i].mass;
    if (Vec3::distance(acc, hforce[i]) < 1e-4f * (1.0f + acc.length())) close++;
    total += hforce[i];
  }
  printf("nbody: %d of %d forces match the host\n", close, n);
  for (int i = 0; i < n; i += 3) { char l[16]; snprintf(l, sizeof l, "force[%d]", i); print(l, hforce[i]); }
  printf("sum of forces ~ 0: %s\n", total.length() < 1e-3f ? "yes" : "no");

  Vec3 hv[5] = {Vec3(0, 0, 0), Vec3(2, 0, 0), Vec3(0, 2, 0), Vec3(0, 0, 2), Vec3(1, 1, 1)};
  int ht[12] = {0, 1, 2, 0, 2, 3, 0, 3, 1, 1, 3, 2};
  Vec3 *dv, *dn; int *dt;
  cudaMalloc(&dv, sizeof(hv)); cudaMalloc(&dt, sizeof(ht)); cudaMalloc(&dn, 4 * sizeof(Vec3));
  cudaMemcpy(dv, hv, sizeof(hv), cudaMemcpyHostToDevice);
  cudaMemcpy(dt, ht, sizeof(ht), cudaMemcpyHostToDevice);
  normals<<<1, 32>>>(dv, dt, dn, 4);
  Vec3 hn[4];
  cudaMemcpy(hn, dn, sizeof(hn), cudaMemcpyDeviceToHost);
  for (int t = 0; t < 4; t++) { char l[16]; snprintf(l, sizeof l, "normal[%d]", t); print(l, hn[t]); }

  int *dflags; Vec3 *dres;
  cudaMalloc(&dflags, 6 * sizeof(int)); cudaMalloc(&dres, 4 * sizeof(Vec3));
  ops<<<1, 1>>>(dflags, dres);
  int hflags[6]; Vec3 hres[4];
  cudaMemcpy(hflags, dflags, sizeof(hflags), cudaMemcpyDeviceToHost);
  cudaMemcpy(hres, dres, sizeof(hres), cudaMemcpyDeviceToHost);
  printf("flags: %d %d %d %d %d %d\n", hflags[0], hflags[1], hflags[2], hflags[3], hflags[4], hflags[5]);
  print("c", hres[0]); print("d", hres[1]); print("e", hres[2]); print("f", hres[3]);
  printf("sizeof(Vec3) = %d, sizeof(Body) = %d\n", (int)sizeof(Vec3), (int)sizeof(Body));
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(db); cudaFree(dforce); cudaFree(dv); cudaFree(dt); cudaFree(dn); cudaFree(dflags); cudaFree(dres);
  return 0;
}
