//! What library headers such as cuda_fp16.h need from the C++ core: builtin names
//! overloaded for a header's classes, implicit copies beside other constructors and
//! assignment operators, casts through (explicit) conversion functions, `= default`.
mod common;
use common::*;

fn printed(m: &cuprite_ir::Module, name: &str) -> String {
    format!("{}", func(m, name))
}

/// The names of the functions `name` calls (`call @fN` in the printed IR).
fn callees(m: &cuprite_ir::Module, name: &str) -> Vec<String> {
    printed(m, name)
        .split("call @f")
        .skip(1)
        .filter_map(|rest| rest.split(|c: char| !c.is_ascii_digit()).next()?.parse::<usize>().ok())
        .map(|i| m.functions[i].name.clone())
        .collect()
}

#[test]
fn builtin_names_overloaded_for_classes() {
    let m = compile(
        "struct H { unsigned short x; };\n\
         __device__ H __shfl_sync(unsigned m, H v, int l, int w = 32) {\n\
           H r; r.x = (unsigned short)__shfl_sync(m, (unsigned)v.x, l, w); return r;\n\
         }\n\
         __device__ H __ldg(const H *p) { return *p; }\n\
         __device__ int __hadd(H a, H b) { return a.x + b.x; }\n\
         __global__ void k(H *h, float *f, int *o) {\n\
           H a = __shfl_sync(0xffffffffu, __ldg(h), 3);\n\
           f[0] = __shfl_sync(0xffffffffu, f[1], 2);\n\
           o[0] = __hadd(a, a) + __hadd(o[1], o[2]) + (int)__ldg(f);\n\
         }\n",
    );
    // The header's overload builds on the builtin; the kernel calls the overloads for H
    // and the builtins for float and int.
    assert!(printed(&m, "__shfl_sync").contains("shfl"), "{}", printed(&m, "__shfl_sync"));
    let k = printed(&m, "k");
    assert!(k.contains("warp shfl"), "{k}");
    let mut called = callees(&m, "k");
    called.sort();
    assert_eq!(called, ["__hadd", "__ldg", "__shfl_sync"], "{k}");
    assert!(builtins(func(&m, "k")).iter().any(|b| b.contains("hadd")), "{:?}", builtins(func(&m, "k")));
}

#[test]
fn implicit_copy_beside_other_constructors_and_assignments() {
    compile(
        "struct S {\n\
           unsigned short x;\n\
           __device__ S(float f) : x((unsigned short)f) {}\n\
           __device__ S(int i) : x((unsigned short)i) {}\n\
           __device__ S &operator=(float f) { x = (unsigned short)f; return *this; }\n\
         };\n\
         struct P { S a, b; __device__ P(const S &u, const S &v) : a(u), b(v) {} };\n\
         __global__ void k(int *o) {\n\
           S s(1.0f); S t(s); S u = t; u = s; u = 2.0f;\n\
           P p(s, u); P q = p; q = p;\n\
           o[0] = u.x + q.a.x;\n\
         }\n",
    );
}

#[test]
fn casts_use_conversion_functions_explicit_or_not() {
    let m = compile(
        "struct S {\n\
           float v;\n\
           __device__ operator float() const { return v; }\n\
           __device__ explicit operator int() const { return 7; }\n\
           __device__ explicit operator bool() const { return v != 0.0f; }\n\
         };\n\
         __global__ void k(S s, int *o, float *f) {\n\
           o[0] = (int)s;\n\
           o[1] = static_cast<int>(s);\n\
           f[0] = (float)s + s;\n\
           if (s) o[2] = 1;\n\
         }\n",
    );
    let called = callees(&m, "k");
    assert_eq!(called, ["S::operator int", "S::operator int", "S::operator float", "S::operator float", "S::operator bool"], "{}", printed(&m, "k"));
}

#[test]
fn defaulted_constructors_are_the_implicit_ones() {
    compile(
        "struct S {\n\
           int x;\n\
           S() = default;\n\
           __device__ S(int v) : x(v) {}\n\
           S(const S &) = default;\n\
           S &operator=(const S &) = default;\n\
         };\n\
         struct W { S a; W() = default; };\n\
         __global__ void k(int *o) {\n\
           S s; s.x = 1; S t(2); S u(t); u = s; W w; w.a = t;\n\
           __shared__ S sh[4]; sh[threadIdx.x & 3] = u;\n\
           o[0] = s.x + t.x + u.x + w.a.x + sh[0].x;\n\
         }\n",
    );
}

#[test]
fn a_programs_own_overload_of_a_builtin_name_replaces_it() {
    // Overloads that take no class keep replacing the builtin, as before headers could
    // add overloads beside it.
    let m = compile(
        "__device__ int __ffs(int x) { return 99 + x; }\n\
         __global__ void k(int *o) { o[0] = __ffs(o[1]); }\n",
    );
    assert_eq!(callees(&m, "k"), ["__ffs"]);
}
