// error_api: cudaGetErrorName / cudaGetErrorString for a range of error codes, the
// errors returned by misused runtime calls (bad copy direction, freeing a bad pointer,
// copying past the end of a symbol, a device that does not exist), and how they set
// the non-sticky last error.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cstdlib>

__device__ int sym[4];

static void show(const char *what, cudaError_t e) {
  cudaError_t last = cudaGetLastError();
  printf("%-36s -> %d %s \"%s\" (last error: %s)\n", what, (int)e, cudaGetErrorName(e), cudaGetErrorString(e), cudaGetErrorName(last));
}

int main() {
  int codes[] = {0, 1, 2, 3, 9, 11, 98, 100, 101, 200, 209, 217, 400, 500, 700, 710, 719, 999};
  for (int c : codes) printf("%4d %s: %s\n", c, cudaGetErrorName((cudaError_t)c), cudaGetErrorString((cudaError_t)c));
  printf("named: %s %s %s %s\n", cudaGetErrorName(cudaErrorInvalidConfiguration), cudaGetErrorName(cudaErrorLaunchOutOfResources),
         cudaGetErrorName(cudaErrorIllegalAddress), cudaGetErrorName(cudaErrorNotReady));
  int *d, h[8] = {0};
  cudaMalloc(&d, 64);
  show("cudaMemcpy kind 7", cudaMemcpy(h, d, 16, (cudaMemcpyKind)7));
  show("cudaFree(host pointer)", cudaFree(h));
  show("cudaFree(NULL)", cudaFree(NULL));
  show("cudaMemcpyToSymbol past the end", cudaMemcpyToSymbol(sym, h, 5 * sizeof(int)));
  show("cudaMemcpyToSymbol offset past end", cudaMemcpyToSymbol(sym, h, sizeof(int), 4 * sizeof(int)));
  show("cudaMemcpyToSymbol in bounds", cudaMemcpyToSymbol(sym, h, 4 * sizeof(int)));
  show("cudaSetDevice(5)", cudaSetDevice(5));
  show("cudaMalloc(NULL, 4)", cudaMalloc((void **)NULL, 4));
  show("cudaMemset(NULL, 0, 4)", cudaMemset(NULL, 0, 4));
  show("cudaDeviceSynchronize", cudaDeviceSynchronize());
  cudaSetDevice(5);
  printf("peek: %s, get: %s, get again: %s\n", cudaGetErrorName(cudaPeekAtLastError()), cudaGetErrorName(cudaGetLastError()), cudaGetErrorName(cudaGetLastError()));
  show("cudaFree(d)", cudaFree(d));
  return 0;
}
