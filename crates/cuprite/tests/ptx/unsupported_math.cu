// The PTX back-end names what it cannot translate yet, with its position.
__global__ void k(float *x) { x[0] = expf(x[0]); }
