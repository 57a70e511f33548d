// k-means assignment step: 1M points with 16 features, 32 centroids; each thread finds its
// point's nearest centroid (squared distance, lowest index wins ties). The centroids sit in
// shared memory; the points are stored feature-major, as Rodinia's kmeans does.
#include "../common/cuda_check.h"

#define NPTS (1 << 20)
#define DIM 16
#define K 32
#define REPS 1

__global__ void assign(const float *points, const float *centroids, int *membership, int n)
{
    __shared__ float c[K * DIM];
    for (int i = threadIdx.x; i < K * DIM; i += blockDim.x)
        c[i] = centroids[i];
    __syncthreads();
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n)
        return;
    int best = 0;
    float best_d = 3.0e38f;
    for (int k = 0; k < K; ++k) {
        float d = 0.0f;
        for (int f = 0; f < DIM; ++f) {
            float diff = points[f * n + p] - c[k * DIM + f];
            d += diff * diff;
        }
        if (d < best_d) {
            best_d = d;
            best = k;
        }
    }
    membership[p] = best;
}

int main()
{
    float *pts = (float *)malloc((size_t)NPTS * DIM * sizeof(float)), cen[K * DIM];
    int *got = (int *)malloc(NPTS * sizeof(int));
    uint32_t s = 31;
    for (size_t i = 0; i < (size_t)NPTS * DIM; ++i) pts[i] = (float)bench_below(&s, 64);
    for (int i = 0; i < K * DIM; ++i) cen[i] = (float)bench_below(&s, 64);
    float *dpts, *dcen;
    int *dmem;
    CHECK(cudaMalloc(&dpts, (size_t)NPTS * DIM * sizeof(float)));
    CHECK(cudaMalloc(&dcen, sizeof cen));
    CHECK(cudaMalloc(&dmem, NPTS * sizeof(int)));
    CHECK(cudaMemcpy(dpts, pts, (size_t)NPTS * DIM * sizeof(float), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dcen, cen, sizeof cen, cudaMemcpyHostToDevice));
    assign<<<NPTS / 256, 256>>>(dpts, dcen, dmem, NPTS); // warm-up
    BenchTimer t;
    t.begin();
    for (int r = 0; r < REPS; ++r)
        assign<<<NPTS / 256, 256>>>(dpts, dcen, dmem, NPTS);
    double ms = t.end();
    CHECK(cudaMemcpy(got, dmem, NPTS * sizeof(int), cudaMemcpyDeviceToHost));
    int ok = 1;
    double sum = 0;
    for (int p = 0; p < NPTS; ++p) {
        int best = 0;
        float best_d = 3.0e38f;
        for (int k = 0; k < K; ++k) {
            float d = 0.0f; // exact: integer-valued features
            for (int f = 0; f < DIM; ++f) {
                float diff = pts[(size_t)f * NPTS + p] - cen[k * DIM + f];
                d += diff * diff;
            }
            if (d < best_d) { best_d = d; best = k; }
        }
        if (got[p] != best) ok = 0;
        sum += (double)got[p] * (p % 5 + 1);
    }
    bench_report("kmeans", ms, sum, ok);
    return ok ? 0 : 1;
}
