// vector_types: char/uchar/short/int/uint/long long/float/double vector types, make_*
// constructors, member access, sizes and alignments (float4 and double2 are 16-byte
// aligned), float4 loads/stores from global memory, dim3 and uint3 in device code.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void vec(const float4 *in, float4 *out, int2 *i2, double2 *d2, uchar4 *c4, int *sizes) {
  int i = threadIdx.x;
  float4 v = in[i];
  out[i] = make_float4(v.w, v.z * 2.0f, v.y + 1.0f, v.x - v.w);
  i2[i] = make_int2(i * 3, -i);
  d2[i] = make_double2(0.5 * i, v.x * 1.0);
  c4[i] = make_uchar4((unsigned char)(250 + i), (unsigned char)i, 'A' + i, 0);
  if (i == 0) {
    sizes[0] = sizeof(char1); sizes[1] = sizeof(char3); sizes[2] = sizeof(short2); sizes[3] = sizeof(short3);
    sizes[4] = sizeof(int3); sizes[5] = sizeof(float3); sizes[6] = sizeof(float4); sizes[7] = __alignof__(float4);
    sizes[8] = sizeof(double2); sizes[9] = __alignof__(double2); sizes[10] = sizeof(longlong2); sizes[11] = __alignof__(int2);
    sizes[12] = __alignof__(char2); sizes[13] = sizeof(uint3); sizes[14] = sizeof(dim3); sizes[15] = __alignof__(ulonglong2);
    uint3 t = threadIdx; dim3 b = blockDim;
    sizes[16] = t.x + b.x * 100;
    float2 f2 = make_float2(1.5f, 2.5f);
    short4 s4 = make_short4(1, -2, 3, -4);
    longlong2 l2 = make_longlong2(1LL << 40, -5);
    double1 d1 = make_double1(9.0);
    char2 ch = make_char2(-3, 4);
    ushort3 us = make_ushort3(65535, 1, 2);
    uint4 u4 = make_uint4(1, 2, 3, 4);
    sizes[17] = (int)(f2.x * f2.y * 4) + s4.y + s4.w + (int)(l2.x >> 38) + (int)l2.y + (int)d1.x + ch.x * ch.y + us.x + u4.w;
  }
}

int main() {
  const int n = 4;
  float4 h[n];
  for (int i = 0; i < n; i++) h[i] = make_float4(i, i + 0.5f, -i, 2.0f * i);
  float4 *din, *dout; int2 *di2; double2 *dd2; uchar4 *dc4; int *ds;
  cudaMalloc(&din, sizeof(h)); cudaMalloc(&dout, sizeof(h)); cudaMalloc(&di2, n * sizeof(int2));
  cudaMalloc(&dd2, n * sizeof(double2)); cudaMalloc(&dc4, n * sizeof(uchar4)); cudaMalloc(&ds, 18 * sizeof(int));
  cudaMemcpy(din, h, sizeof(h), cudaMemcpyHostToDevice);
  vec<<<1, n>>>(din, dout, di2, dd2, dc4, ds);
  float4 o[n]; int2 i2[n]; double2 d2[n]; uchar4 c4[n]; int s[18];
  cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost);
  cudaMemcpy(i2, di2, sizeof(i2), cudaMemcpyDeviceToHost);
  cudaMemcpy(d2, dd2, sizeof(d2), cudaMemcpyDeviceToHost);
  cudaMemcpy(c4, dc4, sizeof(c4), cudaMemcpyDeviceToHost);
  cudaMemcpy(s, ds, sizeof(s), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    printf("%d: float4(%g,%g,%g,%g) int2(%d,%d) double2(%g,%g) uchar4(%d,%d,%c,%d)\n", i, o[i].x, o[i].y, o[i].z, o[i].w,
           i2[i].x, i2[i].y, d2[i].x, d2[i].y, c4[i].x, c4[i].y, c4[i].z, c4[i].w);
  printf("device sizes: char1=%d char3=%d short2=%d short3=%d int3=%d float3=%d float4=%d align(float4)=%d\n", s[0], s[1], s[2], s[3], s[4], s[5], s[6], s[7]);
  printf("device sizes: double2=%d align(double2)=%d longlong2=%d align(int2)=%d align(char2)=%d uint3=%d dim3=%d align(ulonglong2)=%d\n", s[8], s[9], s[10], s[11], s[12], s[13], s[14], s[15]);
  printf("host sizes agree: %d\n", s[6] == (int)sizeof(float4) && s[7] == (int)alignof(float4) && s[9] == (int)alignof(double2) && s[14] == (int)sizeof(dim3) && s[11] == (int)alignof(int2));
  printf("threadIdx/blockDim: %d, misc: %d\n", s[16], s[17]);
  return 0;
}
