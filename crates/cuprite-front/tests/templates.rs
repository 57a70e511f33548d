//! C++ templates in the AST: parameter lists, templated items, specializations,
//! template-ids in types and expressions, packs and folds, and errors.

mod common;
use common::*;
use cuprite_front::ast::*;

/// The `n`th top-level item, which must be a template: its parameters and inner item.
fn template(r: &cuprite_front::ParseResult, n: usize) -> (&Vec<TemplateParam>, &Item) {
    match &r.tu.items[n].kind {
        ItemKind::Template { params, item } => (params, item),
        other => panic!("item {n} is not a template: {other:?}"),
    }
}

fn fn_def(item: &Item) -> &FunctionDef {
    match &item.kind {
        ItemKind::FunctionDef(f) => f,
        other => panic!("not a function definition: {other:?}"),
    }
}

fn record(item: &Item) -> &RecordSpec {
    match &item.kind {
        ItemKind::Decl(Declaration { spec: DeclSpec { ty: TypeSpec::Record(r), .. }, .. }) => r,
        other => panic!("not a record declaration: {other:?}"),
    }
}

fn path_text(p: &Path) -> String {
    p.segments.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join("::")
}

fn named(spec: &DeclSpec) -> &Path {
    match &spec.ty {
        TypeSpec::Named(p) => p,
        other => panic!("not a named type: {other:?}"),
    }
}

fn ret_expr(f: &FunctionDef, n: usize) -> &Expr {
    match &f.body.stmts[n].kind {
        StmtKind::Return(Some(e)) => e,
        StmtKind::Expr(e) => e,
        other => panic!("not a return or expression statement: {other:?}"),
    }
}

#[test]
fn parameter_lists() {
    let r = parse_ok(
        "template <typename T, class U = int, int N, unsigned M = 4, typename... Ts, int... Is,\n\
         template <class> class TT, auto V, template <class, class> class UU = Pair, class = void>\n\
         struct S;\n\
         template <class A, class B> struct Pair;\n",
    );
    let (params, item) = template(&r, 0);
    let names: Vec<Option<&str>> = params.iter().map(|p| p.name.as_ref().map(|n| n.name.as_str())).collect();
    assert_eq!(names, vec![Some("T"), Some("U"), Some("N"), Some("M"), Some("Ts"), Some("Is"), Some("TT"), Some("V"), Some("UU"), None]);
    assert!(matches!(params[0].kind, TemplateParamKind::Type { default: None }));
    match &params[1].kind {
        TemplateParamKind::Type { default: Some(t) } => assert!(matches!(t.spec.ty, TypeSpec::Builtin(BuiltinType::Int))),
        other => panic!("{other:?}"),
    }
    match &params[2].kind {
        TemplateParamKind::NonType { ty, default: None } => assert!(matches!(ty.spec.ty, TypeSpec::Builtin(BuiltinType::Int))),
        other => panic!("{other:?}"),
    }
    match &params[3].kind {
        TemplateParamKind::NonType { ty, default: Some(Expr { kind: ExprKind::IntLit { value: 4, .. }, .. }) } => {
            assert!(matches!(ty.spec.ty, TypeSpec::Builtin(BuiltinType::UInt)))
        }
        other => panic!("{other:?}"),
    }
    assert!(params[4].pack && matches!(params[4].kind, TemplateParamKind::Type { .. }));
    assert!(params[5].pack && matches!(params[5].kind, TemplateParamKind::NonType { .. }));
    match &params[6].kind {
        TemplateParamKind::Template { params: inner, default: None } => assert_eq!(inner.len(), 1),
        other => panic!("{other:?}"),
    }
    match &params[7].kind {
        TemplateParamKind::NonType { ty, .. } => assert!(matches!(ty.spec.ty, TypeSpec::Auto)),
        other => panic!("{other:?}"),
    }
    match &params[8].kind {
        TemplateParamKind::Template { params: inner, default: Some(p) } => {
            assert_eq!(inner.len(), 2);
            assert_eq!(path_text(p), "Pair");
        }
        other => panic!("{other:?}"),
    }
    assert!(params[9].name.is_none());
    assert_eq!(record(item).name.as_ref().unwrap().name, "S");
    assert!(record(item).members.is_none());
}

#[test]
fn defaults_with_greater_than_and_earlier_parameters() {
    let r = parse_ok("template <class T, int N = (3 > 2), class U = T> struct S { T a[N]; U u; };\n");
    let (params, _) = template(&r, 0);
    assert_eq!(params.len(), 3);
    match &params[1].kind {
        TemplateParamKind::NonType { default: Some(e), .. } => {
            assert!(matches!(e.kind, ExprKind::Binary { op: BinOp::Gt, .. }))
        }
        other => panic!("{other:?}"),
    }
    match &params[2].kind {
        TemplateParamKind::Type { default: Some(t) } => assert_eq!(path_text(named(&t.spec)), "T"),
        other => panic!("{other:?}"),
    }
}

#[test]
fn function_templates_with_cuda_qualifiers() {
    let r = parse_ok(
        "template <typename T> __device__ T sq(T x) { return x * x; }\n\
         template <typename T, int BLOCK> __global__ void __launch_bounds__(BLOCK) k(T *p, int n) {\n\
           __shared__ T tile[BLOCK];\n\
           tile[threadIdx.x] = p[threadIdx.x];\n\
           __syncthreads();\n\
           p[threadIdx.x] = sq<T>(tile[BLOCK - 1 - threadIdx.x]);\n\
         }\n\
         template <class T> __host__ __device__ inline T clamp01(T v);\n",
    );
    let (params, item) = template(&r, 0);
    assert_eq!(params.len(), 1);
    let f = fn_def(item);
    assert!(f.spec.cuda.device);
    assert_eq!(path_text(named(&f.spec)), "T");
    let (params, item) = template(&r, 1);
    assert_eq!(params.len(), 2);
    let k = fn_def(item);
    assert!(k.spec.cuda.global);
    assert_eq!(k.body.stmts.len(), 4);
    // `sq<T>(...)`: a call whose callee is a template-id.
    let StmtKind::Expr(Expr { kind: ExprKind::Assign { rhs, .. }, .. }) = &k.body.stmts[3].kind else { panic!() };
    let ExprKind::Call { callee, .. } = &rhs.kind else { panic!("{rhs:?}") };
    let ExprKind::Name(p) = &callee.kind else { panic!() };
    assert_eq!(path_text(p), "sq");
    let args = p.segment_args(0).expect("template arguments");
    assert!(matches!(&args[0], TemplateArg::Type(t) if path_text(named(&t.spec)) == "T"));
    let (_, item) = template(&r, 2);
    let ItemKind::Decl(d) = &item.kind else { panic!() };
    assert!(d.spec.cuda.host && d.spec.cuda.device);
}

#[test]
fn class_templates_members_and_out_of_class_definitions() {
    let r = parse_ok(
        "template <class T, int N>\n\
         struct Vec {\n\
           typedef T value_type;\n\
           static const int size = N;\n\
           T v[N];\n\
           struct Iter { T *p; };\n\
           __device__ T dot(const Vec<T, N> &o) const;\n\
           __device__ Vec operator+(const Vec &o) const { Vec r; return r; }\n\
           template <class U> __device__ Vec<U, N> cast() const;\n\
         };\n\
         template <class T, int N>\n\
         __device__ T Vec<T, N>::dot(const Vec<T, N> &o) const { T s = 0; for (int i = 0; i < N; ++i) s += v[i] * o.v[i]; return s; }\n\
         template <class T, int N> template <class U>\n\
         __device__ Vec<U, N> Vec<T, N>::cast() const { Vec<U, N> r; return r; }\n\
         template <class T, int N> const int Vec<T, N>::size;\n\
         __device__ float use(Vec<float, 3> a) { Vec<float, 3>::value_type x = a.dot(a); return x; }\n",
    );
    let (_, item) = template(&r, 0);
    let rec = record(item);
    let members = rec.members.as_ref().unwrap();
    assert_eq!(members.len(), 7);
    assert!(matches!(&members[6], Member::Template { params, member, .. } if params.len() == 1 && matches!(**member, Member::FunctionDecl(_))));
    // Out-of-class member definition: the declarator name carries the arguments.
    let (_, item) = template(&r, 1);
    let f = fn_def(item);
    let name = f.declarator.name.as_ref().unwrap();
    assert_eq!(path_text(name), "Vec::dot");
    assert_eq!(name.segment_args(0).map(|a| a.len()), Some(2));
    assert!(name.segment_args(1).is_none());
    // Member template of a class template: two nested template items.
    let (outer, item) = template(&r, 2);
    assert_eq!(outer.len(), 2);
    let ItemKind::Template { params: inner, item } = &item.kind else { panic!() };
    assert_eq!(inner.len(), 1);
    assert_eq!(path_text(fn_def(item).declarator.name.as_ref().unwrap()), "Vec::cast");
    // Static member definition.
    let (_, item) = template(&r, 3);
    let ItemKind::Decl(d) = &item.kind else { panic!() };
    assert!(d.declarators[0].declarator.name.as_ref().unwrap().has_template_args());
    // A use: `Vec<float, 3>` as a type, `Vec<float, 3>::value_type` as a nested type.
    let f = function(&r, "use");
    let p = &f.declarator.derived[0];
    let Derived::Function(fd) = p else { panic!() };
    let t = named(&fd.params[0].spec);
    let args = t.segment_args(0).unwrap();
    assert!(matches!(&args[0], TemplateArg::Type(TypeName { spec: DeclSpec { ty: TypeSpec::Builtin(BuiltinType::Float), .. }, .. })));
    assert!(matches!(&args[1], TemplateArg::Expr(Expr { kind: ExprKind::IntLit { value: 3, .. }, .. })));
    let StmtKind::Decl(d) = &f.body.stmts[0].kind else { panic!("{:?}", f.body.stmts[0]) };
    assert_eq!(path_text(named(&d.spec)), "Vec::value_type");
}

#[test]
fn specializations_and_instantiations() {
    let r = parse_ok(
        "template <class T> struct S { static const int value = 0; };\n\
         template <> struct S<float> { static const int value = 1; };\n\
         template <class T> struct S<T*> { static const int value = 2; };\n\
         template <class T> __device__ T f(T x) { return x; }\n\
         template <> __device__ float f<float>(float x) { return -x; }\n\
         template <> __device__ double f(double x) { return x; }\n\
         template <class T> __global__ void k(T *p) { *p = f(*p); }\n\
         template __global__ void k<float>(float *);\n\
         template struct S<int>;\n\
         extern template struct S<double>;\n",
    );
    let (p, item) = template(&r, 1);
    assert!(p.is_empty());
    let rec = record(item);
    assert!(matches!(rec.args.as_deref(), Some([TemplateArg::Type(_)])));
    let (p, item) = template(&r, 2);
    assert_eq!(p.len(), 1);
    let rec = record(item);
    let Some([TemplateArg::Type(t)]) = rec.args.as_deref() else { panic!() };
    assert!(matches!(t.declarator.derived.as_slice(), [Derived::Pointer { .. }]));
    let (p, item) = template(&r, 4);
    assert!(p.is_empty());
    assert!(fn_def(item).declarator.name.as_ref().unwrap().segment_args(0).is_some());
    let (p, item) = template(&r, 5);
    assert!(p.is_empty());
    assert!(!fn_def(item).declarator.name.as_ref().unwrap().has_template_args());
    let ItemKind::ExplicitInstantiation { is_extern: false, item } = &r.tu.items[7].kind else { panic!() };
    let ItemKind::Decl(d) = &item.kind else { panic!() };
    assert!(d.spec.cuda.global);
    assert!(d.declarators[0].declarator.name.as_ref().unwrap().has_template_args());
    assert!(matches!(&r.tu.items[8].kind, ItemKind::ExplicitInstantiation { is_extern: false, .. }));
    assert!(matches!(&r.tu.items[9].kind, ItemKind::ExplicitInstantiation { is_extern: true, .. }));
}

#[test]
fn alias_and_variable_templates() {
    let r = parse_ok(
        "template <class T> using Ptr = T*;\n\
         template <class T> constexpr T pi = T(3.14159);\n\
         __device__ float g(Ptr<float> p) { return *p * pi<float>; }\n",
    );
    let (_, item) = template(&r, 0);
    let ItemKind::Decl(d) = &item.kind else { panic!() };
    assert_eq!(d.spec.storage, Some(Storage::Typedef));
    assert_eq!(d.declarators[0].declarator.name.as_ref().unwrap().last().name, "Ptr");
    let (_, item) = template(&r, 1);
    let ItemKind::Decl(d) = &item.kind else { panic!() };
    assert!(d.spec.is_constexpr);
    let f = function(&r, "g");
    let Derived::Function(fd) = &f.declarator.derived[0] else { panic!() };
    assert!(named(&fd.params[0].spec).has_template_args());
    let ExprKind::Binary { rhs, .. } = &ret_expr(f, 0).kind else { panic!() };
    let ExprKind::Name(p) = &rhs.kind else { panic!("{rhs:?}") };
    assert_eq!(p.segment_args(0).map(|a| a.len()), Some(1));
}

#[test]
fn dependent_names() {
    let r = parse_ok(
        "template <class T> struct Outer { template <class U> struct Inner { typedef U type; }; typedef T value_type; };\n\
         template <class T> __device__ typename T::value_type first(T c) {\n\
           typename T::value_type v = c.data[0];\n\
           typename Outer<T>::template Inner<int>::type w = 0;\n\
           return v + w + T::scale + Outer<T>::value_type(1);\n\
         }\n",
    );
    let (_, item) = template(&r, 1);
    let f = fn_def(item);
    assert_eq!(path_text(named(&f.spec)), "T::value_type");
    let StmtKind::Decl(d) = &f.body.stmts[1].kind else { panic!() };
    let p = named(&d.spec);
    assert_eq!(path_text(p), "Outer::Inner::type");
    assert!(p.segment_args(0).is_some() && p.segment_args(1).is_some() && p.segment_args(2).is_none());
    let ExprKind::Binary { lhs, rhs, .. } = &ret_expr(f, 2).kind else { panic!() };
    let ExprKind::Call { callee, .. } = &rhs.kind else { panic!("{rhs:?}") };
    assert!(matches!(&callee.kind, ExprKind::Name(p) if path_text(p) == "Outer::value_type" && p.has_template_args()));
    let ExprKind::Binary { rhs, .. } = &lhs.kind else { panic!() };
    assert!(matches!(&rhs.kind, ExprKind::Name(p) if path_text(p) == "T::scale"));
}

#[test]
fn template_id_versus_less_than() {
    let prelude = "template <class T> __device__ T tf(T x);\n\
                   template <int N> struct C { static const int value = N; };\n\
                   __device__ int a, b, c;\n";
    // `a < b > c` with `a` a variable: comparisons.
    let e = expr_with("a < b > c", prelude);
    assert!(matches!(e.kind, ExprKind::Binary { op: BinOp::Gt, .. }));
    // `tf<int>(b)`: a template-id.
    let e = expr_with("tf<int>(b)", prelude);
    let ExprKind::Call { callee, .. } = &e.kind else { panic!() };
    assert!(matches!(&callee.kind, ExprKind::Name(p) if p.has_template_args()));
    // `C<(a > b)>::value` and `C<3>::value < c`.
    let e = expr_with("C<(a > b)>::value", prelude);
    let ExprKind::Name(p) = &e.kind else { panic!() };
    let [TemplateArg::Expr(arg)] = p.segment_args(0).unwrap() else { panic!() };
    assert!(matches!(arg.kind, ExprKind::Binary { op: BinOp::Gt, .. }));
    let e = expr_with("C<3>::value < c", prelude);
    assert!(matches!(e.kind, ExprKind::Binary { op: BinOp::Lt, .. }));
    // `C<a < 3>`... is `C<(a < 3)>` only with parentheses; `>>` closes two lists.
    let e = expr_with("C<C<1>::value>::value >> 1", prelude);
    let ExprKind::Binary { op: BinOp::Shr, lhs, .. } = &e.kind else { panic!("{e:?}") };
    assert!(matches!(&lhs.kind, ExprKind::Name(p) if p.has_template_args()));
}

#[test]
fn double_angle_closes_two_lists() {
    let r = parse_ok(
        "template <class T> struct Box { T v; };\n\
         template <class T, class U> struct Two { T t; U u; };\n\
         __device__ int g() {\n\
           Box<Box<int>> a;\n\
           Two<Box<int>, Box<Box<float>>> b;\n\
           int x = static_cast<Box<int>>(a.v).v >> 2;\n\
           return x;\n\
         }\n",
    );
    let f = function(&r, "g");
    let StmtKind::Decl(d) = &f.body.stmts[0].kind else { panic!() };
    let [TemplateArg::Type(inner)] = named(&d.spec).segment_args(0).unwrap() else { panic!() };
    assert!(named(&inner.spec).has_template_args());
    let StmtKind::Decl(d) = &f.body.stmts[1].kind else { panic!() };
    assert_eq!(named(&d.spec).segment_args(0).unwrap().len(), 2);
    let StmtKind::Decl(d) = &f.body.stmts[2].kind else { panic!() };
    let Some(Initializer::Expr(e)) = &d.declarators[0].init else { panic!() };
    assert!(matches!(e.kind, ExprKind::Binary { op: BinOp::Shr, .. }));
}

#[test]
fn packs_and_folds() {
    let r = parse_ok(
        "template <class... Ts> struct Tuple {};\n\
         template <int... Is> struct Ints {};\n\
         template <class T> __device__ T id(T x) { return x; }\n\
         template <class... Ts> __device__ int count(Ts... args) { return sizeof...(Ts) + sizeof...(args); }\n\
         template <class... Ts> __device__ auto sum(const Ts &... xs) { return (xs + ...); }\n\
         template <class... Ts> __device__ bool all(Ts... xs) { return (... && xs); }\n\
         template <class... Ts> __device__ int total(Ts... xs) { return (0 + ... + xs); }\n\
         template <class... Ts> __device__ int fwd(Ts... xs) { Tuple<Ts...> t; Ints<sizeof(Ts)...> i; int a[] = {id(xs)...}; (void)(id(xs), ...); return count(xs...); }\n",
    );
    let (params, item) = template(&r, 3);
    assert!(params[0].pack);
    let f = fn_def(item);
    let Derived::Function(fd) = &f.declarator.derived[0] else { panic!() };
    assert!(fd.params[0].declarator.pack);
    let ExprKind::Binary { lhs, rhs, .. } = &ret_expr(f, 0).kind else { panic!() };
    assert!(matches!(&lhs.kind, ExprKind::SizeofPack(id) if id.name == "Ts"));
    assert!(matches!(&rhs.kind, ExprKind::SizeofPack(id) if id.name == "args"));
    let (_, item) = template(&r, 4);
    let f = fn_def(item);
    let Derived::Function(fd) = &f.declarator.derived[0] else { panic!() };
    assert!(fd.params[0].declarator.pack);
    assert!(matches!(fd.params[0].declarator.derived.as_slice(), [Derived::Reference { rvalue: false }]));
    assert!(matches!(&ret_expr(f, 0).kind, ExprKind::Fold { op: BinOp::Add, lhs: Some(_), rhs: None }));
    let (_, item) = template(&r, 5);
    assert!(matches!(&ret_expr(fn_def(item), 0).kind, ExprKind::Fold { op: BinOp::LogAnd, lhs: None, rhs: Some(_) }));
    let (_, item) = template(&r, 6);
    let ExprKind::Fold { op: BinOp::Add, lhs: Some(init), rhs: Some(pack) } = &ret_expr(fn_def(item), 0).kind else { panic!() };
    assert!(matches!(init.kind, ExprKind::IntLit { value: 0, .. }));
    assert!(matches!(&pack.kind, ExprKind::Name(p) if path_text(p) == "xs"));
    let (_, item) = template(&r, 7);
    let f = fn_def(item);
    let StmtKind::Decl(d) = &f.body.stmts[0].kind else { panic!() };
    assert!(matches!(named(&d.spec).segment_args(0).unwrap(), [TemplateArg::Pack(b)] if matches!(**b, TemplateArg::Type(_))));
    let StmtKind::Decl(d) = &f.body.stmts[1].kind else { panic!() };
    assert!(matches!(named(&d.spec).segment_args(0).unwrap(), [TemplateArg::Pack(b)] if matches!(**b, TemplateArg::Expr(_))));
    let StmtKind::Decl(d) = &f.body.stmts[2].kind else { panic!() };
    let Some(Initializer::List(items, _)) = &d.declarators[0].init else { panic!() };
    assert!(matches!(&items[0].init, Initializer::Expr(Expr { kind: ExprKind::PackExpansion(_), .. })));
    let StmtKind::Expr(Expr { kind: ExprKind::Cast { expr, .. }, .. }) = &f.body.stmts[3].kind else { panic!() };
    assert!(matches!(&expr.kind, ExprKind::Fold { op: BinOp::Comma, lhs: Some(_), rhs: None }));
    let ExprKind::Call { args, .. } = &ret_expr(f, 4).kind else { panic!() };
    assert!(matches!(&args[0].kind, ExprKind::PackExpansion(_)));
}

#[test]
fn member_template_ids() {
    let r = parse_ok(
        "struct Getter { template <int I> __device__ int get() const { return I; } };\n\
         template <class T> __device__ int h(const T &t, const Getter &g) { return t.template get<1>() + g.get<2>(); }\n",
    );
    let (_, item) = template(&r, 1);
    let ExprKind::Binary { lhs, rhs, .. } = &ret_expr(fn_def(item), 0).kind else { panic!() };
    for e in [lhs, rhs] {
        let ExprKind::Call { callee, .. } = &e.kind else { panic!() };
        assert!(matches!(&callee.kind, ExprKind::MemberTemplateId { member, args, .. } if member.name == "get" && args.len() == 1));
    }
}

#[test]
fn trailing_return_and_decltype() {
    let r = parse_ok(
        "template <class T> __device__ auto twice(T a) -> decltype(a * 2) { return a * 2; }\n\
         template <class T, class U> __device__ auto add(T a, U b) -> decltype(a + b);\n",
    );
    let (_, item) = template(&r, 0);
    let f = fn_def(item);
    assert!(matches!(f.spec.ty, TypeSpec::Auto));
    let Derived::Function(fd) = &f.declarator.derived[0] else { panic!() };
    let t = fd.trailing_return.as_ref().expect("trailing return type");
    assert!(matches!(&t.spec.ty, TypeSpec::Decltype(e) if matches!(e.kind, ExprKind::Binary { op: BinOp::Mul, .. })));
}

#[test]
fn host_class_templates_and_host_function_templates() {
    // Templates without CUDA qualifiers: class templates are parsed (device code uses
    // traits), host function templates are skipped as host functions are.
    let r = parse_ok(
        "template <class T> struct is_float { static const bool value = false; };\n\
         template <> struct is_float<float> { static const bool value = true; };\n\
         template <class T> void host_fill(std::vector<T> &v) { for (auto &x : v) x = T(); }\n\
         template <class T> __global__ void k(T *p) { if (is_float<T>::value) *p = 1; }\n",
    );
    template(&r, 0);
    template(&r, 1);
    assert!(matches!(&r.tu.items[2].kind, ItemKind::Skipped { reason: SkipReason::HostOnly, names, .. } if names == &["host_fill"]));
    template(&r, 3);
}

#[test]
fn names_declared_by_templates_are_known() {
    // After the template, `Box<int>` is a type in a declaration and `make<int>` a
    // template-id in an expression; inside the template, `T` is a type.
    let r = parse_ok(
        "namespace ns { template <class T> struct Box { T v; }; template <class T> __device__ Box<T> make(T v) { Box<T> b; b.v = v; return b; } }\n\
         __device__ int g() { ns::Box<int> b = ns::make<int>(1); return b.v; }\n",
    );
    let f = function(&r, "g");
    let StmtKind::Decl(d) = &f.body.stmts[0].kind else { panic!() };
    assert_eq!(path_text(named(&d.spec)), "ns::Box");
    let Some(Initializer::Expr(Expr { kind: ExprKind::Call { callee, .. }, .. })) = &d.declarators[0].init else { panic!() };
    assert!(matches!(&callee.kind, ExprKind::Name(p) if path_text(p) == "ns::make" && p.has_template_args()));
}

#[test]
fn malformed_templates_are_reported_with_locations() {
    let cases = [
        ("template <typename T> __device__ T f(T x) { return x +; }\n", 1),
        ("template <class T> __device__ T f(T x);\n__device__ int g() { return f<int(1); }\n", 2),
        ("template <class T> __device__ T f(T x) { return x }\n", 1),
        ("template <class T, int N = > __device__ T f(T x) { return x; }\n", 1),
        ("template <class T> __global__ void k(Vec<T> v) { }\n", 1),
    ];
    for (src, line) in cases {
        let r = parse_cu(src);
        assert!(!r.diagnostics.is_empty(), "{src}: no error");
        let l = r.source_map.lookup(r.diagnostics[0].span.lo);
        assert_eq!(l.line, line, "{src}: {}", r.diagnostics[0].message);
    }
    // A host template that fails to parse is skipped silently, keeping its error.
    let r = parse_cu("template <class T> struct Bad { T x = ; };\n__global__ void k() { }\n");
    assert!(r.diagnostics.is_empty());
    assert!(matches!(&r.tu.items[0].kind, ItemKind::Skipped { reason: SkipReason::HostOnly, error: Some(_), .. }));
    function(&r, "k");
}

#[test]
fn the_statement_after_an_error_in_a_device_template_survives() {
    let r = parse_cu("template <class T> __device__ T f(T x) {\n  x = = 1;\n  return x;\n}\n");
    assert_eq!(r.diagnostics.len(), 1);
    let (_, item) = template(&r, 0);
    assert_eq!(fn_def(item).body.stmts.len(), 1);
}

#[test]
fn system_header_templates_are_skipped() {
    let r = parse_ok(
        "# 1 \"/usr/include/c++/foo.h\" 1 3\n\
         namespace std { template <class T> struct vec { T *p; }; template <class T> T max(T a, T b) { return a < b ? b : a; } }\n\
         # 3 \"test.cu\" 2\n\
         __device__ int g(int a) { return a; }\n",
    );
    let ItemKind::Namespace { items, .. } = &r.tu.items[0].kind else { panic!() };
    assert!(items.iter().all(|i| matches!(i.kind, ItemKind::Skipped { .. })));
    function(&r, "g");
}

#[test]
fn no_panic_on_garbage() {
    let pieces = [
        "template", "<", ">", ">>", "typename", "class", "...", "T", "::", "template <", "(", ")", "{", "}", ";", ",",
        "=", "int", "__device__", "S<", "f<", "sizeof...", "using", "struct S", "<<", ">=", ">>=", "operator", "x",
    ];
    let mut seed = 12345u64;
    for _ in 0..400 {
        let mut src = String::from("template <class T> struct S { };\ntemplate <class T> __device__ T f(T);\n");
        for _ in 0..30 {
            seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            src.push_str(pieces[(seed >> 33) as usize % pieces.len()]);
            src.push(' ');
        }
        let _ = parse_cu(&src);
    }
}
