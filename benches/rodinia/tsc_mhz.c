/* Rodinia's pathfinder reports rdtsc cycles: this measures the time-stamp counter's rate
 * (MHz) against the monotonic clock over 200 ms, to turn its cycles into milliseconds. */
#include <stdint.h>
#include <stdio.h>
#include <time.h>

static uint64_t rdtsc(void)
{
    uint32_t lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return (uint64_t)hi << 32 | lo;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return ts.tv_sec + ts.tv_nsec * 1e-9;
}

int main(void)
{
    double t0 = now();
    uint64_t c0 = rdtsc();
    struct timespec d = {0, 200000000};
    nanosleep(&d, 0);
    double t1 = now();
    uint64_t c1 = rdtsc();
    printf("%.3f\n", (double)(c1 - c0) / (t1 - t0) / 1e6);
    return 0;
}
