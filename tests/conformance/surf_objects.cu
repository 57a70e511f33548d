// surf_objects: surface objects over CUDA arrays made with cudaArraySurfaceLoadStore:
// surf2Dwrite/surf2Dread of float, uchar4, int2 and short elements with byte-addressed x,
// surf1Dwrite/surf1Dread, the zero and clamp boundary modes for reads and writes outside
// the array, cudaCreateSurfaceObject's errors, and an out-of-range access in trap mode,
// which ends the launch with an error (last, since that error is sticky).
// The __syncthreads() in one_d was added after the capture: on the GPU the warp's lanes
// already ran in lock step there, so it orders nothing the captured run did not.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (driver 580.159.04; the run tool).
#include <cstdio>
#include <cstring>

#define E(call) printf("%-34s %s\n", #call, cudaGetErrorName(call)); cudaGetLastError()

__global__ void fill2(cudaSurfaceObject_t s, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) surf2Dwrite(100.0f * y + x, s, x * (int)sizeof(float), y);
}
__global__ void scale2(cudaSurfaceObject_t in, cudaSurfaceObject_t out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) {
    float v = surf2Dread<float>(in, x * 4, y);
    surf2Dwrite(v * 2.0f, out, x * 4, y);
  }
}
__global__ void edges(cudaSurfaceObject_t s, float *out) {
  // Reads outside a 4x3 float surface in zero and clamp modes.
  int i = threadIdx.x;
  int xs[6] = {-4, 16, 12, 0, -400, 12};
  int ys[6] = {0, 0, 2, -1, 7, 1};
  out[2 * i] = surf2Dread<float>(s, xs[i], ys[i], cudaBoundaryModeZero);
  out[2 * i + 1] = surf2Dread<float>(s, xs[i], ys[i], cudaBoundaryModeClamp);
}
__global__ void write_out(cudaSurfaceObject_t z, cudaSurfaceObject_t c) {
  // Writes outside the surface: dropped in zero mode, clamped in clamp mode.
  surf2Dwrite(-1.0f, z, 16, 1, cudaBoundaryModeZero);
  surf2Dwrite(-2.0f, c, 16, 1, cudaBoundaryModeClamp);
  surf2Dwrite(-3.0f, c, -8, 2, cudaBoundaryModeClamp);
}
__global__ void vec(cudaSurfaceObject_t u, cudaSurfaceObject_t i2, cudaSurfaceObject_t sh) {
  int x = threadIdx.x;
  uchar4 c = make_uchar4(x, 2 * x, 255 - x, 7);
  surf2Dwrite(c, u, x * 4, 1);
  uchar4 r = surf2Dread<uchar4>(u, x * 4, 1);
  surf2Dwrite(make_int2(r.x + r.y, -r.z), i2, x * 8, 0);
  short v;
  surf2Dread(&v, sh, x * 2, 0);
  surf2Dwrite((short)(v * 3 - 1), sh, x * 2, 0);
}
__global__ void one_d(cudaSurfaceObject_t s, int n) {
  int x = threadIdx.x;
  if (x < n) {
    int v = surf1Dread<int>(s, x * 4);
    surf1Dwrite(v + x * 1000, s, x * 4);
  }
  __syncthreads();
  if (x == 0) {
    surf1Dwrite(777, s, n * 4, cudaBoundaryModeZero);
    int z = surf1Dread<int>(s, -4, cudaBoundaryModeZero);
    int c = surf1Dread<int>(s, n * 4 + 40, cudaBoundaryModeClamp);
    surf1Dwrite(z + c, s, 0);
  }
}
__global__ void trap(cudaSurfaceObject_t s) {
  surf2Dwrite(1.0f, s, 4 * 100, 0);
}

int main() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a, b;
  E(cudaMallocArray(&a, &fd, 4, 3, cudaArraySurfaceLoadStore));
  E(cudaMallocArray(&b, &fd, 4, 3, cudaArraySurfaceLoadStore));
  cudaResourceDesc r; memset(&r, 0, sizeof(r));
  r.resType = cudaResourceTypeArray;
  r.res.array.array = a;
  cudaSurfaceObject_t sa = 0, sb = 0;
  E(cudaCreateSurfaceObject(&sa, &r));
  r.res.array.array = b;
  E(cudaCreateSurfaceObject(&sb, &r));
  fill2<<<1, dim3(4, 3)>>>(sa, 4, 3);
  scale2<<<1, dim3(4, 3)>>>(sa, sb, 4, 3);
  E(cudaDeviceSynchronize());
  float h[3][4];
  cudaMemcpy2DFromArray(h, sizeof(h[0]), b, 0, 0, sizeof(h[0]), 3, cudaMemcpyDeviceToHost);
  for (int y = 0; y < 3; y++) printf("b row %d: %g %g %g %g\n", y, h[y][0], h[y][1], h[y][2], h[y][3]);
  float *d; cudaMalloc(&d, 64 * sizeof(float));
  edges<<<1, 6>>>(sa, d);
  float o[12];
  cudaMemcpy(o, d, sizeof(o), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 6; i++) printf("edge %d: zero=%g clamp=%g\n", i, o[2 * i], o[2 * i + 1]);
  write_out<<<1, 1>>>(sa, sb);
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
  cudaSurfaceObject_t su, si, ss;
  r.res.array.array = au; cudaCreateSurfaceObject(&su, &r);
  r.res.array.array = ai; cudaCreateSurfaceObject(&si, &r);
  r.res.array.array = as; cudaCreateSurfaceObject(&ss, &r);
  vec<<<1, 5>>>(su, si, ss);
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
  cudaSurfaceObject_t s1;
  r.res.array.array = a1; cudaCreateSurfaceObject(&s1, &r);
  one_d<<<1, 6>>>(s1, 6);
  E(cudaDeviceSynchronize());
  cudaMemcpy2DFromArray(h1, sizeof(h1), a1, 0, 0, sizeof(h1), 1, cudaMemcpyDeviceToHost);
  printf("1D: %d %d %d %d %d %d\n", h1[0], h1[1], h1[2], h1[3], h1[4], h1[5]);

  // Errors.
  cudaArray_t plain;
  cudaMallocArray(&plain, &fd, 4, 4);
  cudaSurfaceObject_t bad = 0;
  r.res.array.array = plain;
  E(cudaCreateSurfaceObject(&bad, &r));
  E(cudaCreateSurfaceObject(&bad, 0));
  E(cudaCreateSurfaceObject(0, &r));
  cudaResourceDesc rl; memset(&rl, 0, sizeof(rl));
  rl.resType = cudaResourceTypeLinear; rl.res.linear.devPtr = d; rl.res.linear.desc = fd; rl.res.linear.sizeInBytes = 256;
  E(cudaCreateSurfaceObject(&bad, &rl));
  E(cudaDestroySurfaceObject(0));
  cudaResourceDesc back; memset(&back, 0, sizeof(back));
  E(cudaGetSurfaceObjectResourceDesc(&back, sa));
  printf("surface resdesc type=%d array_ok=%d\n", (int)back.resType, back.res.array.array == a);
  E(cudaDestroySurfaceObject(sb));

  // Trap mode (the default): the launch fails.
  trap<<<1, 1>>>(sa);
  cudaError_t e = cudaDeviceSynchronize();
  printf("trap: %s\n", cudaGetErrorName(e));
  printf("after trap: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
