// Grid-stride loops (Cuprite runs them as uniform loops over the threads still iterating)
// and barrier-free kernels with an early return (one vectorised thread loop): trip counts
// that differ between threads and blocks, threads that never enter, a count-down loop,
// locals set inside the loop and read after it, a uniform counter in the loop, a
// divergent if in the body, colliding shared-memory atomics in the loop, a 5-point stencil
// whose border threads return early. Every result is checked against the host and printed.
// Expected output: nvcc 13.0 on an H100 (-arch=sm_90); each result is also checked
// against the host computation and prints "ok".
#include <cstdio>
#include <cstdlib>

#define CHECK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { printf("error %d at %d\n", (int)e, __LINE__); return 1; } } while (0)

__global__ void strided_sum(const int *in, int n, int *partial, int *iters)
{
    __shared__ int buf[128];
    int sum = 0, count = 0, last = -1;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        if (in[i] & 1)
            sum += in[i];
        else
            sum -= in[i] / 2;
        ++count;
        last = i;
    }
    int t = blockIdx.x * blockDim.x + threadIdx.x;
    iters[t] = count * 100000 + (last < 0 ? 99999 : last % 100000);
    buf[threadIdx.x] = sum;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s)
            buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0)
        partial[blockIdx.x] = buf[0];
}

// Counts down from the thread's last element; a uniform counter k in the loop. (The
// barrier makes Cuprite plan the kernel around uniform control flow.)
__global__ void count_down(int *out, int n)
{
    __syncthreads();
    int stride = blockDim.x * gridDim.x;
    int k = 0;
    for (int i = n - 1 - (int)(blockIdx.x * blockDim.x + threadIdx.x); i >= 0; i -= stride) {
        out[i] = k * 1000 + (int)threadIdx.x;
        k++;
    }
}

__global__ void shared_histogram(const unsigned char *data, int n, unsigned int *hist)
{
    __shared__ unsigned int local[64];
    for (int b = threadIdx.x; b < 64; b += blockDim.x)
        local[b] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        atomicAdd(&local[data[i] & 63], 1u);
    __syncthreads();
    for (int b = threadIdx.x; b < 64; b += blockDim.x)
        atomicAdd(&hist[b], local[b]);
}

__global__ void stencil(const float *in, float *out, int w, int h)
{
    int x = blockIdx.x * blockDim.x + threadIdx.x;
    int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1)
        return;
    int i = y * w + x;
    out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - w] + in[i + w]) - in[i];
}

int main()
{
    // strided_sum: 3 blocks of 128 threads over n elements, several n.
    const int blocks = 3, threads = 128, total = blocks * threads;
    int ns[] = {1000, 384, 100, 1537};
    int *din, *dpart, *diters;
    CHECK(cudaMalloc(&din, 2000 * sizeof(int)));
    CHECK(cudaMalloc(&dpart, blocks * sizeof(int)));
    CHECK(cudaMalloc(&diters, total * sizeof(int)));
    int *h = (int *)malloc(2000 * sizeof(int));
    for (int i = 0; i < 2000; ++i) h[i] = (i * 37 + 11) % 101 - 50;
    CHECK(cudaMemcpy(din, h, 2000 * sizeof(int), cudaMemcpyHostToDevice));
    for (int c = 0; c < 4; ++c) {
        int n = ns[c];
        strided_sum<<<blocks, threads>>>(din, n, dpart, diters);
        CHECK(cudaGetLastError());
        int part[blocks], iters[total];
        CHECK(cudaMemcpy(part, dpart, sizeof part, cudaMemcpyDeviceToHost));
        CHECK(cudaMemcpy(iters, diters, sizeof iters, cudaMemcpyDeviceToHost));
        long long want = 0, got = 0, isum = 0;
        int ok = 1;
        for (int i = 0; i < n; ++i) want += (h[i] & 1) ? h[i] : -(h[i] / 2);
        for (int b = 0; b < blocks; ++b) got += part[b];
        for (int t = 0; t < total; ++t) {
            int count = 0, last = -1;
            for (int i = t; i < n; i += total) { ++count; last = i; }
            if (iters[t] != count * 100000 + (last < 0 ? 99999 : last % 100000)) ok = 0;
            isum += iters[t];
        }
        printf("strided_sum n=%d: sum %lld (host %lld) partials %d %d %d iters %lld %s\n", n, got, want, part[0], part[1], part[2],
               isum, ok ? "ok" : "WRONG");
    }

    // count_down: 2 blocks of 96 over 1000 elements.
    int *dout;
    CHECK(cudaMalloc(&dout, 1000 * sizeof(int)));
    count_down<<<2, 96>>>(dout, 1000);
    int out[1000];
    CHECK(cudaMemcpy(out, dout, sizeof out, cudaMemcpyDeviceToHost));
    long long cs = 0;
    int ok = 1;
    for (int i = 0; i < 1000; ++i) {
        int t = 999 - i; // the thread (global index) that wrote element i, in round k
        int k = t / 192, g = t % 192;
        if (out[i] != k * 1000 + g % 96) ok = 0;
        cs += (long long)out[i] * (i % 7 + 1);
    }
    printf("count_down: checksum %lld %s, out[0]=%d out[999]=%d\n", cs, ok ? "ok" : "WRONG", out[0], out[999]);

    // shared_histogram: 4 blocks of 64 threads, skewed data (many collisions).
    const int hn = 5000;
    unsigned char *data = (unsigned char *)malloc(hn), *ddata;
    for (int i = 0; i < hn; ++i) data[i] = (unsigned char)((i * 7) % 13 == 0 ? 5 : (i * i) % 251);
    unsigned int *dhist;
    CHECK(cudaMalloc(&ddata, hn));
    CHECK(cudaMalloc(&dhist, 64 * sizeof(unsigned int)));
    CHECK(cudaMemcpy(ddata, data, hn, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dhist, 0, 64 * sizeof(unsigned int)));
    shared_histogram<<<4, 64>>>(ddata, hn, dhist);
    unsigned int hist[64], want[64] = {0};
    CHECK(cudaMemcpy(hist, dhist, sizeof hist, cudaMemcpyDeviceToHost));
    for (int i = 0; i < hn; ++i) want[data[i] & 63]++;
    ok = 1;
    for (int b = 0; b < 64; ++b) ok &= hist[b] == want[b];
    printf("shared_histogram: bin5 %u bin0 %u bin63 %u %s\n", hist[5], hist[0], hist[63], ok ? "ok" : "WRONG");

    // stencil: 70x45 grid (not a multiple of the 16x8 blocks).
    const int w = 70, hh = 45;
    float *a = (float *)malloc(w * hh * sizeof(float)), *b = (float *)malloc(w * hh * sizeof(float));
    for (int i = 0; i < w * hh; ++i) a[i] = (float)((i * 13) % 17);
    float *da, *db;
    CHECK(cudaMalloc(&da, w * hh * sizeof(float)));
    CHECK(cudaMalloc(&db, w * hh * sizeof(float)));
    CHECK(cudaMemcpy(da, a, w * hh * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemset(db, 0, w * hh * sizeof(float)));
    stencil<<<dim3((w + 15) / 16, (hh + 7) / 8), dim3(16, 8)>>>(da, db, w, hh);
    CHECK(cudaMemcpy(b, db, w * hh * sizeof(float), cudaMemcpyDeviceToHost));
    ok = 1;
    double ssum = 0;
    for (int y = 0; y < hh; ++y)
        for (int x = 0; x < w; ++x) {
            int i = y * w + x;
            float e = (x < 1 || y < 1 || x >= w - 1 || y >= hh - 1) ? 0.0f : 0.25f * (a[i - 1] + a[i + 1] + a[i - w] + a[i + w]) - a[i];
            if (b[i] != e) ok = 0;
            ssum += b[i];
        }
    printf("stencil: sum %.2f b[71]=%.2f %s\n", ssum, b[71], ok ? "ok" : "WRONG");
    return 0;
}
