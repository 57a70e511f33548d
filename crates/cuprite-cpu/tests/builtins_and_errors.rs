mod common;
use common::*;
use cuprite_cpu::builder::*;
use cuprite_cpu::builtins::math_builtins;
use cuprite_cpu::{emit_c, EmitOptions};
use cuprite_ir::*;

fn konst(b: &mut FnBuilder, t: &Type) -> ValueId {
    let c = match t {
        Type::F32 => Const::F32(0.75),
        Type::F64 => Const::F64(0.75),
        Type::Ptr(_) => return b.str("1"),
        t => Const::Int(3, t.clone()),
    };
    b.inst(InstKind::Const(c), Some(t.clone()))
}

/// Every math builtin in the table compiles and links (libm + prelude).
#[test]
fn every_math_builtin_compiles() {
    let table = math_builtins();
    let mut m = Module::default();
    let mut b = FnBuilder::kernel("k", "k_stub");
    let sink = b.param("sink", Type::F64.ptr_to());
    for e in &table {
        let mut args = Vec::new();
        for p in &e.params {
            match p {
                Type::Ptr(inner) if **inner != Type::I8 => {
                    let l = b.local("tmp", (**inner).clone());
                    args.push(b.local_addr(l));
                }
                t => args.push(konst(&mut b, t)),
            }
        }
        if e.ret == Type::Void {
            b.builtin(Builtin::Math(e.f), args, None);
        } else {
            let r = b.math(e.f, args, e.ret.clone());
            let d = b.cast(r, Type::F64);
            let s = b.load_local(sink);
            let old = b.load(s);
            let n = b.bin(BinaryOp::Add, old, d);
            b.store(s, n);
        }
    }
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run(
        "allmath",
        &m,
        "void k_stub(void) {}\nint main(void) { double s = 0, *sp = &s; void *a[] = {&sp}; launch(\"k_stub\", d3(1,1,1), d3(1,1,1), 0, a); printf(\"ok\\n\"); return 0; }\n",
    );
    assert_eq!(r.stdout, "ok\n");
    assert!(table.len() > 250, "{}", table.len());
}

/// Spot checks of intrinsic semantics.
#[test]
fn intrinsic_values() {
    let mut m = Module::default();
    let mut b = FnBuilder::kernel("k", "k_stub");
    let u = |b: &mut FnBuilder, v: u32| b.u32(v);
    let x = u(&mut b, 0xF0F0);
    let popc = b.math(MathFn::Popc, vec![x], Type::I32);
    let z = b.i32(0);
    let clz0 = b.math(MathFn::Clz, vec![z], Type::I32);
    let one = u(&mut b, 1);
    let brev = b.math(MathFn::Brev, vec![one], Type::U32);
    let e8 = b.i32(8);
    let ffs = b.math(MathFn::Ffs, vec![e8], Type::I32);
    let (p1, p2, sel) = (u(&mut b, 0x33221100), u(&mut b, 0x77665544), u(&mut b, 0x7531));
    let perm = b.math(MathFn::BytePerm, vec![p1, p2, sel], Type::U32);
    let four = b.f32(4.0);
    let rs = b.math(MathFn::Rsqrtf, vec![four], Type::F32);
    let rs = b.cast(rs, Type::F64);
    let h = b.f32(2.5);
    let rn = b.math(MathFn::Float2IntRn, vec![h], Type::I32);
    let ru = b.math(MathFn::Float2IntRu, vec![h], Type::I32);
    let (o, t) = (b.f32(1.0), b.f32(3.0));
    let dru = b.math(MathFn::FdivRu, vec![o, t], Type::F32);
    let drd = b.math(MathFn::FdivRd, vec![o, t], Type::F32);
    let ne = b.bin(BinaryOp::Ne, dru, drd);
    let ne = b.cast(ne, Type::I32);
    let sat = b.f32(1.5);
    let sat = b.math(MathFn::Saturatef, vec![sat], Type::F32);
    let sat = b.cast(sat, Type::F64);
    let (a1, a2) = (b.u32(7), b.u32(9));
    let mn = b.math(MathFn::Min, vec![a1, a2], Type::U32);
    let big = b.inst(InstKind::Const(Const::Int(-1, Type::U64)), Some(Type::U64));
    let hi = b.math(MathFn::Umul64hi, vec![big, big], Type::U64);
    b.printf("%d %d %x %d %x %g %d %d %d %g %u %llx\n", vec![popc, clz0, brev, ffs, perm, rs, rn, ru, ne, sat, mn, hi]);
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run("intrin", &m, "void k_stub(void) {}\nint main(void) { launch(\"k_stub\", d3(1,1,1), d3(1,1,1), 0, NULL); return 0; }\n");
    assert_eq!(r.stdout, "8 32 80000000 4 77553311 0.5 2 3 1 1 7 fffffffffffffffe\n");
}

fn opts() -> EmitOptions {
    EmitOptions { line_directives: false, source_name: "t.cu".into(), checks: false }
}

#[test]
fn recursion_through_a_barrier_is_an_error() {
    let mut m = Module::default();
    let mut f = FnBuilder::device("rec", Type::Void);
    f.sync();
    // calls itself (FuncId 0)
    let loc = SrcLoc { file: FileId(0), line: 12, col: 5 };
    f.inst(InstKind::Call { func: FuncId(0), args: vec![] }, None);
    f.f.blocks[1].insts.last_mut().unwrap().loc = Some(loc);
    f.ret(None);
    add_function(&mut m, f.finish());
    let mut k = FnBuilder::kernel("k", "k_stub");
    k.call(&m, FuncId(0), vec![]);
    k.ret(None);
    add_function(&mut m, k.finish());
    let errs = emit_c(&m, &opts()).unwrap_err();
    assert_eq!(errs.len(), 1, "{errs:?}");
    assert!(errs[0].message.contains("recursive"), "{}", errs[0].message);
    assert_eq!(errs[0].loc, Some(loc));
}

#[test]
fn malformed_ir_gives_errors_not_panics() {
    // A value used in a block its definition does not dominate, a jump out of range, an
    // unknown math builtin and a bad local.
    let mut m = Module::default();
    let mut k = FnBuilder::kernel("k", "k_stub");
    let side = k.new_block();
    let other = k.new_block();
    let c = k.inst(InstKind::Const(Const::Bool(true)), Some(Type::Bool));
    k.branch(c, side, other);
    k.switch_to(side);
    let v = k.i32(1);
    k.jump(other);
    k.switch_to(other);
    k.inst(InstKind::StoreLocal(LocalId(7), v), None);
    k.term(Terminator::Jump(BlockId(99)));
    add_function(&mut m, k.finish());
    let errs = emit_c(&m, &opts()).unwrap_err();
    assert!(errs.len() >= 3, "{errs:?}");

    let mut m = Module::default();
    let mut k = FnBuilder::kernel("k", "k_stub");
    let v = k.f32(1.0);
    k.math(MathFn::Sqrtf, vec![v, v], Type::F32);
    k.ret(None);
    add_function(&mut m, k.finish());
    let errs = emit_c(&m, &opts()).unwrap_err();
    assert!(errs[0].message.contains("`sqrtf` called with 2 operands, expects 1"), "{errs:?}");

    let mut m = Module::default();
    m.functions.push(Function {
        name: "empty".into(),
        symbol: None,
        kind: FunctionKind::Device,
        inline: InlineHint::None,
        params: vec![LocalId(0)],
        ret: Type::Void,
        locals: vec![],
        values: vec![],
        blocks: vec![],
        loc: None,
    });
    assert!(emit_c(&m, &opts()).is_err());
}

/// A kernel with no barrier is one thread loop; the C is readable and carries #line
/// directives under -G.
#[test]
fn line_directives_and_shape() {
    let mut m = Module::default();
    m.files.push("dir/app.cu".into());
    let mut k = FnBuilder::kernel("k", "k_stub");
    let p = k.param("p", Type::I32.ptr_to());
    let v = k.i32(5);
    let pv = k.load_local(p);
    k.store(pv, v);
    k.f.blocks[0].insts[1].loc = Some(SrcLoc { file: FileId(0), line: 42, col: 3 });
    k.ret(None);
    add_function(&mut m, k.finish());
    let src = emit_c(&m, &EmitOptions { line_directives: true, source_name: "dir/app.cu".into(), checks: false }).unwrap();
    assert!(src.contains("#line 42 \"dir/app.cu\""));
    assert!(src.contains("1 region(s)"));
    assert!(!src.contains("__alive"));
}

/// Every name that cuprite-sema documents in BUILTINS.md is a `MathFn` this back-end
/// implements.
#[test]
fn sema_builtins_are_all_implemented() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../cuprite-sema/BUILTINS.md");
    let Ok(doc) = std::fs::read_to_string(path) else { return };
    let have: std::collections::HashSet<&str> = math_builtins().iter().map(|e| e.f.cuda_name()).collect();
    let mut missing = Vec::new();
    let mut section = 0;
    for line in doc.lines() {
        if line.starts_with("Not `Math`") {
            break;
        }
        if line.starts_with("Generic families") {
            section = 1;
        } else if line.starts_with("min / max") {
            section = 2;
        } else if line.starts_with("Rounding-mode") {
            section = 3;
        } else if line.starts_with("Textures and surfaces") {
            section = 4;
        }
        if !line.starts_with('|') || line.contains("---") {
            continue;
        }
        let cols: Vec<&str> = line.split('|').map(|c| c.trim()).collect();
        let names_col = match section {
            1 => cols.get(3).copied().unwrap_or("").split(['(', '—']).next().unwrap_or(""),
            _ => cols.get(1).copied().unwrap_or(""),
        };
        for raw in names_col.split(|c: char| c == ' ' || c == ',') {
            let n = raw.trim_matches(|c: char| c == '`' || c == '(' || c == ')');
            if n.is_empty() || !n.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') || ["name", "names", "stem", "shape", "signature"].contains(&n) {
                continue;
            }
            let forms: Vec<String> = match section {
                1 => vec![format!("{n}f"), n.to_string()],
                3 => ["rn", "rz", "ru", "rd"].iter().map(|m| format!("{n}_{m}")).collect(),
                _ => vec![n.to_string()],
            };
            for f in forms {
                if !have.contains(f.as_str()) {
                    missing.push(f);
                }
            }
        }
    }
    assert!(missing.is_empty(), "not implemented: {missing:?}");
}
