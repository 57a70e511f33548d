// half_warp_atomics: warp shuffles (__shfl_sync, _up_, _down_, _xor_, with widths) of
// __half, __half2, __nv_bfloat16 and __nv_bfloat162; atomicAdd on all four types in
// global and shared memory (both halves of a 32-bit word, exact sums); __ldg of them;
// a half2 dot product reduced through shared memory with the C++ operators and with the
// intrinsics (as cuda-samples' fp16ScalarProduct does) and a shuffle reduction.
// Expected output: nvcc 13 -arch=sm_90 on an H100.
#include <cstdio>
#include <cstdlib>
#include <cuda_fp16.h>
#include <cuda_bf16.h>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("CUDA error %s at %d\n", cudaGetErrorString(e), __LINE__); exit(1); } } while (0)

__global__ void k_shuffles(unsigned int *out) {
    int lane = threadIdx.x;
    __half h = __float2half(lane * 0.5f + 0.25f);
    __half2 h2 = __floats2half2_rn(lane, -lane * 0.125f);
    __nv_bfloat16 b = __float2bfloat16(lane * 3.0f - 7.0f);
    __nv_bfloat162 b2 = __floats2bfloat162_rn(lane * 0.0625f, 100.0f + lane);
    unsigned int full = 0xffffffffu;
    int k = 0;
    unsigned int *o = out + lane * 24;
    o[k++] = __half_as_ushort(__shfl_sync(full, h, 5));
    o[k++] = __half_as_ushort(__shfl_sync(full, h, lane + 3, 8));
    o[k++] = __half_as_ushort(__shfl_up_sync(full, h, 3));
    o[k++] = __half_as_ushort(__shfl_up_sync(full, h, 2, 16));
    o[k++] = __half_as_ushort(__shfl_down_sync(full, h, 4));
    o[k++] = __half_as_ushort(__shfl_xor_sync(full, h, 9));
    __half2 r;
    r = __shfl_sync(full, h2, 31 - lane); o[k++] = __half_as_ushort(r.x) | ((unsigned)__half_as_ushort(r.y) << 16);
    r = __shfl_up_sync(full, h2, 1); o[k++] = __half_as_ushort(r.x) | ((unsigned)__half_as_ushort(r.y) << 16);
    r = __shfl_down_sync(full, h2, 7, 16); o[k++] = __half_as_ushort(r.x) | ((unsigned)__half_as_ushort(r.y) << 16);
    r = __shfl_xor_sync(full, h2, 16); o[k++] = __half_as_ushort(r.x) | ((unsigned)__half_as_ushort(r.y) << 16);
    o[k++] = __bfloat16_as_ushort(__shfl_sync(full, b, 30));
    o[k++] = __bfloat16_as_ushort(__shfl_up_sync(full, b, 5));
    o[k++] = __bfloat16_as_ushort(__shfl_down_sync(full, b, 1, 4));
    o[k++] = __bfloat16_as_ushort(__shfl_xor_sync(full, b, 3));
    __nv_bfloat162 s;
    s = __shfl_sync(full, b2, lane / 2); o[k++] = __bfloat16_as_ushort(s.x) | ((unsigned)__bfloat16_as_ushort(s.y) << 16);
    s = __shfl_up_sync(full, b2, 8); o[k++] = __bfloat16_as_ushort(s.x) | ((unsigned)__bfloat16_as_ushort(s.y) << 16);
    s = __shfl_down_sync(full, b2, 2); o[k++] = __bfloat16_as_ushort(s.x) | ((unsigned)__bfloat16_as_ushort(s.y) << 16);
    s = __shfl_xor_sync(full, b2, 5, 8); o[k++] = __bfloat16_as_ushort(s.x) | ((unsigned)__bfloat16_as_ushort(s.y) << 16);
    // A butterfly sum of halves: exact (quarters up to 256).
    __half sum = h;
    for (int d = 16; d > 0; d /= 2) sum = __hadd(sum, __shfl_xor_sync(full, sum, d));
    o[k++] = __half_as_ushort(sum);
    __nv_bfloat16 bsum = __float2bfloat16((float)(lane & 7));
    for (int d = 16; d > 0; d /= 2) bsum = bsum + __shfl_xor_sync(full, bsum, d);
    o[k++] = __bfloat16_as_ushort(bsum);
    o[k++] = 0;
    o[k++] = 0;
    o[k++] = 0;
    o[k++] = 0;
}

__global__ void k_atomics(__half *gh, __half2 *gh2, __nv_bfloat16 *gb, __nv_bfloat162 *gb2, unsigned int *old_sum) {
    __shared__ __half sh[4];
    __shared__ __half2 sh2;
    __shared__ __nv_bfloat16 sb[2];
    __shared__ __nv_bfloat162 sb2;
    int t = threadIdx.x;
    if (t == 0) {
        for (int i = 0; i < 4; i++) sh[i] = __float2half(0.0f);
        sh2 = __floats2half2_rn(0.0f, 0.0f);
        sb[0] = sb[1] = __float2bfloat16(0.0f);
        sb2 = __floats2bfloat162_rn(0.0f, 0.0f);
    }
    __syncthreads();
    __half one = __float2half(1.0f);
    __half old = atomicAdd(&gh[t & 3], one);
    atomicAdd(&gh[4 + (t & 1)], __float2half(0.25f));
    atomicAdd(gh2, __floats2half2_rn(1.0f, 0.5f));
    atomicAdd(&gb[t & 1], __float2bfloat16(2.0f));
    atomicAdd(gb2, __floats2bfloat162_rn(0.5f, 1.0f));
    atomicAdd(&sh[t & 3], one);
    atomicAdd(&sh2, __floats2half2_rn(-1.0f, 0.25f));
    atomicAdd(&sb[t & 1], __float2bfloat16(1.0f));
    atomicAdd(&sb2, __floats2bfloat162_rn(1.0f, -0.5f));
    // Each old value is distinct per slot: their sum is the same in every order.
    atomicAdd(old_sum, (unsigned int)__half2float(old));
    __syncthreads();
    if (t == 0) {
        for (int i = 0; i < 4; i++) gh[8 + i] = sh[i];
        gh2[1] = sh2;
        gb[2] = sb[0];
        gb[3] = sb[1];
        gb2[1] = sb2;
    }
}

__global__ void k_ldg(const __half *h, const __half2 *h2, const __nv_bfloat16 *b, const __nv_bfloat162 *b2, float *out) {
    int t = threadIdx.x;
    out[t] = __half2float(__ldg(&h[t])) + __low2float(__ldg(&h2[t])) * 10.0f + __bfloat162float(__ldg(&b[t])) * 100.0f +
             __high2float(__ldg(&b2[t])) * 1000.0f;
}

#define THREADS 128
__global__ void k_dot(const __half2 *a, const __half2 *b, float *results, int n) {
    __shared__ __half2 sa[THREADS], sb[THREADS];
    __half2 v1 = __float2half2_rn(0.0f);
    __half2 v2(0.0f, 0.0f);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += gridDim.x * blockDim.x) {
        v1 = __hfma2(a[i], b[i], v1);
        v2 = a[i] * b[i] + v2;
    }
    sa[threadIdx.x] = v1;
    sb[threadIdx.x] = v2;
    __syncthreads();
    for (int s = THREADS / 2; s > 0; s /= 2) {
        if (threadIdx.x < s) {
            sa[threadIdx.x] = __hadd2(sa[threadIdx.x], sa[threadIdx.x + s]);
            sb[threadIdx.x] = sb[threadIdx.x] + sb[threadIdx.x + s];
        }
        __syncthreads();
    }
    if (threadIdx.x == 0) {
        results[2 * blockIdx.x] = __low2float(sa[0]) + __high2float(sa[0]);
        results[2 * blockIdx.x + 1] = (float)sb[0].x + (float)sb[0].y;
    }
}

int main() {
    unsigned int *d_sh, sh[32 * 24];
    CHECK(cudaMalloc(&d_sh, sizeof sh));
    k_shuffles<<<1, 32>>>(d_sh);
    CHECK(cudaGetLastError());
    CHECK(cudaMemcpy(sh, d_sh, sizeof sh, cudaMemcpyDeviceToHost));
    for (int lane = 0; lane < 32; lane += 3) {
        printf("lane %2d:", lane);
        for (int k = 0; k < 20; k++) printf(" %x", sh[lane * 24 + k]);
        printf("\n");
    }

    __half *gh; __half2 *gh2; __nv_bfloat16 *gb; __nv_bfloat162 *gb2; unsigned int *old_sum;
    CHECK(cudaMalloc(&gh, 12 * sizeof(__half)));
    CHECK(cudaMalloc(&gh2, 2 * sizeof(__half2)));
    CHECK(cudaMalloc(&gb, 4 * sizeof(__nv_bfloat16)));
    CHECK(cudaMalloc(&gb2, 2 * sizeof(__nv_bfloat162)));
    CHECK(cudaMalloc(&old_sum, 4));
    CHECK(cudaMemset(gh, 0, 12 * sizeof(__half)));
    CHECK(cudaMemset(gh2, 0, 2 * sizeof(__half2)));
    CHECK(cudaMemset(gb, 0, 4 * sizeof(__nv_bfloat16)));
    CHECK(cudaMemset(gb2, 0, 2 * sizeof(__nv_bfloat162)));
    CHECK(cudaMemset(old_sum, 0, 4));
    for (int rep = 0; rep < 4; rep++) k_atomics<<<1, 200>>>(gh, gh2, gb, gb2, old_sum);
    CHECK(cudaGetLastError());
    unsigned short hh[12], bb[4];
    unsigned int hh2[2], bb2[2], os;
    CHECK(cudaMemcpy(hh, gh, sizeof hh, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(hh2, gh2, sizeof hh2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bb, gb, sizeof bb, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(bb2, gb2, sizeof bb2, cudaMemcpyDeviceToHost));
    CHECK(cudaMemcpy(&os, old_sum, 4, cudaMemcpyDeviceToHost));
    printf("atomic half:");
    for (int i = 0; i < 12; i++) printf(" %04x", hh[i]);
    printf("\natomic half2: %08x %08x\natomic bf16: %04x %04x %04x %04x\natomic bf162: %08x %08x\nold values sum %u\n", hh2[0],
           hh2[1], bb[0], bb[1], bb[2], bb[3], bb2[0], bb2[1], os);

    // __ldg
    __half hv[32]; __half2 hv2[32]; __nv_bfloat16 bv[32]; __nv_bfloat162 bv2[32];
    for (int i = 0; i < 32; i++) {
        hv[i] = __float2half(i * 0.5f);
        hv2[i] = __floats2half2_rn(i, -i);
        bv[i] = __float2bfloat16(i * 2.0f);
        bv2[i] = __floats2bfloat162_rn(-i, i * 0.25f);
    }
    __half *dh; __half2 *dh2; __nv_bfloat16 *db; __nv_bfloat162 *db2; float *dout, out[32];
    CHECK(cudaMalloc(&dh, sizeof hv)); CHECK(cudaMalloc(&dh2, sizeof hv2));
    CHECK(cudaMalloc(&db, sizeof bv)); CHECK(cudaMalloc(&db2, sizeof bv2));
    CHECK(cudaMalloc(&dout, sizeof out));
    CHECK(cudaMemcpy(dh, hv, sizeof hv, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dh2, hv2, sizeof hv2, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db, bv, sizeof bv, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(db2, bv2, sizeof bv2, cudaMemcpyHostToDevice));
    k_ldg<<<1, 32>>>(dh, dh2, db, db2, dout);
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    printf("ldg: %g %g %g %g\n", out[0], out[1], out[17], out[31]);

    // Dot product of small integers (exact in half2).
    const int n = 64 * THREADS * 4;
    __half2 *a = (__half2 *)malloc(n * sizeof(__half2)), *b = (__half2 *)malloc(n * sizeof(__half2));
    unsigned int seed = 1;
    for (int i = 0; i < n; i++) {
        seed = seed * 1103515245u + 12345u;
        a[i] = __floats2half2_rn((float)((seed >> 16) % 2), (float)((seed >> 20) % 2));
        seed = seed * 1103515245u + 12345u;
        b[i] = __floats2half2_rn((float)((seed >> 16) % 2), (float)((seed >> 20) % 2));
    }
    __half2 *da, *dbv; float *dres, res[128];
    CHECK(cudaMalloc(&da, n * sizeof(__half2))); CHECK(cudaMalloc(&dbv, n * sizeof(__half2)));
    CHECK(cudaMalloc(&dres, sizeof res));
    CHECK(cudaMemcpy(da, a, n * sizeof(__half2), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dbv, b, n * sizeof(__half2), cudaMemcpyHostToDevice));
    k_dot<<<64, THREADS>>>(da, dbv, dres, n);
    CHECK(cudaMemcpy(res, dres, sizeof res, cudaMemcpyDeviceToHost));
    float s1 = 0, s2 = 0;
    for (int i = 0; i < 64; i++) { s1 += res[2 * i]; s2 += res[2 * i + 1]; }
    printf("dot intrinsics %.1f operators %.1f\n", s1, s2);
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
