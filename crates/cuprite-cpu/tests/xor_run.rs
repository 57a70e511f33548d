//! Thread loops split into runs at the bit of a uniform power of two (`emit/xor_run.rs`):
//! a bitonic sort's `a[i ^ j]` as contiguous vector loads, same results as the host.

mod common;
use common::*;
use cuprite_cpu::{emit_c, EmitOptions};
use cuprite_ir::Module;

fn run(tag: &str, m: &Module, main: &str) -> RunResult {
    let (_, k) = m.kernels().next().expect("a kernel");
    let cuprite_ir::FunctionKind::Kernel { stub_symbol, .. } = &k.kind else { unreachable!() };
    let stub = format!("void __test_stub(void) __asm__(\"{stub_symbol}\");\nvoid __test_stub(void) {{}}\n");
    compile_and_run(tag, m, &format!("{stub}#define LAUNCH0(g, b, dyn, args) launch(g_mod->kernels[0].symbol, g, b, dyn, args)\n{main}"))
}

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
fn a_bitonic_sort_runs_by_run_and_sorts() {
    let m = lower(BITONIC);
    // Every stage of a 4096-element sort (j from 1 to 2048: short and long runs, runs
    // longer than a block) with blocks of 64 and of 256 threads.
    let main = "int main(void) {
        enum { N = 4096 };
        static unsigned a[N];
        for (int bs = 64; bs <= 256; bs *= 4) {
            unsigned s = 12345;
            for (int i = 0; i < N; i++) { s = s * 1103515245u + 12345u; a[i] = s >> 8; }
            unsigned *p = a;
            for (int k = 2; k <= N; k <<= 1)
                for (int j = k >> 1; j > 0; j >>= 1) {
                    void *args[] = { &p, &j, &k };
                    LAUNCH0(d3(N / bs, 1, 1), d3(bs, 1, 1), 0, args);
                }
            int bad = 0;
            for (int i = 1; i < N; i++) bad += a[i - 1] > a[i];
            printf(\"bs %d unsorted %d\\n\", bs, bad);
        }
        return 0;
    }";
    let r = run("xor_run_bitonic", &m, main);
    assert_eq!(r.stdout, "bs 64 unsorted 0\nbs 256 unsorted 0\n", "{}", r.c_source);
    assert!(r.c_source.contains("const int64_t __xd = __xc & __xb0"), "runs with their own delta:\n{}", r.c_source);
}

#[test]
fn a_partner_that_is_no_power_of_two_keeps_the_xor() {
    // `i ^ m` for m = 3, 5, 24, 0 (no power of two, or zero) and 1, 16, 64: each thread
    // reads its partner's value, as on the host.
    let m = lower(
        "__global__ void swapread(const unsigned *in, unsigned *out, unsigned m) {
            unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
            unsigned p = i ^ m;
            if (p < 1024u) out[i] = in[p] * 3u + i;
        }",
    );
    let main = "int main(void) {
        static unsigned in[1024], out[1024];
        for (int i = 0; i < 1024; i++) in[i] = i * 7u + 1u;
        unsigned ms[] = { 3, 5, 24, 0, 1, 16, 64, 2048 };
        int bad = 0;
        for (int t = 0; t < 8; t++) {
            for (int i = 0; i < 1024; i++) out[i] = 0xdead;
            const unsigned *pi = in; unsigned *po = out; unsigned mm = ms[t];
            void *args[] = { &pi, &po, &mm };
            LAUNCH0(d3(8, 1, 1), d3(128, 1, 1), 0, args);
            for (unsigned i = 0; i < 1024; i++) {
                unsigned p = i ^ ms[t];
                unsigned want = p < 1024u ? in[p] * 3u + i : 0xdead;
                bad += out[i] != want;
            }
        }
        printf(\"bad %d\\n\", bad);
        return 0;
    }";
    let r = run("xor_run_any", &m, main);
    assert_eq!(r.stdout, "bad 0\n", "{}", r.c_source);
}

#[test]
fn the_run_loop_of_a_bitonic_stage_is_vectorised() {
    let m = lower(BITONIC);
    let c = emit_c(&m, &EmitOptions { line_directives: false, source_name: "bitonic.cu".into(), checks: false }).unwrap();
    let lines: Vec<&str> = c.lines().collect();
    let head = lines.iter().position(|l| l.trim_start().starts_with("for (uint32_t __tx = __xs;")).unwrap_or_else(|| panic!("no run loop:\n{c}"));
    let indent = lines[head].len() - lines[head].trim_start().len();
    let end = (head + 1..lines.len()).find(|&j| lines[j].len() > indent && lines[j][..indent].trim().is_empty() && lines[j][indent..].starts_with('}')).unwrap();
    let (start, end) = (head + 1, end + 1);
    let report = vectorisation_report("xor_run_vec", &c);
    let at: Vec<usize> = report.lines().filter(|l| l.contains("loop vectorized")).filter_map(|l| l.split(':').nth(1)?.parse().ok()).collect();
    assert!(at.iter().any(|l| (start..=end).contains(l)), "GCC did not vectorise the run loop at lines {start}-{end}:\n{report}");
}
