//! Full unrolling of short counted loops: `for (int f = 0; f < 16; ++f)` becomes sixteen
//! copies of the body, each with the counter a constant, so that ptxas folds the index
//! arithmetic into immediate offsets and `hoist` can move what no longer depends on the
//! counter out of the enclosing loop (nvcc unrolls such loops fully by default).

use super::loops::{counted, natural_loops, Counted, Loop};
use cuprite_ir::operands::{inst_uses, map_inst, map_term, term_uses};
use cuprite_ir::{Block, BlockId, Const, Function, Inst, InstKind, Terminator, ValueId};
use std::collections::HashMap;

/// At most this many iterations are unrolled.
const MAX_TRIPS: usize = 32;
/// At most this many instructions (iterations × loop size) come out of one loop.
const MAX_UNROLLED_INSTS: usize = 1200;
/// A function is not grown past this many instructions.
const MAX_FUNCTION_INSTS: usize = 20000;

pub fn unroll_counted_loops(f: &mut Function) {
    loop {
        let size: usize = f.blocks.iter().map(|b| b.insts.len() + 1).sum();
        let pick = natural_loops(f).into_iter().find_map(|lp| {
            if !lp.is_innermost(f) || !matches!(f.blocks[lp.latch].term, Terminator::Jump(h) if h.index() == lp.header) {
                return None;
            }
            let c = counted(f, &lp, MAX_TRIPS)?;
            let loop_size: usize = (0..f.blocks.len()).filter(|&b| lp.contains(b)).map(|b| f.blocks[b].insts.len() + 1).sum();
            let grown = loop_size * c.values.len();
            if c.values.is_empty() || grown > MAX_UNROLLED_INSTS || size + grown > MAX_FUNCTION_INSTS || escapes(f, &lp) {
                return None;
            }
            Some((lp, c))
        });
        let Some((lp, c)) = pick else { return };
        unroll(f, &lp, &c);
    }
}

/// Whether a value the loop defines is used outside it.
fn escapes(f: &Function, lp: &Loop) -> bool {
    let mut inside = vec![false; f.values.len()];
    for (bi, b) in f.blocks.iter().enumerate() {
        if lp.contains(bi) {
            b.insts.iter().filter_map(|i| i.result).for_each(|r| inside[r.index()] = true);
        }
    }
    f.blocks.iter().enumerate().filter(|(bi, _)| !lp.contains(*bi)).any(|(_, b)| {
        b.insts.iter().flat_map(|i| inst_uses(&i.kind)).chain(term_uses(&b.term)).any(|v| inside[v.index()])
    })
}

fn unroll(f: &mut Function, lp: &Loop, c: &Counted) {
    let members: Vec<usize> = (0..f.blocks.len()).filter(|&b| lp.contains(b)).collect();
    let trips = c.values.len();
    // Block ids of each iteration's copy of each member: iteration 0 is the original.
    let mut copies: Vec<HashMap<usize, usize>> = vec![members.iter().map(|&b| (b, b)).collect()];
    let mut next = f.blocks.len();
    for _ in 1..trips {
        copies.push(members.iter().map(|&b| (b, { next += 1; next - 1 })).collect());
    }
    let originals: Vec<Block> = members.iter().map(|&b| f.blocks[b].clone()).collect();
    f.blocks.resize_with(next, || Block { insts: Vec::new(), term: Terminator::Unreachable, term_loc: None });
    let ty = f.local(c.var).ty.clone();
    for t in 0..trips {
        // Fresh values for the copies after the first.
        let mut vmap: HashMap<ValueId, ValueId> = HashMap::new();
        if t > 0 {
            for b in &originals {
                for r in b.insts.iter().filter_map(|i| i.result) {
                    let ty = f.value_type(r).clone();
                    f.values.push(ty);
                    vmap.insert(r, ValueId((f.values.len() - 1) as u32));
                }
            }
        }
        let v = |x: ValueId| *vmap.get(&x).unwrap_or(&x);
        let bmap = &copies[t];
        let b = |x: BlockId| BlockId(*bmap.get(&x.index()).unwrap_or(&x.index()) as u32);
        for (k, &m) in members.iter().enumerate() {
            let orig = &originals[k];
            let mut stored = false;
            let mut insts = Vec::with_capacity(orig.insts.len());
            for inst in &orig.insts {
                let kind = match inst.kind {
                    // The counter, until the latch steps it, is this iteration's constant.
                    InstKind::LoadLocal(l) if l == c.var && !stored => InstKind::Const(Const::Int(c.values[t], ty.clone())),
                    _ => map_inst(&inst.kind, &v, &|l| l),
                };
                if matches!(inst.kind, InstKind::StoreLocal(l, _) if l == c.var) {
                    stored = true;
                }
                insts.push(Inst { result: inst.result.map(v), kind, loc: inst.loc });
            }
            let term = if m == lp.header {
                Terminator::Jump(b(c.body))
            } else if m == lp.latch {
                Terminator::Jump(if t + 1 < trips { BlockId(copies[t + 1][&lp.header] as u32) } else { c.exit })
            } else {
                map_term(&orig.term, &v, &b, &|l| l)
            };
            let dest = bmap[&m];
            f.blocks[dest] = Block { insts, term, term_loc: orig.term_loc };
        }
    }
}
