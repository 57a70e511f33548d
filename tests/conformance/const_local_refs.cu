// A const local initialized by a constant stays an object: a reference binds to it (not
// to a temporary), `auto&&` deduces an lvalue reference, and its address is its own.
// Expected output captured with nvcc 13 on an H100.
#include <cstdio>
#include <cuda_runtime.h>

__global__ void refs(int *out)
{
    const int cx = 5;
    const int &r = cx;
    auto &&q = cx;
    const int *pc = &cx;
    out[0] = (&r == &cx);
    out[1] = (&q == pc);
    out[2] = r + q + *pc;
    const float cf = 2.5f;
    const float &rf = cf;
    out[3] = (&rf == &cf);
    out[4] = (int)(rf * 4.0f);
    int arr[cx];
    for (int i = 0; i < cx; ++i) arr[i] = i * cx;
    out[5] = arr[4];
}

int main()
{
    int *d, h[6];
    cudaMalloc(&d, sizeof h);
    refs<<<1, 1>>>(d);
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 6; ++i) printf("%d\n", h[i]);
    return 0;
}
