//! The C++ core in device code: lambdas, constexpr evaluation, range-for, using
//! declarations/directives, namespace aliases, anonymous namespaces.
mod common;
use common::*;

fn stub(m: &cuprite_ir::Module, name: &str) -> String {
    match &func(m, name).kind {
        cuprite_ir::FunctionKind::Kernel { stub_symbol, .. } => stub_symbol.clone(),
        k => panic!("{k:?}"),
    }
}

#[test]
fn lambdas_compile_to_closure_calls() {
    let m = compile(
        "__global__ void k(int *o, float *f) {\n\
           int b = 3, s = 0;\n\
           auto add = [b](int v) { return v + b; };\n\
           auto acc = [&s](int v) { s += v; };\n\
           auto cnt = [n = 0]() mutable { return ++n; };\n\
           auto twice = [](auto x) { return x + x; };\n\
           auto outer = [&](int x) { return [=](int y) { return x + y + b; }; };\n\
           acc(add(1)); cnt();\n\
           o[0] = s + cnt() + twice(2) + outer(1)(2) + [](int a) { return a * 2; }(4);\n\
           f[0] = twice(1.5f);\n\
         }\n",
    );
    // One call operator per lambda, two for the generic one (int, float).
    let ops = m.functions.iter().filter(|f| f.name.ends_with("operator()")).count();
    assert_eq!(ops, 8, "{:?}", m.functions.iter().map(|f| &f.name).collect::<Vec<_>>());
}

#[test]
fn lambda_errors_have_locations() {
    has_error(
        "__device__ int f(int x) {\n  int y = 2;\n  auto g = [x]() { return x + y; };\n  return g();\n}\n",
        3,
        "variable 'y' cannot be implicitly captured in a lambda with no capture-default specified",
    );
    has_error("__device__ int f() {\n  auto g = [z]() { return 1; };\n  return g();\n}\n", 2, "'z' in capture list does not name a variable");
    has_error(
        "struct S { int v; __device__ int f() {\n  auto g = [this]() { return v; };\n  return g(); } };\n__global__ void k(S s, int *o) { o[0] = s.f(); }\n",
        2,
        "capturing 'this' in a lambda in device code is not supported yet",
    );
    // A const lambda cannot modify its copies.
    has_error("__device__ int f() {\n  int n = 0;\n  auto g = [n]() { return ++n; };\n  return g();\n}\n", 3, "");
}

#[test]
fn constexpr_functions_are_evaluated() {
    compile(
        "__host__ __device__ constexpr unsigned long long fact(int n) { return n <= 1 ? 1ULL : n * fact(n - 1); }\n\
         __host__ __device__ constexpr int fib(int n) { int a = 0, b = 1; for (int i = 0; i < n; i++) { int t = a + b; a = b; b = t; } return a; }\n\
         constexpr int ilog2(unsigned v) { int r = -1; while (v) { v >>= 1; ++r; } return r; }\n\
         constexpr int sel(int k) { switch (k) { case 1: return 10; case 2: { int x = 5; return x * 4; } default: break; } return -1; }\n\
         constexpr int sum_arr() { int a[5] = {1, 2, 3}; int s = 0; for (int *p = a; p != a + 5; ++p) s += *p; return s; }\n\
         struct P { int x, y; };\n\
         constexpr int dot(P a, P b) { return a.x * b.x + a.y * b.y; }\n\
         static_assert(fact(10) == 3628800ULL, \"fact\");\n\
         static_assert(fib(20) == 6765 && ilog2(1024) == 10, \"loops\");\n\
         static_assert(sel(1) == 10 && sel(2) == 20 && sel(7) == -1, \"switch\");\n\
         static_assert(sum_arr() == 6 && dot(P{1, 2}, P{3, 4}) == 11, \"aggregates\");\n\
         constexpr int N = fib(6);\n\
         __constant__ float taps[N];\n\
         enum E { A = fib(5), B };\n\
         __global__ void k(int *o) {\n\
           constexpr int n = fib(7);\n\
           int arr[n];\n\
           static_assert(sizeof(arr) == 13 * sizeof(int), \"local\");\n\
           switch (o[0]) { case fib(4): o[1] = B; break; case N: o[1] = 2; break; }\n\
           o[2] = fib(o[3]);\n\
         }\n",
    );
}

#[test]
fn constexpr_failures_say_why() {
    let src = "constexpr int bad(int n) { return 10 / (n - 3); }\nstatic_assert(bad(3) == 1, \"x\");\n";
    has_error(src, 2, "constexpr function 'bad' is not a constant expression here: division by zero");
    let src = "constexpr int loop(int n) { while (n) {} return n; }\n__device__ int a[loop(1)];\n";
    has_error(src, 2, "constexpr function 'loop' is not a constant expression here: evaluation exceeded");
    let src = "constexpr int deep(int n) { return n == 0 ? 0 : 1 + deep(n - 1); }\nstatic_assert(deep(100000) > 0, \"x\");\n";
    has_error(src, 2, "is not a constant expression here: more than 512 nested calls");
    let src = "__device__ int plain(int n) { return n; }\n__global__ void k(int *o) {\n  int a[plain(2)];\n  o[0] = a[0];\n}\n";
    has_error(src, 3, "call to non-constexpr function 'plain' in a constant expression");
    let src = "constexpr int u(int n) { int x; if (n) x = 1; return x; }\nstatic_assert(u(0) == 0, \"x\");\n";
    has_error(src, 2, "read of an uninitialized object");
}

#[test]
fn range_for_over_arrays_and_classes() {
    compile(
        "struct P { int a; };\n\
         struct Span { int *b, *e; __device__ int *begin() const { return b; } __device__ int *end() const { return e; } };\n\
         __global__ void k(int *o) {\n\
           int arr[4] = {1, 2, 3, 4}; int s = 0;\n\
           for (int v : arr) s += v;\n\
           for (auto &v : arr) v *= 2;\n\
           P ps[2] = {{1}, {2}};\n\
           for (const P &p : ps) s += p.a;\n\
           for (int v : Span{o, o + 4}) s += v;\n\
           for (int v : arr) { if (v == 4) continue; if (v == 8) break; s += v; }\n\
           o[0] = s;\n\
         }\n",
    );
    has_error("__global__ void k(int *o) {\n  int s = 0;\n  for (int v : o) s += v;\n}\n", 3, "invalid range expression of type 'int *'");
}

#[test]
fn usings_aliases_and_anonymous_namespaces() {
    let m = compile(
        "namespace geo { namespace detail { __device__ int sq(int x) { return x * x; } }\n\
           namespace shapes { enum class Kind : unsigned char { A = 1, B = 7 }; } }\n\
         namespace gs = geo::shapes;\n\
         namespace { __device__ int hidden(int x) { return x + 1; } } __global__ void k(int *o) { o[0] = hidden(1); }\n\
         using namespace geo;\n\
         __global__ void k2(int *o) {\n\
           using geo::shapes::Kind;\n\
           using detail::sq;\n\
           namespace d = geo::detail;\n\
           o[0] = sq(3) + d::sq(2) + (int)Kind::B + (int)gs::Kind::A;\n\
           { using namespace geo::detail; o[1] = sq(4); }\n\
         }\n",
    );
    assert_eq!(stub(&m, "k"), "_Z1kPi");
    // The anonymous namespace's functions are mangled as g++ does.
    let types = cuprite_sema::ty::TypeTable::default();
    assert_eq!(cuprite_sema::mangle::mangle_function(&types, &["_GLOBAL__N_1".to_string()], "k", &[], false, false), "_ZN12_GLOBAL__N_11kEv");
    // Kernels and variables in the anonymous namespace carry g++'s symbols (the driver
    // exports their internal-linkage stubs and shadows to the device object).
    let anon = compile("namespace {\n__device__ int v;\n__global__ void k(int *o) { o[0] = v; }\n}\n");
    let k = anon.functions.iter().find(|f| f.name.ends_with("::k")).expect("kernel k");
    assert!(matches!(&k.kind, cuprite_ir::FunctionKind::Kernel { stub_symbol, .. } if stub_symbol == "_ZN12_GLOBAL__N_11kEPi"), "{:?}", k.kind);
    assert!(anon.globals.iter().any(|g| g.host_symbol.as_deref() == Some("_ZN12_GLOBAL__N_11vE")), "{:?}", anon.globals);
    assert_eq!(stub(&m, "k2"), "_Z2k2Pi");
    has_error("namespace a { __device__ int f(); }\n__global__ void k(int *o) {\n  using a::g;\n}\n", 3, "no member named 'g' in namespace 'a'");
}

#[test]
fn if_constexpr_discards_the_other_branch() {
    compile(
        "template <class T> struct is_ptr { static constexpr bool value = false; };\n\
         template <class T> struct is_ptr<T *> { static constexpr bool value = true; };\n\
         template <class T> __device__ int get(T x) {\n\
           if constexpr (is_ptr<T>::value) return *x; else return x;\n\
         }\n\
         __global__ void k(int *o) {\n\
           if constexpr (sizeof(int) == 4) { o[0] = get(o) + get(3); } else { o[0] = undeclared; }\n\
         }\n",
    );
    has_error("__global__ void k(int *o, int n) {\n  if constexpr (n > 2) o[0] = 1;\n}\n", 2, "if constexpr condition is not a constant expression");
}

/// A block-scope typedef names a type in a functional cast, as a file-scope one does
/// (cuda-samples' interval: `typedef iv<T> I; I r = twice(I(x));`).
#[test]
fn block_scope_typedef_in_a_functional_cast() {
    compile(
        "template <class T> struct iv { T lo, hi; __device__ iv(T x) : lo(x), hi(x) {} };\n\
         __global__ void k(float *out, float x) {\n\
           typedef iv<float> I;\n\
           typedef float F;\n\
           I r = I(x);\n\
           *out = r.lo + F(2);\n\
         }\n",
    );
}

#[test]
fn return_braced_list_initializes_the_return_type() {
    // `return {…};` copy-list-initializes the declared return type (functions and lambdas
    // with a trailing return type), as in cuda-samples' shfl_scan.
    let m = compile(
        "struct P { int a; float b; };\n\
         __device__ P mk(int x) { if (x > 0) return {x, 1.5f}; return {}; }\n\
         __device__ int zero() { return {}; }\n\
         __global__ void k(int *o) {\n\
           auto f = [](int i) -> P { if (i) return {i, 2.0f}; return {}; };\n\
           o[0] = mk(3).a + zero() + f(4).a + f(0).a;\n\
         }\n",
    );
    assert!(m.functions.iter().any(|f| f.name == "mk"), "{:?}", m.functions.iter().map(|f| &f.name).collect::<Vec<_>>());
}
