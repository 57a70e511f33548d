//! Pointers to members: `C::*` declarators (also nested, in typedefs, `using` and type
//! names) and the `.*` / `->*` operators.

mod common;
use common::*;
use cuprite_front::ast::*;

#[test]
fn member_pointer_declarators() {
    let r = parse_ok(
        "struct S { int x; __device__ float f(float) const; };\n\
         typedef int S::*data_t;\n\
         using fn_t = float (S::*)(float) const;\n\
         __device__ void g() {\n\
           int S::*pm = &S::x;\n\
           float (S::*pf)(float) const = &S::f;\n\
           int S::* const cpm = nullptr;\n\
           void (S::*tbl[2])(int);\n\
           long n = sizeof(int S::*);\n\
         }\n",
    );
    let g = function(&r, "g");
    let decl = |i: usize| match &g.body.stmts[i].kind {
        StmtKind::Decl(d) => d.declarators[0].declarator.derived.clone(),
        k => panic!("{k:?}"),
    };
    assert!(matches!(&decl(0)[..], [Derived::MemberPointer { class, cv }] if class.last().name == "S" && !cv.is_const));
    assert!(matches!(&decl(1)[..], [Derived::MemberPointer { .. }, Derived::Function(f)] if f.cv.is_const && f.params.len() == 1));
    assert!(matches!(&decl(2)[..], [Derived::MemberPointer { cv: Cv { is_const: true, .. }, .. }]));
    assert!(matches!(&decl(3)[..], [Derived::Array(_), Derived::MemberPointer { .. }, Derived::Function(_)]));
}

#[test]
fn pm_operators_bind_tighter_than_multiplication() {
    let e = expr_with("a * o.*pm", "struct S { int x; }; __device__ S o; __device__ int a; __device__ int S::*pm;");
    let ExprKind::Binary { op: BinOp::Mul, rhs, .. } = e.kind else { panic!("{e:?}") };
    let ExprKind::MemberPtrAccess { arrow: false, .. } = rhs.kind else { panic!() };
    // `(p->*pf)(1)`: a call whose callee is the access.
    let e = expr_with("(p->*pf)(1)", "struct S { __device__ void f(int); }; __device__ S *p; __device__ void (S::*pf)(int);");
    let ExprKind::Call { callee, args } = e.kind else { panic!() };
    assert_eq!(args.len(), 1);
    assert!(matches!(callee.kind, ExprKind::MemberPtrAccess { arrow: true, .. }));
    // Left-associative: `a.*b.*c` is `(a.*b).*c`.
    let e = expr_of("a.*b->*c");
    let ExprKind::MemberPtrAccess { base, arrow: true, .. } = e.kind else { panic!() };
    assert!(matches!(base.kind, ExprKind::MemberPtrAccess { arrow: false, .. }));
}
