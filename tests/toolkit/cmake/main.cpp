// Host code compiled by the C++ compiler, not nvcc: it uses only the runtime API.
#include "scale.h"
#include <cstdio>
#include <vector>

int main() {
    const int n = 1000;
    std::vector<float> x(n), y(n);
    for (int i = 0; i < n; ++i) { x[i] = float(i); y[i] = 2.0f; }
    float *dx = nullptr, *dy = nullptr;
    cudaMalloc(&dx, n * sizeof(float));
    cudaMalloc(&dy, n * sizeof(float));
    cudaMemcpy(dx, x.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    cudaMemcpy(dy, y.data(), n * sizeof(float), cudaMemcpyHostToDevice);
    saxpy_on_device(3.0f, dx, dy, n);  // y = (3x + 2) / 2
    cudaError_t err = cudaMemcpy(y.data(), dy, n * sizeof(float), cudaMemcpyDeviceToHost);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += y[i] != (3.0f * i + 2.0f) * 0.5f;
    cudaFree(dx);
    cudaFree(dy);
    std::printf("saxpy: %s, %d wrong, y[999] = %.1f\n", cudaGetErrorString(err), bad, y[999]);
    return bad != 0 || err != cudaSuccess;
}
