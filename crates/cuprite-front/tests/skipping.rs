//! The parse-or-skip policy for host code, templates and system headers.

mod common;
use common::*;
use cuprite_front::ast::*;

fn kinds(r: &cuprite_front::ParseResult) -> Vec<String> {
    flat_items(&r.tu.items)
        .iter()
        .map(|i| match &i.kind {
            ItemKind::Decl(_) => "decl".to_string(),
            ItemKind::FunctionDef(f) => format!("fn {}", f.declarator.name.as_ref().unwrap().last().name),
            ItemKind::Skipped { names, reason, error } => {
                format!("skip {:?} {} {}", reason, names.join(","), if error.is_some() { "err" } else { "" })
            }
            ItemKind::Pragma(p) => format!("pragma {p}"),
            ItemKind::StaticAssert { .. } => "static_assert".to_string(),
            ItemKind::Template { params, .. } => format!("template/{}", params.len()),
            ItemKind::ExplicitInstantiation { is_extern, .. } => format!("instantiation extern={is_extern}"),
            other => format!("{other:?}"),
        })
        .map(|s| s.trim_end().to_string())
        .collect()
}

#[test]
fn host_code_is_skipped_silently() {
    let r = parse_ok(
        "const int N = 256;\n\
         std::vector<int> v;\n\
         static void helper(std::vector<int> &v) { for (auto &x : v) x = [](){ return 1; }(); }\n\
         __host__ int host_only(int x) { return x; }\n\
         __host__ __device__ int both(int x) { return x + 1; }\n\
         int proto(int);\n\
         class Widget { public: Widget(); virtual ~Widget(); std::string name; };\n\
         __global__ void k() { }\n",
    );
    assert_eq!(
        kinds(&r),
        vec![
            "decl",
            "skip HostOnly v err",
            "skip HostOnly helper",
            "skip HostOnly host_only",
            "fn both",
            "decl",
            "skip HostOnly Widget err",
            "fn k",
        ]
    );
}

#[test]
fn namespaces_and_extern_c_are_entered() {
    let r = parse_ok(
        "namespace a { namespace b { typedef float real; } }\n\
         extern \"C\" { __device__ int c_fn(int); }\n\
         extern \"C\" __global__ void kern(a::b::real *p) { *p = 1; }\n\
         namespace { __device__ int hidden; }\n\
         namespace x::y { struct P { int q; }; }\n\
         __device__ x::y::P make() { x::y::P p; p.q = 1; return p; }\n",
    );
    assert_eq!(r.tu.items.len(), 6);
    assert!(matches!(&r.tu.items[1].kind, ItemKind::LinkageSpec { lang, items } if lang == "C" && items.len() == 1));
    let ItemKind::Namespace { name: Some(x), items, .. } = &r.tu.items[4].kind else { panic!() };
    assert_eq!(x.name, "x");
    assert!(matches!(&items[0].kind, ItemKind::Namespace { name: Some(y), .. } if y.name == "y"));
    function(&r, "kern");
    function(&r, "make");
}

#[test]
fn user_templates_are_parsed_host_function_templates_skipped() {
    let r = parse_ok(
        "template <typename T> struct Box { T v; };\n\
         template <class T, int N = (3 > 2)> T twice(T x) { return x + x; }\n\
         template <> struct Box<int> { int w; };\n\
         extern template struct Box<float>;\n\
         __global__ void k() { }\n",
    );
    assert_eq!(
        kinds(&r),
        vec!["template/1", "skip HostOnly twice", "template/0", "instantiation extern=true", "fn k"]
    );
}

#[test]
fn device_template_is_parsed() {
    let r = parse_ok("template <typename T> __device__ T sq(T x) { return x * x; }\n__global__ void k() { }\n");
    assert_eq!(kinds(&r), vec!["template/1", "fn k"]);
}

#[test]
fn device_template_that_fails_to_parse_is_skipped_with_its_error() {
    let r = parse_cu("template <typename T> __device__ T sq(T x) requires true { return x * x; }\n__global__ void k() { }\n");
    assert_eq!(kinds(&r), vec!["skip Unsupported sq err", "fn k"]);
    assert_eq!(r.diagnostics.len(), 1);
}

#[test]
fn system_header_items_are_marked() {
    let r = parse_ok(
        "# 1 \"/usr/include/sys.h\" 1 3\n\
         typedef unsigned long size_t;\n\
         struct weird { int x; } __attribute__((strange_attr(1, 2)));\n\
         class broken { std::thing t; };\n\
         # 3 \"test.cu\" 2\n\
         __global__ void k(size_t n) { }\n",
    );
    let items = flat_items(&r.tu.items);
    assert!(items[0].in_system_header && items[1].in_system_header);
    assert!(matches!(&items[2].kind, ItemKind::Skipped { reason: SkipReason::SystemHeader, .. }));
    assert!(!items[3].in_system_header);
    assert!(r.source_map.is_system_header(items[0].span.lo));
    let l = r.source_map.lookup(items[3].span.lo);
    assert_eq!((l.file.as_str(), l.line, l.col), ("test.cu", 3, 1));
}

#[test]
fn file_scope_pragmas_and_static_asserts() {
    let r = parse_ok("#pragma once\nstatic_assert(sizeof(int) == 4, \"int\");\n_Pragma(\"unroll\")\n");
    assert_eq!(kinds(&r), vec!["pragma once", "static_assert", "pragma unroll"]);
}
