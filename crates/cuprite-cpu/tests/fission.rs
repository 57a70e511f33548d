//! Barrier-region fission (`src/fission.rs`): kernels whose barriers sit on block-uniform
//! control flow run as scalar C around one vectorisable thread loop per stretch of
//! per-thread work. These tests lower real CUDA source, run the kernels against host
//! references, and read the C compiler's vectorisation report (never timing).

mod common;
use common::*;
use cuprite_cpu::{emit_c, EmitOptions};
use cuprite_ir::Module;

const SGEMM: &str = "
__global__ void sgemm(const float *A, const float *B, float *C, int n) {
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    float sum = 0.0f;
    for (int t = 0; t < n / 16; t++) {
        As[ty][tx] = A[row * n + t * 16 + tx];
        Bs[ty][tx] = B[(t * 16 + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < 16; k++) sum += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = sum;
}";

/// Launches the module's only kernel (its symbol from the registered table).
const LAUNCH0: &str = "#define LAUNCH0(g, b, dyn, args) launch(g_mod->kernels[0].symbol, g, b, dyn, args)\n";

/// Runs `main` against the module, defining the host stub the kernel table refers to.
fn run(tag: &str, m: &Module, main: &str) -> RunResult {
    let (_, k) = m.kernels().next().expect("a kernel");
    let cuprite_ir::FunctionKind::Kernel { stub_symbol, .. } = &k.kind else { unreachable!() };
    let stub = format!("void __test_stub(void) __asm__(\"{stub_symbol}\");\nvoid __test_stub(void) {{}}\n");
    compile_and_run(tag, m, &format!("{stub}{main}"))
}

#[test]
fn tiled_sgemm_matches_the_host() {
    let m = lower(SGEMM);
    let main = format!(
        "{LAUNCH0}int main(void) {{
            enum {{ N = 48 }};
            static float a[N * N], b[N * N], c[N * N];
            for (int i = 0; i < N * N; i++) {{ a[i] = (float)(i % 7) - 3; b[i] = (float)(i % 5) - 2; }}
            const float *pa = a, *pb = b; float *pc = c; int n = N;
            void *args[] = {{ &pa, &pb, &pc, &n }};
            LAUNCH0(d3(N / 16, N / 16, 1), d3(16, 16, 1), 0, args);
            int bad = 0;
            for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) {{
                float s = 0; for (int k = 0; k < N; k++) s += a[i * N + k] * b[k * N + j];
                if (s != c[i * N + j]) bad++;
            }}
            printf(\"bad %d\\n\", bad);
            return 0;
        }}"
    );
    let r = run("fission_sgemm", &m, &main);
    assert_eq!(r.stdout, "bad 0\n", "{}", r.c_source);
    assert!(r.c_source.contains("kernel `sgemm`: barrier-region fission"), "{}", r.c_source);
}

/// The thread loops of the fast copy of the kernel body: (line of the `for`, its text).
fn thread_loops(c: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = c.lines().collect();
    let mut loops = Vec::new();
    for (i, l) in lines.iter().enumerate() {
        if !l.trim().starts_with("#pragma omp simd") {
            continue;
        }
        let head = lines[i + 1];
        assert!(head.trim_start().starts_with("for (uint32_t __tx = "), "omp simd marks the x thread loop: {head}");
        let indent = head.len() - head.trim_start().len();
        let end = (i + 2..lines.len()).find(|&j| lines[j].len() > indent && lines[j][..indent].trim().is_empty() && lines[j][indent..].starts_with('}')).unwrap();
        loops.push((i + 2, lines[i + 1..=end].join("\n")));
    }
    loops
}

#[test]
fn tiled_sgemm_thread_loops_are_innermost_and_vectorised() {
    let m = lower(SGEMM);
    let c = emit_c(&m, &EmitOptions { line_directives: false, source_name: "sgemm.cu".into(), checks: false }).unwrap();
    let loops = thread_loops(&c);
    assert!(!loops.is_empty());
    for (_, body) in &loops {
        assert!(!body.lines().skip(1).any(|l| l.contains("for (")), "a thread loop is innermost:\n{body}");
    }
    // The tile counter and the inner-product loop are scalar C around the thread loops.
    let uniform_k = c.lines().any(|l| l.trim().starts_with("l") && l.contains("_k = v"));
    assert!(uniform_k, "k is a scalar of the block:\n{c}");
    // The inner product: the thread loop that reads and writes the per-thread `sum`.
    let (line, _) = loops
        .iter()
        .find(|(_, b)| b.contains("_sum[__t] = ") && b.contains("_sum[__t];"))
        .unwrap_or_else(|| panic!("no inner-product thread loop:\n{c}"));
    let body_lines = loops.iter().find(|(l, _)| l == line).unwrap().1.lines().count();
    assert_vectorised("fission_vec", &c, *line, body_lines);
}

/// Asserts that GCC's vectorisation report (the C flags of -O3) names a loop among lines
/// `line .. line + len` of the C source.
fn assert_vectorised(tag: &str, c: &str, line: usize, len: usize) {
    let report = vectorisation_report(tag, c);
    let vectorised: Vec<usize> = report
        .lines()
        .filter(|l| l.contains("loop vectorized"))
        .filter_map(|l| l.split(':').nth(1)?.parse().ok())
        .collect();
    assert!(
        vectorised.iter().any(|v| *v >= line && *v < line + len),
        "GCC did not vectorise the thread loop at line {line}:\n{report}"
    );
}

#[test]
fn grid_stride_loops_run_as_uniform_loops_over_vectorised_thread_loops() {
    // The grid-stride loop is uniform control flow going round while a thread still
    // iterates; each round is one masked thread loop over consecutive elements.
    let m = lower(
        "__global__ void reduce(const int *in, int *out, int n) {
            __shared__ int buf[128];
            int sum = 0;
            for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
                sum += in[i];
            buf[threadIdx.x] = sum;
            __syncthreads();
            for (int s = blockDim.x / 2; s > 0; s >>= 1) {
                if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
                __syncthreads();
            }
            if (threadIdx.x == 0) out[blockIdx.x] = buf[0];
        }",
    );
    let main = format!(
        "{LAUNCH0}int main(void) {{
            static int in[5000]; int part[3];
            for (int n = 0; n <= 5000; n += 1237) {{
                long long want = 0, got = 0;
                for (int i = 0; i < n; i++) {{ in[i] = i % 13 - 6; want += in[i]; }}
                const int *pi = in; int *pp = part;
                void *args[] = {{ &pi, &pp, &n }};
                LAUNCH0(d3(3, 1, 1), d3(128, 1, 1), 0, args);
                for (int b = 0; b < 3; b++) got += part[b];
                printf(\"%lld %lld\\n\", got, want);
            }}
            return 0;
        }}"
    );
    let r = run("fission_grid_stride", &m, &main);
    for l in r.stdout.lines() {
        let w: Vec<&str> = l.split(' ').collect();
        assert_eq!(w[0], w[1], "{}\n{}", r.stdout, r.c_source);
    }
    assert_eq!(r.stdout.lines().count(), 5);
    let c = &r.c_source;
    assert!(c.contains("if (__ng0) {"), "the loop goes round while a thread iterates:\n{c}");
    // `i` is `i0 + k * step` (`stride_affine.rs`): only the sum is kept per thread.
    assert!(c.contains("per-thread slots: sum */"), "i is not in a slot:\n{c}");
    let loops = thread_loops(c);
    let (line, body) = loops.iter().find(|(_, b)| b.contains("if (__g0[__t])") && b.contains("_sum[__t] = ")).unwrap_or_else(|| panic!("no masked loop body:\n{c}"));
    // The header's test runs at the end of the body's thread loop (`emit/rotate.rs`).
    assert!(body.contains("__g0[__t] = ") && body.contains("__ng0 += __g0[__t];"), "{body}");
    assert_vectorised("fission_grid_stride_vec", c, *line, body.lines().count());
}

#[test]
fn barrier_free_kernels_with_an_early_return_are_one_vectorised_thread_loop() {
    // Border threads return; `i` is stored once and its loads are widened through it, so
    // `in[i - 1]` etc. stay affine in the thread index (no gathers).
    let m = lower(
        "__global__ void stencil(const float *in, float *out, int n) {
            int x = blockIdx.x * blockDim.x + threadIdx.x;
            int y = blockIdx.y * blockDim.y + threadIdx.y;
            if (x < 1 || y < 1 || x >= n - 1 || y >= n - 1) return;
            int i = y * n + x;
            out[i] = 0.25f * (in[i - 1] + in[i + 1] + in[i - n] + in[i + n]);
        }",
    );
    let c = emit_c(&m, &EmitOptions { line_directives: false, source_name: "stencil.cu".into(), checks: false }).unwrap();
    assert!(c.contains("kernel `stencil`: barrier-region fission, 1 thread loop unit(s)"), "{c}");
    assert!(c.contains("(int64_t)v"), "offsets widened through `i`:\n{c}");
    let loops = thread_loops(&c);
    let (line, body) = loops.iter().find(|(_, b)| b.contains("0.25f")).unwrap_or_else(|| panic!("{c}"));
    assert_vectorised("fission_stencil_vec", &c, *line, body.lines().count());
}

#[test]
fn tree_reduction_and_barrier_counts() {
    let m = lower(
        "__global__ void reduce(const float *in, float *out, int *counts) {
            extern __shared__ float s[];
            unsigned tid = threadIdx.x;
            s[tid] = in[blockIdx.x * blockDim.x + tid];
            int odd = __syncthreads_count(tid & 1);
            int all = __syncthreads_and(tid < 1000);
            int any = __syncthreads_or(tid == 5);
            for (unsigned st = blockDim.x / 2; st > 0; st >>= 1) {
                if (tid < st) s[tid] += s[tid + st];
                __syncthreads();
            }
            if (tid == 0) { out[blockIdx.x] = s[0]; counts[blockIdx.x] = odd * 100 + all * 10 + any; }
        }",
    );
    let main = format!(
        "{LAUNCH0}int main(void) {{
            static float in[4 * 256]; float out[4]; int counts[4];
            for (int i = 0; i < 4 * 256; i++) in[i] = (float)(i % 9);
            const float *pi = in; float *po = out; int *pc = counts;
            void *args[] = {{ &pi, &po, &pc }};
            LAUNCH0(d3(4, 1, 1), d3(256, 1, 1), 256 * sizeof(float), args);
            for (int b = 0; b < 4; b++) {{
                float r = 0; for (int i = 0; i < 256; i++) r += in[b * 256 + i];
                printf(\"%g %g %d\\n\", out[b], r, counts[b]);
            }}
            return 0;
        }}"
    );
    let r = run("fission_reduce", &m, &main);
    assert!(r.c_source.contains("kernel `reduce`: barrier-region fission"), "{}", r.c_source);
    for l in r.stdout.lines() {
        let w: Vec<&str> = l.split(' ').collect();
        assert_eq!(w[0], w[1], "{}", r.stdout);
        assert_eq!(w[2], "12811", "count 128 odd threads, all below 1000, one is 5: {}", r.stdout);
    }
}

/// Runs a histogram kernel over 100000 bytes that hit few bins, one grid-stride loop per
/// thread (`loop_per_thread`) or one element per thread, and compares the bins.
fn check_histogram(tag: &str, src: &str, grid: u32) {
    let m = lower(src);
    let main = format!(
        "{LAUNCH0}int main(void) {{
            enum {{ N = 100000 }};
            static unsigned char in[N]; unsigned bins[4] = {{0}}, ref[4] = {{0}};
            for (int i = 0; i < N; i++) {{ in[i] = (unsigned char)(i % 7 == 0 ? 1 : 2); ref[in[i] & 3]++; }}
            const unsigned char *pi = in; unsigned *pb = bins; int n = N;
            void *args[] = {{ &pi, &pb, &n }};
            LAUNCH0(d3({grid}, 1, 1), d3(128, 1, 1), 0, args);
            for (int b = 0; b < 4; b++) printf(\"%u %u\\n\", bins[b], ref[b]);
            return 0;
        }}"
    );
    let r = run(tag, &m, &main);
    assert!(r.c_source.contains("barrier-region fission"), "{}", r.c_source);
    // The shared-memory atomic is a plain read-modify-write, in a thread loop that is not
    // marked for SIMD (where the C compiler must keep one thread at a time).
    assert!(r.c_source.contains("__cu_plain_add_u32("), "{}", r.c_source);
    for (_, body) in thread_loops(&r.c_source) {
        assert!(!body.contains("__cu_plain_"), "a plain atomic in a SIMD thread loop:\n{body}");
    }
    for l in r.stdout.lines() {
        let w: Vec<&str> = l.split(' ').collect();
        assert_eq!(w[0], w[1], "lost increments:\n{}", r.stdout);
    }
}

#[test]
fn shared_histogram_loses_no_increment() {
    // Every thread of a block hits the same few bins: colliding increments. Plain
    // read-modify-writes in a thread loop the C compiler vectorised would lose some.
    check_histogram(
        "fission_hist_loop",
        "__global__ void hist(const unsigned char *in, unsigned *bins, int n) {
            __shared__ unsigned local[4];
            if (threadIdx.x < 4) local[threadIdx.x] = 0;
            __syncthreads();
            for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
                atomicAdd(&local[in[i] & 3], 1u);
            __syncthreads();
            if (threadIdx.x < 4) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
        }",
        5,
    );
    check_histogram(
        "fission_hist_flat",
        "__global__ void hist(const unsigned char *in, unsigned *bins, int n) {
            __shared__ unsigned local[4];
            if (threadIdx.x < 4) local[threadIdx.x] = 0;
            __syncthreads();
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i < n) atomicAdd(&local[in[i] & 3], 1u);
            __syncthreads();
            if (threadIdx.x < 4) atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
        }",
        (100000 + 127) / 128,
    );
}

#[test]
fn divergent_barriers_and_early_returns_keep_the_general_form() {
    let m = lower(
        "__global__ void k(int *o) {
            if (threadIdx.x < 16) { o[threadIdx.x] = 1; __syncthreads(); }
            o[threadIdx.x + 32] = 2;
        }",
    );
    let c = emit_c(&m, &EmitOptions::default()).unwrap();
    assert!(c.contains("general form (a barrier under divergent control flow)"), "{c}");
    let m = lower(
        "__global__ void k(int *o, int n) {
            if (threadIdx.x >= n) return;
            o[threadIdx.x] = 1;
            __syncthreads();
            o[threadIdx.x + 32] = o[31 - threadIdx.x];
        }",
    );
    let c = emit_c(&m, &EmitOptions::default()).unwrap();
    assert!(c.contains("general form (a barrier under divergent control flow)"), "{c}");
}

#[test]
fn warp_shuffles_on_uniform_control_flow_in_partial_warps() {
    // 48 threads per block: a full warp and a warp of 16 lanes. A shuffle from a lane
    // that does not exist gives the reader's own value.
    let m = lower(
        "__global__ void wsum(const float *in, float *out, unsigned *ballots) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            float v = in[i];
            for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
            unsigned b = __ballot_sync(0xffffffff, (i % 3) == 0);
            if ((threadIdx.x & 31) == 0) { out[blockIdx.x * 2 + threadIdx.x / 32] = v; ballots[blockIdx.x * 2 + threadIdx.x / 32] = b; }
        }",
    );
    let main = format!(
        "{LAUNCH0}int main(void) {{
            static float in[2 * 48]; float out[4]; unsigned ballots[4];
            for (int i = 0; i < 2 * 48; i++) in[i] = (float)(i % 5);
            const float *pi = in; float *po = out; unsigned *pb = ballots;
            void *args[] = {{ &pi, &po, &pb }};
            LAUNCH0(d3(2, 1, 1), d3(48, 1, 1), 0, args);
            for (int blk = 0; blk < 2; blk++) for (int w = 0; w < 2; w++) {{
                int base = blk * 48 + w * 32, lanes = w ? 16 : 32;
                /* shfl_down sums: lane 0 gets the sum of lanes 0..31 where all exist; in the
                   16-lane warp, reads of lanes 16..31 (which do not exist) give 0, as on an
                   H100, and reads past lane 31 the reader's own value. */
                float v[32]; for (int l = 0; l < 32; l++) v[l] = l < lanes ? in[base + l] : 0;
                for (int off = 16; off > 0; off >>= 1)
                    for (int l = 0; l < lanes; l++) v[l] += (l + off < lanes) ? v[l + off] : (l + off < 32 ? 0 : v[l]);
                unsigned b = 0; for (int l = 0; l < lanes; l++) if ((base + l) % 3 == 0) b |= 1u << l;
                int o = blk * 2 + w;
                printf(\"%g %g %u %u\\n\", out[o], v[0], ballots[o], b);
            }}
            return 0;
        }}"
    );
    let r = run("fission_warp", &m, &main);
    assert!(r.c_source.contains("kernel `wsum`: barrier-region fission"), "{}", r.c_source);
    assert!(r.c_source.contains("__cu_warp_all("), "{}", r.c_source);
    for l in r.stdout.lines() {
        let w: Vec<&str> = l.split(' ').collect();
        assert_eq!((w[0], w[2]), (w[1], w[3]), "{}", r.stdout);
    }
}

#[test]
fn guards_around_collectives_keep_loops_scalar() {
    // `if (i < n)` and an early return around loops with warp collectives: the loops are
    // scalar C, each thread loop runs the threads whose guard mask is set. `last` is
    // stored in the guarded loop and read after it: threads outside the guard keep -1.
    // (A shuffle with lane mask 0 returns the thread's own value.)
    let m = lower(
        "__global__ void k(const float *x, float *y, int *last, int n, int m) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            int l = -1;
            if (i < n) {
                float acc = 0.0f;
                for (int j = 0; j < m; j++) { acc += x[j] * (float)(i + 1); l = j; }
                acc = __shfl_xor_sync(0xffffffff, acc, 0);
                y[i] = acc;
            }
            last[i] = l;
        }
        __global__ void kk(const float *x, int *best, int n, int m) {
            int i = blockIdx.x * blockDim.x + threadIdx.x;
            if (i >= n) return;
            int b = 0; float bd = 1e30f;
            for (int c = 0; c < m; c++) {
                float d = x[c] - (float)i;
                d = d * d;
                if (d < bd) { bd = d; b = c; }
            }
            best[i] = __shfl_xor_sync(0xffffffff, b, 0);
        }",
    );
    let c = emit_c(&m, &EmitOptions::default()).unwrap();
    assert!(c.contains("kernel `k`: barrier-region fission"), "{c}");
    assert!(c.contains("kernel `kk`: barrier-region fission"), "{c}");
    assert!(c.contains("if (__g0[__t])"), "{c}");
    let main = "
        void __stub_k(void) __asm__(\"_Z1kPKfPfPiii\"); void __stub_k(void) {}
        void __stub_kk(void) __asm__(\"_Z2kkPKfPiii\"); void __stub_kk(void) {}
        int main(void) {
            enum { N = 150, M = 37, T = 192 };
            static float x[M], y[T]; static int last[T], best[T];
            for (int j = 0; j < M; j++) x[j] = (float)(j * 7 % 11);
            for (int i = 0; i < T; i++) { y[i] = -5; best[i] = -5; }
            const float *px = x; float *py = y; int *pl = last, *pb = best; int n = N, m = M;
            void *a1[] = { &px, &py, &pl, &n, &m };
            launch(\"_Z1kPKfPfPiii\", d3(3, 1, 1), d3(64, 1, 1), 0, a1);
            void *a2[] = { &px, &pb, &n, &m };
            launch(\"_Z2kkPKfPiii\", d3(3, 1, 1), d3(64, 1, 1), 0, a2);
            int bad = 0;
            for (int i = 0; i < T; i++) {
                float acc = 0; for (int j = 0; j < M; j++) acc += x[j] * (float)(i + 1);
                int b = 0; float bd = 1e30f;
                for (int c = 0; c < M; c++) { float d = x[c] - (float)i; d = d * d; if (d < bd) { bd = d; b = c; } }
                if (i < N ? (y[i] != acc || last[i] != M - 1 || best[i] != b) : (y[i] != -5 || last[i] != -1 || best[i] != -5)) bad++;
            }
            printf(\"bad %d\\n\", bad);
            return 0;
        }";
    let r = compile_and_run("fission_guards", &m, main);
    assert_eq!(r.stdout, "bad 0\n", "{}", r.c_source);
}

#[test]
fn uniform_loads_see_the_threads_own_stores_and_never_run_for_no_thread() {
    // `p[j]` is loaded once per block (a uniform address), but after the thread loop in
    // which thread 0 stored it: thread 0 reads its own store. In `g`, the guarded loop's
    // uniform load must not run when no thread entered the guard (`p` is null then).
    let m = lower(
        "__global__ void k(int *p, int *out) {
            for (int j = 0; j < 2; j++) {
                if (threadIdx.x == 0) p[j] = 42 + j;
                int v = p[j];
                out[threadIdx.x * 2 + j] = v;
                __syncthreads();
            }
        }
        __global__ void g(const int *p, int *out, int n) {
            int acc = 0;
            if ((int)threadIdx.x < n) {
                for (int j = 0; j < 3; j++) acc += p[j];
                acc = __shfl_xor_sync(0xffffffff, acc, 0);
            }
            out[threadIdx.x] = acc;
        }",
    );
    let c = emit_c(&m, &EmitOptions::default()).unwrap();
    assert!(c.contains("kernel `k`: barrier-region fission") && c.contains("kernel `g`: barrier-region fission"), "{c}");
    assert!(c.contains("__ng0 ? *"), "the guarded uniform load is conditional:\n{c}");
    let main = "
        void __stub_k(void) __asm__(\"_Z1kPiS_\"); void __stub_k(void) {}
        void __stub_g(void) __asm__(\"_Z1gPKiPii\"); void __stub_g(void) {}
        int main(void) {
            static int p[2], out[64];
            int *pp = p, *po = out;
            void *a1[] = { &pp, &po };
            launch(\"_Z1kPiS_\", d3(1, 1, 1), d3(32, 1, 1), 0, a1);
            printf(\"%d %d\\n\", out[0], out[1]);
            const int *null = 0; int n = 0;
            void *a2[] = { &null, &po, &n };
            launch(\"_Z1gPKiPii\", d3(2, 1, 1), d3(32, 1, 1), 0, a2);
            printf(\"%d\\n\", out[5]);
            return 0;
        }";
    let r = compile_and_run("fission_uniform_loads", &m, main);
    assert_eq!(r.stdout, "42 43\n0\n", "{}", r.c_source);
}

#[test]
fn warp_collectives_inside_a_guard_among_the_threads_that_entered() {
    // Lanes 20..31 of each warp return early; the shuffles after it are computed among
    // lanes 0..19 (a shuffle from a lane that left gives the reader's own value, as
    // under the general scheduler), the loop around them stays scalar.
    let m = lower(
        "__global__ void k(const int *in, int *out, int *ballots) {
            if ((threadIdx.x & 31) >= 20) return;
            int v = in[blockIdx.x * blockDim.x + threadIdx.x];
            for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
            unsigned b = __ballot_sync(0xffffffff, v & 1);
            out[blockIdx.x * blockDim.x + threadIdx.x] = v;
            if ((threadIdx.x & 31) == 0) ballots[blockIdx.x * 2 + threadIdx.x / 32] = b;
        }",
    );
    let main = format!(
        "{LAUNCH0}int main(void) {{
            static int in[128], out[128], ballots[4];
            for (int i = 0; i < 128; i++) {{ in[i] = i * 7 % 13; out[i] = -1; }}
            const int *pi = in; int *po = out, *pb = ballots;
            void *args[] = {{ &pi, &po, &pb }};
            LAUNCH0(d3(2, 1, 1), d3(64, 1, 1), 0, args);
            int bad = 0;
            for (int w = 0; w < 4; w++) {{
                int v[32]; for (int l = 0; l < 32; l++) v[l] = in[w * 32 + l];
                for (int off = 16; off > 0; off >>= 1) {{
                    int nv[32];
                    for (int l = 0; l < 20; l++) nv[l] = v[l] + (l + off < 20 ? v[l + off] : (l + off < 32 ? 0 : v[l]));
                    for (int l = 0; l < 20; l++) v[l] = nv[l];
                }}
                unsigned b = 0;
                for (int l = 0; l < 32; l++) {{
                    int want = l < 20 ? v[l] : -1;
                    if (out[w * 32 + l] != want) bad++;
                    if (l < 20 && (v[l] & 1)) b |= 1u << l;
                }}
                if ((unsigned)ballots[w] != b) bad++;
            }}
            printf(\"bad %d\\n\", bad);
            return 0;
        }}"
    );
    let r = run("fission_warp_guard", &m, &main);
    assert!(r.c_source.contains("__cu_warp_masked("), "{}", r.c_source);
    assert_eq!(r.stdout, "bad 0\n", "{}", r.c_source);
}

#[test]
fn reassigned_thread_coordinates_are_recomputed_not_kept_in_slots() {
    // `x` and `y` get a second, unrelated value after the barrier: two webs each, both
    // set once from the thread's coordinates, so neither needs a per-thread slot.
    let m = lower(
        "__global__ void transpose(const float *in, float *out, int n) {
            __shared__ float tile[8][9];
            int x = blockIdx.x * 8 + threadIdx.x;
            int y = blockIdx.y * 8 + threadIdx.y;
            tile[threadIdx.y][threadIdx.x] = in[y * n + x];
            __syncthreads();
            x = blockIdx.y * 8 + threadIdx.x;
            y = blockIdx.x * 8 + threadIdx.y;
            out[y * n + x] = tile[threadIdx.x][threadIdx.y];
        }",
    );
    let main = format!(
        "{LAUNCH0}int main(void) {{
            enum {{ N = 24 }};
            static float a[N * N], b[N * N];
            for (int i = 0; i < N * N; i++) a[i] = (float)i;
            const float *pa = a; float *pb = b; int n = N;
            void *args[] = {{ &pa, &pb, &n }};
            LAUNCH0(d3(N / 8, N / 8, 1), d3(8, 8, 1), 0, args);
            int bad = 0;
            for (int i = 0; i < N; i++) for (int j = 0; j < N; j++) bad += b[j * N + i] != a[i * N + j];
            printf(\"bad %d\\n\", bad);
            return 0;
        }}"
    );
    let r = run("fission_webs", &m, &main);
    assert_eq!(r.stdout, "bad 0\n", "{}", r.c_source);
    let comment = r.c_source.lines().find(|l| l.contains("kernel `transpose`")).unwrap().to_string();
    assert!(comment.contains("barrier-region fission") && !comment.contains("slots"), "{comment}");
}

#[test]
fn work_efficient_scan_sweeps_are_single_thread_loops_over_the_active_threads() {
    // The down-sweep reads `buf[b]` after storing `buf[a]`: different lanes never meet
    // there (`offset*(2t+1)-1` against `offset*(2t+2)-1`), so no lock-step points split the
    // sweeps; each sweep's thread loop runs only the threads below `d`. The store of the
    // block total by thread 0 after the up-sweep keeps its lock-step order.
    let m = lower(
        "__global__ void scan(int *data) {
            __shared__ int buf[256];
            int t = threadIdx.x;
            buf[t] = data[blockIdx.x * 256 + t];
            buf[t + 128] = data[blockIdx.x * 256 + 128 + t];
            int offset = 1;
            for (int d = 128; d > 0; d >>= 1) {
                __syncthreads();
                if (t < d) {
                    int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
                    buf[b] += buf[a];
                }
                offset *= 2;
            }
            if (t == 0) buf[255] = 0;
            for (int d = 1; d < 256; d *= 2) {
                offset >>= 1;
                __syncthreads();
                if (t < d) {
                    int a = offset * (2 * t + 1) - 1, b = offset * (2 * t + 2) - 1;
                    int x = buf[a];
                    buf[a] = buf[b];
                    buf[b] += x;
                }
            }
            __syncthreads();
            data[blockIdx.x * 256 + t] = buf[t];
            data[blockIdx.x * 256 + 128 + t] = buf[t + 128];
        }",
    );
    let main = format!(
        "{LAUNCH0}int main(void) {{
            static int d[3 * 256], h[3 * 256];
            for (int i = 0; i < 3 * 256; i++) d[i] = h[i] = (i * 37) % 11 - 5;
            int *pd = d;
            void *args[] = {{ &pd }};
            LAUNCH0(d3(3, 1, 1), d3(128, 1, 1), 0, args);
            int bad = 0;
            for (int b = 0; b < 3; b++) {{
                int run = 0;
                for (int i = 0; i < 256; i++) {{ bad += d[b * 256 + i] != run; run += h[b * 256 + i]; }}
            }}
            printf(\"mismatches %d\\n\", bad);
            return 0;
        }}"
    );
    let r = run("fission_scan", &m, &main);
    assert_eq!(r.stdout.trim(), "mismatches 0", "{}", r.c_source);
    let c = &r.c_source;
    let loops = thread_loops(c);
    // The up-sweep's add and the down-sweep's swap: each one thread loop, bounded by `d`.
    assert!(c.matches("__tx < __lim").count() >= 4, "sweeps run the threads below d only:\n{c}");
    let swap = loops.iter().find(|(_, b)| b.matches("= *").count() >= 3).unwrap_or_else(|| panic!("the swap is not in one thread loop:\n{c}"));
    assert!(!swap.1.contains("__s_"), "the swap keeps nothing in slots:\n{}", swap.1);
}

/// A thermal-style stencil: each block stages its tile in shared memory, and a thread on
/// the tile's edge takes its neighbour from global memory (or its own value at the
/// grid's edge). `threadIdx.x - 1` sits under `threadIdx.x > 0`.
const HALO_STENCIL: &str = "
__global__ void halo(const float *in, float *out, int n) {
    __shared__ float t[8][8];
    int x = blockIdx.x * 8 + threadIdx.x, y = blockIdx.y * 8 + threadIdx.y;
    int i = y * n + x;
    float c = in[i];
    t[threadIdx.y][threadIdx.x] = c;
    __syncthreads();
    float up = threadIdx.y > 0 ? t[threadIdx.y - 1][threadIdx.x] : (y > 0 ? in[i - n] : c);
    float down = threadIdx.y < 7 ? t[threadIdx.y + 1][threadIdx.x] : (y < n - 1 ? in[i + n] : c);
    float left = threadIdx.x > 0 ? t[threadIdx.y][threadIdx.x - 1] : (x > 0 ? in[i - 1] : c);
    float right = threadIdx.x < 7 ? t[threadIdx.y][threadIdx.x + 1] : (x < n - 1 ? in[i + 1] : c);
    out[i] = c + 0.5f * (up + down) - 0.25f * (left + right);
}";

#[test]
fn halo_stencils_match_the_host_with_affine_offsets() {
    let m = lower(HALO_STENCIL);
    let main = format!(
        "{LAUNCH0}int main(void) {{
            enum {{ N = 24 }};
            static float a[N * N], b[N * N];
            for (int i = 0; i < N * N; i++) a[i] = (float)((i * 37) % 101);
            const float *pa = a; float *pb = b; int n = N;
            void *args[] = {{ &pa, &pb, &n }};
            LAUNCH0(d3(N / 8, N / 8, 1), d3(8, 8, 1), 0, args);
            int bad = 0;
            for (int y = 0; y < N; y++) for (int x = 0; x < N; x++) {{
                int i = y * N + x;
                float c = a[i], up = y > 0 ? a[i - N] : c, down = y < N - 1 ? a[i + N] : c;
                float left = x > 0 ? a[i - 1] : c, right = x < N - 1 ? a[i + 1] : c;
                bad += b[i] != c + 0.5f * (up + down) - 0.25f * (left + right);
            }}
            printf(\"bad %d\\n\", bad);
            return 0;
        }}"
    );
    let r = run("fission_halo", &m, &main);
    assert_eq!(r.stdout, "bad 0\n", "{}", r.c_source);
    let c = &r.c_source;
    // `threadIdx.x - 1` under `threadIdx.x > 0` is a 64-bit offset; slot indices are too.
    assert!(c.contains("((int64_t)v") && c.contains(" - (int64_t)v"), "guarded offset widened:\n{c}");
    assert!(c.contains("const size_t __t = "), "{c}");
    // The selection's thread loops are split at the constants that `threadIdx.x` and
    // `threadIdx.y` are compared with (`thread_split.rs`): 3 x 3 copies; the interior
    // one (x and y in 1..7) has no branch left, and GCC vectorises it.
    let loops = thread_loops(c);
    let mid: Vec<_> = loops.iter().filter(|(_, b)| b.lines().next().unwrap().contains("__tx = 1u; __tx < (7u < __bdx ? 7u : __bdx)")).collect();
    // (Three per copy of the block body: the block-index versioning makes two.)
    assert!(!mid.is_empty() && mid.len() % 3 == 0, "x split at 1 and 7 in each of three y ranges:\n{c}");
    assert!(c.contains("for (uint32_t __ty = 1u; __ty < (7u < __bdy ? 7u : __bdy); __ty++)"), "y split too:\n{c}");
    let (line, body) = mid[1];
    assert_vectorised("fission_halo_vec", c, *line, body.lines().count());
}

/// A bitonic sorting stage: the compare-and-swap's stores go back to the two addresses
/// just loaded, so they become stores of selects (`store_select.rs`) with no branch.
const BITONIC: &str = "
__global__ void stage(unsigned int *a, int j, int k) {
    unsigned int i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int partner = i ^ j;
    if (partner > i) {
        unsigned int x = a[i], y = a[partner];
        bool ascending = (i & k) == 0;
        if ((x > y) == ascending) {
            a[i] = y;
            a[partner] = x;
        }
    }
}";

#[test]
fn compare_and_swap_stores_are_selects_and_still_sort() {
    let m = lower(BITONIC);
    let main = format!(
        "{LAUNCH0}int main(void) {{
            enum {{ N = 1024 }};
            static unsigned int a[N];
            unsigned int s = 7;
            for (int i = 0; i < N; i++) {{ s ^= s << 13; s ^= s >> 17; s ^= s << 5; a[i] = s % 1000; }}
            unsigned int *pa = a;
            for (int k = 2; k <= N; k <<= 1)
                for (int j = k >> 1; j > 0; j >>= 1) {{
                    void *args[] = {{ &pa, &j, &k }};
                    LAUNCH0(d3(N / 64, 1, 1), d3(64, 1, 1), 0, args);
                }}
            int bad = 0;
            for (int i = 1; i < N; i++) bad += a[i - 1] > a[i];
            printf(\"bad %d\\n\", bad);
            return 0;
        }}"
    );
    let r = run("fission_bitonic", &m, &main);
    assert_eq!(r.stdout, "bad 0\n", "{}", r.c_source);
    let c = &r.c_source;
    let kernel = &c[c.find("kernel `stage`").unwrap_or_else(|| panic!("{c}"))..];
    assert!(kernel.matches(" ? ").count() >= 2, "two selects for the two stores:\n{kernel}");
}

/// Shuffles of every kind with a block-uniform lane and width (kernel parameters), in a
/// 3-D block of 48 threads (a full warp and one of 16 lanes), `guard`ed by an early return
/// of lanes 20..31 or not: the fast path (`emit/shuffle.rs`) against a host model of
/// the documented semantics (own value outside the caller's segment; 0 from a lane that
/// does not exist or has left, as on an H100).
fn check_fast_shuffles(tag: &str, guard: bool) {
    let ret = if guard { "if (t % 32 >= 20) return;" } else { "" };
    let m = lower(&format!(
        "__global__ void shf(const int *in, int *out, int w, int b) {{
            int t = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
            {ret}
            int v = in[blockIdx.x * 48 + t];
            int o = (blockIdx.x * 48 + t) * 4;
            out[o + 0] = __shfl_down_sync(0xffffffff, v, b, w);
            out[o + 1] = __shfl_up_sync(0xffffffff, v, b, w);
            out[o + 2] = __shfl_xor_sync(0xffffffff, v, b, w);
            out[o + 3] = __shfl_sync(0xffffffff, v, b + 1, w);
        }}"
    ));
    let main = format!(
        "{LAUNCH0}static int model(const int *v, unsigned there, int l, int kind, int b, int w) {{
            int seg = l - l % w, j;
            switch (kind) {{
            case 0: j = l + b; if (j >= seg + w) return v[l]; break;
            case 1: j = l - b; if (j < seg) return v[l]; break;
            case 2: j = l ^ b; if (j >= seg + w) return v[l]; break;
            default: j = seg + (b + 1) % w; break;
            }}
            return there >> j & 1u ? v[j] : 0;
        }}
        int main(void) {{
            static int in[2 * 48], out[2 * 48 * 4];
            int bad = 0, checked = 0;
            for (int i = 0; i < 2 * 48; i++) in[i] = i * 7 % 13 - 6;
            const int ws[] = {{ 32, 16, 8 }}, bs[] = {{ 1, 3, 5, 9, 16 }};
            for (int wi = 0; wi < 3; wi++) for (int bi = 0; bi < 5; bi++) {{
                int w = ws[wi], b = bs[bi];
                for (int i = 0; i < 2 * 48 * 4; i++) out[i] = -100;
                const int *pi = in; int *po = out;
                void *args[] = {{ &pi, &po, &w, &b }};
                LAUNCH0(d3(2, 1, 1), d3(4, 3, 4), 0, args);
                for (int blk = 0; blk < 2; blk++) for (int wp = 0; wp < 2; wp++) {{
                    int base = blk * 48 + wp * 32, lanes = wp ? 16 : 32;
                    unsigned there = 0;
                    for (int l = 0; l < lanes; l++) if (!{guard} || l < 20) there |= 1u << l;
                    int v[32];
                    for (int l = 0; l < 32; l++) v[l] = l < lanes ? in[base + l] : 0;
                    for (int l = 0; l < lanes; l++) for (int k = 0; k < 4; k++) {{
                        int want = there >> l & 1u ? model(v, there, l, k, b, w) : -100;
                        checked++;
                        if (out[(base + l) * 4 + k] != want) {{
                            if (bad++ < 5) printf(\"w=%d b=%d lane %d of warp %d kind %d: %d, want %d\\n\", w, b, l, base / 32, k, out[(base + l) * 4 + k], want);
                        }}
                    }}
                }}
            }}
            printf(\"bad %d of %d\\n\", bad, checked);
            return 0;
        }}",
        guard = guard as i32
    );
    let r = run(tag, &m, &main);
    assert!(r.c_source.contains("barrier-region fission"), "{}", r.c_source);
    assert!(r.c_source.contains("__wv") && !r.c_source.contains("__cu_warp_all(__ws") && !r.c_source.contains("__cu_warp_masked(__ws"), "{}", r.c_source);
    assert_eq!(r.c_source.contains("if (!__g0[__t]) {"), guard, "{}", r.c_source);
    assert_eq!(r.stdout, format!("bad 0 of {}\n", 15 * 2 * 48 * 4), "{}", r.c_source);
}

#[test]
fn uniform_shuffles_are_thread_loops_over_the_values_of_every_lane() {
    check_fast_shuffles("fission_fast_shfl", false);
    check_fast_shuffles("fission_fast_shfl_guard", true);
}

#[test]
fn a_shuffle_down_with_a_uniform_offset_is_a_vectorised_thread_loop() {
    let m = lower(
        "__global__ void wsum(const float *in, float *out) {
            float v = in[blockIdx.x * blockDim.x + threadIdx.x];
            for (int off = 16; off > 0; off >>= 1) v += __shfl_down_sync(0xffffffff, v, off);
            if ((threadIdx.x & 31) == 0) out[blockIdx.x * blockDim.x / 32 + threadIdx.x / 32] = v;
        }",
    );
    let c = emit_c(&m, &EmitOptions { line_directives: false, source_name: "wsum.cu".into(), checks: false }).unwrap();
    let loops = thread_loops(&c);
    let (line, body) = loops.iter().find(|(_, b)| b.contains("__sr = ((float *)__wv)[__ss]")).unwrap_or_else(|| panic!("no shuffle loop:\n{c}"));
    assert_vectorised("fission_shfl_vec", &c, *line, body.lines().count());
}

#[test]
fn a_guarded_shuffle_xor_is_a_vectorised_thread_loop() {
    // Softmax's row maximum: warps past the last row return; the xor shuffle's thread
    // loop gathers, and reads 0 from threads outside the guard without a byte gather.
    let m = lower(
        "__global__ void rowmax(const float *in, float *out, int rows) {
            int row = blockIdx.x * 8 + threadIdx.x / 32;
            if (row >= rows) return;
            float v = in[row * 32 + threadIdx.x % 32];
            for (int m = 16; m > 0; m >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffff, v, m));
            out[row * 32 + threadIdx.x % 32] = v;
        }",
    );
    let c = emit_c(&m, &EmitOptions { line_directives: false, source_name: "rowmax.cu".into(), checks: false }).unwrap();
    let loops = thread_loops(&c);
    let (line, body) = loops.iter().find(|(_, b)| b.contains("__sr = ((float *)__wv)[__ss]")).unwrap_or_else(|| panic!("no shuffle loop:\n{c}"));
    assert!(body.contains("if (__g0[__t])"), "{body}");
    assert_vectorised("fission_shfl_xor_vec", &c, *line, body.lines().count());
}

#[test]
fn rotated_grid_stride_loops_with_divergent_bodies_match_the_host() {
    // Two grid-stride loops: the first with a divergent body (rotated: the header's test
    // at the end of the body's thread loop), the second bounded by a value loaded from
    // memory in its header (not rotated: the load must not move before the body). Every n
    // from 0, including ones that leave some threads with one round fewer.
    let m = lower(
        "__global__ void k(const int *in, int *out, const int *bound, int n) {
            __shared__ int acc[64];
            int pos = 0, neg = 0;
            for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
                if (in[i] > 0) pos += in[i]; else neg -= in[i];
            }
            acc[threadIdx.x] = pos * 1000 + neg;
            __syncthreads();
            int s = 0;
            for (int j = threadIdx.x; j < *bound; j += blockDim.x) s += acc[j % 64];
            out[blockIdx.x * blockDim.x + threadIdx.x] = s;
        }",
    );
    let main = format!(
        "{LAUNCH0}int main(void) {{
            static int in[3000], out[3 * 64];
            int bad = 0;
            for (int i = 0; i < 3000; i++) in[i] = (i * 37 % 11) - 5;
            for (int n = 0; n <= 3000; n += 367) for (int bound = 0; bound <= 200; bound += 67) {{
                const int *pi = in; int *po = out; int *pb = &bound;
                void *args[] = {{ &pi, &po, &pb, &n }};
                LAUNCH0(d3(3, 1, 1), d3(64, 1, 1), 0, args);
                for (int b = 0; b < 3; b++) {{
                    int acc[64];
                    for (int t = 0; t < 64; t++) {{
                        int pos = 0, neg = 0;
                        for (int i = b * 64 + t; i < n; i += 192) {{ if (in[i] > 0) pos += in[i]; else neg -= in[i]; }}
                        acc[t] = pos * 1000 + neg;
                    }}
                    for (int t = 0; t < 64; t++) {{
                        int s = 0;
                        for (int j = t; j < bound; j += 64) s += acc[j % 64];
                        if (out[b * 64 + t] != s) bad++;
                    }}
                }}
            }}
            printf(\"bad %d\\n\", bad);
            return 0;
        }}"
    );
    let r = run("fission_rotated", &m, &main);
    assert_eq!(r.stdout, "bad 0\n", "{}", r.c_source);
    let c = &r.c_source;
    assert!(c.contains("barrier-region fission"), "{c}");
    // The first loop is rotated (its mask is counted in the header's thread loop and in
    // the body's), the second (its bound loaded in the header) is not (the header's
    // only), in each copy of the block body.
    let counted = |g: usize| c.matches(&format!("#pragma omp simd reduction(+:__ng{g})")).count();
    assert!(counted(1) >= 1 && counted(0) == 2 * counted(1), "{c}");
}
