// Facts: what `nvcc -Xptxas -v` (and --resource-usage) prints for simple kernels.
__constant__ int c[4];
__global__ void plain(float *a, const float *b, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] += b[i] * c[i & 3];
}
__global__ void with_shared(float *a) {
  __shared__ float s[256];
  s[threadIdx.x] = a[threadIdx.x];
  __syncthreads();
  a[threadIdx.x] = s[255 - threadIdx.x];
}
int main() { return 0; }
