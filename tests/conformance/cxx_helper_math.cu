// cxx_helper_math: a helper_math-style section of __host__ __device__ inline operator
// overloads and functions on the built-in vector types (float3, float4, int2):
// operator+ - *, operator*(float3, float), operator*(float, float3), operator+= *=,
// unary -, dot, cross, length, normalize with rsqrtf, lerp, clamp (scalar and vector
// overloads); used by a shading kernel and by the same code on the host (compared with
// a tolerance), and by an int2 kernel (compared exactly).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cmath>

// ---- vector math helpers (as a header would hold them) ----
inline __host__ __device__ float3 operator+(float3 a, float3 b) { return make_float3(a.x + b.x, a.y + b.y, a.z + b.z); }
inline __host__ __device__ float3 operator-(float3 a, float3 b) { return make_float3(a.x - b.x, a.y - b.y, a.z - b.z); }
inline __host__ __device__ float3 operator-(float3 a) { return make_float3(-a.x, -a.y, -a.z); }
inline __host__ __device__ float3 operator*(float3 a, float3 b) { return make_float3(a.x * b.x, a.y * b.y, a.z * b.z); }
inline __host__ __device__ float3 operator*(float3 a, float s) { return make_float3(a.x * s, a.y * s, a.z * s); }
inline __host__ __device__ float3 operator*(float s, float3 a) { return make_float3(a.x * s, a.y * s, a.z * s); }
inline __host__ __device__ void operator+=(float3 &a, float3 b) { a.x += b.x; a.y += b.y; a.z += b.z; }
inline __host__ __device__ void operator*=(float3 &a, float s) { a.x *= s; a.y *= s; a.z *= s; }
inline __host__ __device__ float dot(float3 a, float3 b) { return a.x * b.x + a.y * b.y + a.z * b.z; }
inline __host__ __device__ float3 cross(float3 a, float3 b) {
  return make_float3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x);
}
inline __host__ __device__ float length(float3 v) { return sqrtf(dot(v, v)); }
inline __host__ __device__ float3 normalize(float3 v) { float inv = rsqrtf(dot(v, v)); return v * inv; }
inline __host__ __device__ float lerp(float a, float b, float t) { return a + t * (b - a); }
inline __host__ __device__ float3 lerp(float3 a, float3 b, float t) { return a + t * (b - a); }
inline __host__ __device__ float clamp(float f, float a, float b) { return fmaxf(a, fminf(f, b)); }
inline __host__ __device__ int clamp(int f, int a, int b) { return max(a, min(f, b)); }
inline __host__ __device__ float3 clamp(float3 v, float a, float b) {
  return make_float3(clamp(v.x, a, b), clamp(v.y, a, b), clamp(v.z, a, b));
}

inline __host__ __device__ float4 make_float4(float3 v, float w) { return make_float4(v.x, v.y, v.z, w); }
inline __host__ __device__ float4 operator+(float4 a, float4 b) { return make_float4(a.x + b.x, a.y + b.y, a.z + b.z, a.w + b.w); }
inline __host__ __device__ float4 operator*(float4 a, float s) { return make_float4(a.x * s, a.y * s, a.z * s, a.w * s); }
inline __host__ __device__ void operator*=(float4 &a, float s) { a.x *= s; a.y *= s; a.z *= s; a.w *= s; }
inline __host__ __device__ float dot(float4 a, float4 b) { return a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w; }

inline __host__ __device__ int2 operator+(int2 a, int2 b) { return make_int2(a.x + b.x, a.y + b.y); }
inline __host__ __device__ int2 operator-(int2 a, int2 b) { return make_int2(a.x - b.x, a.y - b.y); }
inline __host__ __device__ int2 operator*(int2 a, int s) { return make_int2(a.x * s, a.y * s); }
inline __host__ __device__ void operator+=(int2 &a, int2 b) { a.x += b.x; a.y += b.y; }
inline __host__ __device__ int dot(int2 a, int2 b) { return a.x * b.x + a.y * b.y; }
inline __host__ __device__ int2 clamp(int2 v, int a, int b) { return make_int2(clamp(v.x, a, b), clamp(v.y, a, b)); }
// ---- end of helpers ----

// Diffuse + ambient shading of points on a sphere; the same function on both sides.
__host__ __device__ float4 shade(int i, int n, float3 light) {
  float t = (float)i / (float)(n - 1);
  float3 p = make_float3(cosf(6.0f * t), sinf(6.0f * t), lerp(-1.0f, 1.0f, t));
  float3 nrm = normalize(p);
  float3 l = normalize(light - p);
  float diffuse = clamp(dot(nrm, l), 0.0f, 1.0f);
  float3 base = lerp(make_float3(1.0f, 0.2f, 0.1f), make_float3(0.1f, 0.3f, 1.0f), t);
  float3 c = base * diffuse + 0.1f * base;
  c *= 0.9f;
  c += make_float3(0.05f, 0.05f, 0.05f);
  float3 side = cross(nrm, make_float3(0.0f, 0.0f, 1.0f));
  float4 out = make_float4(clamp(c, 0.0f, 1.0f), length(side));
  out = out + make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  out *= 1.0f;
  return out;
}

__global__ void shade_kernel(float4 *out, int n, float3 light) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = shade(i, n, light);
}

__global__ void int2_kernel(const int2 *in, int2 *out, int *dots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int2 v = in[i];
  int2 w = v * 3 - make_int2(1, 2);
  w += make_int2(i, -i);
  out[i] = clamp(w, -10, 10);
  dots[i] = dot(v, w);
}

int main() {
  const int n = 40;
  const float3 light = make_float3(2.0f, 3.0f, 4.0f);
  float4 *dout;
  cudaMalloc(&dout, n * sizeof(float4));
  shade_kernel<<<2, 32>>>(dout, n, light);
  float4 h[n];
  cudaMemcpy(h, dout, sizeof(h), cudaMemcpyDeviceToHost);
  int agree = 0;
  float4 sum = make_float4(0.0f, 0.0f, 0.0f, 0.0f);
  for (int i = 0; i < n; i++) {
    float4 ref = shade(i, n, light);
    float4 d = make_float4(ref.x - h[i].x, ref.y - h[i].y, ref.z - h[i].z, ref.w - h[i].w);
    if (sqrtf(dot(d, d)) < 1e-4f) agree++;
    sum = sum + h[i];
  }
  printf("shade: %d of %d pixels agree with the host\n", agree, n);
  for (int i = 0; i < n; i += 13) printf("pixel %2d: %.3f %.3f %.3f  side %.3f\n", i, h[i].x, h[i].y, h[i].z, h[i].w);
  printf("sum: %.2f %.2f %.2f %.2f\n", sum.x, sum.y, sum.z, sum.w);

  float3 a = make_float3(3.0f, 0.0f, 4.0f);
  float3 u = normalize(a);
  printf("host: |a| = %.3f, normalize(a) = (%.3f, %.3f, %.3f), lerp = %.2f, clamp = %d\n",
         length(a), u.x, u.y, u.z, lerp(2.0f, 4.0f, 0.25f), clamp(17, 0, 9));

  const int m = 8;
  int2 hin[m], hout[m]; int hdot[m];
  for (int i = 0; i < m; i++) hin[i] = make_int2(i - 3, 2 * i - 5);
  int2 *din, *dres; int *ddot;
  cudaMalloc(&din, sizeof(hin)); cudaMalloc(&dres, sizeof(hout)); cudaMalloc(&ddot, sizeof(hdot));
  cudaMemcpy(din, hin, sizeof(hin), cudaMemcpyHostToDevice);
  int2_kernel<<<1, m>>>(din, dres, ddot, m);
  cudaMemcpy(hout, dres, sizeof(hout), cudaMemcpyDeviceToHost);
  cudaMemcpy(hdot, ddot, sizeof(hdot), cudaMemcpyDeviceToHost);
  int exact = 0;
  for (int i = 0; i < m; i++) {
    int2 w = hin[i] * 3 - make_int2(1, 2);
    w += make_int2(i, -i);
    int2 c = clamp(w, -10, 10);
    if (c.x == hout[i].x && c.y == hout[i].y && dot(hin[i], w) == hdot[i]) exact++;
    printf("int2[%d]: (%d, %d) dot %d\n", i, hout[i].x, hout[i].y, hdot[i]);
  }
  printf("int2: %d of %d exact\n", exact, m);
  printf("%s\n", cudaGetErrorString(cudaGetLastError()));
  cudaFree(dout); cudaFree(din); cudaFree(dres); cudaFree(ddot);
  return 0;
}
