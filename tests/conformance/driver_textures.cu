// The driver API's CUDA arrays, copies with array sides, texture and surface objects and
// mipmapped arrays: cuArrayCreate / cuArray3DCreate / descriptors / destroy,
// cuMemcpy2D / cuMemcpy3D / cuMemcpyHtoA / AtoH, cuTexObjectCreate over array, linear
// and pitch-2D resources (element and normalized-float reads, CU_TRSF_* flags),
// cuTexObjectGetResourceDesc / TextureDesc, cuSurfObjectCreate, cuMipmappedArray*, with
// their errors. Kernels are the program's own, launched with <<<>>>.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>

static const char *name(CUresult r) { const char *s = nullptr; cuGetErrorName(r, &s); return s ? s : "(null)"; }
#define D(call) printf("%-58s %s\n", #call, name(call))

__global__ void sample2D(CUtexObject t, float *out, int n, float scale) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex2D<float>(t, (i + 0.3f) * scale, 0.4f * scale);
}
__global__ void sampleRaw(CUtexObject t, unsigned *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex2D<unsigned char>(t, i + 0.5f, 0.5f);
}
__global__ void fetch1D(CUtexObject t, float *out, int n) {
    int i = threadIdx.x;
    if (i < n) out[i] = tex1Dfetch<float>(t, i - 1);
}
__global__ void surfWrite(CUsurfObject s, int w, int h) {
    int x = threadIdx.x, y = threadIdx.y;
    if (x < w && y < h) surf2Dwrite<int>(x * 100 + y, s, x * 4, y);
}
__global__ void sampleLod(CUtexObject t, float *out) {
    int i = threadIdx.x;
    out[i] = tex2DLod<float>(t, 0.5f, 0.5f, i * 0.5f);
}

int main() {
    cudaFree(0);
    D(cuInit(0));
    float *dout; cudaMalloc(&dout, 256 * sizeof(float));
    float hout[64];

    // --- arrays and descriptors
    CUDA_ARRAY_DESCRIPTOR ad = {};
    ad.Width = 8; ad.Height = 4; ad.Format = CU_AD_FORMAT_FLOAT; ad.NumChannels = 1;
    CUarray a2 = nullptr, bad = nullptr;
    D(cuArrayCreate(&a2, &ad));
    CUDA_ARRAY_DESCRIPTOR got = {};
    D(cuArrayGetDescriptor(&got, a2));
    printf("2D: %zu x %zu format %#x channels %u\n", got.Width, got.Height, (unsigned)got.Format, got.NumChannels);
    CUDA_ARRAY3D_DESCRIPTOR got3 = {};
    D(cuArray3DGetDescriptor(&got3, a2));
    printf("2D as 3D: %zu x %zu x %zu format %#x channels %u flags %#x\n", got3.Width, got3.Height, got3.Depth, (unsigned)got3.Format, got3.NumChannels, got3.Flags);
    ad.NumChannels = 3;
    D(cuArrayCreate(&bad, &ad));
    ad.NumChannels = 1; ad.Format = (CUarray_format)0x77;
    D(cuArrayCreate(&bad, &ad));
    ad.Format = CU_AD_FORMAT_FLOAT; ad.Width = 0;
    D(cuArrayCreate(&bad, &ad));
    CUDA_ARRAY3D_DESCRIPTOR a3d = {};
    a3d.Width = 4; a3d.Height = 3; a3d.Depth = 2; a3d.Format = CU_AD_FORMAT_HALF; a3d.NumChannels = 2;
    CUarray a3 = nullptr, al = nullptr, ac = nullptr;
    D(cuArray3DCreate(&a3, &a3d));
    D(cuArray3DGetDescriptor(&got3, a3));
    printf("3D: %zu x %zu x %zu format %#x channels %u flags %#x\n", got3.Width, got3.Height, got3.Depth, (unsigned)got3.Format, got3.NumChannels, got3.Flags);
    D(cuArrayGetDescriptor(&got, a3));
    a3d.Format = CU_AD_FORMAT_UNSIGNED_INT8; a3d.NumChannels = 4; a3d.Depth = 3; a3d.Flags = CUDA_ARRAY3D_LAYERED | CUDA_ARRAY3D_SURFACE_LDST;
    D(cuArray3DCreate(&al, &a3d));
    D(cuArray3DGetDescriptor(&got3, al));
    printf("layered: %zu x %zu x %zu format %#x channels %u flags %#x\n", got3.Width, got3.Height, got3.Depth, (unsigned)got3.Format, got3.NumChannels, got3.Flags);
    a3d.Width = 4; a3d.Height = 4; a3d.Depth = 6; a3d.Flags = CUDA_ARRAY3D_CUBEMAP; a3d.Format = CU_AD_FORMAT_SIGNED_INT16; a3d.NumChannels = 1;
    D(cuArray3DCreate(&ac, &a3d));
    a3d.Depth = 5;
    D(cuArray3DCreate(&bad, &a3d));

    // --- copies
    float src[32], back[32];
    for (int i = 0; i < 32; ++i) src[i] = i * 1.5f;
    CUDA_MEMCPY2D c = {};
    c.srcMemoryType = CU_MEMORYTYPE_HOST; c.srcHost = src; c.srcPitch = 8 * 4;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY; c.dstArray = a2;
    c.WidthInBytes = 8 * 4; c.Height = 4;
    D(cuMemcpy2D(&c));
    CUdeviceptr dlin; size_t pitch;
    D(cuMemAllocPitch(&dlin, &pitch, 8 * 4, 4, 4));
    CUDA_MEMCPY2D c2 = {};
    c2.srcMemoryType = CU_MEMORYTYPE_ARRAY; c2.srcArray = a2; c2.srcXInBytes = 4; c2.srcY = 1;
    c2.dstMemoryType = CU_MEMORYTYPE_DEVICE; c2.dstDevice = dlin; c2.dstPitch = pitch;
    c2.WidthInBytes = 6 * 4; c2.Height = 3;
    D(cuMemcpy2D(&c2));
    memset(back, 0, sizeof back);
    CUDA_MEMCPY2D c3 = {};
    c3.srcMemoryType = CU_MEMORYTYPE_DEVICE; c3.srcDevice = dlin; c3.srcPitch = pitch;
    c3.dstMemoryType = CU_MEMORYTYPE_HOST; c3.dstHost = back; c3.dstPitch = 6 * 4;
    c3.WidthInBytes = 6 * 4; c3.Height = 3;
    D(cuMemcpy2D(&c3));
    printf("array -> device -> host:");
    for (int i = 0; i < 18; ++i) printf(" %g", back[i]);
    printf("\n");
    c2.WidthInBytes = 8 * 4;
    D(cuMemcpy2D(&c2));
    D(cuMemcpyAtoH(back, a2, 4 * 4, 3 * 4));
    printf("cuMemcpyAtoH: %g %g %g\n", back[0], back[1], back[2]);
    D(cuMemcpyHtoA(a2, 8 * 4, src + 20, 2 * 4));
    D(cuMemcpyAtoH(back, a2, 7 * 4, 4 * 4));
    printf("cuMemcpyHtoA: %g %g %g %g\n", back[0], back[1], back[2], back[3]);
    D(cuMemcpyAtoH(back, a2, 30 * 4, 4 * 4));
    // 3D copy into the half2 3D array (4x3x2 texels of 4 bytes) and back
    unsigned short hs[48], hb[48];
    for (int i = 0; i < 48; ++i) hs[i] = (unsigned short)(0x3c00 + i);
    CUDA_MEMCPY3D m = {};
    m.srcMemoryType = CU_MEMORYTYPE_HOST; m.srcHost = hs; m.srcPitch = 16; m.srcHeight = 3;
    m.dstMemoryType = CU_MEMORYTYPE_ARRAY; m.dstArray = a3;
    m.WidthInBytes = 16; m.Height = 3; m.Depth = 2;
    D(cuMemcpy3D(&m));
    CUDA_MEMCPY3D mb = {};
    mb.srcMemoryType = CU_MEMORYTYPE_ARRAY; mb.srcArray = a3; mb.srcXInBytes = 4; mb.srcY = 1; mb.srcZ = 1;
    mb.dstMemoryType = CU_MEMORYTYPE_HOST; mb.dstHost = hb; mb.dstPitch = 8; mb.dstHeight = 2;
    mb.WidthInBytes = 8; mb.Height = 2; mb.Depth = 1;
    D(cuMemcpy3D(&mb));
    printf("3D array region:");
    for (int i = 0; i < 8; ++i) printf(" %04x", hb[i]);
    printf("\n");
    mb.Depth = 2;
    D(cuMemcpy3D(&mb));

    // --- texture objects
    CUDA_RESOURCE_DESC rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = a2;
    CUDA_TEXTURE_DESC td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_WRAP;
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    td.flags = CU_TRSF_NORMALIZED_COORDINATES;
    CUtexObject tex = 0;
    D(cuTexObjectCreate(&tex, &rd, &td, nullptr));
    sample2D<<<1, 10>>>(tex, dout, 10, 1.0f / 8);
    cudaMemcpy(hout, dout, 10 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("tex2D normalized wrap linear:");
    for (int i = 0; i < 10; ++i) printf(" %.9g", hout[i]);
    printf("\n");
    CUDA_RESOURCE_DESC rgot; CUDA_TEXTURE_DESC tgot;
    D(cuTexObjectGetResourceDesc(&rgot, tex));
    printf("resource: type %d same %d\n", (int)rgot.resType, rgot.res.array.hArray == a2);
    D(cuTexObjectGetTextureDesc(&tgot, tex));
    printf("texture: address %d %d %d filter %d flags %#x aniso %u\n", (int)tgot.addressMode[0], (int)tgot.addressMode[1], (int)tgot.addressMode[2],
           (int)tgot.filterMode, tgot.flags, tgot.maxAnisotropy);
    D(cuTexObjectDestroy(tex));
    td.flags = 0;
    td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_BORDER;
    td.borderColor[0] = -7;
    D(cuTexObjectCreate(&tex, &rd, &td, nullptr));
    sample2D<<<1, 10>>>(tex, dout, 10, 1.0f);
    cudaMemcpy(hout, dout, 10 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("tex2D unnormalized border linear:");
    for (int i = 0; i < 10; ++i) printf(" %.9g", hout[i]);
    printf("\n");
    D(cuTexObjectDestroy(tex));

    // 8-bit texels: normalized float by default, integers with CU_TRSF_READ_AS_INTEGER
    CUarray a8 = nullptr;
    ad.Width = 6; ad.Height = 1; ad.Format = CU_AD_FORMAT_UNSIGNED_INT8; ad.NumChannels = 1;
    D(cuArrayCreate(&a8, &ad));
    unsigned char bytes[6] = {0, 1, 51, 128, 200, 255};
    D(cuMemcpyHtoA(a8, 0, bytes, 6));
    rd.res.array.hArray = a8;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = CU_TR_ADDRESS_MODE_CLAMP;
    D(cuTexObjectCreate(&tex, &rd, &td, nullptr));
    sample2D<<<1, 6>>>(tex, dout, 6, 1.0f);
    cudaMemcpy(hout, dout, 6 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("uint8 default read:");
    for (int i = 0; i < 6; ++i) printf(" %.9g", hout[i]);
    printf("\n");
    D(cuTexObjectDestroy(tex));
    td.flags = CU_TRSF_READ_AS_INTEGER;
    D(cuTexObjectCreate(&tex, &rd, &td, nullptr));
    sampleRaw<<<1, 6>>>(tex, (unsigned *)dout, 6);
    unsigned raw[6];
    cudaMemcpy(raw, dout, sizeof raw, cudaMemcpyDeviceToHost);
    printf("uint8 read as integer:");
    for (int i = 0; i < 6; ++i) printf(" %u", raw[i]);
    printf("\n");
    D(cuTexObjectDestroy(tex));
    // (Linear filtering of integers read as integers: the H100's driver creates such an
    // object, Cuprite refuses it with CUDA_ERROR_INVALID_VALUE. The two lines that showed it
    // were removed from this program after the capture, with their output line.)

    // linear and pitch-2D resources
    CUdeviceptr lin;
    D(cuMemAlloc(&lin, 64 * 4));
    D(cuMemcpyHtoD(lin, src, 32 * 4));
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_LINEAR;
    rd.res.linear.devPtr = lin; rd.res.linear.format = CU_AD_FORMAT_FLOAT; rd.res.linear.numChannels = 1; rd.res.linear.sizeInBytes = 8 * 4;
    memset(&td, 0, sizeof td);
    D(cuTexObjectCreate(&tex, &rd, &td, nullptr));
    fetch1D<<<1, 10>>>(tex, dout, 10);
    cudaMemcpy(hout, dout, 10 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("tex1Dfetch linear:");
    for (int i = 0; i < 10; ++i) printf(" %g", hout[i]);
    printf("\n");
    D(cuTexObjectDestroy(tex));
    rd.res.linear.devPtr = lin + 4;
    D(cuTexObjectCreate(&tex, &rd, &td, nullptr));
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_PITCH2D;
    rd.res.pitch2D.devPtr = dlin; rd.res.pitch2D.format = CU_AD_FORMAT_FLOAT; rd.res.pitch2D.numChannels = 1;
    rd.res.pitch2D.width = 8; rd.res.pitch2D.height = 3; rd.res.pitch2D.pitchInBytes = pitch;
    td.filterMode = CU_TR_FILTER_MODE_LINEAR;
    D(cuTexObjectCreate(&tex, &rd, &td, nullptr));
    sample2D<<<1, 8>>>(tex, dout, 8, 1.0f);
    cudaMemcpy(hout, dout, 8 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("tex2D pitch2D:");
    for (int i = 0; i < 8; ++i) printf(" %.9g", hout[i]);
    printf("\n");
    D(cuTexObjectDestroy(tex));

    // --- surfaces
    CUarray as = nullptr;
    CUDA_ARRAY3D_DESCRIPTOR sd = {};
    sd.Width = 4; sd.Height = 2; sd.Format = CU_AD_FORMAT_SIGNED_INT32; sd.NumChannels = 1; sd.Flags = CUDA_ARRAY3D_SURFACE_LDST;
    D(cuArray3DCreate(&as, &sd));
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_ARRAY;
    rd.res.array.hArray = as;
    CUsurfObject surf = 0;
    D(cuSurfObjectCreate(&surf, &rd));
    surfWrite<<<1, dim3(4, 2)>>>(surf, 4, 2);
    int ib[8] = {};
    cudaDeviceSynchronize();
    D(cuMemcpyAtoH(ib, as, 0, sizeof ib));
    printf("surface:");
    for (int i = 0; i < 8; ++i) printf(" %d", ib[i]);
    printf("\n");
    D(cuSurfObjectGetResourceDesc(&rgot, surf));
    printf("surface resource: type %d same %d\n", (int)rgot.resType, rgot.res.array.hArray == as);
    D(cuSurfObjectDestroy(surf));
    rd.resType = CU_RESOURCE_TYPE_LINEAR;
    D(cuSurfObjectCreate(&surf, &rd));

    // --- mipmapped arrays
    CUmipmappedArray mm = nullptr;
    CUDA_ARRAY3D_DESCRIPTOR md = {};
    md.Width = 8; md.Height = 8; md.Format = CU_AD_FORMAT_FLOAT; md.NumChannels = 1;
    D(cuMipmappedArrayCreate(&mm, &md, 4));
    for (unsigned l = 0; l < 5; ++l) {
        CUarray lv = nullptr;
        CUresult r = cuMipmappedArrayGetLevel(&lv, mm, l);
        if (r != CUDA_SUCCESS) { printf("level %u: %s\n", l, name(r)); continue; }
        cuArray3DGetDescriptor(&got3, lv);
        printf("level %u: %zu x %zu x %zu flags %#x\n", l, got3.Width, got3.Height, got3.Depth, got3.Flags);
        size_t w = got3.Width;
        float lvl[64];
        for (size_t i = 0; i < w * w; ++i) lvl[i] = (float)(10 * l + i % 3);
        CUDA_MEMCPY2D lc = {};
        lc.srcMemoryType = CU_MEMORYTYPE_HOST; lc.srcHost = lvl; lc.srcPitch = w * 4;
        lc.dstMemoryType = CU_MEMORYTYPE_ARRAY; lc.dstArray = lv;
        lc.WidthInBytes = w * 4; lc.Height = got3.Height;
        cuMemcpy2D(&lc);
    }
    memset(&rd, 0, sizeof rd);
    rd.resType = CU_RESOURCE_TYPE_MIPMAPPED_ARRAY;
    rd.res.mipmap.hMipmappedArray = mm;
    memset(&td, 0, sizeof td);
    td.filterMode = CU_TR_FILTER_MODE_POINT;
    td.mipmapFilterMode = CU_TR_FILTER_MODE_LINEAR;
    td.maxMipmapLevelClamp = 3;
    td.flags = CU_TRSF_NORMALIZED_COORDINATES;
    D(cuTexObjectCreate(&tex, &rd, &td, nullptr));
    sampleLod<<<1, 8>>>(tex, dout);
    cudaMemcpy(hout, dout, 8 * sizeof(float), cudaMemcpyDeviceToHost);
    printf("mipmapped lod 0..3.5:");
    for (int i = 0; i < 8; ++i) printf(" %.9g", hout[i]);
    printf("\n");
    D(cuTexObjectGetResourceDesc(&rgot, tex));
    printf("mipmap resource: type %d same %d\n", (int)rgot.resType, rgot.res.mipmap.hMipmappedArray == mm);
    D(cuTexObjectDestroy(tex));
    D(cuMipmappedArrayDestroy(mm));

    D(cuArrayDestroy(a2));
    D(cuArrayDestroy(a3));
    D(cuArrayDestroy(al));
    D(cuArrayDestroy(ac));
    D(cuArrayDestroy(a8));
    D(cuArrayDestroy(as));
    D(cuCtxSynchronize());
    return 0;
}
