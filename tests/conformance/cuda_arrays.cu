// cuda_arrays: channel descriptors (template, explicit, half), cudaMallocArray,
// cudaMalloc3DArray (layered, cubemap, surface-load-store flags), cudaArrayGetInfo,
// cudaMemcpy2DToArray/FromArray with offsets, cudaMemcpy3D host<->array and
// array<->array, cudaMemcpy2DArrayToArray, cudaFreeArray, and the error codes of bad
// arguments (bad channel descriptors, out-of-range copies, null pointers).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (driver 580.159.04; the run tool).
#include <cstdio>
#include <cstring>

#define E(call) printf("%-44s %s\n", #call, cudaGetErrorName(call)); cudaGetLastError()

static void pd(const char *n, cudaChannelFormatDesc d) { printf("%-16s x=%d y=%d z=%d w=%d f=%d\n", n, d.x, d.y, d.z, d.w, (int)d.f); }

static void info(const char *n, cudaArray_t a) {
  cudaChannelFormatDesc d; cudaExtent e; unsigned fl = 99;
  cudaError_t r = cudaArrayGetInfo(&d, &e, &fl, a);
  printf("%s: %s desc=(%d,%d,%d,%d,f%d) extent=(%zu,%zu,%zu) flags=%u\n", n, cudaGetErrorName(r), d.x, d.y, d.z, d.w, (int)d.f,
         e.width, e.height, e.depth, fl);
}

int main() {
  pd("float", cudaCreateChannelDesc<float>());
  pd("float2", cudaCreateChannelDesc<float2>());
  pd("float4", cudaCreateChannelDesc<float4>());
  pd("uchar4", cudaCreateChannelDesc<uchar4>());
  pd("char", cudaCreateChannelDesc<char>());
  pd("signed char", cudaCreateChannelDesc<signed char>());
  pd("unsigned short", cudaCreateChannelDesc<unsigned short>());
  pd("short2", cudaCreateChannelDesc<short2>());
  pd("int", cudaCreateChannelDesc<int>());
  pd("uint4", cudaCreateChannelDesc<uint4>());
  pd("half", cudaCreateChannelDescHalf());
  pd("half2", cudaCreateChannelDescHalf2());
  pd("explicit", cudaCreateChannelDesc(8, 8, 8, 8, cudaChannelFormatKindUnsigned));
  pd("explicit f16", cudaCreateChannelDesc(16, 0, 0, 0, cudaChannelFormatKindFloat));

  // 2D float array 7x5: copy in with a pitch, read back a sub-rectangle.
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a2;
  E(cudaMallocArray(&a2, &fd, 7, 5));
  info("a2", a2);
  float src[5][8];
  for (int y = 0; y < 5; y++) for (int x = 0; x < 8; x++) src[y][x] = y * 10 + x;
  E(cudaMemcpy2DToArray(a2, 0, 0, src, 8 * sizeof(float), 7 * sizeof(float), 5, cudaMemcpyHostToDevice));
  float sub[3][4];
  memset(sub, 0, sizeof(sub));
  E(cudaMemcpy2DFromArray(sub, 4 * sizeof(float), a2, 2 * sizeof(float), 1, 3 * sizeof(float), 3, cudaMemcpyDeviceToHost));
  for (int y = 0; y < 3; y++) printf("sub %g %g %g %g\n", sub[y][0], sub[y][1], sub[y][2], sub[y][3]);
  // Through device memory: array -> device -> array.
  float *d; size_t dp;
  cudaMallocPitch(&d, &dp, 7 * sizeof(float), 5);
  E(cudaMemcpy2DFromArray(d, dp, a2, 0, 0, 7 * sizeof(float), 5, cudaMemcpyDeviceToDevice));
  cudaArray_t b2;
  cudaMallocArray(&b2, &fd, 7, 5);
  E(cudaMemcpy2DToArray(b2, 4, 2, d, dp, 3 * sizeof(float), 3, cudaMemcpyDeviceToDevice));
  E(cudaMemcpy2DArrayToArray(b2, 0, 0, a2, 0, 4, 7 * sizeof(float), 1, cudaMemcpyDeviceToDevice));
  float back[5][7];
  E(cudaMemcpy2DFromArray(back, 7 * sizeof(float), b2, 0, 0, 7 * sizeof(float), 5, cudaMemcpyDeviceToHost));
  for (int y = 0; y < 5; y++) printf("b2 %g %g %g %g %g %g %g\n", back[y][0], back[y][1], back[y][2], back[y][3], back[y][4], back[y][5], back[y][6]);

  // 1D array: height 0 in its info.
  cudaArray_t a1;
  cudaChannelFormatDesc u4 = cudaCreateChannelDesc<uchar4>();
  E(cudaMallocArray(&a1, &u4, 16));
  info("a1", a1);
  E(cudaMallocArray(&a1, &u4, 16, 0, cudaArraySurfaceLoadStore));
  info("a1 surf", a1);

  // 3D, layered, cubemap.
  cudaArray_t a3, al, ac;
  cudaChannelFormatDesc id = cudaCreateChannelDesc<int>();
  E(cudaMalloc3DArray(&a3, &id, make_cudaExtent(4, 3, 2)));
  info("a3", a3);
  E(cudaMalloc3DArray(&al, &fd, make_cudaExtent(4, 2, 3), cudaArrayLayered));
  info("layered", al);
  E(cudaMalloc3DArray(&ac, &fd, make_cudaExtent(4, 4, 6), cudaArrayCubemap));
  info("cubemap", ac);
  cudaArray_t a1l;
  E(cudaMalloc3DArray(&a1l, &fd, make_cudaExtent(8, 0, 2), cudaArrayLayered));
  info("1D layered", a1l);
  cudaArray_t a3s;
  E(cudaMalloc3DArray(&a3s, &fd, make_cudaExtent(8, 0, 0), cudaArraySurfaceLoadStore));
  info("3D-as-1D", a3s);

  // cudaMemcpy3D: host -> 3D array (whole), then a sub-box back to the host.
  int h3[2][3][4];
  for (int z = 0; z < 2; z++) for (int y = 0; y < 3; y++) for (int x = 0; x < 4; x++) h3[z][y][x] = z * 100 + y * 10 + x;
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof(p));
  p.srcPtr = make_cudaPitchedPtr(h3, 4 * sizeof(int), 4, 3);
  p.dstArray = a3;
  p.extent = make_cudaExtent(4, 3, 2);
  p.kind = cudaMemcpyHostToDevice;
  E(cudaMemcpy3D(&p));
  int o3[2][2][2];
  memset(o3, 0, sizeof(o3));
  memset(&p, 0, sizeof(p));
  p.srcArray = a3;
  p.srcPos = make_cudaPos(1, 1, 0);
  p.dstPtr = make_cudaPitchedPtr(o3, 2 * sizeof(int), 2, 2);
  p.extent = make_cudaExtent(2, 2, 2);
  p.kind = cudaMemcpyDeviceToHost;
  E(cudaMemcpy3D(&p));
  printf("o3 %d %d %d %d %d %d %d %d\n", o3[0][0][0], o3[0][0][1], o3[0][1][0], o3[0][1][1], o3[1][0][0], o3[1][0][1], o3[1][1][0], o3[1][1][1]);
  // array -> array, into the layered array's layer 2.
  cudaArray_t a3b;
  cudaMalloc3DArray(&a3b, &id, make_cudaExtent(4, 3, 2));
  memset(&p, 0, sizeof(p));
  p.srcArray = a3; p.srcPos = make_cudaPos(0, 0, 1);
  p.dstArray = a3b; p.dstPos = make_cudaPos(0, 0, 0);
  p.extent = make_cudaExtent(4, 3, 1);
  p.kind = cudaMemcpyDeviceToDevice;
  E(cudaMemcpy3D(&p));
  int row[4];
  E(cudaMemcpy2DFromArray(row, sizeof(row), a3b, 0, 2, 4 * sizeof(int), 1, cudaMemcpyDeviceToHost));
  printf("a3b z0 y2: %d %d %d %d\n", row[0], row[1], row[2], row[3]);
  // extent in elements for arrays, bytes for linear: a layered array filled from the host.
  float lay[3][2][4];
  for (int l = 0; l < 3; l++) for (int y = 0; y < 2; y++) for (int x = 0; x < 4; x++) lay[l][y][x] = l + y * 0.5f + x * 0.25f;
  memset(&p, 0, sizeof(p));
  p.srcPtr = make_cudaPitchedPtr(lay, 4 * sizeof(float), 4, 2);
  p.dstArray = al;
  p.extent = make_cudaExtent(4, 2, 3);
  p.kind = cudaMemcpyHostToDevice;
  E(cudaMemcpy3D(&p));
  float lo[4];
  memset(&p, 0, sizeof(p));
  p.srcArray = al; p.srcPos = make_cudaPos(0, 1, 2);
  p.dstPtr = make_cudaPitchedPtr(lo, 4 * sizeof(float), 4, 1);
  p.extent = make_cudaExtent(4, 1, 1);
  p.kind = cudaMemcpyDeviceToHost;
  E(cudaMemcpy3D(&p));
  printf("layer 2 row 1: %g %g %g %g\n", lo[0], lo[1], lo[2], lo[3]);

  // Errors.
  cudaArray_t bad = 0;
  cudaChannelFormatDesc f3 = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
  cudaChannelFormatDesc b24 = cudaCreateChannelDesc(24, 0, 0, 0, cudaChannelFormatKindUnsigned);
  cudaChannelFormatDesc gap = cudaCreateChannelDesc(8, 0, 8, 0, cudaChannelFormatKindUnsigned);
  cudaChannelFormatDesc mixed = cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindSigned);
  cudaChannelFormatDesc f8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaChannelFormatDesc none = cudaCreateChannelDesc(0, 0, 0, 0, cudaChannelFormatKindNone);
  E(cudaMallocArray(0, &fd, 4, 4));
  E(cudaMallocArray(&bad, 0, 4, 4));
  E(cudaMallocArray(&bad, &f3, 4, 4));
  E(cudaMallocArray(&bad, &b24, 4, 4));
  E(cudaMallocArray(&bad, &gap, 4, 4));
  E(cudaMallocArray(&bad, &mixed, 4, 4));
  E(cudaMallocArray(&bad, &f8, 4, 4));
  E(cudaMallocArray(&bad, &none, 4, 4));
  E(cudaMallocArray(&bad, &fd, 0, 4));
  E(cudaMallocArray(&bad, &fd, 4, 4, 0x1000));
  E(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(4, 5, 6), cudaArrayCubemap));
  E(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(4, 4, 5), cudaArrayCubemap));
  E(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(4, 4, 0), cudaArrayLayered));
  E(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(0, 4, 2), 0));
  E(cudaMemcpy2DToArray(a2, 0, 0, src, 8 * sizeof(float), 8 * sizeof(float), 5, cudaMemcpyHostToDevice));
  E(cudaMemcpy2DToArray(a2, 0, 1, src, 8 * sizeof(float), 7 * sizeof(float), 5, cudaMemcpyHostToDevice));
  E(cudaMemcpy2DToArray(a2, 4, 0, src, 8 * sizeof(float), 7 * sizeof(float), 1, cudaMemcpyHostToDevice));
  E(cudaMemcpy2DToArray(a2, 0, 0, src, 4, 8, 1, cudaMemcpyHostToDevice));
  E(cudaMemcpy2DFromArray(sub, 4 * sizeof(float), a2, 0, 4, 4, 2, cudaMemcpyDeviceToHost));
  E(cudaMemcpy2DToArray(0, 0, 0, src, 8 * sizeof(float), 4, 1, cudaMemcpyHostToDevice));
  E(cudaArrayGetInfo(0, 0, 0, a2));
  E(cudaMemcpy3D(0));
  memset(&p, 0, sizeof(p));
  p.srcArray = a3; p.dstPtr = make_cudaPitchedPtr(o3, 8, 2, 2); p.extent = make_cudaExtent(5, 1, 1); p.kind = cudaMemcpyDeviceToHost;
  E(cudaMemcpy3D(&p));
  E(cudaFreeArray(0));
  E(cudaFreeArray(a2));
  E(cudaFreeArray(b2));
  E(cudaFreeArray(a3));
  E(cudaFreeArray(al));
  E(cudaFreeArray(ac));
  E(cudaGetLastError());
  return 0;
}
