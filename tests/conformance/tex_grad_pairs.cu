// tex_grad_pairs: the level of detail tex2DGrad derives when both gradients are non-zero.
// A 256x256 mipmapped float array whose level l holds l, linear mipmap filtering: a fetch
// returns level + weight (printed x256). Gradients in texels of level 0: rotated squares
// (p,q),(-q,p), axis pairs (p,0),(0,q) and random integer pairs in [-16,16], at
// maxAnisotropy 0, 4 and 16 (trilinear optimization disabled). The H100's rule is
// texture::lod::level_of_gradients: the major axis max(|dx|, |dy|, 11/16 |dx +- dy|), and
// with maxAnisotropy N > 1 the minor axis log2|det| - log2(major) unless major/N is longer.
// The probe this is cut from also printed fractional sweeps (not all equal here: see
// tests/pending-capture/h100-s10/probe_grad2); this copy prints only the integer sets.
// Expected output: those lines of the probe's output, captured from nvcc 13.0
// -arch=sm_90 on an NVIDIA H100 (the run tool, session 10).
#include <cstdio>
#include <cstring>
#include <cmath>
__global__ void kg(cudaTextureObject_t t, const float4 *g, float *o, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) o[i] = tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(g[i].x, g[i].y), make_float2(g[i].z, g[i].w));
}
static unsigned seed = 4711;
static unsigned rnd() { seed = seed * 1103515245u + 12345u; return (seed >> 8) & 0xffffff; }
static float4 g[16384]; static float o[16384];
int main() {
  cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
  cudaMipmappedArray_t m; cudaMallocMipmappedArray(&m, &fd, make_cudaExtent(256, 256, 0), 9, 0);
  for (int l = 0; l < 9; l++) {
    cudaArray_t a; cudaGetMipmappedArrayLevel(&a, m, l);
    int w = 256 >> l;
    static float v[65536];
    for (int i = 0; i < w * w; i++) v[i] = (float)l;
    cudaMemcpy2DToArray(a, 0, 0, v, w * 4, w * 4, w, cudaMemcpyHostToDevice);
  }
  cudaResourceDesc r; memset(&r, 0, sizeof(r)); r.resType = cudaResourceTypeMipmappedArray; r.res.mipmap.mipmap = m;
  // Sets (texels): R rotated squares (p,q),(-q,p); A axis pairs (p,0),(0,q); S fixed
  // dx (8,0) with dy at angles 0..175 step 5 and lengths 2,4,6,8,10; U dx (6,3) likewise;
  // X random integer pairs in [-16,16]; F random fractional pairs (k/8, |k| <= 96).
  int n = 0; int starts[7]; const char *names[] = {"R (p,q),(-q,p) q<=p<=16", "A (p,0),(0,q) 1..16", "S (8,0),(r cos,r sin) r=2,4,6,8,10 deg 0..175/5", "U (6,3),(r cos,r sin) r=2,4,6,8,10 deg 0..175/5", "X random ints", "F random eighths"};
  starts[0] = n; for (int p = 0; p <= 16; p++) for (int q = 0; q <= p; q++) g[n++] = make_float4(p, q, -q, p);
  starts[1] = n; for (int p = 1; p <= 16; p++) for (int q = 1; q <= 16; q++) g[n++] = make_float4(p, 0, 0, q);
  starts[2] = n; for (int rr = 2; rr <= 10; rr += 2) for (int d = 0; d < 180; d += 5) { float a = d * 3.14159265358979f / 180; g[n++] = make_float4(8, 0, rr * cosf(a), rr * sinf(a)); }
  starts[3] = n; for (int rr = 2; rr <= 10; rr += 2) for (int d = 0; d < 180; d += 5) { float a = d * 3.14159265358979f / 180; g[n++] = make_float4(6, 3, rr * cosf(a), rr * sinf(a)); }
  starts[4] = n; for (int i = 0; i < 1500; i++) { float4 q; q.x = (int)(rnd() % 33) - 16; q.y = (int)(rnd() % 33) - 16; q.z = (int)(rnd() % 33) - 16; q.w = (int)(rnd() % 33) - 16; g[n++] = q; }
  starts[5] = n; for (int i = 0; i < 1500; i++) { float4 q; q.x = ((int)(rnd() % 193) - 96) / 8.0f; q.y = ((int)(rnd() % 193) - 96) / 8.0f; q.z = ((int)(rnd() % 193) - 96) / 8.0f; q.w = ((int)(rnd() % 193) - 96) / 8.0f; g[n++] = q; }
  starts[6] = n;
  static float4 gn[16384];
  for (int i = 0; i < n; i++) gn[i] = make_float4(g[i].x / 256, g[i].y / 256, g[i].z / 256, g[i].w / 256);
  float4 *dg; cudaMalloc(&dg, sizeof(gn)); float *dout; cudaMalloc(&dout, sizeof(o));
  cudaMemcpy(dg, gn, n * sizeof(float4), cudaMemcpyHostToDevice);
  const int anis[] = {0, 4, 16};
  for (int an : anis) {
    cudaTextureDesc td; memset(&td, 0, sizeof(td));
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModeLinear; td.mipmapFilterMode = cudaFilterModeLinear;
    td.normalizedCoords = 1; td.maxMipmapLevelClamp = 8; td.maxAnisotropy = an; td.disableTrilinearOptimization = 1;
    cudaTextureObject_t t; cudaCreateTextureObject(&t, &r, &td, 0);
    kg<<<(n + 127) / 128, 128>>>(t, dg, dout, n);
    cudaMemcpy(o, dout, n * sizeof(float), cudaMemcpyDeviceToHost);
    for (int s = 0; s < 6; s++) {
      if (s != 0 && s != 1 && s != 4) continue;  // integer sets only
      printf("aniso %d %s:", an, names[s]);
      for (int i = starts[s]; i < starts[s + 1]; i++) printf(" %a,%a,%a,%a=%ld", g[i].x, g[i].y, g[i].z, g[i].w, lrintf(o[i] * 256));
      printf("\n");
    }
    cudaDestroyTextureObject(t);
  }
  printf("%s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
