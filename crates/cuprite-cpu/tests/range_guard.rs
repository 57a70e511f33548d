//! Range guards (`src/range_guard.rs`): `if (p >= n) return;` with `p = blockIdx.x *
//! blockDim.x + threadIdx.x` before uniform loops runs those loops as scalar C around
//! thread loops over `x < n - blockIdx.x * blockDim.x`. These tests run such kernels
//! against host references (partial and empty blocks, 2-D blocks, a join after the
//! region) and read GCC's vectorisation report (never timing).

mod common;
use common::*;
use cuprite_cpu::{emit_c, EmitOptions};

/// k-means' assignment step: nearest of `K` centroids (in shared memory) per point.
const ASSIGN: &str = "
__global__ void assign(const float *points, const float *centroids, int *membership, int n) {
    __shared__ float c[5 * 3];
    for (int i = threadIdx.x + threadIdx.y * blockDim.x; i < 5 * 3; i += blockDim.x * blockDim.y)
        c[i] = centroids[i];
    __syncthreads();
    int p = blockIdx.x * blockDim.x + threadIdx.x;
    if (p >= n)
        return;
    int best = 0;
    float best_d = 3.0e38f;
    for (int k = 0; k < 5; ++k) {
        float d = 0.0f;
        for (int f = 0; f < 3; ++f) {
            float diff = points[f * n + p] - c[k * 3 + f];
            d += diff * diff;
        }
        if (d < best_d) { best_d = d; best = k; }
    }
    membership[p * blockDim.y + threadIdx.y] = best + 10 * (int)threadIdx.y;
}
__global__ void sums(const int *in, int *out, int n, int m) {
    __shared__ int s[1];
    if (threadIdx.x == 0) s[0] = 7;
    __syncthreads();
    unsigned p = threadIdx.x + blockIdx.x * 32u;
    int acc = s[0];
    if (p < (unsigned)n) {
        for (int j = 0; j < m; ++j) acc += in[j * n + p];
    }
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}";

const MAIN: &str = r#"
void __s0(void) __asm__("_Z6assignPKfS0_Pii"); void __s0(void) {}
void __s1(void) __asm__("_Z4sumsPKiPiii"); void __s1(void) {}
enum { K = 5, DIM = 3 };
static int assign_bad(int n, int bdx, int bdy, int grid) {
    static float pts[DIM * 1000], cen[K * DIM];
    static int mem[2 * 1200];
    for (int i = 0; i < DIM * n; i++) pts[i] = (float)((i * 37) % 23);
    for (int i = 0; i < K * DIM; i++) cen[i] = (float)((i * 11) % 19);
    for (int i = 0; i < 2 * 1200; i++) mem[i] = -1;
    const float *pp = pts, *pc = cen; int *pm = mem;
    void *args[] = { &pp, &pc, &pm, &n };
    launch("_Z6assignPKfS0_Pii", d3(grid, 1, 1), d3(bdx, bdy, 1), 0, args);
    int bad = 0;
    for (int p = 0; p < grid * bdx; p++) for (int y = 0; y < bdy; y++) {
        int want = -1;
        if (p < n) {
            int best = 0; float best_d = 3.0e38f;
            for (int k = 0; k < K; k++) {
                float d = 0;
                for (int f = 0; f < DIM; f++) { float diff = pts[f * n + p] - cen[k * DIM + f]; d += diff * diff; }
                if (d < best_d) { best_d = d; best = k; }
            }
            want = best + 10 * y;
        }
        if (mem[p * bdy + y] != want) bad++;
    }
    return bad;
}
int main(void) {
    /* 300 points in blocks of 64: a partial last block; 5 blocks for 200: empty ones. */
    printf("%d %d %d\n", assign_bad(300, 64, 1, 5), assign_bad(200, 64, 1, 5), assign_bad(1000, 32, 2, 32));
    static int in[4 * 100], out[128];
    for (int i = 0; i < 4 * 100; i++) in[i] = i % 9;
    const int *pi = in; int *po = out; int n = 100, m = 4;
    void *args[] = { &pi, &po, &n, &m };
    launch("_Z4sumsPKiPiii", d3(4, 1, 1), d3(32, 1, 1), 0, args);
    int bad = 0;
    for (int p = 0; p < 128; p++) {
        int want = 7;
        if (p < n) for (int j = 0; j < m; j++) want += in[j * n + p];
        if (out[p] != want) bad++;
    }
    printf("%d\n", bad);
    return 0;
}
"#;

#[test]
fn range_guarded_loops_match_the_host() {
    let m = lower(ASSIGN);
    let r = compile_and_run("range_guard_host", &m, MAIN);
    assert_eq!(r.stdout, "0 0 0\n0\n", "{}", r.c_source);
    // Both kernels' guards are ranges: their thread loops run below the limit, unmasked.
    assert!(r.c_source.matches("uint32_t __rlim").count() >= 2, "{}", r.c_source);
    assert!(r.c_source.contains("__tx < __rlim"), "{}", r.c_source);
}

#[test]
fn the_range_guarded_distance_loop_is_vectorised() {
    let m = lower(ASSIGN);
    let c = emit_c(&m, &EmitOptions { line_directives: false, source_name: "assign.cu".into(), checks: false }).unwrap();
    let lines: Vec<&str> = c.lines().collect();
    // The feature loop's thread loop: `d += diff * diff` through the slot of `d`.
    let line = (0..lines.len())
        .find(|&i| lines[i].contains("for (uint32_t __tx = 0; __tx < __rlim") && lines[i..i + 14].iter().any(|l| l.contains("fmaf(")))
        .unwrap_or_else(|| panic!("no range-guarded distance loop:\n{c}"));
    let report = vectorisation_report("range_guard_vec", &c);
    let hit = report.lines().filter(|l| l.contains("loop vectorized")).filter_map(|l| l.split(':').nth(1)?.parse::<usize>().ok()).any(|v| v > line && v <= line + 14);
    assert!(hit, "GCC did not vectorise the loop at line {}:\n{report}", line + 1);
}

#[test]
fn a_guard_without_a_loop_or_in_a_barrier_free_kernel_is_no_range() {
    // Nothing to hoist (no loop), or no barrier (the kernel keeps its single thread loop).
    let m = lower(
        "__global__ void plain(float *y, const float *x, int n) {
            __shared__ float s[32];
            s[threadIdx.x] = 1.0f;
            __syncthreads();
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i >= n) return;
            y[i] = x[i] * s[threadIdx.x];
        }
        __global__ void nobarrier(float *y, const float *x, int n) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i >= n) return;
            float acc = 0.0f;
            for (int j = 0; j < 4; ++j) acc += x[i] * (float)j;
            y[i] = acc;
        }",
    );
    let c = emit_c(&m, &EmitOptions::default()).unwrap();
    assert!(!c.contains("__rlim"), "{c}");
}

#[test]
fn a_range_around_another_guard_stays_divergent_code_and_correct() {
    // The single-thread guard inside would keep its mask uncleared for the threads the
    // range skips: the range is dropped (and the inner guard is divergent code).
    let m = lower(
        "__global__ void nested(int *out, int n) {
            __shared__ int s[1];
            if (threadIdx.x == 0) s[0] = 3;
            __syncthreads();
            int p = blockIdx.x * blockDim.x + threadIdx.x;
            if (p < n) {
                int acc = 0;
                for (int j = 0; j < 4; ++j) acc += s[0] + j;
                if (threadIdx.x == 0) out[1000 + blockIdx.x] = acc;
                out[p] = acc + p;
            }
        }",
    );
    let main = r#"
        void __s0(void) __asm__("_Z6nestedPii"); void __s0(void) {}
        int main(void) {
            static int out[1100];
            for (int i = 0; i < 1100; i++) out[i] = -1;
            int *po = out, n = 70;
            void *args[] = { &po, &n };
            launch("_Z6nestedPii", d3(4, 1, 1), d3(32, 1, 1), 0, args);
            int bad = 0;
            for (int p = 0; p < 128; p++) if (out[p] != (p < n ? 18 + p : -1)) bad++;
            for (int b = 0; b < 4; b++) if (out[1000 + b] != (b * 32 < n ? 18 : -1)) bad++;
            printf("%d\n", bad);
            return 0;
        }"#;
    let r = compile_and_run("range_guard_nested", &m, main);
    assert_eq!(r.stdout, "0\n", "{}", r.c_source);
    assert!(!r.c_source.contains("__rlim"), "{}", r.c_source);
}
