// surf_references: legacy surface references (`surface<void, dim> r;` at file scope,
// cudaBindSurfaceToArray in its C++ forms and the C form through
// cudaGetSurfaceReference), read and written by surf1D/surf2D read/write with the zero,
// clamp and trap boundary modes. nvcc 13 no longer compiles surface references, so this
// is surf_objects.cu with each surface object replaced by a reference: its data lines
// (rows, edges, vec, 1D, trap) must be what surf_objects printed on the H100 (nvcc 13.0
// -arch=sm_90); its own status lines (binds: cudaSuccess; a pointer that is not a
// reference: cudaErrorInvalidSurface, as the API reference lists) replace the object calls'.
#include <cstdio>
#include <cstring>

#define E(call) printf("%-34s %s\n", #call, cudaGetErrorName(call)); cudaGetLastError()

surface<void, 2> ra, rb, ru, ri, rs;
surface<void, 1> r1;

__global__ void fill2(int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) surf2Dwrite(100.0f * y + x, ra, x * (int)sizeof(float), y);
}
__global__ void scale2(int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) {
    float v = surf2Dread<float>(ra, x * 4, y);
    surf2Dwrite(v * 2.0f, rb, x * 4, y);
  }
}
__global__ void edges(float *out) {
  int i = threadIdx.x;
  int xs[6] = {-4, 16, 12, 0, -400, 12};
  int ys[6] = {0, 0, 2, -1, 7, 1};
  out[2 * i] = surf2Dread<float>(ra, xs[i], ys[i], cudaBoundaryModeZero);
  out[2 * i + 1] = surf2Dread<float>(ra, xs[i], ys[i], cudaBoundaryModeClamp);
}
__global__ void write_out() {
  surf2Dwrite(-1.0f, ra, 16, 1, cudaBoundaryModeZero);
  surf2Dwrite(-2.0f, rb, 16, 1, cudaBoundaryModeClamp);
  surf2Dwrite(-3.0f, rb, -8, 2, cudaBoundaryModeClamp);
}
__global__ void vec() {
  int x = threadIdx.x;
  uchar4 c = make_uchar4(x, 2 * x, 255 - x, 7);
  surf2Dwrite(c, ru, x * 4, 1);
  uchar4 r = surf2Dread<uchar4>(ru, x * 4, 1);
  surf2Dwrite(make_int2(r.x + r.y, -r.z), ri, x * 8, 0);
  short v;
  surf2Dread(&v, rs, x * 2, 0);
  surf2Dwrite((short)(v * 3 - 1), rs, x * 2, 0);
}
__global__ void one_d(int n) {
  int x = threadIdx.x;
  if (x < n) {
    int v = surf1Dread<int>(r1, x * 4);
    surf1Dwrite(v + x * 1000, r1, x * 4);
  }
  __syncthreads();
  if (x == 0) {
    surf1Dwrite(777, r1, n * 4, cudaBoundaryModeZero);
    int z = surf1Dread<int>(r1, -4, cudaBoundaryModeZero);
    int c = surf1Dread<int>(r1, n * 4 + 40, cudaBoundaryModeClamp);
    surf1Dwrite(z + c, r1, 0);
  }
}
__global__ void trap() { surf2Dwrite(1.0f, ra, 4 * 100, 0); }

int main() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a, b;
  E(cudaMallocArray(&a, &fd, 4, 3, cudaArraySurfaceLoadStore));
  E(cudaMallocArray(&b, &fd, 4, 3, cudaArraySurfaceLoadStore));
  E(cudaBindSurfaceToArray(ra, a));
  const surfaceReference *ref = nullptr;
  E(cudaGetSurfaceReference(&ref, &rb));
  E(cudaBindSurfaceToArray(ref, b, &fd));
  fill2<<<1, dim3(4, 3)>>>(4, 3);
  scale2<<<1, dim3(4, 3)>>>(4, 3);
  E(cudaDeviceSynchronize());
  float h[3][4];
  cudaMemcpy2DFromArray(h, sizeof(h[0]), b, 0, 0, sizeof(h[0]), 3, cudaMemcpyDeviceToHost);
  for (int y = 0; y < 3; y++) printf("b row %d: %g %g %g %g\n", y, h[y][0], h[y][1], h[y][2], h[y][3]);
  float *d; cudaMalloc(&d, 64 * sizeof(float));
  edges<<<1, 6>>>(d);
  float o[12];
  cudaMemcpy(o, d, sizeof(o), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 6; i++) printf("edge %d: zero=%g clamp=%g\n", i, o[2 * i], o[2 * i + 1]);
  write_out<<<1, 1>>>();
  E(cudaDeviceSynchronize());
  cudaMemcpy2DFromArray(h, sizeof(h[0]), a, 0, 0, sizeof(h[0]), 3, cudaMemcpyDeviceToHost);
  for (int y = 0; y < 3; y++) printf("a row %d: %g %g %g %g\n", y, h[y][0], h[y][1], h[y][2], h[y][3]);
  cudaMemcpy2DFromArray(h, sizeof(h[0]), b, 0, 0, sizeof(h[0]), 3, cudaMemcpyDeviceToHost);
  for (int y = 0; y < 3; y++) printf("b row %d: %g %g %g %g\n", y, h[y][0], h[y][1], h[y][2], h[y][3]);

  // Vector and 16-bit elements.
  cudaChannelFormatDesc ud = cudaCreateChannelDesc<uchar4>(), i2d = cudaCreateChannelDesc<int2>(), sd = cudaCreateChannelDesc<short>();
  cudaArray_t au, ai, as;
  cudaMallocArray(&au, &ud, 5, 2, cudaArraySurfaceLoadStore);
  cudaMallocArray(&ai, &i2d, 5, 1, cudaArraySurfaceLoadStore);
  cudaMallocArray(&as, &sd, 5, 1, cudaArraySurfaceLoadStore);
  short hs[5] = {1, -2, 300, -4000, 5};
  cudaMemcpy2DToArray(as, 0, 0, hs, sizeof(hs), sizeof(hs), 1, cudaMemcpyHostToDevice);
  cudaBindSurfaceToArray(ru, au);
  cudaBindSurfaceToArray(ri, ai, i2d);
  cudaBindSurfaceToArray(rs, as);
  vec<<<1, 5>>>();
  E(cudaDeviceSynchronize());
  uchar4 hu[5]; int2 hi[5];
  cudaMemcpy2DFromArray(hu, sizeof(hu), au, 0, 1, sizeof(hu), 1, cudaMemcpyDeviceToHost);
  cudaMemcpy2DFromArray(hi, sizeof(hi), ai, 0, 0, sizeof(hi), 1, cudaMemcpyDeviceToHost);
  cudaMemcpy2DFromArray(hs, sizeof(hs), as, 0, 0, sizeof(hs), 1, cudaMemcpyDeviceToHost);
  for (int i = 0; i < 5; i++) printf("vec %d: uchar4 %d %d %d %d int2 %d %d short %d\n", i, hu[i].x, hu[i].y, hu[i].z, hu[i].w, hi[i].x, hi[i].y, hs[i]);

  // 1D surface.
  cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
  cudaArray_t a1;
  cudaMallocArray(&a1, &id, 6, 0, cudaArraySurfaceLoadStore);
  int h1[6] = {1, 2, 3, 4, 5, 6};
  cudaMemcpy2DToArray(a1, 0, 0, h1, sizeof(h1), sizeof(h1), 1, cudaMemcpyHostToDevice);
  E(cudaBindSurfaceToArray(r1, a1));
  one_d<<<1, 6>>>(6);
  E(cudaDeviceSynchronize());
  cudaMemcpy2DFromArray(h1, sizeof(h1), a1, 0, 0, sizeof(h1), 1, cudaMemcpyDeviceToHost);
  printf("1D: %d %d %d %d %d %d\n", h1[0], h1[1], h1[2], h1[3], h1[4], h1[5]);

  // Errors.
  E(cudaBindSurfaceToArray((const surfaceReference *)d, a, &fd));
  E(cudaGetSurfaceReference(&ref, d));

  // Trap mode (the default): the launch fails.
  trap<<<1, 1>>>();
  cudaError_t e = cudaDeviceSynchronize();
  printf("trap: %s\n", cudaGetErrorName(e));
  printf("after trap: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
