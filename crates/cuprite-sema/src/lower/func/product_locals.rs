//! Multiply-adds through locals. nvcc contracts on SSA form, so `float t = a * b;
//! r = t + c;` becomes `fma(a, b, c)` when every use of the product is an addition or
//! subtraction (measured on an H100: tests/conformance/fp_contraction_locals.cu). This
//! finds the locals for which Cuprite does the same: a float or double local declared
//! with a product (`a * b`, `-(a * b)`) and never written again, whose every use is an
//! operand of a float `+`/`-` (or the right side of `+=`/`-=`). The lowering keeps the
//! two factors in locals of their own and fuses each such use (`FnLower::try_fma`).
//!
//! The walk is conservative: a local named anywhere else (assigned, its address taken,
//! passed to a function, captured, converted) keeps its rounded product. nvcc also shares
//! equal products in a function (CSE): when the same product of two locals that are never
//! reassigned is also used otherwise (stored, compared, or held by a local that is), it
//! stays rounded everywhere, so such a local keeps it rounded too (measured).

use crate::hir::*;
use std::collections::{HashMap, HashSet};

#[derive(Default)]
struct Uses {
    /// Locals declared with a product initializer.
    candidates: HashSet<LocalId>,
    /// Locals named somewhere other than as a `+`/`-` operand (or declared twice).
    disqualified: HashSet<LocalId>,
    declared: HashSet<LocalId>,
    /// The loops around the current statement, innermost last (ids into `written`).
    loops: Vec<usize>,
    /// For each loop, the locals declared or written inside it.
    written: Vec<HashSet<LocalId>>,
    /// Where each candidate is declared: its innermost loop, and the locals its factors read.
    decl_loop: HashMap<LocalId, (Option<usize>, HashSet<LocalId>)>,
    /// Locals read somewhere other than as a `+`/`-` operand.
    read_otherwise: HashSet<LocalId>,
    /// Locals written after their declaration (or whose address escapes).
    reassigned: HashSet<LocalId>,
    /// Products of two locals (in either order) used other than by `+`/`-` or a
    /// candidate's initializer, and each candidate's product of two locals.
    products_used_otherwise: HashSet<(LocalId, LocalId)>,
    candidate_product: HashMap<LocalId, (LocalId, LocalId)>,
}

/// A product of two locals read directly (`x * y`, `-(x * y)`), factors in order.
fn product_of_locals(e: &Expr) -> Option<(LocalId, LocalId)> {
    match &e.kind {
        ExprKind::Binary(BinOp::Mul, a, b) if e.ty.ty.is_float() => {
            let (a, b) = (loaded_local(a)?, loaded_local(b)?);
            Some(if a.0 <= b.0 { (a, b) } else { (b, a) })
        }
        ExprKind::Neg(inner) if e.ty.ty.is_float() => product_of_locals(inner),
        _ => None,
    }
}

/// The locals of `body` whose products may be fused into every use.
pub(super) fn fusible_product_locals(body: &Body) -> HashSet<LocalId> {
    let mut u = Uses::default();
    for s in &body.stmts {
        stmt(s, &mut u);
    }
    // Products nvcc shares with a use that keeps them rounded.
    let mut shared = u.products_used_otherwise.clone();
    for (l, k) in &u.candidate_product {
        if u.read_otherwise.contains(l) {
            shared.insert(*k);
        }
    }
    shared.retain(|(a, b)| !u.reassigned.contains(a) && !u.reassigned.contains(b));
    let (disq, decl_loop, written) = (&u.disqualified, &u.decl_loop, &u.written);
    let (cand_product, reassigned) = (&u.candidate_product, &u.reassigned);
    u.candidates.retain(|l| {
        if cand_product.get(l).is_some_and(|k| shared.contains(k) && !reassigned.contains(&k.0) && !reassigned.contains(&k.1)) {
            return false;
        }
        // A product declared in a loop from values the loop does not change is hoisted
        // out of it by nvcc, away from its uses: it stays rounded there.
        let variant = match decl_loop.get(l) {
            Some((Some(lp), reads)) => reads.iter().any(|r| written[*lp].contains(r)),
            _ => true,
        };
        !disq.contains(l) && l.0 as usize >= body.nparams && variant
    });
    u.candidates
}

/// `e` is a product the lowering can fuse (the shape `fma_parts` accepts).
pub(super) fn is_product(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Binary(BinOp::Mul, _, _) => e.ty.ty.is_float(),
        ExprKind::Neg(inner) => e.ty.ty.is_float() && is_product(inner),
        _ => false,
    }
}

/// The local an operand reads directly (`Load(Local(l))`).
pub(super) fn loaded_local(e: &Expr) -> Option<LocalId> {
    match &e.kind {
        ExprKind::Load(inner) => match inner.kind {
            ExprKind::Local(l) => Some(l),
            _ => None,
        },
        _ => None,
    }
}

fn stmt(s: &Stmt, u: &mut Uses) {
    match &s.kind {
        StmtKind::Expr(e) => expr(e, u),
        StmtKind::Decl(l, init) => {
            if !u.declared.insert(*l) {
                u.disqualified.insert(*l);
            }
            u.wrote(*l);
            match init {
                Some(Init::Expr(e)) if is_product(e) => {
                    u.candidates.insert(*l);
                    let mut reads = HashSet::new();
                    locals_read(e, &mut reads);
                    u.decl_loop.insert(*l, (u.loops.last().copied(), reads));
                    if let Some(k) = product_of_locals(e) {
                        u.candidate_product.insert(*l, k);
                    }
                    factors(e, u);
                }
                Some(i) => self::init(i, u),
                None => {}
            }
        }
        StmtKind::InitAt(e, i) => {
            expr(e, u);
            init(i, u);
        }
        StmtKind::Block(v) => v.iter().for_each(|s| stmt(s, u)),
        StmtKind::If(c, t, e) => {
            expr(c, u);
            stmt(t, u);
            if let Some(e) = e {
                stmt(e, u);
            }
        }
        StmtKind::While(c, b) | StmtKind::DoWhile(b, c) => {
            u.enter_loop();
            expr(c, u);
            stmt(b, u);
            u.leave_loop();
        }
        StmtKind::For(i, c, step, b) => {
            if let Some(i) = i {
                stmt(i, u);
            }
            u.enter_loop();
            if let Some(c) = c {
                expr(c, u);
            }
            if let Some(s) = step {
                expr(s, u);
            }
            stmt(b, u);
            u.leave_loop();
        }
        StmtKind::Switch { cond, body, .. } => {
            expr(cond, u);
            stmt(body, u);
        }
        StmtKind::Case(_, s) | StmtKind::Label(_, s) => stmt(s, u),
        StmtKind::Return(e) => {
            if let Some(e) = e {
                expr(e, u);
            }
        }
        StmtKind::Asm(a) => {
            for op in &a.operands {
                match op {
                    AsmOperand::Out { place, .. } => expr(place, u),
                    AsmOperand::In { value, .. } => expr(value, u),
                    AsmOperand::Imm(_) => {}
                }
            }
        }
        StmtKind::Break | StmtKind::Continue | StmtKind::Goto(_) | StmtKind::Empty => {}
    }
}

fn init(i: &Init, u: &mut Uses) {
    match i {
        Init::Zero(_) => {}
        Init::Expr(e) => expr(e, u),
        Init::List { items, .. } => items.iter().for_each(|i| init(i, u)),
        Init::Construct { args, .. } => args.iter().for_each(|a| expr(a, u)),
    }
}

impl Uses {
    fn enter_loop(&mut self) {
        self.written.push(HashSet::new());
        self.loops.push(self.written.len() - 1);
    }
    fn leave_loop(&mut self) {
        self.loops.pop();
    }
    /// `l` is declared or written here: inside every enclosing loop.
    fn wrote(&mut self, l: LocalId) {
        for &lp in &self.loops {
            self.written[lp].insert(l);
        }
    }
}

/// The locals an expression names.
fn locals_read(e: &Expr, out: &mut HashSet<LocalId>) {
    let mut u = Uses::default();
    expr(e, &mut u);
    out.extend(u.disqualified);
}

/// The factors of a product (the product itself is used where it stands).
fn factors(e: &Expr, u: &mut Uses) {
    match &e.kind {
        ExprKind::Binary(BinOp::Mul, a, b) => {
            expr(a, u);
            expr(b, u);
        }
        ExprKind::Neg(inner) => factors(inner, u),
        _ => expr(e, u),
    }
}

/// An operand of a float `+`/`-`: a direct read of a local is a fusible use, unless it
/// sits in a loop the local's declaration is outside of (nvcc keeps the product rounded
/// there: measured, tests/conformance/fp_contraction_locals.cu).
fn add_operand(e: &Expr, u: &mut Uses) {
    match loaded_local(e) {
        Some(l) => {
            if let Some((decl, _)) = u.decl_loop.get(&l) {
                if *decl != u.loops.last().copied() {
                    u.disqualified.insert(l);
                }
            }
        }
        None if product_of_locals(e).is_some() => factors(e, u),
        None => expr(e, u),
    }
}

fn expr(e: &Expr, u: &mut Uses) {
    use ExprKind::*;
    match &e.kind {
        Load(x) if matches!(x.kind, Local(_)) => {
            if let Local(l) = x.kind {
                u.disqualified.insert(l);
                u.read_otherwise.insert(l);
            }
        }
        Local(l) => {
            // Any other mention may be a write (an assignment, a reference, an address).
            u.disqualified.insert(*l);
            u.read_otherwise.insert(*l);
            u.reassigned.insert(*l);
            u.wrote(*l);
        }
        Binary(BinOp::Mul, a, b) if product_of_locals(e).is_some() => {
            if let Some(k) = product_of_locals(e) {
                u.products_used_otherwise.insert(k);
            }
            expr(a, u);
            expr(b, u);
        }
        Binary(BinOp::Add | BinOp::Sub, a, b) if e.ty.ty.is_float() => {
            add_operand(a, u);
            add_operand(b, u);
        }
        CompoundAssign { op: BinOp::Add | BinOp::Sub, lhs, rhs, comp } if comp.ty.is_float() => {
            expr(lhs, u);
            add_operand(rhs, u);
        }
        Error | Int(_) | Float(_) | Null | Str(_) | Global(_) | Special(_) | SpecialVec(_) | FuncRef(_) | FuncAddr(_)
        | MemberFnPtr { .. } | VTable(_) => {}
        Deref(x) | AddrOf(x) | Member(x, _, _) | Load(x) | Decay(x) | Cast(x) | Bitcast(x) | ToVoid(x) | Neg(x) | BitNot(x)
        | LNot(x) | Temp(x) => expr(x, u),
        IncDec { expr: x, .. } => expr(x, u),
        Binary(_, a, b) | PtrAdd(a, b) | PtrDiff(a, b) | LogAnd(a, b) | LogOr(a, b) | Assign(a, b) | Comma(a, b)
        | MemberFnPtrEq(a, b) => {
            expr(a, u);
            expr(b, u);
        }
        CompoundAssign { lhs, rhs, .. } => {
            expr(lhs, u);
            expr(rhs, u);
        }
        Cond(c, a, b) => {
            expr(c, u);
            expr(a, u);
            expr(b, u);
        }
        Call(_, args) | Builtin(_, args) | VirtualCall { args, .. } => args.iter().for_each(|a| expr(a, u)),
        CallPtr(f, args) => {
            expr(f, u);
            args.iter().for_each(|a| expr(a, u));
        }
        CallMemberPtr { mfp, this, args } => {
            expr(mfp, u);
            expr(this, u);
            args.iter().for_each(|a| expr(a, u));
        }
        InitTemp(i) => init(i, u),
        LocalInit(l, i) => {
            u.disqualified.insert(*l);
            init(i, u);
        }
        New(n) => {
            if let Some(p) = &n.placement {
                expr(p, u);
            }
            if let Some(c) = &n.count {
                expr(c, u);
            }
            match &n.init {
                NewInit::None => {}
                NewInit::Each(i) | NewInit::Whole(i) => init(i, u),
            }
        }
        Delete(d) => {
            expr(&d.ptr, u);
            d.destroy.iter().for_each(|s| stmt(s, u));
        }
    }
}

/// Factor locals of each fusible product local: (a, b) hold the factors (the sign of a
/// negated product folded into `a`).
pub(super) type ProductLocals = HashMap<cuprite_ir::LocalId, (cuprite_ir::LocalId, cuprite_ir::LocalId)>;
