/* Twin of histogram.cu: 256-bin histogram of 16M bytes; each thread counts into its own
 * private histogram, then the private histograms are summed. */
#include <string.h>
#include <omp.h>
#include "../common/bench.h"

#define N (1 << 24)
#define BINS 256
#define REPS 2

static void histogram(const unsigned char *restrict data, int n, unsigned int *restrict hist)
{
    memset(hist, 0, BINS * sizeof(unsigned int));
#pragma omp parallel
    {
        unsigned int local[BINS] = {0};
#pragma omp for schedule(static) nowait
        for (int i = 0; i < n; ++i)
            local[data[i]]++;
        for (int b = 0; b < BINS; ++b) {
#pragma omp atomic
            hist[b] += local[b];
        }
    }
}

int main(void)
{
    unsigned char *data = malloc(N);
    uint32_t s = 9;
    for (int i = 0; i < N; ++i) {
        uint32_t r = bench_rand(&s);
        data[i] = (unsigned char)((r & 0xff) & ((r >> 8) & 0xff));
    }
    unsigned int hist[BINS];
    histogram(data, N, hist); /* warm-up */
    double t0 = omp_get_wtime();
    for (int r = 0; r < REPS; ++r)
        histogram(data, N, hist);
    double ms = (omp_get_wtime() - t0) * 1e3;
    double sum = 0;
    for (int b = 0; b < BINS; ++b) sum += (double)hist[b] * (b + 1);
    bench_report("histogram", ms, sum, 1);
    return 0;
}
