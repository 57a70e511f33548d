// int_intrinsics: __popc(ll), __clz(ll), __ffs(ll), __brev(ll), __byte_perm, __mul24,
// __umul24, __mulhi, __umulhi, __mul64hi, __umul64hi, __sad, __usad, __funnelshift_l/r
// (lc/rc), min/max/abs overloads, computed on run-time inputs.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

#define NIN 6
__global__ void k(const unsigned *u, const unsigned long long *ull, long long *o) {
  int n = 0;
  for (int i = 0; i < NIN; i++) {
    unsigned x = u[i];
    unsigned long long y = ull[i];
    o[n++] = __popc(x);
    o[n++] = __popcll(y);
    o[n++] = __clz((int)x);
    o[n++] = __clzll((long long)y);
    o[n++] = __ffs((int)x);
    o[n++] = __ffsll((long long)y);
    o[n++] = __brev(x);
    o[n++] = (long long)__brevll(y);
    o[n++] = __byte_perm(x, 0x01234567u, 0x5140 + i);
    o[n++] = __mul24((int)x, -3);
    o[n++] = __umul24(x, 1000u);
    o[n++] = __mulhi((int)x, 123456789);
    o[n++] = __umulhi(x, 0xdeadbeefu);
    o[n++] = __mul64hi((long long)y, -987654321987LL);
    o[n++] = (long long)__umul64hi(y, 0xfedcba9876543210ULL);
    o[n++] = __sad((int)x, -5, 10u);
    o[n++] = __usad(x, 77u, 1u);
    o[n++] = __funnelshift_l(x, 0x89abcdefu, i * 9);
    o[n++] = __funnelshift_r(x, 0x89abcdefu, i * 9);
    o[n++] = __funnelshift_lc(x, 0x89abcdefu, i * 9);
    o[n++] = __funnelshift_rc(x, 0x89abcdefu, i * 9);
    o[n++] = min((int)x, -7);
    o[n++] = max(x, 1000u);
    o[n++] = abs((int)x);
    o[n++] = llabs((long long)y);
    o[n++] = (long long)min(y, 12345ULL);
  }
}

int main() {
  unsigned u[NIN] = {0u, 1u, 0x80000000u, 0xffffffffu, 0x00f0f0f0u, 123456789u};
  unsigned long long ull[NIN] = {0ull, 1ull, 0x8000000000000000ull, 0xffffffffffffffffull, 0x0000f0f0f0f0f000ull, 1234567890123456789ull};
  const char *names[] = {"popc", "popcll", "clz", "clzll", "ffs", "ffsll", "brev", "brevll", "byte_perm", "mul24", "umul24",
                         "mulhi", "umulhi", "mul64hi", "umul64hi", "sad", "usad", "funnelshift_l", "funnelshift_r",
                         "funnelshift_lc", "funnelshift_rc", "min", "max", "abs", "llabs", "min_ull"};
  const int per = sizeof(names) / sizeof(names[0]);
  unsigned *du; unsigned long long *dl; long long *dout, out[NIN * 26];
  cudaMalloc(&du, sizeof(u)); cudaMalloc(&dl, sizeof(ull)); cudaMalloc(&dout, sizeof(out));
  cudaMemcpy(du, u, sizeof(u), cudaMemcpyHostToDevice);
  cudaMemcpy(dl, ull, sizeof(ull), cudaMemcpyHostToDevice);
  k<<<1, 1>>>(du, dl, dout);
  cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
  for (int i = 0; i < NIN; i++) {
    printf("x=0x%08x y=0x%016llx\n", u[i], ull[i]);
    for (int j = 0; j < per; j++) printf("  %-15s %lld (0x%llx)\n", names[j], out[i * per + j], (unsigned long long)out[i * per + j]);
  }
  return 0;
}
