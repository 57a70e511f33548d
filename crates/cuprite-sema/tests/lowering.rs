mod common;
use common::*;
use cuprite_ir as ir;
use cuprite_sema::SemaOptions;

fn kernel_symbol(m: &ir::Module, name: &str) -> String {
    match &func(m, name).kind {
        ir::FunctionKind::Kernel { stub_symbol, .. } => stub_symbol.clone(),
        _ => panic!("not a kernel"),
    }
}

#[test]
fn control_flow_verifies() {
    let m = compile(
        "__device__ int f(int n) {\n\
           int s = 0;\n\
           for (int i = 0; i < n; i++) { if (i == 3) continue; if (i > 10) break; s += i; }\n\
           while (s > 100) s /= 2;\n\
           do { s++; } while (s < 5 && n > 0 || s == 7);\n\
           switch (n) { case 0: s = 1; case 1: s++; break; case 5: { s = 9; break; } default: s--; }\n\
           if (s) goto out;\n\
           s = n ? s : -s;\n\
         out:\n\
           return s > 0 ? s : f(n - 1);\n\
         }\n\
         __global__ void k(int *p) { p[0] = f(p[1]) + (p[2] && p[3]) + (p[4] ? 1 : 2); }\n",
    );
    let f = func(&m, "f");
    assert!(f.blocks.iter().any(|b| matches!(b.term, ir::Terminator::Switch { .. })));
}

#[test]
fn barriers_are_terminators() {
    let m = compile(
        "__global__ void k(int *p) {\n\
           __shared__ int s[64];\n\
           s[threadIdx.x] = p[threadIdx.x];\n\
           __syncthreads();\n\
           p[threadIdx.x] = s[63 - threadIdx.x] + __syncthreads_or(p[0] > 1);\n\
         }\n",
    );
    let f = func(&m, "k");
    let kinds: Vec<_> = f
        .blocks
        .iter()
        .filter_map(|b| match &b.term {
            ir::Terminator::Barrier { kind, .. } => Some(*kind),
            _ => None,
        })
        .collect();
    assert_eq!(kinds, vec![ir::BarrierKind::Sync, ir::BarrierKind::Or]);
    let g = &m.globals[0];
    assert_eq!(g.name, "k.s");
    assert_eq!(g.space, ir::AddressSpace::Shared);
    assert_eq!(g.ty, ir::Type::Array(Box::new(ir::Type::I32), 64));
}

#[test]
fn fma_contraction() {
    let src = "__global__ void k(float *p, double *d) {\n\
        p[0] = p[1] * p[2] + p[3];\n\
        p[1] = p[3] - p[1] * p[2];\n\
        d[0] = d[1] * d[2] - d[3];\n\
        p[2] += p[0] * p[1];\n\
        p[3] = p[0] * p[1];\n\
      }\n";
    let m = compile(src);
    assert_eq!(builtins(func(&m, "k")), vec!["fmaf", "fmaf", "fma", "fmaf"]);
    let m = compile_opts(src, &SemaOptions { fmad: false, ..Default::default() }).unwrap();
    assert!(builtins(func(&m, "k")).is_empty());
}

/// A product kept in a local is fused into its uses when every use adds or subtracts
/// it, and not in a loop the declaration is outside of (as nvcc, measured on an H100).
#[test]
fn fma_contraction_through_locals() {
    let fused = "__global__ void k(float *p, double *d, int n) {\n\
        float t = p[0] * p[1]; p[2] = t + p[3]; p[3] = p[4] - t;\n\
        double u = -(d[0] * d[1]); double acc = d[2]; acc += u; d[3] = acc;\n\
      }\n";
    let m = compile(fused);
    assert_eq!(builtins(func(&m, "k")), vec!["fmaf", "fmaf", "fma"]);
    let m = compile_opts(fused, &SemaOptions { fmad: false, ..Default::default() }).unwrap();
    assert!(builtins(func(&m, "k")).is_empty());
    let rounded = "__global__ void k(float *p, int n) {\n\
        float t = p[0] * p[1]; p[5] = t; p[2] = t + p[3];\n\
        float v = p[0] * p[2]; for (int i = 0; i < n; i++) p[i] = v + p[3];\n\
        for (int i = 0; i < n; i++) { float w = p[6] * p[7]; p[i] = w + p[8]; }\n\
        float x = p[0] * p[3]; x = x + p[1];\n\
      }\n";
    let m = compile(rounded);
    assert!(builtins(func(&m, "k")).is_empty());
    // nvcc shares equal products (CSE): one also stored stays rounded everywhere.
    let m = compile("__global__ void k(float *p) {\n\
        float a = p[0], b = p[1]; float t = a * b; p[2] = t + p[3]; p[4] = b * a;\n\
      }\n");
    assert!(builtins(func(&m, "k")).is_empty());
    // A product that changes with the loop is fused where it is used.
    let m = compile("__global__ void k(float *p, int n) {\n\
        for (int i = 0; i < n; i++) { float w = p[i] * p[7]; p[i] = w + p[8]; }\n\
      }\n");
    assert_eq!(builtins(func(&m, "k")), vec!["fmaf"]);
}

#[test]
fn math_overloads() {
    let m = compile(
        "__global__ void k(float *p, double *d, int *i, unsigned *u, long long *l) {\n\
           p[0] = sqrt(p[1]) + sqrtf(p[2]) + pow(p[0], 2.0f) + fabs(p[1]) + min(p[0], p[1]);\n\
           d[0] = sqrt(d[1]) + sqrt(4) + max(d[0], 1.0);\n\
           i[0] = min(i[0], 3) + abs(i[1]);\n\
           u[0] = max(u[0], 2u);\n\
           l[0] = llabs(l[0]) + min(l[0], 1LL);\n\
           i[1] = isnan(p[0]) + signbit(d[0]);\n\
         }\n",
    );
    assert_eq!(
        builtins(func(&m, "k")),
        vec!["sqrtf", "sqrtf", "powf", "fabsf", "fminf", "sqrt", "sqrt", "fmax", "min", "abs", "umax", "llabs", "llmin", "isnanf", "signbit"]
    );
}

#[test]
fn mangling_from_source() {
    let m = compile(
        "struct S { int a; };\n\
         namespace ns { struct T { float x; }; __global__ void k(T *t, const T *u, S s) {} }\n\
         extern \"C\" __global__ void ck(int *p) {}\n\
         __global__ void r(int &x, unsigned long n, const char *s) {}\n\
         namespace ns { __device__ float gv; }\n\
         __device__ int plain;\n",
    );
    assert_eq!(kernel_symbol(&m, "ns::k"), "_ZN2ns1kEPNS_1TEPKS0_1S");
    assert_eq!(kernel_symbol(&m, "ck"), "ck");
    assert_eq!(kernel_symbol(&m, "r"), "_Z1rRimPKc");
    let syms: Vec<_> = m.globals.iter().map(|g| g.host_symbol.clone().unwrap()).collect();
    assert_eq!(syms, vec!["_ZN2ns2gvE", "plain"]);
}

#[test]
fn constant_initializers() {
    let m = compile(
        "const int N = 4;\n\
         struct P { int a; float b; char c[3]; };\n\
         __device__ int arr[N] = {1, 2};\n\
         __constant__ P ps[2] = {{1, 2.5f, \"hi\"}, {.a = 3}};\n\
         __device__ float *fp = 0;\n\
         __device__ int *ip = &arr[2];\n\
         __device__ const char *msg = \"hey\";\n\
         __device__ unsigned big = -1;\n\
         __device__ double dd = 1 / 3.0;\n\
         __global__ void k(int *o) { o[0] = N + arr[0]; }\n",
    );
    let g = |n: &str| m.globals.iter().find(|g| g.name == n).unwrap().init.clone().unwrap();
    use ir::{Const as C, Init as I, Type as T};
    assert_eq!(g("arr"), I::Aggregate(vec![I::Scalar(C::Int(1, T::I32)), I::Scalar(C::Int(2, T::I32)), I::Zero, I::Zero]));
    assert_eq!(
        g("ps"),
        I::Aggregate(vec![
            I::Aggregate(vec![
                I::Scalar(C::Int(1, T::I32)),
                I::Scalar(C::F32(2.5)),
                I::Aggregate(vec![I::Scalar(C::Int(104, T::I8)), I::Scalar(C::Int(105, T::I8)), I::Scalar(C::Int(0, T::I8))])
            ]),
            I::Aggregate(vec![I::Scalar(C::Int(3, T::I32)), I::Zero, I::Zero]),
        ])
    );
    assert_eq!(g("fp"), I::Scalar(C::Null(T::Ptr(Box::new(T::F32)))));
    assert_eq!(g("ip"), I::GlobalAddr { global: ir::GlobalId(0), offset: 8 });
    assert_eq!(g("msg"), I::Scalar(C::Str(b"hey".to_vec())));
    assert_eq!(g("big"), I::Scalar(C::Int(0xffff_ffff, T::U32)));
    assert_eq!(g("dd"), I::Scalar(C::F64(1.0 / 3.0)));
    let ps = m.globals.iter().find(|g| g.name == "ps").unwrap();
    assert_eq!(ps.space, ir::AddressSpace::Constant);
    let p = m.structs.iter().find(|s| s.name == "P").unwrap();
    assert_eq!((p.size, p.align), (12, 4));
}

#[test]
fn dynamic_initializer_refused() {
    has_error("__device__ int f() { return 1; }\n__device__ int x = f();\n", 2, "dynamic initialization is not supported");
}

#[test]
fn struct_layout_and_alignment() {
    let m = compile(
        "struct __attribute__((aligned(16))) F4 { float x, y, z, w; };\n\
         struct M { char c; double d; short s; };\n\
         union U { int i; float f; char b[6]; };\n\
         __global__ void k(F4 *a, M *m, U *u) { a->x = sizeof(M) + sizeof(U) + sizeof(F4); }\n",
    );
    let s = |n: &str| m.structs.iter().find(|s| s.name == n).unwrap().clone();
    assert_eq!((s("F4").size, s("F4").align), (16, 16));
    assert_eq!((s("M").size, s("M").align), (24, 8));
    assert_eq!(s("M").fields[2].offset, 16);
    assert_eq!((s("U").size, s("U").align), (8, 4));
}

#[test]
fn pretty_function_and_func() {
    let m = compile(
        "__device__ void f(int *p, const float x) { printf(\"%s %s\\n\", __func__, __PRETTY_FUNCTION__); }\n\
         __global__ void k(int *p) { f(p, 1); }\n",
    );
    let strs: Vec<Vec<u8>> = insts(func(&m, "f"))
        .into_iter()
        .filter_map(|k| match k {
            ir::InstKind::Const(ir::Const::Str(s)) => Some(s.clone()),
            _ => None,
        })
        .collect();
    assert!(strs.contains(&b"f".to_vec()), "{strs:?}");
    assert!(strs.contains(&b"void f(int *, float)".to_vec()), "{:?}", strs.iter().map(|s| String::from_utf8_lossy(s).to_string()).collect::<Vec<_>>());
}

#[test]
fn only_reachable_functions() {
    let m = compile(
        "__device__ int used(int x) { return x; }\n\
         __device__ int unused(int x) { return x; }\n\
         __global__ void k(int *p) { p[0] = used(1); }\n",
    );
    let names: Vec<_> = m.functions.iter().map(|f| f.name.as_str()).collect();
    assert_eq!(names, vec!["k", "used"]);
}

#[test]
fn references_and_structs() {
    let m = compile(
        "struct V { float x, y; };\n\
         __device__ void inc(int &r) { r++; }\n\
         __device__ V add(V a, const V &b) { V r = {a.x + b.x, a.y + b.y}; return r; }\n\
         __global__ void k(int *p, V *v) {\n\
           int x = 1; int &rx = x; inc(rx); inc(p[0]); rx += 2;\n\
           v[0] = add(v[1], v[2]);\n\
           V w = v[0]; w.x = add(w, V{1, 2}).y;\n\
           float *fp = &v[1].y; fp[-1] = 0; p[1] = x;\n\
         }\n",
    );
    let inc = func(&m, "inc");
    assert_eq!(inc.locals[0].ty, ir::Type::Ptr(Box::new(ir::Type::I32)));
}

#[test]
fn builtin_vars_whole() {
    let m = compile("struct uint3 { unsigned x, y, z; }; struct dim3 { unsigned x, y, z; };\n__global__ void k(unsigned *p) { uint3 t = threadIdx; dim3 g = gridDim; p[0] = t.y + g.z + warpSize; }\n");
    let n = insts(func(&m, "k")).iter().filter(|k| matches!(k, ir::InstKind::Special(_))).count();
    assert_eq!(n, 7);
}

#[test]
fn fast_math_intrinsics() {
    let src = "__global__ void k(float *p) { p[0] = sinf(p[1]) + expf(p[2]) + sqrtf(p[3]); }\n";
    let m = compile_opts(src, &SemaOptions { fast_math: true, fmad: true, arch: 90, ..Default::default() }).unwrap();
    assert_eq!(builtins(func(&m, "k")), vec!["__sinf", "__expf", "sqrtf"]);
}

#[test]
fn short_circuit_operands_keep_values_in_locals() {
    // `a[i] + (x && y)`: the load of a[i] happens before the blocks of `&&`.
    compile("__global__ void k(int *a, int x, int y) { a[0] = a[1] + (x && y) + (x ? a[2] : y) * __syncthreads_count(x); }\n");
}

/// Device `printf` with a literal format gets -Wformat's warnings (as the host compiler
/// gives them): wrong argument types, too many and too few arguments; correct calls none.
#[test]
fn printf_format_warnings() {
    let src = "__global__ void k(int *p, float f, long long ll, unsigned u) {\n\
               printf(\"%d %f %s\\n\", 1, f, \"x\");\n\
               printf(\"%d\\n\", f);\n\
               printf(\"%lld %u %p\\n\", ll, u, p);\n\
               printf(\"%s\\n\", 3);\n\
               printf(\"%d %d\\n\", 1);\n\
               printf(\"%d\\n\", 1, 2);\n\
               }\n";
    let p = cuprite_front::parse(src);
    let out = cuprite_sema::compile_with(&p.tu, &p.source_map, &SemaOptions::default()).unwrap();
    let got: Vec<(u32, String)> = out.warnings.iter().map(|d| (p.source_map.lookup(d.span.lo).line, d.message.clone())).collect();
    assert_eq!(
        got,
        vec![
            (3, "format '%d' expects argument of type 'int', but argument 2 has type 'double' [-Wformat=]".to_string()),
            (5, "format '%s' expects argument of type 'char*', but argument 2 has type 'int' [-Wformat=]".to_string()),
            (6, "format '%d' expects a matching 'int' argument [-Wformat=]".to_string()),
            (7, "too many arguments for format [-Wformat-extra-args]".to_string()),
        ]
    );
}
