//! Warp collectives under the general scheduler: partial warps, warps that diverge from
//! each other, and a collective in an inlined device function.
mod common;
use common::*;
use cuprite_cpu::builder::*;
use cuprite_ir::*;

fn tid_x(b: &mut FnBuilder) -> ValueId {
    let t = b.special(SpecialReg::ThreadIdx(Dim::X));
    b.cast(t, Type::I32)
}

/// out[t*3+0] = __shfl_down_sync(full, t, 1) for warp 0 only (t < 32), t elsewhere;
/// out[t*3+1] = __ballot_sync(full, t & 1); out[t*3+2] = warp sum of t (device function,
/// __shfl_xor_sync with width 16, so a partial warp of 16 lanes is well defined).
#[test]
fn shuffle_ballot_divergent_warps_partial_warp() {
    let mut m = Module::default();
    // int seg_sum(int v): for (o = 8; o; o >>= 1) v += __shfl_xor_sync(0xffff.., v, o, 16)
    let mut d = FnBuilder::device("seg_sum", Type::I32);
    let pv = d.param("v", Type::I32);
    let res = d.local("r", Type::I32);
    for o in [8, 4, 2, 1] {
        let v = d.load_local(pv);
        let mask = d.u32(0xffff_ffff);
        let off = d.i32(o);
        let w = d.i32(16);
        d.warp(WarpOp::Shfl(ShflKind::Xor), vec![mask, v, off, w], vec![res]);
        let a = d.load_local(pv);
        let r = d.load_local(res);
        let s = d.bin(BinaryOp::Add, a, r);
        d.store_local(pv, s);
    }
    let v = d.load_local(pv);
    d.ret(Some(v));
    let seg_sum = add_function(&mut m, d.finish());

    let mut b = FnBuilder::kernel("k", "k_stub");
    let po = b.param("out", Type::I32.ptr_to());
    let lv = b.local("v", Type::I32);
    let lb = b.local("b", Type::U32);
    let t = tid_x(&mut b);
    b.store_local(lv, t);
    let k32 = b.i32(32);
    let c = b.bin(BinaryOp::Lt, t, k32);
    let then = b.new_block();
    let join = b.new_block();
    b.branch(c, then, join);
    b.switch_to(then);
    let v = b.load_local(lv);
    let mask = b.u32(0xffff_ffff);
    let one = b.i32(1);
    let w = b.i32(32);
    b.warp(WarpOp::Shfl(ShflKind::Down), vec![mask, v, one, w], vec![lv]);
    b.jump(join);
    b.switch_to(join);
    let t = tid_x(&mut b);
    let one = b.i32(1);
    let odd = b.bin(BinaryOp::And, t, one);
    let z = b.i32(0);
    let p = b.bin(BinaryOp::Ne, odd, z);
    let mask = b.u32(0xffff_ffff);
    b.warp(WarpOp::Vote(VoteKind::Ballot), vec![mask, p], vec![lb]);
    let t = tid_x(&mut b);
    let s = b.call(&m, seg_sum, vec![t]).unwrap();
    let t = tid_x(&mut b);
    let three = b.i32(3);
    let base = b.bin(BinaryOp::Mul, t, three);
    let out = b.load_local(po);
    let p0 = b.ptr_add(out, base);
    let v = b.load_local(lv);
    b.store(p0, v);
    let one = b.i32(1);
    let p1 = b.ptr_add(p0, one);
    let bb = b.load_local(lb);
    let bb = b.cast(bb, Type::I32);
    b.store(p1, bb);
    let two = b.i32(2);
    let p2 = b.ptr_add(p0, two);
    b.store(p2, s);
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run(
        "warp_basic",
        &m,
        r#"
void k_stub(void) {}
int main(void) {
    int *o = calloc(48 * 3, 4);
    void *args[] = { &o };
    launch("k_stub", d3(4, 1, 1), d3(48, 1, 1), 0, args);
    for (int t = 0; t < 48; t += 5) printf("%d %x %d|", o[t * 3], o[t * 3 + 1], o[t * 3 + 2]);
    printf("\n");
    return 0;
}
"#,
    );
    // Shuffle: warp 0 shifted down by one (lane 31 keeps its own); warp 1 (16 lanes)
    // untouched. Ballot: 0xaaaaaaaa / 0xaaaa. Segment sums over 16 lanes.
    assert_eq!(
        r.stdout,
        "1 aaaaaaaa 120|6 aaaaaaaa 120|11 aaaaaaaa 120|16 aaaaaaaa 120|21 aaaaaaaa 376|26 aaaaaaaa 376|\
31 aaaaaaaa 376|35 aaaa 632|40 aaaa 632|45 aaaa 632|\n"
    );
    assert!(r.c_source.contains("__cu_schedule"));
}

/// A kernel without warp collectives keeps the direct barrier regions (no scheduler).
#[test]
fn barrier_only_kernel_does_not_use_the_scheduler() {
    let mut m = Module::default();
    let mut b = FnBuilder::kernel("k", "k_stub");
    let po = b.param("out", Type::I32.ptr_to());
    b.sync();
    let t = tid_x(&mut b);
    let out = b.load_local(po);
    let p = b.ptr_add(out, t);
    b.store(p, t);
    b.ret(None);
    add_function(&mut m, b.finish());
    let src = cuprite_cpu::emit_c(&m, &cuprite_cpu::EmitOptions::default()).unwrap();
    let entry = src.split("kernel `k`").nth(1).unwrap();
    assert!(!entry.contains("__cu_schedule(") && !entry.contains("__ws"));
}
