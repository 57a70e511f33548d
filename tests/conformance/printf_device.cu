// printf_device: device printf with many conversions (d i u x X o c s f e g a p, flags,
// width, precision, length modifiers, %%), from one thread, and from several blocks in
// separate launches so that the order is deterministic.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

__global__ void formats(int i, unsigned u, long long ll, float f, double d, const char *s) {
  printf("int: %d %i %5d|%-5d|%05d %+d % d\n", i, i, i, i, i, i, i);
  printf("unsigned: %u %x %X %#x %o %#o\n", u, u, u, u, u, u);
  printf("long long: %lld %llu %llx\n", ll, (unsigned long long)ll, (unsigned long long)ll);
  printf("long: %ld %lu\n", (long)i * 100000L, (unsigned long)u);
  printf("float: %f %.2f %10.3f|%-10.1f|%e %.3E %g %G\n", f, f, f, f, f, f, f, f);
  printf("double: %f %.12f %e %g %g %g\n", d, d, d, d, d * 1e10, d * 1e-10);
  printf("hex float: %a\n", 1.0);
  printf("char: %c%c%c [%3c]\n", 'a', 'b', 99, 'z');
  printf("string: [%s] [%8s] [%-8s] [%.2s]\n", s, s, s, s);
  printf("pointer: %p\n", (void *)0xabc0);
  printf("percent: 100%%\n");
  printf("special: %f %f %f\n", 1.0 / (d - d), -1.0 / (d - d), (d - d) / (d - d) * 0.0 + (d - d) / (d - d));
  printf("width star: [%*d]\n", 6, i);
  printf("no args\n");
  printf("%d %d %d %d %d %d %d %d %d %d %d %d\n", 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12);
}

__global__ void from_block(int tag) {
  if (threadIdx.x == 3)
    printf("block %d of %d, thread %d, tag %d\n", blockIdx.x, gridDim.x, threadIdx.x, tag);
}

__global__ void one_thread_loop(int n) {
  for (int k = 0; k < n; k++) printf("line %d: %d squared is %d\n", k, k, k * k);
}

int main() {
  char *ds;
  const char hs[] = "cuprite";
  cudaMalloc(&ds, sizeof(hs));
  cudaMemcpy(ds, hs, sizeof(hs), cudaMemcpyHostToDevice);
  formats<<<1, 1>>>(-42, 3735928559u, -9876543210LL, 3.14159f, 2.718281828459045, ds);
  cudaDeviceSynchronize();
  for (int b = 0; b < 4; b++) {
    from_block<<<1, 8>>>(b);        // one launch per block: deterministic order
    cudaDeviceSynchronize();
  }
  one_thread_loop<<<1, 1>>>(5);
  cudaDeviceSynchronize();
  printf("host: done\n");
  return 0;
}
