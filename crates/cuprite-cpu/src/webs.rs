//! Splits a local that holds several unrelated values into one local per value (*webs*).
//!
//! CUDA code reuses variables: transpose_tiled sets `x = blockIdx.x * TILE + threadIdx.x`,
//! and after the barrier `x = blockIdx.y * TILE + threadIdx.x`. As one local, `x` is
//! assigned twice, so fission keeps it in a per-thread slot and every address built from
//! it is a gather. A web is a set of stores and the loads they reach (reaching
//! definitions, stores that reach one load joined): each web becomes its own local, set
//! once here, which fission can recompute where it is read (`fission::Plan::remat`).
//!
//! Only locals whose address is never taken, that are not parameters, are not written by
//! barriers or warp collectives, and whose every load is reached by some store take part.

use cuprite_ir::*;
use std::collections::{HashMap, HashSet};

/// Renames the stores and loads of each local's second and later webs to new locals.
pub fn split_local_webs(f: &mut Function) {
    let n = f.blocks.len();
    let mut excluded: HashSet<LocalId> = f.params.iter().copied().collect();
    // Stores of each local: (block, instruction index).
    let mut defs: Vec<(LocalId, usize, usize)> = Vec::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, i) in b.insts.iter().enumerate() {
            match i.kind {
                InstKind::LocalAddr(l) => {
                    excluded.insert(l);
                }
                InstKind::StoreLocal(l, _) => defs.push((l, bi, ii)),
                _ => {}
            }
        }
        for l in crate::simt::cut_results(&b.term) {
            excluded.insert(l);
        }
    }
    let mut count: HashMap<LocalId, usize> = HashMap::new();
    for (l, _, _) in &defs {
        *count.entry(*l).or_default() += 1;
    }
    let candidates: HashSet<LocalId> = count.iter().filter(|(l, c)| **c > 1 && !excluded.contains(l)).map(|(l, _)| *l).collect();
    if candidates.is_empty() {
        return;
    }
    let defs: Vec<(LocalId, usize, usize)> = defs.into_iter().filter(|(l, _, _)| candidates.contains(l)).collect();
    let def_at: HashMap<(usize, usize), usize> = defs.iter().enumerate().map(|(d, (_, b, i))| ((*b, *i), d)).collect();

    // Reaching definitions: the stores that reach each block's entry, per local.
    let mut gen: Vec<HashMap<LocalId, usize>> = vec![HashMap::new(); n];
    for (d, (l, b, _)) in defs.iter().enumerate() {
        gen[*b].insert(*l, d); // the last store of `l` in the block wins (defs are in order)
    }
    let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (bi, b) in f.blocks.iter().enumerate() {
        for s in b.term.successors() {
            preds[s.index()].push(bi);
        }
    }
    let mut reach_in: Vec<HashSet<usize>> = vec![HashSet::new(); n];
    let mut reach_out: Vec<HashSet<usize>> = vec![HashSet::new(); n];
    loop {
        let mut changed = false;
        for bi in 0..n {
            let inn: HashSet<usize> = preds[bi].iter().flat_map(|p| reach_out[*p].iter().copied()).collect();
            let mut out: HashSet<usize> = inn.iter().copied().filter(|d| !gen[bi].contains_key(&defs[*d].0)).collect();
            out.extend(gen[bi].values().copied());
            if inn != reach_in[bi] || out != reach_out[bi] {
                reach_in[bi] = inn;
                reach_out[bi] = out;
                changed = true;
            }
        }
        if !changed {
            break;
        }
    }

    // Union-find over stores: the stores reaching one load are one web.
    let mut parent: Vec<usize> = (0..defs.len()).collect();
    fn find(p: &mut [usize], x: usize) -> usize {
        let mut r = x;
        while p[r] != r {
            r = p[r];
        }
        p[x] = r;
        r
    }
    // Each load: (block, index, its web's representative store).
    let mut loads: Vec<(usize, usize, usize)> = Vec::new();
    let mut unsplittable: HashSet<LocalId> = HashSet::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        let mut current: HashMap<LocalId, usize> = HashMap::new();
        for (ii, i) in b.insts.iter().enumerate() {
            match i.kind {
                InstKind::StoreLocal(l, _) if candidates.contains(&l) => {
                    current.insert(l, def_at[&(bi, ii)]);
                }
                InstKind::LoadLocal(l) if candidates.contains(&l) => {
                    let reaching: Vec<usize> = match current.get(&l) {
                        Some(d) => vec![*d],
                        None => reach_in[bi].iter().copied().filter(|d| defs[*d].0 == l).collect(),
                    };
                    let Some(first) = reaching.first().copied() else {
                        unsplittable.insert(l); // may read an unset value: keep it whole
                        continue;
                    };
                    for d in &reaching[1..] {
                        let (a, b) = (find(&mut parent, first), find(&mut parent, *d));
                        parent[a] = b;
                    }
                    loads.push((bi, ii, first));
                }
                _ => {}
            }
        }
    }

    // A new local for every web of a local but the first.
    let mut web_local: HashMap<usize, LocalId> = HashMap::new();
    let mut first_web: HashMap<LocalId, usize> = HashMap::new();
    for d in 0..defs.len() {
        let l = defs[d].0;
        if unsplittable.contains(&l) {
            continue;
        }
        let r = find(&mut parent, d);
        if web_local.contains_key(&r) {
            continue;
        }
        let target = match first_web.get(&l) {
            None => {
                first_web.insert(l, r);
                l
            }
            Some(_) => {
                let mut decl = f.locals[l.index()].clone();
                decl.name = format!("{}.w{d}", decl.name);
                f.locals.push(decl);
                LocalId(f.locals.len() as u32 - 1)
            }
        };
        web_local.insert(r, target);
    }
    for (d, (l, b, i)) in defs.iter().enumerate() {
        if unsplittable.contains(l) {
            continue;
        }
        let target = web_local[&find(&mut parent, d)];
        if let InstKind::StoreLocal(_, v) = f.blocks[*b].insts[*i].kind {
            f.blocks[*b].insts[*i].kind = InstKind::StoreLocal(target, v);
        }
    }
    for (b, i, d) in loads {
        let InstKind::LoadLocal(l) = f.blocks[b].insts[i].kind else { continue };
        if unsplittable.contains(&l) {
            continue;
        }
        f.blocks[b].insts[i].kind = InstKind::LoadLocal(web_local[&find(&mut parent, d)]);
    }
}
