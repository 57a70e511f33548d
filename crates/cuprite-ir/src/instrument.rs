//! Checking mode's instrumentation pass (`cuprite run --sanitize`, `cuprite sanitize`).
//!
//! It rewrites a module so that every memory access through a pointer asks the checker
//! first, and every barrier, warp collective and kernel exit tells it, with
//! `InstKind::Check` instructions (checking-only: front-ends never make them; the CPU
//! back-end prints them as calls into the runtime's checker; other back-ends refuse
//! them). Which tool runs (memcheck, racecheck, synccheck, initcheck) is the runtime's
//! choice: one checked build serves all four.
//!
//! - `Load`, `Store`, `Copy` and atomics get a `CheckOp::Access` just before them (volatile
//!   loads and stores say so: racecheck orders memory by them, as by atomics), and
//!   then access through the pointer it returns (the checker hands back a scratch area
//!   for an invalid access, so that the thread goes on as under compute-sanitizer).
//! - A fence (`Builtin::Fence`) gets `CheckOp::Fence` just before it: atomics are
//!   relaxed (CUDA's model), and racecheck lets them order memory only through fences.
//! - `Terminator::Barrier` gets `CheckOp::Barrier`, `Terminator::Warp` `CheckOp::WarpMask`
//!   with its member mask (`CheckOp::WarpSync` for `__activemask()`), a conditional
//!   `Terminator::Branch` `CheckOp::Branch` with its condition (the profiler's divergence
//!   count), and a kernel's `Terminator::Return` `CheckOp::Exit` (where the module has a
//!   barrier: synccheck compares exits with barriers only), each as the block's last
//!   instruction, located at the terminator.
//!
//! The same build serves the profiler (`cuprite run --profile`, `CUPRITE_PROFILE=1`): it
//! counts warp-level requests, sectors and bank conflicts from the accesses' addresses.
//!
//! Not checked (yet): device-side `memcpy`/`memset` (their sizes are run-time values),
//! accesses inside runtime services (printf, textures).

use crate::*;

/// Instruments every function of the module that has a body.
pub fn instrument(m: &mut Module) {
    let mut functions = std::mem::take(&mut m.functions);
    {
        let shape: &Module = m;
        let layouts = |ty: &Type| shape.layout(ty);
        let mut site = 0;
        // synccheck compares a thread's exit with the barriers others reached: in a module
        // without barriers exits say nothing, and a call per thread is a cost.
        let barriers = functions.iter().any(|f| f.blocks.iter().any(|b| matches!(b.term, Terminator::Barrier { .. })));
        for f in &mut functions {
            instrument_function(f, &layouts, &mut site, barriers);
        }
    }
    m.functions = functions;
}

/// The access a memory instruction makes: (pointer operand index, bytes, align, kind).
fn access_of(f: &Function, inst: &Inst, layout: &dyn Fn(&Type) -> (u64, u64)) -> Vec<(ValueId, u64, u64, AccessKind)> {
    let pointee = |p: ValueId| match f.value_type(p) {
        Type::Ptr(t) if **t != Type::Void => Some(layout(t)),
        _ => None,
    };
    match &inst.kind {
        InstKind::Load { ptr, volatile } => match inst.result {
            Some(r) => {
                let (s, a) = layout(f.value_type(r));
                vec![(*ptr, s, a, if *volatile { AccessKind::VolatileRead } else { AccessKind::Read })]
            }
            None => vec![],
        },
        InstKind::Store { ptr, value, volatile } => {
            let (s, a) = layout(f.value_type(*value));
            vec![(*ptr, s, a, if *volatile { AccessKind::VolatileWrite } else { AccessKind::Write })]
        }
        InstKind::Copy { dst, src, bytes } if *bytes > 0 => {
            let align = |p: ValueId| pointee(p).map_or(1, |(_, a)| a);
            vec![(*src, *bytes, align(*src), AccessKind::Read), (*dst, *bytes, align(*dst), AccessKind::Write)]
        }
        InstKind::CallBuiltin { builtin: Builtin::Atomic { .. }, args } => match (inst.result, args.first()) {
            (Some(r), Some(p)) => {
                let (s, a) = layout(f.value_type(r));
                vec![(*p, s, a, AccessKind::Atomic)]
            }
            _ => vec![],
        },
        _ => vec![],
    }
}

fn replace_operand(kind: &mut InstKind, old: ValueId, new: ValueId, which: AccessKind) {
    match kind {
        InstKind::Load { ptr, .. } | InstKind::Store { ptr, .. } => *ptr = new,
        InstKind::Copy { dst, src, .. } => {
            if which == AccessKind::Write && *dst == old {
                *dst = new;
            } else if *src == old {
                *src = new;
            }
        }
        InstKind::CallBuiltin { args, .. } => args[0] = new,
        _ => {}
    }
}

fn instrument_function(f: &mut Function, layout: &dyn Fn(&Type) -> (u64, u64), site: &mut u32, barriers: bool) {
    let mut next = || {
        *site += 1;
        *site
    };
    let is_kernel = matches!(f.kind, FunctionKind::Kernel { .. });
    for b in 0..f.blocks.len() {
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(insts.len() * 2);
        for mut inst in insts {
            if matches!(inst.kind, InstKind::CallBuiltin { builtin: Builtin::Fence(_), .. }) {
                out.push(Inst { result: None, kind: InstKind::Check(CheckOp::Fence), loc: inst.loc });
            }
            for (ptr, bytes, align, kind) in access_of(f, &inst, layout) {
                let checked = ValueId(f.values.len() as u32);
                f.values.push(f.value_type(ptr).clone());
                out.push(Inst {
                    result: Some(checked),
                    kind: InstKind::Check(CheckOp::Access { ptr, bytes: bytes.max(1), align: align.max(1).next_power_of_two(), kind, site: next() }),
                    loc: inst.loc,
                });
                replace_operand(&mut inst.kind, ptr, checked, kind);
            }
            out.push(inst);
        }
        let block = &mut f.blocks[b];
        let event = match &block.term {
            Terminator::Barrier { .. } => Some(CheckOp::Barrier),
            // Every collective but `__activemask()` has its member mask first.
            Terminator::Warp { op, args, .. } if !matches!(op, WarpOp::Lockstep | WarpOp::ActiveMask | WarpOp::Yield) && !args.is_empty() => {
                Some(CheckOp::WarpMask { mask: args[0], site: next(), orders_memory: matches!(op, WarpOp::SyncWarp) })
            }
            Terminator::Warp { op, .. } if !matches!(op, WarpOp::Lockstep | WarpOp::Yield) => Some(CheckOp::WarpSync),
            Terminator::Branch { cond, .. } => Some(CheckOp::Branch { cond: *cond, site: next() }),
            Terminator::Return(_) if is_kernel && barriers => Some(CheckOp::Exit),
            _ => None,
        };
        if let Some(op) = event {
            out.push(Inst { result: None, kind: InstKind::Check(op), loc: block.term_loc });
        }
        block.insts = out;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel_storing_through_param() -> Module {
        let f = Function {
            name: "k".into(),
            symbol: Some("_Z1kPi".into()),
            kind: FunctionKind::Kernel { stub_symbol: "_Z1kPi".into(), max_threads: None, min_blocks: None },
            inline: InlineHint::None,
            params: vec![LocalId(0)],
            ret: Type::Void,
            locals: vec![Local { name: "p".into(), ty: Type::I32.ptr_to(), align: None }],
            values: vec![Type::I32.ptr_to(), Type::I32, Type::I32.ptr_to()],
            blocks: vec![
                Block {
                    insts: vec![
                        Inst { result: Some(ValueId(0)), kind: InstKind::LoadLocal(LocalId(0)), loc: None },
                        Inst { result: Some(ValueId(1)), kind: InstKind::Load { ptr: ValueId(0), volatile: false }, loc: None },
                    ],
                    term: Terminator::Barrier { kind: BarrierKind::Sync, pred: None, result: None, next: BlockId(1) },
                    term_loc: None,
                },
                Block {
                    insts: vec![
                        Inst { result: Some(ValueId(2)), kind: InstKind::LoadLocal(LocalId(0)), loc: None },
                        Inst { result: None, kind: InstKind::Store { ptr: ValueId(0), value: ValueId(1), volatile: false }, loc: None },
                    ],
                    term: Terminator::Return(None),
                    term_loc: None,
                },
            ],
            loc: None,
        };
        Module { functions: vec![f], ..Module::default() }
    }

    #[test]
    fn accesses_go_through_checks_and_events_precede_terminators() {
        let mut m = kernel_storing_through_param();
        instrument(&mut m);
        let text = m.to_string();
        assert!(text.contains("check.access read %0, bytes 4, align 4, site 1"), "{text}");
        assert!(text.contains("check.access write %0, bytes 4, align 4, site 2"), "{text}");
        assert!(text.contains("check.barrier"), "{text}");
        assert!(text.contains("check.exit"), "{text}");
        assert!(!text.contains("check.branch"), "{text}");
        let f = &m.functions[0];
        // The load now reads through the checked pointer.
        assert!(matches!(f.blocks[0].insts[2].kind, InstKind::Load { ptr: ValueId(3), .. }));
        assert!(crate::verify::verify(&m).is_ok(), "{:?}", crate::verify::verify(&m));
    }

    #[test]
    fn volatile_accesses_say_so() {
        let mut m = kernel_storing_through_param();
        let f = &mut m.functions[0];
        f.blocks[0].insts[1].kind = InstKind::Load { ptr: ValueId(0), volatile: true };
        f.blocks[1].insts[1].kind = InstKind::Store { ptr: ValueId(0), value: ValueId(1), volatile: true };
        instrument(&mut m);
        let text = m.to_string();
        assert!(text.contains("check.access volatile read %0, bytes 4"), "{text}");
        assert!(text.contains("check.access volatile write %0, bytes 4"), "{text}");
    }

    #[test]
    fn exits_are_events_only_where_the_module_has_barriers() {
        let mut m = kernel_storing_through_param();
        m.functions[0].blocks[0].term = Terminator::Jump(BlockId(1));
        instrument(&mut m);
        assert!(!m.to_string().contains("check.exit"), "{m}");
    }

    #[test]
    fn fences_are_events_before_them() {
        let mut m = kernel_storing_through_param();
        let fence = Inst { result: None, kind: InstKind::CallBuiltin { builtin: Builtin::Fence(Scope::Device), args: vec![] }, loc: None };
        m.functions[0].blocks[1].insts.insert(1, fence);
        instrument(&mut m);
        let insts = &m.functions[0].blocks[1].insts;
        let at = insts.iter().position(|i| matches!(i.kind, InstKind::CallBuiltin { builtin: Builtin::Fence(_), .. })).unwrap();
        assert!(matches!(insts[at - 1].kind, InstKind::Check(CheckOp::Fence)), "{m}");
        assert!(m.to_string().contains("check.fence"), "{m}");
        assert!(crate::verify::verify(&m).is_ok(), "{:?}", crate::verify::verify(&m));
    }

    #[test]
    fn only_syncwarp_masks_order_memory() {
        let mut m = kernel_storing_through_param();
        let f = &mut m.functions[0];
        f.values.push(Type::I32);
        f.blocks[0].insts.push(Inst { result: Some(ValueId(3)), kind: InstKind::Const(Const::Int(-1, Type::I32)), loc: None });
        f.blocks[0].term = Terminator::Warp { op: WarpOp::SyncWarp, args: vec![ValueId(3)], results: vec![], next: BlockId(1) };
        let mut shfl = m.clone();
        instrument(&mut m);
        assert!(m.to_string().contains("check.warp_mask %3, site 2, orders memory"), "{m}");
        let f = &mut shfl.functions[0];
        f.blocks[0].term = Terminator::Warp { op: WarpOp::Vote(VoteKind::Any), args: vec![ValueId(3), ValueId(1)], results: vec![], next: BlockId(1) };
        instrument(&mut shfl);
        let text = shfl.to_string();
        assert!(text.contains("check.warp_mask %3, site 2") && !text.contains("orders memory"), "{text}");
    }
}
