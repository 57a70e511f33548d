//! Small integer constants that the IR computes rather than states (`blockIdx.x *
//! (2 * 256)`: the front end keeps `2 * 256` as a multiplication and a cast), for the
//! index-widening rule that needs a block-size bound (`emit.rs`, `wide_thread_index`).

use std::collections::HashMap;

use cuprite_ir::{BinaryOp, Const, InstKind, Type, ValueId};

/// The value of `v` when it is an integer constant, or a sum, difference, product or
/// left shift of such, or a cast of one to a 32- or 64-bit integer type, with every
/// intermediate value in `0..2^31`: there, every integer type and cast gives the same
/// number, so the result does not depend on which types the IR used.
pub fn small_const(v: ValueId, defs: &HashMap<ValueId, InstKind>, ty: &dyn Fn(ValueId) -> Type, depth: u32) -> Option<i64> {
    const LIMIT: i64 = 1 << 31;
    let ok = |x: i64| (0..LIMIT).contains(&x).then_some(x);
    if depth == 0 {
        return None;
    }
    match defs.get(&v)? {
        InstKind::Const(Const::Int(c, _)) => ok(*c),
        InstKind::Cast(a) if matches!(ty(v), Type::I32 | Type::U32 | Type::I64 | Type::U64) => small_const(*a, defs, ty, depth - 1),
        InstKind::Binary(op, a, b) => {
            let (x, y) = (small_const(*a, defs, ty, depth - 1)?, small_const(*b, defs, ty, depth - 1)?);
            match op {
                BinaryOp::Add => ok(x + y),
                BinaryOp::Sub => ok(x - y),
                BinaryOp::Mul => ok(x.checked_mul(y)?),
                BinaryOp::Shl if y < 31 => ok(x.checked_shl(y as u32)?),
                _ => None,
            }
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(i: u32) -> ValueId {
        ValueId(i)
    }

    #[test]
    fn folds_a_product_cast_to_unsigned() {
        let defs: HashMap<ValueId, InstKind> = [
            (v(0), InstKind::Const(Const::Int(2, Type::I32))),
            (v(1), InstKind::Const(Const::Int(256, Type::I32))),
            (v(2), InstKind::Binary(BinaryOp::Mul, v(0), v(1))),
            (v(3), InstKind::Cast(v(2))),
        ]
        .into_iter()
        .collect();
        let ty = |x: ValueId| if x == v(3) { Type::U32 } else { Type::I32 };
        assert_eq!(small_const(v(3), &defs, &ty, 4), Some(512));
    }

    #[test]
    fn refuses_negative_values_narrow_casts_and_unknowns() {
        let defs: HashMap<ValueId, InstKind> = [
            (v(0), InstKind::Const(Const::Int(2, Type::I32))),
            (v(1), InstKind::Const(Const::Int(300, Type::I32))),
            (v(2), InstKind::Binary(BinaryOp::Sub, v(0), v(1))),
            (v(3), InstKind::Cast(v(1))),
            (v(4), InstKind::Binary(BinaryOp::Mul, v(1), v(9))),
        ]
        .into_iter()
        .collect();
        let ty = |x: ValueId| if x == v(3) { Type::U8 } else { Type::I32 };
        assert_eq!(small_const(v(2), &defs, &ty, 4), None);
        assert_eq!(small_const(v(3), &defs, &ty, 4), None);
        assert_eq!(small_const(v(4), &defs, &ty, 4), None);
    }
}
