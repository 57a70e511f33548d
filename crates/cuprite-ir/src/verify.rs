//! Checks the IR invariants documented in the crate root.
//!
//! `verify(&module)` returns every violation found, each a sentence naming the function,
//! block and instruction: ids in range, every value defined once and used only where its
//! definition dominates the use, operand and result types consistent, parameters first among locals,
//! terminators well-formed.

use crate::*;

/// Verify a whole module.
pub fn verify(m: &Module) -> Result<(), Vec<String>> {
    let mut errs = Vec::new();
    for (i, s) in m.structs.iter().enumerate() {
        for f in &s.fields {
            check_type(m, &f.ty, &mut errs, &format!("struct {} (#{i}) field {}", s.name, f.name));
        }
    }
    for g in &m.globals {
        check_type(m, &g.ty, &mut errs, &format!("global {}", g.name));
        if let Some(init) = &g.init {
            check_init(m, init, &mut errs, &g.name);
        }
    }
    for (i, f) in m.functions.iter().enumerate() {
        verify_function(m, FuncId(i as u32), f, &mut errs);
    }
    if errs.is_empty() {
        Ok(())
    } else {
        Err(errs)
    }
}

fn check_type(m: &Module, t: &Type, errs: &mut Vec<String>, what: &str) {
    match t {
        Type::Struct(s) if s.index() >= m.structs.len() => errs.push(format!("{what}: struct id {} out of range", s.0)),
        Type::Ptr(p) | Type::Array(p, _) => check_type(m, p, errs, what),
        Type::FnPtr(sig) => {
            for p in &sig.params {
                check_type(m, p, errs, what);
            }
            check_type(m, &sig.ret, errs, what);
        }
        _ => {}
    }
}

fn check_init(m: &Module, i: &Init, errs: &mut Vec<String>, name: &str) {
    match i {
        Init::GlobalAddr { global, .. } if global.index() >= m.globals.len() => {
            errs.push(format!("global {name}: initializer refers to global #{} out of range", global.0))
        }
        Init::Aggregate(items) => items.iter().for_each(|x| check_init(m, x, errs, name)),
        Init::FuncAddr(f) if f.index() >= m.functions.len() => {
            errs.push(format!("global {name}: initializer refers to function #{} out of range", f.0))
        }
        _ => {}
    }
}

struct Cx<'a> {
    m: &'a Module,
    f: &'a Function,
    errs: &'a mut Vec<String>,
    /// Where each value is defined: (block, instruction index); None if nowhere.
    def_at: Vec<Option<(usize, usize)>>,
    dom: crate::dom::Dominators,
    /// The position being checked: (block, instruction index; the terminator is at
    /// `insts.len()`).
    at: (usize, usize),
    where_: String,
}

impl<'a> Cx<'a> {
    fn err(&mut self, msg: String) {
        self.errs.push(format!("{}: {msg}", self.where_));
    }

    fn use_(&mut self, v: ValueId) -> Option<Type> {
        if v.index() >= self.f.values.len() {
            self.err(format!("value %{} out of range", v.0));
            return None;
        }
        // A value is available after its definition in its own block, and in every block
        // its block dominates. (Uses in unreachable blocks are not checked: they never run.)
        let (ub, ui) = self.at;
        let ok = match self.def_at[v.index()] {
            None => {
                self.err(format!("value %{} is used but never defined", v.0));
                return None;
            }
            Some((db, di)) if db == ub => di < ui,
            Some((db, _)) => self.dom.dominates(BlockId(db as u32), BlockId(ub as u32)) || !self.dom.reachable(BlockId(ub as u32)),
        };
        if !ok {
            let (db, _) = self.def_at[v.index()].unwrap();
            if db == ub {
                self.err(format!("value %{} is used before its definition", v.0));
            } else {
                self.err(format!("value %{} is defined in block {db}, which does not dominate block {ub} where it is used", v.0));
            }
            return None;
        }
        Some(self.f.values[v.index()].clone())
    }

    fn local(&mut self, l: LocalId) -> Option<Type> {
        match self.f.locals.get(l.index()) {
            Some(x) => Some(x.ty.clone()),
            None => {
                self.err(format!("local {} out of range", l.0));
                None
            }
        }
    }

    fn block(&mut self, b: BlockId) {
        if b.index() >= self.f.blocks.len() {
            self.err(format!("block {} out of range", b.0));
        }
    }

    fn expect(&mut self, what: &str, got: Option<&Type>, want: &Type) {
        if let Some(g) = got {
            if g != want {
                self.err(format!("{what}: type {g} where {want} is expected"));
            }
        }
    }
}

fn pointee(t: &Type) -> Option<&Type> {
    match t {
        Type::Ptr(p) => Some(p),
        _ => None,
    }
}

fn verify_function(m: &Module, id: FuncId, f: &Function, errs: &mut Vec<String>) {
    let name = format!("function {} (#{})", f.name, id.0);
    for (i, p) in f.params.iter().enumerate() {
        if p.index() != i {
            errs.push(format!("{name}: parameter {i} is local {} (parameters must be the first locals)", p.0));
        }
    }
    if f.params.len() > f.locals.len() {
        errs.push(format!("{name}: more parameters than locals"));
    }
    if f.blocks.is_empty() {
        // A declaration (defined in another translation unit) needs a symbol to be found by.
        if f.symbol.is_none() {
            errs.push(format!("{name}: no blocks, and no symbol for a declaration"));
        }
        return;
    }
    for l in &f.locals {
        check_type(m, &l.ty, errs, &format!("{name} local {}", l.name));
    }
    let mut def_at: Vec<Option<(usize, usize)>> = vec![None; f.values.len()];
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, inst) in b.insts.iter().enumerate() {
            let Some(r) = inst.result else { continue };
            match def_at.get_mut(r.index()) {
                None => errs.push(format!("{name} block {bi} inst {ii}: result %{} out of range", r.0)),
                Some(Some(_)) => errs.push(format!("{name} block {bi} inst {ii}: value %{} is defined twice", r.0)),
                Some(slot) => *slot = Some((bi, ii)),
            }
        }
    }
    let mut cx = Cx { m, f, errs, def_at, dom: crate::dom::Dominators::new(f), at: (0, 0), where_: name.clone() };
    for (bi, b) in f.blocks.iter().enumerate() {
        for (ii, inst) in b.insts.iter().enumerate() {
            cx.where_ = format!("{name} block {bi} inst {ii}");
            cx.at = (bi, ii);
            let rt = inst.result.and_then(|r| f.values.get(r.index()).cloned());
            verify_inst(&mut cx, inst, rt.as_ref());
        }
        cx.where_ = format!("{name} block {bi} terminator");
        cx.at = (bi, b.insts.len());
        match &b.term {
            Terminator::Jump(t) => cx.block(*t),
            Terminator::Branch { cond, then, else_ } => {
                let t = cx.use_(*cond);
                cx.expect("branch condition", t.as_ref(), &Type::Bool);
                cx.block(*then);
                cx.block(*else_);
            }
            Terminator::Switch { value, cases, default } => {
                if let Some(t) = cx.use_(*value) {
                    if !t.is_integer() {
                        cx.err(format!("switch on a value of type {t}"));
                    }
                }
                for (_, c) in cases {
                    cx.block(*c);
                }
                cx.block(*default);
            }
            Terminator::Return(v) => match v {
                Some(v) => {
                    let t = cx.use_(*v);
                    cx.expect("return value", t.as_ref(), &f.ret);
                }
                None => {
                    if f.ret != Type::Void {
                        cx.err(format!("return without a value from a function returning {}", f.ret));
                    }
                }
            },
            Terminator::Barrier { kind, pred, result, next } => {
                cx.block(*next);
                let needs = !matches!(kind, BarrierKind::Sync | BarrierKind::Grid);
                if needs != pred.is_some() || needs != result.is_some() {
                    cx.err("barrier predicate/result do not match its kind".into());
                }
                if let Some(p) = pred {
                    let t = cx.use_(*p);
                    cx.expect("barrier predicate", t.as_ref(), &Type::Bool);
                }
                if let Some(r) = result {
                    let t = cx.local(*r);
                    cx.expect("barrier result local", t.as_ref(), &Type::I32);
                }
            }
            Terminator::Warp { op, args, results, next } => {
                cx.block(*next);
                let ats: Vec<Option<Type>> = args.iter().map(|a| cx.use_(*a)).collect();
                let rts: Vec<Option<Type>> = results.iter().map(|r| cx.local(*r)).collect();
                verify_warp(&mut cx, *op, &ats, &rts);
            }
            Terminator::Unreachable => {}
        }
    }
}

/// Operand and result types of a warp collective (see `WarpOp`).
fn verify_warp(cx: &mut Cx, op: WarpOp, args: &[Option<Type>], results: &[Option<Type>]) {
    use Type::*;
    let (nargs, nres) = match op {
        WarpOp::Shfl(_) => (4, 1),
        WarpOp::Vote(_) | WarpOp::MatchAny | WarpOp::Reduce(_) => (2, 1),
        WarpOp::MatchAll => (2, 2),
        WarpOp::ActiveMask => (0, 1),
        WarpOp::SyncWarp => (1, 0),
        WarpOp::Lockstep | WarpOp::Yield => (0, 0),
    };
    if args.len() != nargs || results.len() != nres {
        cx.err(format!("warp operation {op:?} takes {nargs} operand(s) and {nres} result(s)"));
        return;
    }
    if nargs > 0 {
        cx.expect("warp mask", args[0].as_ref(), &U32);
    }
    let value = args.get(1).cloned().flatten();
    let value_ok = |allowed: &[Type]| value.as_ref().map_or(true, |t| allowed.contains(t));
    match op {
        WarpOp::Shfl(_) => {
            if !value_ok(&[I32, U32, I64, U64, F32, F64]) {
                cx.err(format!("shuffle of a value of type {}", value.as_ref().unwrap()));
            }
            cx.expect("shuffle lane operand", args[2].as_ref(), &I32);
            cx.expect("shuffle width", args[3].as_ref(), &I32);
            if let Some(v) = &value {
                cx.expect("shuffle result local", results[0].as_ref(), v);
            }
        }
        WarpOp::Vote(k) => {
            cx.expect("vote predicate", args[1].as_ref(), &Bool);
            let rt = if k == VoteKind::Ballot { U32 } else { I32 };
            cx.expect("vote result local", results[0].as_ref(), &rt);
        }
        WarpOp::ActiveMask => cx.expect("activemask result local", results[0].as_ref(), &U32),
        WarpOp::SyncWarp | WarpOp::Lockstep | WarpOp::Yield => {}
        WarpOp::MatchAny | WarpOp::MatchAll => {
            if !value_ok(&[I32, U32, I64, U64, F32, F64]) {
                cx.err(format!("match of a value of type {}", value.as_ref().unwrap()));
            }
            cx.expect("match result local", results[0].as_ref(), &U32);
            if op == WarpOp::MatchAll {
                cx.expect("match predicate local", results[1].as_ref(), &I32);
            }
        }
        WarpOp::Reduce(_) => {
            if !value_ok(&[I32, U32]) {
                cx.err(format!("warp reduction of a value of type {}", value.as_ref().unwrap()));
            }
            if let Some(v) = &value {
                cx.expect("reduction result local", results[0].as_ref(), v);
            }
        }
    }
}

fn verify_inst(cx: &mut Cx, inst: &Inst, rt: Option<&Type>) {
    let needs_result = !matches!(
        inst.kind,
        InstKind::StoreLocal(..) | InstKind::Store { .. } | InstKind::Copy { .. } | InstKind::Call { .. } | InstKind::CallIndirect { .. } | InstKind::CallBuiltin { .. }
            | InstKind::Check(CheckOp::Barrier | CheckOp::WarpSync | CheckOp::Exit | CheckOp::Fence | CheckOp::Branch { .. } | CheckOp::WarpMask { .. })
    );
    if needs_result && rt.is_none() {
        cx.err("instruction has no result value".into());
        return;
    }
    match &inst.kind {
        InstKind::Const(c) => {
            let ok = match (c, rt.unwrap()) {
                (Const::Bool(_), Type::Bool) => true,
                (Const::Int(_, t), r) => t == r && t.is_integer(),
                (Const::F32(_), Type::F32) | (Const::F64(_), Type::F64) => true,
                (Const::Null(t), r) => t == r && r.is_pointer(),
                (Const::Str(_), Type::Ptr(p)) => matches!(**p, Type::I8 | Type::U8),
                _ => false,
            };
            if !ok {
                cx.err(format!("constant {c:?} does not have type {}", rt.unwrap()));
            }
        }
        InstKind::Unary(op, v) => {
            let t = cx.use_(*v);
            match op {
                UnaryOp::LNot => {
                    cx.expect("operand of logical not", t.as_ref(), &Type::Bool);
                    cx.expect("result of logical not", rt, &Type::Bool);
                }
                _ => cx.expect("unary operand", t.as_ref(), rt.unwrap()),
            }
        }
        InstKind::Binary(op, a, b) => {
            let (ta, tb) = (cx.use_(*a), cx.use_(*b));
            if let (Some(ta), Some(tb)) = (&ta, &tb) {
                if ta != tb {
                    cx.err(format!("binary {op:?} operands have different types {ta} and {tb}"));
                }
                let cmp = op.is_comparison();
                if cmp {
                    cx.expect("comparison result", rt, &Type::Bool);
                } else {
                    cx.expect("binary result", rt, ta);
                    if !(ta.is_integer() || ta.is_float()) {
                        cx.err(format!("arithmetic {op:?} on type {ta}"));
                    }
                }
            }
        }
        InstKind::Cast(v) => {
            cx.use_(*v);
        }
        InstKind::Bitcast(v) => {
            if let Some(t) = cx.use_(*v) {
                if t.scalar_size() != rt.unwrap().scalar_size() {
                    cx.err(format!("bitcast between {t} and {} of different sizes", rt.unwrap()));
                }
            }
        }
        InstKind::Select(c, a, b) => {
            let tc = cx.use_(*c);
            cx.expect("select condition", tc.as_ref(), &Type::Bool);
            let (ta, tb) = (cx.use_(*a), cx.use_(*b));
            cx.expect("select operand", ta.as_ref(), rt.unwrap());
            cx.expect("select operand", tb.as_ref(), rt.unwrap());
        }
        InstKind::LoadLocal(l) => {
            let t = cx.local(*l);
            cx.expect("loaded local", t.as_ref(), rt.unwrap());
        }
        InstKind::StoreLocal(l, v) => {
            let (tl, tv) = (cx.local(*l), cx.use_(*v));
            if let Some(tl) = tl {
                cx.expect("value stored to local", tv.as_ref(), &tl);
            }
        }
        InstKind::LocalAddr(l) => {
            if let Some(t) = cx.local(*l) {
                cx.expect("local address", rt, &Type::Ptr(Box::new(t)));
            }
        }
        InstKind::GlobalAddr(g) => match cx.m.globals.get(g.index()) {
            Some(gl) => {
                let want = Type::Ptr(Box::new(gl.ty.clone()));
                cx.expect("global address", rt, &want);
            }
            None => cx.err(format!("global {} out of range", g.0)),
        },
        InstKind::Load { ptr, .. } => {
            if let Some(t) = cx.use_(*ptr) {
                match pointee(&t) {
                    Some(p) => {
                        let p = p.clone();
                        cx.expect("loaded value", rt, &p);
                    }
                    None => cx.err(format!("load through a non-pointer of type {t}")),
                }
            }
        }
        InstKind::Store { ptr, value, .. } => {
            let (tp, tv) = (cx.use_(*ptr), cx.use_(*value));
            if let (Some(tp), Some(tv)) = (tp, tv) {
                match pointee(&tp) {
                    Some(p) if *p == tv => {}
                    Some(p) => cx.err(format!("store of a {tv} through a pointer to {p}")),
                    None => cx.err(format!("store through a non-pointer of type {tp}")),
                }
            }
        }
        InstKind::FieldAddr { base, strukt, field } => {
            let tb = cx.use_(*base);
            match cx.m.structs.get(strukt.index()) {
                None => cx.err(format!("struct {} out of range", strukt.0)),
                Some(s) => {
                    if let Some(tb) = tb {
                        if tb != Type::Ptr(Box::new(Type::Struct(*strukt))) {
                            cx.err(format!("field address of struct #{} from a {tb}", strukt.0));
                        }
                    }
                    match s.fields.get(*field as usize) {
                        Some(fd) => {
                            let want = Type::Ptr(Box::new(fd.ty.clone()));
                            cx.expect("field address", rt, &want);
                        }
                        None => cx.err(format!("field {field} out of range in {}", s.name)),
                    }
                }
            }
        }
        InstKind::PtrAdd { base, index } => {
            let (tb, ti) = (cx.use_(*base), cx.use_(*index));
            if let Some(tb) = tb {
                if !matches!(tb, Type::Ptr(_)) {
                    cx.err(format!("pointer arithmetic on a {tb}"));
                }
                cx.expect("pointer arithmetic result", rt, &tb);
            }
            if let Some(ti) = ti {
                if !ti.is_integer() {
                    cx.err(format!("pointer offset of type {ti}"));
                }
            }
        }
        InstKind::PtrDiff(a, b) => {
            let (ta, tb) = (cx.use_(*a), cx.use_(*b));
            if let (Some(ta), Some(tb)) = (ta, tb) {
                if ta != tb || !matches!(ta, Type::Ptr(_)) {
                    cx.err(format!("pointer difference of {ta} and {tb}"));
                }
            }
            cx.expect("pointer difference", rt, &Type::I64);
        }
        InstKind::Copy { dst, src, .. } => {
            cx.use_(*dst);
            cx.use_(*src);
        }
        InstKind::Check(CheckOp::Access { ptr, bytes, align, .. }) => {
            let t = cx.use_(*ptr);
            if let Some(t) = &t {
                if !matches!(t, Type::Ptr(_)) {
                    cx.err(format!("checked access through {t}"));
                }
                cx.expect("checked pointer", rt, t);
            }
            if *bytes == 0 || !align.is_power_of_two() {
                cx.err(format!("checked access of {bytes} bytes aligned to {align}"));
            }
        }
        InstKind::Check(CheckOp::Branch { cond: v, .. } | CheckOp::WarpMask { mask: v, .. }) => {
            cx.use_(*v);
            if rt.is_some() {
                cx.err("a check event defines a value".into());
            }
        }
        InstKind::Check(CheckOp::Barrier | CheckOp::WarpSync | CheckOp::Exit | CheckOp::Fence) => {
            if rt.is_some() {
                cx.err("a check event defines a value".into());
            }
        }
        InstKind::Special(r) => {
            let want = if *r == SpecialReg::WarpSize || *r == SpecialReg::LaneId { None } else { Some(Type::U32) };
            if let Some(w) = want {
                cx.expect("special register", rt, &w);
            }
        }
        InstKind::Call { func, args } => {
            let tys: Vec<Option<Type>> = args.iter().map(|a| cx.use_(*a)).collect();
            match cx.m.functions.get(func.index()) {
                None => cx.err(format!("function {} out of range", func.0)),
                Some(callee) => {
                    let sig = callee.signature();
                    if sig.params.len() != args.len() {
                        cx.err(format!("call of {} with {} arguments, expected {}", callee.name, args.len(), sig.params.len()));
                    } else {
                        for (t, p) in tys.iter().zip(&sig.params) {
                            cx.expect("argument", t.as_ref(), p);
                        }
                    }
                    match rt {
                        Some(r) => cx.expect("call result", Some(r), &sig.ret),
                        None if sig.ret != Type::Void => {}
                        None => {}
                    }
                }
            }
        }
        InstKind::CallIndirect { callee, args } => {
            cx.use_(*callee);
            for a in args {
                cx.use_(*a);
            }
        }
        InstKind::FuncAddr(func) => {
            if func.index() >= cx.m.functions.len() {
                cx.err(format!("function {} out of range", func.0));
            }
        }
        InstKind::CallBuiltin { builtin, args } => {
            let tys: Vec<Option<Type>> = args.iter().map(|a| cx.use_(*a)).collect();
            if let Builtin::Atomic { op, .. } = builtin {
                let n = if *op == AtomicOp::Cas { 3 } else { 2 };
                if args.len() != n {
                    cx.err(format!("atomic {op:?} with {} operands", args.len()));
                } else if let (Some(Some(p)), Some(r)) = (tys.first(), rt) {
                    match pointee(p) {
                        Some(e) if e == r => {}
                        _ => cx.err(format!("atomic {op:?} through {p} returning {r}")),
                    }
                }
            }
            if *builtin == Builtin::Printf {
                if let Some(Some(t)) = tys.first() {
                    if !matches!(t, Type::Ptr(_)) {
                        cx.err(format!("printf format of type {t}"));
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn func(blocks: Vec<Block>, values: Vec<Type>) -> Module {
        Module {
            functions: vec![Function {
                name: "f".into(),
                symbol: None,
                kind: FunctionKind::Device,
                inline: InlineHint::None,
                params: vec![],
                ret: Type::Void,
                locals: vec![Local { name: "x".into(), ty: Type::I32, align: None }],
                values,
                blocks,
                loc: None,
            }],
            ..Default::default()
        }
    }

    fn inst(result: Option<u32>, kind: InstKind) -> Inst {
        Inst { result: result.map(ValueId), kind, loc: None }
    }

    #[test]
    fn accepts_good_code() {
        let m = func(
            vec![Block {
                insts: vec![
                    inst(Some(0), InstKind::Const(Const::Int(1, Type::I32))),
                    inst(None, InstKind::StoreLocal(LocalId(0), ValueId(0))),
                ],
                term: Terminator::Return(None),
                term_loc: None,
            }],
            vec![Type::I32],
        );
        assert_eq!(verify(&m), Ok(()));
    }

    #[test]
    fn rejects_undominated_uses_and_bad_types() {
        // bb0 branches to bb1 (which defines %0) or straight to bb2, which uses %0.
        let m = func(
            vec![
                Block {
                    insts: vec![inst(Some(2), InstKind::Const(Const::Bool(true)))],
                    term: Terminator::Branch { cond: ValueId(2), then: BlockId(1), else_: BlockId(2) },
                    term_loc: None,
                },
                Block {
                    insts: vec![inst(Some(0), InstKind::Const(Const::Int(1, Type::I32)))],
                    term: Terminator::Jump(BlockId(2)),
                    term_loc: None,
                },
                Block {
                    insts: vec![
                        inst(None, InstKind::StoreLocal(LocalId(0), ValueId(0))),
                        inst(Some(1), InstKind::Const(Const::F32(1.0))),
                        inst(None, InstKind::StoreLocal(LocalId(0), ValueId(1))),
                    ],
                    term: Terminator::Jump(BlockId(7)),
                    term_loc: None,
                },
            ],
            vec![Type::I32, Type::F32, Type::Bool],
        );
        let e = verify(&m).unwrap_err();
        assert!(e.iter().any(|m| m.contains("value %0 is defined in block 1, which does not dominate block 2")), "{e:?}");
        assert!(e.iter().any(|m| m.contains("value stored to local")), "{e:?}");
        assert!(e.iter().any(|m| m.contains("block 7 out of range")), "{e:?}");
    }

}
