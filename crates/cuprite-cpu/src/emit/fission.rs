//! C for a kernel under barrier-region fission (the plan is `crate::fission`'s).
//!
//! ```text
//! for (__blk in run) {
//!   bbN: <uniform code of the unit's blocks: scalars, once per block>
//!        for (__tz) for (__ty) #pragma omp simd for (__tx) { <the unit's varying code> }
//!        <the unit's uniform terminator: goto / if-goto / barrier result / block done>
//!   ...
//! }
//! ```
//! A barrier needs no code: every thread has finished the thread loop before it.

use super::*;
use crate::fission::{Plan, Unit};
use crate::uniformity::is_scalar_inst;
use super::shuffle::fast_shuffle;

impl<'m> ModCx<'m> {
    pub(super) fn fissioned_kernel(&mut self, kid: FuncId, f: &Function, regions: &Regions, plan: &Plan, items: &mut Vec<Item>) -> KernelDesc {
        let (shared_off, static_shared) = self.shared_layout(f);
        let (slot_off, mut soff) = self.slot_layout(f, &plan.slots);
        // Operands and results of warp collectives: one `__cu_wslot` per thread.
        let has_warp = f.blocks.iter().any(|b| matches!(b.term, Terminator::Warp { .. }));
        let ws_off = has_warp.then(|| {
            soff = align_up(soff, 8);
            let o = soff;
            soff += 32; // sizeof(__cu_wslot)
            o
        });
        // One byte per thread and guard: whether the thread is inside the guarded region.
        let guard_off: Vec<u64> = plan.uni.guards.iter().map(|_| {
            let o = soff;
            soff += 1;
            o
        }).collect();
        let slot_bytes = align_up(soff, 8);
        let local_bytes: u64 = (0..f.locals.len())
            .filter(|i| !plan.slots.contains(&LocalId(*i as u32)))
            .map(|i| self.layout(&f.locals[i].ty).0)
            .sum();
        let need_ctx = simt::needs_ctx(f);
        let mut body = self.kernel_prologue(kid, f, static_shared, &shared_off, need_ctx, items);
        let mut lv: Vec<Expr> = (0..f.locals.len()).map(|i| id_expr(&local_name(f, LocalId(i as u32)))).collect();
        body.extend(self.slot_arrays(f, &slot_off, &mut lv));
        if let Some(o) = ws_off {
            body.push(Stmt::decl(
                CType::named("__cu_wslot").ptr().konst(),
                "__ws",
                Some(id("__slots").bin("+", lit(format!("(size_t){o}")).bin("*", id("__nthreads"))).cast(CType::named("__cu_wslot").ptr())),
            ));
            // Fast shuffles keep their values in the same per-thread area (`shuffle.rs`).
            if f.blocks.iter().any(|b| fast_shuffle(f, &plan.uni, &b.term).is_some()) {
                body.push(Stmt::decl(CType::named("char").ptr().konst(), "__wv", Some(id("__ws").cast(CType::named("char").ptr()))));
            }
        }
        for (g, o) in guard_off.iter().enumerate() {
            body.push(Stmt::decl(CType::named("uint32_t"), format!("__ng{g}"), Some(lit("0"))));
            if plan.uni.guards[g].range_x.is_some() {
                // A range guard's limit (`range_guard.rs`), set by its owner's unit.
                body.push(Stmt::decl(CType::named("uint32_t"), format!("__rlim{g}"), Some(lit("0"))));
            }
            body.push(Stmt::decl(
                CType::named("uint8_t").ptr().konst(),
                format!("__g{g}"),
                Some(id("__slots").bin("+", lit(format!("(size_t){o}")).bin("*", id("__nthreads"))).cast(CType::named("uint8_t").ptr())),
            ));
        }
        let remat_subst = self.remat_lvalues(f, regions, plan, &shared_off, &mut lv);
        // Uniform locals: one C scalar for the whole block.
        for (i, l) in f.locals.iter().enumerate() {
            let lid = LocalId(i as u32);
            if plan.uni.local(lid) && !plan.slots.contains(&lid) {
                body.push(local_decl(self, l, &local_name(f, lid)));
            }
        }

        let mut blk = block_coords(need_ctx);
        let mut errs = Vec::new();
        // Two copies of the block body, as for barrier-free kernels (`emit_kernel`):
        // blocks with indices below 2^21 run one where 32-bit index arithmetic provably
        // does not wrap, which the C compiler vectorises more often.
        // The general copy is left out when the fast one used nothing it may not.
        self.used_block_bound.set(false);
        let fast = self.fissioned_block(f, regions, plan, &lv, &remat_subst, &shared_off, need_ctx, "", &mut errs);
        if self.used_block_bound.get() {
            let general = self.fissioned_block(f, regions, plan, &lv, &remat_subst, &shared_off, need_ctx, "g_", &mut errs);
            let small = |v: &str| id(v).bin("<", lit("0x200000u"));
            let cond = small("__bx").bin("&&", small("__by")).bin("&&", small("__bz"));
            blk.push(Stmt::If { cond, then: fast, else_: general });
        } else {
            blk.extend(fast);
        }
        blk.push(Stmt::Label("__block_done".into()));
        body.push(Stmt::For {
            init: Some(Box::new(Stmt::decl(CType::named("uint64_t"), "__blk", Some(id("__run").arrow("first_block"))))),
            cond: Some(id("__blk").bin("<", id("__run").arrow("end_block"))),
            step: Some(Expr::PostInc(Box::new(id("__blk")))),
            body: blk,
        });
        self.errors.extend(errs);
        let mut comment = format!(
            "kernel `{}`: barrier-region fission, {} thread loop unit(s) under block-uniform control flow",
            f.name,
            plan.units.len()
        );
        if !plan.slots.is_empty() {
            let names: Vec<String> = plan.slots.iter().map(|l| f.local(*l).name.clone()).collect();
            comment.push_str(&format!("; per-thread slots: {}", names.join(", ")));
        }
        items.push(Item::Comment(comment));
        items.push(Item::Func {
            storage: "static",
            attrs: vec![],
            ret: CType::named("void"),
            name: self.func_names[kid.index()].clone(),
            params: vec![(CType::named("cuprite_block_run").ptr(), "__run".into())],
            body: Some(body),
        });
        let barriers = f.blocks.iter().any(|b| matches!(b.term, Terminator::Barrier { .. }));
        KernelDesc { id: kid, static_shared, slot_bytes, local_bytes, barriers, lockstep: crate::lockstep::has_steps(f) }
    }

    /// Points each rematerialised local's "lvalue" at the expression that recomputes it.
    /// Returns the entry block's pure values as such expressions (for index widening
    /// through rematerialised locals, see `fissioned_block`).
    fn remat_lvalues(&self, f: &Function, regions: &Regions, plan: &Plan, shared_off: &HashMap<GlobalId, u64>, lv: &mut [Expr]) -> HashMap<ValueId, Expr> {
        if plan.remat.is_empty() {
            return HashMap::new();
        }
        let mut cx = FnCx {
            mc: self,
            f,
            lv: lv.to_vec(),
            kernel: Some(KernelCx { region: 0, multi: true, warp: false, shared_off, regions, ret_goto: None, plain_atomics: None, defs: None, nonwrap: None }),
            prefix: String::new(),
            ver: String::new(),
            labels: HashMap::new(),
            subst: HashMap::new(),
        };
        // Pure values as expressions over their operands' expressions, block by block in
        // reverse postorder (a rematerialised local's operands before it); the plan
        // checked that the stored ones use nothing else.
        let order: Vec<BlockId> = cuprite_ir::dom::Dominators::new(f).reverse_postorder().collect();
        for inst in order.iter().flat_map(|b| &f.block(*b).insts) {
            match inst.kind {
                InstKind::StoreLocal(l, v) if plan.remat.get(&l) == Some(&v) => {
                    if let Some(e) = cx.subst.get(&v) {
                        cx.lv[l.index()] = e.clone();
                    }
                }
                InstKind::Const(_)
                | InstKind::Special(_)
                | InstKind::GlobalAddr(_)
                | InstKind::LoadLocal(_)
                | InstKind::Unary(..)
                | InstKind::Cast(_)
                | InstKind::Binary(..)
                | InstKind::Select(..)
                | InstKind::PtrAdd { .. }
                | InstKind::FieldAddr { .. } => {
                    let mut scratch = Vec::new();
                    if cx.emit_inst(inst, &mut scratch).is_ok() {
                        if let ([Stmt::Decl { init: Some(Initializer::Expr(e)), .. }], Some(r)) = (scratch.as_slice(), inst.result) {
                            cx.subst.insert(r, e.clone());
                        }
                    }
                }
                _ => {}
            }
        }
        for l in plan.remat.keys() {
            lv[l.index()] = cx.lv[l.index()].clone();
        }
        cx.subst
    }

    /// One copy of the block body; `ver` prefixes its labels.
    #[allow(clippy::too_many_arguments)]
    fn fissioned_block(
        &self,
        f: &Function,
        regions: &Regions,
        plan: &Plan,
        lv: &[Expr],
        remat_subst: &HashMap<ValueId, Expr>,
        shared_off: &HashMap<GlobalId, u64>,
        need_ctx: bool,
        ver: &str,
        errs: &mut Vec<BackendError>,
    ) -> Vec<Stmt> {
        let mut out = Vec::new();
        let shared_ptrs = self.shared_pointers(f);
        let defs: HashMap<ValueId, InstKind> =
            f.blocks.iter().flat_map(|b| &b.insts).filter_map(|i| i.result.map(|r| (r, i.kind.clone()))).collect();
        // A forwarded load stands for the stored value's computation (`Plan::forward`),
        // and so does the load of a rematerialised local whose value is an expression
        // over the entry block's pure values (which the units after the entry's see as
        // those expressions, `remat_subst`).
        let value_block: HashMap<ValueId, BlockId> = f
            .blocks
            .iter()
            .enumerate()
            .flat_map(|(bi, b)| b.insts.iter().filter_map(move |i| i.result.map(|r| (r, BlockId(bi as u32)))))
            .collect();
        let remat_loads: HashMap<ValueId, ValueId> = f
            .blocks
            .iter()
            .flat_map(|b| &b.insts)
            .filter_map(|i| match (&i.kind, i.result) {
                (InstKind::LoadLocal(l), Some(r)) => plan.remat.get(l).filter(|v| all_substituted(**v, &defs, remat_subst)).map(|v| (r, *v)),
                _ => None,
            })
            .collect();
        let defs: HashMap<ValueId, InstKind> = defs
            .iter()
            .map(|(r, k)| match plan.forward.get(r).or(remat_loads.get(r)).and_then(|v| defs.get(v)) {
                Some(stored) => (*r, stored.clone()),
                None => (*r, k.clone()),
            })
            .collect();
        let nonwrap = crate::guarded_index::nonwrapping_subs(f, &defs);
        // Parameters: uniform ones are scalars; varying ones live in slots.
        let mut varying_params = Vec::new();
        for (i, p) in f.params.iter().enumerate() {
            if plan.slots.contains(p) {
                varying_params.push(lv[p.index()].clone().assign(id(format!("__arg{i}"))).stmt());
            } else if plan.uni.local(*p) {
                out.push(lv[p.index()].clone().assign(id(format!("__arg{i}"))).stmt());
            }
        }
        if !varying_params.is_empty() {
            let mut tb = vec![thread_index()];
            tb.extend(varying_params);
            out.push(thread_loop(tb, Some("omp simd".into())));
        }
        for (k, unit) in plan.units.iter().enumerate() {
            let mut cx = FnCx {
                mc: self,
                f,
                lv: lv.to_vec(),
                kernel: Some(KernelCx {
                    region: 0,
                    multi: true,
                    warp: false,
                    shared_off,
                    regions,
                    ret_goto: Some(format!("{ver}u{k}_end")),
                    plain_atomics: None,
                    defs: Some(&defs),
                    nonwrap: Some(&nonwrap),
                }),
                prefix: format!("{ver}u{k}_"),
                ver: ver.to_string(),
                labels: HashMap::new(),
                // A block's values are C variables in its own unit; elsewhere, expressions.
                subst: {
                    let own: HashSet<BlockId> = unit.blocks().collect();
                    remat_subst.iter().filter(|(v, _)| !value_block.get(*v).is_some_and(|b| own.contains(b))).map(|(v, e)| (*v, e.clone())).collect()
                },
            };
            // A block runs on one worker: shared-memory atomics in a thread loop that is
            // not marked for SIMD run one thread at a time, so they are plain
            // read-modify-writes (the C compiler keeps their sequential meaning).
            let plain = unit.blocks().any(|b| has_atomic_on(f, b, &shared_ptrs));
            if plain {
                if let Some(k) = cx.kernel.as_mut() {
                    k.plain_atomics = Some(&shared_ptrs);
                }
            }
            self.emit_unit(&mut cx, plan, unit, k, need_ctx, !plain, &mut out, errs);
        }
        out
    }

    #[allow(clippy::too_many_arguments)]
    fn emit_unit(&self, cx: &mut FnCx, plan: &Plan, unit: &Unit, k: usize, need_ctx: bool, simd: bool, out: &mut Vec<Stmt>, errs: &mut Vec<BackendError>) {
        let f = cx.f;
        let ver = cx.ver.clone();
        let uni = &plan.uni;
        let blocks: Vec<BlockId> = unit.blocks().collect();
        out.push(Stmt::Blank);
        let names: Vec<String> = unit.steps.iter().map(|s| format!("bb{}", s.block.0)).collect();
        out.push(Stmt::Comment(format!("unit {k}: {}", names.join(", "))));
        out.push(Stmt::Label(format!("{ver}bb{}", unit.entry().0)));
        // Uniform code of every step, once per block. Under a guard, a uniform load runs
        // only if some thread entered the guarded region (it might fault otherwise).
        let guard = uni.guard_of[unit.entry().index()];
        // A range guard's thread loops run `x` below its limit, unmasked (fast copy only:
        // `range_guard.rs`; the general copy tests the mask).
        let range = guard.filter(|g| ver.is_empty() && uni.guards[*g].range_x.is_some());
        if range.is_some() {
            self.used_block_bound.set(true);
        }
        // A grid-stride loop's header run at the end of this unit's thread loop (`rotate.rs`).
        let rot = super::rotate::rotation(f, plan, unit, simd);
        for s in &unit.steps {
            for inst in &f.block(s.block).insts {
                if !is_scalar_inst(&inst.kind, uni, inst.result) {
                    continue;
                }
                let mut code = Vec::new();
                if let Err(e) = cx.emit_inst(inst, &mut code) {
                    errs.push(e);
                }
                if let (Some(g), InstKind::Load { .. }, [Stmt::Decl { ty, name, init: Some(Initializer::Expr(e)) }]) =
                    (guard, &inst.kind, code.as_slice())
                {
                    let zero = match ty {
                        CType::Named(n) if n.starts_with("struct ") || n.starts_with("union ") => {
                            Expr::CompoundLit(ty.clone(), vec![lit("0")])
                        }
                        _ => lit("0").cast(ty.clone()),
                    };
                    let e = Expr::cond(id(format!("__ng{g}")), e.clone(), zero);
                    code = vec![Stmt::decl(ty.clone(), name.clone(), Some(e))];
                }
                out.extend(code);
            }
        }
        // The rotated header's uniform code (no loads, pure): in a C block of its own from
        // here to the unit's end, as its header unit declares the same C variables.
        let rot_start = out.len();
        if let Some((_, h)) = rot {
            for inst in f.block(h.entry()).insts.iter().filter(|i| is_scalar_inst(&i.kind, uni, i.result)) {
                if let Err(e) = cx.emit_inst(inst, out) {
                    errs.push(e);
                }
            }
        }
        // `a[i ^ j]` with `j` a uniform power of two: run by run (`xor_run.rs`).
        let xr = self.xor_run_of(cx, plan, unit, simd && guard.is_none() && rot.is_none());
        self.xor_run.set(xr);
        // The thread loop: varying code in program order, divergent regions as labelled C.
        let mut tb = vec![thread_index()];
        let slow = blocks.iter().any(|b| block_is_slow(f, *b, cx.kernel.as_ref().and_then(|k| k.plain_atomics)));
        if slow {
            tb.push(id("__run").arrow("fault_thread_linear").assign(id("__t")).stmt());
        }
        // The thread context is for called device functions: set it where there are calls.
        let calls = blocks.iter().any(|b| f.block(*b).insts.iter().any(|i| matches!(i.kind, InstKind::Call { .. } | InstKind::CallIndirect { .. })));
        if need_ctx && calls {
            let dim3 = Expr::CompoundLit(CType::named("cuprite_dim3"), vec![id("__tx"), id("__ty"), id("__tz")]);
            tb.push(id("__ctx").member("tid").assign(dim3).stmt());
            tb.push(id("__ctx").member("tlinear").assign(id("__t")).stmt());
        }
        for l in simt::locals_used(f, &blocks) {
            if !uni.local(l) && !plan.slots.contains(&l) && !plan.remat.contains_key(&l) {
                tb.push(local_decl(self, f.local(l), &local_name(f, l)));
            }
        }
        let mut work = false;
        let last = unit.last();
        let pred = match f.block(last.block).term {
            Terminator::Barrier { pred: Some(p), result: Some(_), .. } => Some(p),
            _ => None,
        };
        for (i, s) in unit.steps.iter().enumerate() {
            for inst in &f.block(s.block).insts {
                if matches!(inst.kind, InstKind::StoreLocal(l, _) if plan.remat.contains_key(&l)) {
                    continue; // recomputed where read
                }
                if !is_scalar_inst(&inst.kind, uni, inst.result) {
                    work = true;
                    if let Err(e) = cx.emit_inst(inst, &mut tb) {
                        errs.push(e);
                    }
                }
            }
            if s.block == last.block {
                if let Some(p) = pred.filter(|p| !uni.value(*p)) {
                    work = true;
                    tb.push(id(format!("__pc{k}")).assign_op("+", cx.v(p).bin("!=", lit("0"))).stmt());
                }
                if let Terminator::Warp { op, args, .. } = &f.block(s.block).term {
                    work = true;
                    match fast_shuffle(f, uni, &f.block(s.block).term) {
                        Some(sh) => cx.shuffle_operand(&sh, &mut tb),
                        None => cx.warp_operands(*op, args, &mut tb),
                    }
                }
                if let (Some(g), Terminator::Branch { cond, .. }) = (s.guard_owner, &f.block(s.block).term) {
                    work = true;
                    let c = if uni.guards[g].enter_when { cx.v(*cond) } else { Expr::un("!", cx.v(*cond)) };
                    tb.push(id(format!("__g{g}")).index(id("__t")).assign(c).stmt());
                    tb.push(id(format!("__ng{g}")).assign_op("+", id(format!("__g{g}")).index(id("__t"))).stmt());
                }
            }
            if s.diverges {
                work = true;
                let join = format!("{ver}u{k}_j{i}");
                cx.labels.clear();
                if let Some(j) = s.join {
                    cx.labels.insert(j, join.clone());
                }
                cx.emit_term(f.block(s.block), &mut tb, errs);
                for r in &s.region {
                    cx.emit_block(*r, &mut tb, errs);
                }
                cx.labels.clear();
                tb.push(Stmt::Label(join));
            }
        }
        if let Some((g, h)) = rot {
            let hb = h.entry();
            for l in simt::locals_used(f, &[hb]) {
                if !uni.local(l) && !plan.slots.contains(&l) && !plan.remat.contains_key(&l) && !simt::locals_used(f, &blocks).contains(&l) {
                    tb.push(local_decl(self, f.local(l), &local_name(f, l)));
                }
            }
            for inst in &f.block(hb).insts {
                if matches!(inst.kind, InstKind::StoreLocal(l, _) if plan.remat.contains_key(&l)) || is_scalar_inst(&inst.kind, uni, inst.result) {
                    continue;
                }
                if let Err(e) = cx.emit_inst(inst, &mut tb) {
                    errs.push(e);
                }
            }
            let Terminator::Branch { cond, .. } = f.block(hb).term else { unreachable!("a loop guard's header branches") };
            let c = if uni.guards[g].enter_when { cx.v(cond) } else { Expr::un("!", cx.v(cond)) };
            tb.push(id(format!("__g{g}")).index(id("__t")).assign(c).stmt());
            tb.push(id(format!("__ng{g}")).assign_op("+", id(format!("__g{g}")).index(id("__t"))).stmt());
        }
        tb.push(Stmt::Label(format!("{ver}u{k}_end")));
        self.xor_run.set(None);
        // Inside a guard: only the threads that entered its region do the work. Masks of
        // guards nested here are cleared first, for the threads that do not.
        if let Some(g) = uni.guard_of[unit.entry().index()].filter(|_| range.is_none()) {
            let mut guarded = vec![tb.remove(0)];
            for s in &unit.steps {
                // A loop guard's header keeps its own mask: the threads still iterating.
                if let Some(g2) = s.guard_owner.filter(|g2| *g2 != g) {
                    guarded.push(id(format!("__g{g2}")).index(id("__t")).assign(lit("0")).stmt());
                }
            }
            guarded.push(Stmt::If { cond: id(format!("__g{g}")).index(id("__t")), then: tb, else_: vec![] });
            tb = guarded;
        }
        if pred.is_some() {
            out.push(Stmt::decl(CType::named("uint32_t"), format!("__pc{k}"), Some(lit("0"))));
        }
        if work {
            if !slow {
                out.push(id("__run").arrow("fault_thread_linear").assign(lit("UINT32_MAX")).stmt());
            }
            // Counters the thread loop sums are reductions for `omp simd`.
            let mut sums = Vec::new();
            if pred.is_some_and(|p| !uni.value(p)) {
                sums.push(format!("__pc{k}"));
            }
            if let Some(g) = last.guard_owner.or(rot.map(|r| r.0)) {
                out.push(id(format!("__ng{g}")).assign(lit("0")).stmt());
                sums.push(format!("__ng{g}"));
            }
            let pragma = match (simd, sums.is_empty()) {
                (false, _) => None,
                (true, true) => Some("omp simd".to_string()),
                (true, false) => Some(format!("omp simd reduction(+:{})", sums.join(","))),
            };
            match guard.and_then(|g| uni.guards[g].single_x) {
                // Only the threads with `threadIdx.x == c` are inside: x runs over c alone.
                Some(c) => out.push(thread_loop_at_x(tb, cx.v(c).cast(CType::named("uint32_t")))),
                None if range.is_some() => out.push(thread_loop_below(tb, pragma, &format!("__rlim{}", range.unwrap()))),
                None if xr.is_some() => out.extend(cx.xor_run_loops(xr.as_ref().unwrap(), tb, pragma, k)),
                None => match crate::thread_range::thread_range(f, plan, unit) {
                    // Only the threads below a uniform bound have work here.
                    Some(r) => {
                        let lim = format!("__lim{k}");
                        out.push(Stmt::decl(CType::named("uint32_t").konst(), lim.clone(), Some(x_limit(cx.v(r.bound), r.signed))));
                        out.push(thread_loop_below(tb, pragma, &lim));
                    }
                    None => match crate::thread_split::thread_split(f, plan, unit).filter(|_| pragma.is_some()) {
                        // Tests of the thread index against constants: a loop per range.
                        Some(split) => out.push(crate::thread_split::split_thread_loops(tb, pragma, &split)),
                        None => out.push(thread_loop(tb, pragma)),
                    },
                },
            }
        }
        // A range guard's limit, for the thread loops of its region (dominated by this).
        for g in unit.steps.iter().filter_map(|s| s.guard_owner).filter(|_| ver.is_empty()) {
            if let Some(r) = uni.guards[g].range_x {
                out.push(id(format!("__rlim{g}")).assign(range_limit(cx.v(r.bound), &r)).stmt());
            }
        }
        // The unit's uniform terminator.
        let goto = |b: BlockId| Stmt::Goto(format!("{ver}bb{}", b.0));
        let term = &f.block(last.block).term;
        match term {
            _ if rot.is_some() => {
                // The header ran in the thread loop: round again while a thread iterates.
                let g = &uni.guards[rot.unwrap().0];
                let exit = g.join.map_or(Stmt::Goto("__block_done".into()), goto);
                out.push(Stmt::If { cond: id(format!("__ng{}", rot.unwrap().0)), then: vec![goto(g.entry)], else_: vec![exit] })
            }
            _ if last.guard_owner.is_some_and(|g| uni.guards[g].looping) => {
                // A grid-stride loop goes round while some thread still iterates.
                let g = &uni.guards[last.guard_owner.unwrap()];
                let exit = g.join.map_or(Stmt::Goto("__block_done".into()), goto);
                out.push(Stmt::If { cond: id(format!("__ng{}", last.guard_owner.unwrap())), then: vec![goto(g.entry)], else_: vec![exit] })
            }
            _ if last.guard_owner.is_some() => out.push(goto(uni.guards[last.guard_owner.unwrap()].entry)),
            _ if last.diverges => match last.join {
                Some(j) => out.push(goto(j)),
                None => out.push(Stmt::Goto("__block_done".into())),
            },
            Terminator::Jump(t) => {
                // Entering a grid-stride loop: every thread iterates (the header's thread
                // loop clears the masks of those that leave), and the header's uniform
                // code runs.
                if let Some(g) = uni.guards.iter().position(|g| g.looping && g.owner == *t && !g.blocks.contains(&last.block)) {
                    let body = vec![thread_index(), id(format!("__g{g}")).index(id("__t")).assign(lit("1")).stmt()];
                    out.push(thread_loop(body, Some("omp simd".into())));
                    out.push(id(format!("__ng{g}")).assign(id("__nthreads")).stmt());
                }
                out.push(goto(*t))
            }
            Terminator::Branch { cond, then, else_ } => {
                out.push(Stmt::If { cond: cx.v(*cond), then: vec![goto(*then)], else_: vec![goto(*else_)] })
            }
            Terminator::Switch { value, cases, default } => {
                let t = f.value_type(*value).clone();
                let cases = cases.iter().map(|(c, b)| (int_lit(*c, &t), vec![goto(*b)])).collect();
                out.push(Stmt::Switch { value: cx.v(*value), cases, default: vec![goto(*default)] });
            }
            Terminator::Barrier { kind, pred, result, next } => {
                if let Some(res) = result {
                    if let Some(p) = pred.filter(|p| uni.value(*p)) {
                        out.push(id(format!("__pc{k}")).assign(Expr::cond(cx.v(p), id("__nthreads"), lit("0u"))).stmt());
                    }
                    // Every thread of the block arrives: none has returned before a barrier.
                    let v = match kind {
                        // (Grid barriers keep the general form and have no result.)
                        BarrierKind::Count | BarrierKind::Sync | BarrierKind::Grid => id(format!("__pc{k}")).cast(CType::named("int32_t")),
                        BarrierKind::And => id(format!("__pc{k}")).bin("==", id("__nthreads")).cast(CType::named("int32_t")),
                        BarrierKind::Or => id(format!("__pc{k}")).bin("!=", lit("0")).cast(CType::named("int32_t")),
                    };
                    out.push(cx.lv[res.index()].clone().assign(v).stmt());
                }
                out.push(goto(*next));
            }
            Terminator::Return(_) => out.push(Stmt::Goto("__block_done".into())),
            Terminator::Unreachable => out.push(call("__builtin_unreachable", vec![]).stmt()),
            Terminator::Warp { next, .. } if fast_shuffle(f, uni, term).is_some() => {
                // One thread loop reads the source lanes' values (`shuffle.rs`).
                let sh = fast_shuffle(f, uni, term).unwrap();
                let in_slot = plan.slots.contains(&sh.result);
                for body in cx.shuffle_loops(&sh, in_slot, guard) {
                    let mut tb = vec![thread_index()];
                    tb.extend(body);
                    out.push(thread_loop(tb, Some("omp simd".into())));
                }
                out.push(goto(*next));
            }
            Terminator::Warp { op, results, next, .. } => {
                if !matches!(op, WarpOp::SyncWarp | WarpOp::Lockstep) {
                    let code = lit(cut_code(f, term).1.to_string());
                    out.push(match guard {
                        None => call("__cu_warp_all", vec![id("__ws"), id("__nthreads"), code]).stmt(),
                        Some(g) => call("__cu_warp_masked", vec![id("__ws"), id("__nthreads"), code, id(format!("__g{g}"))]).stmt(),
                    });
                }
                // Results that the next units read: into their slots (for the threads
                // inside the guard, if any).
                let mut copies = Vec::new();
                for (i, res) in results.iter().enumerate() {
                    if plan.slots.contains(res) {
                        copies.push(cx.lv[res.index()].clone().assign(cx.warp_result(i, &f.local(*res).ty)).stmt());
                    }
                }
                if !copies.is_empty() {
                    let copies = match guard {
                        None => copies,
                        Some(g) => vec![Stmt::If { cond: id(format!("__g{g}")).index(id("__t")), then: copies, else_: vec![] }],
                    };
                    let mut body = vec![thread_index()];
                    body.extend(copies);
                    out.push(thread_loop(body, Some("omp simd".into())));
                }
                out.push(goto(*next));
            }
        }
        if rot.is_some() {
            let tail = out.split_off(rot_start);
            out.push(Stmt::Block(tail));
        }
    }
}

impl<'m> ModCx<'m> {
    /// Values that point into shared memory: a shared variable's address, and offsets,
    /// fields and casts of such pointers (values are block-local, so one pass in order).
    fn shared_pointers(&self, f: &Function) -> HashSet<ValueId> {
        let mut s = HashSet::new();
        for b in &f.blocks {
            for i in &b.insts {
                let Some(r) = i.result else { continue };
                let shared = match &i.kind {
                    InstKind::GlobalAddr(g) => self.m.global(*g).space == AddressSpace::Shared,
                    InstKind::PtrAdd { base, .. } | InstKind::FieldAddr { base, .. } => s.contains(base),
                    InstKind::Cast(a) => f.value_type(r).is_pointer() && s.contains(a),
                    _ => false,
                };
                if shared {
                    s.insert(r);
                }
            }
        }
        s
    }
}

/// Whether `v` and every value it is computed from have expressions in `subst`.
fn all_substituted(v: ValueId, defs: &HashMap<ValueId, InstKind>, subst: &HashMap<ValueId, Expr>) -> bool {
    subst.contains_key(&v) && defs.get(&v).is_some_and(|k| crate::inline::inst_uses(k).iter().all(|o| all_substituted(*o, defs, subst)))
}

/// Whether a block has an atomic operation on one of these pointers.
fn has_atomic_on(f: &Function, b: BlockId, ptrs: &HashSet<ValueId>) -> bool {
    f.block(b).insts.iter().any(|i| match &i.kind {
        InstKind::CallBuiltin { builtin: Builtin::Atomic { .. }, args } => args.first().is_some_and(|p| ptrs.contains(p)),
        _ => false,
    })
}

/// `__t`, the thread's linear index in its block.
/// A `size_t` sum of the row's start and `__tx`: as a 32-bit unsigned sum it could wrap,
/// so the C compiler would not see slot accesses `s[__t]` as affine in `__tx` (no
/// vectorisation: "evolution of base is not affine"); in 64 bits it cannot.
fn thread_index() -> Stmt {
    Stmt::decl(
        CType::named("size_t").konst(),
        "__t",
        Some(id("__tz").bin("*", id("__bdy")).bin("+", id("__ty")).bin("*", id("__bdx")).cast(CType::named("size_t")).bin("+", id("__tx"))),
    )
}

/// The loops over the block's threads, `x` innermost and marked for vectorisation:
/// between two barriers, CUDA lets the threads of a block run in any order.
fn thread_loop(body: Vec<Stmt>, simd: Option<String>) -> Stmt {
    let tloop = |v: &str, lim: &str, body: Vec<Stmt>| Stmt::For {
        init: Some(Box::new(Stmt::decl(CType::named("uint32_t"), v, Some(lit("0"))))),
        cond: Some(id(v).bin("<", id(lim))),
        step: Some(Expr::PostInc(Box::new(id(v)))),
        body,
    };
    let mut inner = vec![];
    if let Some(p) = simd {
        inner.push(Stmt::Pragma(p));
    }
    inner.push(tloop("__tx", "__bdx", body));
    tloop("__tz", "__bdz", vec![tloop("__ty", "__bdy", inner)])
}

/// `min(bound, blockDim.x)` as the end of a thread loop over `x` (0 for a negative
/// signed bound).
fn x_limit(bound: Expr, signed: bool) -> Expr {
    let wide = bound.cast(CType::named(if signed { "int64_t" } else { "uint64_t" }));
    let below = wide.clone().bin("<", id("__bdx").cast(CType::named(if signed { "int64_t" } else { "uint64_t" })));
    let clamp = Expr::cond(below, wide.clone().cast(CType::named("uint32_t")), id("__bdx"));
    if signed {
        Expr::cond(wide.bin("<=", lit("0")), lit("0u"), clamp)
    } else {
        clamp
    }
}

/// The end of a range guard's thread loops: `n - blockIdx.x * mul`, clamped to
/// `[0, blockDim.x]`, in 64 bits.
fn range_limit(n: Expr, r: &crate::range_guard::RangeX) -> Expr {
    let i64t = || CType::named("int64_t");
    let n = if r.signed { n.cast(i64t()) } else { n.cast(CType::named("uint32_t")).cast(i64t()) };
    let mul = match r.mul {
        None => id("__bdx").cast(i64t()),
        Some(k) => lit(format!("{k}")).cast(i64t()),
    };
    x_limit(n.bin("-", id("__bx").cast(i64t()).bin("*", mul)), true)
}

/// `thread_loop` with `x` running below `lim` only.
fn thread_loop_below(body: Vec<Stmt>, simd: Option<String>, lim: &str) -> Stmt {
    let tloop = |v: &str, lim: &str, body: Vec<Stmt>| Stmt::For {
        init: Some(Box::new(Stmt::decl(CType::named("uint32_t"), v, Some(lit("0"))))),
        cond: Some(id(v).bin("<", id(lim))),
        step: Some(Expr::PostInc(Box::new(id(v)))),
        body,
    };
    let mut inner = vec![];
    if let Some(p) = simd {
        inner.push(Stmt::Pragma(p));
    }
    inner.push(tloop("__tx", lim, body));
    tloop("__tz", "__bdz", vec![tloop("__ty", "__bdy", inner)])
}

/// The thread loops of a single-thread guard (`uniformity::Guard::single_x`): `x = c`
/// only (none when `c` is not below `blockDim.x`).
fn thread_loop_at_x(body: Vec<Stmt>, c: Expr) -> Stmt {
    let tloop = |v: &str, init: Expr, cond: Expr, body: Vec<Stmt>| Stmt::For {
        init: Some(Box::new(Stmt::decl(CType::named("uint32_t"), v, Some(init)))),
        cond: Some(cond),
        step: Some(Expr::PostInc(Box::new(id(v)))),
        body,
    };
    let x = tloop("__tx", c.clone(), id("__tx").bin("<", id("__bdx")).bin("&&", id("__tx").bin("==", c)), body);
    let y = tloop("__ty", lit("0"), id("__ty").bin("<", id("__bdy")), vec![x]);
    tloop("__tz", lit("0"), id("__tz").bin("<", id("__bdz")), vec![y])
}

/// Whether a block calls functions or runtime services (its thread loop will not
/// vectorise anyway, so it records the thread for fault messages). Plain shared-memory
/// atomics are ordinary memory accesses.
fn block_is_slow(f: &Function, b: BlockId, plain: Option<&HashSet<ValueId>>) -> bool {
    f.block(b).insts.iter().any(|i| match &i.kind {
        InstKind::Call { .. } | InstKind::CallIndirect { .. } => true,
        InstKind::CallBuiltin { builtin: Builtin::Atomic { .. }, args } => !plain.is_some_and(|p| args.first().is_some_and(|a| p.contains(a))),
        InstKind::CallBuiltin { builtin, .. } => !matches!(builtin, Builtin::Math(_)),
        _ => false,
    })
}
