//! Constants where C++ needs them: `const` and `constexpr` variables at namespace and
//! block scope used as array sizes and case labels, as nvcc accepts them.

mod common;
use common::*;
use cuprite_ir as ir;

fn shared_array_len(m: &ir::Module, name: &str) -> u64 {
    let g = m.globals.iter().find(|g| g.name.ends_with(name)).unwrap_or_else(|| panic!("no global {name}"));
    match &g.ty {
        ir::Type::Array(_, n) => *n,
        other => panic!("not an array: {other}"),
    }
}

#[test]
fn namespace_scope_constexpr_and_const() {
    let m = compile(
        "const int kA = 4;\nconstexpr int kB = kA * 2;\n__global__ void k(int *p) {\n  __shared__ int s[kA + kB];\n  s[0] = kB; p[0] = s[0];\n}\n",
    );
    assert_eq!(shared_array_len(&m, "s"), 12);
}

#[test]
fn block_scope_const_and_constexpr_are_constants() {
    let m = compile(
        "__global__ void k(int *p, int x) {\n  const int n = 3;\n  constexpr int w = n + 1;\n  __shared__ float s[n * w];\n  int local[w];\n  switch (x) { case n: local[0] = 1; break; case w: local[1] = 2; break; }\n  p[0] = local[0] + (int)s[0];\n}\n",
    );
    assert_eq!(shared_array_len(&m, "s"), 12);
}

#[test]
fn a_const_local_is_still_an_object() {
    // Its address can be taken, and assigning to it is the usual error.
    compile("__global__ void k(int *p) {\n  const int n = 3;\n  const int *q = &n;\n  p[0] = *q;\n}\n");
    has_error("__global__ void k() {\n  const int n = 3;\n  n = 4;\n}\n", 3, "cannot assign to a variable of type 'const int'");
    has_error("__global__ void k() {\n  const int n = 3;\n  n++;\n}\n", 3, "const int");
}

#[test]
fn a_const_local_with_a_runtime_value_is_not_a_constant() {
    has_error(
        "__global__ void k(int x) {\n  const int n = x;\n  int a[n];\n}\n",
        3,
        "array size is not an integral constant expression",
    );
}

/// The local a reference local is bound to (the `LocalAddr` stored into it).
fn bound_to(f: &ir::Function, reference: &str) -> String {
    let r = f.locals.iter().position(|l| l.name == reference).unwrap_or_else(|| panic!("no local {reference}"));
    let insts: Vec<&ir::Inst> = f.blocks.iter().flat_map(|b| &b.insts).collect();
    let stored = insts
        .iter()
        .find_map(|i| match i.kind {
            ir::InstKind::StoreLocal(l, v) if l.index() == r => Some(v),
            _ => None,
        })
        .expect("the reference is initialized");
    let def = insts.iter().find(|i| i.result == Some(stored)).unwrap();
    match def.kind {
        ir::InstKind::LocalAddr(l) => f.locals[l.index()].name.clone(),
        ref k => panic!("bound to {k:?}"),
    }
}

#[test]
fn references_bind_to_a_const_local_itself() {
    // Folding happens at the lvalue-to-rvalue conversion: a reference (`const T&`,
    // `auto&&`, `auto&`) names the local, not a temporary holding its value.
    let m = compile(
        "__global__ void k(int *p) {\n  const int cx = 5;\n  const int &r = cx;\n  auto &&q = cx;\n  auto &a = cx;\n  const float cf = 2.5f;\n  const float &rf = cf;\n  int arr[cx];\n  arr[0] = r + q + a;\n  p[0] = arr[0] + (int)rf;\n}\n",
    );
    let f = func(&m, "k");
    assert_eq!(bound_to(f, "r"), "cx");
    assert_eq!(bound_to(f, "q"), "cx");
    assert_eq!(bound_to(f, "a"), "cx");
    assert_eq!(bound_to(f, "rf"), "cf");
    // `auto&` keeps the const: assigning through it is an error.
    has_error("__global__ void k() {\n  const int cx = 5;\n  auto &a = cx;\n  a = 4;\n}\n", 4, "const int");
}
