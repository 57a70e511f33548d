// scan_work_efficient: the work-efficient (up-sweep / down-sweep) block scan in shared
// memory, several blocks, block totals scanned recursively and added back; and the same
// tree written with its accesses in other orders (each lane reads an element another lane
// of the same step never writes: `offset*(2t+1)-1` against `offset*(2t+2)-1`), with a
// thread that stores the block total and clears it after the up-sweep's last step in the
// same barrier interval (a lane reading what another lane wrote: that order is kept).
// Also an inclusive Hillis-Steele scan through two buffers, whose steps read neighbours
// `d` elements below.
// Expected output captured from nvcc 13.0 on an H100 (session 7); each line's mismatch
// count is the program's own check against a serial scan on the host.
#include <cstdio>

#define THREADS 128
#define ELEMS (2 * THREADS)

__global__ void scan_blocks(const int *in, int *out, int *block_sums, int n) {
  __shared__ int buf[ELEMS];
  int base = blockIdx.x * ELEMS, t = threadIdx.x;
  buf[2 * t] = base + 2 * t < n ? in[base + 2 * t] : 0;
  buf[2 * t + 1] = base + 2 * t + 1 < n ? in[base + 2 * t + 1] : 0;
  int offset = 1;
  for (int d = ELEMS / 2; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
      buf[b] += buf[a];
    }
    offset *= 2;
  }
  if (t == 0) {
    if (block_sums) block_sums[blockIdx.x] = buf[ELEMS - 1];
    buf[ELEMS - 1] = 0;
  }
  for (int d = 1; d < ELEMS; d *= 2) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
      int x = buf[a];
      buf[a] = buf[b];
      buf[b] += x;
    }
  }
  __syncthreads();
  if (base + 2 * t < n) out[base + 2 * t] = buf[2 * t];
  if (base + 2 * t + 1 < n) out[base + 2 * t + 1] = buf[2 * t + 1];
}

__global__ void add_offsets(int *out, const int *offsets, int n) {
  int i = blockIdx.x * ELEMS + threadIdx.x;
  int add = offsets[blockIdx.x];
  if (i < n) out[i] += add;
  if (i + THREADS < n) out[i + THREADS] += add;
}

// The down-sweep's swap with the stores first and the reads spelled through unsigned
// indices; the up-sweep's add through a pointer.
__global__ void scan_reordered(int *data) {
  __shared__ int buf[ELEMS];
  unsigned t = threadIdx.x;
  buf[t] = data[blockIdx.x * ELEMS + t];
  buf[t + THREADS] = data[blockIdx.x * ELEMS + THREADS + t];
  unsigned offset = 1;
  for (unsigned d = ELEMS / 2; d > 0; d >>= 1) {
    __syncthreads();
    if (t < d) {
      int *pb = &buf[offset * (2 * t + 2) - 1];
      *pb = *pb + buf[offset * (2 * t + 1) - 1];
    }
    offset <<= 1;
  }
  __syncthreads();
  if (t == 0) buf[ELEMS - 1] = 0;
  for (unsigned d = 1; d < ELEMS; d <<= 1) {
    offset >>= 1;
    __syncthreads();
    if (t < d) {
      unsigned a = offset * (2 * t + 1) - 1, b = a + offset;
      int left = buf[a], right = buf[b];
      buf[b] = left + right;
      buf[a] = right;
    }
  }
  __syncthreads();
  data[blockIdx.x * ELEMS + t] = buf[t];
  data[blockIdx.x * ELEMS + THREADS + t] = buf[t + THREADS];
}

__global__ void scan_hillis_steele(const int *in, int *out) {
  __shared__ int buf[2][THREADS];
  int t = threadIdx.x, cur = 0;
  buf[0][t] = in[blockIdx.x * THREADS + t];
  __syncthreads();
  for (int d = 1; d < THREADS; d *= 2) {
    buf[1 - cur][t] = buf[cur][t] + (t >= d ? buf[cur][t - d] : 0);
    cur = 1 - cur;
    __syncthreads();
  }
  out[blockIdx.x * THREADS + t] = buf[cur][t];
}

static void scan(const int *in, int *out, int n, int **sums, int **scans, int level) {
  int blocks = (n + ELEMS - 1) / ELEMS;
  if (blocks == 1) {
    scan_blocks<<<1, THREADS>>>(in, out, nullptr, n);
    return;
  }
  scan_blocks<<<blocks, THREADS>>>(in, out, sums[level], n);
  scan(sums[level], scans[level], blocks, sums, scans, level + 1);
  add_offsets<<<blocks, THREADS>>>(out, scans[level], n);
}

int main() {
  const int n = 100000; // not a multiple of a block's 256 elements
  int *h = new int[n], *got = new int[n];
  unsigned s = 7;
  for (int i = 0; i < n; i++) {
    s = s * 1103515245u + 12345u;
    h[i] = (int)((s >> 16) % 21) - 10;
  }
  int *din, *dout, *sums[4], *scans[4];
  cudaMalloc(&din, n * sizeof(int));
  cudaMalloc(&dout, n * sizeof(int));
  for (int l = 0; l < 4; l++) {
    cudaMalloc(&sums[l], 1024 * sizeof(int));
    cudaMalloc(&scans[l], 1024 * sizeof(int));
  }
  cudaMemcpy(din, h, n * sizeof(int), cudaMemcpyHostToDevice);
  scan(din, dout, n, sums, scans, 0);
  cudaMemcpy(got, dout, n * sizeof(int), cudaMemcpyDeviceToHost);
  int bad = 0, run = 0;
  long long weighted = 0;
  for (int i = 0; i < n; i++) {
    bad += got[i] != run;
    run += h[i];
    weighted += (long long)got[i] * (i % 7);
  }
  printf("exclusive scan of %d: last %d, weighted %lld, mismatches %d\n", n, got[n - 1], weighted, bad);

  const int blocks = 40;
  cudaMemcpy(dout, h, blocks * ELEMS * sizeof(int), cudaMemcpyHostToDevice);
  scan_reordered<<<blocks, THREADS>>>(dout);
  cudaMemcpy(got, dout, blocks * ELEMS * sizeof(int), cudaMemcpyDeviceToHost);
  bad = 0;
  weighted = 0;
  for (int b = 0; b < blocks; b++) {
    run = 0;
    for (int i = 0; i < ELEMS; i++) {
      bad += got[b * ELEMS + i] != run;
      run += h[b * ELEMS + i];
      weighted += (long long)got[b * ELEMS + i] * (i % 5);
    }
  }
  printf("reordered: block 0 ends %d, block 39 ends %d, weighted %lld, mismatches %d\n", got[ELEMS - 1],
         got[blocks * ELEMS - 1], weighted, bad);

  scan_hillis_steele<<<blocks, THREADS>>>(din, dout);
  cudaMemcpy(got, dout, blocks * THREADS * sizeof(int), cudaMemcpyDeviceToHost);
  bad = 0;
  weighted = 0;
  for (int b = 0; b < blocks; b++) {
    run = 0;
    for (int i = 0; i < THREADS; i++) {
      run += h[b * THREADS + i];
      bad += got[b * THREADS + i] != run;
      weighted += (long long)got[b * THREADS + i] * (i % 3);
    }
  }
  printf("hillis-steele: block 0 ends %d, weighted %lld, mismatches %d\n", got[THREADS - 1], weighted, bad);
  printf("status: %s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  return 0;
}
