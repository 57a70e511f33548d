/* ==== Cuprite CPU prelude: helpers that keep CUDA's semantics in C ==================== */
#include <math.h>
#include <fenv.h>
#include <stdio.h>
#include <string.h>
#include <limits.h>

#define __CU_INLINE static inline __attribute__((always_inline, unused))
#define __CU_HELPER static __attribute__((noinline, unused))

/* The context a device function that is not inlined into its kernel receives: the
 * thread's and block's coordinates and where this launch's shared memory is. */
typedef struct __cuprite_tctx {
    cuprite_dim3 tid, bid, bdim, gdim;
    uint32_t tlinear;
    char *shared;
    char *dyn_shared;
    /* The launch's dynamic shared memory size (PTX %dynamic_smem_size). */
    uint32_t dyn_shared_bytes;
    /* Offsets of the module's static __shared__ variables in the running kernel's
     * layout, indexed by the variable's shared index. */
    const uint32_t *shoff;
} __cuprite_tctx;

/* ---- integer division and remainder: never trap ------------------------------------
 * What an H200 gives (tests/facts/intdiv.txt, nvcc 13):
 * - 32-bit x / 0 and x % 0: all ones (-1 signed, 0xffffffff unsigned);
 * - 64-bit x / 0 and x % 0: 0x00000000ffffffff when x's upper 32 bits are zero (the GPU
 *   divides such operands with its 32-bit routine), all ones otherwise;
 * - MIN / -1 = MIN, MIN % -1 = 0.
 * (One family, so that the GPU's facts can be adjusted in one place.) */
#define __CU_ZERO_DIVISOR_32(T, a) ((T)~(T)0)
#define __CU_ZERO_DIVISOR_64(T, a) (((uint64_t)(a) >> 32) == 0 ? (T)0xffffffffull : (T)~(T)0)
#define __CU_DIV_S(N, T, ZERO)                                                          \
    __CU_INLINE T __cu_div_##N(T a, T b) {                                              \
        if (__builtin_expect(b == 0, 0)) return ZERO(T, a);                             \
        if (__builtin_expect(b == -1, 0)) return (T)(0 - (unsigned long long)a);        \
        return a / b;                                                                   \
    }                                                                                   \
    __CU_INLINE T __cu_rem_##N(T a, T b) {                                              \
        if (__builtin_expect(b == 0, 0)) return ZERO(T, a);                             \
        if (__builtin_expect(b == -1, 0)) return 0;                                     \
        return a % b;                                                                   \
    }
#define __CU_DIV_U(N, T, ZERO)                                                          \
    __CU_INLINE T __cu_div_##N(T a, T b) { return __builtin_expect(b == 0, 0) ? ZERO(T, a) : a / b; } \
    __CU_INLINE T __cu_rem_##N(T a, T b) { return __builtin_expect(b == 0, 0) ? ZERO(T, a) : a % b; }
__CU_DIV_S(i32, int32_t, __CU_ZERO_DIVISOR_32)
__CU_DIV_S(i64, int64_t, __CU_ZERO_DIVISOR_64)
__CU_DIV_U(u32, uint32_t, __CU_ZERO_DIVISOR_32)
__CU_DIV_U(u64, uint64_t, __CU_ZERO_DIVISOR_64)

/* ---- shifts: PTX clamps the amount (shl/shr.u: 0, shr.s: sign fill) ----------------- */
#define __CU_SHIFT(N, T, UT, BITS)                                                      \
    __CU_INLINE T __cu_shl_##N(T a, uint64_t n) { return n >= BITS ? (T)0 : (T)((UT)a << n); } \
    __CU_INLINE T __cu_shr_##N(T a, uint64_t n) { return n >= BITS ? (T)(a < 0 ? -1 : 0) : (T)(a >> n); }
#define __CU_SHIFTU(N, T, BITS)                                                         \
    __CU_INLINE T __cu_shl_##N(T a, uint64_t n) { return n >= BITS ? (T)0 : (T)(a << n); } \
    __CU_INLINE T __cu_shr_##N(T a, uint64_t n) { return n >= BITS ? (T)0 : (T)(a >> n); }
__CU_SHIFT(i32, int32_t, uint32_t, 32)
__CU_SHIFT(i64, int64_t, uint64_t, 64)
__CU_SHIFTU(u32, uint32_t, 32)
__CU_SHIFTU(u64, uint64_t, 64)

/* ---- float -> integer: saturate; NaN gives what an H200 gives -------------------------
 * (tests/facts/intdiv.txt: float NaN -> 0 for 32-bit targets; NaN -> 64-bit gives the
 * most negative value, or 2^63 unsigned; double NaN -> int gives INT_MIN, -> unsigned
 * 2^31.) 8- and 16-bit targets are not measured: NaN -> 0. */
#define __CU_F2I(N, F, T, LO, HI, NAN_VALUE)                                            \
    __CU_INLINE T __cu_cvt_##N(F x) {                                                   \
        if (__builtin_expect(x != x, 0)) return (NAN_VALUE);                            \
        if (x <= (F)(LO)) return (LO);                                                  \
        if (x >= (F)(HI)) return (HI);                                                  \
        return (T)x;                                                                    \
    }
__CU_F2I(f32_i8, float, int8_t, INT8_MIN, INT8_MAX, 0)
__CU_F2I(f32_i16, float, int16_t, INT16_MIN, INT16_MAX, 0)
__CU_F2I(f32_i32, float, int32_t, INT32_MIN, INT32_MAX, 0)
__CU_F2I(f32_i64, float, int64_t, INT64_MIN, INT64_MAX, INT64_MIN)
__CU_F2I(f32_u8, float, uint8_t, 0, UINT8_MAX, 0)
__CU_F2I(f32_u16, float, uint16_t, 0, UINT16_MAX, 0)
__CU_F2I(f32_u32, float, uint32_t, 0, UINT32_MAX, 0)
__CU_F2I(f32_u64, float, uint64_t, 0, UINT64_MAX, (uint64_t)1 << 63)
__CU_F2I(f64_i8, double, int8_t, INT8_MIN, INT8_MAX, 0)
__CU_F2I(f64_i16, double, int16_t, INT16_MIN, INT16_MAX, 0)
__CU_F2I(f64_i32, double, int32_t, INT32_MIN, INT32_MAX, INT32_MIN)
__CU_F2I(f64_i64, double, int64_t, INT64_MIN, INT64_MAX, INT64_MIN)
__CU_F2I(f64_u8, double, uint8_t, 0, UINT8_MAX, 0)
__CU_F2I(f64_u16, double, uint16_t, 0, UINT16_MAX, 0)
__CU_F2I(f64_u32, double, uint32_t, 0, UINT32_MAX, (uint32_t)1 << 31)
__CU_F2I(f64_u64, double, uint64_t, 0, UINT64_MAX, (uint64_t)1 << 63)

/* ---- errors the generated code detects ---------------------------------------------- */
__CU_HELPER __attribute__((noreturn)) void __cu_divergent_barrier(uint32_t bx, uint32_t by, uint32_t bz) {
    char msg[160];
    snprintf(msg, sizeof msg,
             "threads of block (%u,%u,%u) reached different __syncthreads() calls (divergent barrier)",
             bx, by, bz);
    __cuprite_kernel_error(719 /* cudaErrorLaunchFailure */, msg);
}

/* ---- textures and surfaces: the runtime reads through the object's descriptor
 * (crates/cuprite-rt/src/texture/object.rs) and returns a CUDA error that ends the launch. */
int __cuprite_tex_fetch(uint64_t obj, int dims, float x, float y, float z, int layer, void *out, unsigned size,
                        const char **msg);
int __cuprite_tex_fetch_int(uint64_t obj, int x, void *out, unsigned size, const char **msg);
int __cuprite_surf_access(uint64_t obj, int dims, int x, int y, int z, void *data, unsigned size, int mode,
                          int write, const char **msg);
/* The start of a texture object (`FastPath` in crates/cuprite-rt/src/texture/object.rs;
 * keep the two in step): kind 1 when a fetch is a plain read of one 4-byte texel
 * (nearest-point, clamp, one level, 1D/2D array or pitch-2D memory, read as elements);
 * kind 2 when it is bilinear filtering of one float channel with clamp addressing (any
 * mode but border, for unnormalized coordinates), otherwise as kind 1; kind 3 when it is
 * nearest-point with normalized coordinates and wrap addressing, otherwise as kind 1. */
struct __cu_tex_fast { uint32_t kind, width, height, normalized; uint64_t row; const char *base; };
/* A 4-byte tex1D/tex2D fetch: read in line for plain objects, through the runtime
 * otherwise. Not inlined, but with a SIMD clone (`declare simd`), so that a thread loop
 * calling it still vectorises (GCC calls the clone once per vector of threads). */
/* A handle that is an object: not 0 and not __CUPRITE_UNBOUND_TEXREF (all ones). */
#define __CU_TEX_OBJECT(o) ((o) != 0 && (o) != ~(uint64_t)0)
#pragma omp declare simd uniform(o, d) notinbranch
__attribute__((noinline, unused)) static uint32_t __cu_tex_fetch4(uint64_t o, int d, float x, float y) {
    const struct __cu_tex_fast *f = (const struct __cu_tex_fast *)(uintptr_t)o;
    uint32_t v;
    if (__builtin_expect(__CU_TEX_OBJECT(o) && f->kind == 1, 1)) {
        float fx = f->normalized ? x * (float)f->width : x;
        float fy = f->normalized ? y * (float)f->height : y;
        /* floor, then clamp to the array (NaN reads texel 0, as the runtime does). */
        float ix = fminf(fmaxf(floorf(fx), 0.0f), (float)(f->width - 1u));
        float iy = fminf(fmaxf(floorf(fy), 0.0f), (float)(f->height - 1u));
        memcpy(&v, f->base + (uint64_t)iy * f->row + (uint64_t)ix * 4u, 4);
        return v;
    }
    if (__CU_TEX_OBJECT(o) && f->kind == 3 && x - x == 0.0f && y - y == 0.0f) {
        /* Wrap as Axis::texel_coord and Axis::address do: frac(x) scaled, floored, and
         * the one index that can reach the size (frac rounding up to 1) wrapped to 0. */
        float w = (float)f->width, h = (float)f->height;
        float ix = floorf((x - floorf(x)) * w), iy = floorf((y - floorf(y)) * h);
        if (ix >= w) ix -= w;
        if (iy >= h) iy -= h;
        memcpy(&v, f->base + (uint64_t)iy * f->row + (uint64_t)ix * 4u, 4);
        return v;
    }
    if (__CU_TEX_OBJECT(o) && f->kind == 2 && x == x && y == y) {
        /* As the runtime filters (filter.rs, object.rs): the footprint kept between the
         * first and last texel centres, weights in 1/256 with the product rounded, the
         * sum exact in double. */
        float w = (float)f->width, h = (float)f->height;
        float fx = fminf(fmaxf(f->normalized ? x * w : x, 0.5f), w - 0.5f) - 0.5f;
        float fy = fminf(fmaxf(f->normalized ? y * h : y, 0.5f), h - 0.5f) - 0.5f;
        float ix = floorf(fx), iy = floorf(fy);
        int a = (int)roundf((fx - ix) * 256.0f), b = (int)roundf((fy - iy) * 256.0f);
        uint32_t x0 = (uint32_t)ix, y0 = (uint32_t)iy;
        uint32_t x1 = x0 + 1u < f->width ? x0 + 1u : x0, y1 = y0 + 1u < f->height ? y0 + 1u : y0;
        int w11 = (a * b + 128) >> 8, w10 = a - w11, w01 = b - w11, w00 = 256 - a - b + w11;
        const char *r0 = f->base + (uint64_t)y0 * f->row, *r1 = f->base + (uint64_t)y1 * f->row;
        float t00, t10, t01, t11;
        memcpy(&t00, r0 + (uint64_t)x0 * 4u, 4); memcpy(&t10, r0 + (uint64_t)x1 * 4u, 4);
        memcpy(&t01, r1 + (uint64_t)x0 * 4u, 4); memcpy(&t11, r1 + (uint64_t)x1 * 4u, 4);
        double s = 0.0;
        if (w00) s += (double)w00 * t00;
        if (w10) s += (double)w10 * t10;
        if (w01) s += (double)w01 * t01;
        if (w11) s += (double)w11 * t11;
        float r = (float)(s / 256.0);
        memcpy(&v, &r, 4);
        return v;
    }
    const char *m = 0;
    int e = __cuprite_tex_fetch(o, d, x, y, 0.0f, 0, &v, 4, &m);
    if (__builtin_expect(e != 0, 0)) __cuprite_kernel_error(e, m);
    return v;
}
__CU_INLINE void __cu_cuprite_tex_fetch(uint64_t o, int d, float x, float y, float z, int l, void *r, unsigned n) {
    if (n == 4 && (d == 1 || d == 2)) {
        uint32_t v = __cu_tex_fetch4(o, d, x, y);
        memcpy(r, &v, 4);
        return;
    }
    const char *m = 0;
    int e = __cuprite_tex_fetch(o, d, x, y, z, l, r, n, &m);
    if (__builtin_expect(e != 0, 0)) __cuprite_kernel_error(e, m);
}
__CU_INLINE void __cu_cuprite_tex_fetch_int(uint64_t o, int x, void *r, unsigned n) {
    const char *m = 0;
    int e = __cuprite_tex_fetch_int(o, x, r, n, &m);
    if (__builtin_expect(e != 0, 0)) __cuprite_kernel_error(e, m);
}
__CU_INLINE void __cu_cuprite_surf_access(uint64_t o, int d, int x, int y, int z, void *p, unsigned n, int mode, int w) {
    const char *m = 0;
    int e = __cuprite_surf_access(o, d, x, y, z, p, n, mode, w, &m);
    if (__builtin_expect(e != 0, 0)) __cuprite_kernel_error(e, m);
}

/* ---- the general scheduler: kernels with warp collectives ---------------------------
 * Every thread of the block has a slot; `st` is its resume point: 0 when it has
 * returned, r + 1 when it is ready to run region r, __CU_PARKED | c when it waits at cut
 * point c (a __syncthreads or a warp collective; cut c starts region c + 1). A thread
 * stores its operands (mask, value, lane, width; a barrier's predicate in `val`) when
 * it parks; the result is left in `res` (MatchAll: the predicate in bit 32). */
typedef struct { uint64_t val; uint64_t res; uint32_t mask; int32_t lane; int32_t width; uint32_t st; } __cu_wslot;
/* kind: 0 barrier, 1 warp; rank: the cut's place in a reverse postorder of the kernel's
 * CFG (lock-step points: lanes at a lower rank are behind and go first). */
typedef struct { uint8_t kind; uint8_t op; uint32_t rank; } __cu_cut;
#define __CU_PARKED 0x80000000u
enum {
    __CU_W_SHFL_IDX, __CU_W_SHFL_UP, __CU_W_SHFL_DOWN, __CU_W_SHFL_XOR,
    __CU_W_ALL, __CU_W_ANY, __CU_W_UNI, __CU_W_BALLOT, __CU_W_ACTIVEMASK, __CU_W_SYNCWARP,
    __CU_W_MATCH_ANY, __CU_W_MATCH_ALL, __CU_W_RED_ADD, __CU_W_RED_MIN_I, __CU_W_RED_MIN_U,
    __CU_W_RED_MAX_I, __CU_W_RED_MAX_U, __CU_W_RED_AND, __CU_W_RED_OR, __CU_W_RED_XOR,
    __CU_W_LOCKSTEP, __CU_W_YIELD
};
/* Barrier kinds in a cut's `op` (kind 0): __syncthreads and its predicate forms, and
 * the grid barrier of cooperative launches. */
#define __CU_B_GRID 4u

/* Computes collective `op` for the lanes `part` (bit i: thread base + i) of one warp,
 * all parked at it. Each lane's own mask restricts whom it hears from. A shuffle from
 * outside the reader's segment gives the reader's own value (as CUDA documents); from a
 * lane of the segment that is not there (diverged, exited, past the block's end) it
 * gives 0, as measured on an H100 (also for code JIT-compiled from compute_75). */
__CU_HELPER void __cu_warp_compute(__cu_wslot *s, uint32_t base, uint32_t part, uint8_t op) {
    for (uint32_t i = 0; i < 32; i++) {
        if (!(part >> i & 1u)) continue;
        __cu_wslot *me = &s[base + i];
        uint32_t m = me->mask & part;
        uint64_t r = 0;
        switch (op) {
        case __CU_W_SHFL_IDX: case __CU_W_SHFL_UP: case __CU_W_SHFL_DOWN: case __CU_W_SHFL_XOR: {
            /* PTX shfl with c = ((32 - width) << 8) | (up ? 0 : 0x1f). */
            uint32_t segmask = (uint32_t)(32 - me->width) & 0x1fu;
            uint32_t cval = op == __CU_W_SHFL_UP ? 0u : 0x1fu;
            int32_t maxl = (int32_t)((i & segmask) | (cval & ~segmask));
            int32_t minl = (int32_t)(i & segmask);
            int32_t b = me->lane & 0x1f, j;
            int ok;
            switch (op) {
            case __CU_W_SHFL_UP: j = (int32_t)i - b; ok = j >= maxl; break;
            case __CU_W_SHFL_DOWN: j = (int32_t)i + b; ok = j <= maxl; break;
            case __CU_W_SHFL_XOR: j = (int32_t)i ^ b; ok = j <= maxl; break;
            default: j = minl | (b & (int32_t)~segmask & 0x1f); ok = j <= maxl; break;
            }
            if (!ok || j < 0 || j > 31) r = me->val;      /* out of the segment: own value */
            else if (!(part >> j & 1u)) r = 0;            /* a lane not there: 0, as the H100 */
            else r = s[base + (uint32_t)j].val;
            break;
        }
        case __CU_W_ALL: case __CU_W_ANY: case __CU_W_UNI: case __CU_W_BALLOT: {
            uint32_t yes = 0;
            for (uint32_t k = 0; k < 32; k++)
                if ((m >> k & 1u) && s[base + k].val) yes |= 1u << k;
            if (op == __CU_W_ALL) r = yes == m;
            else if (op == __CU_W_ANY) r = yes != 0;
            else if (op == __CU_W_UNI) r = yes == 0 || yes == m;
            else r = yes;
            break;
        }
        case __CU_W_ACTIVEMASK: r = part; break;
        case __CU_W_SYNCWARP: case __CU_W_LOCKSTEP: case __CU_W_YIELD: break;
        case __CU_W_MATCH_ANY: case __CU_W_MATCH_ALL: {
            uint32_t same = 0;
            for (uint32_t k = 0; k < 32; k++)
                if ((m >> k & 1u) && s[base + k].val == me->val) same |= 1u << k;
            if (op == __CU_W_MATCH_ANY) r = same;
            else r = same == m ? ((uint64_t)me->mask | (1ull << 32)) : 0;
            break;
        }
        default: {
            uint64_t acc = 0;
            int first = 1;
            for (uint32_t k = 0; k < 32; k++) {
                if (!(m >> k & 1u)) continue;
                uint64_t v = s[base + k].val;
                if (first) { acc = v; first = 0; continue; }
                switch (op) {
                case __CU_W_RED_ADD: acc += v; break;
                case __CU_W_RED_MIN_I: if ((int64_t)v < (int64_t)acc) acc = v; break;
                case __CU_W_RED_MIN_U: if (v < acc) acc = v; break;
                case __CU_W_RED_MAX_I: if ((int64_t)v > (int64_t)acc) acc = v; break;
                case __CU_W_RED_MAX_U: if (v > acc) acc = v; break;
                case __CU_W_RED_AND: acc &= v; break;
                case __CU_W_RED_OR: acc |= v; break;
                default: acc ^= v; break;
                }
            }
            r = acc;
            break;
        }
        }
        me->res = r;
    }
}

/* A collective that every thread of the block reached together (barrier-region fission):
 * computed for each warp with all its existing lanes taking part. */
__CU_HELPER void __cu_warp_all(__cu_wslot *s, uint32_t n, uint8_t op) {
    for (uint32_t base = 0; base < n; base += 32) {
        uint32_t lanes = n - base < 32 ? n - base : 32;
        __cu_warp_compute(s, base, lanes == 32 ? 0xffffffffu : (1u << lanes) - 1u, op);
    }
}

/* The same for the threads inside a guarded region (`in[t]` non-zero): those of each
 * warp take part; a warp with none is skipped. */
__CU_HELPER void __cu_warp_masked(__cu_wslot *s, uint32_t n, uint8_t op, const uint8_t *in) {
    for (uint32_t base = 0; base < n; base += 32) {
        uint32_t lanes = n - base < 32 ? n - base : 32, part = 0;
        for (uint32_t i = 0; i < lanes; i++)
            if (in[base + i]) part |= 1u << i;
        if (part) __cu_warp_compute(s, base, part, op);
    }
}

/* Picks what the block does next; returns the region to run, -1 when every thread
 * has returned, -2 when every live thread waits at a grid barrier (they are made
 * ready for the region after it, which the block resumes at in the next grid phase),
 * or -3 (only with `spins`, in cooperative launches) when the block stops for now. In order: run the region of the lowest thread that is ready; compute a
 * warp collective for a warp whose lanes named by the parked lanes' masks are all there
 * (or have returned, or do not exist); release a barrier once every live thread waits
 * at it; else (lanes wait for each other at different points: undefined on a GPU)
 * compute the collective of the lowest parked thread with the lanes that are there. */
__CU_HELPER int32_t __cu_schedule(__cu_wslot *s, uint32_t n, const __cu_cut *cuts, uint32_t bx, uint32_t by, uint32_t bz, uint32_t *spins) {
    for (;;) {
        uint32_t lowest_warp = UINT32_MAX, bar = UINT32_MAX, live = 0, yielding = 0;
        int mixed = 0;
        for (uint32_t t = 0; t < n; t++) {
            uint32_t st = s[t].st;
            if (st == 0) continue;
            if (!(st & __CU_PARKED)) return (int32_t)(st - 1);
            live++;
            uint32_t c = st & ~__CU_PARKED;
            yielding += cuts[c].kind == 1 && cuts[c].op == __CU_W_YIELD;
            if (cuts[c].kind == 1) {
                if (lowest_warp == UINT32_MAX) lowest_warp = t;
            } else if (bar == UINT32_MAX) {
                bar = c;
            } else if (bar != c) {
                mixed = 1;
            }
        }
        if (live == 0) return -1;
        /* Every live thread waits for something only another block can do (a device-scope
         * barrier, a flag): in a cooperative launch, whose blocks may wait for each other,
         * the block stops for now (-3) so that the runtime can run the others; it resumes
         * here. (Counted, so that waits within the block get some rounds first.) */
        if (spins && yielding == live && ++*spins >= 64) {
            *spins = 0;
            return -3;
        }
        if (lowest_warp == UINT32_MAX) {
            if (mixed) __cu_divergent_barrier(bx, by, bz);
            if (cuts[bar].op == __CU_B_GRID) {
                for (uint32_t t = 0; t < n; t++)
                    if (s[t].st) s[t].st = bar + 2;
                return -2;
            }
            uint64_t cnt = 0;
            for (uint32_t t = 0; t < n; t++)
                if (s[t].st) cnt += s[t].val != 0;
            uint64_t r;
            switch (cuts[bar].op) {
            case 2: r = cnt == live; break;
            case 3: r = cnt != 0; break;
            default: r = cnt; break;
            }
            for (uint32_t t = 0; t < n; t++)
                if (s[t].st) { s[t].res = r; s[t].st = bar + 2; }
            return (int32_t)bar + 1;
        }
        int progressed = 0;
        for (uint32_t base = 0; base < n; base += 32) {
            uint32_t lanes = n - base < 32 ? n - base : 32;
            uint32_t done = 0, alive = 0, behind = UINT32_MAX;
            for (uint32_t i = 0; i < lanes; i++) {
                uint32_t st = s[base + i].st;
                if (st) alive |= 1u << i;
                if ((st & __CU_PARKED) && cuts[st & ~__CU_PARKED].op == __CU_W_LOCKSTEP && cuts[st & ~__CU_PARKED].kind == 1
                    && cuts[st & ~__CU_PARKED].rank < behind)
                    behind = cuts[st & ~__CU_PARKED].rank;
            }
            for (uint32_t i = 0; i < lanes; i++) {
                uint32_t st = s[base + i].st;
                if ((done >> i & 1u) || !(st & __CU_PARKED) || cuts[st & ~__CU_PARKED].kind != 1) continue;
                uint32_t part = 0, want = 0;
                for (uint32_t k = i; k < lanes; k++)
                    if (s[base + k].st == st) { part |= 1u << k; want |= s[base + k].mask; }
                done |= part;
                uint8_t op = cuts[st & ~__CU_PARKED].op;
                /* A lock-step point waits for the warp's lanes that are behind it, so that
                 * a diverged warp reconverges before its next memory access. */
                if (op == __CU_W_LOCKSTEP && cuts[st & ~__CU_PARKED].rank > behind) continue;
                /* These wait for no one: the lanes that are here go on together. */
                if (op == __CU_W_ACTIVEMASK || op == __CU_W_LOCKSTEP || op == __CU_W_YIELD) want = 0;
                if (want & alive & ~part) continue;
                __cu_warp_compute(s, base, part, op);
                for (uint32_t k = 0; k < lanes; k++)
                    if (part >> k & 1u) s[base + k].st = (st & ~__CU_PARKED) + 2;
                progressed = 1;
            }
        }
        if (progressed) continue;
        /* Nothing can proceed as the guide defines it: take the lowest parked lane's. */
        uint32_t base = lowest_warp & ~31u, lanes = n - base < 32 ? n - base : 32, st = s[lowest_warp].st, part = 0;
        for (uint32_t k = 0; k < lanes; k++)
            if (s[base + k].st == st) part |= 1u << k;
        __cu_warp_compute(s, base, part, cuts[st & ~__CU_PARKED].op);
        for (uint32_t k = 0; k < lanes; k++)
            if (part >> k & 1u) s[base + k].st = (st & ~__CU_PARKED) + 2;
    }
}

/* ---- grid barriers of cooperative launches ------------------------------------------
 * A block that reaches grid.sync() ends its part of the current grid phase: its state
 * (shared memory, per-thread slots, the resume point) stays in buffers the runtime keeps
 * per block, and the runtime starts it again at `resume` once every block of the grid
 * has reached the barrier. Outside a cooperative launch there is no grid to wait for:
 * CUDA's grid_group::sync() traps there (cudaErrorLaunchFailure). */
__CU_HELPER void __cu_grid_suspend(cuprite_block_run *run, uint32_t resume) {
    if (!run->launch->cooperative)
        __cuprite_kernel_error(719, "grid.sync() (cooperative_groups::grid_group::sync) in a kernel that was not launched "
                                    "cooperatively (use cudaLaunchCooperativeKernel or cudaLaunchAttributeCooperative)");
    run->grid_resume = resume;
}
/* grid_resume of a block that stopped waiting for other blocks (not at a grid barrier). */
#define __CU_GRID_YIELDED 0x80000000u

/* ---- bit reinterpretation ----------------------------------------------------------- */
__CU_INLINE int32_t __cu_float_as_int(float x) { int32_t r; memcpy(&r, &x, 4); return r; }
__CU_INLINE uint32_t __cu_float_as_uint(float x) { uint32_t r; memcpy(&r, &x, 4); return r; }
__CU_INLINE float __cu_int_as_float(int32_t x) { float r; memcpy(&r, &x, 4); return r; }
__CU_INLINE float __cu_uint_as_float(uint32_t x) { float r; memcpy(&r, &x, 4); return r; }
__CU_INLINE int64_t __cu_double_as_longlong(double x) { int64_t r; memcpy(&r, &x, 8); return r; }
__CU_INLINE double __cu_longlong_as_double(int64_t x) { double r; memcpy(&r, &x, 8); return r; }
__CU_INLINE int32_t __cu_double2hiint(double x) { return (int32_t)(__cu_double_as_longlong(x) >> 32); }
__CU_INLINE int32_t __cu_double2loint(double x) { return (int32_t)__cu_double_as_longlong(x); }
__CU_INLINE double __cu_hiloint2double(int32_t hi, int32_t lo) {
    return __cu_longlong_as_double((int64_t)(((uint64_t)(uint32_t)hi << 32) | (uint32_t)lo));
}

/* ---- min / max / abs for each type -------------------------------------------------- */
#define __CU_MINMAX(N, T)                                                               \
    __CU_INLINE T __cu_min_##N(T a, T b) { return a < b ? a : b; }                      \
    __CU_INLINE T __cu_max_##N(T a, T b) { return a > b ? a : b; }
__CU_MINMAX(i32, int32_t)
__CU_MINMAX(u32, uint32_t)
__CU_MINMAX(i64, int64_t)
__CU_MINMAX(u64, uint64_t)
__CU_INLINE float __cu_min_f32(float a, float b) { return __cu_fminf(a, b); }
__CU_INLINE float __cu_max_f32(float a, float b) { return __cu_fmaxf(a, b); }
__CU_INLINE double __cu_min_f64(double a, double b) { return __cu_fmin(a, b); }
__CU_INLINE double __cu_max_f64(double a, double b) { return __cu_fmax(a, b); }
/* abs(INT_MIN) = INT_MIN, as on the GPU (no UB with -fwrapv). */
__CU_INLINE int32_t __cu_abs_i32(int32_t a) { return a < 0 ? (int32_t)(0u - (uint32_t)a) : a; }
__CU_INLINE int64_t __cu_abs_i64(int64_t a) { return a < 0 ? (int64_t)(0ull - (uint64_t)a) : a; }
__CU_INLINE float __cu_abs_f32(float a) { return fabsf(a); }
__CU_INLINE double __cu_abs_f64(double a) { return fabs(a); }
__CU_INLINE int __cu_isnan_f32(float x) { return __builtin_isnan(x); }
__CU_INLINE int __cu_isnan_f64(double x) { return __builtin_isnan(x); }
__CU_INLINE int __cu_isinf_f32(float x) { return __builtin_isinf(x); }
__CU_INLINE int __cu_isinf_f64(double x) { return __builtin_isinf(x); }
__CU_INLINE int __cu_isfinite_f32(float x) { return __builtin_isfinite(x); }
__CU_INLINE int __cu_isfinite_f64(double x) { return __builtin_isfinite(x); }
__CU_INLINE int __cu_signbit_f32(float x) { return __builtin_signbit(x) != 0; }
__CU_INLINE int __cu_signbit_f64(double x) { return __builtin_signbit(x) != 0; }

/* ---- functions CUDA has and C does not (the rest are in cuprite/math_extras.h) ------ */
/* -ftz: a subnormal float reads and writes as a zero of its sign (cuprite_ir::ftz). */
__CU_INLINE float __cu_cuprite_ftzf(float x) { return fabsf(x) < 0x1p-126f ? copysignf(0.0f, x) : x; }
/* NaN and -0 give +0, as on the GPU. */
__CU_INLINE float __cu_saturatef(float x) { return !(x > 0.0f) ? 0.0f : (x > 1.0f ? 1.0f : x); }
__CU_INLINE float __cu_exp10f(float x) { return powf(10.0f, x); }
__CU_INLINE double __cu_exp10(double x) { return pow(10.0, x); }
__CU_INLINE void __cu_sincosf(float x, float *s, float *c) { *s = sinf(x); *c = cosf(x); }
__CU_INLINE void __cu_sincos(double x, double *s, double *c) { *s = sin(x); *c = cos(x); }
/* __fdividef: a / b within its 2 ulp, except the documented case 2^126 < |b| < 2^128,
 * where the GPU's reciprocal flushes to zero: 0 (NaN for an infinite a). */
__CU_INLINE float __cu_fdividef(float a, float b) {
    float m = fabsf(b);
    if (m > 0x1p126f && m <= 0x1.fffffep127f) return a * copysignf(0.0f, b);
    return a / b;
}
__CU_INLINE float __cu_fdivide(float a, float b) { return __cu_fdividef(a, b); }
/* fdividef (no underscores) divides as x / y does (its special case is __fdividef's). */
__CU_INLINE float __cu_fdividef_accurate(float a, float b) { return a / b; }
__CU_INLINE float __cu_j0f(float x) { return (float)j0(x); }
__CU_INLINE float __cu_j1f(float x) { return (float)j1(x); }
__CU_INLINE float __cu_y0f(float x) { return (float)y0(x); }
__CU_INLINE float __cu_y1f(float x) { return (float)y1(x); }
__CU_INLINE float __cu_jnf(int n, float x) { return n < 0 ? NAN : (float)jn(n, x); }
__CU_INLINE float __cu_ynf(int n, float x) { return n < 0 ? NAN : (float)yn(n, x); }
/* Fast intrinsics: the accurate functions (within the intrinsics' bounds). */
__CU_INLINE float __cu_expf(float x) { return expf(x); }
__CU_INLINE float __cu_logf(float x) { return logf(x); }
__CU_INLINE float __cu_log2f(float x) { return log2f(x); }
__CU_INLINE float __cu_log10f(float x) { return log10f(x); }
__CU_INLINE float __cu_sinf(float x) { return sinf(x); }
__CU_INLINE float __cu_cosf(float x) { return cosf(x); }
__CU_INLINE float __cu_tanf(float x) { return tanf(x); }
/* __powf is exp2(b * log2(a)) on the GPU, special values included (__powf(0, 0) and
 * a negative base give NaN); the value itself is computed accurately. */
__CU_INLINE float __cu_powf(float a, float b) {
    if (isnan(a) || isnan(b) || a < 0.0f) return NAN;
    if (a == 0.0f) return b > 0.0f ? 0.0f : (b < 0.0f ? INFINITY : NAN);      /* log2 = -inf */
    if (isinf(a)) return b > 0.0f ? INFINITY : (b < 0.0f ? 0.0f : NAN);       /* log2 = +inf */
    if (a == 1.0f) return isinf(b) ? NAN : 1.0f;                               /* log2 = 0 */
    return powf(a, b);
}

/* ---- rounding-mode arithmetic (__fadd_rz and friends) -------------------------------
 * With AVX-512 each operation carries its rounding mode (embedded rounding): no switch
 * of the floating-point environment, which costs far more than the operation (interval
 * arithmetic does little else). Without it, the operation is evaluated under the mode
 * set with fesetround; volatile keeps it between the mode switches. */
#define __CU_RMODE_BEGIN(M) int __old = fegetround(); fesetround(M)
#define __CU_RMODE_END() fesetround(__old)
#if defined(__AVX512F__)
#include <immintrin.h>
#define __CU_RM_FE_TONEAREST (_MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC)
#define __CU_RM_FE_TOWARDZERO (_MM_FROUND_TO_ZERO | _MM_FROUND_NO_EXC)
#define __CU_RM_FE_UPWARD (_MM_FROUND_TO_POS_INF | _MM_FROUND_NO_EXC)
#define __CU_RM_FE_DOWNWARD (_MM_FROUND_TO_NEG_INF | _MM_FROUND_NO_EXC)
#define __CU_ROUNDED2(NAME, OP, T, MODE)                                                \
    __CU_INLINE T __cu_##NAME(T a, T b) {                                               \
        return sizeof(T) == 4                                                           \
            ? _mm_cvtss_f32(_mm_##OP##_round_ss(_mm_set_ss(a), _mm_set_ss(b), __CU_RM_##MODE)) \
            : _mm_cvtsd_f64(_mm_##OP##_round_sd(_mm_set_sd(a), _mm_set_sd(b), __CU_RM_##MODE)); \
    }
#define __CU_FMA_ROUNDED(NAME, T, MODE)                                                 \
    __CU_INLINE T __cu_##NAME(T a, T b, T c) {                                          \
        return sizeof(T) == 4                                                           \
            ? _mm_cvtss_f32(_mm_fmadd_round_ss(_mm_set_ss(a), _mm_set_ss(b), _mm_set_ss(c), __CU_RM_##MODE)) \
            : _mm_cvtsd_f64(_mm_fmadd_round_sd(_mm_set_sd(a), _mm_set_sd(b), _mm_set_sd(c), __CU_RM_##MODE)); \
    }
#define __CU_RCP_ROUNDED(NAME, T, MODE)                                                 \
    __CU_INLINE T __cu_##NAME(T a) {                                                    \
        return sizeof(T) == 4                                                           \
            ? _mm_cvtss_f32(_mm_div_round_ss(_mm_set_ss(1.0f), _mm_set_ss(a), __CU_RM_##MODE)) \
            : _mm_cvtsd_f64(_mm_div_round_sd(_mm_set_sd(1.0), _mm_set_sd(a), __CU_RM_##MODE)); \
    }
#define __CU_SQRT_ROUNDED(NAME, T, MODE)                                                \
    __CU_INLINE T __cu_##NAME(T a) {                                                    \
        return sizeof(T) == 4                                                           \
            ? _mm_cvtss_f32(_mm_sqrt_round_ss(_mm_set_ss(a), _mm_set_ss(a), __CU_RM_##MODE)) \
            : _mm_cvtsd_f64(_mm_sqrt_round_sd(_mm_set_sd(a), _mm_set_sd(a), __CU_RM_##MODE)); \
    }
#else
#define __CU_ROUNDED_OP_add +
#define __CU_ROUNDED_OP_sub -
#define __CU_ROUNDED_OP_mul *
#define __CU_ROUNDED_OP_div /
#define __CU_ROUNDED2(NAME, OP, T, MODE)                                                \
    __CU_HELPER T __cu_##NAME(T a, T b) {                                               \
        volatile T va = a, vb = b; T r;                                                 \
        __CU_RMODE_BEGIN(MODE); { volatile T vr = va __CU_ROUNDED_OP_##OP vb; r = vr; } __CU_RMODE_END(); \
        return r;                                                                       \
    }
#define __CU_FMA_ROUNDED(NAME, T, MODE)                                                 \
    __CU_HELPER T __cu_##NAME(T a, T b, T c) {                                          \
        volatile T va = a, vb = b, vc = c; T r;                                         \
        __CU_RMODE_BEGIN(MODE); { volatile T vr = sizeof(T) == 4 ? fmaf(va, vb, vc) : fma(va, vb, vc); r = vr; } __CU_RMODE_END(); \
        return r;                                                                       \
    }
#define __CU_RCP_ROUNDED(NAME, T, MODE)                                                 \
    __CU_HELPER T __cu_##NAME(T a) {                                                    \
        volatile T va = a; T r;                                                         \
        __CU_RMODE_BEGIN(MODE); { volatile T vr = (T)1 / va; r = vr; } __CU_RMODE_END(); \
        return r;                                                                       \
    }
#define __CU_SQRT_ROUNDED(NAME, T, MODE)                                                \
    __CU_HELPER T __cu_##NAME(T a) {                                                    \
        volatile T va = a; T r;                                                         \
        __CU_RMODE_BEGIN(MODE); { volatile T vr = sizeof(T) == 4 ? sqrtf(va) : sqrt(va); r = vr; } __CU_RMODE_END(); \
        return r;                                                                       \
    }
#endif
#define __CU_ROUNDED_ALL(OP)                                                             \
    __CU_ROUNDED2(f##OP##_rn, OP, float, FE_TONEAREST)                                   \
    __CU_ROUNDED2(f##OP##_rz, OP, float, FE_TOWARDZERO)                                  \
    __CU_ROUNDED2(f##OP##_ru, OP, float, FE_UPWARD)                                      \
    __CU_ROUNDED2(f##OP##_rd, OP, float, FE_DOWNWARD)                                    \
    __CU_ROUNDED2(d##OP##_rn, OP, double, FE_TONEAREST)                                  \
    __CU_ROUNDED2(d##OP##_rz, OP, double, FE_TOWARDZERO)                                 \
    __CU_ROUNDED2(d##OP##_ru, OP, double, FE_UPWARD)                                     \
    __CU_ROUNDED2(d##OP##_rd, OP, double, FE_DOWNWARD)
__CU_ROUNDED_ALL(add)
__CU_ROUNDED_ALL(sub)
__CU_ROUNDED_ALL(mul)
__CU_ROUNDED_ALL(div)
/* CUDA spells the single-precision division with "__fdiv_" and the double one "__ddiv_". */
__CU_FMA_ROUNDED(fmaf_rn, float, FE_TONEAREST)
__CU_FMA_ROUNDED(fmaf_rz, float, FE_TOWARDZERO)
__CU_FMA_ROUNDED(fmaf_ru, float, FE_UPWARD)
__CU_FMA_ROUNDED(fmaf_rd, float, FE_DOWNWARD)
__CU_FMA_ROUNDED(fma_rn, double, FE_TONEAREST)
__CU_FMA_ROUNDED(fma_rz, double, FE_TOWARDZERO)
__CU_FMA_ROUNDED(fma_ru, double, FE_UPWARD)
__CU_FMA_ROUNDED(fma_rd, double, FE_DOWNWARD)
__CU_RCP_ROUNDED(frcp_rn, float, FE_TONEAREST)
__CU_RCP_ROUNDED(frcp_rz, float, FE_TOWARDZERO)
__CU_RCP_ROUNDED(frcp_ru, float, FE_UPWARD)
__CU_RCP_ROUNDED(frcp_rd, float, FE_DOWNWARD)
__CU_RCP_ROUNDED(drcp_rn, double, FE_TONEAREST)
__CU_RCP_ROUNDED(drcp_rz, double, FE_TOWARDZERO)
__CU_RCP_ROUNDED(drcp_ru, double, FE_UPWARD)
__CU_RCP_ROUNDED(drcp_rd, double, FE_DOWNWARD)
__CU_SQRT_ROUNDED(fsqrt_rn, float, FE_TONEAREST)
__CU_SQRT_ROUNDED(fsqrt_rz, float, FE_TOWARDZERO)
__CU_SQRT_ROUNDED(fsqrt_ru, float, FE_UPWARD)
__CU_SQRT_ROUNDED(fsqrt_rd, float, FE_DOWNWARD)
__CU_SQRT_ROUNDED(dsqrt_rn, double, FE_TONEAREST)
__CU_SQRT_ROUNDED(dsqrt_rz, double, FE_TOWARDZERO)
__CU_SQRT_ROUNDED(dsqrt_ru, double, FE_UPWARD)
__CU_SQRT_ROUNDED(dsqrt_rd, double, FE_DOWNWARD)
__CU_INLINE float __cu_frsqrt_rn(float x) { return (float)(1.0 / sqrt((double)x)); }

/* ---- conversions with a rounding mode -------------------------------------------------
 * float/double -> integer: round as asked, then saturate with NaN -> 0. */
#define __CU_F2I_R(CN, F, N, T, RN, RZ, RU, RD)                                          \
    __CU_INLINE T __cu_##CN##_rn(F x) { return __cu_cvt_##N(RN(x)); }                   \
    __CU_INLINE T __cu_##CN##_rz(F x) { return __cu_cvt_##N(RZ(x)); }                   \
    __CU_INLINE T __cu_##CN##_ru(F x) { return __cu_cvt_##N(RU(x)); }                   \
    __CU_INLINE T __cu_##CN##_rd(F x) { return __cu_cvt_##N(RD(x)); }
__CU_F2I_R(float2int, float, f32_i32, int32_t, rintf, truncf, ceilf, floorf)
__CU_F2I_R(float2uint, float, f32_u32, uint32_t, rintf, truncf, ceilf, floorf)
__CU_F2I_R(float2ll, float, f32_i64, int64_t, rintf, truncf, ceilf, floorf)
__CU_F2I_R(float2ull, float, f32_u64, uint64_t, rintf, truncf, ceilf, floorf)
__CU_F2I_R(double2int, double, f64_i32, int32_t, rint, trunc, ceil, floor)
__CU_F2I_R(double2uint, double, f64_u32, uint32_t, rint, trunc, ceil, floor)
__CU_F2I_R(double2ll, double, f64_i64, int64_t, rint, trunc, ceil, floor)
__CU_F2I_R(double2ull, double, f64_u64, uint64_t, rint, trunc, ceil, floor)
__CU_INLINE int32_t __cu_float2int(float x) { return __cu_cvt_f32_i32(x); }
/* integer/double -> float (and integer -> double) with a rounding mode. */
#define __CU_CVT_R(NAME, FROM, TO, MODE)                                                \
    __CU_HELPER TO __cu_##NAME(FROM a) {                                                \
        volatile FROM va = a; TO r;                                                     \
        __CU_RMODE_BEGIN(MODE); { volatile TO vr = (TO)va; r = vr; } __CU_RMODE_END();  \
        return r;                                                                       \
    }
#define __CU_CVT_R4(NAME, FROM, TO)                                                     \
    __CU_CVT_R(NAME##_rn, FROM, TO, FE_TONEAREST)                                       \
    __CU_CVT_R(NAME##_rz, FROM, TO, FE_TOWARDZERO)                                      \
    __CU_CVT_R(NAME##_ru, FROM, TO, FE_UPWARD)                                          \
    __CU_CVT_R(NAME##_rd, FROM, TO, FE_DOWNWARD)
__CU_CVT_R4(int2float, int32_t, float)
__CU_CVT_R4(uint2float, uint32_t, float)
__CU_CVT_R4(ll2float, int64_t, float)
__CU_CVT_R4(ull2float, uint64_t, float)
__CU_CVT_R4(ll2double, int64_t, double)
__CU_CVT_R4(ull2double, uint64_t, double)
__CU_CVT_R4(double2float, double, float)
__CU_INLINE double __cu_int2double_rn(int32_t a) { return (double)a; }
__CU_INLINE double __cu_uint2double_rn(uint32_t a) { return (double)a; }
__CU_INLINE double __cu_float2double(float a) { return (double)a; }

/* ---- integer intrinsics ------------------------------------------------------------- */
__CU_INLINE int32_t __cu_popc(uint32_t x) { return __builtin_popcount(x); }
__CU_INLINE int32_t __cu_popcll(uint64_t x) { return __builtin_popcountll(x); }
__CU_INLINE int32_t __cu_clz(int32_t x) { return x == 0 ? 32 : __builtin_clz((uint32_t)x); }
__CU_INLINE int32_t __cu_clzll(int64_t x) { return x == 0 ? 64 : __builtin_clzll((uint64_t)x); }
__CU_INLINE int32_t __cu_ffs(int32_t x) { return __builtin_ffs(x); }
__CU_INLINE int32_t __cu_ffsll(int64_t x) { return __builtin_ffsll(x); }
__CU_INLINE uint32_t __cu_brev(uint32_t x) {
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0F0F0F0Fu) | ((x & 0x0F0F0F0Fu) << 4);
    return __builtin_bswap32(x);
}
__CU_INLINE uint64_t __cu_brevll(uint64_t x) {
    return ((uint64_t)__cu_brev((uint32_t)x) << 32) | __cu_brev((uint32_t)(x >> 32));
}
__CU_INLINE uint32_t __cu_byte_perm(uint32_t x, uint32_t y, uint32_t s) {
    uint64_t v = ((uint64_t)y << 32) | x;
    uint32_t r = 0;
    for (int i = 0; i < 4; i++) r |= (uint32_t)((v >> (((s >> (4 * i)) & 7) * 8)) & 0xff) << (8 * i);
    return r;
}
__CU_INLINE int32_t __cu_mulhi(int32_t a, int32_t b) { return (int32_t)(((int64_t)a * b) >> 32); }
__CU_INLINE uint32_t __cu_umulhi(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a * b) >> 32); }
__CU_INLINE int64_t __cu_mul64hi(int64_t a, int64_t b) { return (int64_t)(((__int128)a * b) >> 64); }
__CU_INLINE uint64_t __cu_umul64hi(uint64_t a, uint64_t b) { return (uint64_t)(((unsigned __int128)a * b) >> 64); }
__CU_INLINE int32_t __cu_mul24(int32_t a, int32_t b) {
    return (int32_t)((uint32_t)(((int32_t)((uint32_t)a << 8)) >> 8) * (uint32_t)(((int32_t)((uint32_t)b << 8)) >> 8));
}
__CU_INLINE uint32_t __cu_umul24(uint32_t a, uint32_t b) { return (a & 0xffffffu) * (b & 0xffffffu); }
__CU_INLINE uint32_t __cu_sad(int32_t a, int32_t b, uint32_t c) { return (a > b ? (uint32_t)a - (uint32_t)b : (uint32_t)b - (uint32_t)a) + c; }
__CU_INLINE uint32_t __cu_usad(uint32_t a, uint32_t b, uint32_t c) { return (a > b ? a - b : b - a) + c; }
__CU_INLINE int32_t __cu_hadd(int32_t a, int32_t b) { return (int32_t)(((int64_t)a + b) >> 1); }
__CU_INLINE int32_t __cu_rhadd(int32_t a, int32_t b) { return (int32_t)(((int64_t)a + b + 1) >> 1); }
__CU_INLINE uint32_t __cu_uhadd(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a + b) >> 1); }
__CU_INLINE uint32_t __cu_urhadd(uint32_t a, uint32_t b) { return (uint32_t)(((uint64_t)a + b + 1) >> 1); }
__CU_INLINE uint32_t __cu_funnelshift_l(uint32_t lo, uint32_t hi, uint32_t s) {
    uint64_t v = ((uint64_t)hi << 32) | lo; return (uint32_t)((v << (s & 31)) >> 32);
}
__CU_INLINE uint32_t __cu_funnelshift_lc(uint32_t lo, uint32_t hi, uint32_t s) {
    uint64_t v = ((uint64_t)hi << 32) | lo; return (uint32_t)((v << (s > 32 ? 32 : s)) >> 32);
}
__CU_INLINE uint32_t __cu_funnelshift_r(uint32_t lo, uint32_t hi, uint32_t s) {
    uint64_t v = ((uint64_t)hi << 32) | lo; return (uint32_t)(v >> (s & 31));
}
__CU_INLINE uint32_t __cu_funnelshift_rc(uint32_t lo, uint32_t hi, uint32_t s) {
    uint64_t v = ((uint64_t)hi << 32) | lo; return (uint32_t)(v >> (s > 32 ? 32 : s));
}
__CU_INLINE int32_t __cu_dp4a_i32(int32_t a, int32_t b, int32_t c) {
    int32_t r = c;
    for (int i = 0; i < 4; i++) r += (int32_t)(int8_t)(a >> (8 * i)) * (int32_t)(int8_t)(b >> (8 * i));
    return r;
}
__CU_INLINE uint32_t __cu_dp4a_u32(uint32_t a, uint32_t b, uint32_t c) {
    uint32_t r = c;
    for (int i = 0; i < 4; i++) r += ((a >> (8 * i)) & 0xff) * ((b >> (8 * i)) & 0xff);
    return r;
}

/* ---- atomics: atomic across the whole grid (all workers) ----------------------------- */
#define __CU_MO __ATOMIC_SEQ_CST
#define __CU_ATOMIC_INT(N, T)                                                           \
    __CU_INLINE T __cu_atomic_add_##N(T *p, T v) { return __atomic_fetch_add(p, v, __CU_MO); } \
    __CU_INLINE T __cu_atomic_sub_##N(T *p, T v) { return __atomic_fetch_sub(p, v, __CU_MO); } \
    __CU_INLINE T __cu_atomic_exch_##N(T *p, T v) { return __atomic_exchange_n(p, v, __CU_MO); } \
    __CU_INLINE T __cu_atomic_and_##N(T *p, T v) { return __atomic_fetch_and(p, v, __CU_MO); } \
    __CU_INLINE T __cu_atomic_or_##N(T *p, T v) { return __atomic_fetch_or(p, v, __CU_MO); } \
    __CU_INLINE T __cu_atomic_xor_##N(T *p, T v) { return __atomic_fetch_xor(p, v, __CU_MO); } \
    __CU_INLINE T __cu_atomic_cas_##N(T *p, T cmp, T v) {                                   \
        __atomic_compare_exchange_n(p, &cmp, v, 0, __CU_MO, __CU_MO); return cmp; }     \
    __CU_INLINE T __cu_atomic_min_##N(T *p, T v) {                                      \
        T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                   \
        while (old > v && !__atomic_compare_exchange_n(p, &old, v, 1, __CU_MO, __ATOMIC_RELAXED)) {} \
        return old; }                                                                   \
    __CU_INLINE T __cu_atomic_max_##N(T *p, T v) {                                      \
        T old = __atomic_load_n(p, __ATOMIC_RELAXED);                                   \
        while (old < v && !__atomic_compare_exchange_n(p, &old, v, 1, __CU_MO, __ATOMIC_RELAXED)) {} \
        return old; }
__CU_ATOMIC_INT(i32, int32_t)
__CU_ATOMIC_INT(u32, uint32_t)
__CU_ATOMIC_INT(i64, int64_t)
__CU_ATOMIC_INT(u64, uint64_t)
__CU_ATOMIC_INT(u16, uint16_t)
__CU_ATOMIC_INT(i16, int16_t)
/* atomicInc: old >= v ? 0 : old + 1;  atomicDec: (old == 0 || old > v) ? v : old - 1 */
__CU_INLINE uint32_t __cu_atomic_inc_u32(uint32_t *p, uint32_t v) {
    uint32_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(p, &old, old >= v ? 0u : old + 1u, 1, __CU_MO, __ATOMIC_RELAXED)) {}
    return old;
}
__CU_INLINE uint32_t __cu_atomic_dec_u32(uint32_t *p, uint32_t v) {
    uint32_t old = __atomic_load_n(p, __ATOMIC_RELAXED);
    while (!__atomic_compare_exchange_n(p, &old, (old == 0u || old > v) ? v : old - 1u, 1, __CU_MO, __ATOMIC_RELAXED)) {}
    return old;
}
/* Floating point: compare-and-swap on the bits. */
#define __CU_ATOMIC_FLOAT(N, F, U)                                                      \
    __CU_INLINE F __cu_atomic_rmw_##N(F *p, F v, int op) {                              \
        U *q = (U *)p; U old = __atomic_load_n(q, __ATOMIC_RELAXED), nw; F of, nf;      \
        do {                                                                            \
            memcpy(&of, &old, sizeof of);                                               \
            switch (op) {                                                               \
            case 0: nf = of + v; break;                                                 \
            case 1: nf = of - v; break;                                                 \
            case 2: nf = v; break;                                                      \
            case 3: nf = (v < of || of != of) ? v : of; break;                          \
            default: nf = (v > of || of != of) ? v : of; break;                         \
            }                                                                           \
            memcpy(&nw, &nf, sizeof nw);                                                \
        } while (!__atomic_compare_exchange_n(q, &old, nw, 1, __CU_MO, __ATOMIC_RELAXED)); \
        return of; }                                                                    \
    __CU_INLINE F __cu_atomic_add_##N(F *p, F v) { return __cu_atomic_rmw_##N(p, v, 0); } \
    __CU_INLINE F __cu_atomic_sub_##N(F *p, F v) { return __cu_atomic_rmw_##N(p, v, 1); } \
    __CU_INLINE F __cu_atomic_exch_##N(F *p, F v) { return __cu_atomic_rmw_##N(p, v, 2); } \
    __CU_INLINE F __cu_atomic_min_##N(F *p, F v) { return __cu_atomic_rmw_##N(p, v, 3); } \
    __CU_INLINE F __cu_atomic_max_##N(F *p, F v) { return __cu_atomic_rmw_##N(p, v, 4); } \
    __CU_INLINE F __cu_atomic_cas_##N(F *p, F cmp, F v) {                                   \
        U c, n; memcpy(&c, &cmp, sizeof c); memcpy(&n, &v, sizeof n);                   \
        __atomic_compare_exchange_n((U *)p, &c, n, 0, __CU_MO, __CU_MO);                \
        memcpy(&cmp, &c, sizeof c); return cmp; }
__CU_ATOMIC_FLOAT(f32, float, uint32_t)
__CU_ATOMIC_FLOAT(f64, double, uint64_t)
/* Shared-memory atomics where one thread at a time runs the statement (a block runs on
   one worker, and the thread loop holding it is not marked for SIMD): plain
   read-modify-writes, same results. */
#define __CU_PLAIN_INT(N, T)                                                            \
    __CU_INLINE T __cu_plain_add_##N(T *p, T v) { T o = *p; *p = o + v; return o; }     \
    __CU_INLINE T __cu_plain_sub_##N(T *p, T v) { T o = *p; *p = o - v; return o; }     \
    __CU_INLINE T __cu_plain_exch_##N(T *p, T v) { T o = *p; *p = v; return o; }        \
    __CU_INLINE T __cu_plain_and_##N(T *p, T v) { T o = *p; *p = o & v; return o; }     \
    __CU_INLINE T __cu_plain_or_##N(T *p, T v) { T o = *p; *p = o | v; return o; }      \
    __CU_INLINE T __cu_plain_xor_##N(T *p, T v) { T o = *p; *p = o ^ v; return o; }     \
    __CU_INLINE T __cu_plain_min_##N(T *p, T v) { T o = *p; if (v < o) *p = v; return o; } \
    __CU_INLINE T __cu_plain_max_##N(T *p, T v) { T o = *p; if (v > o) *p = v; return o; } \
    __CU_INLINE T __cu_plain_cas_##N(T *p, T cmp, T v) { T o = *p; if (o == cmp) *p = v; return o; }
__CU_PLAIN_INT(i32, int32_t)
__CU_PLAIN_INT(u32, uint32_t)
__CU_PLAIN_INT(i64, int64_t)
__CU_PLAIN_INT(u64, uint64_t)
__CU_PLAIN_INT(u16, uint16_t)
__CU_PLAIN_INT(i16, int16_t)
__CU_INLINE uint32_t __cu_plain_inc_u32(uint32_t *p, uint32_t v) { uint32_t o = *p; *p = o >= v ? 0u : o + 1u; return o; }
__CU_INLINE uint32_t __cu_plain_dec_u32(uint32_t *p, uint32_t v) { uint32_t o = *p; *p = (o == 0u || o > v) ? v : o - 1u; return o; }
/* Floating point: the same operations as __cu_atomic_rmw_*; CAS compares the bits. */
#define __CU_PLAIN_FLOAT(N, F, U)                                                       \
    __CU_INLINE F __cu_plain_add_##N(F *p, F v) { F o = *p; *p = o + v; return o; }     \
    __CU_INLINE F __cu_plain_sub_##N(F *p, F v) { F o = *p; *p = o - v; return o; }     \
    __CU_INLINE F __cu_plain_exch_##N(F *p, F v) { F o = *p; *p = v; return o; }        \
    __CU_INLINE F __cu_plain_min_##N(F *p, F v) { F o = *p; *p = (v < o || o != o) ? v : o; return o; } \
    __CU_INLINE F __cu_plain_max_##N(F *p, F v) { F o = *p; *p = (v > o || o != o) ? v : o; return o; } \
    __CU_INLINE F __cu_plain_cas_##N(F *p, F cmp, F v) {                                \
        U o, c; memcpy(&o, p, sizeof o); memcpy(&c, &cmp, sizeof c);                    \
        F of = *p; if (o == c) *p = v; return of; }
__CU_PLAIN_FLOAT(f32, float, uint32_t)
__CU_PLAIN_FLOAT(f64, double, uint64_t)
/* ---- the multi-block form (emit/multi_block.rs) ------------------------------------ */
extern char *getenv(const char *);
extern int posix_memalign(void **, size_t, size_t);
extern void free(void *);
/* How many consecutive blocks a worker runs together: CUPRITE_MULTI_BLOCKS (1 turns the
 * form off; at most 64), else 4 (measured best on 16 cores, PERFORMANCE.md session 11). */
__CU_HELPER uint32_t __cu_multi_blocks(void) {
    static int k = 0;
    int v = __atomic_load_n(&k, __ATOMIC_RELAXED);
    if (v == 0) {
        const char *e = getenv("CUPRITE_MULTI_BLOCKS");
        v = 4;
        if (e && *e) {
            v = 0;
            for (; *e >= '0' && *e <= '9' && v <= 64; e++) v = v * 10 + (*e - '0');
            v = v < 1 ? 1 : v > 64 ? 64 : v;
        }
        __atomic_store_n(&k, v, __ATOMIC_RELAXED);
    }
    return (uint32_t)v;
}
/* The OS thread's scratch for a group of blocks' shared memory and slots, 64-byte
 * aligned, grown as needed (NULL when no memory: the caller runs blocks one at a time).
 * Kept for the thread's life, as the runtime keeps its per-worker buffers. */
static __thread char *__cu_mscr_p;
static __thread size_t __cu_mscr_n;
__CU_HELPER char *__cu_multi_scratch(size_t n) {
    if (__cu_mscr_n < n) {
        void *p = NULL;
        if (posix_memalign(&p, 64, n)) return NULL;
        free(__cu_mscr_p);
        __cu_mscr_p = (char *)p;
        __cu_mscr_n = n;
    }
    return __cu_mscr_p;
}
/* ==== end of prelude ================================================================== */
