//! The grid-wide barrier (`cooperative_groups::grid_group::sync`) of our own.
//!
//! CUDA's is a library routine over a workspace the driver gives cooperative launches;
//! ours is a counter and a generation in a module variable, `__cuprite_grid_state`
//! (`{cooperative, arrived, generation, unused}`, `u32`s). The runtime's GPU device sets
//! `cooperative` around each cooperative launch of the module's kernels
//! (`cuLaunchCooperativeKernel`, which guarantees that all blocks are resident, so
//! spinning is safe); a barrier in a kernel launched otherwise traps, which the program
//! sees as `cudaErrorLaunchFailure`, as under CUDA. One thread per block arrives: it
//! reads the generation, adds itself to the count (fenced both ways), and the last block
//! to arrive resets the count and bumps the generation, which the others wait for.

use super::function::Fx;
use super::types::Class;

/// The module variable the barrier works on (declared once per module that has one).
pub const STATE_DECLARATION: &str = ".visible .global .align 4 .u32 __cuprite_grid_state[4];\n\n";

impl<'a> Fx<'a> {
    pub fn grid_barrier(&mut self) {
        let (t, u, n, gen, arrived, now) = (
            self.tmp(Class::B32),
            self.tmp(Class::B32),
            self.tmp(Class::B32),
            self.tmp(Class::B32),
            self.tmp(Class::B32),
            self.tmp(Class::B32),
        );
        let (p, a) = (self.tmp(Class::Pred), self.tmp(Class::B64));
        let (skip, wait, done) = (self.label(), self.label(), self.label());
        self.emit("bar.sync 0");
        // Thread (0, 0, 0) of each block arrives for it.
        self.emit(format!("mov.u32 {t}, %tid.x"));
        self.emit(format!("mov.u32 {u}, %tid.y"));
        self.emit(format!("or.b32 {t}, {t}, {u}"));
        self.emit(format!("mov.u32 {u}, %tid.z"));
        self.emit(format!("or.b32 {t}, {t}, {u}"));
        self.emit(format!("setp.ne.u32 {p}, {t}, 0"));
        self.emit(format!("@{p} bra {skip}"));
        self.emit(format!("mov.u64 {a}, __cuprite_grid_state"));
        self.emit(format!("ld.volatile.global.u32 {t}, [{a}]"));
        self.emit(format!("setp.eq.u32 {p}, {t}, 0"));
        self.emit(format!("@{p} trap"));
        self.emit(format!("mov.u32 {n}, %nctaid.x"));
        self.emit(format!("mov.u32 {u}, %nctaid.y"));
        self.emit(format!("mul.lo.u32 {n}, {n}, {u}"));
        self.emit(format!("mov.u32 {u}, %nctaid.z"));
        self.emit(format!("mul.lo.u32 {n}, {n}, {u}"));
        self.emit(format!("ld.volatile.global.u32 {gen}, [{a}+8]"));
        // The block's writes, and the generation read, before its arrival.
        self.emit("membar.gl");
        self.emit(format!("atom.global.add.u32 {arrived}, [{a}+4], 1"));
        self.emit(format!("add.u32 {arrived}, {arrived}, 1"));
        self.emit(format!("setp.ne.u32 {p}, {arrived}, {n}"));
        self.emit(format!("@{p} bra {wait}"));
        self.emit(format!("st.volatile.global.u32 [{a}+4], 0"));
        self.emit("membar.gl");
        self.emit(format!("add.u32 {now}, {gen}, 1"));
        self.emit(format!("st.volatile.global.u32 [{a}+8], {now}"));
        self.emit(format!("bra.uni {done}"));
        self.place_label(&wait);
        self.emit("nanosleep.u32 32");
        self.emit(format!("ld.volatile.global.u32 {now}, [{a}+8]"));
        self.emit(format!("setp.eq.u32 {p}, {now}, {gen}"));
        self.emit(format!("@{p} bra {wait}"));
        self.place_label(&done);
        // The other blocks' writes before this block goes on.
        self.emit("membar.gl");
        self.place_label(&skip);
        self.emit("bar.sync 0");
    }
}
