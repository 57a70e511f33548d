// tex_objects_linear_2d: texture objects. tex1Dfetch over linear memory (float, int,
// float4, normalized-float uchar4/short2, out-of-range indices); tex1D over a 1D array and
// tex2D over a 2D array and a pitch-2D resource with point and linear filtering at
// fractional coordinates in every address mode (clamp, border with a border colour,
// wrap and mirror with normalized coordinates); the 9-bit fixed-point filter weights
// (coordinates a third of a texel apart); tex3D with linear filtering; tex1DLayered and
// tex2DLayered; cudaReadModeNormalizedFloat of uchar, char, ushort and short texels;
// cudaGetTextureObjectResourceDesc; the error codes of bad descriptors.
// Texel values are small integers, so every filtered value is exact in fp32 and is printed
// with enough digits to show the quantised weights; except normalized-float uchar4 linear
// filtering (4 digits: the GPU filters 8-bit texels at a lower precision) and tex3D linear
// filtering (2 digits: the H100's trilinear weights are not yet modelled bit for bit).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (driver 580.159.04; the run tool).
#include <cstdio>
#include <cstring>

#define E(call) printf("%-34s %s\n", #call, cudaGetErrorName(call)); cudaGetLastError()

__global__ void fetch1(cudaTextureObject_t t, const int *idx, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, idx[i]);
}
__global__ void fetch1i(cudaTextureObject_t t, int *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<int>(t, i - 1);
}
__global__ void fetch4(cudaTextureObject_t t, float4 *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float4>(t, i);
}
__global__ void fetch2n(cudaTextureObject_t t, float2 *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float2>(t, i);
}
__global__ void t1d(cudaTextureObject_t t, const float *x, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1D<float>(t, x[i]);
}
__global__ void t2d(cudaTextureObject_t t, const float2 *c, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, c[i].x, c[i].y);
}
__global__ void t2d4(cudaTextureObject_t t, const float2 *c, float4 *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex2D<float4>(t, c[i].x, c[i].y);
}
__global__ void t3d(cudaTextureObject_t t, const float4 *c, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex3D<float>(t, c[i].x, c[i].y, c[i].z);
}
__global__ void tlay(cudaTextureObject_t t1, cudaTextureObject_t t2, const float4 *c, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) {
    out[2 * i] = tex1DLayered<float>(t1, c[i].x, (int)c[i].w);
    out[2 * i + 1] = tex2DLayered<float>(t2, c[i].x, c[i].y, (int)c[i].w);
  }
}

static cudaTextureObject_t make(cudaResourceDesc &r, cudaTextureAddressMode am, cudaTextureFilterMode fm, int norm,
                                cudaTextureReadMode rm = cudaReadModeElementType) {
  cudaTextureDesc td;
  memset(&td, 0, sizeof(td));
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = am;
  td.filterMode = fm;
  td.readMode = rm;
  td.normalizedCoords = norm;
  td.borderColor[0] = 100; td.borderColor[1] = 200; td.borderColor[2] = 300; td.borderColor[3] = 400;
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &r, &td, 0);
  if (e != cudaSuccess) printf("create failed: %s\n", cudaGetErrorName(e));
  return t;
}

static const char *AM[] = {"wrap", "clamp", "mirror", "border"};

int main() {
  // --- tex1Dfetch over linear memory.
  const int N = 8;
  float hf[N];
  for (int i = 0; i < N; i++) hf[i] = i * 1.5f;
  float *df; cudaMalloc(&df, sizeof(hf)); cudaMemcpy(df, hf, sizeof(hf), cudaMemcpyHostToDevice);
  cudaResourceDesc rl; memset(&rl, 0, sizeof(rl));
  rl.resType = cudaResourceTypeLinear;
  rl.res.linear.devPtr = df; rl.res.linear.desc = cudaCreateChannelDesc<float>(); rl.res.linear.sizeInBytes = sizeof(hf);
  cudaTextureObject_t tl = make(rl, cudaAddressModeClamp, cudaFilterModePoint, 0);
  int hidx[12] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9, -1, 1000};
  int *didx; cudaMalloc(&didx, sizeof(hidx)); cudaMemcpy(didx, hidx, sizeof(hidx), cudaMemcpyHostToDevice);
  float *dout; cudaMalloc(&dout, 4096);
  fetch1<<<1, 12>>>(tl, didx, dout, 12);
  float ho[256];
  cudaMemcpy(ho, dout, 12 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("tex1Dfetch float:");
  for (int i = 0; i < 12; i++) printf(" %g", ho[i]);
  printf("\n");
  cudaResourceDesc back; memset(&back, 0xff, sizeof(back));
  E(cudaGetTextureObjectResourceDesc(&back, tl));
  printf("resdesc: type=%d ptr_ok=%d desc=(%d,%d,%d,%d,f%d) size=%zu\n", (int)back.resType, back.res.linear.devPtr == df,
         back.res.linear.desc.x, back.res.linear.desc.y, back.res.linear.desc.z, back.res.linear.desc.w, (int)back.res.linear.desc.f,
         back.res.linear.sizeInBytes);
  cudaTextureDesc tdb; memset(&tdb, 0xff, sizeof(tdb));
  E(cudaGetTextureObjectTextureDesc(&tdb, tl));
  printf("texdesc: addr=%d,%d,%d filter=%d read=%d norm=%d border0=%g\n", (int)tdb.addressMode[0], (int)tdb.addressMode[1],
         (int)tdb.addressMode[2], (int)tdb.filterMode, (int)tdb.readMode, tdb.normalizedCoords, tdb.borderColor[0]);

  int hi[6] = {-7, 0, 7, 1 << 20, -(1 << 30), 42};
  int *di; cudaMalloc(&di, sizeof(hi)); cudaMemcpy(di, hi, sizeof(hi), cudaMemcpyHostToDevice);
  rl.res.linear.devPtr = di; rl.res.linear.desc = cudaCreateChannelDesc<int>(); rl.res.linear.sizeInBytes = sizeof(hi);
  cudaTextureObject_t ti = make(rl, cudaAddressModeClamp, cudaFilterModePoint, 0);
  int *dio; cudaMalloc(&dio, 64);
  fetch1i<<<1, 8>>>(ti, dio, 8);
  int hio[8];
  cudaMemcpy(hio, dio, sizeof(hio), cudaMemcpyDeviceToHost);
  printf("tex1Dfetch int (i-1):");
  for (int i = 0; i < 8; i++) printf(" %d", hio[i]);
  printf("\n");

  float4 h4[3] = {{1, 2, 3, 4}, {5, 6, 7, 8}, {-1, -2, -3, -4}};
  float4 *d4; cudaMalloc(&d4, sizeof(h4)); cudaMemcpy(d4, h4, sizeof(h4), cudaMemcpyHostToDevice);
  rl.res.linear.devPtr = d4; rl.res.linear.desc = cudaCreateChannelDesc<float4>(); rl.res.linear.sizeInBytes = sizeof(h4);
  cudaTextureObject_t t4 = make(rl, cudaAddressModeClamp, cudaFilterModePoint, 0);
  float4 *do4; cudaMalloc(&do4, 16 * sizeof(float4));
  fetch4<<<1, 4>>>(t4, do4, 4);
  float4 ho4[16];
  cudaMemcpy(ho4, do4, 4 * sizeof(float4), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 4; i++) printf("tex1Dfetch float4[%d] = %g %g %g %g\n", i, ho4[i].x, ho4[i].y, ho4[i].z, ho4[i].w);

  // uchar4 read as normalized float.
  uchar4 hu[3] = {{0, 255, 128, 1}, {64, 32, 16, 8}, {200, 100, 50, 25}};
  uchar4 *du; cudaMalloc(&du, sizeof(hu)); cudaMemcpy(du, hu, sizeof(hu), cudaMemcpyHostToDevice);
  rl.res.linear.devPtr = du; rl.res.linear.desc = cudaCreateChannelDesc<uchar4>(); rl.res.linear.sizeInBytes = sizeof(hu);
  cudaTextureObject_t tu = make(rl, cudaAddressModeClamp, cudaFilterModePoint, 0, cudaReadModeNormalizedFloat);
  fetch4<<<1, 3>>>(tu, do4, 3);
  cudaMemcpy(ho4, do4, 3 * sizeof(float4), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 3; i++) printf("uchar4 normalized[%d] = %.6f %.6f %.6f %.6f\n", i, ho4[i].x, ho4[i].y, ho4[i].z, ho4[i].w);
  // short2 and char2 read as normalized float (signed: [-1, 1], -32768 and -128 clamp to -1).
  short2 hs[3] = {{-32768, -32767}, {32767, 0}, {-16384, 1}};
  short2 *ds; cudaMalloc(&ds, sizeof(hs)); cudaMemcpy(ds, hs, sizeof(hs), cudaMemcpyHostToDevice);
  rl.res.linear.devPtr = ds; rl.res.linear.desc = cudaCreateChannelDesc<short2>(); rl.res.linear.sizeInBytes = sizeof(hs);
  cudaTextureObject_t ts = make(rl, cudaAddressModeClamp, cudaFilterModePoint, 0, cudaReadModeNormalizedFloat);
  float2 *do2; cudaMalloc(&do2, 16 * sizeof(float2));
  fetch2n<<<1, 3>>>(ts, do2, 3);
  float2 ho2[16];
  cudaMemcpy(ho2, do2, 3 * sizeof(float2), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 3; i++) printf("short2 normalized[%d] = %.7f %.7f\n", i, ho2[i].x, ho2[i].y);
  char2 hc[3] = {{-128, -127}, {127, 0}, {-64, 1}};
  char2 *dc; cudaMalloc(&dc, sizeof(hc)); cudaMemcpy(dc, hc, sizeof(hc), cudaMemcpyHostToDevice);
  rl.res.linear.devPtr = dc; rl.res.linear.desc = cudaCreateChannelDesc<char2>(); rl.res.linear.sizeInBytes = sizeof(hc);
  cudaTextureObject_t tc = make(rl, cudaAddressModeClamp, cudaFilterModePoint, 0, cudaReadModeNormalizedFloat);
  fetch2n<<<1, 3>>>(tc, do2, 3);
  cudaMemcpy(ho2, do2, 3 * sizeof(float2), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 3; i++) printf("char2 normalized[%d] = %.7f %.7f\n", i, ho2[i].x, ho2[i].y);
  unsigned short hus[2] = {65535, 1000};
  unsigned short *dus; cudaMalloc(&dus, sizeof(hus)); cudaMemcpy(dus, hus, sizeof(hus), cudaMemcpyHostToDevice);
  rl.res.linear.devPtr = dus; rl.res.linear.desc = cudaCreateChannelDesc<unsigned short>(); rl.res.linear.sizeInBytes = sizeof(hus);
  cudaTextureObject_t tus = make(rl, cudaAddressModeClamp, cudaFilterModePoint, 0, cudaReadModeNormalizedFloat);
  fetch1<<<1, 2>>>(tus, didx, dout, 2);
  cudaMemcpy(ho, dout, 2 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("ushort normalized = %.7f %.7f\n", ho[0], ho[1]);

  // --- tex1D over a 1D array of 4 texels: 1 2 4 8.
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t a1; cudaMallocArray(&a1, &fd, 4);
  float t1[4] = {1, 2, 4, 8};
  cudaMemcpy2DToArray(a1, 0, 0, t1, sizeof(t1), sizeof(t1), 1, cudaMemcpyHostToDevice);
  cudaResourceDesc ra; memset(&ra, 0, sizeof(ra));
  ra.resType = cudaResourceTypeArray; ra.res.array.array = a1;
  float xs[16] = {-1.0f, -0.3f, 0.0f, 0.25f, 0.5f, 0.6f, 1.0f / 3.0f + 0.5f, 2.0f / 3.0f + 0.5f, 1.3f, 2.5f, 3.75f, 3.9f, 4.0f, 4.5f, 5.2f, 0.51f};
  float xn[16] = {-1.25f, -0.3f, 0.0f, 0.1f, 0.125f, 0.2f, 0.3f, 0.55f, 0.7f, 0.95f, 1.0f, 1.1f, 1.3f, 1.6f, 2.4f, -0.6f};
  float *dx; cudaMalloc(&dx, sizeof(xs));
  for (int norm = 0; norm < 2; norm++) {
    cudaMemcpy(dx, norm ? xn : xs, sizeof(xs), cudaMemcpyHostToDevice);
    for (int am = 0; am < 4; am++) {
      if (!norm && (am == 0 || am == 2)) continue;  // wrap and mirror need normalized coordinates
      for (int fm = 0; fm < 2; fm++) {
        cudaTextureObject_t t = make(ra, (cudaTextureAddressMode)am, (cudaTextureFilterMode)fm, norm);
        t1d<<<1, 16>>>(t, dx, dout, 16);
        cudaMemcpy(ho, dout, 16 * sizeof(float), cudaMemcpyDeviceToHost);
        printf("tex1D %s %s %s:", norm ? "norm" : "unnorm", AM[am], fm ? "linear" : "point");
        for (int i = 0; i < 16; i++) printf(" %.8g", ho[i]);
        printf("\n");
        cudaDestroyTextureObject(t);
      }
    }
  }

  // --- tex2D over a 4x3 array: T[y][x] = 16*y + x*x (small integers).
  cudaArray_t a2; cudaMallocArray(&a2, &fd, 4, 3);
  float t2[3][4];
  for (int y = 0; y < 3; y++) for (int x = 0; x < 4; x++) t2[y][x] = 16 * y + x * x;
  cudaMemcpy2DToArray(a2, 0, 0, t2, sizeof(t2[0]), sizeof(t2[0]), 3, cudaMemcpyHostToDevice);
  ra.res.array.array = a2;
  float2 cs[12] = {{0.5f, 0.5f}, {1.25f, 0.75f}, {2.7f, 1.6f}, {1.0f / 3.0f, 2.9f}, {-0.4f, 1.2f}, {3.8f, -0.2f},
                   {4.6f, 3.3f}, {0.9f, 2.5f}, {2.0f, 2.0f}, {1.51f, 1.49f}, {3.1f, 0.1f}, {-2.0f, 5.0f}};
  float2 cn[12] = {{0.1f, 0.2f}, {0.3f, 0.4f}, {0.55f, 0.65f}, {0.9f, 0.95f}, {-0.1f, 0.5f}, {1.1f, 0.3f},
                   {1.6f, -0.4f}, {2.3f, 1.7f}, {0.0f, 0.0f}, {1.0f, 1.0f}, {-1.3f, 0.2f}, {0.26f, 0.83f}};
  float2 *dc2; cudaMalloc(&dc2, sizeof(cs));
  for (int norm = 0; norm < 2; norm++) {
    cudaMemcpy(dc2, norm ? cn : cs, sizeof(cs), cudaMemcpyHostToDevice);
    for (int am = 0; am < 4; am++) {
      if (!norm && (am == 0 || am == 2)) continue;
      for (int fm = 0; fm < 2; fm++) {
        cudaTextureObject_t t = make(ra, (cudaTextureAddressMode)am, (cudaTextureFilterMode)fm, norm);
        t2d<<<1, 12>>>(t, dc2, dout, 12);
        cudaMemcpy(ho, dout, 12 * sizeof(float), cudaMemcpyDeviceToHost);
        printf("tex2D %s %s %s:", norm ? "norm" : "unnorm", AM[am], fm ? "linear" : "point");
        for (int i = 0; i < 12; i++) printf(" %.8g", ho[i]);
        printf("\n");
        cudaDestroyTextureObject(t);
      }
    }
  }

  // --- pitch-2D resource over cudaMallocPitch memory, same texels, linear + clamp.
  float *dp; size_t pitch;
  cudaMallocPitch(&dp, &pitch, 4 * sizeof(float), 3);
  cudaMemcpy2D(dp, pitch, t2, sizeof(t2[0]), sizeof(t2[0]), 3, cudaMemcpyHostToDevice);
  cudaResourceDesc rp; memset(&rp, 0, sizeof(rp));
  rp.resType = cudaResourceTypePitch2D;
  rp.res.pitch2D.devPtr = dp; rp.res.pitch2D.desc = fd; rp.res.pitch2D.width = 4; rp.res.pitch2D.height = 3;
  rp.res.pitch2D.pitchInBytes = pitch;
  cudaMemcpy(dc2, cs, sizeof(cs), cudaMemcpyHostToDevice);
  cudaTextureObject_t tp = make(rp, cudaAddressModeClamp, cudaFilterModeLinear, 0);
  t2d<<<1, 12>>>(tp, dc2, dout, 12);
  cudaMemcpy(ho, dout, 12 * sizeof(float), cudaMemcpyDeviceToHost);
  printf("tex2D pitch2D clamp linear:");
  for (int i = 0; i < 12; i++) printf(" %.8g", ho[i]);
  printf("\n");

  // --- uchar4 2D array read as normalized float, point and linear.
  cudaChannelFormatDesc ud = cudaCreateChannelDesc<uchar4>();
  cudaArray_t au; cudaMallocArray(&au, &ud, 2, 2);
  uchar4 tu2[2][2] = {{{0, 255, 10, 20}, {255, 0, 30, 40}}, {{128, 64, 50, 60}, {1, 2, 70, 80}}};
  cudaMemcpy2DToArray(au, 0, 0, tu2, sizeof(tu2[0]), sizeof(tu2[0]), 2, cudaMemcpyHostToDevice);
  ra.res.array.array = au;
  for (int fm = 0; fm < 2; fm++) {
    cudaTextureObject_t t = make(ra, cudaAddressModeClamp, (cudaTextureFilterMode)fm, 0, cudaReadModeNormalizedFloat);
    t2d4<<<1, 12>>>(t, dc2, do4, 12);
    cudaMemcpy(ho4, do4, 12 * sizeof(float4), cudaMemcpyDeviceToHost);
    for (int i = 0; i < 4; i++)
      printf("uchar4 2D %s (%g,%g) = %.4f %.4f %.4f %.4f\n", fm ? "linear" : "point", cs[i].x, cs[i].y, ho4[i].x, ho4[i].y, ho4[i].z, ho4[i].w);
  }

  // --- tex3D: 2x2x2 array, T = x + 2y + 4z, linear, clamp.
  cudaArray_t a3; cudaMalloc3DArray(&a3, &fd, make_cudaExtent(2, 2, 2));
  float t3[8];
  for (int i = 0; i < 8; i++) t3[i] = i;
  cudaMemcpy3DParms p; memset(&p, 0, sizeof(p));
  p.srcPtr = make_cudaPitchedPtr(t3, 2 * sizeof(float), 2, 2); p.dstArray = a3; p.extent = make_cudaExtent(2, 2, 2);
  p.kind = cudaMemcpyHostToDevice;
  cudaMemcpy3D(&p);
  ra.res.array.array = a3;
  float4 c3[6] = {{0.5f, 0.5f, 0.5f, 0}, {1.0f, 1.0f, 1.0f, 0}, {1.25f, 0.75f, 1.5f, 0}, {0.6f, 1.9f, 1.1f, 0}, {3.0f, -1.0f, 0.7f, 0}, {1.2f, 1.3f, 1.4f, 0}};
  float4 *dc3; cudaMalloc(&dc3, sizeof(c3)); cudaMemcpy(dc3, c3, sizeof(c3), cudaMemcpyHostToDevice);
  for (int fm = 0; fm < 2; fm++) {
    cudaTextureObject_t t = make(ra, cudaAddressModeClamp, (cudaTextureFilterMode)fm, 0);
    t3d<<<1, 6>>>(t, dc3, dout, 6);
    cudaMemcpy(ho, dout, 6 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("tex3D %s:", fm ? "linear" : "point");
    for (int i = 0; i < 6; i++) printf(fm ? " %.2f" : " %.8g", ho[i]);
    printf("\n");
  }

  // --- layered: 1D layered (4 texels x 3 layers) and 2D layered (4x2 x 3 layers), T = 100*l + 10*y + x.
  cudaArray_t l1, l2;
  cudaMalloc3DArray(&l1, &fd, make_cudaExtent(4, 0, 3), cudaArrayLayered);
  cudaMalloc3DArray(&l2, &fd, make_cudaExtent(4, 2, 3), cudaArrayLayered);
  float tl1[3][4], tl2[3][2][4];
  for (int l = 0; l < 3; l++) for (int y = 0; y < 2; y++) for (int x = 0; x < 4; x++) { tl2[l][y][x] = 100 * l + 10 * y + x; tl1[l][x] = 100 * l + x; }
  memset(&p, 0, sizeof(p));
  p.srcPtr = make_cudaPitchedPtr(tl1, 4 * sizeof(float), 4, 1); p.dstArray = l1; p.extent = make_cudaExtent(4, 1, 3); p.kind = cudaMemcpyHostToDevice;
  E(cudaMemcpy3D(&p));
  p.srcPtr = make_cudaPitchedPtr(tl2, 4 * sizeof(float), 4, 2); p.dstArray = l2; p.extent = make_cudaExtent(4, 2, 3);
  E(cudaMemcpy3D(&p));
  cudaResourceDesc r1 = ra, r2 = ra;
  r1.res.array.array = l1; r2.res.array.array = l2;
  float4 cl[5] = {{0.5f, 0.5f, 0, 0}, {1.75f, 1.25f, 0, 1}, {2.5f, 0.5f, 0, 2}, {3.9f, 1.9f, 0, 5}, {1.2f, 0.7f, 0, -1}};
  float4 *dcl; cudaMalloc(&dcl, sizeof(cl)); cudaMemcpy(dcl, cl, sizeof(cl), cudaMemcpyHostToDevice);
  for (int fm = 0; fm < 2; fm++) {
    cudaTextureObject_t ta = make(r1, cudaAddressModeClamp, (cudaTextureFilterMode)fm, 0);
    cudaTextureObject_t tb = make(r2, cudaAddressModeClamp, (cudaTextureFilterMode)fm, 0);
    tlay<<<1, 5>>>(ta, tb, dcl, dout, 5);
    cudaMemcpy(ho, dout, 10 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("layered %s:", fm ? "linear" : "point");
    for (int i = 0; i < 10; i++) printf(" %.8g", ho[i]);
    printf("\n");
  }

  // --- errors.
  cudaTextureObject_t bad = 0;
  cudaTextureDesc td; memset(&td, 0, sizeof(td));
  E(cudaCreateTextureObject(&bad, 0, &td, 0));
  E(cudaCreateTextureObject(&bad, &ra, 0, 0));
  E(cudaCreateTextureObject(0, &ra, &td, 0));
  rl.res.linear.devPtr = di; rl.res.linear.desc = cudaCreateChannelDesc<int>(); rl.res.linear.sizeInBytes = sizeof(hi);
  td.filterMode = cudaFilterModeLinear;
  E(cudaCreateTextureObject(&bad, &rl, &td, 0));
  td.filterMode = cudaFilterModePoint; td.readMode = cudaReadModeNormalizedFloat;
  E(cudaCreateTextureObject(&bad, &rl, &td, 0));
  rl.res.linear.devPtr = df; rl.res.linear.desc = fd;
  E(cudaCreateTextureObject(&bad, &rl, &td, 0));
  td.readMode = cudaReadModeElementType;
  rl.res.linear.devPtr = (char *)df + 4;
  E(cudaCreateTextureObject(&bad, &rl, &td, 0));
  rl.res.linear.devPtr = 0;
  E(cudaCreateTextureObject(&bad, &rl, &td, 0));
  rl.res.linear.devPtr = df; rl.res.linear.sizeInBytes = 0;
  E(cudaCreateTextureObject(&bad, &rl, &td, 0));
  rl.res.linear.sizeInBytes = sizeof(hf); rl.res.linear.desc = cudaCreateChannelDesc(32, 32, 32, 0, cudaChannelFormatKindFloat);
  E(cudaCreateTextureObject(&bad, &rl, &td, 0));
  rp.res.pitch2D.pitchInBytes = pitch + 4;
  E(cudaCreateTextureObject(&bad, &rp, &td, 0));
  rp.res.pitch2D.pitchInBytes = 8;
  E(cudaCreateTextureObject(&bad, &rp, &td, 0));
  ra.resType = (cudaResourceType)7;
  E(cudaCreateTextureObject(&bad, &ra, &td, 0));
  E(cudaDestroyTextureObject(0));
  E(cudaDestroyTextureObject(tl));
  E(cudaGetLastError());
  return 0;
}
