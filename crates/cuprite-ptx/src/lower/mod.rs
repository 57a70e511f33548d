//! PTX syntax tree → Cuprite IR.
//!
//! One lowering of instruction sequences (`body`) serves both uses: the statements of an
//! inline `asm()` lowered into the enclosing function (`asm`: sema hands it a `Sink` on
//! the function it is building), and whole `.ptx` modules (`module`: `.entry`/`.func`
//! become IR functions, variables become IR globals).
//!
//! Model: every PTX register is an IR local of its declared type; each instruction loads
//! its operands, computes, and stores its result, so no IR value crosses a block and the
//! C compiler does the register allocation. Addresses are the CPU's: generic, global,
//! constant and local addresses are host addresses. A `.shared` address (the shared
//! window) is the byte offset from a zero-sized shared variable, `__cuprite_shared_window`,
//! that lies in the running kernel's shared memory like every other shared variable:
//! `cvta.shared` adds that variable's address, `cvta.to.shared` subtracts it, and
//! `ld.shared [%r1]` reads at that address plus the (sign-extended) offset.

mod atomic_half;
mod body;
mod call;
mod cvt;
mod fusion;
mod grid;
mod inst;
mod mbarrier;
mod memory;
mod texture;
mod warp;

pub mod asm;
pub mod module;

use crate::isa::{ScalarType, StateSpace};
use crate::parse::Loc;
use cuprite_ir::{BlockId, FuncId, GlobalId, InstKind, LocalId, Signature, Terminator, Type, ValueId};

/// Where lowered instructions go: the function being built (sema's, for inline asm, or
/// the module lowering's own) and the module's names.
pub trait Sink {
    /// Appends an instruction to the current block; returns its result when `ty` is given.
    fn emit(&mut self, kind: InstKind, ty: Option<Type>) -> Option<ValueId>;
    fn value_type(&self, v: ValueId) -> Type;
    fn new_local(&mut self, name: &str, ty: Type, align: Option<u64>) -> LocalId;
    fn local_type(&self, l: LocalId) -> Type;
    fn new_block(&mut self) -> BlockId;
    /// Ends the current block.
    fn terminate(&mut self, t: Terminator);
    /// Makes `b` (a new, empty block) the current block.
    fn switch_to(&mut self, b: BlockId);
    /// A module-scope variable by its PTX name: its id, IR type and state space.
    fn global(&mut self, name: &str) -> Option<(GlobalId, Type, StateSpace)>;
    fn global_type(&self, g: GlobalId) -> Type;
    /// The constant bytes a variable is initialised with (for `vprintf`'s format).
    fn global_bytes(&self, g: GlobalId) -> Option<Vec<u8>>;
    /// A function by its PTX name.
    fn function(&mut self, name: &str) -> Option<(FuncId, Signature)>;
    /// The zero-sized shared variable that `.shared` addresses are offsets from.
    fn shared_window(&mut self) -> GlobalId;
    /// A `.shared` variable declared inside a function body (nvcc's "demoted" variables);
    /// `None` where that cannot be (inline asm).
    fn function_shared(&mut self, name: &str, ty: Type, align: Option<u64>) -> Option<GlobalId>;
    /// The block's reserved shared memory (`%reserved_smem_offset_*`), one variable of
    /// `RESERVED_SMEM_BYTES` per module; `None` where there is none (inline asm).
    fn reserved_smem(&mut self) -> Option<GlobalId> {
        None
    }
}

/// The shared memory reserved per block for the system, as on sm_80 and later (1 KiB).
pub(crate) const RESERVED_SMEM_BYTES: u64 = 1024;

/// A construct the lowering does not handle, or PTX that is not valid.
#[derive(Clone, Debug, PartialEq)]
pub struct LowerError {
    pub loc: Loc,
    pub message: String,
}

impl std::fmt::Display for LowerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}: {}", self.loc.line, self.loc.col, self.message)
    }
}

pub type LResult<T> = Result<T, LowerError>;

pub(crate) fn lerr<T>(loc: Loc, message: impl Into<String>) -> LResult<T> {
    Err(LowerError { loc, message: message.into() })
}

/// The IR type that holds a PTX type's bits (f16 and bf16 are 16-bit patterns).
pub fn ir_type(t: ScalarType) -> Option<Type> {
    use ScalarType::*;
    Some(match t {
        Pred => Type::Bool,
        B8 | U8 => Type::U8,
        S8 => Type::I8,
        B16 | U16 | F16 | Bf16 => Type::U16,
        S16 => Type::I16,
        B32 | U32 | F16x2 | Bf16x2 => Type::U32,
        S32 => Type::I32,
        F32 => Type::F32,
        B64 | U64 => Type::U64,
        S64 => Type::I64,
        F64 => Type::F64,
        B128 => return None,
    })
}
