// mipmap_textures: the parts of tests/pending-capture/mipmap_textures.cu whose H100 output
// Cuprite equals bit for bit; the expected output is that capture's, with the lines of the
// removed parts deleted (nothing else in the program depends on them). Removed, still
// differing (see tests/pending-capture/README.md): level selection from gradients
// (tex*Grad: the H100 measures gradient lengths with its own approximation), bilinear
// filtering within both levels of a linear mipmap blend of 2D content (a few ties
// round differently) and trilinear filtering within a 3D level.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (session 6).
// Mipmapped arrays: cudaMallocMipmappedArray (level counts, 1D/2D/3D/layered/cubemap),
// cudaGetMipmappedArrayLevel (extents, flags), copies to levels, surfaces over a level,
// texture objects over a mipmapped array (cudaResourceTypeMipmappedArray) and how
// tex*Lod / tex*Grad / tex2D select and filter between levels with mipmapFilterMode,
// mipmapLevelBias, min/maxMipmapLevelClamp and maxAnisotropy. Levels filled with their
// own index show the level (and the inter-level weight) the texture unit chose.
#include <cstdio>
#include <cuda_runtime.h>

#define E(call) printf("%-60s %s\n", #call, cudaGetErrorName(call)); cudaGetLastError()
#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorName(e_)); return 1; } } while (0)

struct Probe { float x, y, z, lod; float4 dx, dy; };
enum Kind { LOD2, GRAD2, PLAIN2, LOD1, GRAD1, LOD3, LAYERED_LOD, CUBE_LOD };

__global__ void sample(cudaTextureObject_t t, Kind k, const Probe *p, int n, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Probe q = p[i];
    float r = 0;
    switch (k) {
    case LOD2: r = tex2DLod<float>(t, q.x, q.y, q.lod); break;
    case GRAD2: r = tex2DGrad<float>(t, q.x, q.y, make_float2(q.dx.x, q.dx.y), make_float2(q.dy.x, q.dy.y)); break;
    case PLAIN2: r = tex2D<float>(t, q.x, q.y); break;
    case LOD1: r = tex1DLod<float>(t, q.x, q.lod); break;
    case GRAD1: r = tex1DGrad<float>(t, q.x, q.dx.x, q.dy.x); break;
    case LOD3: r = tex3DLod<float>(t, q.x, q.y, q.z, q.lod); break;
    case LAYERED_LOD: r = tex2DLayeredLod<float>(t, q.x, q.y, (int)q.z, q.lod); break;
    case CUBE_LOD: r = texCubemapLod<float>(t, q.x, q.y, q.z, q.lod); break;
    }
    out[i] = r;
}
__global__ void sampleUchar4(cudaTextureObject_t t, const Probe *p, int n, float4 *out) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex2DLod<float4>(t, p[i].x, p[i].y, p[i].lod);
}
__global__ void writeLevel(cudaSurfaceObject_t s, int w, int h) {
    int x = threadIdx.x, y = threadIdx.y;
    if (x < w && y < h) surf2Dwrite(1000.0f + 10 * y + x, s, x * 4, y);
}

static Probe *dprobes;
static float *dout;
static void run(cudaTextureObject_t t, Kind k, const Probe *p, int n, float *res) {
    if (!t) { printf("run: no texture\n"); for (int i = 0; i < n; ++i) res[i] = -1; return; }
    cudaMemcpy(dprobes, p, n * sizeof(Probe), cudaMemcpyHostToDevice);
    sample<<<(n + 127) / 128, 128>>>(t, k, dprobes, n, dout);
    cudaError_t e = cudaMemcpy(res, dout, n * sizeof(float), cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) printf("run: %s\n", cudaGetErrorName(e));
}
static Probe lodp(float x, float y, float lod) { Probe p = {}; p.x = x; p.y = y; p.lod = lod; return p; }
static Probe gradp(float x, float y, float dxx, float dxy, float dyx, float dyy) {
    Probe p = {}; p.x = x; p.y = y; p.dx = make_float4(dxx, dxy, 0, 0); p.dy = make_float4(dyx, dyy, 0, 0); return p;
}

static cudaTextureObject_t mipTex(cudaMipmappedArray_t m, int filter, int mipFilter, float bias, float minC, float maxC,
                                  unsigned aniso, bool norm = true, cudaTextureReadMode rm = cudaReadModeElementType) {
    if (!m) return 0;
    cudaResourceDesc rd = {};
    rd.resType = cudaResourceTypeMipmappedArray;
    rd.res.mipmap.mipmap = m;
    cudaTextureDesc td = {};
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = (cudaTextureFilterMode)filter;
    td.mipmapFilterMode = (cudaTextureFilterMode)mipFilter;
    td.readMode = rm;
    td.normalizedCoords = norm;
    td.mipmapLevelBias = bias;
    td.minMipmapLevelClamp = minC;
    td.maxMipmapLevelClamp = maxC;
    td.maxAnisotropy = aniso;
    cudaTextureObject_t t = 0;
    cudaError_t e = cudaCreateTextureObject(&t, &rd, &td, nullptr);
    if (e != cudaSuccess) printf("cudaCreateTextureObject: %s\n", cudaGetErrorName(e));
    return t;
}

// Fills every level of a float mipmapped array: value(level, x, y, z).
template <class F> static void fill(cudaMipmappedArray_t m, int levels, F value) {
    if (!m) { printf("fill: no array\n"); return; }
    for (int l = 0; l < levels; ++l) {
        cudaArray_t a;
        cudaGetMipmappedArrayLevel(&a, m, l);
        cudaChannelFormatDesc d; cudaExtent e; unsigned fl;
        cudaArrayGetInfo(&d, &e, &fl, a);
        size_t w = e.width, h = e.height ? e.height : 1, dp = e.depth ? e.depth : 1;
        float *buf = new float[w * h * dp];
        for (size_t z = 0; z < dp; ++z) for (size_t y = 0; y < h; ++y) for (size_t x = 0; x < w; ++x)
            buf[(z * h + y) * w + x] = value(l, (int)x, (int)y, (int)z);
        cudaMemcpy3DParms p = {};
        p.srcPtr = make_cudaPitchedPtr(buf, w * 4, w, h);
        p.dstArray = a;
        p.extent = make_cudaExtent(w, h, dp);
        p.kind = cudaMemcpyHostToDevice;
        cudaError_t err = cudaMemcpy3D(&p);
        if (err != cudaSuccess) printf("fill level %d: %s\n", l, cudaGetErrorName(err));
        delete[] buf;
    }
}

static void printLevels(const char *what, cudaMipmappedArray_t m, int n) {
    if (!m) { printf("%s: no array\n", what); return; }
    printf("%s:", what);
    for (int l = 0; l < n; ++l) {
        cudaArray_t a = nullptr;
        cudaError_t e = cudaGetMipmappedArrayLevel(&a, m, l);
        if (e != cudaSuccess) { printf(" [%d %s]", l, cudaGetErrorName(e)); cudaGetLastError(); continue; }
        cudaChannelFormatDesc d; cudaExtent x; unsigned fl;
        cudaArrayGetInfo(&d, &x, &fl, a);
        printf(" [%d %zux%zux%zu f%x]", l, x.width, x.height, x.depth, fl);
    }
    printf("\n");
}

int main() {
    CHECK(cudaMalloc(&dprobes, 4096 * sizeof(Probe)));
    CHECK(cudaMalloc(&dout, 4096 * sizeof(float)));
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();

    // --- allocation and levels
    cudaMipmappedArray_t m2 = nullptr, m1 = nullptr, m3 = nullptr, mL = nullptr, mC = nullptr, mx = nullptr;
    E(cudaMallocMipmappedArray(&m2, &fd, make_cudaExtent(16, 8, 0), 5, 0));
    printLevels("2D 16x8 5", m2, 6);
    E(cudaMallocMipmappedArray(&mx, &fd, make_cudaExtent(16, 8, 0), 0, 0));
    if (mx) { printLevels("2D 16x8 0", mx, 6); cudaFreeMipmappedArray(mx); mx = nullptr; }
    E(cudaMallocMipmappedArray(&mx, &fd, make_cudaExtent(16, 8, 0), 9, 0));
    if (mx) { printLevels("2D 16x8 9", mx, 10); cudaFreeMipmappedArray(mx); mx = nullptr; }
    E(cudaMallocMipmappedArray(&mx, &fd, make_cudaExtent(12, 5, 0), 4, cudaArraySurfaceLoadStore));
    if (mx) { printLevels("2D 12x5 4 surf", mx, 5); cudaFreeMipmappedArray(mx); mx = nullptr; }
    E(cudaMallocMipmappedArray(&m1, &fd, make_cudaExtent(8, 0, 0), 4, 0));
    printLevels("1D 8 4", m1, 5);
    E(cudaMallocMipmappedArray(&m3, &fd, make_cudaExtent(8, 4, 2), 4, 0));
    printLevels("3D 8x4x2 4", m3, 5);
    E(cudaMallocMipmappedArray(&mL, &fd, make_cudaExtent(8, 8, 3), 4, cudaArrayLayered));
    printLevels("layered 8x8x3 4", mL, 5);
    E(cudaMallocMipmappedArray(&mC, &fd, make_cudaExtent(4, 4, 6), 3, cudaArrayCubemap));
    printLevels("cubemap 4 3", mC, 4);
    E(cudaMallocMipmappedArray(&mx, &fd, make_cudaExtent(0, 8, 0), 2, 0));
    cudaArray_t lv = nullptr;
    E(cudaGetMipmappedArrayLevel(&lv, m2, 5));

    // --- a surface over level 1 of a 2D array, read back by copy
    cudaMipmappedArray_t ms = nullptr;
    CHECK(cudaMallocMipmappedArray(&ms, &fd, make_cudaExtent(8, 8, 0), 3, cudaArraySurfaceLoadStore));
    CHECK(cudaGetMipmappedArrayLevel(&lv, ms, 1));
    cudaResourceDesc srd = {};
    srd.resType = cudaResourceTypeArray;
    srd.res.array.array = lv;
    cudaSurfaceObject_t so = 0;
    CHECK(cudaCreateSurfaceObject(&so, &srd));
    writeLevel<<<1, dim3(4, 4)>>>(so, 4, 4);
    float back[16];
    CHECK(cudaMemcpy2DFromArray(back, 16, lv, 0, 0, 16, 4, cudaMemcpyDeviceToHost));
    printf("surface level 1:");
    for (int i = 0; i < 16; ++i) printf(" %g", back[i]);
    printf("\n");
    cudaResourceDesc mrd = {};
    mrd.resType = cudaResourceTypeMipmappedArray;
    mrd.res.mipmap.mipmap = ms;
    E(cudaCreateSurfaceObject(&so, &mrd));

    // --- level selection: levels filled with their index
    cudaMipmappedArray_t mi = nullptr;
    CHECK(cudaMallocMipmappedArray(&mi, &fd, make_cudaExtent(16, 16, 0), 5, 0));
    fill(mi, 5, [](int l, int, int, int) { return (float)l; });
    Probe ps[512];
    float res[512];
    struct Cfg { const char *name; int filter, mip; float bias, minC, maxC; unsigned aniso; };
    Cfg cfgs[] = {
        {"linear/linear clamp 0..4", 1, 1, 0, 0, 4, 0},
        {"point/point clamp 0..4", 0, 0, 0, 0, 4, 0},
        {"linear/point clamp 0..4", 1, 0, 0, 0, 4, 0},
        {"linear/linear default clamps", 1, 1, 0, 0, 0, 0},
        {"linear/linear bias 0.5 clamp 1..2.5", 1, 1, 0.5f, 1, 2.5f, 0},
        {"linear/linear bias -1.25 clamp 0..16", 1, 1, -1.25f, 0, 16, 0},
        {"point/linear clamp 0.3..3.6", 0, 1, 0, 0.3f, 3.6f, 0},
    };
    int n = 0;
    ps[n++] = lodp(0.5f, 0.5f, -1.0f);
    for (int k = 0; k <= 64; ++k) ps[n++] = lodp(0.5f, 0.5f, k / 64.0f);
    for (int k = 9; k <= 48; ++k) ps[n++] = lodp(0.5f, 0.5f, k / 8.0f);
    float odd[] = {0.1f, 0.3f, 0.7f, 0.999f, 1.001f, 1.49f, 1.5f, 1.51f, 2.3f, 3.99f, 1e9f, -1e9f};
    for (float o : odd) ps[n++] = lodp(0.5f, 0.5f, o);
    for (const Cfg &c : cfgs) {
        cudaTextureObject_t t = mipTex(mi, c.filter, c.mip, c.bias, c.minC, c.maxC, c.aniso);
        run(t, LOD2, ps, n, res);
        printf("tex2DLod %s:\n", c.name);
        for (int i = 0; i < n; ++i) printf(" %g:%.9g%s", ps[i].lod, res[i], i % 8 == 7 ? "\n" : "");
        printf("\n");
        cudaDestroyTextureObject(t);
    }
    // tex2D on a mipmapped texture
    {
        cudaTextureObject_t t = mipTex(mi, 1, 1, 0.75f, 0, 4, 0);
        Probe q = lodp(0.3f, 0.6f, 0);
        run(t, PLAIN2, &q, 1, res);
        printf("tex2D on mipmapped, bias 0.75: %.9g\n", res[0]);
        cudaTextureDesc got = {};
        cudaGetTextureObjectTextureDesc(&got, t);
        printf("texture desc: mipFilter %d bias %g min %g max %g aniso %u\n", (int)got.mipmapFilterMode, got.mipmapLevelBias,
               got.minMipmapLevelClamp, got.maxMipmapLevelClamp, got.maxAnisotropy);
        cudaResourceDesc gr = {};
        cudaGetTextureObjectResourceDesc(&gr, t);
        printf("resource desc: type %d same %d\n", (int)gr.resType, gr.res.mipmap.mipmap == mi);
        cudaDestroyTextureObject(t);
    }
    // Unnormalized coordinates: gradients in texels.
    {
        cudaTextureObject_t t = mipTex(mi, 1, 1, 0, 0, 4, 1, false);
        if (t) {
        int k = 0;
        float gs[] = {0.5f, 1, 2, 3, 4, 8, 16, 32};
        for (float g : gs) ps[k++] = gradp(8, 8, g, 0, 0, g);
        for (float g : gs) ps[k++] = lodp(8, 8, g / 4);
        run(t, LOD2, ps + 8, 8, res);
        printf("unnormalized lod:");
        for (int i = 0; i < 8; ++i) printf(" %.9g", res[i]);
        printf("\n");
        cudaDestroyTextureObject(t);
        }
    }

    // --- filtering of real content between levels
    cudaMipmappedArray_t mv = nullptr;
    CHECK(cudaMallocMipmappedArray(&mv, &fd, make_cudaExtent(8, 8, 0), 4, 0));
    fill(mv, 4, [](int l, int x, int y, int) { return (float)(((x * 7 + y * 13 + l * 5) % 17) + 100 * l); });
    {
        n = 0;
        float pts[][2] = {{0.1f, 0.2f}, {0.33f, 0.71f}, {0.5f, 0.5f}, {0.9f, 0.05f}, {0.61f, 0.44f}};
        float lods[] = {0, 0.2f, 0.5f, 0.8f, 1.0f, 1.3f, 2.6f, 3.0f, 3.4f};
        for (auto &p : pts) for (float l : lods) ps[n++] = lodp(p[0], p[1], l);
        for (int filter = 0; filter < 2; ++filter) for (int mip = 0; mip < 2; ++mip) {
            if (filter == 1 && mip == 1) continue;  // bilinear within two levels: see the header
            cudaTextureObject_t t = mipTex(mv, filter, mip, 0, 0, 3, 0);
            run(t, LOD2, ps, n, res);
            printf("content filter %d mip %d:\n", filter, mip);
            for (int i = 0; i < n; ++i) printf(" %.9g%s", res[i], i % 9 == 8 ? "\n" : "");
            cudaDestroyTextureObject(t);
        }
    }
    // 1D
    fill(m1, 4, [](int l, int x, int, int) { return (float)(x * 3 + 50 * l); });
    {
        cudaTextureObject_t t = mipTex(m1, 1, 1, 0, 0, 3, 0);
        n = 0;
        float lods[] = {0, 0.25f, 1.0f, 1.75f, 2.5f, 3.0f};
        float xs[] = {0.1f, 0.45f, 0.8f};
        for (float x : xs) for (float l : lods) ps[n++] = lodp(x, 0, l);
        run(t, LOD1, ps, n, res);
        printf("tex1DLod:");
        for (int i = 0; i < n; ++i) printf(" %.9g", res[i]);
        printf("\n");
        cudaDestroyTextureObject(t);
    }
    // Layered
    fill(mL, 4, [](int l, int x, int y, int z) { return (float)(x + 10 * y + 100 * z + 1000 * l); });
    {
        cudaTextureObject_t t = mipTex(mL, 0, 1, 0, 0, 3, 0);
        n = 0;
        float lods[] = {0, 0.5f, 1, 2.25f, 3};
        for (int layer = 0; layer < 3; ++layer) for (float l : lods) { Probe p = {}; p.x = 0.4f; p.y = 0.6f; p.z = (float)layer; p.lod = l; ps[n++] = p; }
        run(t, LAYERED_LOD, ps, n, res);
        printf("tex2DLayeredLod:");
        for (int i = 0; i < n; ++i) printf(" %.9g", res[i]);
        printf("\n");
        cudaDestroyTextureObject(t);
    }
    // Cubemap
    fill(mC, 3, [](int l, int x, int y, int z) { return (float)(x + 10 * y + 100 * z + 1000 * l); });
    {
        cudaTextureObject_t t = mipTex(mC, 0, 0, 0, 0, 2, 0);
        n = 0;
        float lods[] = {0, 1, 2};
        float dirs[][3] = {{1, 0.2f, -0.3f}, {-0.1f, -1, 0.4f}, {0.3f, 0.3f, 1}};
        for (auto &d : dirs) for (float l : lods) { Probe p = {}; p.x = d[0]; p.y = d[1]; p.z = d[2]; p.lod = l; ps[n++] = p; }
        run(t, CUBE_LOD, ps, n, res);
        printf("texCubemapLod:");
        for (int i = 0; i < n; ++i) printf(" %.9g", res[i]);
        printf("\n");
        cudaDestroyTextureObject(t);
    }
    // 8-bit normalized texels, trilinear (printed to 4 decimals)
    {
        cudaChannelFormatDesc ud = cudaCreateChannelDesc<uchar4>();
        cudaMipmappedArray_t mu = nullptr;
        CHECK(cudaMallocMipmappedArray(&mu, &ud, make_cudaExtent(4, 4, 0), 3, 0));
        for (int l = 0; l < 3; ++l) {
            cudaArray_t a; cudaGetMipmappedArrayLevel(&a, mu, l);
            int w = 4 >> l;
            uchar4 buf[16];
            for (int i = 0; i < w * w; ++i) buf[i] = make_uchar4(i * 16 + l * 60, 255 - i * 10, l * 100, 7 * i);
            cudaMemcpy2DToArray(a, 0, 0, buf, w * 4, w * 4, w, cudaMemcpyHostToDevice);
        }
        cudaTextureObject_t t = mipTex(mu, 1, 1, 0, 0, 2, 0, true, cudaReadModeNormalizedFloat);
        Probe q[4] = {lodp(0.3f, 0.4f, 0.3f), lodp(0.6f, 0.2f, 1.5f), lodp(0.5f, 0.5f, 0.0f), lodp(0.8f, 0.9f, 2.0f)};
        cudaMemcpy(dprobes, q, sizeof(q), cudaMemcpyHostToDevice);
        float4 *d4; cudaMalloc(&d4, 4 * sizeof(float4));
        if (t) sampleUchar4<<<1, 4>>>(t, dprobes, 4, d4);
        float4 h4[4];
        cudaMemcpy(h4, d4, sizeof(h4), cudaMemcpyDeviceToHost);
        printf("uchar4 trilinear:");
        for (auto &v : h4) printf(" (%.4f %.4f %.4f %.4f)", v.x, v.y, v.z, v.w);
        printf("\n");
        cudaDestroyTextureObject(t);
        cudaFreeMipmappedArray(mu);
    }
    // errors of texture objects over mipmapped arrays
    {
        cudaResourceDesc rd = {};
        rd.resType = cudaResourceTypeMipmappedArray;
        cudaTextureDesc td = {};
        cudaTextureObject_t t = 0;
        rd.res.mipmap.mipmap = mi;
        td.normalizedCoords = 0;
        E(cudaCreateTextureObject(&t, &rd, &td, nullptr));
        if (t) cudaDestroyTextureObject(t);
    }
    E(cudaFreeMipmappedArray(mi));
    E(cudaFreeMipmappedArray(mv));
    E(cudaFreeMipmappedArray(m1));
    E(cudaFreeMipmappedArray(m2));
    E(cudaFreeMipmappedArray(m3));
    E(cudaFreeMipmappedArray(mL));
    E(cudaFreeMipmappedArray(mC));
    E(cudaFreeMipmappedArray(ms));
    E(cudaDeviceSynchronize());
    return 0;
}
