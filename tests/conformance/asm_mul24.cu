// mul24/mad24 in inline PTX (the 24-bit multiplies of PTX 1.x code, which CUDA's own
// __mul24/__umul24 intrinsics also name): only the low 24 bits of each operand count,
// sign-extended for .s32; .lo keeps bits 0-31 of the 48-bit product, .hi bits 16-47.
// Expected output captured from nvcc 13 on an H100.
#include <cstdio>

__global__ void k(const int *a, const int *b, const int *c, int *out, int n) {
    int i = threadIdx.x;
    if (i >= n) return;
    int r0, r1, r2, r3;
    unsigned u0, u1, u2;
    asm("mul24.lo.s32 %0, %1, %2;" : "=r"(r0) : "r"(a[i]), "r"(b[i]));
    asm("mul24.hi.s32 %0, %1, %2;" : "=r"(r1) : "r"(a[i]), "r"(b[i]));
    asm("mad24.lo.s32 %0, %1, %2, %3;" : "=r"(r2) : "r"(a[i]), "r"(b[i]), "r"(c[i]));
    asm("mad24.hi.s32 %0, %1, %2, %3;" : "=r"(r3) : "r"(a[i]), "r"(b[i]), "r"(c[i]));
    asm("mul24.lo.u32 %0, %1, %2;" : "=r"(u0) : "r"(a[i]), "r"(b[i]));
    asm("mul24.hi.u32 %0, %1, %2;" : "=r"(u1) : "r"(a[i]), "r"(b[i]));
    asm("mad24.lo.u32 %0, %1, %2, %3;" : "=r"(u2) : "r"(a[i]), "r"(b[i]), "r"(c[i]));
    int *o = out + 8 * i;
    o[0] = r0; o[1] = r1; o[2] = r2; o[3] = r3; o[4] = u0; o[5] = u1; o[6] = u2;
    o[7] = __mul24(a[i], b[i]) ^ (int)__umul24(a[i], b[i]);
}

int main() {
    const int n = 8;
    int a[n] = {3, -5, 0x00FFFFFF, 0x7FFFFFFF, 0x12345678, -1, 0x00800000, 123456};
    int b[n] = {7, 9, 3, 2, -0x1234567, -1, 0x00800000, 654321};
    int c[n] = {1, -100, 5, 0x7FFFFFFF, 42, 0, -1, 17};
    int *da, *db, *dc, *dout, out[8 * n];
    cudaMalloc(&da, sizeof a); cudaMalloc(&db, sizeof b); cudaMalloc(&dc, sizeof c); cudaMalloc(&dout, sizeof out);
    cudaMemcpy(da, a, sizeof a, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, sizeof b, cudaMemcpyHostToDevice);
    cudaMemcpy(dc, c, sizeof c, cudaMemcpyHostToDevice);
    k<<<1, 32>>>(da, db, dc, dout, n);
    cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++) {
        const int *o = out + 8 * i;
        printf("%d %d: %d %d %d %d %u %u %u %d\n", a[i], b[i], o[0], o[1], o[2], o[3], (unsigned)o[4], (unsigned)o[5], (unsigned)o[6], o[7]);
    }
    return 0;
}
