//! Warp collectives as the native `.sync` instructions (sm_70+; `redux.sync` sm_80+).
//! Their results go to the terminator's result locals.

use super::function::Fx;
use super::inst::convert_reg;
use super::types::{class, Class};
use super::EmitError;
use cuprite_ir::{LocalId, ReduceKind, ShflKind, Type, ValueId, VoteKind, WarpOp};

impl<'a> Fx<'a> {
    fn operand(&mut self, args: &[ValueId], i: usize) -> Result<String, EmitError> {
        let v = *args.get(i).ok_or_else(|| self.err("internal error: warp collective is missing an operand"))?;
        self.v(v)
    }

    fn result_to(&mut self, results: &[LocalId], i: usize, r: &str, from: &Type) -> Result<(), EmitError> {
        if let Some(l) = results.get(i) {
            let to = self.f.local(*l).ty.clone();
            let c = convert_reg(self, r, from, &to)?;
            self.store_local(*l, &c);
        }
        Ok(())
    }

    pub fn warp(&mut self, op: WarpOp, args: &[ValueId], results: &[LocalId]) -> Result<(), EmitError> {
        match op {
            // The GPU schedules a spinning thread's warp-mates by itself.
            WarpOp::Lockstep => {}
            // A spinning wait's yield point: a zero sleep costs the GPU nothing and
            // tells Cuprite's PTX front-end to let the block's other threads run.
            WarpOp::Yield => self.emit("nanosleep.u32 0".to_string()),
            WarpOp::SyncWarp => {
                let m = self.operand(args, 0)?;
                self.emit(format!("bar.warp.sync {m}"));
            }
            WarpOp::ActiveMask => {
                let r = self.tmp(Class::B32);
                self.emit(format!("activemask.b32 {r}"));
                self.result_to(results, 0, &r, &Type::U32)?;
            }
            WarpOp::Shfl(kind) => {
                let mask = self.operand(args, 0)?;
                let value = self.operand(args, 1)?;
                let lane = self.operand(args, 2)?;
                let width = self.operand(args, 3)?;
                let vty = self.vty(args[1]).clone();
                // c = ((32 - width) << 8) | clamp, as the PTX ISA describes `shfl.sync`'s c.
                let c = self.tmp(Class::B32);
                self.emit(format!("sub.s32 {c}, 32, {width}"));
                self.emit(format!("shl.b32 {c}, {c}, 8"));
                if kind != ShflKind::Up {
                    self.emit(format!("or.b32 {c}, {c}, 31"));
                }
                let mode = match kind {
                    ShflKind::Idx => "idx",
                    ShflKind::Up => "up",
                    ShflKind::Down => "down",
                    ShflKind::Xor => "bfly",
                };
                let out = match class(&vty) {
                    Some(Class::B32) | Some(Class::F32) => {
                        let d = self.tmp(class(&vty).unwrap());
                        self.emit(format!("shfl.sync.{mode}.b32 {d}, {value}, {lane}, {c}, {mask}"));
                        d
                    }
                    Some(Class::B64) | Some(Class::F64) => {
                        let (lo, hi, rlo, rhi) = (self.tmp(Class::B32), self.tmp(Class::B32), self.tmp(Class::B32), self.tmp(Class::B32));
                        self.emit(format!("mov.b64 {{{lo}, {hi}}}, {value}"));
                        self.emit(format!("shfl.sync.{mode}.b32 {rlo}, {lo}, {lane}, {c}, {mask}"));
                        self.emit(format!("shfl.sync.{mode}.b32 {rhi}, {hi}, {lane}, {c}, {mask}"));
                        let d = self.tmp(class(&vty).unwrap());
                        self.emit(format!("mov.b64 {d}, {{{rlo}, {rhi}}}"));
                        d
                    }
                    _ => return Err(self.err(format!("shuffle of {vty} is not supported by the PTX back-end"))),
                };
                self.result_to(results, 0, &out, &vty)?;
            }
            WarpOp::Vote(kind) => {
                let mask = self.operand(args, 0)?;
                let pty = self.vty(args[1]).clone();
                let p = self.operand(args, 1)?;
                let p = convert_reg(self, &p, &pty, &Type::Bool)?;
                if kind == VoteKind::Ballot {
                    let r = self.tmp(Class::B32);
                    self.emit(format!("vote.sync.ballot.b32 {r}, {p}, {mask}"));
                    self.result_to(results, 0, &r, &Type::U32)?;
                } else {
                    let mode = match kind {
                        VoteKind::All => "all",
                        VoteKind::Any => "any",
                        _ => "uni",
                    };
                    let q = self.tmp(Class::Pred);
                    self.emit(format!("vote.sync.{mode}.pred {q}, {p}, {mask}"));
                    self.result_to(results, 0, &q, &Type::Bool)?;
                }
            }
            WarpOp::MatchAny | WarpOp::MatchAll => {
                let mask = self.operand(args, 0)?;
                let vty = self.vty(args[1]).clone();
                let value = self.operand(args, 1)?;
                let bits = match class(&vty) {
                    Some(Class::B32) | Some(Class::F32) => "b32",
                    Some(Class::B64) | Some(Class::F64) => "b64",
                    _ => return Err(self.err(format!("match of {vty} is not supported by the PTX back-end"))),
                };
                let r = self.tmp(Class::B32);
                if op == WarpOp::MatchAny {
                    self.emit(format!("match.any.sync.{bits} {r}, {value}, {mask}"));
                    self.result_to(results, 0, &r, &Type::U32)?;
                } else {
                    let q = self.tmp(Class::Pred);
                    self.emit(format!("match.all.sync.{bits} {r}|{q}, {value}, {mask}"));
                    self.result_to(results, 0, &r, &Type::U32)?;
                    self.result_to(results, 1, &q, &Type::Bool)?;
                }
            }
            WarpOp::Reduce(kind) => {
                if self.target.sm < 80 {
                    return Err(self.err(format!("__reduce_*_sync needs sm_80 or later (redux.sync); the target is sm_{}", self.target.sm)));
                }
                let mask = self.operand(args, 0)?;
                let vty = self.vty(args[1]).clone();
                let value = self.operand(args, 1)?;
                let signed = vty == Type::I32;
                let suffix = match kind {
                    ReduceKind::Add | ReduceKind::Min | ReduceKind::Max if signed => "s32",
                    ReduceKind::Add | ReduceKind::Min | ReduceKind::Max => "u32",
                    _ => "b32",
                };
                let name = match kind {
                    ReduceKind::Add => "add",
                    ReduceKind::Min => "min",
                    ReduceKind::Max => "max",
                    ReduceKind::And => "and",
                    ReduceKind::Or => "or",
                    ReduceKind::Xor => "xor",
                };
                let r = self.tmp(Class::B32);
                self.emit(format!("redux.sync.{name}.{suffix} {r}, {value}, {mask}"));
                self.result_to(results, 0, &r, &vty)?;
            }
        }
        Ok(())
    }
}
