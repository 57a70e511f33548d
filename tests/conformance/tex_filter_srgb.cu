// tex_filter_srgb: linear filtering of sRGB uchar texels read as normalized floats (and,
// first, of signed 8-bit texels, as tex_filter_snorm8: the program as it was captured),
// every value printed exactly (%a): each code against 0 and against itself at 20 weights,
// 8 codes against 0 at every weight 0..256, 256 random pairs at random weights, 2x2
// one-hot footprints and random 2x2 quads. The texture unit aligns a footprint's decoded
// texels to the segment step of its brightest code (texture/srgb.rs), so two non-zero
// texels come out below the weighted sum of their decoded values.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (the run tool,
// session 9: tests/pending-capture/h100-s9/tex_probe_srgb_snorm).
#include <cstdio>
#include <cstring>
__global__ void k2(cudaTextureObject_t t, const float2 *c, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2D<float>(t, c[i].x, c[i].y);
}
static unsigned seed = 4242;
static unsigned rnd() { seed = seed * 1103515245u + 12345u; return (seed >> 8) & 0xffffff; }
static float2 *dc; static float *dout;
static float2 c[65536]; static float o[65536];
// A w x h array of 8-bit texels (signed or unsigned), linear filtering, clamp, normalized read.
static void sample(const void *texels, int w, int h, bool sgn, bool srgb, int n) {
  cudaChannelFormatDesc d = cudaCreateChannelDesc(8, 0, 0, 0, sgn ? cudaChannelFormatKindSigned : cudaChannelFormatKindUnsigned);
  cudaArray_t a; cudaMallocArray(&a, &d, w, h);
  cudaMemcpy2DToArray(a, 0, 0, texels, w, w, h, cudaMemcpyHostToDevice);
  cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeArray; r.res.array.array = a;
  cudaTextureDesc td; memset(&td, 0, sizeof(td));
  td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
  td.filterMode = cudaFilterModeLinear; td.readMode = cudaReadModeNormalizedFloat; td.sRGB = srgb;
  cudaTextureObject_t t; cudaError_t e = cudaCreateTextureObject(&t, &r, &td, 0);
  if (e != cudaSuccess) { printf("create: %s\n", cudaGetErrorName(e)); memset(o, 0, n * sizeof(float)); cudaFreeArray(a); return; }
  cudaMemcpy(dc, c, n * sizeof(float2), cudaMemcpyHostToDevice);
  k2<<<(n + 127) / 128, 128>>>(t, dc, dout, n);
  cudaMemcpy(o, dout, n * sizeof(float), cudaMemcpyDeviceToHost);
  cudaDestroyTextureObject(t); cudaFreeArray(a);
}
static void show(const char *label, int n) {
  printf("%s:", label);
  for (int i = 0; i < n; i++) printf(" %a", o[i]);
  printf("\n");
}
int main() {
  cudaMalloc(&dc, sizeof(c)); cudaMalloc(&dout, sizeof(o));
  const int as[] = {0, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 100, 128, 144, 171, 200, 233, 250, 254, 255};
  static unsigned char b[2 * 512];
  for (int sgn = 1; sgn >= 0; sgn--) {
    // P1: rows (v, 0), v = each code, at 20 weights of the second texel.
    for (int r = 0; r < 256; r++) { b[2 * r] = (unsigned char)(sgn ? r - 128 : r); b[2 * r + 1] = 0; }
    int n = 0;
    for (int r = 0; r < 256; r++) for (int k = 0; k < 20; k++) c[n++] = make_float2(0.5f + as[k] / 256.0f, r + 0.5f);
    sample(b, 2, 256, sgn, !sgn, n);
    show(sgn ? "snorm8 (t,0) t=-128..127 x 20 weights" : "srgb (c,0) c=0..255 x 20 weights", n);
    // P2: rows (v, v).
    for (int r = 0; r < 256; r++) b[2 * r + 1] = b[2 * r];
    sample(b, 2, 256, sgn, !sgn, n);
    show(sgn ? "snorm8 (t,t)" : "srgb (c,c)", n);
    // P3: rows (v, 0) for 8 values at every weight 0..256.
    const int sv[] = {127, 64, -64, -127, -115, 57, 1, -1};
    const int uv[] = {255, 128, 64, 200, 1, 16, 100, 30};
    for (int r = 0; r < 8; r++) { b[2 * r] = (unsigned char)(sgn ? sv[r] : uv[r]); b[2 * r + 1] = 0; }
    n = 0;
    for (int r = 0; r < 8; r++) for (int a = 0; a <= 256; a++) c[n++] = make_float2(0.5f + a / 256.0f, r + 0.5f);
    sample(b, 2, 8, sgn, !sgn, n);
    show(sgn ? "snorm8 (v,0) v=127,64,-64,-127,-115,57,1,-1 a=0..256" : "srgb (v,0) v=255,128,64,200,1,16,100,30 a=0..256", n);
    // P4: random pairs at random weights: printed with their codes.
    n = 0;
    int pa[256][2], wa[256][4];
    for (int r = 0; r < 256; r++) {
      pa[r][0] = rnd() % 256; pa[r][1] = rnd() % 256;
      b[2 * r] = (unsigned char)pa[r][0]; b[2 * r + 1] = (unsigned char)pa[r][1];
      for (int k = 0; k < 4; k++) { wa[r][k] = rnd() % 257; c[n++] = make_float2(0.5f + wa[r][k] / 256.0f, r + 0.5f); }
    }
    sample(b, 2, 256, sgn, !sgn, n);
    printf("%s pairs:", sgn ? "snorm8" : "srgb");
    for (int r = 0; r < 256; r++) for (int k = 0; k < 4; k++) {
      int c0 = sgn ? (int)(signed char)pa[r][0] : pa[r][0], c1 = sgn ? (int)(signed char)pa[r][1] : pa[r][1];
      printf(" %d,%d,%d=%a", c0, c1, wa[r][k], o[r * 4 + k]);
    }
    printf("\n");
  }
  // S2D: sRGB 2x2 one-hot (code at (0,0)), a, b = 0..256 step 16.
  const int hot[] = {255, 200, 128, 60};
  for (int h = 0; h < 4; h++) {
    unsigned char q[4] = {(unsigned char)hot[h], 0, 0, 0};
    int n = 0;
    for (int bb = 0; bb <= 256; bb += 16) for (int a = 0; a <= 256; a += 16) c[n++] = make_float2(0.5f + a / 256.0f, 0.5f + bb / 256.0f);
    sample(q, 2, 2, false, true, n);
    char label[64]; snprintf(label, sizeof label, "srgb2d onehot %d b,a=0..256/16", hot[h]);
    show(label, n);
  }
  // S2R: sRGB 2x2 random quads at random (a, b), printed with codes.
  {
    static unsigned char q[2 * 128];
    for (int i = 0; i < 256; i++) q[i] = rnd() % 256;
    int n = 0, ab[256][2];
    for (int k = 0; k < 64; k++) for (int s = 0; s < 4; s++) {
      ab[n][0] = rnd() % 257; ab[n][1] = rnd() % 257;
      c[n] = make_float2(0.5f + ab[n][0] / 256.0f, 2 * k + 0.5f + ab[n][1] / 256.0f); n++;
    }
    sample(q, 2, 128, false, true, n);
    printf("srgb2d quads c00,c10,c01,c11,a,b=v:");
    for (int i = 0; i < n; i++) { int k = i / 4; printf(" %d,%d,%d,%d,%d,%d=%a", q[4 * k], q[4 * k + 1], q[4 * k + 2], q[4 * k + 3], ab[i][0], ab[i][1], o[i]); }
    printf("\n");
  }
  return 0;
}
