// -use_fast_math: x / y on floats becomes __fdividef(x, y) (so inf / 1.5*2^126 is NaN,
// where IEEE division gives inf), and sinf, expf, logf, powf become their intrinsics,
// whose values are checked against the CUDA guide's error bounds for the intrinsics.
// Expected output captured with nvcc -use_fast_math on an H100.
#include <cstdio>
#include <cmath>
#include <cstring>

__global__ void ops(const float *in, float *out) {
    float y = in[0], inf = in[1], x = in[2];
    out[0] = inf / y;
    out[1] = 1.0f / y;
    out[2] = 6.0f / 3.0f;
    out[3] = 1.0f / x;
    out[4] = sinf(x);
    out[5] = expf(x);
    out[6] = logf(x);
    out[7] = x / 7.0f;
}

static long long ordinal(float f) { int i; memcpy(&i, &f, 4); return i < 0 ? -(long long)(i & 0x7fffffff) : i; }
static long long ulps(float got, double want) { return llabs(ordinal(got) - ordinal((float)want)); }

int main() {
    float h[3] = {ldexpf(1.5f, 126), INFINITY, 1.25f}, o[8];
    float *d, *dout;
    cudaMalloc(&d, sizeof h); cudaMalloc(&dout, sizeof o);
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    ops<<<1, 1>>>(d, dout);
    cudaMemcpy(o, dout, sizeof o, cudaMemcpyDeviceToHost);
    printf("inf / 1.5*2^126 is NaN: %d\n", o[0] != o[0]);
    printf("1 / 1.5*2^126 = %g\n", o[1]);
    printf("6 / 3 = %g\n", o[2]);
    printf("1 / 1.25 within 2 ulp: %d\n", ulps(o[3], 0.8) <= 2);
    printf("sinf(1.25) within 2^-21.41: %d\n", fabs(o[4] - sin(1.25)) <= exp2(-21.41));
    printf("expf(1.25) within 2 + floor(1.173*1.25) ulp: %d\n", ulps(o[5], exp(1.25)) <= 3);
    printf("logf(1.25) within 2^-21.41: %d\n", fabs(o[6] - log(1.25)) <= exp2(-21.41));
    printf("1.25 / 7 within 2 ulp: %d\n", ulps(o[7], 1.25 / 7.0) <= 2);
    return 0;
}
