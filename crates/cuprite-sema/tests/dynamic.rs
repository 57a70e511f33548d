//! Function pointers, virtual functions and `new`/`delete` in device code: the shape of
//! the lowering and the errors.
mod common;
use common::*;
use cuprite_ir as ir;

fn insts(f: &ir::Function) -> impl Iterator<Item = &ir::InstKind> {
    f.blocks.iter().flat_map(|b| b.insts.iter().map(|i| &i.kind))
}

#[test]
fn function_pointers_lower_to_funcaddr_and_callindirect() {
    let m = compile(
        "typedef float (*op_t)(float, float);\n\
         __device__ float add(float a, float b) { return a + b; }\n\
         __device__ float mul(float a, float b) { return a * b; }\n\
         __device__ op_t table[2] = {add, &mul};\n\
         __global__ void k(float *o, int i, op_t arg) {\n\
           op_t f = i ? add : mul;\n\
           o[0] = f(1, 2) + (*f)(3, 4) + table[i](5, 6) + arg(7, 8);\n\
           o[1] = f == add;\n\
         }\n",
    );
    let k = func(&m, "k");
    assert!(insts(k).any(|i| matches!(i, ir::InstKind::FuncAddr(_))));
    assert_eq!(insts(k).filter(|i| matches!(i, ir::InstKind::CallIndirect { .. })).count(), 4);
    let t = m.globals.iter().find(|g| g.name == "table").unwrap();
    let Some(ir::Init::Aggregate(items)) = &t.init else { panic!("table init: {:?}", t.init) };
    assert!(items.iter().all(|i| matches!(i, ir::Init::FuncAddr(_))));
    assert!(matches!(t.ty, ir::Type::Array(ref e, 2) if matches!(**e, ir::Type::FnPtr(_))));
}

#[test]
fn virtual_calls_load_the_vtable() {
    let m = compile(
        "struct B { __device__ B() {} __device__ virtual int f() const { return 1; } int x; };\n\
         struct D : B { __device__ int f() const override { return 2 + B::f(); } };\n\
         __global__ void k(int *o, B *p) { B b; D d; o[0] = p->f() + b.f() + d.f(); }\n",
    );
    let k = func(&m, "k");
    assert!(insts(k).any(|i| matches!(i, ir::InstKind::CallIndirect { .. })));
    // `B::f()` in D::f is a direct call.
    let df = func(&m, "D::f");
    assert!(insts(df).any(|i| matches!(i, ir::InstKind::Call { .. })));
    assert!(!insts(df).any(|i| matches!(i, ir::InstKind::CallIndirect { .. })));
    // The constructor stores the vtable; the vtable holds B::f.
    let vt = m.globals.iter().find(|g| g.name == "vtable.B").expect("vtable of B");
    assert!(matches!(&vt.init, Some(ir::Init::Aggregate(v)) if v.len() == 1));
    assert!(m.globals.iter().any(|g| g.name == "vtable.D"));
    // The vptr is field 0 of B, at offset 0; x follows it.
    let b = m.structs.iter().find(|s| s.name == "B").unwrap();
    assert_eq!(b.fields[0].offset, 0);
    assert_eq!(b.fields[1].offset, 8);
    assert_eq!(b.size, 16);
}

#[test]
fn new_and_delete_use_the_device_heap() {
    let m = compile(
        "struct W { int v; __device__ W(int x) : v(x) {} __device__ ~W() {} };\n\
         __global__ void k(int n) {\n\
           W *w = new W(3); delete w;\n\
           W *a = new W[2]{W(1), W(2)}; delete[] a;\n\
           int *p = new int[n](); delete[] p;\n\
         }\n",
    );
    let k = func(&m, "k");
    let mallocs = insts(k).filter(|i| matches!(i, ir::InstKind::CallBuiltin { builtin: ir::Builtin::Malloc, .. })).count();
    let frees = insts(k).filter(|i| matches!(i, ir::InstKind::CallBuiltin { builtin: ir::Builtin::Free, .. })).count();
    assert_eq!((mallocs, frees), (3, 3));
}

#[test]
fn errors_for_dynamic_features() {
    has_error(
        "struct A { __device__ virtual int f() = 0; };\n__global__ void k() {\n  A *a = new A;\n}\n",
        3,
        "allocating an object of abstract class type 'A'",
    );
    has_error(
        "void h(int) {}\n__global__ void k() {\n  void (*p)(int) = h;\n}\n",
        3,
        "identifier \"h\" is undefined in device code",
    );
    has_error(
        "__device__ int f(int x) { return x; }\n__global__ void k(int *o) {\n  o[0] = f;\n}\n",
        3,
        "cannot convert 'int(*)(int)' to 'int' in assignment",
    );
    has_error(
        "typedef int (*fp)(int);\n__global__ void k(fp f, int *o) {\n  o[0] = f(1, 2);\n}\n",
        3,
        "too many arguments to function call, expected 1, have 2",
    );
    has_error("__global__ void k(int *p) {\n  delete[] *p;\n}\n", 2, "cannot delete expression of type 'int'");
    has_error(
        "struct B { int b; };\nstruct D : B { __device__ virtual void f() {} };\n__global__ void k() { D d; }\n",
        2,
        "a class with virtual functions whose base class 'B' has none is not supported in device code yet",
    );
}
