//! Test harness: compiles generated C with a tiny fake runtime and a test `main`.
#![allow(dead_code)]

use cuprite_cpu::{c_compiler_flags, emit_c, EmitOptions};
use cuprite_ir::Module;
use std::path::PathBuf;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The fake runtime: captures the module table and launches kernels block run by block
/// run (3 blocks per run, to exercise first_block/end_block).
pub const FAKE_RT: &str = r#"
#include <stdio.h>
#include <stdlib.h>
#include <stdarg.h>
#include <string.h>
#include "cuprite_abi.h"
static const cuprite_module_desc *g_mod;
void __cuprite_register_module(const cuprite_module_desc *m) { g_mod = m; }
int __cuprite_printf(const char *fmt, ...) {
    va_list ap; va_start(ap, fmt); int n = vprintf(fmt, ap); va_end(ap); return n;
}
void __cuprite_assert_fail(const char *expr, const char *file, unsigned line, const char *func,
                           cuprite_dim3 b, cuprite_dim3 t) {
    printf("assert: %s:%u: %s: block (%u,%u,%u), thread (%u,%u,%u) Assertion `%s` failed.\n",
           file, line, func, b.x, b.y, b.z, t.x, t.y, t.z, expr);
    exit(5);
}
void __cuprite_trap(void) { printf("trap\n"); exit(6); }
void __cuprite_kernel_error(int e, const char *m) { printf("kernel error %d: %s\n", e, m); fflush(stdout); exit(7); }
long long __cuprite_clock64(void) { static long long c; return c += 10; }
void *__cuprite_device_malloc(size_t n) { return malloc(n); }
void __cuprite_device_free(void *p) { free(p); }
int __cuprite_tex_fetch(uint64_t o, int d, float x, float y, float z, int l, void *r, unsigned n, const char **m) { (void)m; return 0; }
int __cuprite_tex_fetch_int(uint64_t o, int x, void *r, unsigned n, const char **m) { (void)m; return 0; }
int __cuprite_surf_access(uint64_t o, int d, int x, int y, int z, void *p, unsigned n, int mode, int w, const char **m) { (void)m; return 0; }
void __cuprite_launch_from_stub(const void *s, void **a) { (void)s; (void)a; abort(); }

static const cuprite_kernel_desc *find_kernel(const char *sym) {
    if (!g_mod) { printf("module not registered\n"); exit(9); }
    for (uint32_t i = 0; i < g_mod->num_kernels; i++)
        if (!strcmp(g_mod->kernels[i].symbol, sym)) return &g_mod->kernels[i];
    printf("no kernel %s\n", sym); exit(9);
}
static void launch(const char *sym, cuprite_dim3 grid, cuprite_dim3 block, size_t dyn, void **args) {
    const cuprite_kernel_desc *k = find_kernel(sym);
    size_t nthreads = (size_t)block.x * block.y * block.z;
    size_t shbytes = CUPRITE_DYNAMIC_SHARED_OFFSET(k->static_shared_bytes) + dyn;
    char *shared = aligned_alloc(64, (shbytes + 64) / 64 * 64);
    memset(shared, 0xAB, (shbytes + 64) / 64 * 64);
    size_t slotb = k->slot_bytes_per_thread * nthreads;
    char *slots = aligned_alloc(64, (slotb + 64) / 64 * 64);
    memset(slots, 0xCD, (slotb + 64) / 64 * 64);
    cuprite_launch l = { grid, block, (void *const *)args, dyn };
    uint64_t total = (uint64_t)grid.x * grid.y * grid.z;
    for (uint64_t b = 0; b < total; b += 3) {
        cuprite_block_run run = { &l, b, b + 3 < total ? b + 3 : total, shared, slots, {0, 0, 0}, 0 };
        k->entry(&run);
    }
    free(shared);
    free(slots);
}
static cuprite_dim3 d3(unsigned x, unsigned y, unsigned z) { cuprite_dim3 d = {x, y, z}; return d; }
"#;

static COUNTER: AtomicUsize = AtomicUsize::new(0);

pub struct RunResult {
    pub status: i32,
    pub stdout: String,
    pub c_source: String,
}

fn abi_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../cuprite-rt/csrc")
}

pub fn work_dir(tag: &str) -> PathBuf {
    let n = COUNTER.fetch_add(1, Ordering::SeqCst);
    let d = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(format!("{tag}-{}-{n}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// Emits `m`, compiles it with `main_c` (which may use `launch`, `d3`, `g_mod`) and runs it.
pub fn compile_and_run_opts(tag: &str, m: &Module, main_c: &str, opt: u8, line_directives: bool) -> RunResult {
    let opts = EmitOptions { line_directives, source_name: format!("{tag}.cu"), checks: false };
    let src = match emit_c(m, &opts) {
        Ok(s) => s,
        Err(e) => panic!("emit_c failed: {e:#?}"),
    };
    let dir = work_dir(tag);
    std::fs::write(dir.join("gen.c"), &src).unwrap();
    std::fs::write(dir.join("main.c"), format!("{FAKE_RT}\n{main_c}")).unwrap();
    let mut cmd = Command::new("cc");
    cmd.args(c_compiler_flags(opt));
    cmd.arg("-I").arg(abi_dir());
    cmd.arg(dir.join("gen.c")).arg(dir.join("main.c")).arg("-o").arg(dir.join("prog")).arg("-lm");
    let out = cmd.output().expect("cc");
    if !out.status.success() {
        panic!(
            "cc failed for {tag} ({}):\n{}\n--- generated C ---\n{}",
            dir.display(),
            String::from_utf8_lossy(&out.stderr),
            src
        );
    }
    let run = Command::new(dir.join("prog")).output().expect("run");
    RunResult {
        status: run.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&run.stdout).into_owned(),
        c_source: src,
    }
}

pub fn compile_and_run(tag: &str, m: &Module, main_c: &str) -> RunResult {
    let r = compile_and_run_opts(tag, m, main_c, 2, false);
    if r.status != 0 {
        panic!("{tag}: exit status {}\nstdout:\n{}\n--- generated C ---\n{}", r.status, r.stdout, r.c_source);
    }
    r
}

/// Lowers device source to verified IR, as the compiler's front end does.
pub fn lower(src: &str) -> Module {
    let src = format!("# 1 \"test.cu\"\n{src}");
    let p = cuprite_front::parse(&src);
    let errors: Vec<_> = p.diagnostics.iter().filter(|d| d.severity == cuprite_front::diag::Severity::Error).collect();
    assert!(errors.is_empty(), "parse errors: {errors:#?}");
    let checked = cuprite_sema::check(&p.tu, &cuprite_sema::SemaOptions::default()).unwrap_or_else(|e| panic!("{e:#?}"));
    let m = checked.lower_with(&[], &p.source_map).unwrap_or_else(|e| panic!("{e:#?}")).module;
    cuprite_ir::verify::verify(&m).unwrap_or_else(|e| panic!("invalid IR: {e:#?}"));
    m
}

/// Compiles generated C with the back end's `-O3` flags and returns GCC's vectorisation
/// report (`file:line:col: optimized: loop vectorized …` lines).
pub fn vectorisation_report(tag: &str, c: &str) -> String {
    let dir = work_dir(tag);
    std::fs::write(dir.join("gen.c"), c).unwrap();
    let out = Command::new("cc")
        .args(c_compiler_flags(3))
        .arg("-fopt-info-vec-optimized")
        .arg("-I")
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../cuprite-rt/csrc"))
        .arg("-c")
        .arg(dir.join("gen.c"))
        .arg("-o")
        .arg(dir.join("gen.o"))
        .output()
        .expect("cc");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stderr).into_owned()
}
