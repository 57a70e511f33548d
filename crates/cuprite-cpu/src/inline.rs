//! Structural checks of the incoming IR (errors instead of panics), the set of device
//! functions that contain a barrier or a warp collective, and the IR-to-IR inliner that brings them into
//! their kernels.

use crate::BackendError;
use cuprite_ir::*;
// Operand walks live in the IR crate (shared with sema); callers here name them through this module.
pub use cuprite_ir::operands::{inst_uses, term_uses};
use cuprite_ir::operands::{map_inst, map_term};
use std::collections::{HashMap, HashSet};

fn err(msg: impl Into<String>, loc: Option<SrcLoc>) -> BackendError {
    BackendError { message: msg.into(), loc }
}

/// Checks what the emitter relies on: ids in range, values defined once and used only
/// after their definition in the same block.
pub fn check_module(m: &Module) -> Vec<BackendError> {
    let mut errs = Vec::new();
    let ns = m.structs.len();
    let check_ty = |t: &Type, errs: &mut Vec<BackendError>, what: &str, loc| {
        fn ok(t: &Type, ns: usize) -> bool {
            match t {
                Type::Ptr(t) | Type::Array(t, _) => ok(t, ns),
                Type::Struct(s) => s.index() < ns,
                Type::FnPtr(sig) => sig.params.iter().all(|p| ok(p, ns)) && ok(&sig.ret, ns),
                _ => true,
            }
        }
        if !ok(t, ns) {
            errs.push(err(format!("internal error: {what} has a type naming an unknown struct"), loc));
        }
    };
    for s in &m.structs {
        for f in &s.fields {
            check_ty(&f.ty, &mut errs, &format!("field `{}.{}`", s.name, f.name), None);
        }
    }
    for g in &m.globals {
        check_ty(&g.ty, &mut errs, &format!("global `{}`", g.name), g.loc);
        if let Some(Init::GlobalAddr { global, .. }) = &g.init {
            if global.index() >= m.globals.len() {
                errs.push(err(format!("internal error: initializer of `{}` names an unknown global", g.name), g.loc));
            }
        }
    }
    if !errs.is_empty() {
        return errs;
    }
    // Declarations are resolved when device code is linked (`-rdc`); here, in a whole
    // program of one translation unit, they have no definition.
    for f in m.functions.iter().filter(|f| f.blocks.is_empty()) {
        errs.push(err(
            format!(
                "device function '{}' is declared but not defined in this translation unit; define it here, or compile with -rdc=true (separable compilation) so that another translation unit can",
                f.name
            ),
            f.loc,
        ));
    }
    for g in m.globals.iter().filter(|g| g.external) {
        errs.push(err(
            format!(
                "device variable '{}' is declared extern but not defined in this translation unit; define it here, or compile with -rdc=true (separable compilation) so that another translation unit can",
                g.name
            ),
            g.loc,
        ));
    }
    if !errs.is_empty() {
        return errs;
    }
    for f in &m.functions {
        check_function(m, f, &mut errs);
    }
    errs
}

fn check_function(m: &Module, f: &Function, errs: &mut Vec<BackendError>) {
    let before = errs.len();
    let fname = &f.name;
    let mut e = |msg: String, loc: Option<SrcLoc>| errs.push(err(format!("internal error in `{fname}`: {msg}"), loc));
    if f.blocks.is_empty() {
        e("function has no blocks".into(), f.loc);
        return;
    }
    if f.params.len() > f.locals.len() || f.params.iter().any(|p| p.index() >= f.locals.len()) {
        e("parameter is not a local".into(), f.loc);
    }
    let nv = f.values.len();
    let nl = f.locals.len();
    let nb = f.blocks.len();
    let mut defined_in: Vec<Option<usize>> = vec![None; nv];
    for (bi, b) in f.blocks.iter().enumerate() {
        let mut seen: HashSet<u32> = HashSet::new();
        let use_v = |v: &ValueId, loc: Option<SrcLoc>, seen: &HashSet<u32>, e: &mut dyn FnMut(String, Option<SrcLoc>)| {
            if v.index() >= nv {
                e(format!("value %{} out of range", v.0), loc);
            } else if !seen.contains(&v.0) {
                e(format!("value %{} used in block {bi} before (or without) its definition in that block", v.0), loc);
            }
        };
        for inst in &b.insts {
            let loc = inst.loc;
            let mut uses: Vec<ValueId> = Vec::new();
            let chk_local = |l: &LocalId, e: &mut dyn FnMut(String, Option<SrcLoc>)| {
                if l.index() >= nl {
                    e(format!("local {} out of range", l.0), loc);
                }
            };
            match &inst.kind {
                InstKind::Const(_) | InstKind::Special(_) => {}
                InstKind::Unary(_, a) | InstKind::Cast(a) | InstKind::Bitcast(a) | InstKind::PtrDiff(a, _) => {
                    uses.push(*a);
                    if let InstKind::PtrDiff(_, b) = &inst.kind {
                        uses.push(*b);
                    }
                }
                InstKind::Binary(_, a, b) => uses.extend([*a, *b]),
                InstKind::Select(c, a, b) => uses.extend([*c, *a, *b]),
                InstKind::LoadLocal(l) | InstKind::LocalAddr(l) => chk_local(l, &mut e),
                InstKind::StoreLocal(l, v) => {
                    chk_local(l, &mut e);
                    uses.push(*v)
                }
                InstKind::GlobalAddr(g) => {
                    if g.index() >= m.globals.len() {
                        e(format!("global {} out of range", g.0), loc);
                    }
                }
                InstKind::Load { ptr, .. } => uses.push(*ptr),
                InstKind::Store { ptr, value, .. } => uses.extend([*ptr, *value]),
                InstKind::FieldAddr { base, strukt, field } => {
                    uses.push(*base);
                    if strukt.index() >= m.structs.len() || *field as usize >= m.structs[strukt.index()].fields.len() {
                        e(format!("bad field {} of struct {}", field, strukt.0), loc);
                    }
                }
                InstKind::PtrAdd { base, index } => uses.extend([*base, *index]),
                InstKind::Copy { dst, src, .. } => uses.extend([*dst, *src]),
                InstKind::Call { func, args } => {
                    if func.index() >= m.functions.len() {
                        e(format!("function {} out of range", func.0), loc);
                    } else if matches!(m.functions[func.index()].kind, FunctionKind::Kernel { .. }) {
                        e("a kernel is called from device code (dynamic parallelism is not supported)".into(), loc);
                    } else if m.functions[func.index()].params.len() != args.len() {
                        e(format!("call of `{}` with {} arguments", m.functions[func.index()].name, args.len()), loc);
                    }
                    uses.extend(args.iter().copied())
                }
                InstKind::CallIndirect { callee, args } => {
                    uses.push(*callee);
                    uses.extend(args.iter().copied())
                }
                InstKind::FuncAddr(func) => {
                    if func.index() >= m.functions.len() {
                        e(format!("function {} out of range", func.0), loc);
                    }
                }
                InstKind::CallBuiltin { args, .. } => uses.extend(args.iter().copied()),
                InstKind::Check(op) => uses.extend(op.operand()),
            }
            for u in &uses {
                use_v(u, loc, &seen, &mut e);
            }
            if let Some(r) = inst.result {
                if r.index() >= nv {
                    e(format!("result %{} out of range", r.0), loc);
                } else if defined_in[r.index()].is_some() {
                    e(format!("value %{} defined twice", r.0), loc);
                } else {
                    defined_in[r.index()] = Some(bi);
                    seen.insert(r.0);
                }
            }
        }
        let loc = b.term_loc;
        let mut tuses = Vec::new();
        match &b.term {
            Terminator::Branch { cond, .. } => tuses.push(*cond),
            Terminator::Switch { value, .. } => tuses.push(*value),
            Terminator::Return(Some(v)) => tuses.push(*v),
            Terminator::Barrier { pred, result, kind, .. } => {
                if let Some(p) = pred {
                    tuses.push(*p)
                }
                if let Some(r) = result {
                    if r.index() >= nl {
                        e(format!("barrier result local {} out of range", r.0), loc);
                    }
                }
                if !matches!(kind, BarrierKind::Sync | BarrierKind::Grid) && pred.is_none() {
                    e("predicated barrier without a predicate".into(), loc);
                }
            }
            Terminator::Warp { args, results, .. } => {
                tuses.extend(args.iter().copied());
                for r in results {
                    if r.index() >= nl {
                        e(format!("warp operation result local {} out of range", r.0), loc);
                    }
                }
            }
            _ => {}
        }
        for u in &tuses {
            use_v(u, loc, &seen, &mut e);
        }
        for s in b.term.successors() {
            if s.index() >= nb {
                e(format!("jump to block {} out of range", s.0), loc);
            }
        }
    }
    let _ = before;
}

/// Functions that contain a barrier or a warp collective (cut points of the SIMT
/// transformation), directly or through calls: they are inlined into their kernels.
pub fn barrier_functions(m: &Module) -> HashSet<FuncId> {
    let mut set: HashSet<FuncId> = HashSet::new();
    for (i, f) in m.functions.iter().enumerate() {
        if f.blocks.iter().any(|b| matches!(b.term, Terminator::Barrier { .. } | Terminator::Warp { .. })) {
            set.insert(FuncId(i as u32));
        }
    }
    loop {
        let mut changed = false;
        for (i, f) in m.functions.iter().enumerate() {
            let id = FuncId(i as u32);
            if set.contains(&id) {
                continue;
            }
            let calls = f.blocks.iter().flat_map(|b| &b.insts).any(|inst| match &inst.kind {
                InstKind::Call { func, .. } => set.contains(func),
                _ => false,
            });
            if calls {
                set.insert(id);
                changed = true;
            }
        }
        if !changed {
            return set;
        }
    }
}

/// Rejects recursion through a barrier and barrier functions whose address is taken.
pub fn check_barrier_calls(m: &Module, bset: &HashSet<FuncId>) -> Vec<BackendError> {
    let mut errs = Vec::new();
    // DFS over the call graph restricted to barrier functions.
    let mut state: HashMap<FuncId, u8> = HashMap::new(); // 1 = on stack, 2 = done
    fn dfs(m: &Module, bset: &HashSet<FuncId>, f: FuncId, state: &mut HashMap<FuncId, u8>, errs: &mut Vec<BackendError>) {
        state.insert(f, 1);
        for b in &m.function(f).blocks {
            for inst in &b.insts {
                if let InstKind::Call { func, .. } = &inst.kind {
                    if !bset.contains(func) {
                        continue;
                    }
                    match state.get(func) {
                        Some(1) => errs.push(err(
                            format!(
                                "recursive call of `{}`, which contains __syncthreads() or a warp operation: a recursive cycle through a barrier cannot be compiled for the CPU",
                                m.function(*func).name
                            ),
                            inst.loc,
                        )),
                        Some(_) => {}
                        None => dfs(m, bset, *func, state, errs),
                    }
                }
            }
        }
        state.insert(f, 2);
    }
    let mut ids: Vec<FuncId> = bset.iter().copied().collect();
    ids.sort();
    for f in ids {
        if !state.contains_key(&f) {
            dfs(m, bset, f, &mut state, &mut errs);
        }
    }
    for f in &m.functions {
        for b in &f.blocks {
            for inst in &b.insts {
                if let InstKind::FuncAddr(g) = &inst.kind {
                    if bset.contains(g) {
                        errs.push(err(
                            format!(
                                "the address of `{}` is taken, but it contains __syncthreads() or a warp operation; barriers and warp operations in functions called through pointers are not supported",
                                m.function(*g).name
                            ),
                            inst.loc,
                        ));
                    }
                }
            }
        }
    }
    errs
}

/// Inlines every call of a barrier function into `f` (repeatedly, so nested calls are
/// inlined too). Requires `check_barrier_calls` to have passed.
pub fn inline_barrier_calls(m: &Module, f: &Function, bset: &HashSet<FuncId>) -> Function {
    let mut f = f.clone();
    loop {
        let site = f.blocks.iter().enumerate().find_map(|(bi, b)| {
            b.insts.iter().position(|i| matches!(&i.kind, InstKind::Call { func, .. } if bset.contains(func))).map(|ii| (bi, ii))
        });
        let Some((bi, ii)) = site else { return f };
        inline_one(m, &mut f, bi, ii);
    }
}

fn inline_one(m: &Module, f: &mut Function, bi: usize, ii: usize) {
    let block = std::mem::replace(
        &mut f.blocks[bi],
        Block { insts: vec![], term: Terminator::Unreachable, term_loc: None },
    );
    let mut insts = block.insts;
    let suffix: Vec<Inst> = insts.split_off(ii + 1);
    let call = insts.pop().unwrap();
    let mut prefix = insts;
    let InstKind::Call { func, args } = &call.kind else { unreachable!() };
    let callee = m.function(*func);

    // Values defined in the prefix and used after the call go through spill locals.
    let prefix_defs: HashSet<ValueId> = prefix.iter().filter_map(|i| i.result).collect();
    let mut used_after: Vec<ValueId> = Vec::new();
    let mut note = |v: ValueId| {
        if prefix_defs.contains(&v) && !used_after.contains(&v) {
            used_after.push(v);
        }
    };
    for i in &suffix {
        for v in inst_uses(&i.kind) {
            note(v);
        }
    }
    for v in term_uses(&block.term) {
        note(v);
    }
    let mut cont_insts: Vec<Inst> = Vec::new();
    let mut rename: HashMap<ValueId, ValueId> = HashMap::new();
    for v in used_after {
        let ty = f.values[v.index()].clone();
        let l = LocalId(f.locals.len() as u32);
        f.locals.push(Local { name: format!("spill.{}", v.0), ty: ty.clone(), align: None });
        prefix.push(Inst { result: None, kind: InstKind::StoreLocal(l, v), loc: call.loc });
        let nv = ValueId(f.values.len() as u32);
        f.values.push(ty);
        cont_insts.push(Inst { result: Some(nv), kind: InstKind::LoadLocal(l), loc: call.loc });
        rename.insert(v, nv);
    }

    // Copy the callee's locals, values and blocks.
    let lbase = f.locals.len() as u32;
    for l in &callee.locals {
        f.locals.push(Local { name: format!("{}.{}", callee.name, l.name), ty: l.ty.clone(), align: l.align });
    }
    let vbase = f.values.len() as u32;
    f.values.extend(callee.values.iter().cloned());
    let bbase = f.blocks.len() as u32;
    let cont = BlockId(bbase + callee.blocks.len() as u32);
    let ret_local = if callee.ret != Type::Void && call.result.is_some() {
        let l = LocalId(f.locals.len() as u32);
        f.locals.push(Local { name: format!("{}.ret", callee.name), ty: callee.ret.clone(), align: None });
        Some(l)
    } else {
        None
    };
    let ml = |l: LocalId| LocalId(l.0 + lbase);
    let mv = |v: ValueId| ValueId(v.0 + vbase);
    let mb = |b: BlockId| BlockId(b.0 + bbase);
    for (pi, p) in callee.params.iter().enumerate() {
        prefix.push(Inst { result: None, kind: InstKind::StoreLocal(ml(*p), args[pi]), loc: call.loc });
    }
    f.blocks[bi] = Block { insts: prefix, term: Terminator::Jump(mb(BlockId(0))), term_loc: call.loc };
    for cb in &callee.blocks {
        let mut insts: Vec<Inst> = cb
            .insts
            .iter()
            .map(|i| Inst { result: i.result.map(mv), kind: map_inst(&i.kind, &mv, &ml), loc: i.loc })
            .collect();
        let term = match &cb.term {
            Terminator::Return(v) => {
                if let (Some(v), Some(rl)) = (v, ret_local) {
                    insts.push(Inst { result: None, kind: InstKind::StoreLocal(rl, mv(*v)), loc: cb.term_loc });
                }
                Terminator::Jump(cont)
            }
            t => map_term(t, &mv, &mb, &ml),
        };
        f.blocks.push(Block { insts, term, term_loc: cb.term_loc });
    }
    // The continuation: the call's result, the reloaded spills, the rest of the block.
    if let (Some(r), Some(rl)) = (call.result, ret_local) {
        cont_insts.insert(0, Inst { result: Some(r), kind: InstKind::LoadLocal(rl), loc: call.loc });
    }
    let rn = |v: ValueId| *rename.get(&v).unwrap_or(&v);
    let same_l = |l: LocalId| l;
    for i in suffix {
        cont_insts.push(Inst { result: i.result, kind: map_inst(&i.kind, &rn, &same_l), loc: i.loc });
    }
    let same_b = |b: BlockId| b;
    let term = map_term(&block.term, &rn, &same_b, &same_l);
    f.blocks.push(Block { insts: cont_insts, term, term_loc: block.term_loc });
}

