// -use_fast_math implies -ftz=true: the same probe under it. Expected output captured
// with nvcc -use_fast_math on an H100.
#include "ftz_probe.inc"
