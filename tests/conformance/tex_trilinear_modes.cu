// tex_trilinear_modes: trilinear (3D linear) filtering of texture objects bit for bit, on
// fresh data: a 5x4x3 float array of pseudo-random integer texels sampled at
// pseudo-random coordinates inside and outside it in every address mode (wrap, clamp,
// mirror, border), normalized and unnormalized coordinates, point and linear; a 3x3x2
// uchar array read as normalized floats (linear); and a mipmapped 3D array (4x4x4 and
// 2x2x2 levels) read with tex3DLod, linear within a level, point and linear between levels.
// Every value is printed with 9 significant digits (round-trip exact for fp32).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (the run tool).
#include <cstdio>
#include <cstring>

__global__ void k3(cudaTextureObject_t t, const float4 *c, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3D<float>(t, c[i].x, c[i].y, c[i].z);
}
__global__ void k3lod(cudaTextureObject_t t, const float4 *c, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = tex3DLod<float>(t, c[i].x, c[i].y, c[i].z, c[i].w);
}

static unsigned seed = 12345;
static unsigned rnd() { seed = seed * 1103515245u + 12345u; return (seed >> 8) & 0xffffff; }
// A coordinate in texels for an axis of n texels: mostly inside, some outside.
static float rcoord(int n) { return (float)((int)(rnd() % 4096) - 1024) / 4096.0f * 1.5f * n; }

static float4 *dc;
static float *dout;

static cudaTextureObject_t make(cudaResourceDesc &r, int am, int fm, int norm, int rm, int mip = 0) {
  cudaTextureDesc td; memset(&td, 0, sizeof(td));
  td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = (cudaTextureAddressMode)am;
  td.filterMode = (cudaTextureFilterMode)fm;
  td.mipmapFilterMode = (cudaTextureFilterMode)mip;
  td.maxMipmapLevelClamp = 8;
  td.readMode = (cudaTextureReadMode)rm;
  td.normalizedCoords = norm;
  td.borderColor[0] = 7.5f;
  cudaTextureObject_t t = 0;
  cudaError_t e = cudaCreateTextureObject(&t, &r, &td, 0);
  if (e != cudaSuccess) printf("create: %s\n", cudaGetErrorName(e));
  return t;
}

static void run(bool lod, cudaTextureObject_t t, const float4 *c, int n, const char *label) {
  static float res[4096];
  cudaMemcpy(dc, c, n * sizeof(float4), cudaMemcpyHostToDevice);
  if (lod) k3lod<<<(n + 127) / 128, 128>>>(t, dc, dout, n);
  else k3<<<(n + 127) / 128, 128>>>(t, dc, dout, n);
  cudaError_t e = cudaMemcpy(res, dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  if (e != cudaSuccess) printf("run: %s\n", cudaGetErrorName(e));
  printf("%s:", label);
  for (int i = 0; i < n; i++) printf(" %.9g", res[i]);
  printf("\n");
}

static const char *AM[] = {"wrap", "clamp", "mirror", "border"};

int main() {
  cudaMalloc(&dc, 4096 * sizeof(float4));
  cudaMalloc(&dout, 4096 * sizeof(float));
  static float4 c[4096], cn[4096];
  // --- float 5x4x3, every mode.
  {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t a; cudaMalloc3DArray(&a, &fd, make_cudaExtent(5, 4, 3));
    float h[60];
    for (int i = 0; i < 60; i++) h[i] = (float)(rnd() % 1000);
    cudaMemcpy3DParms p; memset(&p, 0, sizeof(p));
    p.srcPtr = make_cudaPitchedPtr(h, 5 * 4, 5, 4); p.dstArray = a; p.extent = make_cudaExtent(5, 4, 3); p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&p);
    const int n = 96;
    for (int i = 0; i < n; i++) {
      c[i] = make_float4(rcoord(5), rcoord(4), rcoord(3), 0);
      cn[i] = make_float4(c[i].x / 5, c[i].y / 4, c[i].z / 3, 0);
    }
    cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeArray; r.res.array.array = a;
    for (int norm = 0; norm < 2; norm++) for (int am = 0; am < 4; am++) for (int fm = 0; fm < 2; fm++) {
      cudaTextureObject_t t = make(r, am, fm, norm, 0);
      char label[64]; snprintf(label, sizeof label, "float %s %s %s", norm ? "norm" : "unnorm", AM[am], fm ? "linear" : "point");
      run(false, t, norm ? cn : c, n, label);
      cudaDestroyTextureObject(t);
    }
    cudaFreeArray(a);
  }
  // --- uchar 3x3x2 read as normalized floats, linear.
  {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<unsigned char>();
    cudaArray_t a; cudaMalloc3DArray(&a, &fd, make_cudaExtent(3, 3, 2));
    unsigned char h[18];
    for (int i = 0; i < 18; i++) h[i] = (unsigned char)(rnd() % 256);
    cudaMemcpy3DParms p; memset(&p, 0, sizeof(p));
    p.srcPtr = make_cudaPitchedPtr(h, 3, 3, 3); p.dstArray = a; p.extent = make_cudaExtent(3, 3, 2); p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&p);
    const int n = 64;
    for (int i = 0; i < n; i++) c[i] = make_float4(rcoord(3), rcoord(3), rcoord(2), 0);
    cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeArray; r.res.array.array = a;
    for (int am = 1; am < 4; am += 2) {
      cudaTextureObject_t t = make(r, am, 1, 0, 1);
      char label[64]; snprintf(label, sizeof label, "uchar normalized %s linear", AM[am]);
      run(false, t, c, n, label);
      cudaDestroyTextureObject(t);
    }
    cudaFreeArray(a);
  }
  // --- mipmapped 3D: 4x4x4 and 2x2x2, tex3DLod.
  {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaMipmappedArray_t m; cudaMallocMipmappedArray(&m, &fd, make_cudaExtent(4, 4, 4), 2, 0);
    for (int l = 0; l < 2; l++) {
      cudaArray_t a; cudaGetMipmappedArrayLevel(&a, m, l);
      int w = 4 >> l;
      float h[64];
      for (int i = 0; i < w * w * w; i++) h[i] = (float)(rnd() % 1000);
      cudaMemcpy3DParms p; memset(&p, 0, sizeof(p));
      p.srcPtr = make_cudaPitchedPtr(h, w * 4, w, w); p.dstArray = a; p.extent = make_cudaExtent(w, w, w); p.kind = cudaMemcpyHostToDevice;
      cudaMemcpy3D(&p);
    }
    const int n = 64;
    const float lods[] = {0.0f, 0.25f, 0.5f, 0.8f, 1.0f};
    for (int i = 0; i < n; i++) c[i] = make_float4((rnd() % 1024) / 1024.0f, (rnd() % 1024) / 1024.0f, (rnd() % 1024) / 1024.0f, lods[i % 5]);
    cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeMipmappedArray; r.res.mipmap.mipmap = m;
    for (int mip = 0; mip < 2; mip++) {
      cudaTextureObject_t t = make(r, 1, 1, 1, 0, mip);
      char label[64]; snprintf(label, sizeof label, "mipmapped 3D lod, mipmap filter %s", mip ? "linear" : "point");
      run(true, t, c, n, label);
      cudaDestroyTextureObject(t);
    }
    cudaFreeMipmappedArray(m);
  }
  return 0;
}
