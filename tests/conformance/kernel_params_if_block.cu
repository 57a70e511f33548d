// A kernel whose parameter list holds a long `#if` block that the preprocessor drops
// (as Rodinia's mummergpu writes it): g++ -E leaves a line marker inside the list, which
// Cuprite once copied into the host stub's function-pointer type ("stray '#' in
// program"). Parameters before, between and after the dropped blocks must all arrive.
// Expected output: nvcc 13, H100.
#include <cstdio>
#define WITH_TEXTURES 1
#define WITH_HISTOGRAM 0

__global__ void match(int *out,
#if !WITH_TEXTURES
                      const int *nodes,
                      const int *children,
                      const char *ref,
                      int node_count,
                      int child_count,
                      int ref_len,
                      int node_stride,
                      int child_stride,
#endif
                      const int *query,
                      int n,
                      int min_len
#if WITH_HISTOGRAM
                      , int *node_hist,
                      int *child_hist,
                      int hist_len,
                      int hist_stride,
                      int hist_a,
                      int hist_b,
                      int hist_c,
                      int hist_d
#endif
)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = query[i] >= min_len ? query[i] * 10 + i : -1;
}

template <typename T>
__global__ void scale(T *v,
#if !WITH_TEXTURES
                      const T *a,
                      const T *b,
                      const T *c,
                      const T *d,
                      const T *e,
                      const T *f,
                      const T *g,
                      const T *h,
#endif
                      T factor, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        v[i] *= factor;
}

int main()
{
    const int n = 8;
    int hq[n] = {3, 9, 1, 7, 12, 5, 0, 8}, hout[n];
    int *q, *out;
    cudaMalloc(&q, sizeof hq);
    cudaMalloc(&out, sizeof hout);
    cudaMemcpy(q, hq, sizeof hq, cudaMemcpyHostToDevice);
    match<<<2, 4>>>(out, q, n, 5);
    cudaMemcpy(hout, out, sizeof hout, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        printf("match[%d] = %d\n", i, hout[i]);

    float hv[n] = {1, 2, 3, 4, 5, 6, 7, 8};
    float *v;
    cudaMalloc(&v, sizeof hv);
    cudaMemcpy(v, hv, sizeof hv, cudaMemcpyHostToDevice);
    scale<float><<<1, n>>>(v, 2.5f, n);
    cudaMemcpy(hv, v, sizeof hv, cudaMemcpyDeviceToHost);
    for (int i = 0; i < n; i++)
        printf("scale[%d] = %g\n", i, hv[i]);
    cudaError_t e = cudaDeviceSynchronize();
    printf("%s\n", cudaGetErrorString(e));
    return 0;
}
