//! Templates in device code: deduction, specialization choice, overloads with
//! non-templates, packs, kernel templates instantiated on request (the driver's host
//! object), and instantiation errors with their chain.

mod common;
use common::*;
use cuprite_front::diag::{Diagnostic, Severity};
use cuprite_sema::{KernelRequest, SemaOptions};

/// Check, then instantiate the given kernel template specializations and lower.
fn lower_with(src: &str, requests: &[(&str, &str, &str)]) -> Result<cuprite_ir::Module, Vec<Diagnostic>> {
    let p = cuprite_front::parse(src);
    assert!(p.diagnostics.iter().all(|d| d.severity != Severity::Error), "parse errors: {:?}", p.diagnostics);
    let checked = cuprite_sema::check(&p.tu, &SemaOptions::default())?;
    let reqs: Vec<KernelRequest> = requests
        .iter()
        .map(|(n, a, s)| KernelRequest { name: n.to_string(), args: a.to_string(), symbol: s.to_string() })
        .collect();
    checked.lower_with(&reqs, &p.source_map).map(|o| o.module)
}

fn line_of(src: &str, d: Option<cuprite_front::ast::Span>) -> u32 {
    let sm = cuprite_front::SourceMap::new(src);
    d.map(|s| sm.lookup(s.lo).line).unwrap_or(0)
}

#[test]
fn deduction_from_values_pointers_references_arrays_and_class_templates() {
    compile(
        "template <class T> __device__ T mx(T a, T b) { return a > b ? a : b; }\n\
         template <class T> __device__ T first(const T *p) { return p[0]; }\n\
         template <class T> __device__ void swp(T &a, T &b) { T t = a; a = b; b = t; }\n\
         template <class T, int N> __device__ int len(T (&)[N]) { return N; }\n\
         template <class T> struct Box { T v; };\n\
         template <class T> __device__ T unbox(const Box<T> &b) { return b.v; }\n\
         template <class To, class From> __device__ To conv(From f) { return (To)f; }\n\
         template <class T = int, int S = 10> __device__ T scaled(T v) { return v * S; }\n\
         __global__ void k(int *o, float *f) {\n\
           short a[6] = {1, 2, 3, 4, 5, 6};\n\
           int x = 1, y = 2;\n\
           swp(x, y);\n\
           Box<float> b; b.v = 2.5f;\n\
           o[0] = mx(3, 9) + first(a + 2) + len(a) + conv<int>(3.9f) + scaled(4) + scaled<int, 3>(4);\n\
           f[0] = unbox(b) + mx<float>(1, 2.5);\n\
           static_assert(sizeof(conv<char>(1.0)) == 1, \"To is explicit\");\n\
         }\n",
    );
}

#[test]
fn conflicting_deductions_and_missing_arguments_are_errors() {
    let src = "template <class T> __device__ T mx(T a, T b) { return a > b ? a : b; }\n\
               template <class T> __device__ T make() { return T(); }\n\
               __global__ void k(float *o) {\n\
                 o[0] = mx(1, 2.5);\n\
                 o[1] = make();\n\
               }\n";
    let e = errors(src);
    assert!(e.iter().any(|(l, m)| *l == 4 && m.contains("no matching function for call to 'mx'")), "{e:#?}");
    assert!(e.iter().any(|(l, m)| *l == 5 && m.contains("no matching function for call to 'make'")), "{e:#?}");
}

#[test]
fn non_template_is_preferred_on_a_tie_and_more_specialized_template_wins() {
    let m = compile(
        "template <class T> __device__ int f(T) { return 1; }\n\
         __device__ int f(int) { __trap(); return 2; }\n\
         template <class T> __device__ int g(T) { return 1; }\n\
         template <class T> __device__ int g(T *) { __trap(); return 2; }\n\
         __global__ void k(int *o) { o[0] = f(1); o[1] = g(o); }\n",
    );
    // The non-template `f(int)` and `g<int>(int *)` (the `T *` template) are the ones
    // called: both trap; the primary `g` and the template `f` are not lowered.
    // A specialization's IR name carries its template arguments (`g<int>`).
    let named = |f: &&cuprite_ir::Function| ["f", "g"].iter().any(|n| f.name == *n || f.name.starts_with(&format!("{n}<")));
    let traps = m.functions.iter().filter(named).filter(|f| builtins(f).iter().any(|b| b == "Trap")).count();
    let all = m.functions.iter().filter(named).count();
    assert_eq!((traps, all), (2, 2));
}

#[test]
fn explicit_and_partial_specializations_are_chosen() {
    compile(
        "template <class T> struct S { static constexpr int v = 0; };\n\
         template <class T> struct S<T *> { static constexpr int v = 1; };\n\
         template <class T> struct S<const T *> { static constexpr int v = 2; };\n\
         template <> struct S<float> { static constexpr int v = 3; };\n\
         template <class T, int N> struct A { static constexpr int v = N; };\n\
         template <int N> struct A<char, N> { static constexpr int v = -N; };\n\
         template <class T> __device__ int code(T) { return 0; }\n\
         template <> __device__ int code<float>(float) { return 1; }\n\
         template <class T> struct is_float { static constexpr bool value = false; };\n\
         template <> struct is_float<float> { static constexpr bool value = true; };\n\
         __global__ void k(int *o) {\n\
           static_assert(S<int>::v == 0 && S<int *>::v == 1 && S<const int *>::v == 2 && S<float>::v == 3, \"S\");\n\
           static_assert(A<int, 4>::v == 4 && A<char, 4>::v == -4, \"A\");\n\
           static_assert(is_float<float>::value && !is_float<double>::value, \"traits\");\n\
           o[0] = code(1) + code(2.0f);\n\
         }\n",
    );
}

#[test]
fn class_templates_members_nested_types_and_member_templates() {
    compile(
        "template <class T, int N> struct Vec {\n\
           typedef T value_type;\n\
           static constexpr int size = N;\n\
           T d[N];\n\
           __device__ value_type sum() const;\n\
           template <class U> __device__ Vec<U, N> cast() const { Vec<U, N> r; for (int i = 0; i < N; i++) r.d[i] = (U)d[i]; return r; }\n\
           __device__ static Vec fill(T x) { Vec v; for (int i = 0; i < N; i++) v.d[i] = x; return v; }\n\
         };\n\
         template <class T, int N> __device__ typename Vec<T, N>::value_type Vec<T, N>::sum() const {\n\
           value_type s = 0; for (int i = 0; i < N; i++) s += d[i]; return s;\n\
         }\n\
         template <class V> __device__ typename V::value_type total(const V &v) { return v.sum(); }\n\
         template <class T> using Ptr = T *;\n\
         template <class T> constexpr T zero = T(0);\n\
         __global__ void k(float *o) {\n\
           Vec<int, 3> v = Vec<int, 3>::fill(2);\n\
           Ptr<float> p = o;\n\
           p[0] = v.sum() + total(v) + v.cast<float>().sum() + Vec<char, 7>::size + zero<float>;\n\
         }\n",
    );
}

#[test]
fn packs_folds_and_sizeof_pack() {
    compile(
        "template <class... Ts> __device__ auto sum(Ts... xs) { return (xs + ...); }\n\
         template <class... Ts> __device__ int count(Ts...) { return sizeof...(Ts); }\n\
         template <class... Ts> __device__ bool all(Ts... xs) { return (true && ... && xs); }\n\
         template <class F, class... As> __device__ auto call(F f, As... as) { return f(as...); }\n\
         struct Add { __device__ float operator()(float a, int b) const { return a + b; } };\n\
         __global__ void k(float *o) {\n\
           o[0] = sum(1, 2.5f, 3.0) + count() + count(1, o, 'c') + all(1, true) + all();\n\
           o[1] = call(Add(), 1.5f, 2);\n\
           static_assert(sizeof(sum(1, 2)) == 4 && sizeof(sum(1, 2.0)) == 8, \"fold types\");\n\
         }\n",
    );
}

#[test]
fn if_constexpr_style_branches_and_static_assert_on_parameters() {
    let src = "template <class T, unsigned B> __device__ T red(T v) {\n\
                 static_assert((B & (B - 1)) == 0, \"B: a power of two\");\n\
                 if (B >= 64) v += 1;\n\
                 return v;\n\
               }\n\
               __global__ void k(float *o) { o[0] = red<float, 64>(o[0]); o[1] = red<float, 48>(o[1]); }\n";
    let e = errors(src);
    assert_eq!(e.len(), 1, "{e:#?}");
    assert!(e[0].1.contains("static assertion failed: B: a power of two"), "{e:#?}");
    assert_eq!(e[0].0, 2);
}

#[test]
fn instantiation_errors_carry_the_chain() {
    let src = "template <class T> __device__ void g(T x) { x.foo(); }\n\
               template <class T> __device__ void f(T x) { g(x); }\n\
               __global__ void k() { f(1); }\n";
    let p = cuprite_front::parse(src);
    let errs = match cuprite_sema::check(&p.tu, &SemaOptions::default()) {
        Ok(_) => panic!("expected an error"),
        Err(e) => e,
    };
    let d = errs.iter().find(|d| d.severity == Severity::Error).unwrap();
    assert_eq!(line_of(src, Some(d.span)), 1, "{d:#?}");
    let notes: Vec<(u32, String)> = d.notes.iter().map(|(s, m)| (line_of(src, *s), m.clone())).collect();
    assert_eq!(
        notes,
        vec![(2, "in instantiation of 'g<int>' requested here".to_string()), (3, "in instantiation of 'f<int>' requested here".to_string())],
        "{d:#?}"
    );
}

#[test]
fn kernel_templates_are_instantiated_only_on_request() {
    let src = "template <class T, unsigned B> __global__ void reduce(const T *in, T *out) {\n\
                 __shared__ T s[B];\n\
                 s[threadIdx.x] = in[threadIdx.x];\n\
                 __syncthreads();\n\
                 if (threadIdx.x == 0) out[0] = s[B - 1];\n\
               }\n\
               template <class T> __global__ void bad(T *p) { *p = p->nothing; }\n";
    // No request: no kernel, and the broken template is never instantiated.
    let m = lower_with(src, &[]).unwrap_or_else(|e| panic!("{e:#?}"));
    assert!(m.functions.is_empty());
    // The host object's stubs name the specializations.
    let m = lower_with(
        src,
        &[
            ("reduce", "float, (unsigned int)128", "_Z6reduceIfLj128EEvPKT_PS0_"),
            ("reduce", "double, (unsigned int)64", "_Z6reduceIdLj64EEvPKT_PS0_"),
        ],
    )
    .unwrap_or_else(|e| panic!("{e:#?}"));
    let stubs: Vec<String> = m
        .functions
        .iter()
        .filter_map(|f| match &f.kind {
            cuprite_ir::FunctionKind::Kernel { stub_symbol, .. } => Some(stub_symbol.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(stubs, vec!["_Z6reduceIfLj128EEvPKT_PS0_".to_string(), "_Z6reduceIdLj64EEvPKT_PS0_".to_string()]);
    // A request for the broken one reports its error, with the request in the chain.
    let errs = lower_with(src, &[("bad", "int", "_Z3badIiEvPT_")]).err().expect("an error");
    let d = errs.iter().find(|d| d.severity == Severity::Error).unwrap();
    assert!(d.message.contains("is not a pointer to a structure"), "{d:#?}");
    assert!(d.notes.iter().any(|(_, m)| m.contains("in instantiation of 'bad<int>") && m.contains("_Z3badIiEvPT_")), "{d:#?}");
}

#[test]
fn kernel_template_arguments_of_class_type_from_the_demangler() {
    let src = "namespace ns { template <class T> struct Vec { T x, y; }; }\n\
               template <class V, int N> __global__ void k(V *p) { p->x = N; }\n";
    let m = lower_with(src, &[("k", "ns::Vec<float>, 3", "_Z1kIN2ns3VecIfEELi3EEvPT_")]).unwrap_or_else(|e| panic!("{e:#?}"));
    assert_eq!(m.functions.len(), 1);
}

#[test]
fn unused_templates_are_ignored() {
    compile(
        "template <class T> struct Traits { static const int size = sizeof(T); };\n\
         template <class T> __device__ T sq(T x) { return x * x; }\n\
         template <> struct Traits<float> { static const int size = 4; };\n\
         template <class T> using Ptr = T*;\n\
         template <class T> __device__ void never(T x) { x.does_not_exist(); }\n\
         __global__ void k(float *p) { *p = 1; }\n",
    );
}

/// Rodinia dwt2d: a class template with a base, instantiated as a member of another
/// class template, keeps its own parameters in its member functions' bodies (the
/// enclosing instantiation used to rebind them to its own).
#[test]
fn class_template_member_of_class_template_keeps_its_own_parameters() {
    compile(
        "template <typename T, bool CHECKED> class Base { protected: int end; int stride; };\n\
         template <typename T, bool CHECKED> class Loader : protected Base<const T, CHECKED> {\n\
           int last;\n\
         public:\n\
           __device__ T loadFrom(const T *const input) {\n\
             last += this->stride;\n\
             if (CHECKED && (last == this->end)) last = 0;\n\
             return input[last];\n\
           }\n\
         };\n\
         template <bool C> struct Column { Loader<int, C> loader; };\n\
         __global__ void k(int *p) { Column<false> c; p[0] = c.loader.loadFrom(p); }\n",
    );
}

/// cuda-samples eigenvalues: a program's own `template <class T> T max(T, T)` does not
/// hide CUDA's `max(double, float)`; the builtin is used where the template cannot be
/// deduced, the template where it can.
#[test]
fn builtin_overloads_stay_candidates_beside_a_user_template_of_the_same_name() {
    compile(
        "template <class T> __device__ T max(T a, T b) { return a > b ? a : b; }\n\
         template <class T> __device__ T min(T a, T b) { return a < b ? a : b; }\n\
         __global__ void k(double *d, float *f, int *i) {\n\
           d[0] = max(d[1], f[0]);\n\
           d[1] = min(f[1], d[2]);\n\
           i[0] = max(i[1], i[2]);\n\
           f[2] = max<float>(f[3], 1);\n\
         }\n",
    );
}

/// cuda-samples interval: non-member operator templates over a class template are
/// found for `a - b` and `-a`, in templates and outside them.
#[test]
fn operator_function_templates_are_candidates() {
    compile(
        "template <class T> struct iv { T lo, hi; __device__ iv(T a) : lo(a), hi(a) {} __device__ iv(T a, T b) : lo(a), hi(b) {} };\n\
         template <class T> __device__ iv<T> operator-(iv<T> const &x) { return iv<T>(-x.hi, -x.lo); }\n\
         template <class T> __device__ iv<T> operator-(iv<T> const &x, iv<T> const &y) { return iv<T>(x.lo - y.hi, x.hi - y.lo); }\n\
         template <class T> __device__ T f(T x) { typedef iv<T> I; I a = I(x) - I(x, x); I b = -a; return b.lo; }\n\
         __global__ void k(double *d) { iv<float> a(1.0f), b(2.0f); d[0] = f(d[1]) + (a - b).lo; }\n",
    );
}

/// INFINITY, NAN and HUGE_VAL(F) expand to GCC builtins, which device code takes as constants.
#[test]
fn infinity_and_nan_macros_are_constants() {
    compile(
        "__global__ void k(float *o, double *d) {\n\
           o[0] = -__builtin_inff(); o[1] = __builtin_nanf(\"\"); o[2] = __builtin_huge_valf();\n\
           d[0] = __builtin_huge_val() + __builtin_inf() + __builtin_nan(\"\");\n\
         }\n",
    );
}

/// cuda-samples dxtc with helper_math.h: a program's non-template `max(float3, float3)`
/// does not hide CUDA's `max(float, float)`.
#[test]
fn builtin_overloads_stay_candidates_beside_user_functions_of_the_same_name() {
    compile(
        "struct f3 { float x, y, z; };\n\
         __device__ f3 max(f3 a, f3 b) { f3 r; r.x = a.x > b.x ? a.x : b.x; r.y = a.y; r.z = a.z; return r; }\n\
         __global__ void k(float *o, f3 *v) { o[0] = max(max(o[1], o[2]), o[3]); v[0] = max(v[1], v[2]); }\n",
    );
}
