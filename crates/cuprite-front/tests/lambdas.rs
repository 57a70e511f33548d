//! Lambda expressions, range-based `for`, using-directives/declarations and namespace
//! aliases in the parser.
mod common;
use common::*;
use cuprite_front::ast::*;

fn lambda_of(src_expr: &str) -> Lambda {
    let e = expr_with(&format!("({src_expr}, 0)"), "");
    let ExprKind::Binary { lhs, .. } = e.kind else { panic!("{e:?}") };
    match lhs.kind {
        ExprKind::Lambda(l) => *l,
        other => panic!("expected a lambda, got {other:?}"),
    }
}

#[test]
fn captures_params_and_specifiers() {
    let l = lambda_of("[=, &s, k, y = k + 1, &r = s](int a, float) mutable -> int { return a + k; }");
    assert_eq!(l.default_capture, Some(false));
    assert_eq!(l.captures.len(), 4);
    assert!(matches!(&l.captures[0], Capture::Var { name, by_ref: true } if name.name == "s"));
    assert!(matches!(&l.captures[1], Capture::Var { name, by_ref: false } if name.name == "k"));
    assert!(matches!(&l.captures[2], Capture::Init { name, by_ref: false, init: Initializer::Expr(_) } if name.name == "y"));
    assert!(matches!(&l.captures[3], Capture::Init { by_ref: true, .. }));
    assert!(l.is_mutable);
    assert_eq!(l.params.as_ref().unwrap().params.len(), 2);
    assert!(l.ret.is_some());
    assert_eq!(l.body.stmts.len(), 1);

    let l = lambda_of("[&] { return 1; }");
    assert_eq!(l.default_capture, Some(true));
    assert!(l.params.is_none());
    let l = lambda_of("[this, *this] () {}");
    assert!(matches!(l.captures[0], Capture::This { copy: false, .. }));
    assert!(matches!(l.captures[1], Capture::This { copy: true, .. }));
    let l = lambda_of("[] __device__ (auto x) { return x; }");
    assert!(l.cuda.device);
    assert!(matches!(l.params.as_ref().unwrap().params[0].spec.ty, TypeSpec::Auto));
    let l = lambda_of("[] __host__ __device__ (int x) noexcept { return x; }");
    assert!(l.cuda.device && l.cuda.host);
}

#[test]
fn lambdas_are_primary_expressions() {
    // Immediately invoked, returned, nested, as an argument.
    let r = parse_ok(
        "__device__ int g(int);\n\
         __device__ int f(int b) {\n\
           int x = [](int a, int c) { return a * c; }(6, 7);\n\
           auto add = [&](int v) { return [=](int w) { return v + w + b; }; };\n\
           return add(1)(2) + x;\n\
         }\n",
    );
    let f = function(&r, "f");
    let StmtKind::Decl(d) = &f.body.stmts[0].kind else { panic!() };
    let Some(Initializer::Expr(e)) = &d.declarators[0].init else { panic!() };
    let ExprKind::Call { callee, args } = &e.kind else { panic!("{e:?}") };
    assert!(matches!(callee.kind, ExprKind::Lambda(_)));
    assert_eq!(args.len(), 2);
}

#[test]
fn init_capture_names_are_values_in_the_body() {
    // `n` is a type outside; inside the lambda it is the init-capture.
    let r = parse_ok("typedef int n;\n__device__ int f() { auto c = [n = 10]() mutable { return ++n; }; return c(); }\n");
    let _ = function(&r, "f");
}

#[test]
fn range_for() {
    let r = parse_ok("struct P { int a; };\n__device__ int f(P *q) { P ps[3]; int s = 0; for (const P &p : ps) s += p.a; for (auto &p : ps) p.a = 0; return s; }\n");
    let f = function(&r, "f");
    let StmtKind::RangeFor { decl, range, body } = &f.body.stmts[2].kind else { panic!("{:?}", f.body.stmts[2]) };
    assert_eq!(decl.declarators.len(), 1);
    assert!(decl.declarators[0].init.is_none());
    assert!(matches!(decl.declarators[0].declarator.derived[..], [Derived::Reference { rvalue: false }]));
    assert!(matches!(&range.kind, ExprKind::Name(p) if p.last().name == "ps"));
    assert!(matches!(body.kind, StmtKind::Expr(_)));
}

#[test]
fn usings_and_namespace_aliases() {
    let r = parse_ok(
        "namespace a { namespace b { struct T { int x; }; __device__ int f(); } }\n\
         namespace ab = a::b;\n\
         using namespace a;\n\
         using a::b::f;\n\
         __device__ int g() { namespace q = a::b; using namespace a::b; using a::b::T; ab::T t{1}; q::T u{2}; return t.x + u.x; }\n",
    );
    let kinds: Vec<&ItemKind> = r.tu.items.iter().map(|i| &i.kind).collect();
    assert!(matches!(kinds[1], ItemKind::Using(Using::NamespaceAlias { name, target }) if name.name == "ab" && target.segments.len() == 2));
    assert!(matches!(kinds[2], ItemKind::Using(Using::Directive(p)) if p.last().name == "a"));
    assert!(matches!(kinds[3], ItemKind::Using(Using::Decl(p)) if p.segments.len() == 3));
    let g = function(&r, "g");
    assert!(matches!(g.body.stmts[0].kind, StmtKind::Using(Using::NamespaceAlias { .. })));
    assert!(matches!(g.body.stmts[1].kind, StmtKind::Using(Using::Directive(_))));
    assert!(matches!(g.body.stmts[2].kind, StmtKind::Using(Using::Decl(_))));
    // `ab::T t{1};` is a declaration: the alias names the type.
    assert!(matches!(g.body.stmts[3].kind, StmtKind::Decl(_)));
    assert!(matches!(g.body.stmts[4].kind, StmtKind::Decl(_)));
}

#[test]
fn extended_lambdas_in_host_code_are_refused() {
    let src = "template <class F> __global__ void k(F f) { f(1); }\n\
               int main() {\n  auto f = [=] __device__ (int i) { return i; };\n  return 0;\n}\n";
    assert_eq!(first_error(src), "test.cu:3:16: extended __device__ lambdas in host code are not supported yet");
    let src2 = "int main() {\n  auto f = [] __host__ __device__ (int i) { return i; };\n  return 0;\n}\n";
    assert_eq!(first_error(src2), "test.cu:2:24: extended __device__ lambdas in host code are not supported yet");
    // A plain host lambda is host code's business.
    let r = parse_cu("int main() {\n  auto f = [](int i) { return i; };\n  return f(0);\n}\n");
    assert!(r.diagnostics.is_empty());
}

#[test]
fn lambda_errors() {
    assert_eq!(
        first_error("__device__ void f() {\n  auto g = [](int x) mutable x;\n}\n"),
        "test.cu:2:30: expected '{' to begin the body of the lambda before 'x'"
    );
}

#[test]
fn host_constexpr_functions_are_parsed() {
    let r = parse_ok("constexpr int sq(int x) { return x * x; }\nint host(int x) { return x; }\nstatic_assert(sq(3) == 9, \"\");\n");
    assert!(matches!(r.tu.items[0].kind, ItemKind::FunctionDef(_)));
    assert!(matches!(r.tu.items[1].kind, ItemKind::Skipped { .. }));
}
