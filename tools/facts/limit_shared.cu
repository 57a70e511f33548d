// Facts: nvcc's diagnostic for a kernel with more than 48 KiB of static shared memory.
__global__ void big_shared(float *out) {
  __shared__ float s[12289];
  s[threadIdx.x] = 1.0f;
  __syncthreads();
  out[threadIdx.x] = s[threadIdx.x + 1];
}
int main() { return 0; }
