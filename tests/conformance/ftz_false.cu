// -ftz=false (the default): the same probe keeps subnormals. Expected output captured
// with nvcc on an H100.
#include "ftz_probe.inc"
