//! Scalar replacement of aggregate locals: a struct local (`float4 q = tile[j]`) whose
//! address never escapes becomes one scalar local per field, so the back-end keeps it in
//! registers instead of the `.local` frame (nbody copied every `tile[j]` to the frame and
//! read it back field by field through generic addresses, as nvcc does not).
//!
//! A local qualifies when it is a struct (not a union) of scalar fields that do not
//! overlap, is not a parameter, no terminator names it, and each of its uses is one of:
//! - `local_addr` whose every use is a `field_addr` whose every use is a non-volatile
//!   scalar `load` from it or `store` to it (then `load_local`/`store_local` of the field);
//! - `store_local` of the value of a non-volatile aggregate `load` from a pointer `p`
//!   right before it, used nowhere else (then a load of each field through `p`);
//! - `load_local` whose value is used once, as the value of a later non-volatile
//!   aggregate `store` to `p` in the same block, with only pure instructions and loads of
//!   other locals between (then each field is read there and stored through `p`).

use cuprite_ir::operands::{inst_uses, map_inst, map_term, term_uses};
use cuprite_ir::{Function, Inst, InstKind, Local, LocalId, Module, SrcLoc, StructId, Type, ValueId};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

/// Where a value is defined: block and instruction index.
type Site = (usize, usize);

pub fn scalarize_aggregate_locals(m: &Module, f: &mut Function) {
    let cands = candidates(m, f);
    if cands.is_empty() {
        return;
    }
    let mut defs: HashMap<ValueId, Site> = HashMap::new();
    let mut uses: HashMap<ValueId, Vec<Site>> = HashMap::new();
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, inst) in b.insts.iter().enumerate() {
            if let Some(r) = inst.result {
                defs.insert(r, (bi, ii));
            }
            for v in inst_uses(&inst.kind) {
                uses.entry(v).or_default().push((bi, ii));
            }
        }
        for v in term_uses(&b.term) {
            // A terminator's use: index past the block's instructions.
            uses.entry(v).or_default().push((bi, usize::MAX));
        }
    }
    let named_by_terms = locals_named_by_terminators(f);
    let mut chosen: HashMap<LocalId, StructId> = HashMap::new();
    for (l, s) in cands {
        if !named_by_terms.contains(&l) && qualifies(f, l, &defs, &uses) {
            chosen.insert(l, s);
        }
    }
    if !chosen.is_empty() {
        rewrite(m, f, &chosen);
    }
}

fn is_scalar(t: &Type) -> bool {
    !matches!(t, Type::Array(..) | Type::Struct(_) | Type::Void)
}

/// Struct locals of scalar, non-overlapping fields that are not parameters.
fn candidates(m: &Module, f: &Function) -> Vec<(LocalId, StructId)> {
    let mut out = Vec::new();
    for (i, l) in f.locals.iter().enumerate() {
        let Type::Struct(s) = l.ty else { continue };
        if f.params.iter().any(|p| p.index() == i) {
            continue;
        }
        let d = m.struct_def(s);
        let mut end = 0;
        let ok = !d.is_union
            && !d.fields.is_empty()
            && d.fields.iter().all(|fl| {
                let fits = is_scalar(&fl.ty) && fl.offset >= end;
                end = fl.offset + m.layout(&fl.ty).0;
                fits
            });
        if ok {
            out.push((LocalId(i as u32), s));
        }
    }
    out
}

fn locals_named_by_terminators(f: &Function) -> HashSet<LocalId> {
    let seen = RefCell::new(HashSet::new());
    for b in &f.blocks {
        let _ = map_term(&b.term, &|v| v, &|b| b, &|l| {
            seen.borrow_mut().insert(l);
            l
        });
    }
    seen.into_inner()
}

fn inst_at(f: &Function, (bi, ii): Site) -> Option<&Inst> {
    f.blocks.get(bi)?.insts.get(ii)
}

fn qualifies(f: &Function, l: LocalId, defs: &HashMap<ValueId, Site>, uses: &HashMap<ValueId, Vec<Site>>) -> bool {
    let no_uses = Vec::new();
    let uses_of = |v: ValueId| uses.get(&v).unwrap_or(&no_uses);
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, inst) in b.insts.iter().enumerate() {
            let ok = match &inst.kind {
                InstKind::LocalAddr(x) if *x == l => {
                    let r = inst.result.unwrap();
                    uses_of(r).iter().all(|s| match inst_at(f, *s) {
                        Some(Inst { kind: InstKind::FieldAddr { base, .. }, result: Some(fa), .. }) if *base == r => {
                            uses_of(*fa).iter().all(|u| match inst_at(f, *u).map(|i| &i.kind) {
                                Some(InstKind::Load { ptr, volatile: false }) => ptr == fa,
                                Some(InstKind::Store { ptr, value, volatile: false }) => ptr == fa && value != fa,
                                _ => false,
                            })
                        }
                        _ => false,
                    })
                }
                InstKind::StoreLocal(x, v) if *x == l => {
                    let from_load = ii > 0
                        && defs.get(v) == Some(&(bi, ii - 1))
                        && matches!(b.insts[ii - 1].kind, InstKind::Load { volatile: false, .. });
                    from_load && uses_of(*v).len() == 1
                }
                InstKind::LoadLocal(x) if *x == l => {
                    let r = inst.result.unwrap();
                    match uses_of(r).as_slice() {
                        [(ub, ui)] if *ub == bi && *ui != usize::MAX && *ui > ii => {
                            let store_ok = matches!(&b.insts[*ui].kind, InstKind::Store { value, ptr, volatile: false } if *value == r && *ptr != r);
                            let between_ok = b.insts[ii + 1..*ui].iter().all(|i| {
                                i.kind.is_pure_value() || matches!(i.kind, InstKind::LoadLocal(y) if y != l) || matches!(i.kind, InstKind::LocalAddr(y) if y != l)
                            });
                            store_ok && between_ok
                        }
                        _ => false,
                    }
                }
                other => {
                    // Any other instruction that names the local disqualifies it.
                    let named = RefCell::new(false);
                    let _ = map_inst(other, &|v| v, &|y| {
                        if y == l {
                            *named.borrow_mut() = true;
                        }
                        y
                    });
                    !named.into_inner()
                }
            };
            if !ok {
                return false;
            }
        }
    }
    true
}

fn rewrite(m: &Module, f: &mut Function, chosen: &HashMap<LocalId, StructId>) {
    // One scalar local per field.
    let mut parts: HashMap<LocalId, Vec<LocalId>> = HashMap::new();
    for (l, s) in chosen {
        let base = f.locals[l.index()].name.clone();
        let ids = m
            .struct_def(*s)
            .fields
            .iter()
            .map(|fl| {
                let id = LocalId(f.locals.len() as u32);
                f.locals.push(Local { name: format!("{base}.{}", fl.name), ty: fl.ty.clone(), align: None });
                id
            })
            .collect();
        parts.insert(*l, ids);
    }
    // Addresses of fields of chosen locals: value -> (local, field).
    let mut local_addr: HashMap<ValueId, LocalId> = HashMap::new();
    let mut field_of: HashMap<ValueId, (LocalId, u32)> = HashMap::new();
    for inst in f.blocks.iter().flat_map(|b| &b.insts) {
        match &inst.kind {
            InstKind::LocalAddr(l) if chosen.contains_key(l) => {
                local_addr.insert(inst.result.unwrap(), *l);
            }
            InstKind::FieldAddr { base, field, .. } => {
                if let Some(l) = local_addr.get(base) {
                    field_of.insert(inst.result.unwrap(), (*l, *field));
                }
            }
            _ => {}
        }
    }
    // Aggregate loads that feed a chosen local's store_local, and load_locals of chosen
    // locals (their per-field values, made where the load_local was).
    let mut feeding: HashMap<ValueId, ValueId> = HashMap::new();
    for b in &f.blocks {
        for (ii, inst) in b.insts.iter().enumerate() {
            if let (InstKind::StoreLocal(l, v), true) = (&inst.kind, ii > 0) {
                if let (true, InstKind::Load { ptr, .. }) = (chosen.contains_key(l), &b.insts[ii - 1].kind) {
                    feeding.insert(*v, *ptr);
                }
            }
        }
    }
    let mut loaded_parts: HashMap<ValueId, (StructId, Vec<ValueId>)> = HashMap::new();
    for bi in 0..f.blocks.len() {
        let old = std::mem::take(&mut f.blocks[bi].insts);
        let mut out = Vec::with_capacity(old.len());
        for inst in old {
            let loc = inst.loc;
            match &inst.kind {
                InstKind::LocalAddr(l) if chosen.contains_key(l) => {}
                InstKind::FieldAddr { .. } if field_of.contains_key(&inst.result.unwrap()) => {}
                InstKind::Load { ptr, .. } if field_of.contains_key(ptr) => {
                    let (l, i) = field_of[ptr];
                    out.push(Inst { result: inst.result, kind: InstKind::LoadLocal(parts[&l][i as usize]), loc });
                }
                InstKind::Store { ptr, value, .. } if field_of.contains_key(ptr) => {
                    let (l, i) = field_of[ptr];
                    out.push(Inst { result: None, kind: InstKind::StoreLocal(parts[&l][i as usize], *value), loc });
                }
                InstKind::Load { .. } if inst.result.is_some_and(|r| feeding.contains_key(&r)) => {}
                InstKind::StoreLocal(l, v) if chosen.contains_key(l) => {
                    split_load(m, f, &mut out, chosen[l], feeding[v], &parts[l], loc);
                }
                InstKind::LoadLocal(l) if chosen.contains_key(l) => {
                    let vals: Vec<ValueId> = parts[l]
                        .iter()
                        .map(|p| {
                            let v = new_value(f, f.locals[p.index()].ty.clone());
                            out.push(Inst { result: Some(v), kind: InstKind::LoadLocal(*p), loc });
                            v
                        })
                        .collect();
                    loaded_parts.insert(inst.result.unwrap(), (chosen[l], vals));
                }
                InstKind::Store { ptr, value, .. } if loaded_parts.contains_key(value) => {
                    let (s, vals) = loaded_parts[value].clone();
                    for (i, part) in vals.into_iter().enumerate() {
                        let fty = m.struct_def(s).fields[i].ty.clone();
                        let fa = new_value(f, fty.ptr_to());
                        out.push(Inst { result: Some(fa), kind: InstKind::FieldAddr { base: *ptr, strukt: s, field: i as u32 }, loc });
                        out.push(Inst { result: None, kind: InstKind::Store { ptr: fa, value: part, volatile: false }, loc });
                    }
                }
                _ => out.push(inst),
            }
        }
        f.blocks[bi].insts = out;
    }
}

fn new_value(f: &mut Function, ty: Type) -> ValueId {
    let v = ValueId(f.values.len() as u32);
    f.values.push(ty);
    v
}

/// `store_local l, (load p)` as a load of each field through `p` into its scalar local.
fn split_load(m: &Module, f: &mut Function, out: &mut Vec<Inst>, s: StructId, ptr: ValueId, parts: &[LocalId], loc: Option<SrcLoc>) {
    for (i, part) in parts.iter().enumerate() {
        let fty = m.struct_def(s).fields[i].ty.clone();
        let fa = new_value(f, fty.clone().ptr_to());
        out.push(Inst { result: Some(fa), kind: InstKind::FieldAddr { base: ptr, strukt: s, field: i as u32 }, loc });
        let x = new_value(f, fty);
        out.push(Inst { result: Some(x), kind: InstKind::Load { ptr: fa, volatile: false }, loc });
        out.push(Inst { result: None, kind: InstKind::StoreLocal(*part, x), loc });
    }
}
