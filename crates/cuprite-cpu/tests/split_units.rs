//! The generated C as several translation units (`emit_units`, `src/split.rs`) and the
//! block-index versioning that emits a second copy of a kernel body only when the two
//! differ. The units are compiled separately, linked with `ld -r`, their hidden symbols
//! made local (as the driver does), and the kernels run against the fake runtime.

mod common;
use common::*;
use cuprite_cpu::{c_compiler_flags, emit_c, emit_units, EmitOptions};
use cuprite_ir::Module;
use std::process::Command;

fn opts() -> EmitOptions {
    EmitOptions { line_directives: false, source_name: "units.cu".into(), checks: false }
}

const THREE_KERNELS: &str = "
__device__ int total;
__constant__ float scale = 2.0f;
__device__ float twice(float x) { return x * scale; }
__global__ void k_scale(float *a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) a[i] = twice(a[i]);
}
__global__ void k_sum(const float *a, int n) {
    __shared__ float s[64];
    s[threadIdx.x] = a[threadIdx.x];
    __syncthreads();
    if (threadIdx.x == 0) {
        float t = 0;
        for (int k = 0; k < 64; k++) t += s[k];
        atomicAdd(&total, (int)t);
    }
}
__global__ void k_read(int *out) { out[0] = total; }
";

fn stubs(m: &Module) -> String {
    let mut s = String::new();
    for (i, (_, k)) in m.kernels().enumerate() {
        let cuprite_ir::FunctionKind::Kernel { stub_symbol, .. } = &k.kind else { unreachable!() };
        s.push_str(&format!("void __test_stub{i}(void) __asm__(\"{stub_symbol}\");\nvoid __test_stub{i}(void) {{}}\n"));
    }
    for (i, g) in m.globals.iter().enumerate() {
        if let Some(sym) = &g.host_symbol {
            s.push_str(&format!("char __test_shadow{i} __asm__(\"{sym}\");\n"));
        }
    }
    s
}

fn cc(args: &[String]) {
    let out = Command::new("cc").args(args).output().expect("cc");
    assert!(out.status.success(), "cc {args:?}:\n{}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn kernels_split_into_units_link_and_run() {
    let m = lower(THREE_KERNELS);
    let e = emit_units(&m, &opts(), 3).unwrap();
    assert_eq!(e.units.len(), 2, "three kernels in three units");
    // The table and the variables' definitions are in the first unit only.
    assert!(e.c.contains("__cuprite_kernels"));
    for u in &e.units {
        assert!(!u.contains("__cuprite_kernels"), "{u}");
        assert!(u.contains("extern int32_t __cuprite_g_total"), "variables are declared in the other units:\n{u}");
        assert_eq!(u.matches("visibility(\"hidden\"))) void __cuprite_k_").count(), 1, "one kernel per unit:\n{u}");
    }
    assert!(e.c.contains("int32_t __cuprite_g_total") && !e.c.contains("extern int32_t __cuprite_g_total"));

    let dir = work_dir("split");
    let abi = format!("-I{}", std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../cuprite-rt/csrc").display());
    let mut objs = Vec::new();
    for (i, text) in std::iter::once(&e.c).chain(&e.units).enumerate() {
        let c = dir.join(format!("u{i}.c"));
        std::fs::write(&c, text).unwrap();
        let o = dir.join(format!("u{i}.o"));
        let mut args = vec!["-c".to_string()];
        args.extend(c_compiler_flags(2));
        args.extend([c.display().to_string(), "-o".into(), o.display().to_string()]);
        cc(&args);
        objs.push(o.display().to_string());
    }
    let merged = dir.join("merged.o");
    let mut ld = vec!["-r".to_string(), "-nostdlib".into()];
    ld.extend(objs);
    ld.extend(["-o".into(), merged.display().to_string()]);
    cc(&ld);
    let device = dir.join("device.o");
    let st = Command::new("objcopy").arg("--localize-hidden").arg(&merged).arg(&device).status().expect("objcopy");
    assert!(st.success());
    // Nothing of the module is global any more: two modules never clash.
    let nm = Command::new("nm").arg("-g").arg("--defined-only").arg(&device).output().expect("nm");
    let globals = String::from_utf8_lossy(&nm.stdout);
    assert!(!globals.contains("__cuprite_k_") && !globals.contains("__cuprite_g_"), "{globals}");

    let main = format!(
        "{FAKE_RT}\n{}\nint main(void) {{
            float a[64]; int out = -1, n = 64;
            for (int i = 0; i < 64; i++) a[i] = (float)i;
            float *pa = a; int *po = &out;
            void *sargs[] = {{ &pa, &n }};
            launch(g_mod->kernels[0].symbol, d3(2, 1, 1), d3(32, 1, 1), 0, sargs);
            void *args[] = {{ &pa, &n }};
            launch(g_mod->kernels[1].symbol, d3(1, 1, 1), d3(64, 1, 1), 0, args);
            void *rargs[] = {{ &po }};
            launch(g_mod->kernels[2].symbol, d3(1, 1, 1), d3(1, 1, 1), 0, rargs);
            printf(\"a[5]=%g total=%d\\n\", a[5], out);
            return 0;
        }}",
        stubs(&m)
    );
    let main_c = dir.join("main.c");
    std::fs::write(&main_c, main).unwrap();
    let prog = dir.join("prog");
    cc(&[abi, main_c.display().to_string(), device.display().to_string(), "-o".into(), prog.display().to_string(), "-lm".into()]);
    let run = Command::new(&prog).output().expect("run");
    // a[i] = 2i, summed over 64: 2 * 2016.
    assert_eq!(String::from_utf8_lossy(&run.stdout), "a[5]=10 total=4032\n");
}

#[test]
fn one_unit_is_the_whole_file() {
    let m = lower(THREE_KERNELS);
    let e = emit_units(&m, &opts(), 1).unwrap();
    assert!(e.units.is_empty());
    assert_eq!(e.c, emit_c(&m, &opts()).unwrap());
    assert!(!e.c.contains("visibility(\"hidden\")"));
}

#[test]
fn a_module_that_takes_a_function_address_stays_one_unit() {
    // Each unit has its own copy of a device function: addresses would differ.
    let m = lower(
        "__device__ int one(int x) { return x + 1; }
         typedef int (*fn_t)(int);
         __device__ fn_t pick(int k) { return one; }
         __global__ void a(int *o) { o[0] = pick(0)(1); }
         __global__ void b(int *o) { o[0] = 2; }",
    );
    let e = emit_units(&m, &opts(), 2).unwrap();
    assert!(e.units.is_empty());
}

#[test]
fn a_second_copy_only_where_the_block_bound_is_used() {
    // `(int)(blockIdx.x * blockDim.x + threadIdx.x)` is widened in the copy for blocks
    // below 2^21, so there is a general copy; a kernel indexing by threadIdx alone has one.
    let wide = emit_c(&lower("__global__ void k(float *a) { int i = blockIdx.x * blockDim.x + threadIdx.x; a[i] = 1.0f; }"), &opts()).unwrap();
    assert!(wide.contains("0x200000u") && wide.contains("g_"), "{wide}");
    let narrow = emit_c(&lower("__global__ void k(float *a) { a[threadIdx.x] = 1.0f; }"), &opts()).unwrap();
    assert!(!narrow.contains("0x200000u"), "{narrow}");
}
