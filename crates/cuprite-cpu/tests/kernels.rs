mod common;
use common::*;
use cuprite_cpu::builder::*;
use cuprite_ir::*;

fn fptr() -> Type {
    Type::F32.ptr_to()
}
fn iptr() -> Type {
    Type::I32.ptr_to()
}
fn tid_x(b: &mut FnBuilder) -> ValueId {
    let t = b.special(SpecialReg::ThreadIdx(Dim::X));
    b.cast(t, Type::I32)
}

/// c[i] = a[i] + b[i] for i < n.
fn vecadd_module() -> Module {
    let mut m = Module::default();
    let mut b = FnBuilder::kernel("vecAdd", "_Z6vecAddPKfS0_Pfi");
    let (pa, pb, pc, pn) = (b.param("a", fptr()), b.param("b", fptr()), b.param("c", fptr()), b.param("n", Type::I32));
    let li = b.local("i", Type::I32);
    let then = b.new_block();
    let exit = b.new_block();
    let i = b.global_tid_x();
    b.store_local(li, i);
    let n = b.load_local(pn);
    let c = b.bin(BinaryOp::Lt, i, n);
    b.branch(c, then, exit);
    b.switch_to(then);
    let i = b.load_local(li);
    let a = b.load_local(pa);
    let ap = b.ptr_add(a, i);
    let av = b.load(ap);
    let bb = b.load_local(pb);
    let bp = b.ptr_add(bb, i);
    let bv = b.load(bp);
    let s = b.bin(BinaryOp::Add, av, bv);
    let cc = b.load_local(pc);
    let cp = b.ptr_add(cc, i);
    b.store(cp, s);
    b.jump(exit);
    b.switch_to(exit);
    b.ret(None);
    add_function(&mut m, b.finish());
    m
}

const VECADD_MAIN: &str = r#"
void _Z6vecAddPKfS0_Pfi(void) {}
int main(void) {
    int n = 1000;
    float *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
    for (int i = 0; i < n; i++) { a[i] = i; b[i] = 2 * i; c[i] = -1; }
    void *args[] = { &a, &b, &c, &n };
    launch("_Z6vecAddPKfS0_Pfi", d3(4, 1, 1), d3(256, 1, 1), 0, args);
    int bad = 0;
    for (int i = 0; i < n; i++) if (c[i] != 3.0f * i) bad++;
    printf("bad=%d c[999]=%g\n", bad, c[999]);
    printf("slots=%llu shared=%llu params=%u size0=%u\n", (unsigned long long)g_mod->kernels[0].slot_bytes_per_thread,
           (unsigned long long)g_mod->kernels[0].static_shared_bytes, g_mod->kernels[0].num_params, g_mod->kernels[0].param_sizes[3]);
    return 0;
}
"#;

#[test]
fn vector_add() {
    let m = vecadd_module();
    let r = compile_and_run("vecadd", &m, VECADD_MAIN);
    assert_eq!(r.stdout, "bad=0 c[999]=2997\nslots=0 shared=0 params=4 size0=4\n");
    // Also with #line directives and without optimisation.
    let r = compile_and_run_opts("vecadd_g", &m, VECADD_MAIN, 0, true);
    assert_eq!(r.status, 0);
}

/// Block-wise reversal through shared memory with one barrier.
#[test]
fn shared_reverse() {
    let mut m = Module::default();
    let s = add_global(&mut m, "s", Type::Array(Box::new(Type::I32), 64), AddressSpace::Shared, None, None);
    let mut b = FnBuilder::kernel("rev", "rev_stub");
    let pd = b.param("d", iptr());
    let lt = b.local("t", Type::I32);
    let t = tid_x(&mut b);
    b.store_local(lt, t);
    let bid = b.special(SpecialReg::BlockIdx(Dim::X));
    let bid = b.cast(bid, Type::I32);
    let c64 = b.i32(64);
    let off = b.bin(BinaryOp::Mul, bid, c64);
    let d = b.load_local(pd);
    let dseg = b.ptr_add(d, off);
    b.store_local(pd, dseg);
    let v = b.ptr_add(dseg, t);
    let v = b.load(v);
    let sa = b.global_addr(&m, s);
    let sa = b.decay(sa);
    let sp = b.ptr_add(sa, t);
    b.store(sp, v);
    b.sync();
    let t = b.load_local(lt);
    let c63 = b.i32(63);
    let j = b.bin(BinaryOp::Sub, c63, t);
    let sa = b.global_addr(&m, s);
    let sa = b.decay(sa);
    let sp = b.ptr_add(sa, j);
    let v = b.load(sp);
    let d = b.load_local(pd);
    let dp = b.ptr_add(d, t);
    b.store(dp, v);
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run(
        "reverse",
        &m,
        r#"
void rev_stub(void) {}
int main(void) {
    int *d = malloc(256 * 4);
    for (int i = 0; i < 256; i++) d[i] = i;
    void *args[] = { &d };
    launch("rev_stub", d3(4, 1, 1), d3(64, 1, 1), 0, args);
    int bad = 0;
    for (int i = 0; i < 256; i++) if (d[i] != (i / 64) * 64 + 63 - i % 64) bad++;
    printf("bad=%d d0=%d shared=%llu\n", bad, d[0], (unsigned long long)g_mod->kernels[0].static_shared_bytes);
    return 0;
}
"#,
    );
    assert_eq!(r.stdout, "bad=0 d0=63 shared=256\n");
    assert!(r.c_source.contains("barrier-region fission"), "{}", r.c_source);
}

/// Sum reduction with a barrier inside a loop: out[block] = sum of its inputs.
fn reduction_module() -> Module {
    let mut m = Module::default();
    let sd = add_global(&mut m, "sdata", Type::Array(Box::new(Type::F32), 256), AddressSpace::Shared, None, None);
    let mut b = FnBuilder::kernel("reduce", "reduce_stub");
    let (pin, pout, pn) = (b.param("in", fptr()), b.param("out", fptr()), b.param("n", Type::I32));
    let (lt, ls) = (b.local("tid", Type::U32), b.local("s", Type::U32));
    let lv = b.local("v", Type::F32);
    let (load_b, zero_b, store_b) = (b.new_block(), b.new_block(), b.new_block());
    let t = b.special(SpecialReg::ThreadIdx(Dim::X));
    b.store_local(lt, t);
    let i = b.global_tid_x();
    let n = b.load_local(pn);
    let c = b.bin(BinaryOp::Lt, i, n);
    b.branch(c, load_b, zero_b);
    b.switch_to(load_b);
    let inp = b.load_local(pin);
    let i = b.global_tid_x();
    let p = b.ptr_add(inp, i);
    let x = b.load(p);
    b.store_local(lv, x);
    b.jump(store_b);
    b.switch_to(zero_b);
    let z = b.f32(0.0);
    b.store_local(lv, z);
    b.jump(store_b);
    b.switch_to(store_b);
    let sa = b.global_addr(&m, sd);
    let sa = b.decay(sa);
    let t = b.load_local(lt);
    let p = b.ptr_add(sa, t);
    let x = b.load_local(lv);
    b.store(p, x);
    b.sync();
    let bd = b.special(SpecialReg::BlockDim(Dim::X));
    let one = b.u32(1);
    let half = b.bin(BinaryOp::Shr, bd, one);
    b.store_local(ls, half);
    let (head, body, add, bar, after, w, exit) =
        (b.new_block(), b.new_block(), b.new_block(), b.new_block(), b.new_block(), b.new_block(), b.new_block());
    b.jump(head);
    b.switch_to(head);
    let s = b.load_local(ls);
    let z = b.u32(0);
    let c = b.bin(BinaryOp::Gt, s, z);
    b.branch(c, body, after);
    b.switch_to(body);
    let t = b.load_local(lt);
    let s = b.load_local(ls);
    let c = b.bin(BinaryOp::Lt, t, s);
    b.branch(c, add, bar);
    b.switch_to(add);
    let sa = b.global_addr(&m, sd);
    let sa = b.decay(sa);
    let t = b.load_local(lt);
    let s = b.load_local(ls);
    let ts = b.bin(BinaryOp::Add, t, s);
    let p1 = b.ptr_add(sa, t);
    let p2 = b.ptr_add(sa, ts);
    let x1 = b.load(p1);
    let x2 = b.load(p2);
    let sum = b.bin(BinaryOp::Add, x1, x2);
    b.store(p1, sum);
    b.jump(bar);
    b.switch_to(bar);
    let latch = b.sync();
    b.switch_to(latch);
    let s = b.load_local(ls);
    let one = b.u32(1);
    let s2 = b.bin(BinaryOp::Shr, s, one);
    b.store_local(ls, s2);
    b.jump(head);
    b.switch_to(after);
    let t = b.load_local(lt);
    let z = b.u32(0);
    let c = b.bin(BinaryOp::Eq, t, z);
    b.branch(c, w, exit);
    b.switch_to(w);
    let sa = b.global_addr(&m, sd);
    let sa = b.decay(sa);
    let x = b.load(sa);
    let o = b.load_local(pout);
    let bid = b.special(SpecialReg::BlockIdx(Dim::X));
    let p = b.ptr_add(o, bid);
    b.store(p, x);
    b.jump(exit);
    b.switch_to(exit);
    b.ret(None);
    add_function(&mut m, b.finish());
    m
}

#[test]
fn tree_reduction() {
    let m = reduction_module();
    let r = compile_and_run(
        "reduce",
        &m,
        r#"
void reduce_stub(void) {}
int main(void) {
    int n = 1000;
    float *in = malloc(n * 4), *out = malloc(8 * 4);
    for (int i = 0; i < n; i++) in[i] = 1.0f + (i % 7);
    void *args[] = { &in, &out, &n };
    launch("reduce_stub", d3(4, 1, 1), d3(256, 1, 1), 0, args);
    for (int b = 0; b < 4; b++) {
        float want = 0; for (int i = b * 256; i < b * 256 + 256 && i < n; i++) want += in[i];
        printf("%g %g\n", out[b], want);
    }
    printf("slots=%llu\n", (unsigned long long)g_mod->kernels[0].slot_bytes_per_thread);
    return 0;
}
"#,
    );
    for line in r.stdout.lines().take(4) {
        let v: Vec<&str> = line.split(' ').collect();
        assert_eq!(v[0], v[1], "{}", r.stdout);
    }
    // No local lives in per-thread slots: `tid` is recomputed from threadIdx where it is
    // read, the stride `s` is one scalar for the block (barrier-region fission). The slots
    // hold only the mask byte of the single-thread guard `tid == 0` (rounded up to 8).
    assert!(r.stdout.ends_with("slots=8\n"), "{}", r.stdout);
}

/// A barrier under a uniform condition (blockIdx-dependent), and threads that return
/// early before a barrier.
#[test]
fn uniform_if_and_early_return() {
    let mut m = Module::default();
    let s = add_global(&mut m, "s", Type::Array(Box::new(Type::I32), 32), AddressSpace::Shared, None, None);
    let mut b = FnBuilder::kernel("k", "k_stub");
    let po = b.param("out", iptr());
    let lt = b.local("t", Type::I32);
    let lg = b.local("g", Type::I32);
    let (even, odd, early, cont) = (b.new_block(), b.new_block(), b.new_block(), b.new_block());
    let t = tid_x(&mut b);
    b.store_local(lt, t);
    let g = b.global_tid_x();
    b.store_local(lg, g);
    let bid = b.special(SpecialReg::BlockIdx(Dim::X));
    let two = b.u32(2);
    let r = b.bin(BinaryOp::Rem, bid, two);
    let z = b.u32(0);
    let c = b.bin(BinaryOp::Eq, r, z);
    b.branch(c, even, odd);
    // even blocks: threads >= 10 return, the rest exchange through shared memory
    b.switch_to(even);
    let t = b.load_local(lt);
    let ten = b.i32(10);
    let c = b.bin(BinaryOp::Ge, t, ten);
    b.branch(c, early, cont);
    b.switch_to(early);
    b.ret(None);
    b.switch_to(cont);
    let sa = b.global_addr(&m, s);
    let sa = b.decay(sa);
    let t = b.load_local(lt);
    let p = b.ptr_add(sa, t);
    let two = b.i32(2);
    let v = b.bin(BinaryOp::Mul, t, two);
    b.store(p, v);
    b.sync();
    let sa = b.global_addr(&m, s);
    let sa = b.decay(sa);
    let t = b.load_local(lt);
    let nine = b.i32(9);
    let j = b.bin(BinaryOp::Sub, nine, t);
    let p = b.ptr_add(sa, j);
    let v = b.load(p);
    let o = b.load_local(po);
    let g = b.load_local(lg);
    let op = b.ptr_add(o, g);
    b.store(op, v);
    b.ret(None);
    b.switch_to(odd);
    let o = b.load_local(po);
    let g = b.load_local(lg);
    let op = b.ptr_add(o, g);
    let m1 = b.i32(-1);
    b.store(op, m1);
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run(
        "uniform",
        &m,
        r#"
void k_stub(void) {}
int main(void) {
    int *o = malloc(4 * 32 * 4);
    for (int i = 0; i < 128; i++) o[i] = 1000;
    void *args[] = { &o };
    launch("k_stub", d3(4, 1, 1), d3(32, 1, 1), 0, args);
    for (int b = 0; b < 4; b++) { for (int t = 0; t < 12; t++) printf("%d ", o[b * 32 + t]); printf("\n"); }
    return 0;
}
"#,
    );
    assert_eq!(
        r.stdout,
        "18 16 14 12 10 8 6 4 2 0 1000 1000 \n-1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 \n\
         18 16 14 12 10 8 6 4 2 0 1000 1000 \n-1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 -1 \n"
    );
}

/// __syncthreads_count / _and / _or over a 2D block.
#[test]
fn syncthreads_count_and_or() {
    let mut m = Module::default();
    let mut b = FnBuilder::kernel("k", "k_stub");
    let po = b.param("out", iptr());
    let (lc, la, lo, lt) = (b.local("c", Type::I32), b.local("a", Type::I32), b.local("o", Type::I32), b.local("t", Type::I32));
    let tx = b.special(SpecialReg::ThreadIdx(Dim::X));
    let ty = b.special(SpecialReg::ThreadIdx(Dim::Y));
    let bx = b.special(SpecialReg::BlockDim(Dim::X));
    let yy = b.bin(BinaryOp::Mul, ty, bx);
    let t = b.bin(BinaryOp::Add, yy, tx);
    let t = b.cast(t, Type::I32);
    b.store_local(lt, t);
    let three = b.i32(3);
    let r = b.bin(BinaryOp::Rem, t, three);
    let z = b.i32(0);
    let p = b.bin(BinaryOp::Eq, r, z);
    b.sync_pred(BarrierKind::Count, p, lc);
    let t = b.load_local(lt);
    let k = b.i32(1000);
    let p = b.bin(BinaryOp::Lt, t, k);
    b.sync_pred(BarrierKind::And, p, la);
    let t = b.load_local(lt);
    let k = b.i32(5);
    let p = b.bin(BinaryOp::Eq, t, k);
    b.sync_pred(BarrierKind::Or, p, lo);
    let t = b.load_local(lt);
    let k = b.i32(7);
    let p = b.bin(BinaryOp::Eq, t, k);
    b.sync_pred(BarrierKind::And, p, lt);
    let (c, a, o, t2) = (b.load_local(lc), b.load_local(la), b.load_local(lo), b.load_local(lt));
    let k_1 = b.i32(1000);
    let s = b.bin(BinaryOp::Mul, c, k_1);
    let s = b.bin(BinaryOp::Add, s, t2);
    let k_2 = b.i32(100);
    let a10 = b.bin(BinaryOp::Mul, a, k_2);
    let k_3 = b.i32(10);
    let o10 = b.bin(BinaryOp::Mul, o, k_3);
    let s = b.bin(BinaryOp::Add, s, a10);
    let s = b.bin(BinaryOp::Add, s, o10);
    let tx = b.special(SpecialReg::ThreadIdx(Dim::X));
    let ty = b.special(SpecialReg::ThreadIdx(Dim::Y));
    let bx = b.special(SpecialReg::BlockDim(Dim::X));
    let yy = b.bin(BinaryOp::Mul, ty, bx);
    let t = b.bin(BinaryOp::Add, yy, tx);
    let out = b.load_local(po);
    let p = b.ptr_add(out, t);
    b.store(p, s);
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run(
        "count",
        &m,
        r#"
void k_stub(void) {}
int main(void) {
    int *o = malloc(40 * 4);
    void *args[] = { &o };
    launch("k_stub", d3(1, 1, 1), d3(8, 5, 1), 0, args);
    printf("%d %d\n", o[0], o[39]);
    return 0;
}
"#,
    );
    // 40 threads: 14 with t%3==0; and(t<1000)=1; or(t==5)=1; and(t==7)=0
    assert_eq!(r.stdout, "14110 14110\n");
}

/// A device function containing a barrier is inlined (twice, with values live across
/// the call); a device function without one is called with the thread context.
#[test]
fn device_function_with_barrier() {
    let mut m = Module::default();
    let s = add_global(&mut m, "buf", Type::Array(Box::new(Type::I32), 16), AddressSpace::Shared, None, None);
    // int sq(int x) { return x * x + threadIdx.x; }
    let mut f = FnBuilder::device("sq", Type::I32);
    let px = f.param("x", Type::I32);
    let x = f.load_local(px);
    let xx = f.bin(BinaryOp::Mul, x, x);
    let t = tid_x(&mut f);
    let r = f.bin(BinaryOp::Add, xx, t);
    // also touches shared memory through the thread context (overwritten later)
    let sa = f.global_addr(&m, s);
    let sa = f.decay(sa);
    let p = f.ptr_add(sa, t);
    f.store(p, r);
    let lane = f.special(SpecialReg::LaneId);
    let lane = f.cast(lane, Type::I32);
    let r = f.bin(BinaryOp::Add, r, lane);
    let r = f.bin(BinaryOp::Sub, r, t);
    f.ret(Some(r));
    let sq = add_function(&mut m, f.finish());
    // int exchange(int v) { buf[t] = v; __syncthreads(); int r = buf[15 - t]; __syncthreads(); return r; }
    let mut f = FnBuilder::device("exchange", Type::I32);
    let pv = f.param("v", Type::I32);
    let lr = f.local("r", Type::I32);
    let sa = f.global_addr(&m, s);
    let sa = f.decay(sa);
    let t = tid_x(&mut f);
    let p = f.ptr_add(sa, t);
    let v = f.load_local(pv);
    f.store(p, v);
    f.sync();
    let sa = f.global_addr(&m, s);
    let sa = f.decay(sa);
    let t = tid_x(&mut f);
    let k = f.i32(15);
    let j = f.bin(BinaryOp::Sub, k, t);
    let p = f.ptr_add(sa, j);
    let v = f.load(p);
    f.store_local(lr, v);
    f.sync();
    let r = f.load_local(lr);
    f.ret(Some(r));
    let ex = add_function(&mut m, f.finish());
    // kernel: out[t] = exchange(sq(t)) * 1000 + exchange(t)  (the first result crosses the second call)
    let mut b = FnBuilder::kernel("k", "k_stub");
    let po = b.param("out", iptr());
    let t = tid_x(&mut b);
    let s1 = b.call(&m, sq, vec![t]).unwrap();
    let e1 = b.call(&m, ex, vec![s1]).unwrap();
    let k = b.i32(1000);
    let e1k = b.bin(BinaryOp::Mul, e1, k);
    let e2 = b.call(&m, ex, vec![t]).unwrap();
    let sum = b.bin(BinaryOp::Add, e1k, e2);
    let o = b.load_local(po);
    let p = b.ptr_add(o, t);
    b.store(p, sum);
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run(
        "devbar",
        &m,
        r#"
void k_stub(void) {}
int main(void) {
    int *o = malloc(16 * 4);
    void *args[] = { &o };
    launch("k_stub", d3(2, 1, 1), d3(16, 1, 1), 0, args);
    for (int i = 0; i < 16; i++) printf("%d ", o[i]);
    printf("\n");
    return 0;
}
"#,
    );
    // thread t gets sq(15-t)*1000 + (15-t); sq(x) = x*x + x
    let want: Vec<String> = (0..16).map(|t| { let u = 15 - t; ((u * u + u) * 1000 + u).to_string() }).collect();
    assert_eq!(r.stdout.trim(), want.join(" "));
}

/// __device__ and __constant__ variables with initializers, and the variable table.
#[test]
fn device_variables() {
    let mut m = Module::default();
    let arr = Type::Array(Box::new(Type::I32), 4);
    let init = Init::Aggregate((1..=3).map(|v| Init::Scalar(Const::Int(v * 10, Type::I32))).collect());
    let table = add_global(&mut m, "ns::table", arr, AddressSpace::Global, Some(init), Some("_ZN2ns5tableE"));
    let scale = add_global(&mut m, "scale", Type::F32, AddressSpace::Constant, Some(Init::Scalar(Const::F32(2.5))), Some("scale"));
    let tp = add_global(&mut m, "tp", iptr(), AddressSpace::Global, Some(Init::GlobalAddr { global: table, offset: 8 }), Some("tp"));
    let mut b = FnBuilder::kernel("k", "k_stub");
    let po = b.param("out", fptr());
    let t = tid_x(&mut b);
    let ta = b.global_addr(&m, table);
    let ta = b.decay(ta);
    let p = b.ptr_add(ta, t);
    let v = b.load(p);
    let v = b.cast(v, Type::F32);
    let sp = b.global_addr(&m, scale);
    let sv = b.load(sp);
    let r = b.bin(BinaryOp::Mul, v, sv);
    let tpa = b.global_addr(&m, tp);
    let tpv = b.load(tpa);
    let x = b.load(tpv);
    let x = b.cast(x, Type::F32);
    let r = b.bin(BinaryOp::Add, r, x);
    let o = b.load_local(po);
    let p = b.ptr_add(o, t);
    b.store(p, r);
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run(
        "devvars",
        &m,
        r#"
void k_stub(void) {}
int _ZN2ns5tableE[4]; float scale; int *tp;
int main(void) {
    float *o = malloc(4 * 4);
    void *args[] = { &o };
    launch("k_stub", d3(1, 1, 1), d3(4, 1, 1), 0, args);
    for (int i = 0; i < 4; i++) printf("%g ", o[i]);
    printf("\n");
    for (uint32_t i = 0; i < g_mod->num_vars; i++)
        printf("%s %llu %u %d\n", g_mod->vars[i].name, (unsigned long long)g_mod->vars[i].size,
               g_mod->vars[i].is_constant, g_mod->vars[i].host_shadow == (void *)&_ZN2ns5tableE);
    *(float *)g_mod->vars[1].device_addr = 1.0f; /* cudaMemcpyToSymbol */
    launch("k_stub", d3(1, 1, 1), d3(4, 1, 1), 0, args);
    printf("%g\n", o[1]);
    return 0;
}
"#,
    );
    assert_eq!(r.stdout, "55 80 105 30 \nns::table 16 0 1\nscale 4 1 0\ntp 8 0 0\n50\n");
}

/// Atomics from many blocks.
#[test]
fn atomics() {
    let mut m = Module::default();
    let mut b = FnBuilder::kernel("k", "k_stub");
    let pc = b.param("c", iptr());
    let pf = b.param("f", fptr());
    let pu = b.param("u", Type::U32.ptr_to());
    let g = b.global_tid_x();
    let c = b.load_local(pc);
    let one = b.i32(1);
    let dev = Scope::Device;
    b.builtin(Builtin::Atomic { op: AtomicOp::Add, scope: dev }, vec![c, one], Some(Type::I32));
    let c1 = b.ptr_add(c, one);
    b.builtin(Builtin::Atomic { op: AtomicOp::Max, scope: dev }, vec![c1, g], Some(Type::I32));
    let two = b.i32(2);
    let c2 = b.ptr_add(c, two);
    let k_4 = b.i32(0);
    let neg = b.bin(BinaryOp::Sub, k_4, g);
    b.builtin(Builtin::Atomic { op: AtomicOp::Min, scope: dev }, vec![c2, neg], Some(Type::I32));
    let f = b.load_local(pf);
    let h = b.f32(0.5);
    b.builtin(Builtin::Atomic { op: AtomicOp::Add, scope: dev }, vec![f, h], Some(Type::F32));
    let u = b.load_local(pu);
    let lim = b.u32(99);
    b.builtin(Builtin::Atomic { op: AtomicOp::Inc, scope: dev }, vec![u, lim], Some(Type::U32));
    // CAS loop-free use: atomicCAS(c+3, 0, g+1) succeeds once
    let three = b.i32(3);
    let c3 = b.ptr_add(c, three);
    let z = b.i32(0);
    let g1 = b.bin(BinaryOp::Add, g, one);
    let old = b.builtin(Builtin::Atomic { op: AtomicOp::Cas, scope: dev }, vec![c3, z, g1], Some(Type::I32));
    let was0 = b.bin(BinaryOp::Eq, old, z);
    let was0 = b.cast(was0, Type::I32);
    let four = b.i32(4);
    let c4 = b.ptr_add(c, four);
    b.builtin(Builtin::Atomic { op: AtomicOp::Add, scope: dev }, vec![c4, was0], Some(Type::I32));
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run(
        "atomics",
        &m,
        r#"
void k_stub(void) {}
int main(void) {
    int c[5] = {0, -1, 0, 0, 0}; float f = 0; unsigned u = 0;
    int *cp = c; float *fp = &f; unsigned *up = &u;
    void *args[] = { &cp, &fp, &up };
    launch("k_stub", d3(64, 1, 1), d3(128, 1, 1), 0, args);
    printf("%d %d %d %d %g %u\n", c[0], c[1], c[2], c[4], f, u);
    return 0;
}
"#,
    );
    // 8192 increments; u wraps at 99: 8192 % 100 = 92
    assert_eq!(r.stdout, "8192 8191 -8191 1 4096 92\n");
}

/// Integer division by zero, INT_MIN / -1, big shifts and saturating conversions; the
/// values are an H200's (tests/facts/intdiv.txt).
#[test]
fn arithmetic_semantics() {
    let mut m = Module::default();
    let mut b = FnBuilder::kernel("k", "k_stub");
    let pa = b.param("a", Type::I32);
    let pz = b.param("z", Type::I32);
    let pm = b.param("m1", Type::I32);
    let pf = b.param("f", Type::F32);
    let a = b.load_local(pa);
    let z = b.load_local(pz);
    let m1 = b.load_local(pm);
    let d0 = b.bin(BinaryOp::Div, a, z);
    let r0 = b.bin(BinaryOp::Rem, a, z);
    let au = b.cast(a, Type::U32);
    let zu = b.cast(z, Type::U32);
    let du = b.bin(BinaryOp::Div, au, zu);
    let ru = b.bin(BinaryOp::Rem, au, zu);
    let min = b.i32(i32::MIN);
    let dm = b.bin(BinaryOp::Div, min, m1);
    let rm = b.bin(BinaryOp::Rem, min, m1);
    let k_5 = b.i32(33);
    let s33 = b.bin(BinaryOp::Add, z, k_5);
    let shl = b.bin(BinaryOp::Shl, a, s33);
    let shr = b.bin(BinaryOp::Shr, m1, s33);
    let shru = b.bin(BinaryOp::Shr, au, s33);
    let f = b.load_local(pf);
    let fz = b.bin(BinaryOp::Sub, f, f);
    let nan = b.bin(BinaryOp::Div, fz, fz);
    let ni = b.cast(nan, Type::I32);
    let big = b.f32(1e10);
    let bi = b.cast(big, Type::I32);
    let nb = b.f32(-1e10);
    let nbi = b.cast(nb, Type::I32);
    let nbu = b.cast(nb, Type::U32);
    let bu = b.cast(big, Type::U32);
    b.printf("%d %d %u %u %d %d %d %d %u %d %d %d %u %u\n", vec![d0, r0, du, ru, dm, rm, shl, shr, shru, ni, bi, nbi, nbu, bu]);
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run(
        "arith",
        &m,
        r#"
void k_stub(void) {}
int main(void) {
    int a = 7, z = 0, m1 = -1; float f = 0.0f;
    void *args[] = { &a, &z, &m1, &f };
    launch("k_stub", d3(1, 1, 1), d3(1, 1, 1), 0, args);
    return 0;
}
"#,
    );
    assert_eq!(r.stdout, "-1 -1 4294967295 4294967295 -2147483648 0 0 -1 0 0 2147483647 -2147483648 0 4294967295\n");
}

/// printf from several threads, with the thread order of a block.
#[test]
fn printf_works() {
    let mut m = Module::default();
    let mut b = FnBuilder::kernel("hello", "hello_stub");
    let t = tid_x(&mut b);
    let bid = b.special(SpecialReg::BlockIdx(Dim::X));
    let f = b.cast(t, Type::F32);
    let h = b.f32(0.5);
    let f = b.bin(BinaryOp::Mul, f, h);
    let d = b.cast(f, Type::F64);
    let k_6 = b_str(&mut b);
    b.printf("block %u thread %d: %.2f \"%s\"\n", vec![bid, t, d, k_6]);
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run(
        "printf",
        &m,
        "void hello_stub(void) {}\nint main(void) { launch(\"hello_stub\", d3(2,1,1), d3(2,1,1), 0, NULL); return 0; }\n",
    );
    assert_eq!(
        r.stdout,
        "block 0 thread 0: 0.00 \"a\\b?\"\nblock 0 thread 1: 0.50 \"a\\b?\"\nblock 1 thread 0: 0.00 \"a\\b?\"\nblock 1 thread 1: 0.50 \"a\\b?\"\n"
    );
}

fn b_str(b: &mut FnBuilder) -> ValueId {
    b.str("a\\b?")
}

/// A local array whose address is taken, written before a barrier and read after it.
#[test]
fn local_array_across_barrier() {
    let mut m = Module::default();
    let mut b = FnBuilder::kernel("k", "k_stub");
    let po = b.param("out", iptr());
    let arr = b.local("arr", Type::Array(Box::new(Type::I32), 4));
    let lk = b.local("k", Type::I32);
    let lt = b.local("t", Type::I32);
    let (head, body, done) = (b.new_block(), b.new_block(), b.new_block());
    let t = tid_x(&mut b);
    b.store_local(lt, t);
    let z = b.i32(0);
    b.store_local(lk, z);
    b.jump(head);
    b.switch_to(head);
    let k = b.load_local(lk);
    let k_7 = b.i32(4);
    let c = b.bin(BinaryOp::Lt, k, k_7);
    b.branch(c, body, done);
    b.switch_to(body);
    let k = b.load_local(lk);
    let t = b.load_local(lt);
    let v = b.bin(BinaryOp::Mul, t, k);
    let a = b.local_addr(arr);
    let a = b.decay(a);
    let p = b.ptr_add(a, k);
    b.store(p, v);
    let k_8 = b.i32(1);
    let k1 = b.bin(BinaryOp::Add, k, k_8);
    b.store_local(lk, k1);
    b.jump(head);
    b.switch_to(done);
    b.sync();
    let a = b.local_addr(arr);
    let a = b.decay(a);
    let k_9 = b.i32(3);
    let p3 = b.ptr_add(a, k_9);
    let k_10 = b.i32(1);
    let p1 = b.ptr_add(a, k_10);
    let v3 = b.load(p3);
    let v1 = b.load(p1);
    let s = b.bin(BinaryOp::Add, v3, v1);
    let o = b.load_local(po);
    let t = b.load_local(lt);
    let p = b.ptr_add(o, t);
    b.store(p, s);
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run(
        "localarr",
        &m,
        r#"
void k_stub(void) {}
int main(void) {
    int *o = malloc(8 * 4);
    void *args[] = { &o };
    launch("k_stub", d3(1, 1, 1), d3(8, 1, 1), 0, args);
    for (int i = 0; i < 8; i++) printf("%d ", o[i]);
    printf("\n");
    return 0;
}
"#,
    );
    assert_eq!(r.stdout, "0 4 8 12 16 20 24 28 \n");
    assert!(r.c_source.contains("__s_l1_arr"), "arr should live in a slot");
}

/// Threads that reach different barriers: a clear kernel error.
#[test]
fn divergent_barrier_is_an_error() {
    let mut m = Module::default();
    let mut b = FnBuilder::kernel("k", "k_stub");
    let (a, bb, end) = (b.new_block(), b.new_block(), b.new_block());
    let t = tid_x(&mut b);
    let k_11 = b.i32(5);
    let c = b.bin(BinaryOp::Lt, t, k_11);
    b.branch(c, a, bb);
    b.switch_to(a);
    b.sync();
    b.jump(end);
    b.switch_to(bb);
    b.sync();
    b.jump(end);
    b.switch_to(end);
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run_opts(
        "divergent",
        &m,
        "void k_stub(void) {}\nint main(void) { launch(\"k_stub\", d3(3,1,1), d3(8,1,1), 0, NULL); return 0; }\n",
        2,
        false,
    );
    assert_eq!(r.status, 7);
    assert_eq!(
        r.stdout,
        "kernel error 719: threads of block (0,0,0) reached different __syncthreads() calls (divergent barrier)\n"
    );
}

/// A struct with padding and explicit alignment, accessed through FieldAddr.
#[test]
fn struct_layout() {
    let mut m = Module::default();
    m.structs.push(StructDef {
        name: "P".into(),
        is_union: false,
        fields: vec![
            Field { name: "c".into(), ty: Type::I8, offset: 0 },
            Field { name: "v".into(), ty: Type::F64, offset: 8 },
            Field { name: "n".into(), ty: Type::I32, offset: 16 },
        ],
        size: 32,
        align: 16,
    });
    let st = Type::Struct(StructId(0));
    let mut b = FnBuilder::kernel("k", "k_stub");
    let pp = b.param("p", st.clone().ptr_to());
    let p = b.load_local(pp);
    let fa = b.inst(InstKind::FieldAddr { base: p, strukt: StructId(0), field: 2 }, Some(Type::I32.ptr_to()));
    let fv = b.inst(InstKind::FieldAddr { base: p, strukt: StructId(0), field: 1 }, Some(Type::F64.ptr_to()));
    let n = b.load(fa);
    let v = b.load(fv);
    let nd = b.cast(n, Type::F64);
    let s = b.bin(BinaryOp::Add, v, nd);
    b.store(fv, s);
    let sv = b.load(p);
    let _ = sv;
    b.ret(None);
    add_function(&mut m, b.finish());
    let r = compile_and_run(
        "struct",
        &m,
        r#"
void k_stub(void) {}
struct P { char c; double v; int n; } __attribute__((aligned(16)));
int main(void) {
    struct P x = { 1, 2.5, 4 }; struct P *xp = &x;
    void *args[] = { &xp };
    launch("k_stub", d3(1, 1, 1), d3(1, 1, 1), 0, args);
    printf("%g\n", x.v);
    return 0;
}
"#,
    );
    assert_eq!(r.stdout, "6.5\n");
}

/// Blocks with indices >= 2^21 take the general (non-versioned) copy of the body.
#[test]
fn vector_add_large_grid() {
    let m = vecadd_module();
    let r = compile_and_run(
        "vecadd_big",
        &m,
        r#"
void _Z6vecAddPKfS0_Pfi(void) {}
int main(void) {
    int n = (1 << 21) + 7;
    float *a = malloc(n * 4), *b = malloc(n * 4), *c = malloc(n * 4);
    for (int i = 0; i < n; i++) { a[i] = i & 1023; b[i] = 1; c[i] = -1; }
    void *args[] = { &a, &b, &c, &n };
    launch("_Z6vecAddPKfS0_Pfi", d3(n, 1, 1), d3(1, 1, 1), 0, args);
    int bad = 0;
    for (int i = 0; i < n; i++) if (c[i] != (float)((i & 1023) + 1)) bad++;
    printf("bad=%d\n", bad);
    return 0;
}
"#,
    );
    assert_eq!(r.stdout, "bad=0\n");
}

/// Values used in blocks other than their own (allowed where the definition dominates the
/// use), across a barrier too: the thread index and the block's segment pointer are
/// computed once before `__syncthreads()` and used after it with no local in between.
#[test]
fn values_across_blocks_and_barriers() {
    let mut m = Module::default();
    let s = add_global(&mut m, "s", Type::Array(Box::new(Type::I32), 64), AddressSpace::Shared, None, None);
    let mut b = FnBuilder::kernel("rev", "rev_stub");
    let pd = b.param("d", iptr());
    let t = tid_x(&mut b);
    let bid = b.special(SpecialReg::BlockIdx(Dim::X));
    let bid = b.cast(bid, Type::I32);
    let c64 = b.i32(64);
    let off = b.bin(BinaryOp::Mul, bid, c64);
    let d = b.load_local(pd);
    let dseg = b.ptr_add(d, off);
    let v = b.ptr_add(dseg, t);
    let v = b.load(v);
    let sa = b.global_addr(&m, s);
    let sa = b.decay(sa);
    let sp = b.ptr_add(sa, t);
    b.store(sp, v);
    b.sync();
    let c63 = b.i32(63);
    let j = b.bin(BinaryOp::Sub, c63, t);
    let sa2 = b.global_addr(&m, s);
    let sa2 = b.decay(sa2);
    let sp = b.ptr_add(sa2, j);
    let v = b.load(sp);
    let dp = b.ptr_add(dseg, t);
    b.store(dp, v);
    b.ret(None);
    add_function(&mut m, b.finish());
    assert!(cuprite_ir::verify::verify(&m).is_ok(), "{:?}", cuprite_ir::verify::verify(&m));
    let r = compile_and_run(
        "cross_block",
        &m,
        r#"
void rev_stub(void) {}
int main(void) {
    int *d = malloc(256 * 4);
    for (int i = 0; i < 256; i++) d[i] = i;
    void *args[] = { &d };
    launch("rev_stub", d3(4, 1, 1), d3(64, 1, 1), 0, args);
    int bad = 0;
    for (int i = 0; i < 256; i++) if (d[i] != (i / 64) * 64 + 63 - i % 64) bad++;
    printf("bad=%d d0=%d\n", bad, d[0]);
    return 0;
}
"#,
    );
    assert_eq!(r.stdout, "bad=0 d0=63\n");
}
