//! The syntax tree of a preprocessed CUDA translation unit (device view).
//!
//! The tree mirrors the source: declarations keep their specifiers and declarators as
//! written, and meaning (types, name lookup, conversions) is decided by `cuprite-sema`.
//! Every node carries a [`Span`] into the preprocessed text; `SourceMap` turns a span
//! into the user's `file:line:col`.

/// Byte range `[lo, hi)` in the preprocessed text of one translation unit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Span {
    pub lo: u32,
    pub hi: u32,
}

impl Span {
    pub fn new(lo: u32, hi: u32) -> Span {
        Span { lo, hi }
    }
    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span { lo: self.lo.min(other.lo), hi: self.hi.max(other.hi) }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub struct Ident {
    pub name: String,
    pub span: Span,
}

/// A possibly qualified name: `x`, `ns::x`, `::x`, and template-ids: `Vec<float, 3>`,
/// `ns::S<T>::type`, `Outer<T>::template Inner<U>`, `f<int>`.
#[derive(Clone, Debug)]
pub struct Path {
    pub global: bool,
    pub segments: Vec<Ident>,
    /// Template arguments, per segment. Empty when no segment has any (the common case);
    /// otherwise exactly one entry per segment: `Some(args)` where the segment is a
    /// template-id (`Vec<float>` in `Vec<float>::dot` gives `[Some([float]), None]`;
    /// `f<>` gives `Some([])`). The disambiguating `template` keyword
    /// (`T::template Inner<U>`) and `typename` are not kept: they only tell the parser how
    /// to read the tokens. See [`Path::has_template_args`].
    pub args: Vec<Option<Vec<TemplateArg>>>,
    pub span: Span,
}

impl PartialEq for Path {
    /// Paths compare by their names and the presence of template arguments (template
    /// arguments hold expressions, which have no equality).
    fn eq(&self, other: &Path) -> bool {
        self.global == other.global
            && self.segments == other.segments
            && self.args.iter().map(Option::is_some).eq(other.args.iter().map(Option::is_some))
    }
}

impl Path {
    /// A path without template arguments.
    pub fn new(global: bool, segments: Vec<Ident>, span: Span) -> Path {
        Path { global, segments, args: Vec::new(), span }
    }
    /// Some segment carries template arguments (the path names a template
    /// specialization, or something inside one).
    pub fn has_template_args(&self) -> bool {
        self.args.iter().any(Option::is_some)
    }
    /// The template arguments of segment `i`, if it is a template-id.
    pub fn segment_args(&self, i: usize) -> Option<&[TemplateArg]> {
        self.args.get(i).and_then(|a| a.as_deref())
    }
    /// The last segment: the name itself without its qualifiers.
    pub fn last(&self) -> &Ident {
        self.segments.last().expect("a path has at least one segment")
    }
}

#[derive(Clone, Debug, Default)]
pub struct TranslationUnit {
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub struct Item {
    pub kind: ItemKind,
    pub span: Span,
    /// The item comes from a system header (linemarker flag 3). Items there are parsed on
    /// a best-effort basis and failures are silent unless device code uses them.
    pub in_system_header: bool,
}

#[derive(Clone, Debug)]
pub enum ItemKind {
    /// Variables, function prototypes, typedefs, struct/union/enum definitions.
    Decl(Declaration),
    FunctionDef(FunctionDef),
    /// `inline`: an inline namespace, whose members are also members of the enclosing one.
    Namespace { name: Option<Ident>, items: Vec<Item>, inline: bool },
    /// `extern "C" { ... }` (and `extern "C" decl`, whose single item is in `items`).
    LinkageSpec { lang: String, items: Vec<Item> },
    StaticAssert { cond: Expr, message: Option<String> },
    /// A top-level item the parser did not parse: host-only code it skipped by balanced
    /// braces, or a construct it does not support (templates, for now). `names` lists the
    /// names it appears to declare, so that a later use from device code can say why the
    /// name is unavailable; `error` is the parse error, if parsing was attempted and failed.
    Skipped { names: Vec<String>, reason: SkipReason, error: Option<crate::diag::Diagnostic> },
    /// `#pragma` at file scope (text after `#pragma`).
    Pragma(String),
    /// `using namespace n;`, `using n::f;`, `namespace a = b::c;` at namespace scope.
    Using(Using),
    /// `template <params> item` (C++ template declaration). `item` is what is templated:
    /// - a function (declaration or definition, `__global__`/`__device__` ones too):
    ///   `ItemKind::FunctionDef`/`Decl`;
    /// - a class template: a `Decl` whose `spec.ty` is a `TypeSpec::Record` with members;
    /// - an out-of-class member of a class template: a `FunctionDef`/`Decl` whose
    ///   declarator name is qualified with template arguments
    ///   (`template <class T> __device__ T Vec<T>::dot(...) const {...}`,
    ///   `template <class T> int S<T>::count = 0;`);
    /// - a partial specialization: a record whose `RecordSpec::args` is `Some`
    ///   (`template <class T> struct S<T*> {...}`);
    /// - an alias template: a `Decl` with `Storage::Typedef` (`template <class T> using
    ///   Ptr = T*;`), and a variable template: a `Decl` of a variable;
    /// - another `Template`, for members of member templates
    ///   (`template <class T> template <class U> void A<T>::f(U) {...}`).
    ///
    /// `params` is empty for an explicit (full) specialization: `template <> struct
    /// S<float> {...}` (record with `args`), `template <> __device__ float f<float>(float)`
    /// (declarator name with template arguments; they may also be left to deduction:
    /// `template <> __device__ float f(float)`).
    ///
    /// Templates in user code are parsed (with or without CUDA qualifiers); templates in
    /// system headers, and user templates that fail to parse, are `Skipped`.
    Template { params: Vec<TemplateParam>, item: Box<Item> },
    /// Explicit instantiation: `template __global__ void k<float>(float*);`,
    /// `template struct S<int>;`, and with `is_extern` the explicit instantiation
    /// declaration `extern template class S<int>;`. `item` is the declaration after
    /// `template` (a `Decl`).
    ExplicitInstantiation { is_extern: bool, item: Box<Item> },
}

/// One parameter of a `template <...>` parameter list.
#[derive(Clone, Debug)]
pub struct TemplateParam {
    /// `None` for unnamed parameters (`template <class = void>`).
    pub name: Option<Ident>,
    pub kind: TemplateParamKind,
    /// A parameter pack: `typename... Ts`, `int... Is`, `template <class> class... TTs`.
    pub pack: bool,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum TemplateParamKind {
    /// `typename T` / `class T`, with its default: `class U = int`.
    Type { default: Option<TypeName> },
    /// A non-type parameter of any type: `int N`, `unsigned M = 4`, `auto V`,
    /// `const char *S`, `typename T::size_type K`. `ty` is the parameter's type (its
    /// declarator is abstract: the name is in `TemplateParam::name`).
    NonType { ty: TypeName, default: Option<Expr> },
    /// A template template parameter: `template <class> class TT`, with its own
    /// parameters and default (`= std::vector` is a template name).
    Template { params: Vec<TemplateParam>, default: Option<Path> },
}

/// One argument of a template-id (`Vec<float, 3>`, `f<int>`, `S<T*>`).
///
/// As in C++, an argument that parses as a type-id is a type (`S<T>` with `T` a type,
/// `S<int(float)>` a function type); anything else is an expression (a constant
/// expression, parsed without treating an outer `>` as an operator: `S<(a > b)>`).
/// A name the parser does not know as a type is an expression (`S<N>`); a template
/// name without arguments (a template template argument, `S<Vec>`) is a `Type` whose
/// `TypeSpec::Named` path names the template.
#[derive(Clone, Debug)]
pub enum TemplateArg {
    Type(TypeName),
    Expr(Expr),
    /// A pack expansion `X...` in the argument list: `Tuple<Ts...>`, `Ints<Is...>`,
    /// `S<Vec<Ts>...>`. Never nested.
    Pack(Box<TemplateArg>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// Contains no CUDA qualifier: host code, kept only by the host compiler.
    HostOnly,
    /// A construct the device front-end does not support yet (named in the error).
    Unsupported,
    /// Parsing failed inside a system header.
    SystemHeader,
    /// A host-side declaration (no CUDA qualifier) that device code could not check, for
    /// example a class with a `std::vector` member: its error is reported only where
    /// device code uses it (set by sema, never by the parser).
    HostDeclaration,
}

// ---------------------------------------------------------------------------------------
// Declarations

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Storage {
    Typedef,
    Static,
    Extern,
    Register,
    ThreadLocal,
}

/// CUDA execution-space and memory-space qualifiers, and function hints.
#[derive(Clone, Debug, Default)]
pub struct CudaQuals {
    pub global: bool,
    pub device: bool,
    pub host: bool,
    pub shared: bool,
    pub constant: bool,
    pub managed: bool,
    pub forceinline: bool,
    pub noinline: bool,
    /// `__launch_bounds__(max_threads [, min_blocks [, max_blocks_per_cluster]])`.
    pub launch_bounds: Option<Vec<Expr>>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cv {
    pub is_const: bool,
    pub is_volatile: bool,
}

/// The attribute the parser puts on a declarator declared `= default`.
pub const DEFAULTED_ATTR: &str = "__cuprite_defaulted";

/// `__attribute__((...))`, `__align__(n)`, `alignas(n)`, `[[...]]`.
#[derive(Clone, Debug)]
pub struct Attribute {
    pub name: String,
    pub args: Vec<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug, Default)]
pub struct DeclSpec {
    pub storage: Option<Storage>,
    pub cuda: CudaQuals,
    pub is_inline: bool,
    pub is_constexpr: bool,
    /// `virtual` (member functions; sema refuses it until virtual functions exist).
    pub is_virtual: bool,
    /// `explicit` (constructors and conversion functions).
    pub is_explicit: bool,
    pub cv: Cv,
    pub ty: TypeSpec,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

/// The type named by the specifiers, before declarators apply.
#[derive(Clone, Debug, Default)]
pub enum TypeSpec {
    /// No type specifier was written (an error in C++, except constructors).
    #[default]
    None,
    Builtin(BuiltinType),
    /// A typedef name, or a class/struct/enum name used without its keyword (C++); also
    /// a template parameter (`T`), a class or alias template specialization
    /// (`Vec<float, 3>`, `ns::S<T>::type`), and a dependent name written with
    /// `typename` (`typename T::value_type`, `typename Outer<T>::template Inner<U>`).
    Named(Path),
    /// `struct`/`union`/`class` with a name, a body, or both.
    Record(RecordSpec),
    Enum(EnumSpec),
    /// `auto`.
    Auto,
    /// `decltype(expr)`.
    Decltype(Box<Expr>),
}

/// Builtin arithmetic types, normalised from keyword combinations
/// (`unsigned long long int` → `ULongLong`, `signed` → `Int`, `long double` → `LongDouble`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BuiltinType {
    Void,
    Bool,
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
    Int128,
    UInt128,
    Float,
    Double,
    LongDouble,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordKind {
    Struct,
    Union,
    Class,
}

#[derive(Clone, Debug)]
pub struct RecordSpec {
    pub kind: RecordKind,
    pub name: Option<Ident>,
    /// Template arguments after the name: a specialization of a class template
    /// (`template <> struct S<float> {...}`, partial `template <class T> struct S<T*>`,
    /// or `template struct S<int>;`). `None` for an ordinary class or a primary template.
    pub args: Option<Vec<TemplateArg>>,
    /// `None` for `struct S` without a body (a reference or forward declaration).
    pub members: Option<Vec<Member>>,
    /// Base classes (`struct D : public B`); the C++ issue gives them meaning.
    pub bases: Vec<Path>,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Member {
    /// Data members, nested typedefs, nested records.
    Field(Declaration),
    /// Member functions and constructors defined or declared in the class body.
    /// (Parsed so that headers with classes can be read; sema may refuse them for now.)
    Function(FunctionDef),
    /// A member function declaration without a body.
    FunctionDecl(Declaration),
    /// `public:` / `private:` / `protected:`.
    Access(Span, AccessSpec),
    StaticAssert { cond: Expr, message: Option<String> },
    /// A member template: `template <class U> __device__ U to() const {...}`, a nested
    /// class template, a member alias template, or (with `params` empty) a member
    /// specialization. `member` is the templated member (a `Function`, `FunctionDecl` or
    /// `Field`), or another `Template`. See `ItemKind::Template`.
    Template { params: Vec<TemplateParam>, member: Box<Member>, span: Span },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AccessSpec {
    Public,
    Protected,
    Private,
}

#[derive(Clone, Debug)]
pub struct EnumSpec {
    pub name: Option<Ident>,
    /// `enum class` / `enum struct`.
    pub scoped: bool,
    pub underlying: Option<Box<TypeName>>,
    /// `None` for a reference to an enum without a body.
    pub enumerators: Option<Vec<Enumerator>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Enumerator {
    pub name: Ident,
    pub value: Option<Expr>,
}

/// A declarator: the declared name (if any) and the type constructors around it.
///
/// `derived[0]` is the constructor closest to the name, i.e. the *outermost* type
/// constructor. To build the declared type, start from the specifiers' type and wrap it in
/// `derived` in reverse order:
/// - `int *a[10]`   → `[Array(10), Pointer]`  → array of 10 pointers to int;
/// - `int (*p)[10]` → `[Pointer, Array(10)]`  → pointer to array of 10 ints;
/// - `int f(int)`   → `[Function(..)]`;
/// - `float *(*g)(int)` → `[Pointer, Function(..), Pointer]`.
#[derive(Clone, Debug, Default)]
pub struct Declarator {
    /// The declared name; qualified (`S::f`) for out-of-class member definitions, with
    /// template arguments for members of class templates (`Vec<T>::dot`) and function
    /// template specializations (`f<float>`).
    pub name: Option<Path>,
    /// `...` before the name: a function parameter pack (`Ts... args`, `const Ts&... xs`;
    /// only in templates). The pack's element type is what `spec` and `derived` give.
    pub pack: bool,
    pub derived: Vec<Derived>,
    pub attrs: Vec<Attribute>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Derived {
    Pointer { cv: Cv, restrict: bool },
    /// `&` (lvalue) or `&&` (rvalue) reference.
    Reference { rvalue: bool },
    /// `[n]` or `[]`.
    Array(Option<Box<Expr>>),
    Function(FunctionDeclarator),
    /// `C::*` (a pointer to member of class `C`), with its cv-qualifiers.
    MemberPointer { class: Path, cv: Cv },
}

#[derive(Clone, Debug, Default)]
pub struct FunctionDeclarator {
    pub params: Vec<Param>,
    /// `...` after the parameters.
    pub variadic: bool,
    /// `const` after the parameter list of a member function.
    pub cv: Cv,
    /// `-> T` after the parameters (the declaration's type specifier is then `auto`):
    /// `auto f(T a) -> decltype(a * 2)`. The function returns this type.
    pub trailing_return: Option<Box<TypeName>>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Param {
    pub spec: DeclSpec,
    pub declarator: Declarator,
    pub default: Option<Expr>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Declaration {
    pub spec: DeclSpec,
    pub declarators: Vec<InitDeclarator>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct InitDeclarator {
    pub declarator: Declarator,
    pub init: Option<Initializer>,
    /// `int x : 3` bit-field width (struct members only).
    pub bit_width: Option<Expr>,
}

#[derive(Clone, Debug)]
pub enum Initializer {
    /// `= expr`
    Expr(Expr),
    /// `= { ... }` or `{ ... }` (C++ list-initialization).
    List(Vec<InitItem>, Span),
    /// `T x(a, b)` (C++ direct initialization).
    Ctor(Vec<Expr>, Span),
}

#[derive(Clone, Debug)]
pub struct InitItem {
    /// C99 designators: `.x = 1`, `[2] = 3`.
    pub designators: Vec<Designator>,
    pub init: Initializer,
}

#[derive(Clone, Debug)]
pub enum Designator {
    Field(Ident),
    Index(Expr),
}

#[derive(Clone, Debug)]
pub struct FunctionDef {
    pub spec: DeclSpec,
    /// Its `derived[0]` is a `Derived::Function`.
    pub declarator: Declarator,
    /// Constructor member-initializer list: `: a(x), b(y)`.
    pub ctor_inits: Vec<(Ident, Vec<Expr>)>,
    pub body: Block,
    pub span: Span,
}

/// A type written in an expression: casts, `sizeof(T)`, template arguments.
#[derive(Clone, Debug)]
pub struct TypeName {
    pub spec: DeclSpec,
    /// An abstract declarator (its `name` is `None`).
    pub declarator: Declarator,
    pub span: Span,
}

// ---------------------------------------------------------------------------------------
// Statements

#[derive(Clone, Debug, Default)]
pub struct Block {
    pub stmts: Vec<Stmt>,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Expr(Expr),
    Decl(Declaration),
    Block(Block),
    If { cond: Expr, then: Box<Stmt>, else_: Option<Box<Stmt>> },
    While { cond: Expr, body: Box<Stmt> },
    DoWhile { body: Box<Stmt>, cond: Expr },
    /// `init` is a declaration or expression statement (or `None` for `for (;...)`).
    For { init: Option<Box<Stmt>>, cond: Option<Expr>, step: Option<Expr>, body: Box<Stmt> },
    Switch { cond: Expr, body: Box<Stmt> },
    /// `case v:` labels the statement that follows it.
    Case { value: Expr, body: Box<Stmt> },
    Default { body: Box<Stmt> },
    Break,
    Continue,
    Return(Option<Expr>),
    Goto(Ident),
    Label { label: Ident, body: Box<Stmt> },
    StaticAssert { cond: Expr, message: Option<String> },
    /// `#pragma ...` inside a function (text after `#pragma`), e.g. `unroll 4`.
    Pragma(String),
    Empty,
    /// `for (decl : range) body`: `decl` has one declarator and no initializer.
    RangeFor { decl: Declaration, range: Expr, body: Box<Stmt> },
    /// `using namespace n;`, `using n::f;`, `namespace a = b::c;` in a block.
    Using(Using),
    /// `if constexpr (cond) then else`: only the branch the constant selects is checked.
    IfConstexpr { cond: Expr, then: Box<Stmt>, else_: Option<Box<Stmt>> },
    /// `asm [volatile] ("template" : outputs : inputs : clobbers);` (GNU extended asm).
    Asm(Box<AsmStmt>),
}

/// An inline assembly statement; in device code its template is PTX.
#[derive(Clone, Debug)]
pub struct AsmStmt {
    pub volatile: bool,
    /// The template, string literals concatenated, escapes decoded.
    pub template: String,
    pub outputs: Vec<AsmOperand>,
    pub inputs: Vec<AsmOperand>,
    pub clobbers: Vec<String>,
}

/// `"=r"(x)`: a constraint and its expression.
#[derive(Clone, Debug)]
pub struct AsmOperand {
    pub constraint: String,
    pub expr: Expr,
    pub span: Span,
}

/// A using-directive, using-declaration or namespace alias (file or block scope).
#[derive(Clone, Debug)]
pub enum Using {
    /// `using namespace a::b;`
    Directive(Path),
    /// `using a::b::name;`
    Decl(Path),
    /// `namespace name = a::b;`
    NamespaceAlias { name: Ident, target: Path },
}

/// A lambda expression. `params` is `None` when the parameter list is left out (`[]{}`).
#[derive(Clone, Debug)]
pub struct Lambda {
    /// `[=]` (`Some(false)`) or `[&]` (`Some(true)`).
    pub default_capture: Option<bool>,
    pub captures: Vec<Capture>,
    pub params: Option<FunctionDeclarator>,
    pub is_mutable: bool,
    pub is_constexpr: bool,
    /// `__device__` / `__host__` written on the lambda (extended lambdas).
    pub cuda: CudaQuals,
    pub ret: Option<Box<TypeName>>,
    pub body: Block,
    /// The introducer `[...]`.
    pub intro_span: Span,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum Capture {
    /// `x` (by copy) or `&x`.
    Var { name: Ident, by_ref: bool },
    /// `this` (the object by reference) or `*this` (by copy).
    This { copy: bool, span: Span },
    /// `y = expr` or `&y = expr`.
    Init { name: Ident, by_ref: bool, init: Initializer },
}

// ---------------------------------------------------------------------------------------
// Expressions

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub span: Span,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IntSuffix {
    pub unsigned: bool,
    /// 0: none, 1: `l`, 2: `ll`.
    pub long: u8,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FloatSuffix {
    None,
    F,
    L,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnOp {
    Neg,
    Plus,
    /// `!`
    Not,
    /// `~`
    BitNot,
    Deref,
    AddrOf,
    PreInc,
    PreDec,
    PostInc,
    PostDec,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BinOp {
    Mul,
    Div,
    Rem,
    Add,
    Sub,
    Shl,
    Shr,
    Lt,
    Gt,
    Le,
    Ge,
    Eq,
    Ne,
    BitAnd,
    BitXor,
    BitOr,
    LogAnd,
    LogOr,
    Comma,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CastStyle {
    /// `(T)e`
    C,
    /// `T(e)` for a builtin type keyword, e.g. `float(i)`.
    Functional,
    Static,
    Reinterpret,
    Const,
    Dynamic,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    /// `radix` is 10, 16, 8 or 2; C's literal typing rules depend on it.
    IntLit { value: u128, suffix: IntSuffix, radix: u32 },
    FloatLit { value: f64, suffix: FloatSuffix },
    /// Character literal; `wide` for `L'x'`/`u'x'`/`U'x'`.
    CharLit { value: u32, wide: bool },
    /// Adjacent string literals are concatenated; escapes are resolved; no trailing NUL.
    StringLit(Vec<u8>),
    BoolLit(bool),
    Nullptr,
    /// A name. `T(args)` where `T` names a type is also a `Call` whose callee is a
    /// `Name`: sema decides whether it is a call or a construction.
    Name(Path),
    Unary { op: UnOp, expr: Box<Expr> },
    Binary { op: BinOp, lhs: Box<Expr>, rhs: Box<Expr> },
    /// `lhs = rhs` (`op: None`) or `lhs op= rhs`.
    Assign { op: Option<BinOp>, lhs: Box<Expr>, rhs: Box<Expr> },
    Cond { cond: Box<Expr>, then: Box<Expr>, else_: Box<Expr> },
    Call { callee: Box<Expr>, args: Vec<Expr> },
    Index { base: Box<Expr>, index: Box<Expr> },
    Member { base: Box<Expr>, member: Ident, arrow: bool },
    /// `base.*member` / `base->*member` (`arrow`): access through a pointer to member.
    MemberPtrAccess { base: Box<Expr>, member: Box<Expr>, arrow: bool },
    Cast { ty: Box<TypeName>, expr: Box<Expr>, style: CastStyle },
    SizeofExpr(Box<Expr>),
    SizeofType(Box<TypeName>),
    AlignofType(Box<TypeName>),
    /// `__builtin_offsetof(T, member-designator)` (what `offsetof` expands to): the first
    /// designator is always a `Field`; later ones are `.field` or `[index]`
    /// (`offsetof(S, a.b[2])`). An integer constant of type `size_t`.
    OffsetOf { ty: Box<TypeName>, designators: Vec<Designator> },
    /// `(T){ ... }` compound literal, or `T{ ... }` list-initialized temporary.
    CompoundLit { ty: Box<TypeName>, init: Vec<InitItem> },
    /// A braced list in expression position (`return {a, b};`, `f({1, 2})`).
    InitList(Vec<InitItem>),
    /// `this` (C++ member functions).
    This,
    /// A lambda expression `[captures] (params) mutable -> T { body }`.
    Lambda(Box<Lambda>),
    /// A pack expansion `e...` in a call's arguments (`f(args...)`, `g(h(xs)...)`), a
    /// braced list or a constructor initializer (`Base(args...)`). Only in templates.
    PackExpansion(Box<Expr>),
    /// A fold expression (C++17), always parenthesized in the source:
    /// - `(... op e)`: unary left fold, `lhs: None, rhs: Some(e)`;
    /// - `(e op ...)`: unary right fold, `lhs: Some(e), rhs: None`;
    /// - `(a op ... op b)`: binary fold, both `Some`; it is a left fold if `b` is the
    ///   operand with the unexpanded pack (`(init + ... + xs)`), a right fold if `a` is
    ///   (`(xs + ... + init)`): which is decided by sema, which knows the packs.
    ///
    /// `op` is a binary operator (`,` is `BinOp::Comma`; the assignment operators are
    /// not supported in folds yet).
    Fold { op: BinOp, lhs: Option<Box<Expr>>, rhs: Option<Box<Expr>> },
    /// `sizeof...(Ts)` / `sizeof...(args)`: the number of elements of a pack.
    SizeofPack(Ident),
    /// A member template-id: `obj.template get<2>()`, `p->f<int>(x)` (the name known as
    /// a member template), with its template arguments. (`Member` has no arguments.)
    MemberTemplateId { base: Box<Expr>, member: Ident, args: Vec<TemplateArg>, arrow: bool },
    /// `new T`, `new T(args)`, `new T{...}`, `new T[n]`, `new T[n]{...}`, and placement
    /// `new (args) T(...)`. `ty` is the type allocated (for `new T[n]` the element type
    /// `T`; the outermost array bound, which need not be constant, is `array_len`).
    /// `init` is `Initializer::Ctor` for `(...)` (empty: value-initialization) or
    /// `Initializer::List` for `{...}`; `None` for default-initialization.
    New { placement: Option<Vec<Expr>>, ty: Box<TypeName>, init: Option<Box<Initializer>>, array_len: Option<Box<Expr>> },
    /// `delete expr` / `delete[] expr`.
    Delete { array: bool, expr: Box<Expr> },
}
