//! Pointers to members in device code: the shape of the lowering (Itanium C++ ABI
//! representation) and the errors.
mod common;
use common::*;
use cuprite_ir as ir;

fn insts(f: &ir::Function) -> impl Iterator<Item = &ir::InstKind> {
    f.blocks.iter().flat_map(|b| b.insts.iter().map(|i| &i.kind))
}

#[test]
fn data_member_pointers_are_offsets() {
    let m = compile(
        "struct S { int a; double d; int b; };\n\
         __device__ int S::*tbl[2] = {&S::a, &S::b};\n\
         __global__ void k(S *s, int *o, int S::*arg) { int S::*pm = &S::b; o[0] = s->*pm + (*s).*arg + (pm == nullptr); }\n",
    );
    let t = m.globals.iter().find(|g| g.name == "tbl").unwrap();
    assert!(matches!(t.ty, ir::Type::Array(ref e, 2) if **e == ir::Type::I64));
    let Some(ir::Init::Aggregate(items)) = &t.init else { panic!("{:?}", t.init) };
    assert!(matches!(items[0], ir::Init::Scalar(ir::Const::Int(0, _))));
    assert!(matches!(items[1], ir::Init::Scalar(ir::Const::Int(16, _))));
    let k = func(&m, "k");
    assert_eq!(k.locals[k.params[2].index()].ty, ir::Type::I64);
}

#[test]
fn member_function_pointers_are_ptr_adj_pairs() {
    let m = compile(
        "struct B { int v; __device__ B() : v(1) {} __device__ virtual int f() const { return v; } __device__ int g() const { return 2; } };\n\
         typedef int (B::*q_t)() const;\n\
         __global__ void k(int *o, B *p, q_t arg) {\n\
           q_t a = &B::f, b = &B::g;\n\
           o[0] = (p->*a)() + ((*p).*b)() + (p->*arg)() + (a == b);\n\
         }\n",
    );
    let s = m.structs.iter().find(|s| s.name == "__member_fn_ptr").expect("the {ptr, adj} struct");
    assert_eq!((s.size, s.align, s.fields.len()), (16, 8, 2));
    assert_eq!((s.fields[0].offset, s.fields[1].offset), (0, 8));
    let k = func(&m, "k");
    assert!(matches!(k.locals[k.params[2].index()].ty, ir::Type::Struct(id) if m.structs[id.index()].name == "__member_fn_ptr"));
    assert_eq!(insts(k).filter(|i| matches!(i, ir::InstKind::CallIndirect { .. })).count(), 3);
    // The virtual one is 1 + its vtable offset (slot 0): the constant 1 as the `ptr` word.
    assert!(insts(k).any(|i| matches!(i, ir::InstKind::Const(ir::Const::Int(1, ir::Type::U64)))));
    // The non-virtual one is the function's address.
    assert!(insts(k).any(|i| matches!(i, ir::InstKind::FuncAddr(_))));
}

#[test]
fn errors_for_member_pointers() {
    has_error(
        "struct S { int x; __device__ void f() {} };\n__global__ void k(int *o) {\n  S s;\n  o[0] = s.*(&S::f);\n}\n",
        4,
        "a pointer to member function can only be called",
    );
    has_error(
        "struct S { __device__ void f(int) {} __device__ void f(float) {} };\n__global__ void k() {\n  void (S::*p)(int) = &S::f;\n}\n",
        3,
        "taking the address of overloaded member function 'f' is not supported in device code yet",
    );
    has_error(
        "struct S { int x; };\nstruct T { int y; };\n__global__ void k(int *o) {\n  T t; int S::*p = &S::x;\n  o[0] = t.*p;\n}\n",
        5,
        "is not of class 'S'",
    );
    has_error(
        "struct S { __device__ void f() {} };\n__global__ void k() {\n  void (S::*p)() = &S::f;\n  const S s{};\n  (s.*p)();\n}\n",
        5,
        "on a const object discards qualifiers",
    );
    has_error(
        "struct B { int x; };\nstruct D : B { int y; };\n__global__ void k() {\n  int D::*p = &D::y;\n  int B::*q = p;\n}\n",
        5,
        "needs a static_cast, which is not supported in device code yet",
    );
    has_error(
        "struct S { int x; float y; };\n__global__ void k() {\n  int S::*p = &S::y;\n}\n",
        3,
        "cannot convert 'float S::*' to 'int S::*'",
    );
    has_error(
        "struct S { int x; };\n__global__ void k(int *o) {\n  int S::*p = &S::x;\n  o[0] = p < p;\n}\n",
        4,
        "invalid operands to binary expression ('int S::*' and 'int S::*')",
    );
    has_error(
        "__global__ void k(int *o) {\n  int x;\n  o[0] = x.*o;\n}\n",
        3,
        "has non-pointer-to-member type 'int *'",
    );
}
