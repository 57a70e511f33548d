// Facts: nvcc's diagnostic for more than 64 KiB of __constant__ data.
__constant__ float table[16385];
__global__ void use_table(float *out) { out[threadIdx.x] = table[threadIdx.x]; }
int main() { return 0; }
