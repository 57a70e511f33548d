//! Inline `asm()` in device code: the template's operands become registers bound to the
//! enclosing function's locals, and its PTX is lowered in place.

use super::body::{Binding, Lowerer};
use super::{LResult, LowerError, Sink};
#[allow(unused_imports)]
use cuprite_ir::BlockId;
use crate::isa::ScalarType;
use crate::parse::{parse_statements, Loc};
use cuprite_ir::{LocalId, Type};

/// One operand of an `asm` statement, after sema: a register operand lives in a local of
/// the constraint's type (inputs stored before, outputs read after), an `n` operand is a
/// constant.
#[derive(Clone, Debug)]
pub enum AsmOperand {
    Reg { local: LocalId, ty: ScalarType },
    Imm(i64),
}

/// The PTX register type and IR type a constraint letter stands for.
pub fn constraint_type(letter: char) -> Option<(ScalarType, Type)> {
    Some(match letter {
        'h' => (ScalarType::B16, Type::U16),
        'r' => (ScalarType::B32, Type::U32),
        'l' => (ScalarType::B64, Type::U64),
        'f' => (ScalarType::F32, Type::F32),
        'd' => (ScalarType::F64, Type::F64),
        _ => return None,
    })
}

/// Replaces `%N` by the operand (a register name or a constant) and `%%` by `%`.
pub fn substitute(template: &str, operands: &[AsmOperand]) -> Result<String, String> {
    let mut out = String::new();
    let mut chars = template.chars().peekable();
    while let Some(c) = chars.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        match chars.peek().copied() {
            Some('%') => {
                chars.next();
                out.push('%');
            }
            Some(d) if d.is_ascii_digit() => {
                let mut n = 0usize;
                while let Some(d) = chars.peek().and_then(|c| c.to_digit(10)) {
                    n = n * 10 + d as usize;
                    chars.next();
                }
                match operands.get(n) {
                    Some(AsmOperand::Reg { .. }) => out.push_str(&format!("%__asm_op{n}")),
                    Some(AsmOperand::Imm(v)) => out.push_str(&v.to_string()),
                    None => return Err(format!("the template names operand %{n}, but there are {} operands", operands.len())),
                }
            }
            Some('[') => return Err("named asm operands (%[name]) are not supported yet".into()),
            // nvcc keeps any other '%' as written (`%globaltimer` with one '%').
            _ => out.push('%'),
        }
    }
    Ok(out)
}

/// Lowers an `asm` template with its operands into the current block of `sink`'s function.
/// Errors carry the line and column in the substituted template.
pub fn lower_asm(sink: &mut dyn Sink, template: &str, operands: &[AsmOperand]) -> LResult<()> {
    let text = substitute(template, operands).map_err(|m| LowerError { loc: Loc { line: 1, col: 1 }, message: m })?;
    let stmts = parse_statements(&text).map_err(|e| LowerError { loc: e.loc, message: e.message })?;
    let mut lw = Lowerer::new(sink);
    for (n, op) in operands.iter().enumerate() {
        if let AsmOperand::Reg { local, ty } = op {
            lw.bind(&format!("%__asm_op{n}"), Binding::Reg(*local, *ty));
        }
    }
    lw.collect_labels(&stmts)?;
    lw.stmts(&stmts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_are_substituted() {
        let ops = [AsmOperand::Reg { local: LocalId(0), ty: ScalarType::B32 }, AsmOperand::Imm(-5)];
        assert_eq!(substitute("mov.u32 %0, %%laneid; add.s32 %0, %0, %1;", &ops).unwrap(), "mov.u32 %__asm_op0, %laneid; add.s32 %__asm_op0, %__asm_op0, -5;");
        assert!(substitute("mov.u32 %2, 1;", &ops).unwrap_err().contains("%2"));
    }

    #[test]
    fn checking_names_unsupported_instructions_and_bad_operands() {
        assert_eq!(check_asm("mov.u32 %0, %%laneid;", &['r']), Ok(()));
        assert_eq!(check_asm("{ .reg .pred p; setp.ne.s32 p, %1, 0; selp.u32 %0, 1, 2, p; }", &['r', 'r']), Ok(()));
        let e = check_asm("mov.u32 %0, 1;\n mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 %0, %0, %0, %0;", &['r']).unwrap_err();
        assert_eq!(e.loc.line, 2);
        assert!(e.message.contains("'mma.sync.aligned"), "{}", e.message);
        let e = check_asm("frobnicate.u32 %0;", &['r']).unwrap_err();
        assert!(e.message.contains("'frobnicate.u32' is not supported"), "{}", e.message);
        let e = check_asm("add.u32 %0, %0, %q;", &['r']).unwrap_err();
        assert!(e.message.contains("'%q' is not a register"), "{}", e.message);
        assert_eq!(check_asm("mov.u64 %0, %globaltimer;", &['l']), Ok(()));
        assert!(check_asm("bra NOWHERE;", &[]).unwrap_err().message.contains("NOWHERE"));
        let e = check_asm("cp.async.bulk.tensor.2d.shared::cluster.global.tile.mbarrier::complete_tx::bytes [%0], [%1, {%2, %2}], [%0];", &['r', 'l', 'r']).unwrap_err();
        assert!(e.message.contains("'cp.async.bulk.tensor.2d") && e.message.contains("tensor copies"), "{}", e.message);
    }

    #[test]
    fn what_real_code_writes_is_accepted() {
        // cuda-samples stereoDisparity, cudaGraphsPerfScaling; CUTLASS-style cp.async.
        assert_eq!(check_asm("vabsdiff4.u32.u32.u32.add %0, %1, %2, %3;", &['r', 'r', 'r', 'r']), Ok(()));
        assert_eq!(check_asm("mov.u64 %0, %globaltimer;", &['l']), Ok(()));
        assert_eq!(check_asm("{ .reg .u64 s; cvta.to.shared.u64 s, %0; cp.async.ca.shared.global [s], [%1], 16; }", &['l', 'l']), Ok(()));
        assert_eq!(check_asm("cp.async.cg.shared.global [%0], [%1], 16, %2;", &['r', 'l', 'r']), Ok(()));
        assert_eq!(check_asm("cp.async.commit_group;\ncp.async.wait_group 0;\ncp.async.wait_all;", &[]), Ok(()));
        assert_eq!(check_asm("sad.u32 %0, %1, %2, %3;", &['r', 'r', 'r', 'r']), Ok(()));
        assert_eq!(check_asm("{ .reg .f16 a, b; mov.b16 a, %1; add.f16 b, a, a; fma.rn.f16 b, a, b, a; mov.b16 %0, b; }", &['h', 'h']), Ok(()));
        assert_eq!(check_asm("mul.rn.bf16x2 %0, %1, %2;", &['r', 'r', 'r']), Ok(()));
        assert_eq!(check_asm("{ .reg .pred p, q; setp.lt.f16x2 p|q, %1, %2; selp.u32 %0, 1, 0, p; }", &['r', 'r', 'r']), Ok(()));
        assert_eq!(check_asm("cvt.rn.f16x2.f32 %0, %1, %2;", &['r', 'f', 'f']), Ok(()));
    }

    #[test]
    fn what_libcuxx_writes_is_accepted() {
        // The forms of cuda::ptx / <cuda/barrier> on sm_90: mbarriers, bulk copies, elect.
        let ok = |t: &str, l: &[char]| assert_eq!(check_asm(t, l), Ok(()), "{t}");
        ok("mbarrier.init.shared::cta.b64 [%0], %1;", &['r', 'r']);
        ok("mbarrier.init.shared.b64 [%0], 1;", &['r']);
        ok("mbarrier.arrive.shared.b64 %0, [%1];", &['l', 'r']);
        ok("mbarrier.arrive.release.cta.shared::cta.b64 %0, [%1], %2;", &['l', 'r', 'r']);
        ok("mbarrier.arrive.release.cluster.shared::cluster.b64 _, [%0];", &['r']);
        ok("mbarrier.arrive.expect_tx.release.cta.shared::cta.b64 %0, [%1], %2;", &['l', 'r', 'r']);
        ok("mbarrier.arrive_drop.shared.b64 %0, [%1];", &['l', 'r']);
        ok("mbarrier.arrive.noComplete.shared.b64 %0, [%1], %2;", &['l', 'r', 'r']);
        ok("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;", &['r', 'r']);
        ok("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;", &['r', 'r']);
        ok("{ .reg .pred p; mbarrier.test_wait.shared.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }", &['r', 'r', 'l']);
        ok("{ .reg .pred p; W: mbarrier.try_wait.parity.shared::cta.b64 p, [%0], %1; @!p bra W; }", &['r', 'r']);
        ok("{ .reg .pred p; mbarrier.try_wait.acquire.cta.shared::cta.b64 p, [%0], %1, %2; }", &['r', 'l', 'r']);
        ok("mbarrier.pending_count.b64 %0, %1;", &['r', 'l']);
        ok("mbarrier.inval.shared.b64 [%0];", &['r']);
        ok("mbarrier.arrive.b64 %0, [%1];", &['l', 'l']);
        ok("cp.async.mbarrier.arrive.shared.b64 [%0];", &['r']);
        ok("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];", &['r']);
        ok("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];", &['r', 'l', 'r', 'r']);
        ok("cp.async.bulk.global.shared::cta.bulk_group [%0], [%1], %2;", &['l', 'r', 'r']);
        ok("cp.async.bulk.commit_group;\ncp.async.bulk.wait_group.read 0;\ncp.async.bulk.wait_group 0;", &[]);
        ok("{ .reg .pred p; elect.sync %0|p, %1; }", &['r', 'r']);
        ok("{ .reg .pred p; elect.sync _|p, 0xffffffff; selp.u32 %0, 1, 0, p; }", &['r']);
        ok("nanosleep.u32 %0;", &['r']);
        ok("fence.mbarrier_init.release.cluster;\nfence.proxy.async.shared::cta;\nfence.acq_rel.gpu;\nfence.sc.sys;", &[]);
        ok("mov.u32 %0, %%cluster_ctarank;\nmov.u32 %0, %%clusterid.x;\nmov.u32 %0, %%cluster_nctaid.y;", &['r']);
        ok("{ .reg .pred p; mov.pred p, %%is_explicit_cluster; selp.u32 %0, 1, 0, p; }", &['r']);
        ok("ld.acquire.gpu.global.u32 %0, [%1];\nst.release.gpu.global.u32 [%1], %0;", &['r', 'l']);
        ok("atom.acq_rel.gpu.global.add.u32 %0, [%1], 1;\nred.release.sys.global.add.u32 [%1], 1;", &['r', 'l']);
    }
}

/// Checks an `asm` template against its operands' constraint letters (`n` for constants)
/// by lowering it into a scratch function: sema reports what this finds when it checks the
/// statement, so lowering it later cannot fail.
pub fn check_asm(template: &str, letters: &[char]) -> LResult<()> {
    let mut sink = scratch::Scratch::default();
    let mut ops = Vec::new();
    for c in letters {
        match constraint_type(*c) {
            Some((st, it)) => {
                let l = sink.new_local("op", it, None);
                ops.push(AsmOperand::Reg { local: l, ty: st });
            }
            None => ops.push(AsmOperand::Imm(0)),
        }
    }
    let b = sink.new_block();
    sink.switch_to(b);
    lower_asm(&mut sink, template, &ops)
}

mod scratch {
    use super::super::Sink;
    use crate::isa::StateSpace;
    use cuprite_ir::{BlockId, FuncId, GlobalId, InstKind, LocalId, Signature, Terminator, Type, ValueId};

    /// A function that is thrown away: only its types are kept, for `Sink::value_type`.
    #[derive(Default)]
    pub struct Scratch {
        values: Vec<Type>,
        locals: Vec<Type>,
        blocks: u32,
    }

    impl Sink for Scratch {
        fn emit(&mut self, _kind: InstKind, ty: Option<Type>) -> Option<ValueId> {
            ty.map(|t| {
                self.values.push(t);
                ValueId(self.values.len() as u32 - 1)
            })
        }
        fn value_type(&self, v: ValueId) -> Type {
            self.values[v.index()].clone()
        }
        fn new_local(&mut self, _name: &str, ty: Type, _align: Option<u64>) -> LocalId {
            self.locals.push(ty);
            LocalId(self.locals.len() as u32 - 1)
        }
        fn local_type(&self, l: LocalId) -> Type {
            self.locals[l.index()].clone()
        }
        fn new_block(&mut self) -> BlockId {
            self.blocks += 1;
            BlockId(self.blocks - 1)
        }
        fn terminate(&mut self, _t: Terminator) {}
        fn switch_to(&mut self, _b: BlockId) {}
        fn global(&mut self, _name: &str) -> Option<(GlobalId, Type, StateSpace)> {
            None
        }
        fn global_type(&self, _g: GlobalId) -> Type {
            Type::Array(Box::new(Type::U8), 0)
        }
        fn global_bytes(&self, _g: GlobalId) -> Option<Vec<u8>> {
            None
        }
        fn function(&mut self, _name: &str) -> Option<(FuncId, Signature)> {
            None
        }
        fn shared_window(&mut self) -> GlobalId {
            GlobalId(0)
        }
        fn function_shared(&mut self, _name: &str, _ty: Type, _align: Option<u64>) -> Option<GlobalId> {
            None
        }
    }
}
