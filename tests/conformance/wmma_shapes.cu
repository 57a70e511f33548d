// Warp matrix functions (nvcuda::wmma): every supported shape and type, both layouts,
// element-wise work on accumulator fragments, satf, and __float_to_tf32.
// Values are small integers (or chosen bit patterns) so that every sum is exact and the
// result does not depend on the order of summation. Expected output from nvcc 13 on an H100.
#include <cstdio>
#include <mma.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
using namespace nvcuda;

template <int M, int N, int K, class TIn, class TAcc, class LA, class LB>
__global__ void gemm(const TIn *a, const TIn *b, const TAcc *c, TAcc *d, int lda, int ldb, int ldc, int ldd, bool c_row, bool d_row, float alpha) {
    wmma::fragment<wmma::matrix_a, M, N, K, TIn, LA> fa;
    wmma::fragment<wmma::matrix_b, M, N, K, TIn, LB> fb;
    wmma::fragment<wmma::accumulator, M, N, K, TAcc> fc, fd;
    wmma::load_matrix_sync(fa, a, lda);
    wmma::load_matrix_sync(fb, b, ldb);
    wmma::load_matrix_sync(fc, c, ldc, c_row ? wmma::mem_row_major : wmma::mem_col_major);
    for (int i = 0; i < fc.num_elements; i++) fc.x[i] = fc.x[i] * (TAcc)alpha;
    wmma::mma_sync(fd, fa, fb, fc);
    wmma::store_matrix_sync(d, fd, ldd, d_row ? wmma::mem_row_major : wmma::mem_col_major);
}

template <class T> T from_int(int v) { return (T)v; }
template <> __half from_int<__half>(int v) { return __float2half((float)v); }
template <> __nv_bfloat16 from_int<__nv_bfloat16>(int v) { return __float2bfloat16((float)v); }
template <class T> double to_double(T v) { return (double)v; }
template <> double to_double<__half>(__half v) { return __half2float(v); }

template <int M, int N, int K, class TIn, class TAcc, class LA, class LB>
void run(const char *name, bool a_row, bool b_row, bool c_row, bool d_row) {
    TIn *a, *b;
    TAcc *c, *d;
    cudaMallocManaged(&a, sizeof(TIn) * M * K);
    cudaMallocManaged(&b, sizeof(TIn) * K * N);
    cudaMallocManaged(&c, sizeof(TAcc) * M * N);
    cudaMallocManaged(&d, sizeof(TAcc) * M * N);
    for (int r = 0; r < M; r++)
        for (int k = 0; k < K; k++) a[a_row ? r * K + k : k * M + r] = from_int<TIn>((r * 3 + k * 5) % 7 - 3);
    for (int k = 0; k < K; k++)
        for (int n = 0; n < N; n++) b[b_row ? k * N + n : n * K + k] = from_int<TIn>((k * 2 + n * 3) % 5 - 2);
    for (int r = 0; r < M; r++)
        for (int n = 0; n < N; n++) c[c_row ? r * N + n : n * M + r] = from_int<TAcc>((r + n) % 4);
    gemm<M, N, K, TIn, TAcc, LA, LB><<<1, 32>>>(a, b, c, d, a_row ? K : M, b_row ? N : K, c_row ? N : M, d_row ? N : M, c_row, d_row, 2.0f);
    cudaError_t e = cudaDeviceSynchronize();
    double sum = 0, wsum = 0;
    for (int r = 0; r < M; r++)
        for (int n = 0; n < N; n++) {
            double v = to_double(d[d_row ? r * N + n : n * M + r]);
            sum += v;
            wsum += v * (r * N + n + 1);
        }
    printf("%-28s %s sum=%.1f weighted=%.1f d[0]=%.1f d[last]=%.1f\n", name, cudaGetErrorString(e), sum, wsum, to_double(d[0]), to_double(d[M * N - 1]));
    cudaFree(a); cudaFree(b); cudaFree(c); cudaFree(d);
}

__global__ void tf32_round(const float *in, float *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = wmma::__float_to_tf32(in[i]);
}

__global__ void tf32_mma(const float *a, const float *b, float *d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 8, wmma::precision::tf32, wmma::row_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 8, float> fc;
    wmma::load_matrix_sync(fa, a, 8);
    wmma::load_matrix_sync(fb, b, 16);
    for (int i = 0; i < fa.num_elements; i++) fa.x[i] = wmma::__float_to_tf32(fa.x[i]);
    for (int i = 0; i < fb.num_elements; i++) fb.x[i] = wmma::__float_to_tf32(fb.x[i]);
    wmma::fill_fragment(fc, 0.0f);
    wmma::mma_sync(fc, fa, fb, fc);
    wmma::store_matrix_sync(d, fc, 16, wmma::mem_row_major);
}

__global__ void satf_int(const signed char *a, const signed char *b, const int *c, int *d) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, signed char, wmma::row_major> fa;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, signed char, wmma::col_major> fb;
    wmma::fragment<wmma::accumulator, 16, 16, 16, int> fc, fs;
    wmma::load_matrix_sync(fa, a, 16);
    wmma::load_matrix_sync(fb, b, 16);
    wmma::load_matrix_sync(fc, c, 16, wmma::mem_row_major);
    wmma::mma_sync(fs, fa, fb, fc, true);
    wmma::store_matrix_sync(d, fs, 16, wmma::mem_row_major);
}

int main() {
    run<16, 16, 16, __half, float, wmma::row_major, wmma::col_major>("half m16n16k16 f32 rc", true, false, true, true);
    run<16, 16, 16, __half, float, wmma::col_major, wmma::row_major>("half m16n16k16 f32 cr", false, true, false, false);
    run<32, 8, 16, __half, float, wmma::row_major, wmma::row_major>("half m32n8k16 f32", true, true, true, false);
    run<8, 32, 16, __half, float, wmma::col_major, wmma::col_major>("half m8n32k16 f32", false, false, false, true);
    run<16, 16, 16, __half, __half, wmma::row_major, wmma::row_major>("half m16n16k16 f16", true, true, true, true);
    run<16, 16, 16, __nv_bfloat16, float, wmma::row_major, wmma::col_major>("bf16 m16n16k16 f32", true, false, true, true);
    run<32, 8, 16, __nv_bfloat16, float, wmma::col_major, wmma::row_major>("bf16 m32n8k16 f32", false, true, true, true);
    run<8, 8, 4, double, double, wmma::row_major, wmma::col_major>("double m8n8k4", true, false, true, true);
    run<8, 8, 4, double, double, wmma::col_major, wmma::row_major>("double m8n8k4 cr", false, true, false, true);
    run<16, 16, 16, signed char, int, wmma::row_major, wmma::col_major>("s8 m16n16k16", true, false, true, true);
    run<32, 8, 16, signed char, int, wmma::row_major, wmma::col_major>("s8 m32n8k16", true, false, false, true);

    // __float_to_tf32: ties, carries into the exponent, Inf, NaN, negative values.
    float in[8] = {1.0f, 1.00048828125f /* 1 + 2^-11: a tie */, 1.000732421875f, 1.0009765625f, 1.99951171875f, -3.0004882f, 1.0f / 0.0f, 3.0e38f};
    float *din, *dout;
    cudaMallocManaged(&din, sizeof(in));
    cudaMallocManaged(&dout, sizeof(in));
    for (int i = 0; i < 8; i++) din[i] = in[i];
    tf32_round<<<1, 32>>>(din, dout, 8);
    cudaDeviceSynchronize();
    for (int i = 0; i < 8; i++) printf("tf32(%a) = %a\n", in[i], dout[i]);

    // tf32 mma: inputs with low mantissa bits, rounded by __float_to_tf32 first.
    float *a, *b, *d;
    cudaMallocManaged(&a, sizeof(float) * 16 * 8);
    cudaMallocManaged(&b, sizeof(float) * 8 * 16);
    cudaMallocManaged(&d, sizeof(float) * 16 * 16);
    for (int i = 0; i < 128; i++) a[i] = (float)(i % 5) + 0.25f;
    for (int i = 0; i < 128; i++) b[i] = (float)(i % 3) - 0.5f;
    tf32_mma<<<1, 32>>>(a, b, d);
    cudaDeviceSynchronize();
    double s = 0;
    for (int i = 0; i < 256; i++) s += d[i] * (i + 1);
    printf("tf32 m16n16k8 weighted=%.4f d[0]=%.4f d[255]=%.4f\n", s, d[0], d[255]);

    // satf with int accumulators: sums past INT_MAX or INT_MIN saturate.
    signed char *sa, *sb;
    int *sc, *sd;
    cudaMallocManaged(&sa, 256);
    cudaMallocManaged(&sb, 256);
    cudaMallocManaged(&sc, 256 * sizeof(int));
    cudaMallocManaged(&sd, 256 * sizeof(int));
    for (int i = 0; i < 256; i++) { sa[i] = i < 128 ? 100 : -100; sb[i] = 100; sc[i] = i % 2 ? 2147483000 : -2147483000; }
    satf_int<<<1, 32>>>(sa, sb, sc, sd);
    cudaDeviceSynchronize();
    printf("satf: d[0]=%d d[1]=%d d[254]=%d d[255]=%d\n", sd[0], sd[1], sd[254], sd[255]);
    printf("done: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
