//! What Cuprite's libcu++ and half headers need from the front-end: half multiply-adds
//! contracted like nvcc's (`check/contract.rs`), `cuda::std` finding std's names through
//! a namespace's using-directive, global-qualified typedefs and using-declarations,
//! reference collapsing.
mod common;
use common::*;
use cuprite_ir as ir;
use cuprite_sema::SemaOptions;

/// A miniature of `cuda_fp16.h`: the functions the contraction looks for.
const HALF: &str = "struct __half { unsigned short x; };\n\
    __device__ __half __hmul(const __half a, const __half b) { __half r; r.x = a.x * b.x; return r; }\n\
    __device__ __half __hmul_rn(const __half a, const __half b) { return __hmul(a, b); }\n\
    __device__ __half __hadd(const __half a, const __half b) { __half r; r.x = a.x + b.x; return r; }\n\
    __device__ __half __hsub(const __half a, const __half b) { __half r; r.x = a.x - b.x; return r; }\n\
    __device__ __half __hneg(const __half a) { __half r; r.x = -a.x; return r; }\n\
    __device__ __half __hfma(const __half a, const __half b, const __half c) { __half r; r.x = a.x * b.x + c.x; return r; }\n\
    __device__ __half operator*(const __half &a, const __half &b) { return __hmul(a, b); }\n\
    __device__ __half operator+(const __half &a, const __half &b) { return __hadd(a, b); }\n\
    __device__ __half operator-(const __half &a, const __half &b) { return __hsub(a, b); }\n\
    __device__ __half &operator+=(__half &a, const __half &b) { return a = __hadd(a, b); }\n";

fn callees(m: &ir::Module, name: &str) -> Vec<String> {
    insts(func(m, name))
        .into_iter()
        .filter_map(|k| match k {
            ir::InstKind::Call { func, .. } => Some(m.functions[func.0 as usize].name.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn half_multiply_adds_contract_like_nvcc() {
    let src = format!(
        "{HALF}__global__ void k(__half *h) {{\n\
           h[0] = __hadd(__hmul(h[1], h[2]), h[3]);\n\
           h[1] = h[2] * h[3] - h[0];\n\
           h[2] = h[0] - h[1] * h[3];\n\
           h[3] += h[0] * h[1];\n\
           h[4] = __hadd(__hneg(__hmul(h[0], h[1])), h[2]);\n\
         }}\n\
         __global__ void plain(__half *h) {{\n\
           h[0] = __hadd(__hmul_rn(h[1], h[2]), h[3]);\n\
           __half t = h[1] * h[2];\n\
           h[1] = t + h[3];\n\
         }}\n"
    );
    let m = compile(&src);
    let k = callees(&m, "k");
    assert_eq!(k.iter().filter(|n| *n == "__hfma").count(), 5, "{k:?}");
    assert!(!k.iter().any(|n| n == "__hmul" || n == "__hadd" || n == "operator*"), "{k:?}");
    let p = callees(&m, "plain");
    assert!(!p.iter().any(|n| n == "__hfma"), "{p:?}");
    let m = compile_opts(&src, &SemaOptions { fmad: false, ..Default::default() }).unwrap();
    assert!(!callees(&m, "k").iter().any(|n| n == "__hfma"));
}

#[test]
fn float_negated_product_contracts() {
    let m = compile("__global__ void k(float *p) {\n  p[0] = -(p[1] * p[2]) + p[3];\n  p[1] = p[3] - -(p[1] * p[2]);\n}\n");
    assert_eq!(builtins(func(&m, "k")), vec!["fmaf", "fmaf"]);
}

#[test]
fn names_through_namespace_using_directives_and_global_typedefs() {
    compile(
        "typedef unsigned int myu;\n\
         namespace std { template <class T> struct box { T v; }; template <class A, class B> struct is_same; }\n\
         namespace cuda { namespace std { using namespace ::std; typedef ::myu u32; using ::myu; } }\n\
         __global__ void k(int *o) {\n\
           cuda::std::u32 a = 1; cuda::std::myu b = 2;\n\
           o[0] = a + b + cuda::std::is_same<cuda::std::u32, unsigned>::value;\n\
         }\n",
    );
}

#[test]
fn references_collapse() {
    let m = compile(
        "template <class T> __device__ int pick(T &&x) { return sizeof(x); }\n\
         template <class T> __device__ T &&fwd(T &x) { return static_cast<T &&>(x); }\n\
         __global__ void k(int *o) { int a = 1; o[0] = pick(a) + pick(2) + fwd<int &>(a); }\n",
    );
    assert!(m.functions.iter().any(|f| f.name.starts_with("pick")));
}

#[test]
fn constexpr_function_templates_reach_their_callees() {
    // `mk`'s body is checked where the call is built (constexpr); the constructor it
    // calls must still be checked and lowered.
    let m = compile(
        "template <class A, class B> struct P { A a; B b; __device__ P(const A &x, const B &y) : a(x), b(y) {} };\n\
         template <class A, class B> __device__ constexpr P<A, B> mk(A x, B y) { return P<A, B>(x, y); }\n\
         __global__ void k(int *o) { P<int, float> p = mk(3, 2.5f); o[0] = p.a + (int)(p.b * 2); }\n",
    );
    assert!(m.functions.iter().any(|f| f.name.contains("P<int, float>::P") && !f.blocks.is_empty()), "{:?}", m.functions.iter().map(|f| &f.name).collect::<Vec<_>>());
}
