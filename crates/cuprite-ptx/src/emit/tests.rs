//! Unit tests of the back-end on IR built by hand (the driver's tests,
//! `crates/cuprite/tests/ptx_backend.rs`, cover IR that sema makes).

use super::types::{f32_imm, f64_imm, identifier};
use super::{emit_module, lint};
use crate::isa::Target;
use cuprite_ir::*;

const SM90: Target = Target { sm: 90, arch_specific: false };

#[test]
fn names_and_immediates() {
    assert_eq!(identifier("_Z3fooi"), "_Z3fooi");
    assert_eq!(identifier("histo.bins"), "histo$2ebins");
    assert_eq!(identifier("7up"), "_7up");
    assert_eq!(f32_imm(1.0), "0f3F800000");
    assert_eq!(f64_imm(-2.0), "0dC000000000000000");
}

/// A kernel `k(signed char *p, int s)`: `p[0] = (signed char)(p[0] + 100)`, then a switch
/// on `s` and a select of two comparisons.
fn narrow_switch_kernel() -> Module {
    let ptr_i8 = Type::I8.ptr_to();
    let mut f = Function {
        name: "k".into(),
        symbol: None,
        kind: FunctionKind::Kernel { stub_symbol: "_Z1kPai".into(), max_threads: Some(128), min_blocks: None },
        inline: InlineHint::None,
        params: vec![LocalId(0), LocalId(1)],
        ret: Type::Void,
        locals: vec![Local { name: "p".into(), ty: ptr_i8.clone(), align: None }, Local { name: "s".into(), ty: Type::I32, align: None }],
        values: vec![],
        blocks: vec![],
        loc: None,
    };
    let mut insts = Vec::new();
    let mut val = |ty: Type, kind: InstKind, insts: &mut Vec<Inst>, f: &mut Function| {
        let v = ValueId(f.values.len() as u32);
        f.values.push(ty);
        insts.push(Inst { result: Some(v), kind, loc: None });
        v
    };
    let p = val(ptr_i8.clone(), InstKind::LoadLocal(LocalId(0)), &mut insts, &mut f);
    let x = val(Type::I8, InstKind::Load { ptr: p, volatile: false }, &mut insts, &mut f);
    let c = val(Type::I8, InstKind::Const(Const::Int(100, Type::I8)), &mut insts, &mut f);
    let sum = val(Type::I8, InstKind::Binary(BinaryOp::Add, x, c), &mut insts, &mut f);
    insts.push(Inst { result: None, kind: InstKind::Store { ptr: p, value: sum, volatile: false }, loc: None });
    let s = val(Type::I32, InstKind::LoadLocal(LocalId(1)), &mut insts, &mut f);
    let zero = val(Type::I32, InstKind::Const(Const::Int(0, Type::I32)), &mut insts, &mut f);
    let lt = val(Type::Bool, InstKind::Binary(BinaryOp::Lt, s, zero), &mut insts, &mut f);
    let gt = val(Type::Bool, InstKind::Binary(BinaryOp::Gt, s, zero), &mut insts, &mut f);
    let _sel = val(Type::Bool, InstKind::Select(lt, gt, lt), &mut insts, &mut f);
    f.blocks.push(Block { insts, term: Terminator::Switch { value: s, cases: vec![(1, BlockId(1)), (-7, BlockId(1))], default: BlockId(2) }, term_loc: None });
    f.blocks.push(Block { insts: vec![], term: Terminator::Barrier { kind: BarrierKind::Sync, pred: None, result: None, next: BlockId(2) }, term_loc: None });
    f.blocks.push(Block { insts: vec![], term: Terminator::Return(None), term_loc: None });
    Module { files: vec![], structs: vec![], globals: vec![], functions: vec![f] }
}

#[test]
fn narrow_integers_switches_and_predicates() {
    let m = narrow_switch_kernel();
    assert_eq!(verify::verify(&m), Ok(()));
    let ptx = emit_module(&m, SM90).unwrap();
    assert_eq!(lint::check(&ptx), Vec::<String>::new(), "{ptx}");
    for needle in [
        ".visible .entry _Z1kPai(",
        ".param .s32 _Z1kPai_param_1",
        ".maxntid 128, 1, 1",
        // The kernel's pointer parameter addresses global memory (spaces.rs).
        "cvta.to.global.u64 ",
        "ld.global.s8 ",
        // The sum of two chars is re-extended from 8 bits before it is stored.
        "cvt.s32.s8 ",
        "st.global.s8 ",
        "setp.eq.s32 %p6, %r5, 1;",
        ", -7;",
        "not.pred",
        "bar.sync 0;",
    ] {
        assert!(ptx.contains(needle), "no `{needle}` in:\n{ptx}");
    }
}

#[test]
fn reduce_needs_sm80() {
    let mut m = narrow_switch_kernel();
    let f = &mut m.functions[0];
    let mask = ValueId(f.values.len() as u32);
    f.values.push(Type::U32);
    let v = ValueId(f.values.len() as u32);
    f.values.push(Type::I32);
    f.locals.push(Local { name: "r".into(), ty: Type::I32, align: None });
    let b = &mut f.blocks[2];
    b.insts.push(Inst { result: Some(mask), kind: InstKind::Const(Const::Int(-1, Type::U32)), loc: None });
    b.insts.push(Inst { result: Some(v), kind: InstKind::Const(Const::Int(3, Type::I32)), loc: None });
    b.term = Terminator::Warp { op: WarpOp::Reduce(ReduceKind::Add), args: vec![mask, v], results: vec![LocalId(2)], next: BlockId(3) };
    f.blocks.push(Block { insts: vec![], term: Terminator::Return(None), term_loc: None });
    let ptx = emit_module(&m, SM90).unwrap();
    assert!(ptx.contains("redux.sync.add.s32"), "{ptx}");
    let err = emit_module(&m, Target { sm: 75, arch_specific: false }).unwrap_err();
    assert!(err.message.contains("sm_80"), "{err}");
}
