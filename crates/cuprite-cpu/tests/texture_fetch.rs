//! Texture fetches in thread loops: a nearest-point 1D/2D fetch of a 4-byte texel is a call
//! to a prelude function with a SIMD clone (`__cu_tex_fetch4`), so it does not stop the C
//! compiler from vectorising the loop. Reads GCC's vectorisation report (never timing).

mod common;
use common::*;
use cuprite_cpu::{emit_c, EmitOptions};
use cuprite_front::diag::Severity;
use cuprite_ir::Module;

fn lower(src: &str) -> Module {
    let src = format!("# 1 \"test.cu\"\n{src}");
    let p = cuprite_front::parse(&src);
    let errors: Vec<_> = p.diagnostics.iter().filter(|d| d.severity == Severity::Error).collect();
    assert!(errors.is_empty(), "parse errors: {errors:#?}");
    let checked = cuprite_sema::check(&p.tu, &cuprite_sema::SemaOptions::default()).unwrap_or_else(|e| panic!("{e:#?}"));
    checked.lower_with(&[], &p.source_map).unwrap_or_else(|e| panic!("{e:#?}")).module
}

/// What `tex1D<float>` / `tex2D<float>` in include/cuprite/texture_fetch.h expand to.
const KERNEL: &str = "
__device__ float fetch2(unsigned long long t, float x, float y) {
    float r;
    __cuprite_tex_fetch(t, 2, x, y, 0.0f, 0, &r, sizeof(float));
    return r;
}
__device__ float fetch1(unsigned long long t, float x) {
    float r;
    __cuprite_tex_fetch(t, 1, x, 0.0f, 0.0f, 0, &r, sizeof(float));
    return r;
}
__global__ void blur(unsigned long long t, unsigned long long u, float *out, int w) {
    int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y;
    out[y * w + x] = 0.25f * fetch2(t, x - 0.5f, y + 0.5f) + 0.5f * fetch2(t, x + 0.5f, y + 0.5f) + 0.25f * fetch1(u, x + 1.5f);
}";

#[test]
fn a_thread_loop_of_nearest_point_fetches_is_vectorised() {
    let m = lower(KERNEL);
    let c = emit_c(&m, &EmitOptions { line_directives: false, source_name: "blur.cu".into(), checks: false }).unwrap();
    // The thread loop: the `for (__tx …)` after `#pragma omp simd` that stores to `out`.
    let lines: Vec<&str> = c.lines().collect();
    let simd: Vec<usize> = (0..lines.len()).filter(|&i| lines[i].trim() == "#pragma omp simd").collect();
    assert!(!simd.is_empty(), "no thread loop:\n{c}");
    let report = vectorisation_report("texture_vec", &c);
    let vectorised: Vec<usize> = report
        .lines()
        .filter(|l| l.contains("loop vectorized"))
        .filter_map(|l| l.split(':').nth(1)?.parse().ok())
        .collect();
    // GCC reports the loop at its `for` line or the first line of its body (1-based).
    assert!(
        simd.iter().all(|p| vectorised.iter().any(|v| (p + 2..=p + 3).contains(v))),
        "a thread loop with texture fetches was not vectorised (pragmas at {simd:?}):\n{report}"
    );
}
