// control_flow: goto (forward and backward), switch with fallthrough and default,
// do/while, while with break/continue, nested loops with labelled exits, the comma
// operator, the ternary operator, short-circuit evaluation, bit-fields, compound
// assignment operators, pre/post increment, and integer promotion rules.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>

struct Flags { unsigned a : 3; unsigned b : 5; int c : 4; unsigned d : 1; };

__device__ int classify(int x) {
  int r = 0;
  switch (x % 6) {
    case 0: r += 1;          // fallthrough
    case 1: r += 10; break;
    case 2:
    case 3: r += 100;        // fallthrough
    default: r += 1000; break;
    case 5: r = -1;
  }
  return r;
}

__device__ int gotos(int n) {
  int i = 0, acc = 0;
again:
  if (i >= n) goto done;
  acc += i * i;
  i++;
  goto again;
done:
  return acc;
}

__device__ int side = 0;
__device__ int bump(int v) { atomicAdd(&side, 1); return v; }

__global__ void k(int *out, int n) {
  int t = threadIdx.x;
  int *o = out + t * 12;
  o[0] = classify(t);
  o[1] = gotos(t);
  int j = 0, s = 0;
  do { s += j; j += 3; } while (j < t);
  o[2] = s;
  int w = 0, cnt = 0;
  while (1) {
    w++;
    if (w % 3 == 0) continue;
    cnt += w;
    if (w > t) break;
  }
  o[3] = cnt;
  int found = -1;
  for (int a = 0; a < 10; a++)
    for (int b = 0; b < 10; b++)
      if (a * b == t + 20) { found = a * 10 + b; goto out_of_loops; }
out_of_loops:
  o[4] = found;
  int c = (t++, t * 2);    // comma operator
  o[5] = c;
  o[6] = t > 4 ? (t > 8 ? 2 : 1) : 0;
  int z = 0;
  if (t < 3 && bump(1)) z |= 1;       // short-circuit: bump only when t < 3
  if (t >= 3 || bump(0)) z |= 2;
  o[7] = z;
  Flags f;
  f.a = t; f.b = t * 3; f.c = (t % 8) - 8; f.d = t;
  o[8] = f.a + f.b * 10 + f.c * 1000 + f.d * 100000;
  int x = t; x += 5; x *= 3; x -= 2; x /= 2; x %= 7; x <<= 3; x >>= 1; x &= 0xff; x |= 0x100; x ^= 0x55;
  o[9] = x;
  int p = t; int q = p++; q += ++p; o[10] = q * 100 + p;
  unsigned char uc = 200; signed char sc = -100;
  o[11] = uc + sc + (unsigned char)(uc * 2) + (sizeof(uc + sc) == sizeof(int));
}

int main() {
  const int n = 12;
  int *d, h[n * 12], side_h = 0;
  cudaMalloc(&d, sizeof(h));
  k<<<1, n>>>(d, n);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpyFromSymbol(&side_h, side, sizeof(int));
  for (int t = 0; t < n; t++) {
    printf("t=%2d:", t);
    for (int i = 0; i < 12; i++) printf(" %d", h[t * 12 + i]);
    printf("\n");
  }
  printf("side effects: %d\n", side_h);
  return 0;
}
