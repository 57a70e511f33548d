// surf_formats: surface objects over 2D and 3D CUDA arrays of every channel format (8-,
// 16- and 32-bit signed, unsigned and float channels, 1, 2 and 4 of them; half as 16-bit
// float): surf2Dwrite/surf2Dread and surf3Dwrite/surf3Dread of the element type at
// byte-addressed x, reads and writes outside the array with cudaBoundaryModeZero (reads
// 0, writes dropped) and cudaBoundaryModeClamp (to the nearest element), and finally an
// out-of-range write in cudaBoundaryModeTrap, which ends the launch (the error is sticky,
// so it comes last).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (the run tool).
#include <cstdio>
#include <cstring>

// Elements are written as bytes: value(x, y, z, byte k).
__device__ __host__ inline unsigned char pat(int x, int y, int z, int k) { return (unsigned char)(x * 37 + y * 11 + z * 71 + k * 5 + 1); }

template <class T> __global__ void fill2(cudaSurfaceObject_t s, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x >= w || y >= h) return;
  T v;
  unsigned char *b = (unsigned char *)&v;
  for (int k = 0; k < (int)sizeof(T); k++) b[k] = pat(x, y, 0, k);
  surf2Dwrite(v, s, x * (int)sizeof(T), y);
}
// Out-of-range writes: zero mode drops them, clamp mode writes the nearest element.
template <class T> __global__ void edges2(cudaSurfaceObject_t s, int w, int h) {
  T v;
  unsigned char *b = (unsigned char *)&v;
  for (int k = 0; k < (int)sizeof(T); k++) b[k] = (unsigned char)(200 + k);
  int e = sizeof(T);
  surf2Dwrite(v, s, w * e, 0, cudaBoundaryModeZero);
  surf2Dwrite(v, s, -e, 1, cudaBoundaryModeZero);
  for (int k = 0; k < (int)sizeof(T); k++) b[k] = (unsigned char)(220 + k);
  surf2Dwrite(v, s, (w + 3) * e, h + 5, cudaBoundaryModeClamp);
  for (int k = 0; k < (int)sizeof(T); k++) b[k] = (unsigned char)(240 + k);
  surf2Dwrite(v, s, -4 * e, -1, cudaBoundaryModeClamp);
}
// Reads at x in [-1, w] and y in [-1, h], zero then clamp, as bytes.
template <class T> __global__ void read2(cudaSurfaceObject_t s, int w, int h, unsigned char *out) {
  int x = threadIdx.x - 1, y = threadIdx.y - 1;
  if (x > w || y > h) return;
  int i = (threadIdx.y * (w + 2) + threadIdx.x) * 2;
  T a = surf2Dread<T>(s, x * (int)sizeof(T), y, cudaBoundaryModeZero);
  T c = surf2Dread<T>(s, x * (int)sizeof(T), y, cudaBoundaryModeClamp);
  memcpy(out + i * sizeof(T), &a, sizeof(T));
  memcpy(out + (i + 1) * sizeof(T), &c, sizeof(T));
}
template <class T> __global__ void rw3(cudaSurfaceObject_t s, int w, int h, int d, unsigned char *out) {
  int x = threadIdx.x, y = threadIdx.y, z = threadIdx.z;
  T v;
  unsigned char *b = (unsigned char *)&v;
  for (int k = 0; k < (int)sizeof(T); k++) b[k] = pat(x, y, z, k);
  surf3Dwrite(v, s, x * (int)sizeof(T), y, z);
  __syncthreads();
  if (x == 0 && y == 0 && z == 0) {
    T r[4];
    r[0] = surf3Dread<T>(s, (w - 1) * (int)sizeof(T), h - 1, d - 1);
    r[1] = surf3Dread<T>(s, 0, 0, d, cudaBoundaryModeZero);
    r[2] = surf3Dread<T>(s, (w + 2) * (int)sizeof(T), -3, d + 1, cudaBoundaryModeClamp);
    r[3] = surf3Dread<T>(s, 1 * (int)sizeof(T), 1, 1);
    memcpy(out, r, sizeof(r));
  }
}
__global__ void trap(cudaSurfaceObject_t s) { surf2Dwrite(1.0f, s, 4 * 100, 0); }

static unsigned char *dbuf;

template <class T> static void test(const char *name, cudaChannelFormatDesc d) {
  const int w = 3, h = 2;
  cudaArray_t a;
  cudaError_t e = cudaMallocArray(&a, &d, w, h, cudaArraySurfaceLoadStore);
  if (e != cudaSuccess) { printf("%s: %s\n", name, cudaGetErrorName(e)); return; }
  cudaResourceDesc r; memset(&r, 0, sizeof(r));
  r.resType = cudaResourceTypeArray; r.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  cudaCreateSurfaceObject(&s, &r);
  fill2<T><<<1, dim3(w, h)>>>(s, w, h);
  edges2<T><<<1, 1>>>(s, w, h);
  cudaMemset(dbuf, 0x5a, 4096);
  read2<T><<<1, dim3(w + 2, h + 2)>>>(s, w, h, dbuf);
  unsigned char out[4096];
  e = cudaMemcpy(out, dbuf, (w + 2) * (h + 2) * 2 * sizeof(T), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) { printf("%s: %s\n", name, cudaGetErrorName(e)); return; }
  printf("%s 2D zero/clamp:", name);
  for (int i = 0; i < (w + 2) * (h + 2) * 2; i++) {
    printf(" ");
    for (int k = 0; k < (int)sizeof(T); k++) printf("%s%d", k ? "." : "", out[i * sizeof(T) + k]);
  }
  printf("\n");
  // The array's contents through a copy: the clamp-mode writes landed on edge elements.
  e = cudaMemcpy2DFromArray(out, w * sizeof(T), a, 0, 0, w * sizeof(T), h, cudaMemcpyDeviceToHost);
  printf("%s array:", name);
  for (int i = 0; i < w * h; i++) {
    printf(" ");
    for (int k = 0; k < (int)sizeof(T); k++) printf("%s%d", k ? "." : "", out[i * sizeof(T) + k]);
  }
  printf(" (%s)\n", cudaGetErrorName(e));
  cudaDestroySurfaceObject(s);
  cudaFreeArray(a);
  // 3D: 3x2x2.
  cudaArray_t a3;
  e = cudaMalloc3DArray(&a3, &d, make_cudaExtent(3, 2, 2), cudaArraySurfaceLoadStore);
  if (e != cudaSuccess) { printf("%s 3D: %s\n", name, cudaGetErrorName(e)); return; }
  r.res.array.array = a3;
  cudaCreateSurfaceObject(&s, &r);
  rw3<T><<<1, dim3(3, 2, 2)>>>(s, 3, 2, 2, dbuf);
  e = cudaMemcpy(out, dbuf, 4 * sizeof(T), cudaMemcpyDeviceToHost);
  printf("%s 3D:", name);
  for (int i = 0; i < 4; i++) {
    printf(" ");
    for (int k = 0; k < (int)sizeof(T); k++) printf("%s%d", k ? "." : "", out[i * sizeof(T) + k]);
  }
  printf(" (%s)\n", cudaGetErrorName(e));
  cudaDestroySurfaceObject(s);
  cudaFreeArray(a3);
}

int main() {
  cudaMalloc(&dbuf, 4096);
  test<char>("char", cudaCreateChannelDesc<char>());
  test<uchar2>("uchar2", cudaCreateChannelDesc<uchar2>());
  test<uchar4>("uchar4", cudaCreateChannelDesc<uchar4>());
  test<short>("short", cudaCreateChannelDesc<short>());
  test<ushort2>("ushort2", cudaCreateChannelDesc<ushort2>());
  test<short4>("short4", cudaCreateChannelDesc<short4>());
  test<unsigned short>("half", cudaCreateChannelDescHalf());
  test<ushort2>("half2", cudaCreateChannelDescHalf2());
  test<int>("int", cudaCreateChannelDesc<int>());
  test<uint2>("uint2", cudaCreateChannelDesc<uint2>());
  test<int4>("int4", cudaCreateChannelDesc<int4>());
  test<float>("float", cudaCreateChannelDesc<float>());
  test<float2>("float2", cudaCreateChannelDesc<float2>());
  test<float4>("float4", cudaCreateChannelDesc<float4>());
  // Trap: the launch fails and the error is sticky.
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a; cudaMallocArray(&a, &fd, 4, 4, cudaArraySurfaceLoadStore);
  cudaResourceDesc r; memset(&r, 0, sizeof(r));
  r.resType = cudaResourceTypeArray; r.res.array.array = a;
  cudaSurfaceObject_t s = 0;
  cudaCreateSurfaceObject(&s, &r);
  trap<<<1, 1>>>(s);
  printf("trap launch: %s\n", cudaGetErrorName(cudaGetLastError()));
  printf("trap sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("after trap: %s\n", cudaGetErrorName(cudaMemcpy(dbuf, dbuf + 8, 4, cudaMemcpyDeviceToDevice)));
  return 0;
}
