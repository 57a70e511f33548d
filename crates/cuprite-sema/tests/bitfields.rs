//! Bit-field layout against g++ (x86-64 System V), and device code with bit-fields,
//! `offsetof`, the device heap and the C99 math additions.

mod common;
use common::*;
use cuprite_front::ast::Span;
use cuprite_ir as ir;
use cuprite_sema::ty::{BitField, FieldDef, IntKind, QTy, Ty, TypeTable};
use std::process::Command;

/// Record bodies: `type name : width;` (name optional for unnamed bit-fields).
const CASES: &[&str] = &[
    "unsigned a : 3; unsigned b : 5; int c : 4; unsigned d : 1;",
    "char x; int y : 12; char z; long long w : 40; unsigned : 0; short q : 3; bool e : 1;",
    "char a; int b : 30; int c : 4;",
    "int a : 31; int b : 2; char c;",
    "char a : 3; char b : 6; char c : 7;",
    "short a : 9; short b : 9; short c; int d : 1;",
    "unsigned long long a : 60; unsigned long long b : 8; char c : 2;",
    "char c; int : 5; int d : 3;",
    "char c; int : 0; char d;",
    "long long a : 1; char b;",
    "unsigned char a : 1; unsigned short b : 15; unsigned c : 17; unsigned long long d : 33;",
    "int a; short b : 4; char c; int d : 20; char e;",
    "bool a : 1; bool b : 1; int c : 7; unsigned char d;",
];

fn int_kind(t: &str) -> Ty {
    match t {
        "bool" => Ty::Bool,
        "char" => Ty::Int(IntKind::Char),
        "unsigned char" => Ty::Int(IntKind::UChar),
        "short" => Ty::Int(IntKind::Short),
        "unsigned short" => Ty::Int(IntKind::UShort),
        "int" => Ty::Int(IntKind::Int),
        "unsigned" => Ty::Int(IntKind::UInt),
        "long long" => Ty::Int(IntKind::LongLong),
        "unsigned long long" => Ty::Int(IntKind::ULongLong),
        _ => panic!("type {t}"),
    }
}

/// (type, name, width) of each member of a case.
fn members(case: &str) -> Vec<(String, Option<String>, Option<u32>)> {
    let mut out = Vec::new();
    for m in case.split(';').map(str::trim).filter(|m| !m.is_empty()) {
        let (decl, w) = match m.split_once(':') {
            Some((d, w)) => (d.trim(), Some(w.trim().parse().unwrap())),
            None => (m, None),
        };
        let words: Vec<&str> = decl.split_whitespace().collect();
        let (ty, name) = match int_kind_prefix(&words) {
            (t, Some(n)) => (t, Some(n.to_string())),
            (t, None) => (t, None),
        };
        out.push((ty, name, w));
    }
    out
}

fn int_kind_prefix<'a>(words: &[&'a str]) -> (String, Option<&'a str>) {
    // The name is the last word unless the words alone form a type.
    let all = words.join(" ");
    if ["bool", "char", "unsigned char", "short", "unsigned short", "int", "unsigned", "long long", "unsigned long long"]
        .contains(&all.as_str())
    {
        return (all, None);
    }
    (words[..words.len() - 1].join(" "), Some(words[words.len() - 1]))
}

/// Cuprite's layout: size, align, and (name, bit position, width) of each named member.
fn ours(case: &str) -> (u64, u64, Vec<(String, u64, u64)>) {
    let types = TypeTable::default();
    let mut fields: Vec<FieldDef> = members(case)
        .into_iter()
        .map(|(t, n, w)| FieldDef {
            name: n,
            ty: QTy::new(int_kind(&t)),
            offset: 0,
            span: Span::default(),
            bits: w.map(|w| BitField { width: w, bit_pos: 0 }),
        })
        .collect();
    let (size, align) = types.layout_fields(&mut fields, false, 1).unwrap();
    let mut v = Vec::new();
    for f in &fields {
        let Some(n) = &f.name else { continue };
        let (s, _) = types.layout(&f.ty.ty).unwrap();
        match f.bits {
            Some(b) => v.push((n.clone(), b.bit_pos, b.width as u64)),
            None => v.push((n.clone(), f.offset * 8, s * 8)),
        }
    }
    (size, align, v)
}

fn gxx() -> Option<String> {
    for c in ["g++", "c++"] {
        if Command::new(c).arg("--version").output().is_ok_and(|o| o.status.success()) {
            return Some(c.to_string());
        }
    }
    None
}

#[test]
fn bitfield_layout_matches_gxx() {
    let Some(cxx) = gxx() else {
        eprintln!("no g++: skipping");
        return;
    };
    let mut prog = String::from("#include <cstdio>\n#include <cstring>\n#include <cstddef>\n");
    for (i, c) in CASES.iter().enumerate() {
        prog.push_str(&format!("struct S{i} {{ {c} }};\n"));
    }
    prog.push_str(
        "template <class S> static void bits(const S &s, const char *n) {\n\
           const unsigned char *p = (const unsigned char *)&s; int first = -1, count = 0;\n\
           for (unsigned i = 0; i < sizeof(S) * 8; i++) if (p[i / 8] >> (i % 8) & 1) { if (first < 0) first = i; count++; }\n\
           printf(\" %s@%d+%d\", n, first, count);\n\
         }\nint main() {\n",
    );
    for (i, c) in CASES.iter().enumerate() {
        prog.push_str(&format!("  printf(\"%zu %zu\", sizeof(S{i}), alignof(S{i}));\n"));
        for (t, n, _) in members(c) {
            let Some(n) = n else { continue };
            let val = if t == "bool" { "1" } else { "-1" };
            prog.push_str(&format!("  {{ S{i} s; memset(&s, 0, sizeof s); s.{n} = {val}; bits(s, \"{n}\"); }}\n"));
        }
        prog.push_str("  printf(\"\\n\");\n");
    }
    prog.push_str("}\n");
    let dir = std::env::temp_dir().join(format!("cuprite-bitfields-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let src = dir.join("layout.cpp");
    let exe = dir.join("layout");
    std::fs::write(&src, &prog).unwrap();
    let st = Command::new(&cxx).arg("-w").arg("-o").arg(&exe).arg(&src).status().unwrap();
    assert!(st.success(), "g++ failed on\n{prog}");
    let out = Command::new(&exe).output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    for (line, c) in text.lines().zip(CASES) {
        let (size, align, fields) = ours(c);
        let mut want = format!("{size} {align}");
        for (n, pos, w) in fields {
            want.push_str(&format!(" {n}@{pos}+{w}"));
        }
        assert_eq!(line, want, "struct {{ {c} }}");
    }
    assert_eq!(text.lines().count(), CASES.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn access_unit_is_aligned_and_holds_the_field() {
    for (pos, w, decl, want) in [
        (0u64, 3u32, 4u64, (0u64, 1u64, 0u32)),
        (3, 5, 4, (0, 1, 3)),
        (8, 12, 4, (0, 4, 8)),
        (16, 4, 4, (2, 1, 0)),
        (7, 2, 2, (0, 2, 7)),
        (64, 40, 8, (8, 8, 0)),
    ] {
        assert_eq!(BitField { width: w, bit_pos: pos }.access_unit(decl), want, "bit {pos} width {w}");
    }
}

#[test]
fn bitfields_lower_to_byte_runs_and_masks() {
    let m = compile(
        "struct F { unsigned a : 3; unsigned b : 5; int c : 4; unsigned d : 1; };\n\
         struct G { char x; int y : 12; char z; };\n\
         __device__ F gf = { 5, 17, -3, 1 };\n\
         __global__ void k(int *o) {\n\
           F f; f.a = 13; f.c = -5; f.a += 3; f.b++;\n\
           G g; g.y = -100;\n\
           o[0] = f.a + f.b + f.c + f.d + g.y + gf.c;\n\
         }\n",
    );
    let f = m.structs.iter().find(|s| s.name == "F").unwrap();
    assert_eq!((f.size, f.align), (4, 4));
    assert_eq!(f.fields.len(), 1);
    assert_eq!(f.fields[0].name, "__bf0");
    assert_eq!(f.fields[0].ty, ir::Type::Array(Box::new(ir::Type::U8), 2));
    let g = m.structs.iter().find(|s| s.name == "G").unwrap();
    let offs: Vec<(String, u64)> = g.fields.iter().map(|f| (f.name.clone(), f.offset)).collect();
    assert_eq!(offs, vec![("x".into(), 0), ("__bf0".into(), 1), ("z".into(), 3)]);
    // gf = {5, 17, -3, 1}: a = 5 (bits 0-2), b = 17 (bits 3-7), c = -3 (bits 8-11), d (bit 12).
    let gv = m.globals.iter().find(|g| g.name == "gf").unwrap();
    let bytes = |i: &ir::Init| match i {
        ir::Init::Aggregate(v) => v
            .iter()
            .map(|b| match b {
                ir::Init::Scalar(ir::Const::Int(x, _)) => *x as u8,
                o => panic!("{o:?}"),
            })
            .collect::<Vec<u8>>(),
        o => panic!("{o:?}"),
    };
    match gv.init.as_ref().unwrap() {
        ir::Init::Aggregate(items) => assert_eq!(bytes(&items[0]), vec![5 | 17 << 3, 0x0d | 0x10]),
        o => panic!("{o:?}"),
    }
}

#[test]
fn bitfield_errors() {
    has_error("struct S { int a : 3; };\n__global__ void k(int **p) {\n  S s;\n  *p = &s.a;\n}\n", 4, "address of bit-field requested");
    has_error("struct S { int a : 0; };\n__global__ void k() { S s; }\n", 1, "named bit-field 'a' has zero width");
    has_error("struct S { char a : 9; };\n__global__ void k() { S s; }\n", 1, "exceeds the width of its type");
    has_error("struct S { float a : 3; };\n__global__ void k() { S s; }\n", 1, "non-integral type 'float'");
    has_error(
        "struct S { int a : 3; };\n__device__ void f(int &r) { r = 1; }\n__global__ void k() {\n  S s;\n  f(s.a);\n}\n",
        5,
        "non-const reference cannot bind to bit-field",
    );
}

#[test]
fn offsetof_is_a_size_t_constant() {
    let m = compile(
        "struct In { int a[4]; struct { float u, v; } p; };\n\
         struct Out { char c; In in[3]; };\n\
         static_assert(__builtin_offsetof(Out, in[2].p.v) == 4 + 2 * 24 + 20, \"nested\");\n\
         __global__ void k(unsigned long *o) {\n\
           int arr[__builtin_offsetof(Out, in[1])];\n\
           arr[0] = 1;\n\
           o[0] = __builtin_offsetof(Out, in) + sizeof(arr) + arr[0];\n\
         }\n",
    );
    assert!(m.functions.iter().any(|f| f.name == "k"));
    has_error("struct S { int a : 3; int b; };\n__global__ void k(unsigned long *o) {\n  *o = __builtin_offsetof(S, a);\n}\n", 3, "cannot compute offset of bit-field 'a'");
    has_error("struct S { int b; };\n__global__ void k(unsigned long *o) {\n  *o = __builtin_offsetof(S, c);\n}\n", 3, "no member named 'c' in 'S'");
}

#[test]
fn heap_and_c99_math_are_device_functions() {
    // As with the system headers: host declarations without __device__.
    let m = compile(
        "extern \"C\" void *malloc(unsigned long);\n\
         extern \"C\" void free(void *);\n\
         extern \"C\" void *memcpy(void *, const void *, unsigned long);\n\
         extern \"C\" void *memset(void *, int, unsigned long);\n\
         extern \"C\" float nanf(const char *);\n\
         extern \"C\" double nan(const char *);\n\
         extern \"C\" double jn(int, double);\n\
         __global__ void k(double *o, int n) {\n\
           int *p = (int *)malloc(n * sizeof(int));\n\
           if (!p) return;\n\
           memset(p, 0, n * sizeof(int));\n\
           int q[4]; memcpy(q, p, sizeof q); free(p);\n\
           double v[3] = {1, 2, 2};\n\
           o[0] = nanf(\"\") + nan(\"\") + jn(2, 1.5) + ynf(1, 2.0f) + norm(3, v) + rnorm3d(1, 2, 2) + norm4d(1, 1, 1, 1)\n\
                  + erfcx(1.0) + normcdfinvf(0.5f) + cyl_bessel_i0(1.0) + cyl_bessel_i1f(1.0f) + fdim(3.0, 1.0) + q[0];\n\
         }\n",
    );
    let f = func(&m, "k");
    let builtins: Vec<&ir::Builtin> = insts(f)
        .into_iter()
        .filter_map(|k| match k {
            ir::InstKind::CallBuiltin { builtin, .. } => Some(builtin),
            _ => None,
        })
        .collect();
    for b in [ir::Builtin::Malloc, ir::Builtin::Free, ir::Builtin::Memcpy, ir::Builtin::Memset] {
        assert!(builtins.contains(&&b), "{b:?} in {builtins:?}");
    }
    for n in ["nanf", "nan", "jn", "ynf", "norm", "rnorm3d", "norm4d", "erfcx", "normcdfinvf", "cyl_bessel_i0", "cyl_bessel_i1f", "fdim"] {
        let f = ir::MathFn::from_cuda_name(n).unwrap_or_else(|| panic!("{n} is not a MathFn"));
        assert!(builtins.contains(&&ir::Builtin::Math(f)), "{n} in {builtins:?}");
    }
}
