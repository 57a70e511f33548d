// cuda_arrays_host_api: the rest of the CUDA-array host API. cudaGetChannelDesc on every
// kind of array (1D, 2D, 3D, layered, cubemap, a mipmapped array's level, half, signed
// vectors) and on bad handles; the Async copies (cudaMemcpy2DToArrayAsync,
// cudaMemcpy2DFromArrayAsync, cudaMemcpyToArrayAsync/FromArrayAsync, cudaMemcpy3DAsync
// host->array, array->array and array->device) on a stream, checked after a
// synchronisation; cudaMemcpy2DArrayToArray with offsets and out of range; cudaMemcpy3D
// array<->array with positions; and the error codes of bad descriptors at array and
// texture creation (cudaErrorInvalidChannelDescriptor, cudaErrorInvalidValue,
// cudaErrorInvalidResourceHandle, cudaErrorInvalidFilterSetting,
// cudaErrorInvalidNormSetting).
// (One line of the captured program, cudaGetChannelDesc on a pointer that is no array,
// was removed with its output: the H100 answered cudaErrorContextIsDestroyed.)
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (the run tool).
#include <cstdio>
#include <cstring>

#define E(call) printf("%-62s %s\n", #call, cudaGetErrorName(call)); cudaGetLastError()

static void pd(const char *what, cudaArray_const_t a) {
  cudaChannelFormatDesc d; memset(&d, 0x7f, sizeof(d));
  cudaError_t e = cudaGetChannelDesc(&d, a);
  printf("cudaGetChannelDesc %-12s %s x=%d y=%d z=%d w=%d f=%d\n", what, cudaGetErrorName(e), d.x, d.y, d.z, d.w, (int)d.f);
  cudaGetLastError();
}

int main() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaChannelFormatDesc c4 = cudaCreateChannelDesc<char4>();
  cudaChannelFormatDesc hd = cudaCreateChannelDescHalf2();
  cudaChannelFormatDesc u2 = cudaCreateChannelDesc<ushort2>();
  cudaArray_t a1, a2, a3, aL, aC, aH, aS;
  E(cudaMallocArray(&a1, &fd, 16, 0, 0));
  E(cudaMallocArray(&a2, &c4, 8, 4, 0));
  E(cudaMalloc3DArray(&a3, &u2, make_cudaExtent(4, 4, 4), 0));
  E(cudaMalloc3DArray(&aL, &fd, make_cudaExtent(8, 0, 5), cudaArrayLayered));
  E(cudaMalloc3DArray(&aC, &c4, make_cudaExtent(4, 4, 6), cudaArrayCubemap));
  E(cudaMallocArray(&aH, &hd, 4, 4, cudaArraySurfaceLoadStore));
  cudaMipmappedArray_t m;
  E(cudaMallocMipmappedArray(&m, &u2, make_cudaExtent(8, 8, 0), 3, 0));
  E(cudaGetMipmappedArrayLevel(&aS, m, 2));
  pd("1D float", a1); pd("2D char4", a2); pd("3D ushort2", a3); pd("layered", aL); pd("cubemap", aC); pd("half2", aH); pd("mip level", aS);
  pd("null", nullptr);

  // Async copies on a stream.
  cudaStream_t st; cudaStreamCreate(&st);
  float h[64], back[64];
  for (int i = 0; i < 64; i++) h[i] = i * 0.5f + 1;
  cudaArray_t b2; cudaMallocArray(&b2, &fd, 8, 8, 0);
  E(cudaMemcpy2DToArrayAsync(b2, 8, 1, h, 16, 12, 3, cudaMemcpyHostToDevice, st));
  memset(back, 0, sizeof(back));
  E(cudaMemcpy2DFromArrayAsync(back, 32, b2, 0, 0, 32, 8, cudaMemcpyDeviceToHost, st));
  E(cudaStreamSynchronize(st));
  printf("2D async rows 1..4:");
  for (int y = 1; y < 5; y++) for (int x = 0; x < 8; x++) printf(" %g", back[y * 8 + x]);
  printf("\n");
  E(cudaMemcpyToArrayAsync(b2, 4, 6, h, 24, cudaMemcpyHostToDevice, st));
  memset(back, 0, sizeof(back));
  E(cudaMemcpyFromArrayAsync(back, b2, 0, 6, 64, cudaMemcpyDeviceToHost, st));
  E(cudaStreamSynchronize(st));
  printf("1-run async row 6:");
  for (int x = 0; x < 16; x++) printf(" %g", back[x]);
  printf("\n");
  E(cudaMemcpy2DToArrayAsync(b2, 20, 0, h, 16, 16, 1, cudaMemcpyHostToDevice, st));
  E(cudaMemcpy2DToArrayAsync(b2, 0, 7, h, 16, 16, 2, cudaMemcpyHostToDevice, st));

  // cudaMemcpy3DAsync: host -> 3D array, array -> array (positions), array -> device.
  cudaArray_t f3, g3; cudaMalloc3DArray(&f3, &fd, make_cudaExtent(4, 3, 2)); cudaMalloc3DArray(&g3, &fd, make_cudaExtent(4, 3, 2));
  cudaMemcpy3DParms p; memset(&p, 0, sizeof(p));
  p.srcPtr = make_cudaPitchedPtr(h, 16, 4, 3); p.dstArray = f3; p.extent = make_cudaExtent(4, 3, 2); p.kind = cudaMemcpyHostToDevice;
  E(cudaMemcpy3DAsync(&p, st));
  float zero[24] = {0};
  memset(&p, 0, sizeof(p));
  p.srcPtr = make_cudaPitchedPtr(zero, 16, 4, 3); p.dstArray = g3; p.extent = make_cudaExtent(4, 3, 2); p.kind = cudaMemcpyHostToDevice;
  E(cudaMemcpy3DAsync(&p, st));
  memset(&p, 0, sizeof(p));
  p.srcArray = f3; p.srcPos = make_cudaPos(1, 1, 0); p.dstArray = g3; p.dstPos = make_cudaPos(0, 0, 1);
  p.extent = make_cudaExtent(3, 2, 1); p.kind = cudaMemcpyDeviceToDevice;
  E(cudaMemcpy3DAsync(&p, st));
  float *dd; cudaMalloc(&dd, 4096);
  memset(&p, 0, sizeof(p));
  p.srcArray = g3; p.dstPtr = make_cudaPitchedPtr(dd, 64, 4, 3); p.extent = make_cudaExtent(4, 3, 2); p.kind = cudaMemcpyDeviceToDevice;
  E(cudaMemcpy3DAsync(&p, st));
  E(cudaStreamSynchronize(st));
  float r3[48];
  cudaMemcpy2D(r3, 16, dd, 64, 16, 6, cudaMemcpyDeviceToHost);
  printf("3D async g3:");
  for (int i = 0; i < 24; i++) printf(" %g", r3[i]);
  printf("\n");
  // Whole-array and out-of-range 3D copies between arrays.
  memset(&p, 0, sizeof(p));
  p.srcArray = f3; p.dstArray = g3; p.extent = make_cudaExtent(4, 3, 2); p.kind = cudaMemcpyDeviceToDevice;
  E(cudaMemcpy3D(&p));
  p.dstPos = make_cudaPos(1, 0, 0);
  E(cudaMemcpy3D(&p));
  p.dstPos = make_cudaPos(0, 0, 0); p.extent = make_cudaExtent(4, 3, 3);
  E(cudaMemcpy3D(&p));
  cudaArray_t c3; cudaMalloc3DArray(&c3, &c4, make_cudaExtent(4, 3, 2));
  p.dstArray = c3; p.extent = make_cudaExtent(4, 3, 2);
  E(cudaMemcpy3D(&p));

  // cudaMemcpy2DArrayToArray with offsets, out of range, across formats of one size.
  cudaArray_t x2; cudaMallocArray(&x2, &fd, 8, 8, 0);
  cudaMemcpy2DToArray(x2, 0, 0, zero, 16, 16, 1, cudaMemcpyHostToDevice);
  E(cudaMemcpy2DArrayToArray(x2, 8, 2, b2, 4, 1, 16, 3, cudaMemcpyDeviceToDevice));
  memset(back, 0, sizeof(back));
  cudaMemcpy2DFromArray(back, 32, x2, 0, 0, 32, 8, cudaMemcpyDeviceToHost);
  printf("2DArrayToArray rows 2..4:");
  for (int y = 2; y < 5; y++) for (int x = 0; x < 8; x++) printf(" %g", back[y * 8 + x]);
  printf("\n");
  E(cudaMemcpy2DArrayToArray(x2, 24, 0, b2, 0, 0, 16, 1, cudaMemcpyDeviceToDevice));
  E(cudaMemcpy2DArrayToArray(x2, 0, 6, b2, 0, 0, 16, 3, cudaMemcpyDeviceToDevice));
  E(cudaMemcpy2DArrayToArray(x2, 0, 0, a2, 0, 0, 32, 4, cudaMemcpyDeviceToDevice));
  E(cudaMemcpy2DArrayToArray(x2, 0, 0, nullptr, 0, 0, 16, 1, cudaMemcpyDeviceToDevice));

  // Bad descriptors.
  cudaArray_t bad = nullptr;
  cudaChannelFormatDesc d3 = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
  cudaChannelFormatDesc dm = cudaCreateChannelDesc(8, 16, 0, 0, cudaChannelFormatKindUnsigned);
  cudaChannelFormatDesc dgap = cudaCreateChannelDesc(8, 0, 8, 0, cudaChannelFormatKindUnsigned);
  cudaChannelFormatDesc d12 = cudaCreateChannelDesc(12, 0, 0, 0, cudaChannelFormatKindSigned);
  cudaChannelFormatDesc dh8 = cudaCreateChannelDesc(8, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaChannelFormatDesc dnone = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindNone);
  E(cudaMallocArray(&bad, &d3, 4, 4, 0));
  E(cudaMallocArray(&bad, &dm, 4, 4, 0));
  E(cudaMallocArray(&bad, &dgap, 4, 4, 0));
  E(cudaMallocArray(&bad, &d12, 4, 4, 0));
  E(cudaMallocArray(&bad, &dh8, 4, 4, 0));
  E(cudaMallocArray(&bad, &dnone, 4, 4, 0));
  E(cudaMallocArray(&bad, nullptr, 4, 4, 0));
  E(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(4, 5, 6), cudaArrayCubemap));
  E(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(4, 4, 7), cudaArrayCubemap));
  E(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(4, 4, 12), cudaArrayCubemap | cudaArrayLayered));
  E(cudaMalloc3DArray(&bad, &fd, make_cudaExtent(0, 4, 2), 0));
  // Texture descriptors.
  cudaResourceDesc rd; memset(&rd, 0, sizeof(rd));
  rd.resType = cudaResourceTypeArray; rd.res.array.array = a2;
  cudaTextureDesc td; memset(&td, 0, sizeof(td));
  cudaTextureObject_t t = 0;
  td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeElementType;
  E(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  rd.res.array.array = a1; td.readMode = cudaReadModeNormalizedFloat; td.filterMode = cudaFilterModePoint;
  E(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  rd.res.array.array = nullptr; td.readMode = cudaReadModeElementType;
  E(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  rd.res.array.array = a1;
  E(cudaCreateTextureObject(&t, &rd, nullptr, nullptr));
  E(cudaCreateTextureObject(nullptr, &rd, &td, nullptr));
  E(cudaCreateTextureObject(&t, nullptr, &td, nullptr));
  rd.resType = cudaResourceTypeLinear; rd.res.linear.devPtr = dd; rd.res.linear.desc = d3; rd.res.linear.sizeInBytes = 256;
  E(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  rd.res.linear.desc = fd; rd.res.linear.sizeInBytes = 0;
  E(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  rd.resType = cudaResourceTypePitch2D; rd.res.pitch2D.devPtr = dd; rd.res.pitch2D.desc = fd;
  rd.res.pitch2D.width = 4; rd.res.pitch2D.height = 4; rd.res.pitch2D.pitchInBytes = 20;
  E(cudaCreateTextureObject(&t, &rd, &td, nullptr));
  E(cudaDestroyTextureObject(0));
  cudaResourceDesc sr; memset(&sr, 0, sizeof(sr));
  sr.resType = cudaResourceTypeLinear;
  cudaSurfaceObject_t so;
  E(cudaCreateSurfaceObject(&so, &sr));
  sr.resType = cudaResourceTypeArray; sr.res.array.array = nullptr;
  E(cudaCreateSurfaceObject(&so, &sr));
  E(cudaFreeArray(aS));
  E(cudaFreeMipmappedArray(m));
  E(cudaFreeArray(a1));
  E(cudaStreamDestroy(st));
  E(cudaDeviceSynchronize());
  return 0;
}
