//! nvcc's grid barrier (cooperative groups' `grid.sync()`), as the CPU device runs it.
//!
//! nvcc writes `grid.sync()` as: read the grid workspace address from `%envreg1`/`%envreg2`
//! (0 outside a cooperative launch: then `trap`), `barrier.sync 0`, one thread per block
//! adds to a counter in the workspace (`atom.add.release.gpu.u32`) and spins on it
//! (`ld.acquire.gpu.u32`) until every block has arrived, then `barrier.sync 0` again. The
//! CPU device has no workspace and does not run all blocks at once; its grid barrier is
//! the IR's `BarrierKind::Grid` (the kernel runs in grid-wide phases; outside a cooperative
//! launch it fails the launch with `cudaErrorLaunchFailure`, as nvcc's `trap` does on the
//! GPU). So the lowering follows the values derived from `%envreg1`/`%envreg2` (registers
//! computed from them), reads a nonzero token for the workspace, turns the counter's
//! `atom` into a no-op and its spin `ld` into the value that ends the spin, and makes the
//! block barrier that follows the spin the grid barrier. Any other access through the
//! workspace is refused by name.

use super::body::Lowerer;
use super::{lerr, LResult};
use crate::isa::ScalarType;
use crate::parse::{Inst, Operand};
use cuprite_ir::Type;

/// What `%envreg2` (the workspace address's low half) reads; `%envreg1` (the high half)
/// reads 0. Only tested against 0 by nvcc's code; never dereferenced here.
pub(crate) const WORKSPACE_TOKEN_LO: i64 = 0x100;

impl Lowerer<'_> {
    /// Whether `op` is a register derived from the grid workspace address or `%envreg`.
    fn from_workspace(&self, op: &Operand) -> bool {
        match op {
            Operand::Name(n, _) | Operand::Addr(Some(n), _) => self.grid_ws.contains(n),
            Operand::Special(n, None) => n == "%envreg1" || n == "%envreg2",
            Operand::Vector(v) | Operand::List(v) | Operand::Tex(v) => v.iter().any(|o| self.from_workspace(o)),
            Operand::Not(o) => self.from_workspace(o),
            Operand::Pair(a, b) => self.from_workspace(a) || self.from_workspace(b),
            _ => false,
        }
    }

    /// A memory access whose address comes from the grid workspace.
    pub(crate) fn is_workspace_access(&self, i: &Inst) -> bool {
        let addr = match i.opcode.as_str() {
            "atom" | "ld" | "ldu" => i.operands.get(1),
            "red" | "st" => i.operands.first(),
            _ => None,
        };
        addr.is_some_and(|a| matches!(a, Operand::Addr(..)) && self.from_workspace(a))
    }

    /// The arrival (`atom.add…u32`: a no-op, its old value 0) and the spin (`ld…u32`: the
    /// value whose top bit differs, which ends it) of nvcc's grid barrier; the next
    /// `barrier.sync 0` becomes the grid barrier.
    pub(crate) fn workspace_access(&mut self, i: &Inst) -> LResult<()> {
        let u32_only = i.mods.iter().any(|m| m == "u32" || m == "b32");
        match i.opcode.as_str() {
            "atom" if i.has("add") && u32_only && i.operands.len() == 3 => {
                let z = self.int(0, &Type::U32);
                self.write(&i.operands[0], z, i.loc)
            }
            "ld" if u32_only && i.operands.len() == 2 => {
                let done = self.int(0x8000_0000, &Type::U32);
                self.grid_sync_pending = true;
                self.write(&i.operands[0], done, i.loc)
            }
            _ => lerr(
                i.loc,
                format!("'{}' through the grid workspace address (%envreg1/%envreg2): only nvcc's grid barrier (cooperative groups' grid.sync()) is supported", i.name()),
            ),
        }
    }

    /// Follows workspace-derived values after `i`: its destination register is derived when
    /// a source is (a guarded instruction may leave the old value, so it only adds).
    pub(crate) fn track_workspace(&mut self, i: &Inst) {
        if matches!(i.opcode.as_str(), "st" | "red" | "bra" | "call" | "ret") {
            return;
        }
        let Some(Operand::Name(d, 0)) = i.operands.first() else { return };
        if !matches!(self.lookup(d), Some(super::body::Binding::Reg(_, t)) if *t != ScalarType::Pred) {
            return;
        }
        let derived = i.operands[1..].iter().any(|o| self.from_workspace(o));
        if derived {
            self.grid_ws.insert(d.clone());
        } else if i.guard.is_none() {
            self.grid_ws.remove(d);
        }
    }
}
