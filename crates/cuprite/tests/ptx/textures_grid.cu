// Textures, surfaces and a grid barrier for the PTX back-end (ptx_backend.rs).
#include <cooperative_groups.h>

__global__ void fetch(cudaTextureObject_t t, cudaTextureObject_t ti, cudaSurfaceObject_t s, float *out, int *iout) {
    int i = threadIdx.x;
    float4 v = tex2D<float4>(t, i + 0.5f, 0.5f);
    out[i] = v.x + tex2DLod<float>(t, 0.5f, 0.5f, 1.0f) + tex2DGrad<float>(t, 0.5f, 0.5f, make_float2(1, 0), make_float2(0, 1));
    uchar4 g = tex2Dgather<uchar4>(ti, 0.5f, 0.5f, 1);
    iout[i] = tex1Dfetch<int>(ti, i) + g.x + tex2DLayered<float>(t, 0.5f, 0.5f, 2);
    surf2Dwrite(out[i], s, i * 4, 0, cudaBoundaryModeZero);
    unsigned char c = surf2Dread<unsigned char>(s, i, 1);
    surf2DLayeredwrite<float>(c, s, i * 4, 0, 3);
}

__global__ void grid_wide(int *x) {
    x[blockIdx.x] = 1;
    cooperative_groups::this_grid().sync();
    x[blockIdx.x] += x[(blockIdx.x + 1) % gridDim.x];
}
