//! The typedef-name ("lexer hack") disambiguation, with scopes.

mod common;
use common::*;
use cuprite_front::ast::*;

const PRELUDE: &str = "typedef float T;\n";

#[test]
fn cast_versus_parenthesised_expression() {
    // `(T)*x` is a cast of `*x` when T is a type...
    let e = expr_with("(int)((T)*p)", &format!("{PRELUDE}__device__ float *p;"));
    let ExprKind::Cast { expr, .. } = e.kind else { panic!() };
    assert!(matches!(expr.kind, ExprKind::Cast { style: CastStyle::C, .. }), "{expr:?}");
    // ...and a multiplication when it is a variable.
    let e = expr_with("(v)*p", "__device__ int v, p;");
    assert!(matches!(e.kind, ExprKind::Binary { op: BinOp::Mul, .. }), "{e:?}");
}

#[test]
fn declaration_versus_multiplication() {
    let r = parse_ok(&format!("{PRELUDE}__device__ void f(int a, int b) {{ T * p; a * b; }}\n"));
    let f = function(&r, "f");
    assert!(matches!(f.body.stmts[0].kind, StmtKind::Decl(_)));
    assert!(matches!(f.body.stmts[1].kind, StmtKind::Expr(_)));
}

#[test]
fn sizeof_type_versus_expression() {
    let e = expr_with("sizeof(T)", PRELUDE);
    assert!(matches!(e.kind, ExprKind::SizeofType(_)));
    let e = expr_with("sizeof(v) + sizeof v", "__device__ int v;");
    let ExprKind::Binary { lhs, rhs, .. } = e.kind else { panic!() };
    assert!(matches!(lhs.kind, ExprKind::SizeofExpr(_)));
    assert!(matches!(rhs.kind, ExprKind::SizeofExpr(_)));
    let e = expr_with("sizeof(struct S *[4])", "struct S;");
    let ExprKind::SizeofType(t) = e.kind else { panic!() };
    assert!(matches!(t.declarator.derived[..], [Derived::Array(_), Derived::Pointer { .. }]));
}

#[test]
fn inner_variable_hides_typedef_in_its_block_only() {
    let r = parse_ok(&format!(
        "{PRELUDE}__device__ void f(int a) {{\n  {{ int T = 2; a = T * 3; }}\n  T * q;\n}}\n\
         __device__ void g(float T) {{ T * 2.0f; }}\n"
    ));
    let f = function(&r, "f");
    let StmtKind::Block(b) = &f.body.stmts[0].kind else { panic!() };
    assert!(matches!(b.stmts[1].kind, StmtKind::Expr(_)));
    assert!(matches!(f.body.stmts[1].kind, StmtKind::Decl(_)));
    let g = function(&r, "g");
    assert!(matches!(g.body.stmts[0].kind, StmtKind::Expr(_)), "parameter hides the typedef");
}

#[test]
fn cxx_tags_are_type_names() {
    let r = parse_ok(
        "struct V { float x; };\nenum Mode { A, B };\nclass C;\n\
         __device__ void f() { V v; Mode m = A; C *c; V *pv = (V *)0; v.x = sizeof(V); }\n",
    );
    let f = function(&r, "f");
    for i in 0..4 {
        assert!(matches!(f.body.stmts[i].kind, StmtKind::Decl(_)), "stmt {i}");
    }
}

#[test]
fn qualified_and_namespaced_types() {
    let r = parse_ok(
        "namespace n { typedef int I; struct S { typedef float F; struct In { int z; }; }; }\n\
         using namespace n;\n\
         __device__ void f() { n::I a; I b; n::S::F c; S::In d; ::n::I e; a = (n::I)c; }\n",
    );
    let f = function(&r, "f");
    for i in 0..5 {
        assert!(matches!(f.body.stmts[i].kind, StmtKind::Decl(_)), "stmt {i}: {:?}", f.body.stmts[i].kind);
    }
}

#[test]
fn functional_casts_and_constructions() {
    let e = expr_with("float(i) + unsigned(i)", "__device__ int i;");
    let ExprKind::Binary { lhs, rhs, .. } = e.kind else { panic!() };
    assert!(matches!(lhs.kind, ExprKind::Cast { style: CastStyle::Functional, .. }));
    assert!(matches!(rhs.kind, ExprKind::Cast { style: CastStyle::Functional, .. }));
    // A named type followed by `(`: a call whose callee names the type.
    let e = expr_with("V(1, 2).x + V{3, 4}.x", "struct V { int x, y; };");
    let ExprKind::Binary { lhs, rhs, .. } = e.kind else { panic!() };
    let ExprKind::Member { base, .. } = lhs.kind else { panic!() };
    assert!(matches!(base.kind, ExprKind::Call { .. }));
    let ExprKind::Member { base, .. } = rhs.kind else { panic!() };
    assert!(matches!(base.kind, ExprKind::CompoundLit { .. }));
    // And a statement starting with a type followed by `(` is an expression.
    let r = parse_ok("struct V { int x; };\n__device__ void f() { V(1); float(2) * 3; V (*fp)(int); }\n");
    let f = function(&r, "f");
    assert!(matches!(f.body.stmts[0].kind, StmtKind::Expr(_)));
    assert!(matches!(f.body.stmts[1].kind, StmtKind::Expr(_)));
    assert!(matches!(f.body.stmts[2].kind, StmtKind::Decl(_)));
}

#[test]
fn declarator_shapes() {
    let r = parse_ok(
        "typedef float (*op_t)(float, float);\n\
         __device__ int *a[10];\n__device__ int (*p)[10];\n__device__ float *(*g)(int);\n\
         __device__ const int * const volatile cp = 0;\n",
    );
    let decl = |i: usize| match &r.tu.items[i].kind {
        ItemKind::Decl(d) => d.declarators[0].declarator.derived.clone(),
        _ => panic!(),
    };
    assert!(matches!(decl(0)[..], [Derived::Pointer { .. }, Derived::Function(_)]));
    assert!(matches!(decl(1)[..], [Derived::Array(_), Derived::Pointer { .. }]));
    assert!(matches!(decl(2)[..], [Derived::Pointer { .. }, Derived::Array(_)]));
    assert!(matches!(decl(3)[..], [Derived::Pointer { .. }, Derived::Function(_), Derived::Pointer { .. }]));
    assert!(matches!(decl(4)[..], [Derived::Pointer { cv: Cv { is_const: true, is_volatile: true }, .. }]));
}

#[test]
fn builtin_offsetof_with_nested_designators() {
    let e = expr_with("__builtin_offsetof(S, in[2].p.v)", "struct S { int c; struct { int a[4]; } in[3]; };");
    let ExprKind::OffsetOf { ty, designators } = e.kind else { panic!("{e:?}") };
    assert!(matches!(ty.spec.ty, TypeSpec::Named(_) | TypeSpec::Record(_)), "{ty:?}");
    assert_eq!(designators.len(), 4);
    assert!(matches!(&designators[0], Designator::Field(i) if i.name == "in"));
    assert!(matches!(&designators[1], Designator::Index(x) if matches!(x.kind, ExprKind::IntLit { value: 2, .. })));
    assert!(matches!(&designators[2], Designator::Field(i) if i.name == "p"));
    assert!(matches!(&designators[3], Designator::Field(i) if i.name == "v"));
    // `offsetof(struct T, x)` with an elaborated type, as glibc's macro allows.
    let e = expr_with("__builtin_offsetof(struct T, x)", "struct T { int x; };");
    assert!(matches!(e.kind, ExprKind::OffsetOf { .. }), "{e:?}");
    assert!(first_error("__device__ unsigned long f() { return __builtin_offsetof(S, ); }").contains("expected"));
}
