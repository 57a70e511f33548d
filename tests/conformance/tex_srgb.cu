// tex_srgb: cudaTextureDesc::sRGB. 8-bit unsigned texels read as normalized floats with
// sRGB set: every byte value decoded (point sampling, uchar4: alpha stays linear), uchar1
// / uchar2 / uchar4 2D arrays sampled at pseudo-random points, point and linear, with
// clamp and border (the border colour counts as the sRGB code it encodes to; a uchar2's
// second channel stays linear), a mipmapped level blend; and what the flag does
// elsewhere: texture creation with sRGB over char, ushort, float and half texels (no
// effect) and uchar read as elements. Linear filtering of sRGB texels is the H100's rule
// of texture/srgb.rs (each footprint aligned to its brightest code's segment step).
// Every value is printed with 9 significant digits (round-trip exact for fp32).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (the run tool,
// session 8: tests/pending-capture/h100-s8/tex_srgb).
#include <cstdio>
#include <cstring>

__global__ void k2(cudaTextureObject_t t, const float2 *c, float4 *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2D<float4>(t, c[i].x, c[i].y);
}
__global__ void k2lod(cudaTextureObject_t t, const float2 *c, float4 *o, int n, float lod) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DLod<float4>(t, c[i].x, c[i].y, lod);
}
__global__ void k2e(cudaTextureObject_t t, const float2 *c, uchar4 *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2D<uchar4>(t, c[i].x, c[i].y);
}

static unsigned seed = 777;
static unsigned rnd() { seed = seed * 1103515245u + 12345u; return (seed >> 8) & 0xffffff; }

static cudaTextureObject_t make(cudaResourceDesc &r, int am, int fm, int rm, int norm = 0) {
  cudaTextureDesc td; memset(&td, 0, sizeof(td));
  td.addressMode[0] = td.addressMode[1] = (cudaTextureAddressMode)am;
  td.filterMode = (cudaTextureFilterMode)fm; td.mipmapFilterMode = cudaFilterModeLinear;
  td.maxMipmapLevelClamp = 4;
  td.readMode = (cudaTextureReadMode)rm; td.normalizedCoords = norm; td.sRGB = 1;
  td.borderColor[0] = 0.25f; td.borderColor[1] = 0.5f; td.borderColor[2] = 0.75f; td.borderColor[3] = 1.0f;
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &r, &td, 0);
  if (e != cudaSuccess) { printf("create: %s\n", cudaGetErrorName(e)); cudaGetLastError(); }
  return t;
}

static float2 *dc; static float4 *dout;
static void show(const char *label, const float4 *o, int n, int ch) {
  printf("%s:", label);
  for (int i = 0; i < n; i++) {
    printf(" (%.9g", o[i].x);
    if (ch > 1) printf(" %.9g", o[i].y);
    if (ch > 2) printf(" %.9g %.9g", o[i].z, o[i].w);
    printf(")");
  }
  printf("\n");
}

int main() {
  cudaMalloc(&dc, 1024 * sizeof(float2)); cudaMalloc(&dout, 1024 * sizeof(float4));
  static float2 c[1024]; static float4 o[1024];
  // --- every byte, point: a 16x16 uchar4 array (x, 255 - x, 7x, x).
  {
    cudaChannelFormatDesc d = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a; cudaMallocArray(&a, &d, 16, 16);
    uchar4 h[256];
    for (int i = 0; i < 256; i++) h[i] = make_uchar4(i, 255 - i, (i * 7) & 255, i);
    cudaMemcpy2DToArray(a, 0, 0, h, 64, 64, 16, cudaMemcpyHostToDevice);
    for (int i = 0; i < 256; i++) c[i] = make_float2(i % 16 + 0.5f, i / 16 + 0.5f);
    cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeArray; r.res.array.array = a;
    cudaTextureObject_t t = make(r, 1, 0, 1);
    cudaMemcpy(dc, c, 256 * sizeof(float2), cudaMemcpyHostToDevice);
    k2<<<2, 128>>>(t, dc, dout, 256);
    cudaMemcpy(o, dout, 256 * sizeof(float4), cudaMemcpyDeviceToHost);
    show("uchar4 point every byte", o, 256, 4);
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
  // --- linear: uchar1/2/4 6x5 arrays of pseudo-random bytes, clamp and border.
  for (int ch = 1; ch <= 4; ch *= 2) {
    cudaChannelFormatDesc d = cudaCreateChannelDesc(8, ch > 1 ? 8 : 0, ch > 2 ? 8 : 0, ch > 2 ? 8 : 0, cudaChannelFormatKindUnsigned);
    cudaArray_t a; cudaMallocArray(&a, &d, 6, 5);
    unsigned char h[6 * 5 * 4];
    for (int i = 0; i < 30 * ch; i++) h[i] = (unsigned char)(rnd() % 256);
    cudaMemcpy2DToArray(a, 0, 0, h, 6 * ch, 6 * ch, 5, cudaMemcpyHostToDevice);
    const int n = 48;
    for (int i = 0; i < n; i++) c[i] = make_float2((int)(rnd() % 2048 - 256) / 256.0f, (int)(rnd() % 1792 - 256) / 256.0f);
    cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeArray; r.res.array.array = a;
    for (int am = 1; am < 4; am += 2) for (int fm = 0; fm < 2; fm++) {
      cudaTextureObject_t t = make(r, am, fm, 1);
      cudaMemcpy(dc, c, n * sizeof(float2), cudaMemcpyHostToDevice);
      k2<<<1, 128>>>(t, dc, dout, n);
      cudaMemcpy(o, dout, n * sizeof(float4), cudaMemcpyDeviceToHost);
      char label[64]; snprintf(label, sizeof label, "uchar%d %s %s", ch, am == 1 ? "clamp" : "border", fm ? "linear" : "point");
      show(label, o, n, ch);
      cudaDestroyTextureObject(t);
    }
    cudaFreeArray(a);
  }
  // --- a mipmapped uchar4 (4x4, 2x2, 1x1), tex2DLod between levels 0 and 1.
  {
    cudaChannelFormatDesc d = cudaCreateChannelDesc<uchar4>();
    cudaMipmappedArray_t m; cudaMallocMipmappedArray(&m, &d, make_cudaExtent(4, 4, 0), 3, 0);
    for (int l = 0; l < 3; l++) {
      cudaArray_t a; cudaGetMipmappedArrayLevel(&a, m, l);
      int w = 4 >> l;
      uchar4 h[16];
      for (int i = 0; i < w * w; i++) h[i] = make_uchar4(rnd() % 256, rnd() % 256, rnd() % 256, rnd() % 256);
      cudaMemcpy2DToArray(a, 0, 0, h, w * 4, w * 4, w, cudaMemcpyHostToDevice);
    }
    const int n = 16;
    for (int i = 0; i < n; i++) c[i] = make_float2((rnd() % 1024) / 1024.0f, (rnd() % 1024) / 1024.0f);
    cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeMipmappedArray; r.res.mipmap.mipmap = m;
    cudaTextureObject_t t = make(r, 1, 1, 1, 1);
    cudaMemcpy(dc, c, n * sizeof(float2), cudaMemcpyHostToDevice);
    const float lods[] = {0.3f, 0.7f};
    for (float l : lods) {
      k2lod<<<1, 128>>>(t, dc, dout, n, l);
      cudaMemcpy(o, dout, n * sizeof(float4), cudaMemcpyDeviceToHost);
      char label[64]; snprintf(label, sizeof label, "uchar4 mipmapped lod %g", l);
      show(label, o, n, 4);
    }
    cudaDestroyTextureObject(t);
    cudaFreeMipmappedArray(m);
  }
  // --- the flag on other formats and read modes.
  {
    struct { const char *name; cudaChannelFormatDesc d; int rm; } f[] = {
      {"char4 normalized", cudaCreateChannelDesc<char4>(), 1},
      {"ushort4 normalized", cudaCreateChannelDesc<ushort4>(), 1},
      {"float4", cudaCreateChannelDesc<float4>(), 0},
      {"half4", cudaCreateChannelDescHalf4(), 0},
    };
    for (auto &k : f) {
      cudaArray_t a; cudaMallocArray(&a, &k.d, 4, 1);
      unsigned char h[4 * 16];
      for (int i = 0; i < 64; i++) h[i] = (unsigned char)(i * 37 + 11);
      if (k.d.f == cudaChannelFormatKindFloat && k.d.x == 32) { float *fh = (float *)h; for (int i = 0; i < 16; i++) fh[i] = i / 16.0f; }
      if (k.d.f == cudaChannelFormatKindFloat && k.d.x == 16) { unsigned short *s = (unsigned short *)h; for (int i = 0; i < 16; i++) s[i] = 0x3000 + i * 0x40; }
      size_t row = 4 * ((k.d.x + k.d.y + k.d.z + k.d.w) / 8);
      cudaMemcpy2DToArray(a, 0, 0, h, row, row, 1, cudaMemcpyHostToDevice);
      cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeArray; r.res.array.array = a;
      for (int fm = 0; fm < 2; fm++) {
        cudaTextureObject_t t = make(r, 1, fm, k.rm);
        for (int i = 0; i < 6; i++) c[i] = make_float2(0.5f + i * 0.6f, 0.5f);
        cudaMemcpy(dc, c, 6 * sizeof(float2), cudaMemcpyHostToDevice);
        k2<<<1, 32>>>(t, dc, dout, 6);
        cudaError_t e = cudaMemcpy(o, dout, 6 * sizeof(float4), cudaMemcpyDeviceToHost);
        char label[64]; snprintf(label, sizeof label, "sRGB on %s %s (%s)", k.name, fm ? "linear" : "point", cudaGetErrorName(e));
        show(label, o, 6, 4);
        cudaDestroyTextureObject(t);
      }
      cudaFreeArray(a);
    }
    // uchar4 read as elements with sRGB: the bytes as they are?
    cudaChannelFormatDesc d = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a; cudaMallocArray(&a, &d, 4, 1);
    uchar4 h[4] = {{10, 100, 200, 250}, {1, 2, 3, 4}, {128, 64, 32, 16}, {255, 0, 255, 0}};
    cudaMemcpy2DToArray(a, 0, 0, h, 16, 16, 1, cudaMemcpyHostToDevice);
    cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeArray; r.res.array.array = a;
    cudaTextureObject_t t = make(r, 1, 0, 0);
    for (int i = 0; i < 4; i++) c[i] = make_float2(i + 0.5f, 0.5f);
    cudaMemcpy(dc, c, 4 * sizeof(float2), cudaMemcpyHostToDevice);
    uchar4 *de; cudaMalloc(&de, 4 * sizeof(uchar4));
    k2e<<<1, 32>>>(t, dc, de, 4);
    uchar4 e4[4]; cudaMemcpy(e4, de, sizeof(e4), cudaMemcpyDeviceToHost);
    printf("sRGB on uchar4 elements:");
    for (int i = 0; i < 4; i++) printf(" (%d %d %d %d)", e4[i].x, e4[i].y, e4[i].z, e4[i].w);
    printf("\n");
    cudaDestroyTextureObject(t);
    cudaFreeArray(a);
  }
  return 0;
}
