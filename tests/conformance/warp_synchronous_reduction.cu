// warp_synchronous_reduction: the reduction of the CUDA 4.2 Programming Guide's era
// (sections 5.4.3 and D.2.1.2): a shared-memory tree with __syncthreads() down to 64
// values, then the last warp finishes without barriers through a `volatile` pointer,
// relying on the 32 lanes of a warp executing each statement together. Float and int
// forms, the int form in a __device__ function called by the kernel, a warp-synchronous
// inclusive scan that reads lower lanes (loads of all lanes before their stores), and the
// same reduction through volatile global memory.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA GPU (tools/nvcc-capture.sh).
#include <cstdio>

#define THREADS 256

__global__ void reduce_float(const float *in, float *out, unsigned n) {
  __shared__ float sdata[THREADS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  sdata[tid] = i < n ? in[i] : 0.0f;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) {
    volatile float *smem = sdata;
    smem[tid] += smem[tid + 32];
    smem[tid] += smem[tid + 16];
    smem[tid] += smem[tid + 8];
    smem[tid] += smem[tid + 4];
    smem[tid] += smem[tid + 2];
    smem[tid] += smem[tid + 1];
  }
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

__device__ void warpReduce(volatile int *sdata, unsigned tid) {
  sdata[tid] += sdata[tid + 32];
  sdata[tid] += sdata[tid + 16];
  sdata[tid] += sdata[tid + 8];
  sdata[tid] += sdata[tid + 4];
  sdata[tid] += sdata[tid + 2];
  sdata[tid] += sdata[tid + 1];
}

__global__ void reduce_int(const int *in, int *out, unsigned n) {
  __shared__ int sdata[THREADS];
  unsigned tid = threadIdx.x;
  unsigned i = blockIdx.x * (blockDim.x * 2) + threadIdx.x;
  int v = 0;
  if (i < n) v += in[i];
  if (i + blockDim.x < n) v += in[i + blockDim.x];
  sdata[tid] = v;
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 32; s >>= 1) {
    if (tid < s) sdata[tid] += sdata[tid + s];
    __syncthreads();
  }
  if (tid < 32) warpReduce(sdata, tid);
  if (tid == 0) out[blockIdx.x] = sdata[0];
}

// Inclusive scan of each warp's 32 values, warp-synchronous (no barriers): each step
// reads a lower lane's value, which only a lock-step warp reads before it is updated.
__global__ void scan_warps(const int *in, int *out) {
  __shared__ int s[THREADS];
  unsigned tid = threadIdx.x;
  unsigned lane = tid & 31;
  volatile int *vs = s;
  vs[tid] = in[blockIdx.x * blockDim.x + tid];
  if (lane >= 1) vs[tid] = vs[tid] + vs[tid - 1];
  if (lane >= 2) vs[tid] = vs[tid] + vs[tid - 2];
  if (lane >= 4) vs[tid] = vs[tid] + vs[tid - 4];
  if (lane >= 8) vs[tid] = vs[tid] + vs[tid - 8];
  if (lane >= 16) vs[tid] = vs[tid] + vs[tid - 16];
  out[blockIdx.x * blockDim.x + tid] = vs[tid];
}

// The same warp-level reduction over a per-block slice of global memory.
__global__ void reduce_global(int *data, int *out) {
  unsigned tid = threadIdx.x;
  volatile int *g = data + blockIdx.x * 64;
  if (tid < 32) {
    g[tid] += g[tid + 32];
    g[tid] += g[tid + 16];
    g[tid] += g[tid + 8];
    g[tid] += g[tid + 4];
    g[tid] += g[tid + 2];
    g[tid] += g[tid + 1];
    if (tid == 0) out[blockIdx.x] = g[0];
  }
}

int main() {
  const unsigned n = 3 * THREADS * 2 + 77;
  float *hf = new float[n];
  int *hi = new int[n];
  double fsum = 0;
  long long isum = 0;
  for (unsigned i = 0; i < n; i++) {
    hf[i] = (float)((i * 37u) % 101u);
    hi[i] = (int)((i * 53u) % 97u) - 40;
    fsum += hf[i];
    isum += hi[i];
  }
  float *df, *dfo;
  int *di, *dio;
  unsigned fblocks = (n + THREADS - 1) / THREADS;
  unsigned iblocks = (n + 2 * THREADS - 1) / (2 * THREADS);
  cudaMalloc(&df, n * sizeof(float));
  cudaMalloc(&dfo, fblocks * sizeof(float));
  cudaMalloc(&di, n * sizeof(int));
  cudaMalloc(&dio, fblocks * sizeof(int));
  cudaMemcpy(df, hf, n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(di, hi, n * sizeof(int), cudaMemcpyHostToDevice);

  reduce_float<<<fblocks, THREADS>>>(df, dfo, n);
  float *pf = new float[fblocks];
  cudaMemcpy(pf, dfo, fblocks * sizeof(float), cudaMemcpyDeviceToHost);
  double gf = 0;
  for (unsigned b = 0; b < fblocks; b++) {
    printf("float block %u: %.1f\n", b, pf[b]);
    gf += pf[b];
  }
  printf("float sum: %.1f (host %.1f)\n", gf, fsum);

  reduce_int<<<iblocks, THREADS>>>(di, dio, n);
  int *pi = new int[fblocks];
  cudaMemcpy(pi, dio, iblocks * sizeof(int), cudaMemcpyDeviceToHost);
  long long gi = 0;
  for (unsigned b = 0; b < iblocks; b++) {
    printf("int block %u: %d\n", b, pi[b]);
    gi += pi[b];
  }
  printf("int sum: %lld (host %lld)\n", gi, isum);

  int *scan_in, *scan_out;
  const unsigned sn = 2 * THREADS;
  cudaMalloc(&scan_in, sn * sizeof(int));
  cudaMalloc(&scan_out, sn * sizeof(int));
  cudaMemcpy(scan_in, hi, sn * sizeof(int), cudaMemcpyHostToDevice);
  scan_warps<<<2, THREADS>>>(scan_in, scan_out);
  int *hs = new int[sn];
  cudaMemcpy(hs, scan_out, sn * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0, run = 0;
  for (unsigned i = 0; i < sn; i++) {
    run = (i % 32 == 0) ? hi[i] : run + hi[i];
    if (hs[i] != run) bad++;
  }
  printf("scan: lanes 0..7 of warp 3: %d %d %d %d %d %d %d %d; last of warp 15: %d; mismatches: %d\n",
         hs[96], hs[97], hs[98], hs[99], hs[100], hs[101], hs[102], hs[103], hs[511], bad);

  int *gdata, *gout;
  cudaMalloc(&gdata, 4 * 64 * sizeof(int));
  cudaMalloc(&gout, 4 * sizeof(int));
  cudaMemcpy(gdata, hi, 4 * 64 * sizeof(int), cudaMemcpyHostToDevice);
  reduce_global<<<4, 64>>>(gdata, gout);
  int hg[4];
  cudaMemcpy(hg, gout, sizeof hg, cudaMemcpyDeviceToHost);
  for (int b = 0; b < 4; b++) {
    int want = 0;
    for (int k = 0; k < 64; k++) want += hi[b * 64 + k];
    printf("global block %d: %d (host %d)\n", b, hg[b], want);
  }
  cudaError_t e = cudaDeviceSynchronize();
  printf("status: %s\n", cudaGetErrorString(e));
  return 0;
}
