// Integer division / shifts / conversions in device code with run-time operands.
#include <cstdio>
#include <climits>
#include <cmath>
struct In { int i[8]; unsigned u[8]; long long ll[8]; unsigned long long ull[8]; int sh[4]; float f[8]; double d[8]; };
#define NO 128
__global__ void kdiv(const In *in, long long *o) {
  int n = 0;
  // int x/0, x%0 for x = 7, -7, 0 (divisor in[3] == 0)
  for (int j = 0; j < 3; j++) { o[n++] = in->i[j] / in->i[3]; o[n++] = in->i[j] % in->i[3]; }
  for (int j = 0; j < 3; j++) { o[n++] = in->u[j] / in->u[3]; o[n++] = in->u[j] % in->u[3]; }
  for (int j = 0; j < 3; j++) { o[n++] = in->ll[j] / in->ll[3]; o[n++] = in->ll[j] % in->ll[3]; }
  for (int j = 0; j < 3; j++) { o[n++] = (long long)(in->ull[j] / in->ull[3]); o[n++] = (long long)(in->ull[j] % in->ull[3]); }
  // INT_MIN / -1 etc: i[4] = INT_MIN, i[5] = -1
  o[n++] = in->i[4] / in->i[5]; o[n++] = in->i[4] % in->i[5];
  o[n++] = in->ll[4] / in->ll[5]; o[n++] = in->ll[4] % in->ll[5];
  // shifts by 32, 33, -1, 31 of int 5 / -5 / unsigned 0x80000001
  for (int s = 0; s < 4; s++) {
    int sv = in->sh[s];
    o[n++] = in->i[0] << sv; o[n++] = in->i[1] >> sv;
    o[n++] = in->u[0] << sv; o[n++] = in->u[4] >> sv;
    o[n++] = in->ll[1] >> (sv + 32); o[n++] = (long long)(in->ull[4] << (sv + 32));
  }
  // float -> int
  for (int j = 0; j < 6; j++) { o[n++] = (int)in->f[j]; o[n++] = (long long)(unsigned)in->f[j]; o[n++] = (long long)in->f[j]; o[n++] = (long long)(unsigned long long)in->f[j]; }
  for (int j = 0; j < 6; j++) { o[n++] = (int)in->d[j]; o[n++] = (long long)(unsigned)in->d[j]; o[n++] = (long long)in->d[j]; o[n++] = (long long)(unsigned long long)in->d[j]; }
  o[NO - 1] = n;
}
int main() {
  In h;
  int iv[8] = {7, -7, 0, 0, INT_MIN, -1, 0, 0};
  unsigned uv[8] = {7u, 0xfffffff9u, 0u, 0u, 0x80000001u, 0, 0, 0};
  long long lv[8] = {7, -7, 0, 0, LLONG_MIN, -1, 0, 0};
  unsigned long long ulv[8] = {7, 0xfffffffffffffff9ull, 0, 0, 0x8000000000000001ull, 0, 0, 0};
  int sh[4] = {32, 33, -1, 31};
  float fv[8] = {NAN, INFINITY, 3e9f, -3e9f, -1.0f, -INFINITY, 0, 0};
  double dv[8] = {NAN, INFINITY, 3e9, -3e9, -1.0, 1e20, 0, 0};
  for (int j = 0; j < 8; j++) { h.i[j] = iv[j]; h.u[j] = uv[j]; h.ll[j] = lv[j]; h.ull[j] = ulv[j]; h.f[j] = fv[j]; h.d[j] = dv[j]; }
  for (int j = 0; j < 4; j++) h.sh[j] = sh[j];
  In *din; long long *dout, o[NO] = {0};
  cudaMalloc(&din, sizeof(In)); cudaMalloc(&dout, sizeof(o));
  cudaMemcpy(din, &h, sizeof(In), cudaMemcpyHostToDevice);
  cudaMemset(dout, 0, sizeof(o));
  kdiv<<<1, 1>>>(din, dout);
  printf("launch=%s sync=%s\n", cudaGetErrorName(cudaGetLastError()), cudaGetErrorName(cudaDeviceSynchronize()));
  cudaMemcpy(o, dout, sizeof(o), cudaMemcpyDeviceToHost);
  int n = 0;
  const char *xs[3] = {"7", "-7", "0"};
  const char *uxs[3] = {"7", "0xfffffff9", "0"};
  const char *lxs[3] = {"7", "0xfffffffffffffff9", "0"};
  for (int j = 0; j < 3; j++) { printf("int %s/0 = %d (0x%08x)\n", xs[j], (int)o[n], (unsigned)o[n]); n++; printf("int %s%%0 = %d (0x%08x)\n", xs[j], (int)o[n], (unsigned)o[n]); n++; }
  for (int j = 0; j < 3; j++) { printf("unsigned %s/0 = %u (0x%08x)\n", uxs[j], (unsigned)o[n], (unsigned)o[n]); n++; printf("unsigned %s%%0 = %u (0x%08x)\n", uxs[j], (unsigned)o[n], (unsigned)o[n]); n++; }
  for (int j = 0; j < 3; j++) { printf("long long %s/0 = %lld (0x%016llx)\n", xs[j], o[n], o[n]); n++; printf("long long %s%%0 = %lld (0x%016llx)\n", xs[j], o[n], o[n]); n++; }
  for (int j = 0; j < 3; j++) { printf("unsigned long long %s/0 = %llu (0x%016llx)\n", lxs[j], (unsigned long long)o[n], o[n]); n++; printf("unsigned long long %s%%0 = %llu (0x%016llx)\n", lxs[j], (unsigned long long)o[n], o[n]); n++; }
  printf("INT_MIN/-1 = %d (0x%08x)\n", (int)o[n], (unsigned)o[n]); n++;
  printf("INT_MIN%%-1 = %d\n", (int)o[n]); n++;
  printf("LLONG_MIN/-1 = %lld (0x%016llx)\n", o[n], o[n]); n++;
  printf("LLONG_MIN%%-1 = %lld\n", o[n]); n++;
  for (int s = 0; s < 4; s++) {
    printf("int 7 << %d = %d\n", sh[s], (int)o[n]); n++;
    printf("int -7 >> %d = %d\n", sh[s], (int)o[n]); n++;
    printf("unsigned 7 << %d = %u\n", sh[s], (unsigned)o[n]); n++;
    printf("unsigned 0x80000001 >> %d = 0x%08x\n", sh[s], (unsigned)o[n]); n++;
    printf("long long -7 >> %d = %lld\n", sh[s] + 32, o[n]); n++;
    printf("unsigned long long 0x8000000000000001 << %d = 0x%016llx\n", sh[s] + 32, o[n]); n++;
  }
  const char *fs[6] = {"NaN", "+inf", "3e9", "-3e9", "-1.0", "-inf"};
  for (int j = 0; j < 6; j++) {
    printf("float %s -> int %d, unsigned %u, long long %lld, unsigned long long %llu\n", fs[j], (int)o[n], (unsigned)o[n + 1], o[n + 2], (unsigned long long)o[n + 3]); n += 4;
  }
  const char *ds[6] = {"NaN", "+inf", "3e9", "-3e9", "-1.0", "1e20"};
  for (int j = 0; j < 6; j++) {
    printf("double %s -> int %d, unsigned %u, long long %lld, unsigned long long %llu\n", ds[j], (int)o[n], (unsigned)o[n + 1], o[n + 2], (unsigned long long)o[n + 3]); n += 4;
  }
  printf("count %d (device %lld)\n", n, o[NO - 1]);
  return 0;
}
