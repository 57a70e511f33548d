//! `-ftz=true` (also implied by `-use_fast_math`): single-precision denormals flush to
//! zero, as nvcc's `.ftz` instructions do.
//!
//! Measured on an H100 with nvcc 13 (tests/conformance/ftz_true): every single-precision
//! operation reads a subnormal operand as a zero of the same sign and writes a subnormal
//! result as one: arithmetic, comparisons, negation and `fabsf`, conversions from `float`
//! (to `double` too) and to `float`, FMA, and the math functions and intrinsics
//! (`sqrtf`, `sinf`, `fminf`, `copysignf`, `__fadd_rn`, `__saturatef`, …); the results
//! of the single-instruction ones are flushed too, those of the library's composite
//! functions are not (`expf(-100.0f)` stays subnormal). Moves, loads, stores and bit
//! reinterpretation (`__float_as_int`) keep the bits; double precision is never flushed.
//!
//! The pass wraps each such operand in a flush (`MathFn::FtzF32`, placed just before
//! the instruction) and makes the instruction define a fresh value that a flush then
//! turns into its original result, so every use sees the flushed value.

use crate::*;

/// Flushes single-precision denormals in every function of the module.
pub fn flush_denormals(m: &mut Module) {
    for f in &mut m.functions {
        flush_function(f);
    }
}

/// Whether a math builtin computes on its `float` operands (and so flushes them under
/// -ftz), as opposed to moving their bits or inspecting them.
fn math_flushes(f: MathFn) -> bool {
    use MathFn::*;
    !matches!(
        f,
        FloatAsInt | FloatAsUint | IntAsFloat | UintAsFloat | DoubleAsLonglong | LonglongAsDouble
            | Isnanf | Isnan | Isinff | Isinf | Isfinitef | Isfinite | Signbitf | Signbit | Nanf | Nan
            | CupriteTexFetch | CupriteTexFetchInt | CupriteSurfAccess | FtzF32
    )
}

/// Whether a math builtin's `float` result is flushed too: those that are one `.ftz`
/// instruction on the GPU (arithmetic, its rounding-mode forms, sqrt, fma, min/max, abs,
/// copysign, ldexp, conversions). The library's composite functions give their results
/// unflushed (`expf(-100.0f)` is subnormal under -ftz=true on an H100), so they flush only
/// their operands.
fn result_flushes(f: MathFn) -> bool {
    use MathFn::*;
    matches!(
        f,
        Sqrtf | Rsqrtf | FrsqrtRn | Fmaf | Fminf | Fmaxf | Fabsf | Copysignf | Fdimf | Ldexpf | Scalbnf | Scalblnf
            | Saturatef | Saturate | FastFdividef | Fdividef | Fdivide | Min | Max | Abs
            | FaddRn | FaddRz | FaddRu | FaddRd | FsubRn | FsubRz | FsubRu | FsubRd | FmulRn | FmulRz | FmulRu
            | FmulRd | FdivRn | FdivRz | FdivRu | FdivRd | FrcpRn | FrcpRz | FrcpRu | FrcpRd | FsqrtRn | FsqrtRz
            | FsqrtRu | FsqrtRd | FmafRn | FmafRz | FmafRu | FmafRd | Double2FloatRn | Double2FloatRz
            | Double2FloatRu | Double2FloatRd
    )
}

fn flush_function(f: &mut Function) {
    for b in 0..f.blocks.len() {
        let insts = std::mem::take(&mut f.blocks[b].insts);
        let mut out = Vec::with_capacity(insts.len());
        for mut inst in insts {
            let (flush_operands, flush_result) = match &inst.kind {
                InstKind::Unary(..) | InstKind::Binary(..) | InstKind::Cast(..) => (true, true),
                InstKind::CallBuiltin { builtin: Builtin::Math(m), .. } => (math_flushes(*m), result_flushes(*m)),
                _ => (false, false),
            };
            if flush_operands {
                let loc = inst.loc;
                let flush = |v: ValueId, out: &mut Vec<Inst>, f: &mut Function| -> ValueId {
                    if *f.value_type(v) != Type::F32 {
                        return v;
                    }
                    let nv = new_value(f, Type::F32);
                    out.push(ftz_inst(nv, v, loc));
                    nv
                };
                match &mut inst.kind {
                    InstKind::Unary(_, a) | InstKind::Cast(a) => *a = flush(*a, &mut out, f),
                    InstKind::Binary(_, a, b) => {
                        *a = flush(*a, &mut out, f);
                        *b = flush(*b, &mut out, f);
                    }
                    InstKind::CallBuiltin { args, .. } => {
                        for a in args.iter_mut() {
                            *a = flush(*a, &mut out, f);
                        }
                    }
                    _ => {}
                }
            }
            match inst.result {
                Some(r) if flush_result && *f.value_type(r) == Type::F32 => {
                    let raw = new_value(f, Type::F32);
                    inst.result = Some(raw);
                    let loc = inst.loc;
                    out.push(inst);
                    out.push(ftz_inst(r, raw, loc));
                }
                _ => out.push(inst),
            }
        }
        f.blocks[b].insts = out;
    }
}

/// `-use_fast_math`: single-precision `x / y` becomes `__fdividef(x, y)`, as the CUDA
/// guide's table of functions affected by the flag says (so `inf / 2^127` is NaN). Run
/// before `flush_denormals`.
pub fn approximate_division(m: &mut Module) {
    for f in &mut m.functions {
        for b in &mut f.blocks {
            for inst in &mut b.insts {
                if let InstKind::Binary(BinaryOp::Div, x, y) = inst.kind {
                    if inst.result.is_some_and(|r| f.values[r.index()] == Type::F32) {
                        inst.kind = InstKind::CallBuiltin { builtin: Builtin::Math(MathFn::FastFdividef), args: vec![x, y] };
                    }
                }
            }
        }
    }
}

fn new_value(f: &mut Function, ty: Type) -> ValueId {
    f.values.push(ty);
    ValueId((f.values.len() - 1) as u32)
}

fn ftz_inst(result: ValueId, v: ValueId, loc: Option<SrcLoc>) -> Inst {
    Inst { result: Some(result), kind: InstKind::CallBuiltin { builtin: Builtin::Math(MathFn::FtzF32), args: vec![v] }, loc }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `a * b` on floats: both operands flushed before, the product after; a double
    /// product is left alone.
    #[test]
    fn wraps_float_operations_only() {
        let mut f = Function {
            name: "k".into(),
            symbol: None,
            kind: FunctionKind::Device,
            inline: InlineHint::None,
            params: vec![],
            ret: Type::Void,
            locals: vec![],
            values: vec![Type::F32, Type::F32, Type::F32, Type::F64, Type::F64],
            blocks: vec![Block {
                insts: vec![
                    Inst { result: Some(ValueId(2)), kind: InstKind::Binary(BinaryOp::Mul, ValueId(0), ValueId(1)), loc: None },
                    Inst { result: Some(ValueId(4)), kind: InstKind::Binary(BinaryOp::Mul, ValueId(3), ValueId(3)), loc: None },
                ],
                term: Terminator::Return(None),
                term_loc: None,
            }],
            loc: None,
        };
        flush_function(&mut f);
        let kinds: Vec<String> = f.blocks[0].insts.iter().map(|i| format!("{:?}", i.kind)).collect();
        assert_eq!(kinds.len(), 5, "{kinds:?}");
        assert!(kinds[0].contains("FtzF32") && kinds[1].contains("FtzF32"), "{kinds:?}");
        assert!(kinds[2].contains("Mul") && kinds[3].contains("FtzF32"), "{kinds:?}");
        assert_eq!(f.blocks[0].insts[3].result, Some(ValueId(2)));
        assert!(kinds[4].contains("Mul") && !kinds[4].contains("Ftz"), "{kinds:?}");
    }
}
