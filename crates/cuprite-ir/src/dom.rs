//! Dominators of a function's CFG (Cooper, Harvey and Kennedy's iterative algorithm over
//! the reverse postorder): which blocks a value's definition reaches (see the crate's
//! invariants: a value may be used in every block its definition dominates).

use crate::{BlockId, Function};

pub struct Dominators {
    /// Immediate dominator of each reachable block (the entry is its own); `None` for
    /// unreachable blocks.
    idom: Vec<Option<usize>>,
    rpo: Vec<usize>,
}

impl Dominators {
    pub fn new(f: &Function) -> Dominators {
        let n = f.blocks.len();
        let rpo = reverse_postorder(f);
        let mut rpo_index = vec![None; n];
        for (i, b) in rpo.iter().enumerate() {
            rpo_index[*b] = Some(i);
        }
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
        for &b in &rpo {
            for s in f.blocks[b].term.successors() {
                if s.index() < n {
                    preds[s.index()].push(b);
                }
            }
        }
        let mut idom: Vec<Option<usize>> = vec![None; n];
        if n == 0 {
            return Dominators { idom, rpo };
        }
        idom[0] = Some(0);
        let intersect = |idom: &[Option<usize>], mut a: usize, mut b: usize| -> usize {
            while a != b {
                while rpo_index[a] > rpo_index[b] {
                    a = idom[a].unwrap();
                }
                while rpo_index[b] > rpo_index[a] {
                    b = idom[b].unwrap();
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &b in rpo.iter().skip(1) {
                let mut new: Option<usize> = None;
                for &p in &preds[b] {
                    if idom[p].is_none() {
                        continue;
                    }
                    new = Some(match new {
                        None => p,
                        Some(x) => intersect(&idom, p, x),
                    });
                }
                if new.is_some() && idom[b] != new {
                    idom[b] = new;
                    changed = true;
                }
            }
        }
        Dominators { idom, rpo }
    }

    /// Whether the block is reachable from the entry.
    pub fn reachable(&self, b: BlockId) -> bool {
        self.idom.get(b.index()).is_some_and(Option::is_some)
    }

    /// Whether `a` dominates `b` (every block dominates itself). False when either is
    /// unreachable.
    pub fn dominates(&self, a: BlockId, b: BlockId) -> bool {
        let (a, mut b) = (a.index(), b.index());
        if !self.reachable(BlockId(a as u32)) || !self.reachable(BlockId(b as u32)) {
            return false;
        }
        loop {
            if a == b {
                return true;
            }
            let up = self.idom[b].unwrap();
            if up == b {
                return false;
            }
            b = up;
        }
    }

    /// The reachable blocks in reverse postorder (each after its dominators).
    pub fn reverse_postorder(&self) -> impl Iterator<Item = BlockId> + '_ {
        self.rpo.iter().map(|b| BlockId(*b as u32))
    }
}

fn reverse_postorder(f: &Function) -> Vec<usize> {
    let n = f.blocks.len();
    if n == 0 {
        return Vec::new();
    }
    let mut post = Vec::with_capacity(n);
    let mut seen = vec![false; n];
    let mut stack: Vec<(usize, usize)> = vec![(0, 0)];
    seen[0] = true;
    while let Some((b, k)) = stack.last_mut() {
        let succ = f.blocks[*b].term.successors();
        if let Some(s) = succ.get(*k) {
            *k += 1;
            let s = s.index();
            if s < n && !seen[s] {
                seen[s] = true;
                stack.push((s, 0));
            }
        } else {
            post.push(*b);
            stack.pop();
        }
    }
    post.reverse();
    post
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::*;

    fn cfg(terms: Vec<Terminator>) -> Function {
        Function {
            name: "f".into(),
            symbol: None,
            kind: FunctionKind::Device,
            inline: InlineHint::None,
            params: vec![],
            ret: Type::Void,
            locals: vec![],
            values: vec![Type::Bool],
            blocks: terms.into_iter().map(|term| Block { insts: vec![], term, term_loc: None }).collect(),
            loc: None,
        }
    }

    #[test]
    fn diamond_loop_and_unreachable() {
        let b = BlockId;
        // 0 → {1, 2} → 3 → (loop to 1 | return); 4 unreachable.
        let f = cfg(vec![
            Terminator::Branch { cond: ValueId(0), then: b(1), else_: b(2) },
            Terminator::Jump(b(3)),
            Terminator::Jump(b(3)),
            Terminator::Branch { cond: ValueId(0), then: b(1), else_: b(4) },
            Terminator::Return(None),
            Terminator::Jump(b(3)),
        ]);
        let d = Dominators::new(&f);
        assert!(d.dominates(b(0), b(3)) && d.dominates(b(3), b(4)) && d.dominates(b(3), b(3)));
        assert!(!d.dominates(b(1), b(3)) && !d.dominates(b(2), b(3)) && !d.dominates(b(3), b(1)));
        assert!(!d.reachable(b(5)) && !d.dominates(b(0), b(5)));
        assert_eq!(d.reverse_postorder().next(), Some(b(0)));
    }
}
