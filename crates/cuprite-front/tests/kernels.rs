//! Plain CUDA C kernels parse into the expected items.

mod common;
use common::*;
use cuprite_front::ast::*;

#[test]
fn vector_add() {
    let r = parse_ok(
        "__global__ void vadd(const float *__restrict__ a, const float *b, float *c, int n) {\n\
         int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
         if (i < n) c[i] = a[i] + b[i];\n}\n",
    );
    let f = function(&r, "vadd");
    assert!(f.spec.cuda.global);
    assert!(matches!(f.spec.ty, TypeSpec::Builtin(BuiltinType::Void)));
    let Some(Derived::Function(fd)) = f.declarator.derived.first() else { panic!() };
    assert_eq!(fd.params.len(), 4);
    assert!(matches!(fd.params[0].declarator.derived[..], [Derived::Pointer { restrict: true, .. }]));
    assert!(fd.params[0].spec.cv.is_const);
    assert_eq!(f.body.stmts.len(), 2);
    assert!(matches!(f.body.stmts[1].kind, StmtKind::If { .. }));
}

#[test]
fn shared_memory_pragmas_and_loops() {
    let r = parse_ok(
        "#define N 256\n__global__ void __launch_bounds__(256, 2) reduce(float *in, float *out) {\n\
         __shared__ float buf[256];\n\
         unsigned t = threadIdx.x;\n\
         buf[t] = in[t];\n\
         __syncthreads();\n\
         #pragma unroll 4\n\
         for (int s = 128; s > 0; s >>= 1) { if (t < s) buf[t] += buf[t + s]; __syncthreads(); }\n\
         if (t == 0) { out[blockIdx.x] = buf[0]; printf(\"sum %f\\n\", buf[0]); }\n}\n",
    );
    let f = function(&r, "reduce");
    assert_eq!(f.spec.cuda.launch_bounds.as_ref().map(|v| v.len()), Some(2));
    let StmtKind::Decl(d) = &f.body.stmts[0].kind else { panic!() };
    assert!(d.spec.cuda.shared);
    assert!(matches!(d.declarators[0].declarator.derived[..], [Derived::Array(Some(_))]));
    assert!(matches!(&f.body.stmts[4].kind, StmtKind::Pragma(p) if p == "unroll 4"));
    assert!(matches!(f.body.stmts[5].kind, StmtKind::For { init: Some(_), cond: Some(_), step: Some(_), .. }));
}

#[test]
fn structs_typedefs_and_device_variables() {
    let r = parse_ok(
        "struct Pair { float a; int b : 4; };\ntypedef struct Pair Pair_t;\n\
         __constant__ float coeffs[16];\n__device__ int counter = 0;\n\
         __device__ __forceinline__ float get(Pair_t p) { return p.a * (float)p.b; }\n",
    );
    let items = flat_items(&r.tu.items);
    assert_eq!(items.len(), 5);
    let ItemKind::Decl(d) = &items[0].kind else { panic!() };
    let TypeSpec::Record(rec) = &d.spec.ty else { panic!() };
    let members = rec.members.as_ref().unwrap();
    assert_eq!(members.len(), 2);
    let ItemKind::Decl(c) = &items[2].kind else { panic!() };
    assert!(c.spec.cuda.constant);
    let f = function(&r, "get");
    assert!(f.spec.cuda.device && f.spec.cuda.forceinline);
}

#[test]
fn host_function_is_skipped_unparsed() {
    let r = parse_ok(
        "__global__ void k(int *p) { *p = 1; }\n\
         int main() { std::vector<int> v; k<<<1, 1>>>(nullptr); auto l = [](){}; return 0; }\n",
    );
    let items = flat_items(&r.tu.items);
    assert!(matches!(&items[1].kind,
        ItemKind::Skipped { names, reason: SkipReason::HostOnly, error: None } if names == &["main".to_string()]));
}
