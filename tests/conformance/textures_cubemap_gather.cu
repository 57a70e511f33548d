// Cubemap and layered-cubemap textures (face selection by the major axis, point and
// linear filtering inside a face), tex2Dgather on float and uchar4 arrays (each
// component, inside and at the clamped edge), tex2DLod/tex2DGrad on a texture without
// mipmaps, and layered and cubemap surfaces written by a kernel and read back through
// surfaces, textures and cudaMemcpy3D. Expected output: nvcc 13, H100.
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorName(e_)); return 1; } } while (0)

const int W = 4;

__global__ void sampleCube(cudaTextureObject_t t, const float3 *dirs, int n, float *out) {
    int i = threadIdx.x;
    if (i < n) out[i] = texCubemap<float>(t, dirs[i].x, dirs[i].y, dirs[i].z);
}
__global__ void sampleCubeLayered(cudaTextureObject_t t, const float3 *dirs, int n, float *out) {
    int i = threadIdx.x;
    if (i < n) out[i] = texCubemapLayered<float>(t, dirs[i].x, dirs[i].y, dirs[i].z, i % 2);
}
__global__ void gatherFloat(cudaTextureObject_t t, const float2 *pts, int n, float4 *out) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex2Dgather<float4>(t, pts[i].x, pts[i].y, 0);
}
__global__ void gatherUchar(cudaTextureObject_t t, const float2 *pts, int n, uchar4 *out) {
    int i = threadIdx.x;
    if (i < n)
        for (int c = 0; c < 4; ++c) out[4 * i + c] = tex2Dgather<uchar4>(t, pts[i].x, pts[i].y, c);
}
__global__ void lodAndGrad(cudaTextureObject_t t, const float2 *pts, int n, float *out) {
    int i = threadIdx.x;
    if (i < n) {
        out[3 * i] = tex2D<float>(t, pts[i].x, pts[i].y);
        out[3 * i + 1] = tex2DLod<float>(t, pts[i].x, pts[i].y, 2.0f);
        out[3 * i + 2] = tex2DGrad<float>(t, pts[i].x, pts[i].y, make_float2(1.0f, 0.0f), make_float2(0.0f, 1.0f));
    }
}
__global__ void writeLayers(cudaSurfaceObject_t s, int layers) {
    int x = threadIdx.x, y = threadIdx.y;
    for (int l = 0; l < layers; ++l) surf2DLayeredwrite<float>(l * 1000.0f + y * 10 + x, s, x * 4, y, l);
}
__global__ void writeCubeFaces(cudaSurfaceObject_t s) {
    int x = threadIdx.x, y = threadIdx.y;
    for (int f = 0; f < 6; ++f) surfCubemapwrite<float>(-(f * 100.0f + y * 10 + x), s, x * 4, y, f);
}
__global__ void readBack(cudaSurfaceObject_t layered, cudaTextureObject_t layeredTex, cudaSurfaceObject_t cube, float *out) {
    out[0] = surf2DLayeredread<float>(layered, 2 * 4, 1, 2);
    out[1] = tex2DLayered<float>(layeredTex, 3.5f, 2.5f, 1);
    out[2] = surfCubemapread<float>(cube, 1 * 4, 3, 5);
}

static cudaTextureObject_t makeTex(cudaArray_t a, bool normalized, cudaTextureFilterMode f, cudaTextureReadMode r) {
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = f;
    td.readMode = r;
    td.normalizedCoords = normalized;
    cudaTextureObject_t t = 0;
    cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
    if (e != cudaSuccess) printf("cudaCreateTextureObject: %s\n", cudaGetErrorName(e));
    return t;
}

static void fillSlices(cudaArray_t a, int slices, float base) {
    float h[12 * W * W];
    for (int s = 0; s < slices; ++s)
        for (int y = 0; y < W; ++y)
            for (int x = 0; x < W; ++x) h[(s * W + y) * W + x] = base + s * 100 + y * 10 + x;
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(h, W * sizeof(float), W, W);
    p.dstArray = a;
    p.extent = make_cudaExtent(W, W, slices);
    p.kind = cudaMemcpyHostToDevice;
    cudaError_t e = cudaMemcpy3D(&p);
    if (e != cudaSuccess) printf("cudaMemcpy3D: %s\n", cudaGetErrorName(e));
}

int main() {
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    // Directions: each face's centre, points inside faces, texel centres.
    float3 hd[] = {{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1},
                   {1, 0.3f, -0.6f}, {-2, 0.5f, 0.25f}, {0.2f, 5, -0.7f}, {0.4f, -1, 0.1f},
                   {-0.3f, 0.6f, 1}, {0.55f, -0.45f, -1}, {1, -0.75f, 0.75f}, {-1, 0.25f, -0.75f},
                   {0.75f, 1, 0.25f}, {-0.25f, -1, -0.75f}, {0.25f, 0.75f, 1}, {-0.75f, -0.25f, -1}};
    const int nd = sizeof(hd) / sizeof(hd[0]);
    float3 *dd;
    float *dout;
    float hout[64];
    CHECK(cudaMalloc(&dd, sizeof(hd)));
    CHECK(cudaMalloc(&dout, 256 * sizeof(float)));
    CHECK(cudaMemcpy(dd, hd, sizeof(hd), cudaMemcpyHostToDevice));

    cudaArray_t cube;
    CHECK(cudaMalloc3DArray(&cube, &fd, make_cudaExtent(W, W, 6), cudaArrayCubemap));
    fillSlices(cube, 6, 0);
    for (int filter = 0; filter < 2; ++filter) {
        cudaTextureObject_t t = makeTex(cube, true, filter ? cudaFilterModeLinear : cudaFilterModePoint, cudaReadModeElementType);
        sampleCube<<<1, 32>>>(t, dd, nd, dout);
        CHECK(cudaMemcpy(hout, dout, nd * sizeof(float), cudaMemcpyDeviceToHost));
        printf("cubemap %s:", filter ? "linear" : "point");
        for (int i = 0; i < nd; ++i) printf(" %g", hout[i]);
        printf("\n");
        cudaDestroyTextureObject(t);
    }

    cudaArray_t cubeLayers;
    CHECK(cudaMalloc3DArray(&cubeLayers, &fd, make_cudaExtent(W, W, 12), cudaArrayCubemap | cudaArrayLayered));
    fillSlices(cubeLayers, 12, 0.5f);
    {
        cudaTextureObject_t t = makeTex(cubeLayers, true, cudaFilterModePoint, cudaReadModeElementType);
        sampleCubeLayered<<<1, 32>>>(t, dd, nd, dout);
        CHECK(cudaMemcpy(hout, dout, nd * sizeof(float), cudaMemcpyDeviceToHost));
        printf("cubemap layered:");
        for (int i = 0; i < nd; ++i) printf(" %g", hout[i]);
        printf("\n");
        cudaDestroyTextureObject(t);
    }

    // Gather and level-of-detail forms on 2D arrays.
    float2 hp[] = {{2.0f, 2.0f}, {1.5f, 2.5f}, {0.2f, 0.3f}, {3.9f, 3.6f}, {2.75f, 1.25f}, {-1.0f, 5.0f}};
    const int np = sizeof(hp) / sizeof(hp[0]);
    float2 *dp;
    CHECK(cudaMalloc(&dp, sizeof(hp)));
    CHECK(cudaMemcpy(dp, hp, sizeof(hp), cudaMemcpyHostToDevice));
    cudaArray_t plane;
    CHECK(cudaMallocArray(&plane, &fd, W, W, cudaArrayTextureGather));
    float hplane[W * W];
    for (int i = 0; i < W * W; ++i) hplane[i] = (float)(i * 3 % 17);
    CHECK(cudaMemcpy2DToArray(plane, 0, 0, hplane, W * sizeof(float), W * sizeof(float), W, cudaMemcpyHostToDevice));
    {
        cudaTextureObject_t t = makeTex(plane, false, cudaFilterModePoint, cudaReadModeElementType);
        float4 *dg;
        float4 hg[np];
        CHECK(cudaMalloc(&dg, sizeof(hg)));
        gatherFloat<<<1, 32>>>(t, dp, np, dg);
        CHECK(cudaMemcpy(hg, dg, sizeof(hg), cudaMemcpyDeviceToHost));
        for (int i = 0; i < np; ++i) printf("gather float (%g,%g): %g %g %g %g\n", hp[i].x, hp[i].y, hg[i].x, hg[i].y, hg[i].z, hg[i].w);
        lodAndGrad<<<1, 32>>>(t, dp, np, dout);
        CHECK(cudaMemcpy(hout, dout, 3 * np * sizeof(float), cudaMemcpyDeviceToHost));
        printf("tex2D/Lod/Grad:");
        for (int i = 0; i < 3 * np; ++i) printf(" %g", hout[i]);
        printf("\n");
        cudaFree(dg);
        cudaDestroyTextureObject(t);
    }
    cudaChannelFormatDesc ud = cudaCreateChannelDesc<uchar4>();
    cudaArray_t rgba;
    CHECK(cudaMallocArray(&rgba, &ud, W, W, cudaArrayTextureGather));
    uchar4 hrgba[W * W];
    for (int i = 0; i < W * W; ++i) hrgba[i] = make_uchar4(i, 100 + i, 200 + i, 250 - i);
    CHECK(cudaMemcpy2DToArray(rgba, 0, 0, hrgba, W * 4, W * 4, W, cudaMemcpyHostToDevice));
    {
        cudaTextureObject_t t = makeTex(rgba, false, cudaFilterModePoint, cudaReadModeElementType);
        uchar4 *dg;
        uchar4 hg[4 * np];
        CHECK(cudaMalloc(&dg, sizeof(hg)));
        gatherUchar<<<1, 32>>>(t, dp, np, dg);
        CHECK(cudaMemcpy(hg, dg, sizeof(hg), cudaMemcpyDeviceToHost));
        for (int i = 0; i < np; ++i) {
            printf("gather uchar4 (%g,%g):", hp[i].x, hp[i].y);
            for (int c = 0; c < 4; ++c) printf(" [%d %d %d %d]", hg[4 * i + c].x, hg[4 * i + c].y, hg[4 * i + c].z, hg[4 * i + c].w);
            printf("\n");
        }
        cudaFree(dg);
        cudaDestroyTextureObject(t);
    }

    // Layered and cubemap surfaces.
    cudaArray_t layers, cubeSurf;
    CHECK(cudaMalloc3DArray(&layers, &fd, make_cudaExtent(W, W, 3), cudaArrayLayered | cudaArraySurfaceLoadStore));
    CHECK(cudaMalloc3DArray(&cubeSurf, &fd, make_cudaExtent(W, W, 6), cudaArrayCubemap | cudaArraySurfaceLoadStore));
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = layers;
    cudaSurfaceObject_t sl, sc;
    CHECK(cudaCreateSurfaceObject(&sl, &rd));
    rd.res.array.array = cubeSurf;
    CHECK(cudaCreateSurfaceObject(&sc, &rd));
    writeLayers<<<1, dim3(W, W)>>>(sl, 3);
    writeCubeFaces<<<1, dim3(W, W)>>>(sc);
    CHECK(cudaGetLastError());
    cudaTextureObject_t lt = makeTex(layers, false, cudaFilterModeLinear, cudaReadModeElementType);
    readBack<<<1, 1>>>(sl, lt, sc, dout);
    CHECK(cudaMemcpy(hout, dout, 3 * sizeof(float), cudaMemcpyDeviceToHost));
    printf("surfaces: %g %g %g\n", hout[0], hout[1], hout[2]);
    float back[6 * W * W];
    cudaMemcpy3DParms p = {};
    p.srcArray = cubeSurf;
    p.dstPtr = make_cudaPitchedPtr(back, W * sizeof(float), W, W);
    p.extent = make_cudaExtent(W, W, 6);
    p.kind = cudaMemcpyDeviceToHost;
    CHECK(cudaMemcpy3D(&p));
    printf("cube faces:");
    for (int f = 0; f < 6; ++f) printf(" %g", back[f * W * W + 2 * W + 3]);
    printf("\n");
    CHECK(cudaDeviceSynchronize());
    printf("done\n");
    return 0;
}
