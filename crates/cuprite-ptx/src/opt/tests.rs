//! The passes on a hand-built kernel shaped like the benchmark's k-means assignment:
//! `for (k = 0; k < 64; ++k) for (f = 0; f < 3; ++f) d += p[f * n]; *out = d;`.

use super::optimize;
use cuprite_ir::verify::verify;
use cuprite_ir::*;

struct B {
    f: Function,
}

impl B {
    fn val(&mut self, b: usize, ty: Type, kind: InstKind) -> ValueId {
        let v = ValueId(self.f.values.len() as u32);
        self.f.values.push(ty);
        self.f.blocks[b].insts.push(Inst { result: Some(v), kind, loc: None });
        v
    }
    fn put(&mut self, b: usize, kind: InstKind) {
        self.f.blocks[b].insts.push(Inst { result: None, kind, loc: None });
    }
    fn int(&mut self, b: usize, x: i64) -> ValueId {
        self.val(b, Type::I32, InstKind::Const(Const::Int(x, Type::I32)))
    }
    fn term(&mut self, b: usize, t: Terminator) {
        self.f.blocks[b].term = t;
    }
}

fn blk() -> Block {
    Block { insts: vec![], term: Terminator::Unreachable, term_loc: None }
}

/// Locals: 0 p, 1 n, 2 out, 3 k, 4 f, 5 d. Blocks: 0 entry, 1 k-header, 2 k-body,
/// 3 f-header, 4 f-body (the latch), 5 k-latch, 6 exit.
fn kernel() -> Module {
    let pf = Type::F32.ptr_to();
    let local = |name: &str, ty: Type| Local { name: name.into(), ty, align: None };
    let f = Function {
        name: "k".into(),
        symbol: None,
        kind: FunctionKind::Kernel { stub_symbol: "_Z1kPKfiPf".into(), max_threads: None, min_blocks: None },
        inline: InlineHint::None,
        params: vec![LocalId(0), LocalId(1), LocalId(2)],
        ret: Type::Void,
        locals: vec![local("p", pf.clone()), local("n", Type::I32), local("out", pf.clone()), local("k", Type::I32), local("f", Type::I32), local("d", Type::F32)],
        values: vec![],
        blocks: (0..7).map(|_| blk()).collect(),
        loc: None,
    };
    let mut b = B { f };
    let (p, n, out, k, fl, d) = (LocalId(0), LocalId(1), LocalId(2), LocalId(3), LocalId(4), LocalId(5));
    let z = b.val(0, Type::F32, InstKind::Const(Const::F32(0.0)));
    b.put(0, InstKind::StoreLocal(d, z));
    let c0 = b.int(0, 0);
    b.put(0, InstKind::StoreLocal(k, c0));
    b.term(0, Terminator::Jump(BlockId(1)));
    // k-header
    let kv = b.val(1, Type::I32, InstKind::LoadLocal(k));
    let c4 = b.int(1, 64);
    let lt = b.val(1, Type::Bool, InstKind::Binary(BinaryOp::Lt, kv, c4));
    b.term(1, Terminator::Branch { cond: lt, then: BlockId(2), else_: BlockId(6) });
    // k-body: f = 0
    let c0 = b.int(2, 0);
    b.put(2, InstKind::StoreLocal(fl, c0));
    b.term(2, Terminator::Jump(BlockId(3)));
    // f-header
    let fv = b.val(3, Type::I32, InstKind::LoadLocal(fl));
    let c3 = b.int(3, 3);
    let lt = b.val(3, Type::Bool, InstKind::Binary(BinaryOp::Lt, fv, c3));
    b.term(3, Terminator::Branch { cond: lt, then: BlockId(4), else_: BlockId(5) });
    // f-body: d += p[f * n]; ++f
    let pv = b.val(4, pf.clone(), InstKind::LoadLocal(p));
    let fv = b.val(4, Type::I32, InstKind::LoadLocal(fl));
    let nv = b.val(4, Type::I32, InstKind::LoadLocal(n));
    let idx = b.val(4, Type::I32, InstKind::Binary(BinaryOp::Mul, fv, nv));
    let addr = b.val(4, pf.clone(), InstKind::PtrAdd { base: pv, index: idx });
    let x = b.val(4, Type::F32, InstKind::Load { ptr: addr, volatile: false });
    let dv = b.val(4, Type::F32, InstKind::LoadLocal(d));
    let sum = b.val(4, Type::F32, InstKind::Binary(BinaryOp::Add, dv, x));
    b.put(4, InstKind::StoreLocal(d, sum));
    let fv = b.val(4, Type::I32, InstKind::LoadLocal(fl));
    let c1 = b.int(4, 1);
    let inc = b.val(4, Type::I32, InstKind::Binary(BinaryOp::Add, fv, c1));
    b.put(4, InstKind::StoreLocal(fl, inc));
    b.term(4, Terminator::Jump(BlockId(3)));
    // k-latch
    let kv = b.val(5, Type::I32, InstKind::LoadLocal(k));
    let c1 = b.int(5, 1);
    let inc = b.val(5, Type::I32, InstKind::Binary(BinaryOp::Add, kv, c1));
    b.put(5, InstKind::StoreLocal(k, inc));
    b.term(5, Terminator::Jump(BlockId(1)));
    // exit: *out = d
    let o = b.val(6, pf, InstKind::LoadLocal(out));
    let dv = b.val(6, Type::F32, InstKind::LoadLocal(d));
    b.put(6, InstKind::Store { ptr: o, value: dv, volatile: false });
    b.term(6, Terminator::Return(None));
    let mut m = Module::default();
    m.functions.push(b.f);
    m
}

fn loads_in(b: &Block) -> usize {
    b.insts.iter().filter(|i| matches!(i.kind, InstKind::Load { .. })).count()
}

#[test]
fn inner_counted_loop_unrolls_and_its_loads_leave_the_outer_loop() {
    let m = kernel();
    verify(&m).expect("the hand-built kernel verifies");
    let o = optimize(&m);
    verify(&o).unwrap_or_else(|e| panic!("optimised IR fails the verifier: {e:?}"));
    let f = &o.functions[0];
    // The inner loop is gone: its three copies are straight-line, with the counter a
    // constant in each.
    let loops = super::loops::natural_loops(f);
    assert_eq!(loops.len(), 1, "only the outer loop is left");
    assert!(f.blocks.iter().flat_map(|b| &b.insts).all(|i| !matches!(i.kind, InstKind::LoadLocal(LocalId(4)))), "the inner counter is never read");
    // The three loads of p[f * n] are invariant in the outer loop, which surely runs:
    // they move to its preheader, the entry block.
    assert_eq!(loads_in(&f.blocks[0]), 3);
    let in_loop: usize = (0..f.blocks.len()).filter(|&b| loops[0].contains(b)).map(|b| loads_in(&f.blocks[b])).sum();
    assert_eq!(in_loop, 0);
}

#[test]
fn loads_stay_when_the_loop_stores_or_may_not_run() {
    // A store in the loop body: nothing is loaded before the loop.
    let mut m = kernel();
    let f = &mut m.functions[0];
    let o = ValueId(f.values.len() as u32);
    f.values.push(Type::F32.ptr_to());
    let zero = ValueId(o.0 + 1);
    f.values.push(Type::F32);
    f.blocks[5].insts.insert(0, Inst { result: Some(o), kind: InstKind::LoadLocal(LocalId(2)), loc: None });
    f.blocks[5].insts.insert(1, Inst { result: Some(zero), kind: InstKind::Const(Const::F32(0.0)), loc: None });
    f.blocks[5].insts.insert(2, Inst { result: None, kind: InstKind::Store { ptr: o, value: zero, volatile: false }, loc: None });
    verify(&m).expect("verifies");
    let opt = optimize(&m);
    verify(&opt).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(loads_in(&opt.functions[0].blocks[0]), 0);
    // A loop that may not run (k from n): its loads stay in it.
    let mut m = kernel();
    let f = &mut m.functions[0];
    let n = ValueId(f.values.len() as u32);
    f.values.push(Type::I32);
    let at = f.blocks[0].insts.len() - 1;
    f.blocks[0].insts.insert(at, Inst { result: Some(n), kind: InstKind::LoadLocal(LocalId(1)), loc: None });
    f.blocks[0].insts[at + 1].kind = InstKind::StoreLocal(LocalId(3), n);
    verify(&m).expect("verifies");
    let opt = optimize(&m);
    verify(&opt).unwrap_or_else(|e| panic!("{e:?}"));
    assert_eq!(loads_in(&opt.functions[0].blocks[0]), 0);
}

#[test]
fn a_local_whose_address_a_call_in_the_loop_takes_is_reloaded_each_iteration() {
    // `int old = 0; while (!cas(&old, old + 2)) {}`: the call may write `old`.
    let local = |name: &str, ty: Type| Local { name: name.into(), ty, align: None };
    let cas = Function {
        name: "cas".into(),
        symbol: Some("_Z3casPii".into()),
        kind: FunctionKind::Device,
        inline: InlineHint::None,
        params: vec![LocalId(0), LocalId(1)],
        ret: Type::Bool,
        locals: vec![local("p", Type::I32.ptr_to()), local("v", Type::I32)],
        values: vec![],
        blocks: vec![],
        loc: None,
    };
    let f = Function {
        name: "k".into(),
        symbol: None,
        kind: FunctionKind::Kernel { stub_symbol: "_Z1kv".into(), max_threads: None, min_blocks: None },
        inline: InlineHint::None,
        params: vec![],
        ret: Type::Void,
        locals: vec![local("old", Type::I32)],
        values: vec![],
        blocks: (0..4).map(|_| blk()).collect(),
        loc: None,
    };
    let mut b = B { f };
    let old = LocalId(0);
    let c0 = b.int(0, 0);
    b.put(0, InstKind::StoreLocal(old, c0));
    b.term(0, Terminator::Jump(BlockId(1)));
    let a = b.val(1, Type::I32.ptr_to(), InstKind::LocalAddr(old));
    let v = b.val(1, Type::I32, InstKind::LoadLocal(old));
    let c2 = b.int(1, 2);
    let n = b.val(1, Type::I32, InstKind::Binary(BinaryOp::Add, v, c2));
    let ok = b.val(1, Type::Bool, InstKind::Call { func: FuncId(1), args: vec![a, n] });
    b.term(1, Terminator::Branch { cond: ok, then: BlockId(3), else_: BlockId(2) });
    b.term(2, Terminator::Jump(BlockId(1)));
    b.term(3, Terminator::Return(None));
    let mut m = Module::default();
    m.functions.push(b.f);
    m.functions.push(cas);
    verify(&m).expect("verifies");
    let o = optimize(&m);
    verify(&o).unwrap_or_else(|e| panic!("{e:?}"));
    let header = &o.functions[0].blocks[1];
    assert!(header.insts.iter().any(|i| matches!(i.kind, InstKind::LoadLocal(LocalId(0)))), "old is read in the loop");
}

/// `k(const f4 *p, f4 *out)`: `f4 q = *p; q.y = q.x + q.w; *out = q;` with `f4` a struct
/// of four floats, and, when `escape`, `&q` passed to a call as well.
fn struct_local_kernel(escape: bool) -> Module {
    let f4 = Type::Struct(StructId(0));
    let fields = ["x", "y", "z", "w"].iter().enumerate().map(|(i, n)| Field { name: n.to_string(), ty: Type::F32, offset: 4 * i as u64 });
    let sd = StructDef { name: "f4".into(), is_union: false, fields: fields.collect(), size: 16, align: 16 };
    let local = |name: &str, ty: Type| Local { name: name.into(), ty, align: None };
    let f = Function {
        name: "k".into(),
        symbol: None,
        kind: FunctionKind::Kernel { stub_symbol: "_Z1kPK2f4PS_".into(), max_threads: None, min_blocks: None },
        inline: InlineHint::None,
        params: vec![LocalId(0), LocalId(1)],
        ret: Type::Void,
        locals: vec![local("p", f4.clone().ptr_to()), local("out", f4.clone().ptr_to()), local("q", f4.clone())],
        values: vec![],
        blocks: vec![blk()],
        loc: None,
    };
    let mut b = B { f };
    let q = LocalId(2);
    let p = b.val(0, f4.clone().ptr_to(), InstKind::LoadLocal(LocalId(0)));
    let agg = b.val(0, f4.clone(), InstKind::Load { ptr: p, volatile: false });
    b.put(0, InstKind::StoreLocal(q, agg));
    let qa = b.val(0, f4.clone().ptr_to(), InstKind::LocalAddr(q));
    let fx = b.val(0, Type::F32.ptr_to(), InstKind::FieldAddr { base: qa, strukt: StructId(0), field: 0 });
    let fw = b.val(0, Type::F32.ptr_to(), InstKind::FieldAddr { base: qa, strukt: StructId(0), field: 3 });
    let fy = b.val(0, Type::F32.ptr_to(), InstKind::FieldAddr { base: qa, strukt: StructId(0), field: 1 });
    let x = b.val(0, Type::F32, InstKind::Load { ptr: fx, volatile: false });
    let w = b.val(0, Type::F32, InstKind::Load { ptr: fw, volatile: false });
    let s = b.val(0, Type::F32, InstKind::Binary(BinaryOp::Add, x, w));
    b.put(0, InstKind::Store { ptr: fy, value: s, volatile: false });
    if escape {
        let qa2 = b.val(0, f4.clone().ptr_to(), InstKind::LocalAddr(q));
        b.val(0, Type::Bool, InstKind::Call { func: FuncId(1), args: vec![qa2] });
    }
    let whole = b.val(0, f4.clone(), InstKind::LoadLocal(q));
    let out = b.val(0, f4.clone().ptr_to(), InstKind::LoadLocal(LocalId(1)));
    b.put(0, InstKind::Store { ptr: out, value: whole, volatile: false });
    b.term(0, Terminator::Return(None));
    let mut m = Module::default();
    m.structs.push(sd);
    m.functions.push(b.f);
    let g = Function {
        name: "g".into(),
        symbol: Some("_Z1gP2f4".into()),
        kind: FunctionKind::Device,
        inline: InlineHint::None,
        params: vec![LocalId(0)],
        ret: Type::Bool,
        locals: vec![local("q", f4.ptr_to())],
        values: vec![],
        blocks: vec![],
        loc: None,
    };
    if escape {
        m.functions.push(g);
    }
    m
}

fn names_local_2(f: &Function) -> bool {
    f.blocks.iter().flat_map(|b| &b.insts).any(|i| matches!(i.kind, InstKind::LocalAddr(LocalId(2)) | InstKind::LoadLocal(LocalId(2)) | InstKind::StoreLocal(LocalId(2), _)))
}

#[test]
fn a_struct_local_whose_address_stays_inside_becomes_scalars() {
    let m = struct_local_kernel(false);
    verify(&m).expect("verifies");
    let o = optimize(&m);
    verify(&o).unwrap_or_else(|e| panic!("{e:?}"));
    let f = &o.functions[0];
    assert!(!names_local_2(f), "q is gone: {f:?}");
    // Four field loads through p, four field stores through out.
    let insts: Vec<&InstKind> = f.blocks.iter().flat_map(|b| &b.insts).map(|i| &i.kind).collect();
    assert_eq!(insts.iter().filter(|k| matches!(k, InstKind::Load { .. })).count(), 4);
    assert_eq!(insts.iter().filter(|k| matches!(k, InstKind::Store { .. })).count(), 4);
    // The back-end then touches no frame for it.
    let ptx = crate::emit::emit_module(&o, crate::isa::Target { sm: 90, arch_specific: false }).unwrap();
    assert!(!ptx.contains("ld.local") && !ptx.contains("st.local") && !ptx.contains(", %SP,"), "{ptx}");
}

#[test]
fn a_struct_local_whose_address_escapes_stays() {
    let m = struct_local_kernel(true);
    verify(&m).expect("verifies");
    let o = optimize(&m);
    verify(&o).unwrap_or_else(|e| panic!("{e:?}"));
    assert!(names_local_2(&o.functions[0]), "q stays a local in memory");
}
