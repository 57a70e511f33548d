//! `mbarrier.*` (asynchronous barriers in shared memory), the copies that arrive on them
//! (`cp.async.mbarrier.arrive`, one-dimensional `cp.async.bulk`), and `elect.sync`.
//!
//! An mbarrier is an opaque 64-bit word; Cuprite's layout (PTX leaves it to the
//! implementation, programs only pass it to these instructions):
//! - bits 0..20: arrivals the current phase still expects (pending count),
//! - bits 20..40: the arrival count each new phase starts with (expected count),
//! - bits 40..63: the transaction count (bytes still expected, two's complement),
//! - bit 63: the current phase's parity.
//!
//! A phase completes when its pending count and its transaction count are both zero:
//! the parity flips and the pending count starts again at the expected count. The
//! state an arrive returns is the word before the arrival, so a wait on it compares
//! parities. Each operation is an atomic read-modify-write (a compare-and-swap loop),
//! relaxed, with a fence before an arrival (release) and after a wait's read (acquire),
//! as PTX's default orders say (checking mode's racecheck reads the order there); a
//! wait for a phase that has not completed yields (`WarpOp::Yield`) so that the threads
//! it waits for, which the CPU device runs on the same core, get to arrive.

use super::body::Lowerer;
use super::memory::space_of;
use super::{lerr, LResult};
use crate::isa::{ScalarType, StateSpace};
use crate::parse::{Inst, Operand};
use cuprite_ir::{AtomicOp, BinaryOp as B, Builtin, Scope, InstKind as IK, Terminator, Type, ValueId, VoteKind, WarpOp};

const PENDING_BITS: i64 = 20;
const COUNT_MASK: i64 = (1 << PENDING_BITS) - 1;
const EXPECTED_SHIFT: i64 = 20;
const TX_SHIFT: i64 = 40;
const TX_MASK: i64 = (1 << 23) - 1;
const PARITY_SHIFT: i64 = 63;

/// How an arrival changes the barrier.
struct Arrival {
    /// Arrivals counted (`count` operand, default 1).
    count: Option<ValueId>,
    /// `arrive_drop`: also lowers the expected count of this and later phases.
    drop: bool,
    /// `expect_tx`/`complete_tx`: bytes added to (or, negated, taken from) the
    /// transaction count before the arrival.
    tx: Option<(ValueId, bool)>,
    /// `false` for `expect_tx`/`complete_tx` alone, which do not arrive.
    arrives: bool,
}

impl Lowerer<'_> {
    /// The address of the barrier operand: shared window offsets for `.shared{::cta}`
    /// and `.shared::cluster` (a launch without clusters is a cluster of one block, whose
    /// shared::cluster addresses are its own), host addresses for generic ones.
    fn mbar_address(&mut self, op: &Operand, i: &Inst) -> LResult<ValueId> {
        let space = match space_of(i) {
            StateSpace::SharedCluster | StateSpace::Shared => StateSpace::Shared,
            StateSpace::Generic => StateSpace::Generic,
            s => return lerr(i.loc, format!("'{}': an mbarrier in the .{} state space is not valid", i.name(), s.name())),
        };
        let a = self.address(op, space, i)?;
        Ok(self.typed_ptr(a, &Type::U64))
    }

    fn mbar_mods(&self, i: &Inst, extra: &[&str]) -> LResult<()> {
        const OK: &[&str] = &["shared", "shared::cta", "shared::cluster", "relaxed", "acquire", "release", "cta", "cluster", "b64"];
        for m in &i.mods {
            if !OK.contains(&m.as_str()) && !extra.contains(&m.as_str()) {
                return lerr(i.loc, format!("'{}': the modifier '.{m}' is not supported yet", i.name()));
            }
        }
        Ok(())
    }

    /// `(word >> shift) & mask` as U64.
    fn field(&mut self, w: ValueId, shift: i64, mask: i64) -> ValueId {
        let s = self.bin_k(B::Shr, w, shift);
        self.bin_k(B::And, s, mask)
    }

    pub(crate) fn mbarrier(&mut self, i: &Inst) -> LResult<()> {
        let op = i.mods.first().map(String::as_str).unwrap_or("");
        let u64t = Type::U64;
        match op {
            "init" => {
                self.mbar_mods(i, &["init"])?;
                self.nops(i, 2)?;
                let p = self.mbar_address(&i.operands[0], i)?;
                let c = self.read(&i.operands[1], ScalarType::U32, i.loc)?;
                let c = self.cast(c, &u64t);
                let c = self.bin_k(B::And, c, COUNT_MASK);
                let e = self.bin_k(B::Shl, c, EXPECTED_SHIFT);
                let w = self.bin(B::Or, c, e);
                self.emit(IK::CallBuiltin { builtin: Builtin::Atomic { op: AtomicOp::Exch, scope: Scope::Block }, args: vec![p, w] }, Type::U64);
                Ok(())
            }
            "inval" => {
                // The word becomes ordinary memory again; nothing to undo.
                self.mbar_mods(i, &["inval"])?;
                self.nops(i, 1)?;
                self.mbar_address(&i.operands[0], i)?;
                Ok(())
            }
            "expect_tx" | "complete_tx" => {
                self.mbar_mods(i, &[op])?;
                self.nops(i, 2)?;
                let p = self.mbar_address(&i.operands[0], i)?;
                let n = self.read(&i.operands[1], ScalarType::U32, i.loc)?;
                let n = self.cast(n, &u64t);
                self.mbar_update(p, Arrival { count: None, drop: false, tx: Some((n, op == "complete_tx")), arrives: false });
                Ok(())
            }
            "arrive" | "arrive_drop" => self.mbar_arrive(i, op == "arrive_drop"),
            "test_wait" | "try_wait" => self.mbar_wait(i, op == "try_wait"),
            "pending_count" => {
                self.mbar_mods(i, &["pending_count"])?;
                self.nops(i, 2)?;
                let w = self.read(&i.operands[1], ScalarType::B64, i.loc)?;
                let c = self.field(w, 0, COUNT_MASK);
                let c = self.cast(c, &Type::U32);
                self.write(&i.operands[0], c, i.loc)
            }
            _ => lerr(i.loc, format!("the PTX instruction '{}' is not supported yet", i.name())),
        }
    }

    /// `mbarrier.arrive{_drop}{.expect_tx|.noComplete} state, [addr]{, count|txCount}`.
    fn mbar_arrive(&mut self, i: &Inst, drop: bool) -> LResult<()> {
        self.mbar_mods(i, &["arrive", "arrive_drop", "expect_tx", "noComplete"])?;
        if i.operands.len() < 2 || i.operands.len() > 3 {
            return lerr(i.loc, format!("'{}' takes a state, an address and an optional count", i.name()));
        }
        let p = self.mbar_address(&i.operands[1], i)?;
        let extra = match i.operands.get(2) {
            Some(o) => {
                let v = self.read(o, ScalarType::U32, i.loc)?;
                Some(self.cast(v, &Type::U64))
            }
            None => None,
        };
        let arrival = if i.has("expect_tx") {
            let Some(tx) = extra else { return lerr(i.loc, format!("'{}' needs a transaction count", i.name())) };
            Arrival { count: None, drop, tx: Some((tx, false)), arrives: true }
        } else {
            // `.noComplete` promises that this arrival does not complete the phase; an
            // arrival that does is undefined behaviour, so counting it as usual is fine.
            Arrival { count: extra, drop, tx: None, arrives: true }
        };
        let old = self.mbar_update(p, arrival);
        self.write(&i.operands[0], old, i.loc)
    }

    /// The barrier's word, read with an atomic (`or 0`): a plain or volatile load would
    /// be a point where the CPU back-end steps a warp's lanes together (`lockstep`), and
    /// an mbarrier's operations are atomic on the GPU.
    fn mbar_read(&mut self, p: ValueId) -> ValueId {
        let z = self.int(0, &Type::U64);
        self.emit(IK::CallBuiltin { builtin: Builtin::Atomic { op: AtomicOp::Or, scope: Scope::Block }, args: vec![p, z] }, Type::U64)
    }

    /// Applies an arrival or a transaction-count change to the barrier at `p` atomically
    /// (a compare-and-swap loop); returns the word before it.
    fn mbar_update(&mut self, p: ValueId, a: Arrival) -> ValueId {
        // An arrival (or a completed transaction) releases the thread's earlier accesses
        // (`.release` is the default); the atomics below are relaxed.
        self.emit_void(IK::CallBuiltin { builtin: Builtin::Fence(Scope::Block), args: vec![] });
        let cur = self.temp(Type::U64);
        let before = self.temp(Type::U64);
        let w0 = self.mbar_read(p);
        self.store_local(cur, w0);
        let retry = self.s.new_block();
        let done = self.s.new_block();
        self.s.terminate(Terminator::Jump(retry));
        self.s.switch_to(retry);
        let w = self.load_local(cur);
        self.store_local(before, w);
        let nw = self.mbar_next(w, &a);
        let seen = self.emit(IK::CallBuiltin { builtin: Builtin::Atomic { op: AtomicOp::Cas, scope: Scope::Block }, args: vec![p, w, nw] }, Type::U64);
        self.store_local(cur, seen);
        let ok = self.bin(B::Eq, seen, w);
        self.s.terminate(Terminator::Branch { cond: ok, then: done, else_: retry });
        self.s.switch_to(done);
        self.load_local(before)
    }

    /// The barrier's word after an arrival or a transaction-count change.
    fn mbar_next(&mut self, w: ValueId, a: &Arrival) -> ValueId {
        let pending = self.field(w, 0, COUNT_MASK);
        let mut expected = self.field(w, EXPECTED_SHIFT, COUNT_MASK);
        let mut tx = self.field(w, TX_SHIFT, TX_MASK);
        let parity = self.bin_k(B::Shr, w, PARITY_SHIFT);
        if let Some((n, complete)) = a.tx {
            tx = self.bin(if complete { B::Sub } else { B::Add }, tx, n);
            tx = self.bin_k(B::And, tx, TX_MASK);
        }
        let count = match a.count {
            Some(c) => c,
            None => self.int(1, &Type::U64),
        };
        let pending = if a.arrives {
            if a.drop {
                expected = self.bin(B::Sub, expected, count);
                expected = self.bin_k(B::And, expected, COUNT_MASK);
            }
            let p2 = self.bin(B::Sub, pending, count);
            self.bin_k(B::And, p2, COUNT_MASK)
        } else {
            pending
        };
        // The phase completes when nothing more is expected of it.
        let z = self.int(0, &Type::U64);
        let no_pending = self.bin(B::Eq, pending, z);
        let no_tx = self.bin(B::Eq, tx, z);
        let f = self.bool_const(false);
        let done = self.select(no_pending, no_tx, f);
        let pending = self.select(done, expected, pending);
        let flip = self.cast(done, &Type::U64);
        let parity = self.bin(B::Xor, parity, flip);
        let e = self.bin_k(B::Shl, expected, EXPECTED_SHIFT);
        let t = self.bin_k(B::Shl, tx, TX_SHIFT);
        let par = self.bin_k(B::Shl, parity, PARITY_SHIFT);
        let nw = self.bin(B::Or, pending, e);
        let nw = self.bin(B::Or, nw, t);
        self.bin(B::Or, nw, par)
    }

    /// Whether the phase a wait names has completed: `.parity` names it by the parity of
    /// the phase (complete once the current parity differs), otherwise by a state an
    /// arrive returned (complete once the current parity differs from the state's).
    fn mbar_complete(&mut self, p: ValueId, want: ValueId) -> ValueId {
        let w = self.mbar_read(p);
        // A wait acquires what the phase's arrivals released (`.acquire` is the default).
        self.emit_void(IK::CallBuiltin { builtin: Builtin::Fence(Scope::Block), args: vec![] });
        let cur = self.bin_k(B::Shr, w, PARITY_SHIFT);
        self.bin(B::Ne, cur, want)
    }

    /// `mbarrier.test_wait{.parity} p, [addr], state|parity` tests once; a thread that
    /// finds the phase incomplete yields once and tests again, so that a loop around it
    /// lets the other threads arrive. `try_wait` may suspend the thread until the phase
    /// completes: it yields until then.
    fn mbar_wait(&mut self, i: &Inst, blocking: bool) -> LResult<()> {
        self.mbar_mods(i, &["test_wait", "try_wait", "parity"])?;
        if i.operands.len() < 3 || i.operands.len() > 4 || (!blocking && i.operands.len() == 4) {
            return lerr(i.loc, format!("'{}' takes a predicate, an address, a state or parity{}", i.name(), if blocking { " and an optional time limit" } else { "" }));
        }
        let p = self.mbar_address(&i.operands[1], i)?;
        let want = if i.has("parity") {
            let v = self.read(&i.operands[2], ScalarType::U32, i.loc)?;
            let v = self.cast(v, &Type::U64);
            self.bin_k(B::And, v, 1)
        } else {
            let v = self.read(&i.operands[2], ScalarType::B64, i.loc)?;
            self.bin_k(B::Shr, v, PARITY_SHIFT)
        };
        if blocking {
            let check = self.s.new_block();
            let wait = self.s.new_block();
            let done = self.s.new_block();
            self.s.terminate(Terminator::Jump(check));
            self.s.switch_to(check);
            let c = self.mbar_complete(p, want);
            self.s.terminate(Terminator::Branch { cond: c, then: done, else_: wait });
            self.s.switch_to(wait);
            self.s.terminate(Terminator::Warp { op: WarpOp::Yield, args: vec![], results: vec![], next: check });
            self.s.switch_to(done);
            let t = self.bool_const(true);
            return self.write(&i.operands[0], t, i.loc);
        }
        let res = self.temp(Type::Bool);
        let c = self.mbar_complete(p, want);
        self.store_local(res, c);
        let wait = self.s.new_block();
        let again = self.s.new_block();
        let done = self.s.new_block();
        self.s.terminate(Terminator::Branch { cond: c, then: done, else_: wait });
        self.s.switch_to(wait);
        self.s.terminate(Terminator::Warp { op: WarpOp::Yield, args: vec![], results: vec![], next: again });
        self.s.switch_to(again);
        let c2 = self.mbar_complete(p, want);
        self.store_local(res, c2);
        self.s.terminate(Terminator::Jump(done));
        self.s.switch_to(done);
        let v = self.load_local(res);
        self.write(&i.operands[0], v, i.loc)
    }

    /// `cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]`: an arrival once the
    /// thread's earlier `cp.async` copies are done, which they are (they copy at issue).
    /// Without `.noinc` the pending count is raised by one first, so the two cancel.
    pub(crate) fn cp_async_mbarrier_arrive(&mut self, i: &Inst) -> LResult<()> {
        const OK: &[&str] = &["async", "mbarrier", "arrive", "noinc", "shared", "shared::cta", "b64"];
        if let Some(m) = i.mods.iter().find(|m| !OK.contains(&m.as_str())) {
            return lerr(i.loc, format!("'{}': the modifier '.{m}' is not supported yet", i.name()));
        }
        self.nops(i, 1)?;
        let p = self.mbar_address(&i.operands[0], i)?;
        if i.has("noinc") {
            self.mbar_update(p, Arrival { count: None, drop: false, tx: None, arrives: true });
        }
        Ok(())
    }

    /// One-dimensional bulk copies (`cp.async.bulk`), done at issue:
    /// - `.shared::cluster.global.mbarrier::complete_tx::bytes [dst], [src], size, [mbar]`
    ///   copies and then completes `size` bytes of the barrier's transaction count;
    /// - `.global.shared::cta.bulk_group [dst], [src], size` copies shared to global;
    /// - `commit_group` and `wait_group{.read} N` have nothing left to wait for;
    /// - `prefetch.L2` is a hint.
    /// Tensor copies (`cp.async.bulk.tensor`), multicast and reductions are refused.
    pub(crate) fn cp_async_bulk(&mut self, i: &Inst) -> LResult<()> {
        const OK: &[&str] = &[
            "async", "bulk", "shared::cluster", "shared::cta", "shared", "global", "mbarrier::complete_tx::bytes", "bulk_group", "commit_group",
            "wait_group", "read", "prefetch", "L2",
        ];
        if let Some(m) = i.mods.iter().find(|m| !OK.contains(&m.as_str())) {
            let what = if m == "tensor" { " (tensor copies)" } else { "" };
            return lerr(i.loc, format!("the PTX instruction '{}'{what} is not supported yet", i.name()));
        }
        if i.has("commit_group") || i.has("wait_group") || i.has("prefetch") {
            return Ok(());
        }
        self.nops(i, if i.has("mbarrier::complete_tx::bytes") { 4 } else { 3 })?;
        // The destination is the first state space named, the source the second.
        let spaces: Vec<StateSpace> = i.mods.iter().filter_map(|m| match m.as_str() {
            "shared::cluster" | "shared::cta" | "shared" => Some(StateSpace::Shared),
            "global" => Some(StateSpace::Global),
            _ => None,
        }).collect();
        if spaces.len() != 2 {
            return lerr(i.loc, format!("'{}' needs a destination and a source state space", i.name()));
        }
        let dst = self.address(&i.operands[0], spaces[0], i)?;
        let src = self.address(&i.operands[1], spaces[1], i)?;
        let n = self.read(&i.operands[2], ScalarType::U32, i.loc)?;
        let n = self.cast(n, &Type::U64);
        let vp = Type::Void.ptr_to();
        let d = self.emit(IK::Cast(dst), vp.clone());
        let s = self.emit(IK::Cast(src), vp.clone());
        self.emit(IK::CallBuiltin { builtin: Builtin::Memcpy, args: vec![d, s, n] }, vp);
        if i.has("mbarrier::complete_tx::bytes") {
            let p = self.mbar_address(&i.operands[3], i)?;
            self.mbar_update(p, Arrival { count: None, drop: false, tx: Some((n, true)), arrives: false });
        }
        Ok(())
    }

    /// `elect.sync d|p, membermask`: the lowest lane of `membermask` (all of which execute
    /// it together) is elected; `d` is its lane number, `p` true in it alone.
    pub(crate) fn elect(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["sync"])?;
        self.nops(i, 2)?;
        let Operand::Pair(d, pd) = &i.operands[0] else { return lerr(i.loc, format!("'{}' writes d|p", i.name())) };
        let m = self.read(&i.operands[1], ScalarType::U32, i.loc)?;
        let t = self.bool_const(true);
        let res = self.temp(Type::U32);
        let next = self.s.new_block();
        self.s.terminate(Terminator::Warp { op: WarpOp::Vote(VoteKind::Ballot), args: vec![m, t], results: vec![res], next });
        self.s.switch_to(next);
        let ballot = self.load_local(res);
        // The lowest set bit's position: the population count of the bits below it.
        let neg = self.k_bin(B::Sub, 0, ballot);
        let low = self.bin(B::And, ballot, neg);
        let below = self.bin_k(B::Sub, low, 1);
        let leader = self.math(cuprite_ir::MathFn::Popc, vec![below], Type::I32);
        let leader = self.cast(leader, &Type::U32);
        let lane = self.emit(IK::Special(cuprite_ir::SpecialReg::LaneId), Type::U32);
        let lane = self.cast(lane, &Type::U32);
        let me = self.bin(B::Eq, lane, leader);
        self.write(d, leader, i.loc)?;
        self.write(pd, me, i.loc)
    }

    /// `nanosleep.u32 t`: the thread lets the others of its block run (a spin-wait with a
    /// back-off must let the thread it waits for make progress on the CPU).
    pub(crate) fn nanosleep(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &[])?;
        self.nops(i, 1)?;
        self.read(&i.operands[0], ScalarType::U32, i.loc)?;
        let next = self.s.new_block();
        self.s.terminate(Terminator::Warp { op: WarpOp::Yield, args: vec![], results: vec![], next });
        self.s.switch_to(next);
        Ok(())
    }
}
