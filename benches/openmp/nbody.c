/* Twin of nbody.cu: all-pairs n-body, one step for 8K bodies. Bodies over threads, the
 * inner loop over all bodies a SIMD reduction over structure-of-arrays positions. */
#include <math.h>
#include <omp.h>
#include "../common/bench.h"

#define N 8192
#define SOFT 0.01f
#define DT 0.001f

static void nbody_step(const float *restrict x, const float *restrict y, const float *restrict z,
                       const float *restrict m, float *restrict vx, float *restrict vy,
                       float *restrict vz, float *restrict nx, float *restrict ny, float *restrict nz, int n)
{
#pragma omp parallel for schedule(static)
    for (int i = 0; i < n; ++i) {
        float px = x[i], py = y[i], pz = z[i];
        float ax = 0.0f, ay = 0.0f, az = 0.0f;
#pragma omp simd reduction(+ : ax, ay, az)
        for (int j = 0; j < n; ++j) {
            float dx = x[j] - px, dy = y[j] - py, dz = z[j] - pz;
            float d2 = dx * dx + dy * dy + dz * dz + SOFT;
            float inv = 1.0f / sqrtf(d2);
            float s = m[j] * inv * inv * inv;
            ax += dx * s;
            ay += dy * s;
            az += dz * s;
        }
        vx[i] += ax * DT;
        vy[i] += ay * DT;
        vz[i] += az * DT;
        nx[i] = px + vx[i] * DT;
        ny[i] = py + vy[i] * DT;
        nz[i] = pz + vz[i] * DT;
    }
}

int main(void)
{
    float *a = malloc(10 * N * sizeof(float));
    float *x = a, *y = a + N, *z = a + 2 * N, *m = a + 3 * N, *vx = a + 4 * N, *vy = a + 5 * N,
          *vz = a + 6 * N, *nx = a + 7 * N, *ny = a + 8 * N, *nz = a + 9 * N;
    uint32_t s = 17;
    for (int i = 0; i < N; ++i) {
        x[i] = bench_below(&s, 2001) / 1000.0f - 1.0f;
        y[i] = bench_below(&s, 2001) / 1000.0f - 1.0f;
        z[i] = bench_below(&s, 2001) / 1000.0f - 1.0f;
        m[i] = 1.0f + bench_below(&s, 100) / 100.0f;
    }
    for (int i = 0; i < N; ++i) vx[i] = vy[i] = vz[i] = 0.0f;
    nbody_step(x, y, z, m, vx, vy, vz, nx, ny, nz, N); /* warm-up */
    for (int i = 0; i < N; ++i) vx[i] = vy[i] = vz[i] = 0.0f;
    double t0 = omp_get_wtime();
    nbody_step(x, y, z, m, vx, vy, vz, nx, ny, nz, N);
    double ms = (omp_get_wtime() - t0) * 1e3;
    double sum = 0;
    for (int i = 0; i < N; ++i) sum += fabs(vx[i]) + fabs(vy[i]) + fabs(vz[i]);
    bench_report("nbody", ms, sum, 1);
    return 0;
}
