// Device printf conversions.
#include <cstdio>
#include <cmath>
__global__ void fmt(float f, double d, int i, long long ll, const char *s, const char *nul, float z) {
  printf("f=%f e=%e g=%g x=%x 5.2f=[%5.2f] s=%s c=%c p=%p lld=%lld pct=%%\n", f, f, f, i, f, s, 'Q', (void *)0x1234, ll);
  printf("double: %f %e %g %.10f %.3e %G %E %a\n", d, d, d, d, d, d, d, d);
  printf("ints: [%d] [%i] [%5d] [%-5d] [%05d] [%+d] [% d] [%u] [%o] [%#o] [%#x] [%X] [%#X]\n", i, i, i, i, i, i, i, (unsigned)-i, i, i, i, i, i);
  printf("lengths: [%ld] [%lu] [%hd] [%hhd] [%llx] [%zu]\n", (long)ll, (unsigned long)ll, (short)i, (char)i, ll, sizeof(double));
  printf("strings: [%10s] [%-10s] [%.3s] [%10.3s]\n", s, s, s, s);
  printf("null %%s: [%s]\n", nul);
  printf("null %%p: [%p]\n", (void *)0);
  printf("specials: %f %f %f %e %g\n", 1.0f / z, -1.0f / z, z / z, 1.0 / z, -(z / z));
  printf("neg zero: %f %g\n", -z, -z);
  printf("big: %f %g %e\n", 1e30f, 1e30f, 123456789.0f);
  printf("star: [%*d] [%.*f]\n", 6, i, 2, f);
  printf("many: %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16);
  int r = printf("ret test %d %f\n", 1, 2.0);
  int r2 = printf("no args\n");
  printf("printf returned %d and %d\n", r, r2);
  printf("%s", "no newline at end; ");
  printf("next printf\n");
  printf("percent-n-free tail %c%c%c\n", 'a', 98, 'c');
  printf("unknown conv: [%k] [%w]\n", 5, 6);
}
int main() {
  const char *hs = "hello";
  char *ds;
  cudaMalloc(&ds, 16);
  cudaMemcpy(ds, hs, 6, cudaMemcpyHostToDevice);
  fmt<<<1, 1>>>(3.14159265f, 2.718281828459045, 42, -1234567890123LL, ds, nullptr, 0.0f);
  cudaError_t e = cudaDeviceSynchronize();
  printf("sync=%s\n", cudaGetErrorName(e));
  return 0;
}
