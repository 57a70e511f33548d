//! Contraction after inlining (`lower/contract_inlined.rs`): a product made in one device
//! function and added in another becomes an fma, as nvcc's inlining then contraction
//! makes it (measured on an H100: conformance fp_contraction_inlined).
mod common;
use common::*;
use cuprite_sema::SemaOptions;

const HELPERS: &str = "struct f3 { float x, y, z; };\n\
    __device__ inline f3 mk3(float x, float y, float z) { f3 r; r.x = x; r.y = y; r.z = z; return r; }\n\
    __device__ inline f3 operator*(float k, f3 v) { return mk3(k * v.x, k * v.y, k * v.z); }\n\
    __device__ inline void operator+=(f3 &a, f3 b) { a.x += b.x; a.y += b.y; a.z += b.z; }\n\
    __device__ float mul(float a, float b) { return a * b; }\n\
    __device__ float add(float x, float y) { return x + y; }\n\
    __device__ __noinline__ float mul_noinline(float a, float b) { return a * b; }\n\
    __device__ float mul_rn(float a, float b) { return __fmul_rn(a, b); }\n";

fn kernel_builtins(body: &str, opts: &SemaOptions) -> Vec<String> {
    let src = format!("{HELPERS}__global__ void k(float *p, f3 *v) {{\n{body}\n}}\n");
    let m = compile_opts(&src, opts).unwrap_or_else(|e| panic!("{e:#?}"));
    builtins(func(&m, "k")).into_iter().map(|s| s.to_string()).collect()
}

fn fused(body: &str) -> usize {
    kernel_builtins(body, &SemaOptions::default()).iter().filter(|b| *b == "fmaf").count()
}

#[test]
fn products_cross_inlined_calls() {
    assert_eq!(fused("p[0] = mul(p[1], p[2]) + p[3];"), 1);
    assert_eq!(fused("p[0] = p[3] - mul(p[1], p[2]);"), 1);
    assert_eq!(fused("p[0] = add(p[1] * p[2], p[3]);"), 1);
    assert_eq!(fused("float t = mul(p[1], p[2]); p[0] = t + p[3]; p[4] = t - p[5];"), 2);
    assert_eq!(fused("f3 s = v[0]; s += p[0] * v[1]; v[2] = s;"), 3);
    assert_eq!(fused("p[0] = -mul(p[1], p[2]) + p[3];"), 1);
}

#[test]
fn products_that_stay_rounded() {
    // A __noinline__ callee, an intrinsic's product, a product also stored.
    assert_eq!(fused("p[0] = mul_noinline(p[1], p[2]) + p[3];"), 0);
    assert_eq!(fused("p[0] = mul_rn(p[1], p[2]) + p[3];"), 0);
    assert_eq!(fused("float t = mul(p[1], p[2]); p[5] = t; p[0] = t + p[3];"), 0);
    // A product kept in a struct that is also stored whole.
    assert_eq!(fused("f3 r = p[0] * v[1]; v[2] = r; p[1] = r.x + p[2];"), 0);
    // Used in another block (a loop).
    assert_eq!(fused("float t = mul(p[1], p[2]); float a = p[3]; for (int i = 0; i < 4; ++i) a += t; p[0] = a;"), 0);
    // -fmad=false
    let off = SemaOptions { fmad: false, ..Default::default() };
    assert!(kernel_builtins("p[0] = mul(p[1], p[2]) + p[3]; f3 s = v[0]; s += p[0] * v[1]; v[2] = s;", &off).is_empty());
}

