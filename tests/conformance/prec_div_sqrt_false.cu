// -prec-div=false -prec-sqrt=false: division, reciprocal and square root may be
// approximate, within the CUDA Programming Guide's bounds (x/y 2 ulp, 1/x 1 ulp, sqrtf 1
// ulp); __fdividef(x, y) gives 0 for 2^126 < |y| < 2^128 (NaN for infinite x) while x/y
// stays correct there. The program counts results within those bounds against a
// double-precision reference and prints the documented special cases. Expected output
// captured with nvcc -prec-div=false -prec-sqrt=false on an H100.
#include <cstdio>
#include <cmath>
#include <cstring>

__global__ void ops(const float *a, const float *b, float *q, float *r, float *s, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) {
        q[i] = a[i] / b[i];
        r[i] = 1.0f / b[i];
        s[i] = sqrtf(a[i]);
    }
}

__global__ void specials(const float *big, float *out) {
    float y = big[0], inf = big[1];
    out[0] = 1.0f / y;
    out[1] = __fdividef(1.0f, y);
    out[2] = __fdividef(inf, y);
    out[3] = 3.0f / y;
    out[4] = __fdividef(6.0f, 3.0f);
}

static long long ordinal(float f) { int i; memcpy(&i, &f, 4); return i < 0 ? -(long long)(i & 0x7fffffff) : i; }
static long long ulps(float got, double want) { return llabs(ordinal(got) - ordinal((float)want)); }

int main() {
    const int n = 100000;
    float *a = new float[n], *b = new float[n], *q = new float[n], *r = new float[n], *s = new float[n];
    unsigned x = 12345;
    for (int i = 0; i < n; i++) {
        x = x * 1664525u + 1013904223u; a[i] = ldexpf(1.0f + (x >> 8) / 16777216.0f, (int)(x % 200) - 100);
        x = x * 1664525u + 1013904223u; b[i] = ldexpf(1.0f + (x >> 8) / 16777216.0f, (int)(x % 200) - 100);
        if (x & 1) b[i] = -b[i];
    }
    float *da, *db, *dq, *dr, *ds;
    cudaMalloc(&da, n * 4); cudaMalloc(&db, n * 4); cudaMalloc(&dq, n * 4); cudaMalloc(&dr, n * 4); cudaMalloc(&ds, n * 4);
    cudaMemcpy(da, a, n * 4, cudaMemcpyHostToDevice);
    cudaMemcpy(db, b, n * 4, cudaMemcpyHostToDevice);
    ops<<<(n + 255) / 256, 256>>>(da, db, dq, dr, ds, n);
    cudaMemcpy(q, dq, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(r, dr, n * 4, cudaMemcpyDeviceToHost);
    cudaMemcpy(s, ds, n * 4, cudaMemcpyDeviceToHost);
    int qok = 0, rok = 0, sok = 0;
    for (int i = 0; i < n; i++) {
        qok += ulps(q[i], (double)a[i] / b[i]) <= 2;
        rok += ulps(r[i], 1.0 / b[i]) <= 1;
        sok += ulps(s[i], sqrt((double)a[i])) <= 1;
    }
    printf("x/y within 2 ulp: %d of %d\n", qok, n);
    printf("1/x within 1 ulp: %d of %d\n", rok, n);
    printf("sqrtf within 1 ulp: %d of %d\n", sok, n);
    float hb[2] = {ldexpf(1.5f, 126), INFINITY}, ho[5];
    float *dbig, *dout;
    cudaMalloc(&dbig, 8); cudaMalloc(&dout, 20);
    cudaMemcpy(dbig, hb, 8, cudaMemcpyHostToDevice);
    specials<<<1, 1>>>(dbig, dout);
    cudaMemcpy(ho, dout, 20, cudaMemcpyDeviceToHost);
    printf("1/1.5*2^126 within 1 ulp: %d\n", ulps(ho[0], 1.0 / hb[0]) <= 1);
    printf("__fdividef(1, 1.5*2^126) = %g\n", ho[1]);
    printf("__fdividef(inf, 1.5*2^126) is NaN: %d\n", ho[2] != ho[2]);
    printf("3/1.5*2^126 within 2 ulp: %d\n", ulps(ho[3], 3.0 / hb[0]) <= 2);
    printf("__fdividef(6, 3) = %g\n", ho[4]);
    return 0;
}
