//! Barriers, fences and warp collectives: terminators in the IR, so each ends a block.

use super::body::Lowerer;
use super::{lerr, LResult};
use crate::isa::ScalarType;
use crate::parse::{Inst, Operand};
use cuprite_ir::{BarrierKind, BinaryOp as B, Builtin, InstKind as IK, ReduceKind, Scope, ShflKind, Terminator, Type, VoteKind, WarpOp};

impl Lowerer<'_> {
    /// Ends the block with `term(next)` and continues at `next`.
    fn through(&mut self, make: impl FnOnce(cuprite_ir::BlockId) -> Terminator) {
        let next = self.s.new_block();
        self.s.terminate(make(next));
        self.s.switch_to(next);
    }

    pub(crate) fn barrier(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["sync", "aligned", "warp", "red", "popc", "and", "or", "cta", "arrive"])?;
        if i.has("warp") {
            // bar.warp.sync mask
            self.nops(i, 1)?;
            let m = self.read(&i.operands[0], ScalarType::U32, i.loc)?;
            self.through(|next| Terminator::Warp { op: WarpOp::SyncWarp, args: vec![m], results: vec![], next });
            return Ok(());
        }
        if i.has("arrive") {
            return lerr(i.loc, format!("'{}': split barriers (arrive) are not supported yet", i.name()));
        }
        let red = i.has("red");
        let first = if red { 1 } else { 0 };
        // The barrier number must be 0 and the count absent: named barriers are not supported.
        match i.operands.get(first) {
            Some(Operand::Int(0)) => {}
            _ => return lerr(i.loc, format!("'{}': only barrier 0 is supported yet (named barriers are not)", i.name())),
        }
        let extra = i.operands.len() - first - 1;
        if red {
            if extra != 1 {
                return lerr(i.loc, format!("'{}': a thread count on a barrier is not supported yet", i.name()));
            }
            let p = self.read(&i.operands[first + 1], ScalarType::Pred, i.loc)?;
            let kind = if i.has("popc") {
                BarrierKind::Count
            } else if i.has("and") {
                BarrierKind::And
            } else {
                BarrierKind::Or
            };
            let res = self.temp(Type::I32);
            self.through(|next| Terminator::Barrier { kind, pred: Some(p), result: Some(res), next });
            let v = self.load_local(res);
            let v = if i.has("popc") {
                self.cast(v, &Type::U32)
            } else {
                let z = self.int(0, &Type::I32);
                self.bin(B::Ne, v, z)
            };
            return self.write(&i.operands[0], v, i.loc);
        }
        if extra != 0 {
            return lerr(i.loc, format!("'{}': a thread count on a barrier is not supported yet", i.name()));
        }
        // The block barrier after nvcc's grid-barrier spin is the grid barrier (grid.rs).
        let kind = if std::mem::take(&mut self.grid_sync_pending) { BarrierKind::Grid } else { BarrierKind::Sync };
        self.through(|next| Terminator::Barrier { kind, pred: None, result: None, next });
        Ok(())
    }

    pub(crate) fn fence(&mut self, i: &Inst) -> LResult<()> {
        // membar.{cta,gl,sys}, fence{.sc,.acq_rel}.{cta,gpu,sys}, fence.proxy.*: on the
        // CPU a fence of the scope orders everything.
        let scope = if i.has("cta") {
            Scope::Block
        } else if i.has("sys") {
            Scope::System
        } else if i.mods.iter().any(|m| m.starts_with("proxy")) && !i.has("gpu") {
            Scope::Block
        } else {
            Scope::Device
        };
        self.emit_void(IK::CallBuiltin { builtin: Builtin::Fence(scope), args: vec![] });
        Ok(())
    }

    /// `shfl.sync.mode.b32 d[|p], a, b, c, membermask` with PTX's own lane rule: the
    /// source lane `j` and whether it is in range (`p`) come from `b` and `c` (clamp and
    /// segment mask), then an index shuffle reads lane `j` (the own lane when out of range).
    pub(crate) fn shfl(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["sync", "up", "down", "bfly", "idx"])?;
        if !i.has("sync") {
            return lerr(i.loc, format!("'{}': shfl without .sync is not supported (sm_70 and later need shfl.sync)", i.name()));
        }
        self.nops(i, 5)?;
        let u = Type::U32;
        let a = self.read(&i.operands[1], ScalarType::U32, i.loc)?;
        let b = self.read(&i.operands[2], ScalarType::U32, i.loc)?;
        let c = self.read(&i.operands[3], ScalarType::U32, i.loc)?;
        let m = self.read(&i.operands[4], ScalarType::U32, i.loc)?;
        let lane = self.emit(IK::Special(cuprite_ir::SpecialReg::LaneId), u.clone());
        let lane = self.cast(lane, &u);
        let k31 = self.int(31, &u);
        let bval = self.bin(B::And, b, k31);
        let cval = self.bin(B::And, c, k31);
        let k8 = self.int(8, &u);
        let seg = self.bin(B::Shr, c, k8);
        let segmask = self.bin(B::And, seg, k31);
        let notseg = self.emit(IK::Unary(cuprite_ir::UnaryOp::Not, segmask), u.clone());
        let min_lane = self.bin(B::And, lane, segmask);
        let cpart = self.bin(B::And, cval, notseg);
        let max_lane = self.bin(B::Or, min_lane, cpart);
        let (j, pval) = if i.has("up") {
            let j = self.bin(B::Sub, lane, bval);
            let ji = self.cast(j, &Type::I32);
            let mi = self.cast(max_lane, &Type::I32);
            (j, self.bin(B::Ge, ji, mi))
        } else if i.has("down") {
            let j = self.bin(B::Add, lane, bval);
            (j, self.bin(B::Le, j, max_lane))
        } else if i.has("bfly") {
            let j = self.bin(B::Xor, lane, bval);
            (j, self.bin(B::Le, j, max_lane))
        } else {
            let bpart = self.bin(B::And, bval, notseg);
            let j = self.bin(B::Or, min_lane, bpart);
            (j, self.bin(B::Le, j, max_lane))
        };
        let src = self.select(pval, j, lane);
        let src = self.cast(src, &Type::I32);
        let width = self.int(32, &Type::I32);
        let res = self.temp(u.clone());
        self.through(|next| Terminator::Warp { op: WarpOp::Shfl(ShflKind::Idx), args: vec![m, a, src, width], results: vec![res], next });
        let v = self.load_local(res);
        match &i.operands[0] {
            Operand::Pair(d, p) => {
                self.write(d, v, i.loc)?;
                // pval is computed before the shuffle and still valid (locals carry it).
                let pl = self.temp(Type::Bool);
                let _ = pl;
                let pv = self.recompute_pred(i)?;
                self.write(p, pv, i.loc)
            }
            d => self.write(d, v, i.loc),
        }
    }

    /// The in-range predicate of a shuffle, computed again after the collective (values
    /// do not cross blocks).
    fn recompute_pred(&mut self, i: &Inst) -> LResult<cuprite_ir::ValueId> {
        let u = Type::U32;
        let b = self.read(&i.operands[2], ScalarType::U32, i.loc)?;
        let c = self.read(&i.operands[3], ScalarType::U32, i.loc)?;
        let lane = self.emit(IK::Special(cuprite_ir::SpecialReg::LaneId), u.clone());
        let lane = self.cast(lane, &u);
        let k31 = self.int(31, &u);
        let bval = self.bin(B::And, b, k31);
        let cval = self.bin(B::And, c, k31);
        let k8 = self.int(8, &u);
        let seg = self.bin(B::Shr, c, k8);
        let segmask = self.bin(B::And, seg, k31);
        let notseg = self.emit(IK::Unary(cuprite_ir::UnaryOp::Not, segmask), u.clone());
        let min_lane = self.bin(B::And, lane, segmask);
        let cpart = self.bin(B::And, cval, notseg);
        let max_lane = self.bin(B::Or, min_lane, cpart);
        Ok(if i.has("up") {
            let j = self.bin(B::Sub, lane, bval);
            let ji = self.cast(j, &Type::I32);
            let mi = self.cast(max_lane, &Type::I32);
            self.bin(B::Ge, ji, mi)
        } else if i.has("down") {
            let j = self.bin(B::Add, lane, bval);
            self.bin(B::Le, j, max_lane)
        } else if i.has("bfly") {
            let j = self.bin(B::Xor, lane, bval);
            self.bin(B::Le, j, max_lane)
        } else {
            let bpart = self.bin(B::And, bval, notseg);
            let j = self.bin(B::Or, min_lane, bpart);
            self.bin(B::Le, j, max_lane)
        })
    }

    pub(crate) fn vote(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["sync", "all", "any", "uni", "ballot"])?;
        if !i.has("sync") {
            return lerr(i.loc, format!("'{}': vote without .sync is not supported (sm_70 and later need vote.sync)", i.name()));
        }
        self.nops(i, 3)?;
        let p = self.read(&i.operands[1], ScalarType::Pred, i.loc)?;
        let m = self.read(&i.operands[2], ScalarType::U32, i.loc)?;
        let (kind, rt) = if i.has("ballot") {
            (VoteKind::Ballot, Type::U32)
        } else if i.has("all") {
            (VoteKind::All, Type::I32)
        } else if i.has("any") {
            (VoteKind::Any, Type::I32)
        } else {
            (VoteKind::Uni, Type::I32)
        };
        let res = self.temp(rt.clone());
        self.through(|next| Terminator::Warp { op: WarpOp::Vote(kind), args: vec![m, p], results: vec![res], next });
        let v = self.load_local(res);
        let v = if kind == VoteKind::Ballot {
            v
        } else {
            let z = self.int(0, &Type::I32);
            self.bin(B::Ne, v, z)
        };
        self.write(&i.operands[0], v, i.loc)
    }

    pub(crate) fn activemask(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &[])?;
        self.nops(i, 1)?;
        let res = self.temp(Type::U32);
        self.through(|next| Terminator::Warp { op: WarpOp::ActiveMask, args: vec![], results: vec![res], next });
        let v = self.load_local(res);
        self.write(&i.operands[0], v, i.loc)
    }

    pub(crate) fn match_(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["sync", "any", "all"])?;
        self.nops(i, 3)?;
        let t = self.ty(i)?;
        let vt = if t.size() == 8 { ScalarType::U64 } else { ScalarType::U32 };
        let a = self.read(&i.operands[1], vt, i.loc)?;
        let m = self.read(&i.operands[2], ScalarType::U32, i.loc)?;
        if i.has("any") {
            let res = self.temp(Type::U32);
            self.through(|next| Terminator::Warp { op: WarpOp::MatchAny, args: vec![m, a], results: vec![res], next });
            let v = self.load_local(res);
            return self.write(&i.operands[0], v, i.loc);
        }
        let res = self.temp(Type::U32);
        let pred = self.temp(Type::I32);
        self.through(|next| Terminator::Warp { op: WarpOp::MatchAll, args: vec![m, a], results: vec![res, pred], next });
        let v = self.load_local(res);
        match &i.operands[0] {
            Operand::Pair(d, p) => {
                self.write(d, v, i.loc)?;
                let pv = self.load_local(pred);
                let z = self.int(0, &Type::I32);
                let b = self.bin(B::Ne, pv, z);
                self.write(p, b, i.loc)
            }
            d => self.write(d, v, i.loc),
        }
    }

    pub(crate) fn redux(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["sync", "add", "min", "max", "and", "or", "xor"])?;
        self.nops(i, 3)?;
        let t = self.ty(i)?;
        let (kind, vt) = if i.has("add") {
            (ReduceKind::Add, t)
        } else if i.has("min") {
            (ReduceKind::Min, t)
        } else if i.has("max") {
            (ReduceKind::Max, t)
        } else if i.has("and") {
            (ReduceKind::And, ScalarType::U32)
        } else if i.has("or") {
            (ReduceKind::Or, ScalarType::U32)
        } else {
            (ReduceKind::Xor, ScalarType::U32)
        };
        let vt = if vt == ScalarType::B32 { ScalarType::U32 } else { vt };
        if !matches!(vt, ScalarType::U32 | ScalarType::S32) {
            return self.unsupported(i);
        }
        let ty = super::ir_type(vt).unwrap();
        let a = self.read(&i.operands[1], vt, i.loc)?;
        let m = self.read(&i.operands[2], ScalarType::U32, i.loc)?;
        let res = self.temp(ty);
        self.through(|next| Terminator::Warp { op: WarpOp::Reduce(kind), args: vec![m, a], results: vec![res], next });
        let v = self.load_local(res);
        self.write(&i.operands[0], v, i.loc)
    }
}
