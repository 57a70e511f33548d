//! The Cuprite IR: backend-neutral, typed, a control-flow graph per function.
//!
//! Shape and invariants (every producer must keep them; `verify` checks them):
//! - A function has *locals* (named, typed, mutable storage: parameters, variables,
//!   temporaries that cross blocks) and *values* (SSA temporaries produced by
//!   instructions). **A value is defined once and used where its definition dominates
//!   the use**: later in its own block, or in any block its block dominates (`dom.rs`).
//!   Locals remain for mutable variables and for what producers find simpler. Back-ends
//!   that want block-local values (the CPU back-end, whose SIMT transformation keeps only
//!   locals live across barriers) call `block_local::demote_cross_block_values` first.
//! - Control flow is explicit: every block ends in one `Terminator`. `__syncthreads()` and
//!   its variants are terminators (`Terminator::Barrier`), so cutting a kernel at its
//!   barriers is cutting its CFG at those edges.
//! - Memory is typed and has address spaces: globals live in `Global`, `Constant` or
//!   `Shared` space; pointers are generic (as in CUDA C) and carry their pointee type.
//! - Nothing here assumes the CPU: CUDA operations (barriers, atomics, special registers,
//!   printf, traps, math) are first-class instructions, for every back-end to implement.

pub mod block_local;
pub mod dom;
pub mod ftz;
pub mod instrument;
pub mod link;
pub mod math;
pub mod operands;
pub mod print;
pub mod verify;

pub use math::MathFn;

use std::fmt;

macro_rules! id_type {
    ($name:ident) => {
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
        pub struct $name(pub u32);
        impl $name {
            pub fn index(self) -> usize {
                self.0 as usize
            }
        }
    };
}

id_type!(StructId);
id_type!(GlobalId);
id_type!(FuncId);
id_type!(LocalId);
id_type!(ValueId);
id_type!(BlockId);
id_type!(FileId);

// ---------------------------------------------------------------------------------------
// Types

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Type {
    Void,
    Bool,
    I8,
    U8,
    I16,
    U16,
    I32,
    U32,
    I64,
    U64,
    F32,
    F64,
    /// A generic pointer to a value of the given type (`Void` for `void *`).
    Ptr(Box<Type>),
    Array(Box<Type>, u64),
    Struct(StructId),
    /// A pointer to a function of this signature (device function pointers, later).
    FnPtr(Box<Signature>),
}

impl Type {
    pub fn ptr_to(self) -> Type {
        Type::Ptr(Box::new(self))
    }
    pub fn is_integer(&self) -> bool {
        matches!(
            self,
            Type::Bool | Type::I8 | Type::U8 | Type::I16 | Type::U16 | Type::I32 | Type::U32 | Type::I64 | Type::U64
        )
    }
    pub fn is_signed(&self) -> bool {
        matches!(self, Type::I8 | Type::I16 | Type::I32 | Type::I64)
    }
    pub fn is_float(&self) -> bool {
        matches!(self, Type::F32 | Type::F64)
    }
    pub fn is_pointer(&self) -> bool {
        matches!(self, Type::Ptr(_) | Type::FnPtr(_))
    }
    /// Size in bytes of scalar types (pointers are 8 bytes); `None` for aggregates,
    /// whose layout lives in the module.
    pub fn scalar_size(&self) -> Option<u64> {
        Some(match self {
            Type::Bool | Type::I8 | Type::U8 => 1,
            Type::I16 | Type::U16 => 2,
            Type::I32 | Type::U32 | Type::F32 => 4,
            Type::I64 | Type::U64 | Type::F64 | Type::Ptr(_) | Type::FnPtr(_) => 8,
            _ => return None,
        })
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Signature {
    pub params: Vec<Type>,
    pub ret: Type,
    pub variadic: bool,
}

/// A struct or union. Vector types (`float4`, `int2`, `dim3`, …) are structs too, with
/// fields `x, y, z, w` and their CUDA alignment.
#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct StructDef {
    /// Source-level name for readability (`float4`, `Particle`); unique in the module.
    pub name: String,
    pub is_union: bool,
    pub fields: Vec<Field>,
    /// Layout as computed by the front-end with C's rules (and `__align__`).
    pub size: u64,
    pub align: u64,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Field {
    pub name: String,
    pub ty: Type,
    pub offset: u64,
}

// ---------------------------------------------------------------------------------------
// Module

#[derive(Clone, Debug, Default, serde::Serialize, serde::Deserialize)]
pub struct Module {
    /// Source files named by `SrcLoc`s (the user's paths, for `#line` and messages).
    pub files: Vec<String>,
    pub structs: Vec<StructDef>,
    pub globals: Vec<Global>,
    pub functions: Vec<Function>,
}

impl Module {
    pub fn struct_def(&self, id: StructId) -> &StructDef {
        &self.structs[id.index()]
    }
    pub fn global(&self, id: GlobalId) -> &Global {
        &self.globals[id.index()]
    }
    pub fn function(&self, id: FuncId) -> &Function {
        &self.functions[id.index()]
    }
    /// Whether a function is only declared here (see `Function::blocks`).
    pub fn is_declaration(&self, id: FuncId) -> bool {
        self.function(id).blocks.is_empty()
    }
    pub fn kernels(&self) -> impl Iterator<Item = (FuncId, &Function)> {
        self.functions
            .iter()
            .enumerate()
            .filter(|(_, f)| matches!(f.kind, FunctionKind::Kernel { .. }))
            .map(|(i, f)| (FuncId(i as u32), f))
    }
    /// Size and alignment of any type.
    pub fn layout(&self, ty: &Type) -> (u64, u64) {
        match ty {
            Type::Void => (1, 1),
            Type::Array(elem, n) => {
                let (s, a) = self.layout(elem);
                (s * n, a)
            }
            Type::Struct(id) => {
                let s = self.struct_def(*id);
                (s.size, s.align)
            }
            scalar => {
                let s = scalar.scalar_size().expect("scalar");
                (s, s)
            }
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum AddressSpace {
    /// `__device__` variables.
    Global,
    /// `__constant__` variables (read-only in device code, 64 KB in all).
    Constant,
    /// `__shared__` variables: one instance per block.
    Shared,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Global {
    /// Source-level name (qualified for readability: `ns::x`).
    pub name: String,
    pub ty: Type,
    pub space: AddressSpace,
    /// Explicit alignment (`__align__`), else the type's.
    pub align: Option<u64>,
    pub init: Option<Init>,
    /// For `Global`/`Constant` variables: the symbol of the host shadow that the host
    /// compiler defines for this variable (its Itanium-mangled name, or the plain name for
    /// globals of C linkage and the global namespace). The runtime maps the shadow's
    /// address to this variable's device instance (cudaMemcpyToSymbol and friends).
    /// `None` for shared variables and for constants the front-end made (string literals).
    pub host_symbol: Option<String>,
    /// `extern __shared__ T a[];`: the start of the launch's dynamic shared memory.
    pub dynamic_shared: bool,
    /// `extern __device__ T x;` (or `__constant__`): defined in another translation unit
    /// and resolved by `host_symbol` when device code is linked (`-rdc`).
    pub external: bool,
    pub loc: Option<SrcLoc>,
}

/// A constant initializer, already evaluated by the front-end.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Init {
    Zero,
    Scalar(Const),
    /// Elements of an array or fields of a struct, in order (missing trailing ones zero).
    Aggregate(Vec<Init>),
    /// The address of a global plus a byte offset (`&table[3]`).
    GlobalAddr { global: GlobalId, offset: i64 },
    /// The address of a device function (a function pointer, or an entry of a vtable
    /// typed as a data pointer): `__device__ op_t table[] = {add, sub};`.
    FuncAddr(FuncId),
}

#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum Const {
    Bool(bool),
    /// Integer of the given integer type; the value is the two's complement bits,
    /// sign- or zero-extended to 64 bits according to the type.
    Int(i64, Type),
    F32(f32),
    F64(f64),
    /// The null pointer of a pointer type.
    Null(Type),
    /// A string literal: a `const char *` to these bytes followed by a NUL.
    Str(Vec<u8>),
}

/// A position in the user's source.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct SrcLoc {
    pub file: FileId,
    pub line: u32,
    pub col: u32,
}

// ---------------------------------------------------------------------------------------
// Functions

#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum FunctionKind {
    /// `__global__`: launched from the host through its stub.
    Kernel {
        /// Mangled symbol of the host stub that the host compiler defines for this
        /// kernel (e.g. `_Z6vecAddPKfS0_Pfi`); the runtime keys launches by its address.
        stub_symbol: String,
        /// `__launch_bounds__(max_threads, min_blocks)`.
        max_threads: Option<u32>,
        min_blocks: Option<u32>,
    },
    /// `__device__` (or `__host__ __device__`) function.
    Device,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum InlineHint {
    None,
    Always,
    Never,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Local {
    /// Source name (or a generated one like `tmp.3`) for readability.
    pub name: String,
    pub ty: Type,
    pub align: Option<u64>,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Function {
    /// Source-level name (`vecAdd`, `ns::helper`).
    pub name: String,
    /// The Itanium-mangled name of a function with external linkage, by which separately
    /// compiled translation units refer to each other's functions (`-rdc`); `None` for
    /// internal linkage (`static`, anonymous namespace) and generated functions.
    pub symbol: Option<String>,
    pub kind: FunctionKind,
    pub inline: InlineHint,
    /// The first `params.len()` locals are the parameters, in order.
    pub params: Vec<LocalId>,
    pub ret: Type,
    pub locals: Vec<Local>,
    /// Types of SSA values, indexed by `ValueId`.
    pub values: Vec<Type>,
    /// `blocks[0]` is the entry block. A function without blocks is a declaration: an
    /// `extern __device__` function defined in another translation unit, resolved by
    /// `symbol` when device code is linked (`-rdc`).
    pub blocks: Vec<Block>,
    pub loc: Option<SrcLoc>,
}

impl Function {
    pub fn value_type(&self, v: ValueId) -> &Type {
        &self.values[v.index()]
    }
    pub fn local(&self, l: LocalId) -> &Local {
        &self.locals[l.index()]
    }
    pub fn block(&self, b: BlockId) -> &Block {
        &self.blocks[b.index()]
    }
    pub fn signature(&self) -> Signature {
        Signature {
            params: self.params.iter().map(|p| self.local(*p).ty.clone()).collect(),
            ret: self.ret.clone(),
            variadic: false,
        }
    }
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Block {
    pub insts: Vec<Inst>,
    pub term: Terminator,
    pub term_loc: Option<SrcLoc>,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub struct Inst {
    /// The value this instruction defines (its type is in `Function::values`).
    pub result: Option<ValueId>,
    pub kind: InstKind,
    pub loc: Option<SrcLoc>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BinaryOp {
    Add,
    Sub,
    Mul,
    /// Integer division truncates toward zero. A back-end must give the GPU's results for
    /// `x / 0` and `INT_MIN / -1` and never trap.
    Div,
    Rem,
    Shl,
    /// Arithmetic for signed operand types, logical for unsigned.
    Shr,
    And,
    Or,
    Xor,
    /// Comparisons produce `Bool`.
    Eq,
    Ne,
    Lt,
    Le,
    Gt,
    Ge,
}

impl BinaryOp {
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`: the result is a `Bool`.
    pub fn is_comparison(self) -> bool {
        matches!(self, BinaryOp::Eq | BinaryOp::Ne | BinaryOp::Lt | BinaryOp::Le | BinaryOp::Gt | BinaryOp::Ge)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum UnaryOp {
    Neg,
    /// Bitwise not.
    Not,
    /// Logical not of a `Bool`.
    LNot,
}

/// The built-in variables of device code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum SpecialReg {
    ThreadIdx(Dim),
    BlockIdx(Dim),
    BlockDim(Dim),
    GridDim(Dim),
    /// Lane index within the warp (`threadIdx` linearised, mod 32).
    LaneId,
    WarpSize,
    /// The launch's dynamic shared memory size in bytes (PTX `%dynamic_smem_size`).
    DynamicSmemSize,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Dim {
    X,
    Y,
    Z,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum AtomicOp {
    Add,
    Sub,
    Exch,
    Min,
    Max,
    /// `atomicInc(p, v)`: `old >= v ? 0 : old + 1`.
    Inc,
    /// `atomicDec(p, v)`: `(old == 0 || old > v) ? v : old - 1`.
    Dec,
    /// `atomicCAS(p, compare, val)`: three operands.
    Cas,
    And,
    Or,
    Xor,
}

impl AtomicOp {
    /// The operation's name as in `atomicAdd` → `add` (C helper names, the IR printer).
    pub fn name(self) -> &'static str {
        match self {
            AtomicOp::Add => "add",
            AtomicOp::Sub => "sub",
            AtomicOp::Exch => "exch",
            AtomicOp::Min => "min",
            AtomicOp::Max => "max",
            AtomicOp::Inc => "inc",
            AtomicOp::Dec => "dec",
            AtomicOp::Cas => "cas",
            AtomicOp::And => "and",
            AtomicOp::Or => "or",
            AtomicOp::Xor => "xor",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Scope {
    Block,
    Device,
    System,
}

/// Calls the back-end implements itself (math library, intrinsics, runtime services).
#[derive(Clone, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Builtin {
    /// A math-library function or intrinsic (`sqrtf`, `__expf`, `__float2int_rn`, `__popc`,
    /// `min`, …); operand and result types are those of the call's values, as `MathFn`
    /// lists them.
    Math(MathFn),
    /// `printf(fmt, args...)`, variadic with C's default argument promotions already
    /// applied by the front-end; returns `I32`.
    Printf,
    /// `assert(cond)` failure path: operands are the message strings
    /// (expression text, file, line as `U32`, function name). Does not return.
    AssertFail,
    /// `__trap()`: ends the kernel with an error. Does not return.
    Trap,
    /// `clock()` (`I32`... as CUDA: `clock_t`, 64-bit on the host ABI) and `clock64()`.
    Clock,
    Clock64,
    /// `__threadfence_block`, `__threadfence`, `__threadfence_system`.
    Fence(Scope),
    /// Atomic read-modify-write on a pointer operand (first operand), returning the old
    /// value; the element type is the result's type.
    Atomic { op: AtomicOp, scope: Scope },
    /// `malloc`/`free`/`memcpy`/`memset` in device code.
    Malloc,
    Free,
    Memcpy,
    Memset,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum InstKind {
    Const(Const),
    Unary(UnaryOp, ValueId),
    Binary(BinaryOp, ValueId, ValueId),
    /// Conversion with C's semantics to the result type (integer↔integer truncation or
    /// extension, integer↔float, float↔float, pointer↔pointer, pointer↔integer, any
    /// scalar → `Bool` as `!= 0`). Float → integer must saturate and map NaN to 0, as the
    /// GPU's `cvt.rzi` does.
    Cast(ValueId),
    /// Reinterpret the bits (same size): `__float_as_int` and friends.
    Bitcast(ValueId),
    /// `cond ? a : b` without control flow, both operands already evaluated.
    Select(ValueId, ValueId, ValueId),
    /// Read a local's value / write a local.
    LoadLocal(LocalId),
    StoreLocal(LocalId, ValueId),
    /// The address of a local (result type: pointer to the local's type).
    LocalAddr(LocalId),
    /// The address of a global (result type: pointer to its type).
    GlobalAddr(GlobalId),
    /// Load / store through a pointer; the loaded type is the result's type.
    Load { ptr: ValueId, volatile: bool },
    Store { ptr: ValueId, value: ValueId, volatile: bool },
    /// `&base->field`: `base` points to a struct; result points to the field.
    FieldAddr { base: ValueId, strukt: StructId, field: u32 },
    /// `base + index` in elements of the pointee type (pointer arithmetic and `a[i]`);
    /// `index` is any integer type (sign-extended if signed).
    PtrAdd { base: ValueId, index: ValueId },
    /// `a - b` of two pointers to the same type, in elements, as `I64`.
    PtrDiff(ValueId, ValueId),
    /// Copy `bytes` bytes between non-overlapping objects (struct assignment of large
    /// aggregates may also use Load/Store of struct type).
    Copy { dst: ValueId, src: ValueId, bytes: u64 },
    Special(SpecialReg),
    Call { func: FuncId, args: Vec<ValueId> },
    /// Call through a function pointer value.
    CallIndirect { callee: ValueId, args: Vec<ValueId> },
    /// The address of a device function (for function pointers).
    FuncAddr(FuncId),
    CallBuiltin { builtin: Builtin, args: Vec<ValueId> },
    /// Checking-only (`instrument.rs`, `cuprite run --sanitize`): front-ends never make it,
    /// only the instrumentation pass does, and a back-end that does not implement checking
    /// mode refuses it.
    Check(CheckOp),
}

impl InstKind {
    /// A value computed from the operands alone: no memory read or written, no call, no
    /// effect; safe to repeat, move or drop (integer division included: it never traps
    /// on the GPU, and the back-ends give it a defined result). The passes that move or
    /// duplicate code add what else they may take (locals they know are not written).
    pub fn is_pure_value(&self) -> bool {
        matches!(
            self,
            InstKind::Const(_)
                | InstKind::Unary(..)
                | InstKind::Binary(..)
                | InstKind::Cast(_)
                | InstKind::Bitcast(_)
                | InstKind::Select(..)
                | InstKind::GlobalAddr(_)
                | InstKind::FieldAddr { .. }
                | InstKind::PtrAdd { .. }
                | InstKind::PtrDiff(..)
                | InstKind::Special(_)
        )
    }
}

/// What the instrumentation pass asks the checker (see `instrument.rs`). Each reports
/// with the instruction's `loc` and the running thread's coordinates.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum CheckOp {
    /// An access of `bytes` bytes through `ptr`, whose type must be aligned to `align`.
    /// The result (the pointer's type) is the pointer to access through: `ptr` itself, or,
    /// when the access is invalid, a scratch area of the checker's so that the thread goes
    /// on (as compute-sanitizer lets it) without touching memory it must not.
    /// `site` numbers the instruction within its module (the profiler puts together the
    /// lanes of a warp at one site; the C back-end may print an instruction twice).
    Access { ptr: ValueId, bytes: u64, align: u64, kind: AccessKind, site: u32 },
    /// The thread arrives at a block-wide barrier (placed just before the terminator).
    Barrier,
    /// The thread arrives at a warp collective or `__syncwarp` (just before it).
    WarpSync,
    /// The thread leaves its kernel (just before a kernel's `return`).
    Exit,
    /// The thread takes a conditional branch on `cond` (placed just before the
    /// terminator): the profiler counts warps whose lanes go both ways.
    Branch { cond: ValueId, site: u32 },
    /// The thread arrives at a warp collective whose member mask is `mask` (just before
    /// it, instead of `WarpSync`): synccheck reports masks naming lanes that never come.
    /// `orders_memory`: the collective is `__syncwarp` (a tile's `sync()`), which orders
    /// its lanes' memory accesses (racecheck); shuffles, votes and the rest do not.
    WarpMask { mask: ValueId, site: u32, orders_memory: bool },
    /// The thread reaches a memory fence (`__threadfence*`, `cuda::atomic_thread_fence`;
    /// just before it): racecheck orders memory through atomics, which are relaxed in
    /// CUDA's model, only where fences make them release and acquire.
    Fence,
}

impl CheckOp {
    /// The value operand an event carries, if any (`Access` has its pointer).
    pub fn operand(&self) -> Option<ValueId> {
        match self {
            CheckOp::Access { ptr, .. } => Some(*ptr),
            CheckOp::Branch { cond: v, .. } | CheckOp::WarpMask { mask: v, .. } => Some(*v),
            CheckOp::Barrier | CheckOp::WarpSync | CheckOp::Exit | CheckOp::Fence => None,
        }
    }
    pub fn operand_mut(&mut self) -> Option<&mut ValueId> {
        match self {
            CheckOp::Access { ptr, .. } => Some(ptr),
            CheckOp::Branch { cond: v, .. } | CheckOp::WarpMask { mask: v, .. } => Some(v),
            CheckOp::Barrier | CheckOp::WarpSync | CheckOp::Exit | CheckOp::Fence => None,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum AccessKind {
    Read,
    Write,
    /// A read-modify-write by an atomic: never a race with another atomic.
    Atomic,
    /// A volatile load / store: racecheck takes it as an acquire / a release (spinning
    /// on a flag), besides checking it as a read / write.
    VolatileRead,
    VolatileWrite,
}

impl AccessKind {
    pub fn name(self) -> &'static str {
        match self {
            AccessKind::Read => "read",
            AccessKind::Write => "write",
            AccessKind::Atomic => "atomic",
            AccessKind::VolatileRead => "volatile read",
            AccessKind::VolatileWrite => "volatile write",
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum BarrierKind {
    /// `__syncthreads()`.
    Sync,
    /// `__syncthreads_count(p)`, `__syncthreads_and(p)`, `__syncthreads_or(p)`.
    Count,
    And,
    Or,
    /// `cooperative_groups::grid_group::sync()`: every thread of every block of the grid
    /// waits here, and the writes made before it are seen after it. Only a cooperative
    /// launch may reach it (elsewhere the kernel fails, as on the GPU).
    Grid,
}

#[derive(Clone, Debug, serde::Serialize, serde::Deserialize)]
pub enum Terminator {
    Jump(BlockId),
    Branch { cond: ValueId, then: BlockId, else_: BlockId },
    /// `value` is an integer; cases are compared after conversion to its type.
    Switch { value: ValueId, cases: Vec<(i64, BlockId)>, default: BlockId },
    Return(Option<ValueId>),
    /// A block-wide barrier; execution continues at `next` once every thread of the block
    /// that has not exited has arrived. For the predicate variants, `pred` is the thread's
    /// predicate (`Bool`) and the block-wide result is stored into `result` (`I32`).
    Barrier { kind: BarrierKind, pred: Option<ValueId>, result: Option<LocalId>, next: BlockId },
    /// A warp collective (`__shfl_sync`, `__ballot_sync`, `__syncwarp`, …). Like a barrier
    /// it ends its block: every participating lane must have computed its operands before
    /// any lane can see a result. Execution continues at `next` once the collective has
    /// been computed for the thread's warp; the thread's results are in `results` there.
    /// Operands and results are listed on `WarpOp`. The lanes of a warp are the threads of
    /// the block whose linear index divided by 32 is equal; the participants are the lanes
    /// of the warp that reach this terminator together, restricted by the `mask` operand.
    Warp { op: WarpOp, args: Vec<ValueId>, results: Vec<LocalId>, next: BlockId },
    Unreachable,
}

/// Which shuffle (`__shfl*_sync`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ShflKind {
    /// Source lane: `srcLane` mod `width` within the caller's segment of `width` lanes.
    Idx,
    /// Source lane `lane - delta`; the own value if that is before the segment.
    Up,
    /// Source lane `lane + delta`; the own value if that is past the segment.
    Down,
    /// Source lane `lane ^ laneMask`; the own value if that is past the segment (earlier
    /// segments are readable, as in the guide).
    Xor,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum VoteKind {
    All,
    Any,
    /// `__uni_sync`: non-zero iff the predicate is the same for every participant.
    Uni,
    Ballot,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ReduceKind {
    Add,
    /// Signed or unsigned comparison according to the operand's type.
    Min,
    Max,
    And,
    Or,
    Xor,
}

/// A warp collective's operation. Operands (`args` of `Terminator::Warp`), in order, and
/// results (`results`):
/// - `Shfl(k)`: `[mask: U32, value: T, lane: I32 (srcLane, delta or laneMask), width: I32]`
///   → `[T]`, `T` one of `I32 U32 I64 U64 F32 F64`. `width` is a power of two ≤ 32.
/// - `Vote(k)`: `[mask: U32, pred: Bool]` → `[I32]` (`Ballot`: `[U32]`).
/// - `ActiveMask`: `[]` → `[U32]`, the lanes that reach the terminator together.
/// - `SyncWarp`: `[mask: U32]` → `[]`.
/// - `MatchAny`: `[mask: U32, value: T]` → `[U32]`, `T` a 32- or 64-bit integer or float.
/// - `MatchAll`: `[mask: U32, value: T]` → `[U32 (mask or 0), I32 (pred)]`.
/// - `Reduce(k)`: `[mask: U32, value: T]` → `[T]`, `T` is `I32` or `U32`.
/// - `Lockstep`: `[]` → `[]`. One step of warp-synchronous execution: the lanes that
///   reach it together continue together, none waits for absent lanes. Front-ends never
///   produce it; a back-end that does not run a warp's lanes in lock step inserts it after
///   memory accesses through which lanes of a warp communicate without a barrier (see
///   `cuprite-cpu`'s `lockstep` pass), so that each such access is done by all those
///   lanes before any of them goes on, as on the GPU.
/// - `Yield`: `[]` → `[]`. The thread lets the other threads of its block run before it
///   goes on; it waits for no one. Spin-waits of device libraries (`cuda::barrier::wait`,
///   block-scope pipelines) call it in their loop, so that on a back-end that runs a
///   block's threads one after another the thread being waited for gets to run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum WarpOp {
    Shfl(ShflKind),
    Vote(VoteKind),
    ActiveMask,
    SyncWarp,
    MatchAny,
    MatchAll,
    Reduce(ReduceKind),
    Lockstep,
    Yield,
}

impl Terminator {
    pub fn successors(&self) -> Vec<BlockId> {
        match self {
            Terminator::Jump(b) => vec![*b],
            Terminator::Branch { then, else_, .. } => vec![*then, *else_],
            Terminator::Switch { cases, default, .. } => {
                let mut s: Vec<BlockId> = cases.iter().map(|(_, b)| *b).collect();
                s.push(*default);
                s
            }
            Terminator::Barrier { next, .. } | Terminator::Warp { next, .. } => vec![*next],
            Terminator::Return(_) | Terminator::Unreachable => vec![],
        }
    }
}
