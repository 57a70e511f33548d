/* LD_PRELOAD shim for programs that seed their random numbers with time(0)
   (Rodinia's particlefilter): time() returns a fixed value, so that a Cuprite run and
   an nvcc run see the same seeds. */
#include <time.h>
time_t time(time_t *t) { if (t) *t = 1700000000; return 1700000000; }
