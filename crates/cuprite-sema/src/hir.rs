//! The typed HIR: names resolved, every expression typed, every implicit conversion
//! explicit (lvalue-to-rvalue loads, array decay, arithmetic conversions, reference
//! binding). `check` builds it from the AST; `lower` turns it into the IR.

use crate::ty::{QTy, RecId, TypeTable};
use cuprite_front::ast::Span;
use cuprite_ir as ir;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct FnId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct GVarId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalId(pub u32);

/// Binary operators are the IR's: the HIR spells them the same way.
pub use cuprite_ir::BinaryOp as BinOp;

#[derive(Clone, Debug)]
pub struct Expr {
    pub kind: ExprKind,
    pub ty: QTy,
    /// The expression designates an object (C++ lvalue / xvalue).
    pub lvalue: bool,
    /// With `lvalue`: the object is an xvalue (`std::move(x)`, a call returning `T&&`,
    /// `static_cast<T&&>(x)`): it binds to `T&&` and `const T&`, not to `T&`.
    pub xvalue: bool,
    pub span: Span,
}

/// Which builtin vector variable (`threadIdx` …) a whole-struct use reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SpecialVar {
    ThreadIdx,
    BlockIdx,
    BlockDim,
    GridDim,
}

#[derive(Clone, Debug, PartialEq)]
pub enum BuiltinKind {
    Math(ir::MathFn),
    Printf,
    AssertFail,
    Trap,
    Clock,
    Clock64,
    Fence(ir::Scope),
    Atomic { op: ir::AtomicOp, scope: ir::Scope },
    /// `__syncthreads*`: lowered to `Terminator::Barrier`.
    Barrier(ir::BarrierKind),
    /// A warp collective: lowered to `Terminator::Warp`. Operands are those of the IR op,
    /// already converted to its operand types (`__match_all_sync` has a third, the `int *`
    /// that receives the predicate).
    Warp(ir::WarpOp),
    /// `malloc(size_t)`: the device heap (`cudaLimitMallocHeapSize`); NULL when full.
    Malloc,
    /// `free(void *)`.
    Free,
    Memcpy,
    Memset,
}

#[derive(Clone, Debug)]
pub enum ExprKind {
    Error,
    /// Integer (or bool/enum) constant of `ty`.
    Int(i128),
    Float(f64),
    /// Null pointer of pointer type `ty`.
    Null,
    /// A string literal: an lvalue of type `const char[n + 1]`.
    Str(Vec<u8>),
    Local(LocalId),
    Global(GVarId),
    /// `threadIdx.x` and friends: a prvalue.
    Special(ir::SpecialReg),
    /// `threadIdx` as a whole (`uint3`/`dim3` prvalue).
    SpecialVec(SpecialVar),
    /// `*p`: lvalue of the pointee.
    Deref(Box<Expr>),
    /// `&lvalue`.
    AddrOf(Box<Expr>),
    /// `base.field` (through anonymous members: a path of field indices).
    Member(Box<Expr>, RecId, Vec<u32>),
    /// Lvalue-to-rvalue conversion.
    Load(Box<Expr>),
    /// Array lvalue to a pointer to its first element.
    Decay(Box<Expr>),
    /// Scalar conversion to `ty` with C semantics (also to `bool`).
    Cast(Box<Expr>),
    /// Reinterpret the bits as `ty` (same size).
    Bitcast(Box<Expr>),
    /// Evaluate and discard.
    ToVoid(Box<Expr>),
    Neg(Box<Expr>),
    BitNot(Box<Expr>),
    /// Logical not of a `bool`.
    LNot(Box<Expr>),
    /// Both operands converted to a common type (shifts: promoted separately). Comparisons
    /// produce `bool`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// pointer + integer (elements).
    PtrAdd(Box<Expr>, Box<Expr>),
    /// pointer - pointer (elements, `long`).
    PtrDiff(Box<Expr>, Box<Expr>),
    LogAnd(Box<Expr>, Box<Expr>),
    LogOr(Box<Expr>, Box<Expr>),
    Cond(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `lhs = rhs` with `rhs` already converted to `lhs`'s type. Result: the lvalue.
    Assign(Box<Expr>, Box<Expr>),
    /// `lhs op= rhs`: the old value converted to `comp`, combined with `rhs` (already of
    /// type `comp`, or an integer for pointer arithmetic), converted back.
    CompoundAssign { op: BinOp, lhs: Box<Expr>, rhs: Box<Expr>, comp: QTy },
    IncDec { inc: bool, post: bool, expr: Box<Expr> },
    Comma(Box<Expr>, Box<Expr>),
    Call(FnId, Vec<Expr>),
    Builtin(BuiltinKind, Vec<Expr>),
    /// Materialize a prvalue into a temporary: an lvalue.
    Temp(Box<Expr>),
    /// A temporary of type `ty` initialised from a list (compound literal): an lvalue.
    InitTemp(Box<Init>),
    /// Initialize local `0` (a temporary sema made, destroyed by explicit destructor
    /// calls it emits later) with the initializer; the result is that local, an lvalue.
    LocalInit(LocalId, Box<Init>),
    /// A function designator (an lvalue of function type): only ever converted to a
    /// pointer (`FuncAddr`) or called; never lowered by itself.
    FuncRef(FnId),
    /// The address of a device function: a prvalue of pointer-to-function type.
    FuncAddr(FnId),
    /// A call through a pointer to function (`callee` is a prvalue of that type); the
    /// arguments are converted to the parameter types.
    CallPtr(Box<Expr>, Vec<Expr>),
    /// A virtual call: `args[0]` is the object's address (a pointer to the class that
    /// declares slot `slot`); the function is read from the object's vtable. `fid` is
    /// the statically chosen function (the call without dispatch).
    VirtualCall { fid: FnId, slot: u32, args: Vec<Expr> },
    /// A pointer to member function (`&S::f`, of a `Ty::MemberPtr` type): `{address of
    /// fid, 0}`, or `{1 + 8 * slot, 0}` for a virtual function (`vslot`).
    MemberFnPtr { fid: FnId, vslot: Option<u32> },
    /// A call through a pointer to member function `mfp` (a prvalue): `this` is the
    /// object's address (a pointer to the member pointer's class), `args` are converted
    /// to the parameter types. Virtual ones dispatch through the object's vtable.
    CallMemberPtr { mfp: Box<Expr>, this: Box<Expr>, args: Vec<Expr> },
    /// Equality of two pointers to member function of the same type (Itanium: the same
    /// `ptr`, and the same `adj` unless both are null). Type `bool`.
    MemberFnPtrEq(Box<Expr>, Box<Expr>),
    /// The address of class `0`'s vtable (`void **`): what constructors store in the vptr.
    VTable(RecId),
    /// `new`: see `NewExpr`. The value is the pointer to the (first) object.
    New(Box<NewExpr>),
    /// `delete` / `delete[]`: see `DeleteExpr`. Type `void`.
    Delete(Box<DeleteExpr>),
}

/// A `new` expression, elaborated. Storage comes from `placement` (placement new:
/// `new (p) T`) or from the device heap (`malloc`; a null result skips the
/// initialization and is the value). For arrays, `count` elements (`unsigned long`);
/// with `cookie`, the count is stored in the 8 bytes before the first element (the
/// Itanium ABI's array cookie, for classes with non-trivial destructors).
#[derive(Clone, Debug)]
pub struct NewExpr {
    pub placement: Option<Expr>,
    pub elem: QTy,
    pub count: Option<Expr>,
    pub cookie: bool,
    pub init: NewInit,
}

#[derive(Clone, Debug)]
pub enum NewInit {
    /// Default-initialization of trivial objects: nothing runs.
    None,
    /// Run this initializer on every element (on the object, without `count`).
    Each(Init),
    /// An initializer of the whole array `T[n]` (`n` the constant count): `new T[n]{...}`.
    Whole(Init),
}

/// A `delete` expression: nothing happens for a null pointer; otherwise `destroy` runs
/// for each element (in reverse order) with local `elem` holding its address, then the
/// storage (starting at the cookie for arrays with one) is freed.
#[derive(Clone, Debug)]
pub struct DeleteExpr {
    pub ptr: Expr,
    pub array: bool,
    pub cookie: bool,
    pub elem: LocalId,
    pub destroy: Vec<Stmt>,
}

impl Expr {
    pub fn new(kind: ExprKind, ty: QTy, lvalue: bool, span: Span) -> Expr {
        Expr { kind, ty, lvalue, xvalue: false, span }
    }
    pub fn error(span: Span) -> Expr {
        Expr { kind: ExprKind::Error, ty: QTy::error(), lvalue: false, xvalue: false, span }
    }
    /// The same object as an xvalue (when it designates one).
    pub fn into_xvalue(mut self) -> Expr {
        self.xvalue = self.lvalue;
        self
    }
    /// A glvalue that binds like an rvalue: a prvalue or an xvalue.
    pub fn is_rvalue(&self) -> bool {
        !self.lvalue || self.xvalue
    }
    pub fn is_error(&self) -> bool {
        self.ty.ty.is_error()
    }

    /// Whether lowering this expression creates blocks (short-circuit, `?:`, barriers):
    /// values computed before it must then be kept in locals.
    pub fn has_control_flow(&self) -> bool {
        use ExprKind::*;
        match &self.kind {
            LogAnd(..) | LogOr(..) | Cond(..) => true,
            Builtin(BuiltinKind::Barrier(_) | BuiltinKind::Warp(_), _) => true,
            Builtin(_, args) | Call(_, args) | VirtualCall { args, .. } => args.iter().any(|a| a.has_control_flow()),
            CallPtr(f, args) => f.has_control_flow() || args.iter().any(|a| a.has_control_flow()),
            // The virtual/non-virtual choice is a branch.
            CallMemberPtr { .. } => true,
            MemberFnPtrEq(a, b) => a.has_control_flow() || b.has_control_flow(),
            New(_) | Delete(_) => true,
            Deref(e) | AddrOf(e) | Member(e, _, _) | Load(e) | Decay(e) | Cast(e) | Bitcast(e) | ToVoid(e) | Neg(e)
            | BitNot(e) | LNot(e) | Temp(e) => e.has_control_flow(),
            IncDec { expr, .. } => expr.has_control_flow(),
            Binary(_, a, b) | PtrAdd(a, b) | PtrDiff(a, b) | Assign(a, b) | Comma(a, b) => {
                a.has_control_flow() || b.has_control_flow()
            }
            CompoundAssign { lhs, rhs, .. } => lhs.has_control_flow() || rhs.has_control_flow(),
            InitTemp(i) | LocalInit(_, i) => i.has_control_flow(),
            _ => false,
        }
    }
}

/// An initializer elaborated to the shape of its object.
#[derive(Clone, Debug)]
pub enum Init {
    /// Zero-fill (missing members and elements).
    Zero(QTy),
    /// A single expression already converted to the object's type.
    Expr(Expr),
    /// Elements of an array or fields of a struct (for a union: one member `idx`).
    List { ty: QTy, items: Vec<Init>, union_member: Option<u32> },
    /// Run constructor `ctor` on the object: the call passes the object's address and
    /// `args` (already converted to the parameter types).
    Construct { ty: QTy, ctor: FnId, args: Vec<Expr> },
}

impl Init {
    pub fn has_control_flow(&self) -> bool {
        match self {
            Init::Zero(_) => false,
            Init::Expr(e) => e.has_control_flow(),
            Init::List { items, .. } => items.iter().any(|i| i.has_control_flow()),
            Init::Construct { args, .. } => args.iter().any(|a| a.has_control_flow()),
        }
    }
    pub fn ty(&self) -> &QTy {
        match self {
            Init::Zero(t) => t,
            Init::Expr(e) => &e.ty,
            Init::List { ty, .. } | Init::Construct { ty, .. } => ty,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Stmt {
    pub kind: StmtKind,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub enum StmtKind {
    Expr(Expr),
    Decl(LocalId, Option<Init>),
    /// Initialize the object an lvalue designates (members in a constructor).
    InitAt(Expr, Init),
    Block(Vec<Stmt>),
    If(Expr, Box<Stmt>, Option<Box<Stmt>>),
    While(Expr, Box<Stmt>),
    DoWhile(Box<Stmt>, Expr),
    For(Option<Box<Stmt>>, Option<Expr>, Option<Expr>, Box<Stmt>),
    /// `cases` map constant values to case-label ids in `body`.
    Switch { cond: Expr, body: Box<Stmt>, cases: Vec<(i64, u32)>, default: Option<u32> },
    /// A `case`/`default` label with its id.
    Case(u32, Box<Stmt>),
    Break,
    Continue,
    Return(Option<Expr>),
    Goto(u32),
    Label(u32, Box<Stmt>),
    /// Inline PTX (`asm()`), checked against its operands (`check/asm.rs`).
    Asm(Box<AsmStmt>),
    Empty,
}

/// An `asm` statement: its PTX template and operands in template order (`%0`, `%1`, …:
/// outputs, then inputs).
#[derive(Clone, Debug)]
pub struct AsmStmt {
    pub template: String,
    pub operands: Vec<AsmOperand>,
}

#[derive(Clone, Debug)]
pub enum AsmOperand {
    /// An output (`=` or `+`): the lvalue written after the asm; `read` for `+`.
    Out { letter: char, place: Expr, read: bool },
    /// An input, already converted to the C type of its constraint letter.
    In { letter: char, value: Expr },
    /// An `n` operand: a constant substituted into the template.
    Imm(i64),
}

#[derive(Clone, Debug)]
pub struct LocalVar {
    pub name: String,
    pub ty: QTy,
    pub align: Option<u64>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ExecSpace {
    Host,
    Device,
    HostDevice,
    Global,
}

#[derive(Clone, Debug)]
pub struct Function {
    pub name: String,
    /// Enclosing namespaces, outermost first.
    pub scope: Vec<String>,
    pub extern_c: bool,
    pub space: ExecSpace,
    pub sig: crate::ty::FnTy,
    pub inline: ir::InlineHint,
    pub launch_bounds: (Option<u32>, Option<u32>),
    pub span: Span,
    pub in_system_header: bool,
    /// Filled in when the body is checked.
    pub body: Option<Body>,
    /// The AST definition, while not yet checked.
    pub def: Option<cuprite_front::ast::FunctionDef>,
    /// A builtin (math, atomic …) this declaration stands for when it has no body.
    pub builtin_name: Option<String>,
    /// C++ facts about the function (member-ness, default arguments, `constexpr`).
    pub cxx: FnCxx,
}

/// Member access of a class member.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Access {
    #[default]
    Public,
    Protected,
    Private,
}

impl Access {
    pub fn name(self) -> &'static str {
        match self {
            Access::Public => "public",
            Access::Protected => "protected",
            Access::Private => "private",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MethodKind {
    Normal,
    Ctor,
    Dtor,
    /// `operator T()`.
    Conversion,
}

/// A member function. Non-static members (constructors and destructors too) take the
/// object's address as an implicit first parameter: local 0 of the body is `this`, and a
/// `Call` passes the object's address as `args[0]`; `sig.params` lists only the declared
/// parameters.
#[derive(Clone, Debug)]
pub struct MethodInfo {
    pub class: RecId,
    pub kind: MethodKind,
    pub is_static: bool,
    /// `const` after the parameter list (`this` is a pointer to const).
    pub is_const: bool,
    pub access: Access,
    pub explicit: bool,
    /// Implicitly declared (default/copy constructor, destructor) by the compiler.
    pub implicit: bool,
}

#[derive(Clone, Debug, Default)]
pub struct FnCxx {
    pub method: Option<MethodInfo>,
    /// Default arguments (by parameter), checked at each call in the callee's scope.
    pub defaults: Vec<Option<cuprite_front::ast::Expr>>,
    pub is_constexpr: bool,
}

impl Function {
    /// Whether calls pass an object address as `args[0]`.
    pub fn has_this(&self) -> bool {
        self.cxx.method.as_ref().is_some_and(|m| !m.is_static)
    }
}

/// What sema knows about a class beyond its layout (`TypeTable`). Every record that is
/// defined gets one.
#[derive(Clone, Debug, Default)]
pub struct ClassInfo {
    /// The base class (single, non-virtual inheritance): its subobject is field 0.
    pub base: Option<RecId>,
    /// Member functions by name (`len`, `operator+`, `operator float`), own only.
    pub methods: std::collections::HashMap<String, Vec<FnId>>,
    pub ctors: Vec<FnId>,
    pub dtor: Option<FnId>,
    /// Default member initializers (`int n = 4;` in the class), by field index.
    pub member_inits: Vec<(u32, cuprite_front::ast::Initializer)>,
    /// Access of each named data member.
    pub field_access: std::collections::HashMap<String, Access>,
    /// A user-declared constructor exists (the class is not an aggregate).
    pub user_ctor: bool,
    /// `C() = default;`: default-initialization is the implicit constructor's, even
    /// beside other constructors (defaulted copy/move members are not declared at all).
    pub defaulted_default_ctor: bool,
    /// Some user-declared member is private or protected (not an aggregate).
    pub non_public: bool,
    /// Size of the class without its tail padding (Itanium ABI "dsize").
    pub dsize: u64,
    /// Not POD for the purpose of layout (its tail padding may be reused).
    pub non_pod: bool,
    /// The class has a vptr (virtual functions of its own or of its base). The root of a
    /// dynamic hierarchy has it as field 0 (unnamed, `void **`); derived classes share
    /// their base's, so it is always at offset 0 (Itanium ABI, single inheritance).
    pub dynamic: bool,
    /// Vtable slots: the final overrider of each virtual function in this class (`None`
    /// for a pure virtual function without a definition).
    pub vtable: Vec<Option<FnId>>,
    /// The slot of each virtual member function declared in this class.
    pub virtual_slots: std::collections::HashMap<FnId, u32>,
    /// Some virtual function has no final overrider here (pure): an abstract class.
    pub is_abstract: bool,
    /// Pure virtual functions (`= 0`) of this class and its bases.
    pub pure: Vec<FnId>,
}

#[derive(Clone, Debug)]
pub struct Body {
    /// The first `nparams` locals are the parameters.
    pub locals: Vec<LocalVar>,
    pub nparams: usize,
    pub stmts: Vec<Stmt>,
    pub labels: u32,
    /// The functions it calls (for reachability).
    pub calls: Vec<FnId>,
    pub globals_used: Vec<GVarId>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum VarSpace {
    /// A host variable (usable in device code only as a constant).
    Host,
    Global,
    Constant,
    Shared,
    Managed,
}

#[derive(Clone, Debug)]
pub struct GlobalVar {
    pub name: String,
    pub scope: Vec<String>,
    pub extern_c: bool,
    pub ty: QTy,
    pub space: VarSpace,
    pub align: Option<u64>,
    pub is_extern: bool,
    pub is_static: bool,
    /// The initializer, checked to be constant (device variables).
    pub init: Option<Init>,
    /// A host `const` scalar's value, usable in device code.
    pub const_value: Option<Expr>,
    pub span: Span,
    /// Declared inside a function body (`__shared__` locals).
    pub function_local: bool,
}

/// The checked translation unit.
#[derive(Debug, Default)]
pub struct Program {
    pub types: TypeTable,
    pub classes: std::collections::HashMap<RecId, ClassInfo>,
    pub functions: Vec<Function>,
    pub globals: Vec<GlobalVar>,
    /// Kernels made from kernel templates on the host object's request: the symbol of
    /// the stub the host compiler defined for each (instead of a mangled name).
    pub stub_symbols: std::collections::HashMap<FnId, String>,
    /// Function template specializations: their template arguments as C++ prints them
    /// (`<3>`, `<float, 16>`), part of their IR name, which tells specializations with
    /// equal parameter types apart when units are linked (`-rdc`).
    pub template_args: std::collections::HashMap<FnId, String>,
    /// Functions declared `static`: internal linkage, so other translation units cannot
    /// name them (separable compilation links by symbol).
    pub static_functions: std::collections::HashSet<FnId>,
}
