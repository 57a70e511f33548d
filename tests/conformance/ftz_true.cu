// -ftz=true: single-precision subnormal operands and results flush to zero (sign kept),
// double precision is untouched. Expected output captured with nvcc -ftz=true on an H100.
#include "ftz_probe.inc"
