//! Back to block-local values: for back-ends (and passes) that want every value used only
//! in its own block, as the IR required before values could cross blocks.
//!
//! Each value used outside the block that defines it gets a local: the defining block
//! stores it right after the definition, and every other block that uses it loads it
//! once at its start. Dominance guarantees the store has run before any such load.

use crate::*;
use std::collections::{BTreeMap, BTreeSet};

impl InstKind {
    /// The value operands, for rewriting.
    pub fn uses_mut(&mut self) -> Vec<&mut ValueId> {
        match self {
            InstKind::Const(_)
            | InstKind::Special(_)
            | InstKind::LoadLocal(_)
            | InstKind::LocalAddr(_)
            | InstKind::GlobalAddr(_)
            | InstKind::FuncAddr(_) => vec![],
            InstKind::Unary(_, a) | InstKind::Cast(a) | InstKind::Bitcast(a) | InstKind::StoreLocal(_, a) => vec![a],
            InstKind::Binary(_, a, b) | InstKind::PtrDiff(a, b) => vec![a, b],
            InstKind::Select(c, a, b) => vec![c, a, b],
            InstKind::Load { ptr, .. } => vec![ptr],
            InstKind::Store { ptr, value, .. } => vec![ptr, value],
            InstKind::FieldAddr { base, .. } => vec![base],
            InstKind::PtrAdd { base, index } => vec![base, index],
            InstKind::Copy { dst, src, .. } => vec![dst, src],
            InstKind::Call { args, .. } | InstKind::CallBuiltin { args, .. } => args.iter_mut().collect(),
            InstKind::CallIndirect { callee, args } => {
                let mut v = vec![callee];
                v.extend(args.iter_mut());
                v
            }
            InstKind::Check(op) => op.operand_mut().into_iter().collect(),
        }
    }
}

impl Terminator {
    /// The value operands, for rewriting.
    pub fn uses_mut(&mut self) -> Vec<&mut ValueId> {
        match self {
            Terminator::Branch { cond, .. } => vec![cond],
            Terminator::Switch { value, .. } => vec![value],
            Terminator::Return(Some(v)) => vec![v],
            Terminator::Barrier { pred: Some(p), .. } => vec![p],
            Terminator::Warp { args, .. } => args.iter_mut().collect(),
            Terminator::Return(None) | Terminator::Barrier { pred: None, .. } | Terminator::Jump(_) | Terminator::Unreachable => vec![],
        }
    }
}

/// Makes every value of `f` block-local. Returns whether anything changed.
pub fn demote_cross_block_values(f: &mut Function) -> bool {
    let mut def_block: BTreeMap<ValueId, usize> = BTreeMap::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        for inst in &b.insts {
            if let Some(r) = inst.result {
                def_block.insert(r, bi);
            }
        }
    }
    // Values each block uses from other blocks. (A use its definition does not dominate
    // is invalid IR: it is left for the checks to report.)
    let dom = crate::dom::Dominators::new(f);
    let mut imports: Vec<BTreeSet<ValueId>> = vec![BTreeSet::new(); f.blocks.len()];
    for (bi, b) in f.blocks.iter_mut().enumerate() {
        let here = BlockId(bi as u32);
        let mut note = |v: ValueId| {
            let valid = |d: usize| d != bi && (dom.dominates(BlockId(d as u32), here) || !dom.reachable(here));
            if def_block.get(&v).is_some_and(|d| valid(*d)) {
                imports[bi].insert(v);
            }
        };
        for inst in &mut b.insts {
            inst.kind.uses_mut().into_iter().for_each(|v| note(*v));
        }
        b.term.uses_mut().into_iter().for_each(|v| note(*v));
    }
    let crossing: BTreeSet<ValueId> = imports.iter().flatten().copied().collect();
    if crossing.is_empty() {
        return false;
    }
    let mut slot: BTreeMap<ValueId, LocalId> = BTreeMap::new();
    for v in &crossing {
        let l = LocalId(f.locals.len() as u32);
        f.locals.push(Local { name: format!("ssa.{}", v.0), ty: f.values[v.index()].clone(), align: None });
        slot.insert(*v, l);
    }
    for (bi, imported) in imports.iter().enumerate() {
        let old = std::mem::take(&mut f.blocks[bi].insts);
        let mut insts = Vec::with_capacity(old.len() + imported.len());
        let mut rename: BTreeMap<ValueId, ValueId> = BTreeMap::new();
        let loc = old.first().and_then(|i| i.loc).or(f.blocks[bi].term_loc);
        for v in imported {
            let nv = ValueId(f.values.len() as u32);
            f.values.push(f.values[v.index()].clone());
            insts.push(Inst { result: Some(nv), kind: InstKind::LoadLocal(slot[v]), loc });
            rename.insert(*v, nv);
        }
        let block = &mut f.blocks[bi];
        for mut inst in old {
            for u in inst.kind.uses_mut() {
                if let Some(n) = rename.get(u) {
                    *u = *n;
                }
            }
            let result = inst.result;
            let at = inst.loc;
            insts.push(inst);
            if let Some(l) = result.and_then(|r| slot.get(&r)) {
                insts.push(Inst { result: None, kind: InstKind::StoreLocal(*l, result.unwrap()), loc: at });
            }
        }
        for u in block.term.uses_mut() {
            if let Some(n) = rename.get(u) {
                *u = *n;
            }
        }
        block.insts = insts;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_used_in_two_later_blocks_goes_through_one_local() {
        // bb0: %0 = 7; %1 = cond; br %1, bb1, bb2   bb1: ret %0   bb2: %2 = %0 + %0; ret %2
        let i = |result: Option<u32>, kind| Inst { result: result.map(ValueId), kind, loc: None };
        let mut f = Function {
            name: "f".into(),
            symbol: None,
            kind: FunctionKind::Device,
            inline: InlineHint::None,
            params: vec![],
            ret: Type::I32,
            locals: vec![],
            values: vec![Type::I32, Type::Bool, Type::I32],
            blocks: vec![
                Block {
                    insts: vec![i(Some(0), InstKind::Const(Const::Int(7, Type::I32))), i(Some(1), InstKind::Const(Const::Bool(true)))],
                    term: Terminator::Branch { cond: ValueId(1), then: BlockId(1), else_: BlockId(2) },
                    term_loc: None,
                },
                Block { insts: vec![], term: Terminator::Return(Some(ValueId(0))), term_loc: None },
                Block {
                    insts: vec![i(Some(2), InstKind::Binary(BinaryOp::Add, ValueId(0), ValueId(0)))],
                    term: Terminator::Return(Some(ValueId(2))),
                    term_loc: None,
                },
            ],
            loc: None,
        };
        let m = Module { functions: vec![f.clone()], ..Default::default() };
        assert!(crate::verify::verify(&m).is_ok(), "cross-block uses that the definition dominates are valid");
        assert!(demote_cross_block_values(&mut f));
        assert_eq!(f.locals.len(), 1);
        assert!(matches!(f.blocks[0].insts[1].kind, InstKind::StoreLocal(LocalId(0), ValueId(0))));
        assert!(matches!(f.blocks[1].insts[0].kind, InstKind::LoadLocal(LocalId(0))));
        let Terminator::Return(Some(r)) = f.blocks[1].term else { panic!() };
        assert_eq!(f.blocks[1].insts[0].result, Some(r));
        let InstKind::Binary(_, a, b) = f.blocks[2].insts[1].kind else { panic!() };
        assert_eq!((a, b), (f.blocks[2].insts[0].result.unwrap(), f.blocks[2].insts[0].result.unwrap()));
        assert!(!demote_cross_block_values(&mut f), "already block-local");
        assert!(crate::verify::verify(&Module { functions: vec![f], ..Default::default() }).is_ok());
    }
}
