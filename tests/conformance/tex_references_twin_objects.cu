// tex_references_twin_objects: the computation of tex_references_legacy.cu written with
// texture objects, which nvcc 13 still compiles: each legacy reference binding becomes a
// texture object made from the same fields (address modes, filter mode, normalized
// coordinates, read mode) over the same memory. Its output, captured on the GPU, is the
// expected output of both programs (nvcc 13 removed texture references, so the legacy
// program cannot be captured directly). A binding at a pointer 256-byte aligned minus
// `off` bytes is modelled as CUDA's guide describes it: the texture starts at the aligned
// address and the kernel adds off / sizeof(T) to its index.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (the run tool).
#include <cstdio>
#include <cstring>

__global__ void fetchLin(cudaTextureObject_t t, float *out, int n, int shift) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex1Dfetch<float>(t, i + shift);
}
__global__ void sample2D(cudaTextureObject_t t, const float2 *c, float *out, int n) {
  int i = threadIdx.x;
  if (i < n) out[i] = tex2D<float>(t, c[i].x, c[i].y);
}
__global__ void samplePitch(cudaTextureObject_t t, float *out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float>(t, x - 1 + 0.5f, y - 1 + 0.5f);
}
__global__ void readU4(cudaTextureObject_t t, float4 *out, int w, int h) {
  int x = threadIdx.x, y = threadIdx.y;
  if (x < w && y < h) out[y * w + x] = tex2D<float4>(t, x + 0.5f, y + 0.5f);
}

static cudaTextureObject_t linearObj(const void *p, size_t bytes) {
  cudaResourceDesc r;
  memset(&r, 0, sizeof r);
  r.resType = cudaResourceTypeLinear;
  r.res.linear.devPtr = (void *)p;
  r.res.linear.desc = cudaCreateChannelDesc<float>();
  r.res.linear.sizeInBytes = bytes;
  cudaTextureDesc d;
  memset(&d, 0, sizeof d);
  d.addressMode[0] = d.addressMode[1] = d.addressMode[2] = cudaAddressModeClamp;
  d.readMode = cudaReadModeElementType;
  cudaTextureObject_t t = 0;
  cudaCreateTextureObject(&t, &r, &d, 0);
  return t;
}

static void printLin(const char *label, cudaTextureObject_t t, int n, int shift) {
  float *d_out, out[80];
  cudaMalloc(&d_out, sizeof out);
  fetchLin<<<1, 80>>>(t, d_out, n, shift);
  cudaMemcpy(out, d_out, n * sizeof(float), cudaMemcpyDeviceToHost);
  printf("%s:", label);
  for (int i = 0; i < n; i++) printf("%s%g", i % 12 ? " " : "\n  ", out[i]);
  printf("\n");
  cudaFree(d_out);
}

int main() {
  // 1D linear memory: tex1Dfetch, rebinding, offsets.
  float a[64], b[64];
  for (int i = 0; i < 64; i++) { a[i] = i * 0.25f - 3.0f; b[i] = 100.0f + i; }
  float *d_a, *d_b;
  cudaMalloc(&d_a, sizeof a);
  cudaMalloc(&d_b, sizeof b);
  cudaMemcpy(d_a, a, sizeof a, cudaMemcpyHostToDevice);
  cudaMemcpy(d_b, b, sizeof b, cudaMemcpyHostToDevice);
  printf("bind a: offset %d\n", 0);
  cudaTextureObject_t t = linearObj(d_a, sizeof a);
  printLin("fetch a", t, 70, 0);
  printf("rebind b: offset %d\n", 0);
  cudaTextureObject_t tb = linearObj(d_b, sizeof b);
  printLin("fetch b", tb, 70, 0);
  printf("bind a+3: offset %d\n", 12);
  cudaTextureObject_t t3 = linearObj(d_a, (3 + 20) * sizeof(float));
  printLin("fetch a+3", t3, 24, 3);
  printf("C form, b+8: offset %d\n", 32);
  cudaTextureObject_t t8 = linearObj(d_b, (8 + 16) * sizeof(float));
  printLin("fetch b+8", t8, 20, 8);

  // 2D array, linear filtering, normalized coordinates, each address mode.
  const int W = 8, H = 4;
  float img[H][W];
  for (int y = 0; y < H; y++)
    for (int x = 0; x < W; x++) img[y][x] = (float)(y * W + x);
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaArray_t arr;
  cudaMallocArray(&arr, &fd, W, H);
  cudaMemcpy2DToArray(arr, 0, 0, img, W * sizeof(float), W * sizeof(float), H, cudaMemcpyHostToDevice);
  const int NC = 9;
  float2 coords[NC] = {{0.0f, 0.0f}, {0.03f, 0.1f}, {0.5f, 0.5f}, {0.99f, 0.9f}, {1.2f, -0.3f},
                       {-0.45f, 1.7f}, {0.3333f, 0.6667f}, {2.01f, 0.5f}, {0.0625f, 0.125f}};
  float2 *d_c;
  float *d_s, s[NC];
  cudaMalloc(&d_c, sizeof coords);
  cudaMalloc(&d_s, sizeof s);
  cudaMemcpy(d_c, coords, sizeof coords, cudaMemcpyHostToDevice);
  const char *names[4] = {"wrap", "clamp", "mirror", "border"};
  cudaTextureAddressMode modes[4] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror, cudaAddressModeBorder};
  for (int m = 0; m < 4; m++) {
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = arr;
    cudaTextureDesc d;
    memset(&d, 0, sizeof d);
    d.addressMode[0] = d.addressMode[1] = modes[m];
    d.filterMode = cudaFilterModeLinear;
    d.readMode = cudaReadModeElementType;
    d.normalizedCoords = 1;
    cudaTextureObject_t t2 = 0;
    printf("bind array (%s): %s\n", names[m], cudaGetErrorName(cudaCreateTextureObject(&t2, &r, &d, 0)));
    sample2D<<<1, NC>>>(t2, d_c, d_s, NC);
    cudaMemcpy(s, d_s, sizeof s, cudaMemcpyDeviceToHost);
    for (int i = 0; i < NC; i++) printf("  tex2D(%g, %g) = %.6f\n", coords[i].x, coords[i].y, s[i]);
    cudaDestroyTextureObject(t2);
  }

  // Pitched linear memory bound as 2D: point sampling, clamped, unnormalized.
  const int PW = 5, PH = 3;
  float p[PH][PW];
  for (int y = 0; y < PH; y++)
    for (int x = 0; x < PW; x++) p[y][x] = 10.0f * y + x;
  float *d_p;
  size_t pitch;
  cudaMallocPitch(&d_p, &pitch, PW * sizeof(float), PH);
  cudaMemcpy2D(d_p, pitch, p, PW * sizeof(float), PW * sizeof(float), PH, cudaMemcpyHostToDevice);
  {
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypePitch2D;
    r.res.pitch2D.devPtr = d_p;
    r.res.pitch2D.desc = cudaCreateChannelDesc<float>();
    r.res.pitch2D.width = PW;
    r.res.pitch2D.height = PH;
    r.res.pitch2D.pitchInBytes = pitch;
    cudaTextureDesc d;
    memset(&d, 0, sizeof d);
    d.addressMode[0] = d.addressMode[1] = cudaAddressModeClamp;
    cudaTextureObject_t tp = 0;
    printf("bind pitch2D: %s, offset %d\n", cudaGetErrorName(cudaCreateTextureObject(&tp, &r, &d, 0)), 0);
    const int OW = PW + 2, OH = PH + 2;
    float o[OH * OW], *d_o;
    cudaMalloc(&d_o, sizeof o);
    samplePitch<<<1, dim3(OW, OH)>>>(tp, d_o, OW, OH);
    cudaMemcpy(o, d_o, sizeof o, cudaMemcpyDeviceToHost);
    for (int y = 0; y < OH; y++) {
      printf(" ");
      for (int x = 0; x < OW; x++) printf(" %4g", o[y * OW + x]);
      printf("\n");
    }
  }

  // uchar4 texels read as normalized floats.
  const int UW = 4, UH = 3;
  uchar4 u[UH][UW];
  for (int y = 0; y < UH; y++)
    for (int x = 0; x < UW; x++) u[y][x] = make_uchar4(x * 60, y * 100, x + y * 4, 255);
  cudaChannelFormatDesc ud = cudaCreateChannelDesc<uchar4>();
  cudaArray_t uarr;
  cudaMallocArray(&uarr, &ud, UW, UH);
  cudaMemcpy2DToArray(uarr, 0, 0, u, UW * sizeof(uchar4), UW * sizeof(uchar4), UH, cudaMemcpyHostToDevice);
  {
    cudaResourceDesc r;
    memset(&r, 0, sizeof r);
    r.resType = cudaResourceTypeArray;
    r.res.array.array = uarr;
    cudaTextureDesc d;
    memset(&d, 0, sizeof d);
    d.addressMode[0] = d.addressMode[1] = cudaAddressModeClamp;
    d.readMode = cudaReadModeNormalizedFloat;
    cudaTextureObject_t tu = 0;
    printf("bind uchar4 array: %s\n", cudaGetErrorName(cudaCreateTextureObject(&tu, &r, &d, 0)));
    float4 f[UH * UW], *d_f;
    cudaMalloc(&d_f, sizeof f);
    readU4<<<1, dim3(UW, UH)>>>(tu, d_f, UW, UH);
    cudaMemcpy(f, d_f, sizeof f, cudaMemcpyDeviceToHost);
    for (int i = 0; i < UW * UH; i++) printf("  (%d,%d) = %.5f %.5f %.5f %.5f\n", i % UW, i / UW, f[i].x, f[i].y, f[i].z, f[i].w);
  }
  // The legacy program unbinds its reference here and fetches through it: Cuprite fails
  // that launch with cudaErrorInvalidTexture (the guide leaves it undefined); an object
  // program has no equivalent, so this line is printed as the legacy program prints it.
  printf("unbind: cudaSuccess\nfetch unbound: cudaErrorInvalidTexture\n");
  return 0;
}
