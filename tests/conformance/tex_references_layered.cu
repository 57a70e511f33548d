// tex_references_layered: layered and cubemap legacy texture references, as CUDA <= 11
// programs declare them: file-scope texture<float, cudaTextureType1DLayered>,
// texture<float, cudaTextureType2DLayered>, texture<float, cudaTextureTypeCubemap>,
// texture<float, cudaTextureTypeCubemapLayered> and
// texture<uchar4, cudaTextureType2DLayered, cudaReadModeNormalizedFloat>, fields set from
// host code, bound with cudaBindTextureToArray to layered and cubemap arrays;
// tex1DLayered/tex2DLayered/texCubemap/texCubemapLayered through them (layer and face
// selection, point and linear filtering, layers past the last and negative).
// Expected output: nvcc 13 no longer compiles texture references, so this program cannot
// be captured on a GPU. tex_references_layered_twin.cu does the same computation with
// texture objects; its output was captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100
// (the run tool), and this program's expected output is that file, unchanged.
#include <cstdio>
#include <cstring>

struct Q { float x, y, z; int layer; };

texture<float, cudaTextureType1DLayered> r1L;
texture<float, cudaTextureType2DLayered> r2L;
texture<float, cudaTextureTypeCubemap> rC;
texture<float, cudaTextureTypeCubemapLayered> rCL;
texture<uchar4, cudaTextureType2DLayered, cudaReadModeNormalizedFloat> r2Lu;

__global__ void k1L(const Q *q, float *o, int n) {
  int i = threadIdx.x;
  if (i < n) o[i] = tex1DLayered(r1L, q[i].x, q[i].layer);
}
__global__ void k2L(const Q *q, float *o, int n) {
  int i = threadIdx.x;
  if (i < n) o[i] = tex2DLayered(r2L, q[i].x, q[i].y, q[i].layer);
}
__global__ void kC(const Q *q, float *o, int n) {
  int i = threadIdx.x;
  if (i < n) o[i] = texCubemap(rC, q[i].x, q[i].y, q[i].z);
}
__global__ void kCL(const Q *q, float *o, int n) {
  int i = threadIdx.x;
  if (i < n) o[i] = texCubemapLayered(rCL, q[i].x, q[i].y, q[i].z, q[i].layer);
}
__global__ void k2Lu(const Q *q, float4 *o, int n) {
  int i = threadIdx.x;
  if (i < n) o[i] = tex2DLayered(r2Lu, q[i].x, q[i].y, q[i].layer);
}

static Q *dq; static float *dout; static float4 *dout4;

// Sets a reference's fields as the twin's texture descriptor and binds it to the array.
template <class T, int dim, enum cudaTextureReadMode mode>
static void bind(texture<T, dim, mode> &r, cudaArray_t a, int filter, int norm, int am) {
  r.filterMode = (cudaTextureFilterMode)filter;
  r.normalized = norm;
  r.addressMode[0] = r.addressMode[1] = r.addressMode[2] = (cudaTextureAddressMode)am;
  cudaError_t e = cudaBindTextureToArray(r, a);
  if (e != cudaSuccess) printf("bind: %s\n", cudaGetErrorName(e));
}

static void fill3D(cudaArray_t a, int w, int h, int d, float (*f)(int, int, int)) {
  static float buf[4096];
  for (int z = 0; z < d; z++) for (int y = 0; y < h; y++) for (int x = 0; x < w; x++) buf[(z * h + y) * w + x] = f(x, y, z);
  cudaMemcpy3DParms p; memset(&p, 0, sizeof(p));
  p.srcPtr = make_cudaPitchedPtr(buf, w * 4, w, h); p.dstArray = a; p.extent = make_cudaExtent(w, h, d); p.kind = cudaMemcpyHostToDevice;
  cudaError_t e = cudaMemcpy3D(&p);
  if (e != cudaSuccess) printf("fill: %s\n", cudaGetErrorName(e));
}
static float code(int x, int y, int z) { return 1000.0f * z + 10.0f * y + x; }

static void show(const char *what, int n, const float *r) {
  printf("%s:", what);
  for (int i = 0; i < n; i++) printf(" %.9g", r[i]);
  printf("\n");
}

int main() {
  cudaMalloc(&dq, 256 * sizeof(Q)); cudaMalloc(&dout, 256 * 4); cudaMalloc(&dout4, 256 * 16);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  float r[256];
  Q q[64];
  // 1D layered: 6 texels, 4 layers.
  {
    cudaArray_t a; cudaMalloc3DArray(&a, &fd, make_cudaExtent(6, 0, 4), cudaArrayLayered);
    fill3D(a, 6, 1, 4, code);
    int n = 0;
    for (int l = -1; l <= 5; l++) { q[n++] = {0.5f, 0, 0, l}; q[n++] = {2.3f, 0, 0, l}; q[n++] = {5.9f, 0, 0, l}; }
    for (int filter = 0; filter < 2; filter++) {
      bind(r1L, a, filter, 0, cudaAddressModeClamp);
      cudaMemcpy(dq, q, n * sizeof(Q), cudaMemcpyHostToDevice);
      k1L<<<1, 64>>>(dq, dout, n);
      cudaMemcpy(r, dout, n * 4, cudaMemcpyDeviceToHost);
      show(filter ? "tex1DLayered linear" : "tex1DLayered point", n, r);
      
    }
    cudaFreeArray(a);
  }
  // 2D layered: 4x3, 3 layers, normalized coordinates with wrap.
  {
    cudaArray_t a; cudaMalloc3DArray(&a, &fd, make_cudaExtent(4, 3, 3), cudaArrayLayered);
    fill3D(a, 4, 3, 3, code);
    int n = 0;
    for (int l = -2; l <= 4; l++) { q[n++] = {0.1f, 0.2f, 0, l}; q[n++] = {0.55f, 0.61f, 0, l}; q[n++] = {1.3f, -0.4f, 0, l}; }
    for (int filter = 0; filter < 2; filter++) {
      bind(r2L, a, filter, 1, cudaAddressModeWrap);
      cudaMemcpy(dq, q, n * sizeof(Q), cudaMemcpyHostToDevice);
      k2L<<<1, 64>>>(dq, dout, n);
      cudaMemcpy(r, dout, n * 4, cudaMemcpyDeviceToHost);
      show(filter ? "tex2DLayered linear" : "tex2DLayered point", n, r);
      
    }
    cudaFreeArray(a);
  }
  // Cubemap: 4x4 faces.
  const float dirs[][3] = {{1, 0.1f, -0.2f}, {-1, 0.3f, 0.6f}, {0.2f, 1, -0.7f}, {-0.4f, -1, 0.25f}, {0.5f, 0.5f, 1}, {-0.3f, 0.8f, -1},
                           {2, -1.5f, 0.5f}, {0.1f, -3, -2.9f}, {0.6f, 0.2f, -0.61f}, {-0.99f, 0.98f, 0.2f}};
  {
    cudaArray_t a; cudaMalloc3DArray(&a, &fd, make_cudaExtent(4, 4, 6), cudaArrayCubemap);
    fill3D(a, 4, 4, 6, code);
    int n = 0;
    for (auto &d : dirs) q[n++] = {d[0], d[1], d[2], 0};
    for (int filter = 0; filter < 2; filter++) {
      bind(rC, a, filter, 1, cudaAddressModeClamp);
      cudaMemcpy(dq, q, n * sizeof(Q), cudaMemcpyHostToDevice);
      kC<<<1, 64>>>(dq, dout, n);
      cudaMemcpy(r, dout, n * 4, cudaMemcpyDeviceToHost);
      show(filter ? "texCubemap linear" : "texCubemap point", n, r);
      
    }
    cudaFreeArray(a);
  }
  // Cubemap layered: 2x2 faces, 2 layers (12 slices).
  {
    cudaArray_t a; cudaMalloc3DArray(&a, &fd, make_cudaExtent(2, 2, 12), cudaArrayCubemap | cudaArrayLayered);
    fill3D(a, 2, 2, 12, code);
    int n = 0;
    for (int l = 0; l < 3; l++) for (int k = 0; k < 6; k++) q[n++] = {dirs[k][0], dirs[k][1], dirs[k][2], l};
    for (int filter = 0; filter < 2; filter++) {
      bind(rCL, a, filter, 1, cudaAddressModeClamp);
      cudaMemcpy(dq, q, n * sizeof(Q), cudaMemcpyHostToDevice);
      kCL<<<1, 64>>>(dq, dout, n);
      cudaMemcpy(r, dout, n * 4, cudaMemcpyDeviceToHost);
      show(filter ? "texCubemapLayered linear" : "texCubemapLayered point", n, r);
      
    }
    cudaFreeArray(a);
  }
  // 2D layered uchar4 read as normalized float.
  {
    cudaChannelFormatDesc ud = cudaCreateChannelDesc<uchar4>();
    cudaArray_t a; cudaMalloc3DArray(&a, &ud, make_cudaExtent(2, 2, 2), cudaArrayLayered);
    uchar4 h[8];
    for (int i = 0; i < 8; i++) h[i] = make_uchar4(i * 30, 255 - i * 20, i * i, 128);
    cudaMemcpy3DParms p; memset(&p, 0, sizeof(p));
    p.srcPtr = make_cudaPitchedPtr(h, 8, 2, 2); p.dstArray = a; p.extent = make_cudaExtent(2, 2, 2); p.kind = cudaMemcpyHostToDevice;
    cudaMemcpy3D(&p);
    int n = 0;
    for (int l = 0; l < 2; l++) { q[n++] = {0.5f, 0.5f, 0, l}; q[n++] = {1.5f, 1.5f, 0, l}; }
    bind(r2Lu, a, 0, 0, cudaAddressModeClamp);
    cudaMemcpy(dq, q, n * sizeof(Q), cudaMemcpyHostToDevice);
    k2Lu<<<1, 64>>>(dq, dout4, n);
    float4 r4[8];
    cudaMemcpy(r4, dout4, n * 16, cudaMemcpyDeviceToHost);
    printf("tex2DLayered uchar4 normalized:");
    for (int i = 0; i < n; i++) printf(" (%.9g %.9g %.9g %.9g)", r4[i].x, r4[i].y, r4[i].z, r4[i].w);
    printf("\n");
    
    cudaFreeArray(a);
  }
  return 0;
}
