//! The multi-block form (`src/emit/multi_block.rs`): a fissioned kernel with a grid-stride
//! loop runs several consecutive blocks of a run together, each with its own shared
//! memory, slots and `blockIdx`. These tests run kernels against host references with
//! 1, 2 and 4 blocks at a time (`CUPRITE_MULTI_BLOCKS`; the test runtime hands out runs
//! of 3 blocks, so groups are also cut short), and check which kernels keep one block at
//! a time.

mod common;
use common::*;
use cuprite_ir::Module;

const LAUNCH0: &str = "#define LAUNCH0(g, b, dyn, args) launch(g_mod->kernels[0].symbol, g, b, dyn, args)\n";

fn run_with(tag: &str, m: &Module, blocks: u32, main_body: &str) -> RunResult {
    let (_, k) = m.kernels().next().expect("a kernel");
    let cuprite_ir::FunctionKind::Kernel { stub_symbol, .. } = &k.kind else { unreachable!() };
    let stub = format!("void __test_stub(void) __asm__(\"{stub_symbol}\");\nvoid __test_stub(void) {{}}\n");
    let main = format!("{stub}{LAUNCH0}int setenv(const char *, const char *, int);\nint main(void) {{\n    setenv(\"CUPRITE_MULTI_BLOCKS\", \"{blocks}\", 1);\n{main_body}\n}}");
    compile_and_run(&format!("{tag}_{blocks}"), m, &main)
}

/// Per block: a grid-stride sum, a shared-memory tree, a value that depends on
/// `blockIdx` in uniform-looking code, a dynamic shared-memory word; one result each.
const REDUCE: &str = "
__global__ void reduce(const int *in, int *out, int n) {
    __shared__ int buf[64];
    extern __shared__ int tag[];
    int scale = blockIdx.x % 2 ? 3 : 1;
    int sum = 0;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
        sum += in[i] * scale;
    buf[threadIdx.x] = sum;
    if (threadIdx.x == 0) tag[0] = blockIdx.x * 10;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) buf[threadIdx.x] += buf[threadIdx.x + s];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = buf[0] + tag[0];
}";

#[test]
fn grid_stride_kernels_run_several_blocks_together_and_match_the_host() {
    let m = lower(REDUCE);
    let body = "
    enum { B = 7, T = 64 };
    static int in[3000]; int part[B];
    int bad = 0;
    for (int n = 0; n <= 3000; n += 997) {
        for (int i = 0; i < n; i++) in[i] = i % 13 - 6;
        const int *pi = in; int *pp = part;
        void *args[] = { &pi, &pp, &n };
        LAUNCH0(d3(B, 1, 1), d3(T, 1, 1), 16, args);
        for (int b = 0; b < B; b++) {
            long long want = b * 10;
            for (int i = b * T; i < n; i += B * T)
                for (int t = i; t < i + T && t < n; t++) want += (long long)in[t] * (b % 2 ? 3 : 1);
            if (part[b] != want) { printf(\"n=%d block %d: %d, want %lld\\n\", n, b, part[b], want); bad = 1; }
        }
    }
    printf(\"%s\\n\", bad ? \"wrong\" : \"ok\");
    return 0;";
    for blocks in [1, 2, 4] {
        let r = run_with("multi_block_reduce", &m, blocks, body);
        assert_eq!(r.stdout.trim(), "ok", "{} blocks at a time:\n{}\n{}", blocks, r.stdout, r.c_source);
        let c = &r.c_source;
        assert!(c.contains("__blocks(cuprite_block_run *__run)"), "no multi-block form:\n{c}");
        // Each thread loop runs once per block of the group, with that block's buffers.
        assert!(c.contains("for (uint32_t __sb = 0u; __sb < __kk; __sb++)"), "{c}");
        assert!(c.contains("char *const __shared = __mscr + (size_t)__sb * __mshs;"), "{c}");
    }
}

#[test]
fn shared_histograms_with_global_atomics_run_several_blocks_together() {
    // Shared-memory atomics per block, then global atomics whose results are unused.
    let m = lower(
        "__global__ void hist(const unsigned char *data, int n, unsigned int *h) {
            __shared__ unsigned int local[32];
            for (int b = threadIdx.x; b < 32; b += blockDim.x) local[b] = 0;
            __syncthreads();
            for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
                atomicAdd(&local[data[i] % 32], 1u);
            __syncthreads();
            for (int b = threadIdx.x; b < 32; b += blockDim.x) atomicAdd(&h[b], local[b]);
        }",
    );
    let body = "
    static unsigned char d[10000]; unsigned int h[32] = {0}, want[32] = {0};
    for (int i = 0; i < 10000; i++) { d[i] = (unsigned char)(i * 7 % 251); want[d[i] % 32]++; }
    const unsigned char *pd = d; unsigned int *ph = h; int n = 10000;
    void *args[] = { &pd, &n, &ph };
    LAUNCH0(d3(10, 1, 1), d3(32, 1, 1), 0, args);
    for (int b = 0; b < 32; b++) if (h[b] != want[b]) { printf(\"bin %d: %u, want %u\\n\", b, h[b], want[b]); return 0; }
    printf(\"ok\\n\");
    return 0;";
    for blocks in [1, 4] {
        let r = run_with("multi_block_hist", &m, blocks, body);
        assert_eq!(r.stdout.trim(), "ok", "{} blocks at a time:\n{}\n{}", blocks, r.stdout, r.c_source);
        assert!(r.c_source.contains("__blocks(cuprite_block_run *__run)"), "no multi-block form:\n{}", r.c_source);
    }
}

#[test]
fn kernels_that_may_wait_for_another_block_run_one_block_at_a_time() {
    // A used atomic result (a ticket, a lock), a volatile load, a fence, printf, a barrier
    // with a result: each could make a block wait for, or tell apart, other blocks.
    for (what, stmt) in [
        ("atomic result", "if (atomicAdd(&out[0], 1) < 0) sum = 0;"),
        ("volatile", "sum += *(volatile int *)&out[1];"),
        ("fence", "__threadfence();"),
        ("printf", "if (sum == 12345) printf(\"x\");"),
        ("barrier result", "sum += __syncthreads_count(sum > 0);"),
    ] {
        let m = lower(&format!(
            "extern \"C\" int printf(const char *, ...);
            __global__ void k(const int *in, int *out, int n) {{
                __shared__ int buf[64];
                int sum = 0;
                for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x)
                    sum += in[i];
                {stmt}
                buf[threadIdx.x] = sum;
                __syncthreads();
                if (threadIdx.x == 0) out[blockIdx.x + 2] = buf[0];
            }}"
        ));
        let c = cuprite_cpu::emit_c(&m, &cuprite_cpu::EmitOptions { line_directives: false, source_name: "t.cu".into(), checks: false })
            .unwrap_or_else(|e| panic!("{what}: {e:#?}"));
        assert!(c.contains("barrier-region fission"), "{what}: the kernel is not fissioned, so this tests nothing:\n{c}");
        assert!(!c.contains("__blocks("), "{what}: the kernel runs several blocks together:\n{c}");
    }
}

#[test]
fn the_multi_block_round_loop_is_vectorised() {
    // The grid-stride round's thread loop inside the per-block loop of the multi-block
    // function: GCC's report names a vectorised loop within it.
    let m = lower(REDUCE);
    let c = cuprite_cpu::emit_c(&m, &cuprite_cpu::EmitOptions { line_directives: false, source_name: "t.cu".into(), checks: false }).unwrap();
    let lines: Vec<&str> = c.lines().collect();
    let start = lines.iter().position(|l| l.contains("__blocks(cuprite_block_run *__run) {")).unwrap_or_else(|| panic!("no multi-block form:\n{c}"));
    let end = (start..lines.len()).find(|&i| lines[i] == "}").unwrap();
    let round = (start..end)
        .find(|&i| lines[i].contains("#pragma omp simd reduction(+:__ng0)") && lines[i..end].iter().take(6).any(|l| l.contains("if (__g0[__t])")))
        .unwrap_or_else(|| panic!("no masked round loop in the multi-block function:\n{c}"));
    assert!(lines[start..round].iter().rev().take(20).any(|l| l.contains("for (uint32_t __sb = 0u; __sb < __kk; __sb++)")), "the round loop is not per block:\n{c}");
    let report = vectorisation_report("multi_block_vec", &c);
    // Report lines are 1-based; `round` is the pragma's 0-based index, the loop follows.
    let first = round + 2;
    let vectorised = report.lines().filter(|l| l.contains("loop vectorized")).filter_map(|l| l.split(':').nth(1)?.parse::<usize>().ok()).any(|n| n >= first && n < first + 30);
    assert!(vectorised, "GCC did not vectorise the round loop at line {first}:\n{report}");
}
