// Every cudaError_t value 0..1000, 10000: value \t name \t string.
#include <cstdio>
static void one(int v) {
  const char *n = cudaGetErrorName((cudaError_t)v);
  const char *s = cudaGetErrorString((cudaError_t)v);
  printf("%d\t%s\t%s\n", v, n ? n : "(null)", s ? s : "(null)");
}
int main() {
  for (int v = 0; v <= 1000; v++) one(v);
  one(10000);
  one(-1);
  one(100000);
  return 0;
}
