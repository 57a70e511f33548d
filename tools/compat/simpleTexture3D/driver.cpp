// Our own driver (tools/compat/simpleTexture3D/run.sh) for simpleTexture3D_kernel.cu's auto-test path: render slice w = 0.5 and
// compare the bytes with data/ref_texture3D.bin (written by NVIDIA's sample on a GPU).
#include <cstdio>
#include <cstdlib>
#include <vector>
#include <cuda_runtime.h>
extern "C" void initCuda(const unsigned char *h_volume, cudaExtent volumeSize);
extern "C" void render_kernel(dim3 gridSize, dim3 blockSize, unsigned *d_output, unsigned imageW, unsigned imageH, float w);
int main(int argc, char **argv) {
  const char *dir = argv[1];
  char p[512];
  snprintf(p, sizeof p, "%s/Bucky.raw", dir);
  std::vector<unsigned char> vol(32 * 32 * 32);
  FILE *f = fopen(p, "rb");
  if (!f || fread(vol.data(), 1, vol.size(), f) != vol.size()) { printf("cannot read %s\n", p); return 2; }
  fclose(f);
  initCuda(vol.data(), make_cudaExtent(32, 32, 32));
  unsigned *d; cudaMalloc(&d, 512 * 512 * 4);
  render_kernel(dim3(32, 32), dim3(16, 16), d, 512, 512, 0.5f);
  std::vector<unsigned char> out(512 * 512 * 4), ref(512 * 512 * 4);
  cudaMemcpy(out.data(), d, out.size(), cudaMemcpyDeviceToHost);
  snprintf(p, sizeof p, "%s/ref_texture3D.bin", dir);
  f = fopen(p, "rb");
  if (!f) { printf("cannot read %s\n", p); return 2; }
  size_t n = fread(ref.data(), 1, ref.size(), f);
  fclose(f);
  int diff = 0, maxd = 0;
  for (size_t i = 0; i < out.size(); i++) { int dd = abs(out[i] - ref[i]); if (dd) diff++; if (dd > maxd) maxd = dd; }
  printf("ref bytes %zu, differing bytes %d, max difference %d\n", n, diff, maxd);
  return n == ref.size() && diff == 0 ? 0 : 1;
}
