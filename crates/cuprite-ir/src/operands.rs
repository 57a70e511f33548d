//! Operand walks and renaming over IR instructions and terminators: what a pass needs
//! to find the values an instruction reads, or to copy it with values, blocks and locals
//! renamed (the CPU back-end's inliner and fission, sema's contraction after inlining).

use crate::*;

/// The values `k` reads, in operand order.
pub fn inst_uses(k: &InstKind) -> Vec<ValueId> {
    match k {
        InstKind::Const(_) | InstKind::Special(_) | InstKind::LoadLocal(_) | InstKind::LocalAddr(_) | InstKind::GlobalAddr(_) | InstKind::FuncAddr(_) => vec![],
        InstKind::Unary(_, a) | InstKind::Cast(a) | InstKind::Bitcast(a) => vec![*a],
        InstKind::Binary(_, a, b) | InstKind::PtrDiff(a, b) => vec![*a, *b],
        InstKind::Select(c, a, b) => vec![*c, *a, *b],
        InstKind::StoreLocal(_, v) => vec![*v],
        InstKind::Load { ptr, .. } => vec![*ptr],
        InstKind::Store { ptr, value, .. } => vec![*ptr, *value],
        InstKind::FieldAddr { base, .. } => vec![*base],
        InstKind::PtrAdd { base, index } => vec![*base, *index],
        InstKind::Copy { dst, src, .. } => vec![*dst, *src],
        InstKind::Call { args, .. } | InstKind::CallBuiltin { args, .. } => args.clone(),
        InstKind::CallIndirect { callee, args } => {
            let mut v = vec![*callee];
            v.extend(args.iter().copied());
            v
        }
        InstKind::Check(op) => op.operand().into_iter().collect(),
    }
}

/// The values a terminator reads.
pub fn term_uses(t: &Terminator) -> Vec<ValueId> {
    match t {
        Terminator::Branch { cond, .. } => vec![*cond],
        Terminator::Switch { value, .. } => vec![*value],
        Terminator::Return(Some(v)) => vec![*v],
        Terminator::Barrier { pred: Some(p), .. } => vec![*p],
        Terminator::Warp { args, .. } => args.clone(),
        _ => vec![],
    }
}

/// `k` with its values renamed by `v` and its locals by `l`.
pub fn map_inst(k: &InstKind, v: &dyn Fn(ValueId) -> ValueId, l: &dyn Fn(LocalId) -> LocalId) -> InstKind {
    use InstKind::*;
    match k {
        Const(c) => Const(c.clone()),
        Unary(op, a) => Unary(*op, v(*a)),
        Binary(op, a, b) => Binary(*op, v(*a), v(*b)),
        Cast(a) => Cast(v(*a)),
        Bitcast(a) => Bitcast(v(*a)),
        Select(c, a, b) => Select(v(*c), v(*a), v(*b)),
        LoadLocal(x) => LoadLocal(l(*x)),
        StoreLocal(x, a) => StoreLocal(l(*x), v(*a)),
        LocalAddr(x) => LocalAddr(l(*x)),
        GlobalAddr(g) => GlobalAddr(*g),
        Load { ptr, volatile } => Load { ptr: v(*ptr), volatile: *volatile },
        Store { ptr, value, volatile } => Store { ptr: v(*ptr), value: v(*value), volatile: *volatile },
        FieldAddr { base, strukt, field } => FieldAddr { base: v(*base), strukt: *strukt, field: *field },
        PtrAdd { base, index } => PtrAdd { base: v(*base), index: v(*index) },
        PtrDiff(a, b) => PtrDiff(v(*a), v(*b)),
        Copy { dst, src, bytes } => Copy { dst: v(*dst), src: v(*src), bytes: *bytes },
        Special(s) => Special(*s),
        Call { func, args } => Call { func: *func, args: args.iter().map(|a| v(*a)).collect() },
        CallIndirect { callee, args } => CallIndirect { callee: v(*callee), args: args.iter().map(|a| v(*a)).collect() },
        FuncAddr(f) => FuncAddr(*f),
        CallBuiltin { builtin, args } => CallBuiltin { builtin: builtin.clone(), args: args.iter().map(|a| v(*a)).collect() },
        Check(op) => {
            let mut op = op.clone();
            if let Some(x) = op.operand_mut() {
                *x = v(*x);
            }
            Check(op)
        }
    }
}

/// A terminator with its values, blocks and locals renamed.
pub fn map_term(
    t: &Terminator,
    v: &dyn Fn(ValueId) -> ValueId,
    b: &dyn Fn(BlockId) -> BlockId,
    l: &dyn Fn(LocalId) -> LocalId,
) -> Terminator {
    match t {
        Terminator::Jump(x) => Terminator::Jump(b(*x)),
        Terminator::Branch { cond, then, else_ } => Terminator::Branch { cond: v(*cond), then: b(*then), else_: b(*else_) },
        Terminator::Switch { value, cases, default } => Terminator::Switch {
            value: v(*value),
            cases: cases.iter().map(|(c, x)| (*c, b(*x))).collect(),
            default: b(*default),
        },
        Terminator::Return(x) => Terminator::Return(x.map(v)),
        Terminator::Barrier { kind, pred, result, next } => Terminator::Barrier {
            kind: *kind,
            pred: pred.map(v),
            result: result.map(l),
            next: b(*next),
        },
        Terminator::Warp { op, args, results, next } => Terminator::Warp {
            op: *op,
            args: args.iter().map(|a| v(*a)).collect(),
            results: results.iter().map(|r| l(*r)).collect(),
            next: b(*next),
        },
        Terminator::Unreachable => Terminator::Unreachable,
    }
}
