//! C++ in device code: classes with members, constructors, operators; C++ expressions.

mod common;
use common::*;
use cuprite_front::ast::*;

#[test]
fn class_members() {
    let r = parse_ok(
        "struct V {\n\
           float x, y;\n\
           static const int dims = 2;\n\
         public:\n\
           __device__ V() : x(0), y{0} {}\n\
           __device__ V(float a, float b) : x(a), y(b) {}\n\
           __device__ ~V() {}\n\
           __device__ V operator+(const V &o) const { return V(x + o.x, y + o.y); }\n\
           __device__ float &operator[](int i) { return i ? y : x; }\n\
           __device__ float len2() const;\n\
           __device__ operator bool() const { return x != 0; }\n\
           V &operator=(const V &) = default;\n\
           struct Inner { int q; };\n\
           typedef float scalar;\n\
           using vec = V;\n\
         private:\n\
           int hidden;\n\
         };\n\
         __device__ float V::len2() const { return x * x + y * y; }\n\
         __device__ V::scalar dot(V a, V b) { V::Inner in; return a.x * b.x + this_is_fine(); }\n",
    );
    let ItemKind::Decl(d) = &r.tu.items[0].kind else { panic!() };
    let TypeSpec::Record(rec) = &d.spec.ty else { panic!() };
    let members = rec.members.as_ref().unwrap();
    let funcs: Vec<String> = members
        .iter()
        .filter_map(|m| match m {
            Member::Function(f) => Some(f.declarator.name.as_ref().unwrap().last().name.clone()),
            Member::FunctionDecl(d) => Some(format!("decl {}", d.declarators[0].declarator.name.as_ref().unwrap().last().name)),
            _ => None,
        })
        .collect();
    assert_eq!(funcs, vec!["V", "V", "~V", "operator+", "operator[]", "decl len2", "operator bool", "decl operator="]);
    let Member::Function(ctor) = &members[4] else { panic!("{:?}", members[4]) };
    assert!(matches!(ctor.spec.ty, TypeSpec::None));
    assert_eq!(ctor.ctor_inits.len(), 2);
    assert_eq!(ctor.ctor_inits[0].0.name, "x");
    let Member::Function(plus) = &members[6] else { panic!() };
    let Some(Derived::Function(fd)) = plus.declarator.derived.first() else { panic!() };
    assert!(fd.cv.is_const);
    assert_eq!(members.iter().filter(|m| matches!(m, Member::Access(..))).count(), 2);
    let len2 = function(&r, "len2");
    assert_eq!(len2.declarator.name.as_ref().unwrap().segments.len(), 2);
}

#[test]
fn host_member_functions_that_fail_do_not_sink_the_class() {
    let r = parse_ok(
        "struct H { int v; int get() const { return ({ v; }); } __device__ int dev() { return v; } };\n\
         __device__ int use(H h) { return h.dev(); }\n",
    );
    let ItemKind::Decl(d) = &r.tu.items[0].kind else { panic!() };
    let TypeSpec::Record(rec) = &d.spec.ty else { panic!() };
    let Member::Function(get) = &rec.members.as_ref().unwrap()[1] else { panic!() };
    assert!(get.body.stmts.is_empty(), "host body that failed is dropped");
}

#[test]
fn errors_in_device_members_are_reported() {
    let r = parse_cu("struct S { __device__ int f() { return 1 } };\n");
    assert_eq!(r.diagnostics.len(), 1, "{:?}", r.diagnostics);
    assert_eq!(r.diagnostics[0].message, "expected ';' after return statement");
}

#[test]
fn precedence_and_associativity() {
    // a = b += c ? d : e || f && g | h ^ i & j == k < l << m + n * o
    let e = expr_with("a = b += c ? d : e || f && g | h ^ i & j == k < l << m + n * o", "__device__ int a,b,c,d,e,f,g,h,i,j,k,l,m,n,o;");
    let ExprKind::Assign { op: None, rhs, .. } = e.kind else { panic!() };
    let ExprKind::Assign { op: Some(BinOp::Add), rhs, .. } = rhs.kind else { panic!() };
    let ExprKind::Cond { else_, .. } = rhs.kind else { panic!() };
    let mut cur = *else_;
    for op in [BinOp::LogOr, BinOp::LogAnd, BinOp::BitOr, BinOp::BitXor, BinOp::BitAnd, BinOp::Eq, BinOp::Lt, BinOp::Shl, BinOp::Add, BinOp::Mul] {
        let ExprKind::Binary { op: got, rhs, .. } = cur.kind else { panic!("expected {op:?}") };
        assert_eq!(got, op);
        cur = *rhs;
    }
    // Left associativity and the comma operator.
    let e = expr_with("(a - b - c, d)", "__device__ int a,b,c,d;");
    let ExprKind::Binary { op: BinOp::Comma, lhs, .. } = e.kind else { panic!() };
    let ExprKind::Binary { op: BinOp::Sub, lhs, .. } = lhs.kind else { panic!() };
    assert!(matches!(lhs.kind, ExprKind::Binary { op: BinOp::Sub, .. }));
}

#[test]
fn unary_postfix_and_casts() {
    let e = expr_with("-*p++ + !~x + sizeof *p + alignof(double)", "__device__ int *p, x;");
    let s = format!("{e:?}");
    for needle in ["Neg", "Deref", "PostInc", "Not", "BitNot", "SizeofExpr", "AlignofType"] {
        assert!(s.contains(needle), "{needle} in {s}");
    }
    let e = expr_with(
        "static_cast<int>(f) + reinterpret_cast<const int *>(p)[0] + (int)s.a[1]->b",
        "struct B { int b; }; struct S2 { B *a[2]; }; __device__ float f; __device__ void *p; __device__ S2 s;",
    );
    let s = format!("{e:?}");
    assert!(s.contains("Static") && s.contains("Reinterpret") && s.contains("arrow: true"), "{s}");
}

#[test]
fn initializers() {
    let r = parse_ok(
        "struct P { int x, y; };\n\
         __device__ void f() {\n\
           int a[] = {1, 2, 3,};\n\
           P p = {.x = 1, .y = 2};\n\
           int m[2][2] = {[0] = {1, 2}, {3, 4}};\n\
           P q{1, 2};\n\
           P r(p);\n\
           P *t = &(P){3, 4};\n\
           int z = {5};\n\
         }\n",
    );
    let f = function(&r, "f");
    let init = |i: usize| match &f.body.stmts[i].kind {
        StmtKind::Decl(d) => d.declarators[0].init.clone().unwrap(),
        _ => panic!(),
    };
    assert!(matches!(init(0), Initializer::List(ref v, _) if v.len() == 3));
    let Initializer::List(v, _) = init(1) else { panic!() };
    assert!(matches!(v[1].designators[..], [Designator::Field(ref id)] if id.name == "y"));
    let Initializer::List(v, _) = init(2) else { panic!() };
    assert!(matches!(v[0].designators[..], [Designator::Index(_)]));
    assert!(matches!(init(3), Initializer::List(..)));
    assert!(matches!(init(4), Initializer::Ctor(ref a, _) if a.len() == 1));
    let Initializer::Expr(e) = init(5) else { panic!() };
    assert!(format!("{e:?}").contains("CompoundLit"));
}

#[test]
fn statements() {
    let r = parse_ok(
        "__device__ int f(int n) {\n\
           int s = 0;\n\
           for (;;) { break; }\n\
           for (int i = 0, j = n; i < j; ++i, --j) continue;\n\
           while (n--) s += n;\n\
           do { s <<= 1; } while (s < 100);\n\
           switch (n) { case 1: case 2: s = 1; break; default: s = 0; }\n\
           if (s) goto out; else s = 2;\n\
         out:\n\
           static_assert(sizeof(int) == 4, \"int\");\n\
           ;\n\
           return s;\n\
         }\n",
    );
    let kinds: Vec<String> = function(&r, "f")
        .body
        .stmts
        .iter()
        .map(|s| format!("{:?}", s.kind).split(['(', ' ', '{']).next().unwrap().to_string())
        .collect();
    assert_eq!(kinds, vec!["Decl", "For", "For", "While", "DoWhile", "Switch", "If", "Label", "Empty", "Return"]);
}

#[test]
fn enums_and_attributes() {
    let r = parse_ok(
        "enum Color { RED, GREEN = 4, BLUE };\n\
         enum class Mode : unsigned char { A = 1, B };\n\
         struct __attribute__((aligned(16))) F4 { float x, y, z, w; };\n\
         struct alignas(8) F2 { float x, y; };\n\
         __device__ __attribute__((noinline)) int g(int) __attribute__((pure));\n\
         [[nodiscard]] __device__ int h();\n",
    );
    let ItemKind::Decl(d) = &r.tu.items[1].kind else { panic!() };
    let TypeSpec::Enum(e) = &d.spec.ty else { panic!() };
    assert!(e.scoped && e.underlying.is_some() && e.enumerators.as_ref().unwrap().len() == 2);
    let ItemKind::Decl(d) = &r.tu.items[2].kind else { panic!() };
    let TypeSpec::Record(rec) = &d.spec.ty else { panic!() };
    assert_eq!(rec.attrs[0].name, "aligned");
    assert!(matches!(rec.attrs[0].args[0].kind, ExprKind::IntLit { value: 16, .. }));
    let ItemKind::Decl(d) = &r.tu.items[3].kind else { panic!() };
    let TypeSpec::Record(rec) = &d.spec.ty else { panic!() };
    assert_eq!(rec.attrs[0].name, "aligned");
}
