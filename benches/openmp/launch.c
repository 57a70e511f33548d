/* Twin of launch.cu: the OpenMP equivalent of an empty launch + synchronisation, an empty
 * parallel-for region (fork, one empty iteration per thread, join); median of 2000. */
#include <omp.h>
#include "../common/bench.h"

#define ROUNDS 2000

static int cmp(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return (x > y) - (x < y);
}

int main(void)
{
    static double us[ROUNDS];
    volatile int sink = 0;
#pragma omp parallel
    sink = 1;
    for (int r = 0; r < ROUNDS; ++r) {
        double t0 = omp_get_wtime();
#pragma omp parallel for schedule(static)
        for (int i = 0; i < omp_get_num_threads(); ++i)
            sink = i;
        us[r] = (omp_get_wtime() - t0) * 1e6;
    }
    qsort(us, ROUNDS, sizeof us[0], cmp);
    printf("BENCH launch us=%.2f\n", us[ROUNDS / 2]);
    return 0;
}
