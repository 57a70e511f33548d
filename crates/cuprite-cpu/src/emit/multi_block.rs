//! The multi-block form of a fissioned kernel with a grid-stride loop: a worker runs K
//! consecutive blocks of its run together, unit by unit, each thread loop once per block
//! (`for (__sb < __kk) { that block's coordinates, shared memory and slots; thread loop }`).
//!
//! Why: a grid-stride loop's round reads `blockDim` elements per block, the next round a
//! whole grid further on. One block at a time, a core streams 1 KB (256 threads × 4 bytes)
//! and jumps, which the hardware prefetchers barely follow; block `b + 1`'s chunk of a
//! round follows block `b`'s, so K blocks round by round read K chunks in a row. (A C
//! model of reduce_shared's loop on the 16-core Xeon: 16 threads 1.51 ms one block at a
//! time, 1.12 ms four at a time; PERFORMANCE.md, session 11.)
//!
//! How: the kernel is planned again with `blockIdx` and shared-memory addresses varying
//! (`fission::plan_for`), so that the uniform code between thread loops is the same for
//! the K blocks and runs once; a grid-stride loop then goes round while a thread of any of
//! them still iterates (the others' masks are clear), a guard's "some thread entered"
//! counts over all of them. The C of that plan is rewritten: each thread-loop nest runs
//! once per block with that block's `__bx/__by/__bz`, `__shared`, `__slots` and the slot
//! arrays over them, in a scratch area of K blocks (`__cu_multi_scratch`). If any other
//! statement still names one of those, the form is dropped (the plan could not separate
//! it): the rewrite is checked, not trusted.
//!
//! What a program can observe does not change: each block has its own shared memory,
//! `blockIdx`, slots; a barrier is crossed by the K blocks together, which CUDA allows
//! (blocks of a launch do not wait for each other except through memory). Kernels that
//! could wait for another block keep the single-block form: volatile accesses, fences,
//! atomics whose result is used (a spin on a lock or flag), calls, printf/assert/trap,
//! clocks, device malloc, barriers with a result (`__syncthreads_count` counts per block)
//! and grid barriers. The single-block function calls the multi-block one first, which
//! returns 0 (having done nothing) when the run has fewer than two blocks, the grid is too
//! large for the fast copy, `CUPRITE_MULTI_BLOCKS` is 1, or no scratch could be had.

use super::*;
use crate::fission::Plan;

impl<'m> ModCx<'m> {
    /// A fissioned kernel, with its multi-block form in front of it where that applies.
    pub(super) fn emit_kernel_fissioned(&mut self, kid: FuncId, f: &Function, regions: &Regions, plan: &Plan, items: &mut Vec<Item>) -> KernelDesc {
        let multi = self.multi_block_form(kid, f, regions, plan);
        let desc = self.fissioned_kernel(kid, f, regions, plan, items);
        if let Some((name, func)) = multi {
            let pos = items.iter().rposition(|i| matches!(i, Item::Func { .. })).expect("the kernel's function");
            if let Item::Func { body: Some(body), .. } = &mut items[pos] {
                body.insert(0, Stmt::If { cond: call(&name, vec![id("__run")]), then: vec![Stmt::Return(None)], else_: vec![] });
            }
            items.insert(pos, func);
        }
        desc
    }

    /// The multi-block function (name, item), or `None` where the form does not apply.
    fn multi_block_form(&mut self, kid: FuncId, f: &Function, regions: &Regions, plan: &Plan) -> Option<(String, Item)> {
        // Only kernels with a grid-stride loop: what the form is for (and measured on).
        if !plan.uni.guards.iter().any(|g| g.looping) || !may_run_blocks_together(f) {
            return None;
        }
        let shared: HashSet<GlobalId> =
            (0..self.m.globals.len()).map(|i| GlobalId(i as u32)).filter(|g| self.m.global(*g).space == AddressSpace::Shared).collect();
        let mplan = crate::fission::plan_for(f, Some(&shared)).ok()?;
        if !mplan.uni.guards.iter().any(|g| g.looping) {
            return None;
        }
        let errors = self.errors.len();
        let mut scratch_items = Vec::new();
        let desc = self.fissioned_kernel(kid, f, regions, &mplan, &mut scratch_items);
        if self.errors.len() != errors {
            self.errors.truncate(errors);
            return None;
        }
        let Some(Item::Func { storage, attrs, name, params, body: Some(body), .. }) = scratch_items.into_iter().rev().find(|i| matches!(i, Item::Func { .. }))
        else {
            return None;
        };
        let body = multi_block_body(body, desc.static_shared, desc.slot_bytes)?;
        let name = format!("{name}__blocks");
        Some((name.clone(), Item::Func { storage, attrs, ret: CType::named("int"), name, params, body: Some(body) }))
    }
}

/// Whether no block of the kernel can wait for another (see the module's comment).
fn may_run_blocks_together(f: &Function) -> bool {
    let used: HashSet<ValueId> = f
        .blocks
        .iter()
        .flat_map(|b| b.insts.iter().flat_map(|i| cuprite_ir::operands::inst_uses(&i.kind)).chain(cuprite_ir::operands::term_uses(&b.term)))
        .collect();
    f.blocks.iter().all(|b| {
        let term_ok = match &b.term {
            Terminator::Barrier { kind, result, .. } => result.is_none() && !matches!(kind, BarrierKind::Grid),
            _ => true,
        };
        term_ok
            && b.insts.iter().all(|i| match &i.kind {
                InstKind::Load { volatile, .. } | InstKind::Store { volatile, .. } => !volatile,
                InstKind::Call { .. } | InstKind::CallIndirect { .. } => false,
                InstKind::CallBuiltin { builtin: Builtin::Math(_), .. } => true,
                InstKind::CallBuiltin { builtin: Builtin::Atomic { .. }, .. } => i.result.is_none_or(|r| !used.contains(&r)),
                InstKind::CallBuiltin { .. } => false,
                _ => true,
            })
    })
}

/// The names a thread loop of the multi-block form sees per block.
const PER_BLOCK: [&str; 5] = ["__bx", "__by", "__bz", "__shared", "__slots"];

/// Rewrites the body of a fissioned kernel function into the multi-block form's.
fn multi_block_body(mut body: Vec<Stmt>, static_shared: u64, slot_bytes: u64) -> Option<Vec<Stmt>> {
    // The declarations over the per-block buffers (shared pointers, slot arrays, guard
    // masks, shuffle values), in order: re-declared per block in front of each nest.
    let mut names: HashSet<String> = PER_BLOCK.iter().map(|s| s.to_string()).collect();
    let mut rebind = Vec::new();
    let blk_at = body.iter().position(|s| matches!(s, Stmt::For { init: Some(i), .. } if decl_name(i) == Some("__blk")))?;
    for s in &body[..blk_at] {
        if let Stmt::Decl { name, init: Some(Initializer::Expr(e)), .. } = s {
            if !PER_BLOCK.contains(&name.as_str()) && expr_mentions(e, &names) {
                names.insert(name.clone());
                rebind.push(s.clone());
            }
        }
    }
    let Stmt::For { body: blk, .. } = body.remove(blk_at) else { unreachable!() };
    // The block's coordinates, then the fast copy (indices below 2^21, which the grid
    // check below guarantees) or the only one.
    let mut rest: Vec<Stmt> = blk.into_iter().skip_while(is_block_coords).collect();
    if rest.last().is_some_and(|s| matches!(s, Stmt::Label(l) if l == "__block_done")) {
        rest.pop();
    }
    let fast = match rest.as_slice() {
        [Stmt::If { cond, then, .. }] if expr_mentions(cond, &names) => then.clone(),
        _ => rest,
    };
    let mut per_block = super::block_coords(false);
    per_block.insert(0, Stmt::decl(CType::named("uint64_t").konst(), "__blk", Some(id("__mblk").bin("+", id("__sb")))));
    per_block.push(Stmt::decl(CType::named("char").ptr().konst(), "__shared", Some(id("__mscr").bin("+", id("__sb").cast(CType::named("size_t")).bin("*", id("__mshs"))))));
    per_block.push(Stmt::decl(
        CType::named("char").ptr().konst(),
        "__slots",
        Some(id("__mscr").bin("+", id("__mk").cast(CType::named("size_t")).bin("*", id("__mshs"))).bin("+", id("__sb").cast(CType::named("size_t")).bin("*", id("__msls")))),
    ));
    per_block.extend(rebind);
    let fast = wrap_thread_loops(fast, &per_block);
    if fast.iter().any(|s| stmt_mentions_outside_groups(s, &names)) || fast.iter().any(has_return) {
        return None;
    }

    let u64t = CType::named("uint64_t");
    let sz = CType::named("size_t").konst();
    let big = |v: &str| id(v).bin(">", lit("0x200000u"));
    body.push(Stmt::decl(CType::named("uint32_t").konst(), "__mk", Some(call("__cu_multi_blocks", vec![]))));
    let run_len = id("__run").arrow("end_block").bin("-", id("__run").arrow("first_block"));
    body.push(Stmt::If {
        cond: id("__mk").bin("<", lit("2u")).bin("||", run_len.bin("<", lit("2u"))).bin("||", big("__gdx")).bin("||", big("__gdy")).bin("||", big("__gdz")),
        then: vec![Stmt::Return(Some(lit("0")))],
        else_: vec![],
    });
    // Each block's shared memory and slots, 64-byte aligned as the runtime's buffers.
    let shs = call("CUPRITE_DYNAMIC_SHARED_OFFSET", vec![lit(format!("{static_shared}u"))]).bin("+", id("__l").arrow("dynamic_shared_bytes"));
    body.push(Stmt::decl(sz.clone(), "__mshs", Some(round64(shs))));
    body.push(Stmt::decl(sz, "__msls", Some(round64(lit(format!("(size_t){slot_bytes}u")).bin("*", id("__nthreads"))))));
    let total = id("__mk").cast(CType::named("size_t")).bin("*", id("__mshs").bin("+", id("__msls")));
    body.push(Stmt::decl(CType::named("char").ptr().konst(), "__mscr", Some(call("__cu_multi_scratch", vec![total]))));
    body.push(Stmt::If { cond: Expr::un("!", id("__mscr")), then: vec![Stmt::Return(Some(lit("0")))], else_: vec![] });
    let mut group = vec![Stmt::decl(
        CType::named("uint32_t").konst(),
        "__kk",
        Some(Expr::cond(
            id("__run").arrow("end_block").bin("-", id("__mblk")).bin("<", id("__mk")),
            id("__run").arrow("end_block").bin("-", id("__mblk")).cast(CType::named("uint32_t")),
            id("__mk"),
        )),
    )];
    group.extend(fast);
    group.push(Stmt::Label("__block_done".into()));
    body.push(Stmt::For {
        init: Some(Box::new(Stmt::decl(u64t, "__mblk", Some(id("__run").arrow("first_block"))))),
        cond: Some(id("__mblk").bin("<", id("__run").arrow("end_block"))),
        step: Some(id("__mblk").assign_op("+", id("__mk"))),
        body: group,
    });
    body.push(Stmt::Return(Some(lit("1"))));
    Some(body)
}

fn round64(e: Expr) -> Expr {
    Expr::Binary("&", Box::new(e.bin("+", lit("63u"))), Box::new(lit("~(size_t)63u")))
}

fn decl_name(s: &Stmt) -> Option<&str> {
    match s {
        Stmt::Decl { name, .. } => Some(name),
        _ => None,
    }
}

/// `__bx/__by/__bz` and the fault record of `block_coords`.
fn is_block_coords(s: &Stmt) -> bool {
    match s {
        Stmt::Decl { name, .. } => matches!(name.as_str(), "__bx" | "__by" | "__bz"),
        Stmt::Expr(Expr::Assign(l, _)) => matches!(&**l, Expr::Arrow(b, f) if **b == id("__run") && f == "fault_block"),
        _ => false,
    }
}

/// Puts each thread-loop nest (`for (__tz ...)`) in a loop over the group's blocks.
fn wrap_thread_loops(stmts: Vec<Stmt>, per_block: &[Stmt]) -> Vec<Stmt> {
    stmts
        .into_iter()
        .map(|s| match s {
            Stmt::For { init: Some(i), cond, step, body } if decl_name(&i) == Some("__tz") => {
                let mut b = per_block.to_vec();
                b.push(Stmt::For { init: Some(i), cond, step, body });
                Stmt::For {
                    init: Some(Box::new(Stmt::decl(CType::named("uint32_t"), "__sb", Some(lit("0u"))))),
                    cond: Some(id("__sb").bin("<", id("__kk"))),
                    step: Some(Expr::PostInc(Box::new(id("__sb")))),
                    body: b,
                }
            }
            Stmt::For { init, cond, step, body } => Stmt::For { init, cond, step, body: wrap_thread_loops(body, per_block) },
            Stmt::If { cond, then, else_ } => Stmt::If { cond, then: wrap_thread_loops(then, per_block), else_: wrap_thread_loops(else_, per_block) },
            Stmt::Block(b) => Stmt::Block(wrap_thread_loops(b, per_block)),
            Stmt::Switch { value, cases, default } => Stmt::Switch {
                value,
                cases: cases.into_iter().map(|(c, b)| (c, wrap_thread_loops(b, per_block))).collect(),
                default: wrap_thread_loops(default, per_block),
            },
            s => s,
        })
        .collect()
}

/// Whether a statement names one of `names` outside the loops over a group's blocks.
fn stmt_mentions_outside_groups(s: &Stmt, names: &HashSet<String>) -> bool {
    match s {
        Stmt::For { init: Some(i), .. } if decl_name(i) == Some("__sb") => false,
        _ => stmt_mentions(s, names, &|s| stmt_mentions_outside_groups(s, names)),
    }
}

fn has_return(s: &Stmt) -> bool {
    match s {
        Stmt::Return(_) => true,
        _ => children(s).iter().any(|c| has_return(c)),
    }
}

fn children(s: &Stmt) -> Vec<&Stmt> {
    match s {
        Stmt::If { then, else_, .. } => then.iter().chain(else_).collect(),
        Stmt::For { init, body, .. } => init.iter().map(|b| &**b).chain(body).collect(),
        Stmt::Switch { cases, default, .. } => cases.iter().flat_map(|(_, b)| b).chain(default).collect(),
        Stmt::Block(b) => b.iter().collect(),
        _ => Vec::new(),
    }
}

/// Whether `s`'s own expressions name one of `names`, or `nested` says so of a child.
fn stmt_mentions(s: &Stmt, names: &HashSet<String>, nested: &dyn Fn(&Stmt) -> bool) -> bool {
    let own = match s {
        Stmt::Expr(e) | Stmt::Return(Some(e)) => expr_mentions(e, names),
        Stmt::Decl { init, .. } => init.as_ref().is_some_and(|i| init_mentions(i, names)),
        Stmt::If { cond, .. } => expr_mentions(cond, names),
        Stmt::For { cond, step, .. } => cond.iter().chain(step).any(|e| expr_mentions(e, names)),
        Stmt::Switch { value, cases, .. } => expr_mentions(value, names) || cases.iter().any(|(c, _)| expr_mentions(c, names)),
        _ => false,
    };
    own || children(s).into_iter().any(nested)
}

fn init_mentions(i: &Initializer, names: &HashSet<String>) -> bool {
    match i {
        Initializer::Expr(e) => expr_mentions(e, names),
        Initializer::List(l) => l.iter().any(|(_, i)| init_mentions(i, names)),
    }
}

fn expr_mentions(e: &Expr, names: &HashSet<String>) -> bool {
    let m = |e: &Expr| expr_mentions(e, names);
    match e {
        Expr::Ident(n) => names.contains(n),
        Expr::Lit(_) | Expr::Str(_) | Expr::SizeofType(_) | Expr::AlignofType(_) => false,
        Expr::Unary(_, a) | Expr::Cast(_, a) | Expr::Member(a, _) | Expr::Arrow(a, _) | Expr::PostInc(a) => m(a),
        Expr::Binary(_, a, b) | Expr::Assign(a, b) | Expr::AssignOp(_, a, b) | Expr::Index(a, b) => m(a) || m(b),
        Expr::Cond(a, b, c) => m(a) || m(b) || m(c),
        Expr::Call(f, args) => m(f) || args.iter().any(m),
        Expr::CompoundLit(_, args) => args.iter().any(m),
    }
}
