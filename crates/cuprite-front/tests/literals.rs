//! Literal values: integers (radixes, suffixes), floats (decimal, hex), chars, strings.

mod common;
use common::*;
use cuprite_front::ast::*;

fn int(src: &str) -> (u128, IntSuffix, u32) {
    match expr_of(src).kind {
        ExprKind::IntLit { value, suffix, radix } => (value, suffix, radix),
        k => panic!("{src}: {k:?}"),
    }
}

fn float(src: &str) -> (f64, FloatSuffix) {
    match expr_of(src).kind {
        ExprKind::FloatLit { value, suffix } => (value, suffix),
        k => panic!("{src}: {k:?}"),
    }
}

const U: IntSuffix = IntSuffix { unsigned: true, long: 0 };
const NONE: IntSuffix = IntSuffix { unsigned: false, long: 0 };

#[test]
fn integers() {
    assert_eq!(int("42"), (42, NONE, 10));
    assert_eq!(int("0x1Fu"), (31, U, 16));
    assert_eq!(int("017"), (15, NONE, 8));
    assert_eq!(int("0"), (0, NONE, 10));
    assert_eq!(int("0b1010"), (10, NONE, 2));
    assert_eq!(int("1'000'000"), (1_000_000, NONE, 10));
    assert_eq!(int("10ULL"), (10, IntSuffix { unsigned: true, long: 2 }, 10));
    assert_eq!(int("10llu"), (10, IntSuffix { unsigned: true, long: 2 }, 10));
    assert_eq!(int("10L"), (10, IntSuffix { unsigned: false, long: 1 }, 10));
    assert_eq!(int("0xFFFFFFFFFFFFFFFF").0, u64::MAX as u128);
}

#[test]
fn floats() {
    assert_eq!(float("1.5f"), (1.5, FloatSuffix::F));
    assert_eq!(float(".5"), (0.5, FloatSuffix::None));
    assert_eq!(float("1."), (1.0, FloatSuffix::None));
    assert_eq!(float("1e3"), (1000.0, FloatSuffix::None));
    assert_eq!(float("2.5e-3L"), (2.5e-3, FloatSuffix::L));
    assert_eq!(float("1.E2f"), (100.0, FloatSuffix::F));
    assert_eq!(float("0x1.8p3"), (12.0, FloatSuffix::None));
    assert_eq!(float("0x1p-2f"), (0.25, FloatSuffix::F));
    assert_eq!(float("0X.8P1"), (1.0, FloatSuffix::None));
}

#[test]
fn chars() {
    let c = |s: &str| match expr_of(s).kind {
        ExprKind::CharLit { value, wide } => (value, wide),
        k => panic!("{s}: {k:?}"),
    };
    assert_eq!(c("'a'"), (97, false));
    assert_eq!(c("'\\n'"), (10, false));
    assert_eq!(c("'\\x41'"), (0x41, false));
    assert_eq!(c("'\\0'"), (0, false));
    assert_eq!(c("'\\''"), (39, false));
    assert_eq!(c("L'\\u00e9'"), (0xe9, true));
    // Plain char is signed on x86.
    assert_eq!(c("'\\xff'"), (0xffff_ffff, false));
}

#[test]
fn strings_concatenate_and_unescape() {
    let s = |src: &str| match expr_of(src).kind {
        ExprKind::StringLit(b) => b,
        k => panic!("{src}: {k:?}"),
    };
    assert_eq!(s("\"ab\" \"cd\""), b"abcd");
    assert_eq!(s("\"x=%d\\n\\t\\\"q\\\"\""), b"x=%d\n\t\"q\"");
    assert_eq!(s("\"\\x41\\101\""), b"AA");
    assert_eq!(s("u8\"\\u00e9\""), "é".as_bytes());
    assert_eq!(s("R\"(a\\n)\""), b"a\\n");
}

#[test]
fn keywords_as_literals() {
    assert!(matches!(expr_of("true").kind, ExprKind::BoolLit(true)));
    assert!(matches!(expr_of("false").kind, ExprKind::BoolLit(false)));
    assert!(matches!(expr_of("nullptr").kind, ExprKind::Nullptr));
}

#[test]
fn bad_literals_are_errors_not_panics() {
    for bad in ["0x", "09", "1e", "0x1.p", "'ab", "1.5q", "0b2"] {
        let r = parse_cu(&format!("__device__ int f() {{ return {bad}; }}"));
        assert!(!r.diagnostics.is_empty(), "{bad} should be an error");
    }
}
