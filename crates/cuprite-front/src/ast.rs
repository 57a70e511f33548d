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

/// A possibly qualified name: `x`, `ns::x`, `::x`.
#[derive(Clone, Debug, PartialEq)]
pub struct Path {
    pub global: bool,
    pub segments: Vec<Ident>,
    pub span: Span,
}

impl Path {
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
    Namespace { name: Option<Ident>, items: Vec<Item> },
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
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SkipReason {
    /// Contains no CUDA qualifier: host code, kept only by the host compiler.
    HostOnly,
    /// A construct the device front-end does not support yet (named in the error).
    Unsupported,
    /// Parsing failed inside a system header.
    SystemHeader,
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
    /// A typedef name, or a class/struct/enum name used without its keyword (C++).
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
    Access(Span),
    StaticAssert { cond: Expr, message: Option<String> },
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
    /// The declared name; qualified (`S::f`) for out-of-class member definitions.
    pub name: Option<Path>,
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
}

#[derive(Clone, Debug, Default)]
pub struct FunctionDeclarator {
    pub params: Vec<Param>,
    /// `...` after the parameters.
    pub variadic: bool,
    /// `const` after the parameter list of a member function.
    pub cv: Cv,
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
}
