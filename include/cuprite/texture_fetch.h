/* Texture and surface functions of device code (Cuprite), seen by the device compiler
 * only. Each is a template over the result type, as in CUDA, that calls one of the
 * device compiler's builtins:
 *   __cuprite_tex_fetch(obj, dims | 0x10 if layered | 0x20 if a cubemap | 0x40 | comp << 8 for
 *                       a gather, x, y, z, layer, &result, sizeof result)
 *   __cuprite_tex_fetch_int(obj, i, &result, sizeof result)
 *   __cuprite_surf_access(obj, dims (| 0x10 layered 1D, | 0x20 layered 2D or cubemap), x, y, z,
 *                         &data, sizeof data, boundaryMode, isWrite)
 * which read through the object's descriptor (crates/cuprite-rt/src/texture). */
#ifndef __CUPRITE_TEXTURE_FETCH_H__
#define __CUPRITE_TEXTURE_FETCH_H__

template <class T> __device__ T tex1Dfetch(cudaTextureObject_t t, int x) {
    T r;
    __cuprite_tex_fetch_int(t, x, &r, sizeof(T));
    return r;
}
template <class T> __device__ void tex1Dfetch(T *r, cudaTextureObject_t t, int x) {
    __cuprite_tex_fetch_int(t, x, r, sizeof(T));
}
template <class T> __device__ T tex1D(cudaTextureObject_t t, float x) {
    T r;
    __cuprite_tex_fetch(t, 1, x, 0.0f, 0.0f, 0, &r, sizeof(T));
    return r;
}
template <class T> __device__ void tex1D(T *r, cudaTextureObject_t t, float x) {
    __cuprite_tex_fetch(t, 1, x, 0.0f, 0.0f, 0, r, sizeof(T));
}
template <class T> __device__ T tex2D(cudaTextureObject_t t, float x, float y) {
    T r;
    __cuprite_tex_fetch(t, 2, x, y, 0.0f, 0, &r, sizeof(T));
    return r;
}
template <class T> __device__ void tex2D(T *r, cudaTextureObject_t t, float x, float y) {
    __cuprite_tex_fetch(t, 2, x, y, 0.0f, 0, r, sizeof(T));
}
template <class T> __device__ T tex3D(cudaTextureObject_t t, float x, float y, float z) {
    T r;
    __cuprite_tex_fetch(t, 3, x, y, z, 0, &r, sizeof(T));
    return r;
}
template <class T> __device__ void tex3D(T *r, cudaTextureObject_t t, float x, float y, float z) {
    __cuprite_tex_fetch(t, 3, x, y, z, 0, r, sizeof(T));
}
template <class T> __device__ T tex1DLayered(cudaTextureObject_t t, float x, int layer) {
    T r;
    __cuprite_tex_fetch(t, 0x11, x, 0.0f, 0.0f, layer, &r, sizeof(T));
    return r;
}
template <class T> __device__ T tex2DLayered(cudaTextureObject_t t, float x, float y, int layer) {
    T r;
    __cuprite_tex_fetch(t, 0x12, x, y, 0.0f, layer, &r, sizeof(T));
    return r;
}

/* Cubemaps: (x, y, z) is a direction; the face is its major axis (bit 0x20). */
template <class T> __device__ T texCubemap(cudaTextureObject_t t, float x, float y, float z) {
    T r;
    __cuprite_tex_fetch(t, 0x20, x, y, z, 0, &r, sizeof(T));
    return r;
}
template <class T> __device__ T texCubemapLayered(cudaTextureObject_t t, float x, float y, float z, int layer) {
    T r;
    __cuprite_tex_fetch(t, 0x30, x, y, z, layer, &r, sizeof(T));
    return r;
}
/* tex2Dgather: component `comp` of the four texels bilinear filtering would read
 * (bit 0x40, the component in bits 8-9). The result is a 4-vector. */
template <class T> __device__ T tex2Dgather(cudaTextureObject_t t, float x, float y, int comp = 0) {
    T r;
    __cuprite_tex_fetch(t, 0x42 | ((comp & 3) << 8), x, y, 0.0f, 0, &r, sizeof(T));
    return r;
}
/* Level-of-detail and gradient forms: bit 0x80 passes a level of detail, bit 0x400 two
 * gradients (x, y, z of dPdx, then of dPdy), in the floats that follow the result at the
 * next 4-byte boundary. On a texture without mipmaps they read level 0, as on a GPU. The
 * kind is a template argument, so that it reaches the builtin as a constant (the PTX
 * back-end writes one `tex.level`/`tex.grad` instruction for it). */
template <class T> struct __cuprite_tex_lod {
    T r;
    float d[6];
};
template <class T, int kind> __device__ T __cuprite_tex_lod_fetch(cudaTextureObject_t t, float x, float y, float z, int layer, float lod) {
    __cuprite_tex_lod<T> b;
    b.d[0] = lod;
    __cuprite_tex_fetch(t, kind | 0x80, x, y, z, layer, &b, sizeof(T));
    return b.r;
}
template <class T, int kind>
__device__ T __cuprite_tex_grad_fetch(cudaTextureObject_t t, float x, float y, float z, int layer, float4 dx, float4 dy) {
    __cuprite_tex_lod<T> b;
    b.d[0] = dx.x;
    b.d[1] = dx.y;
    b.d[2] = dx.z;
    b.d[3] = dy.x;
    b.d[4] = dy.y;
    b.d[5] = dy.z;
    __cuprite_tex_fetch(t, kind | 0x400, x, y, z, layer, &b, sizeof(T));
    return b.r;
}
template <class T> __device__ T tex1DLod(cudaTextureObject_t t, float x, float level) {
    return __cuprite_tex_lod_fetch<T, 1>(t, x, 0.0f, 0.0f, 0, level);
}
template <class T> __device__ T tex2DLod(cudaTextureObject_t t, float x, float y, float level) {
    return __cuprite_tex_lod_fetch<T, 2>(t, x, y, 0.0f, 0, level);
}
template <class T> __device__ T tex3DLod(cudaTextureObject_t t, float x, float y, float z, float level) {
    return __cuprite_tex_lod_fetch<T, 3>(t, x, y, z, 0, level);
}
template <class T> __device__ T tex1DLayeredLod(cudaTextureObject_t t, float x, int layer, float level) {
    return __cuprite_tex_lod_fetch<T, 0x11>(t, x, 0.0f, 0.0f, layer, level);
}
template <class T> __device__ T tex2DLayeredLod(cudaTextureObject_t t, float x, float y, int layer, float level) {
    return __cuprite_tex_lod_fetch<T, 0x12>(t, x, y, 0.0f, layer, level);
}
template <class T> __device__ T texCubemapLod(cudaTextureObject_t t, float x, float y, float z, float level) {
    return __cuprite_tex_lod_fetch<T, 0x20>(t, x, y, z, 0, level);
}
template <class T> __device__ T texCubemapLayeredLod(cudaTextureObject_t t, float x, float y, float z, int layer, float level) {
    return __cuprite_tex_lod_fetch<T, 0x30>(t, x, y, z, layer, level);
}
template <class T> __device__ T tex1DGrad(cudaTextureObject_t t, float x, float dx, float dy) {
    return __cuprite_tex_grad_fetch<T, 1>(t, x, 0.0f, 0.0f, 0, make_float4(dx, 0.0f, 0.0f, 0.0f), make_float4(dy, 0.0f, 0.0f, 0.0f));
}
template <class T> __device__ T tex2DGrad(cudaTextureObject_t t, float x, float y, float2 dx, float2 dy) {
    return __cuprite_tex_grad_fetch<T, 2>(t, x, y, 0.0f, 0, make_float4(dx.x, dx.y, 0.0f, 0.0f), make_float4(dy.x, dy.y, 0.0f, 0.0f));
}
template <class T> __device__ T tex3DGrad(cudaTextureObject_t t, float x, float y, float z, float4 dx, float4 dy) {
    return __cuprite_tex_grad_fetch<T, 3>(t, x, y, z, 0, dx, dy);
}
template <class T> __device__ T tex1DLayeredGrad(cudaTextureObject_t t, float x, int layer, float dx, float dy) {
    return __cuprite_tex_grad_fetch<T, 0x11>(t, x, 0.0f, 0.0f, layer, make_float4(dx, 0.0f, 0.0f, 0.0f), make_float4(dy, 0.0f, 0.0f, 0.0f));
}
template <class T> __device__ T tex2DLayeredGrad(cudaTextureObject_t t, float x, float y, int layer, float2 dx, float2 dy) {
    return __cuprite_tex_grad_fetch<T, 0x12>(t, x, y, 0.0f, layer, make_float4(dx.x, dx.y, 0.0f, 0.0f), make_float4(dy.x, dy.y, 0.0f, 0.0f));
}
template <class T> __device__ T texCubemapGrad(cudaTextureObject_t t, float x, float y, float z, float4 dx, float4 dy) {
    return __cuprite_tex_grad_fetch<T, 0x20>(t, x, y, z, 0, dx, dy);
}
template <class T> __device__ T texCubemapLayeredGrad(cudaTextureObject_t t, float x, float y, float z, int layer, float4 dx, float4 dy) {
    return __cuprite_tex_grad_fetch<T, 0x30>(t, x, y, z, layer, dx, dy);
}

/* Legacy texture references (CUDA <= 11). A file-scope `texture<T, dim, mode> r;` is a
 * device global (the device compiler treats every `texture<...>` variable as __device__)
 * whose one field is the handle of the texture object that the runtime creates from the
 * host object's fields at each cudaBindTexture*; 0 while unbound. The fetches pass
 * __CUPRITE_UNBOUND_TEXREF for 0, which the runtime reports as cudaErrorInvalidTexture. */
template <class T, int dim = 1, int mode = cudaReadModeElementType>
struct texture {
    unsigned long long __cuprite_obj;
};
/* All ones: never an address (CPU objects) nor a driver object handle (the GPU device's,
 * which count up from 1). */
#define __CUPRITE_UNBOUND_TEXREF 0xffffffffffffffffull
#define __CUPRITE_TEXREF(t) ((t).__cuprite_obj ? (t).__cuprite_obj : __CUPRITE_UNBOUND_TEXREF)

template <class T> __device__ T tex1Dfetch(texture<T, 1, 0> t, int x) {
    return tex1Dfetch<T>(__CUPRITE_TEXREF(t), x);
}
template <class T> __device__ T tex1D(texture<T, 1, 0> t, float x) {
    return tex1D<T>(__CUPRITE_TEXREF(t), x);
}
template <class T> __device__ T tex2D(texture<T, 2, 0> t, float x, float y) {
    return tex2D<T>(__CUPRITE_TEXREF(t), x, y);
}
template <class T> __device__ T tex3D(texture<T, 3, 0> t, float x, float y, float z) {
    return tex3D<T>(__CUPRITE_TEXREF(t), x, y, z);
}
/* Layered and cubemap references (`texture<T, cudaTextureType2DLayered>` and so on: the
 * dim argument is the texture type) and the Lod forms, through the bound object. */
template <class T> __device__ T tex1DLayered(texture<T, 0xF1, 0> t, float x, int layer) {
    return tex1DLayered<T>(__CUPRITE_TEXREF(t), x, layer);
}
template <class T> __device__ T tex2DLayered(texture<T, 0xF2, 0> t, float x, float y, int layer) {
    return tex2DLayered<T>(__CUPRITE_TEXREF(t), x, y, layer);
}
template <class T> __device__ T texCubemap(texture<T, 0x0C, 0> t, float x, float y, float z) {
    return texCubemap<T>(__CUPRITE_TEXREF(t), x, y, z);
}
template <class T> __device__ T texCubemapLayered(texture<T, 0xFC, 0> t, float x, float y, float z, int layer) {
    return texCubemapLayered<T>(__CUPRITE_TEXREF(t), x, y, z, layer);
}
template <class T> __device__ T tex1DLod(texture<T, 1, 0> t, float x, float level) {
    return tex1DLod<T>(__CUPRITE_TEXREF(t), x, level);
}
template <class T> __device__ T tex2DLod(texture<T, 2, 0> t, float x, float y, float level) {
    return tex2DLod<T>(__CUPRITE_TEXREF(t), x, y, level);
}
template <class T> __device__ T tex3DLod(texture<T, 3, 0> t, float x, float y, float z, float level) {
    return tex3DLod<T>(__CUPRITE_TEXREF(t), x, y, z, level);
}
template <class T> __device__ T tex1DLayeredLod(texture<T, 0xF1, 0> t, float x, int layer, float level) {
    return tex1DLayeredLod<T>(__CUPRITE_TEXREF(t), x, layer, level);
}
template <class T> __device__ T tex2DLayeredLod(texture<T, 0xF2, 0> t, float x, float y, int layer, float level) {
    return tex2DLayeredLod<T>(__CUPRITE_TEXREF(t), x, y, layer, level);
}
template <class T> __device__ T texCubemapLod(texture<T, 0x0C, 0> t, float x, float y, float z, float level) {
    return texCubemapLod<T>(__CUPRITE_TEXREF(t), x, y, z, level);
}
/* cudaReadModeNormalizedFloat: the result is float, float1, float2 or float4, one
 * overload set per integer texel type. */
#define __CUPRITE_TEXREF_NF(T, R) \
    static __device__ R tex1Dfetch(texture<T, 1, 1> t, int x) { return tex1Dfetch<R>(__CUPRITE_TEXREF(t), x); } \
    static __device__ R tex1D(texture<T, 1, 1> t, float x) { return tex1D<R>(__CUPRITE_TEXREF(t), x); } \
    static __device__ R tex2D(texture<T, 2, 1> t, float x, float y) { return tex2D<R>(__CUPRITE_TEXREF(t), x, y); } \
    static __device__ R tex3D(texture<T, 3, 1> t, float x, float y, float z) { return tex3D<R>(__CUPRITE_TEXREF(t), x, y, z); } \
    static __device__ R tex1DLayered(texture<T, 0xF1, 1> t, float x, int l) { return tex1DLayered<R>(__CUPRITE_TEXREF(t), x, l); } \
    static __device__ R tex2DLayered(texture<T, 0xF2, 1> t, float x, float y, int l) { return tex2DLayered<R>(__CUPRITE_TEXREF(t), x, y, l); } \
    static __device__ R texCubemap(texture<T, 0x0C, 1> t, float x, float y, float z) { return texCubemap<R>(__CUPRITE_TEXREF(t), x, y, z); } \
    static __device__ R texCubemapLayered(texture<T, 0xFC, 1> t, float x, float y, float z, int l) { return texCubemapLayered<R>(__CUPRITE_TEXREF(t), x, y, z, l); }
__CUPRITE_TEXREF_NF(char, float)
__CUPRITE_TEXREF_NF(signed char, float)
__CUPRITE_TEXREF_NF(unsigned char, float)
__CUPRITE_TEXREF_NF(short, float)
__CUPRITE_TEXREF_NF(unsigned short, float)
__CUPRITE_TEXREF_NF(char1, float1)
__CUPRITE_TEXREF_NF(uchar1, float1)
__CUPRITE_TEXREF_NF(short1, float1)
__CUPRITE_TEXREF_NF(ushort1, float1)
__CUPRITE_TEXREF_NF(char2, float2)
__CUPRITE_TEXREF_NF(uchar2, float2)
__CUPRITE_TEXREF_NF(short2, float2)
__CUPRITE_TEXREF_NF(ushort2, float2)
__CUPRITE_TEXREF_NF(char4, float4)
__CUPRITE_TEXREF_NF(uchar4, float4)
__CUPRITE_TEXREF_NF(short4, float4)
__CUPRITE_TEXREF_NF(ushort4, float4)
#undef __CUPRITE_TEXREF_NF

template <class T> __device__ T surf1Dread(cudaSurfaceObject_t s, int x, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    T r;
    __cuprite_surf_access(s, 1, x, 0, 0, &r, sizeof(T), m, 0);
    return r;
}
template <class T> __device__ void surf1Dread(T *r, cudaSurfaceObject_t s, int x, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    __cuprite_surf_access(s, 1, x, 0, 0, r, sizeof(T), m, 0);
}
template <class T> __device__ void surf1Dwrite(T v, cudaSurfaceObject_t s, int x, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    __cuprite_surf_access(s, 1, x, 0, 0, &v, sizeof(T), m, 1);
}
template <class T> __device__ T surf2Dread(cudaSurfaceObject_t s, int x, int y, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    T r;
    __cuprite_surf_access(s, 2, x, y, 0, &r, sizeof(T), m, 0);
    return r;
}
template <class T> __device__ void surf2Dread(T *r, cudaSurfaceObject_t s, int x, int y, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    __cuprite_surf_access(s, 2, x, y, 0, r, sizeof(T), m, 0);
}
template <class T> __device__ void surf2Dwrite(T v, cudaSurfaceObject_t s, int x, int y, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    __cuprite_surf_access(s, 2, x, y, 0, &v, sizeof(T), m, 1);
}
template <class T> __device__ T surf3Dread(cudaSurfaceObject_t s, int x, int y, int z, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    T r;
    __cuprite_surf_access(s, 3, x, y, z, &r, sizeof(T), m, 0);
    return r;
}
template <class T> __device__ void surf3Dwrite(T v, cudaSurfaceObject_t s, int x, int y, int z, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    __cuprite_surf_access(s, 3, x, y, z, &v, sizeof(T), m, 1);
}
/* Layered and cubemap surfaces: the layer (or face, or 6 * layer + face) is the slice, z;
 * dims 0x13 (1D layered) and 0x23 (2D layered, cubemap) read as 3 on the CPU and tell the
 * PTX back-end the geometry (.a1d, .a2d). */
template <class T> __device__ T surf1DLayeredread(cudaSurfaceObject_t s, int x, int layer, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    T r;
    __cuprite_surf_access(s, 0x13, x, 0, layer, &r, sizeof(T), m, 0);
    return r;
}
template <class T> __device__ void surf1DLayeredwrite(T v, cudaSurfaceObject_t s, int x, int layer, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    __cuprite_surf_access(s, 0x13, x, 0, layer, &v, sizeof(T), m, 1);
}
template <class T> __device__ T surf2DLayeredread(cudaSurfaceObject_t s, int x, int y, int layer, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    T r;
    __cuprite_surf_access(s, 0x23, x, y, layer, &r, sizeof(T), m, 0);
    return r;
}
template <class T> __device__ void surf2DLayeredwrite(T v, cudaSurfaceObject_t s, int x, int y, int layer, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    __cuprite_surf_access(s, 0x23, x, y, layer, &v, sizeof(T), m, 1);
}
template <class T> __device__ T surfCubemapread(cudaSurfaceObject_t s, int x, int y, int face, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    T r;
    __cuprite_surf_access(s, 0x23, x, y, face, &r, sizeof(T), m, 0);
    return r;
}
template <class T> __device__ void surfCubemapwrite(T v, cudaSurfaceObject_t s, int x, int y, int face, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    __cuprite_surf_access(s, 0x23, x, y, face, &v, sizeof(T), m, 1);
}
template <class T> __device__ T surfCubemapLayeredread(cudaSurfaceObject_t s, int x, int y, int layerFace, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    T r;
    __cuprite_surf_access(s, 0x23, x, y, layerFace, &r, sizeof(T), m, 0);
    return r;
}
template <class T> __device__ void surfCubemapLayeredwrite(T v, cudaSurfaceObject_t s, int x, int y, int layerFace, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) {
    __cuprite_surf_access(s, 0x23, x, y, layerFace, &v, sizeof(T), m, 1);
}

/* Legacy surface references: `surface<void, dim> r;` at file scope is a device global
 * like a texture reference, its field the handle of the surface object made by the last
 * cudaBindSurfaceToArray; an unbound one passes __CUPRITE_UNBOUND_SURFREF
 * (cudaErrorInvalidSurface). */
template <class T, int dim = 1>
struct surface {
    unsigned long long __cuprite_obj;
};
#define __CUPRITE_UNBOUND_SURFREF 0xffffffffffffffffull
#define __CUPRITE_SURFREF(s) ((s).__cuprite_obj ? (s).__cuprite_obj : __CUPRITE_UNBOUND_SURFREF)
#define __CUPRITE_SURFREF_FNS(NAME, DIM, KIND, PARAMS, ARGS)                                                        \
    template <class T> __device__ T NAME##read(surface<void, DIM> s, PARAMS, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) { \
        T r;                                                                                                        \
        __cuprite_surf_access(__CUPRITE_SURFREF(s), KIND, ARGS, &r, sizeof(T), m, 0);                              \
        return r;                                                                                                   \
    }                                                                                                               \
    template <class T> __device__ void NAME##read(T *r, surface<void, DIM> s, PARAMS, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) { \
        __cuprite_surf_access(__CUPRITE_SURFREF(s), KIND, ARGS, r, sizeof(T), m, 0);                               \
    }                                                                                                               \
    template <class T> __device__ void NAME##write(T v, surface<void, DIM> s, PARAMS, enum cudaSurfaceBoundaryMode m = cudaBoundaryModeTrap) { \
        __cuprite_surf_access(__CUPRITE_SURFREF(s), KIND, ARGS, &v, sizeof(T), m, 1);                              \
    }
#define __CUPRITE_COMMA ,
__CUPRITE_SURFREF_FNS(surf1D, 1, 1, int x, x __CUPRITE_COMMA 0 __CUPRITE_COMMA 0)
__CUPRITE_SURFREF_FNS(surf2D, 2, 2, int x __CUPRITE_COMMA int y, x __CUPRITE_COMMA y __CUPRITE_COMMA 0)
__CUPRITE_SURFREF_FNS(surf3D, 3, 3, int x __CUPRITE_COMMA int y __CUPRITE_COMMA int z, x __CUPRITE_COMMA y __CUPRITE_COMMA z)
__CUPRITE_SURFREF_FNS(surf1DLayered, 0xF1, 0x13, int x __CUPRITE_COMMA int layer, x __CUPRITE_COMMA 0 __CUPRITE_COMMA layer)
__CUPRITE_SURFREF_FNS(surf2DLayered, 0xF2, 0x23, int x __CUPRITE_COMMA int y __CUPRITE_COMMA int layer, x __CUPRITE_COMMA y __CUPRITE_COMMA layer)
__CUPRITE_SURFREF_FNS(surfCubemap, 0x0C, 0x23, int x __CUPRITE_COMMA int y __CUPRITE_COMMA int face, x __CUPRITE_COMMA y __CUPRITE_COMMA face)
__CUPRITE_SURFREF_FNS(surfCubemapLayered, 0xFC, 0x23, int x __CUPRITE_COMMA int y __CUPRITE_COMMA int layerFace, x __CUPRITE_COMMA y __CUPRITE_COMMA layerFace)
#undef __CUPRITE_SURFREF_FNS
#undef __CUPRITE_COMMA

#endif
