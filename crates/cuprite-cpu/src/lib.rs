//! CPU back-end: the SIMT-to-CPU transformation and C emission.
//!
//! `emit_c` turns a `cuprite_ir::Module` into one self-contained C file: the device ABI
//! header (verbatim), a prelude of helpers that keep CUDA's semantics, the module's
//! structs (with their layout checked by `_Static_assert`), its `__device__` and
//! `__constant__` variables, its device functions, one entry per kernel and the module
//! table that a constructor registers with the runtime.
//!
//! The shape of a kernel entry (DESIGN.md §3):
//! - device functions that contain `__syncthreads` (transitively) are inlined into the
//!   kernel (`inline.rs`); the others stay C functions taking a hidden
//!   `const __cuprite_tctx *` (thread/block coordinates, shared memory);
//! - the kernel's CFG is cut at its barriers into regions (`simt.rs`); the entry loops
//!   over its run of blocks, and runs each region as a loop over the block's threads
//!   (`z`, `y`, `x` nested, the `x` loop innermost so that the C compiler can vectorise
//!   it); after a region, every live thread must wait at the same barrier, which picks
//!   the next region; returned threads take no further part;
//! - a kernel with warp collectives (`Terminator::Warp`: shuffles, votes, …) is cut at
//!   those too, and runs under a general scheduler instead (`__cu_schedule` in
//!   `prelude.h`): each thread has a resume point in a per-thread `__cu_wslot`; the
//!   scheduler runs the region of the lowest ready thread for every thread resuming
//!   there, computes a collective warp by warp once the lanes its mask names are parked
//!   at it (or have returned), releases a barrier once every live thread waits at it,
//!   and so lets warps diverge from each other between barriers;
//! - locals live across a barrier (and, in kernels with barriers, address-taken locals)
//!   are kept in per-thread slots in `run->thread_slots`, one array per local over the
//!   block's threads; all other locals are plain C locals of the thread loop's body.

pub mod builder;
pub mod builtins;
pub mod cast;
mod const_fold;
mod emit;
mod fission;
mod guarded_index;
mod inline;
mod lane_disjoint;
mod lockstep;
mod range_guard;
mod simt;
mod split;
mod store_select;
mod stride_affine;
mod stride_loop;
mod thread_range;
mod thread_split;
mod webs;
mod uniformity;
#[cfg(test)]
mod test_support;

use cuprite_ir::Module;

#[derive(Clone, Debug, Default)]
pub struct EmitOptions {
    /// `-G`: `#line` directives pointing at the `.cu` source.
    pub line_directives: bool,
    /// The user's source file, for messages and the module table.
    pub source_name: String,
    /// Checking mode (`--sanitize`): instrument the module (`cuprite_ir::instrument`) and
    /// run every kernel in the general form, whose thread loops name the thread.
    pub checks: bool,
}

#[derive(Clone, Debug, PartialEq)]
pub struct BackendError {
    pub message: String,
    pub loc: Option<cuprite_ir::SrcLoc>,
}

impl std::fmt::Display for BackendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match &self.loc {
            Some(l) => write!(f, "{}:{}: {}", l.line, l.col, self.message),
            None => write!(f, "{}", self.message),
        }
    }
}

/// What a kernel needs on the device: the figures nvcc's `-Xptxas -v` reports that are
/// meaningful on the CPU, and what the compute capability's limits are checked against.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernelResources {
    /// Source name and the host stub's (mangled) symbol.
    pub name: String,
    pub symbol: String,
    pub static_shared_bytes: u64,
    pub local_bytes_per_thread: u64,
    pub uses_barriers: bool,
    /// Whether lanes of a warp communicate through memory without a barrier, so that the
    /// kernel runs its warps in lock step (see `lockstep.rs`).
    pub warp_lockstep: bool,
}

/// The generated C file and the kernels' resources.
pub struct Emitted {
    /// The C file (with the module table): self-contained, or the first of several
    /// translation units.
    pub c: String,
    /// The other translation units (`emit_units`): kernels the first one's table names.
    pub units: Vec<String>,
    pub kernels: Vec<KernelResources>,
}

/// Generates the C file for a module.
pub fn emit_c(module: &Module, opts: &EmitOptions) -> Result<String, Vec<BackendError>> {
    emit(module, opts).map(|e| e.c)
}

/// Generates the C file for a module, with the resources of each kernel.
pub fn emit(module: &Module, opts: &EmitOptions) -> Result<Emitted, Vec<BackendError>> {
    emit_units(module, opts, 1)
}

/// Generates the C for a module as at most `units` translation units (`split.rs`), so
/// that they can be compiled in parallel; one where the module cannot be split (a
/// function's address is taken) or has fewer than two kernels. Objects of several units
/// must be linked together (`ld -r`), their hidden symbols made local.
pub fn emit_units(module: &Module, opts: &EmitOptions, units: usize) -> Result<Emitted, Vec<BackendError>> {
    // The SIMT transformation keeps only locals live across cut points, and the passes
    // below assume block-local values: values that cross blocks go through locals.
    let mut block_local = module.clone();
    let demoted = block_local.functions.iter_mut().fold(false, |any, f| cuprite_ir::block_local::demote_cross_block_values(f) | any);
    let module = if demoted { &block_local } else { module };
    let errs = inline::check_module(module);
    if !errs.is_empty() {
        return Err(errs);
    }
    // Warp-synchronous memory accesses become lock-step points first, so that the
    // functions holding them are inlined into their kernels like barrier functions.
    let stepped = lockstep::insert_warp_steps(module);
    let module = stepped.as_ref().unwrap_or(module);
    // Checks go in after the lock-step points, which read the accesses unchecked.
    let checked = opts.checks.then(|| {
        let mut m = module.clone();
        cuprite_ir::instrument::instrument(&mut m);
        m
    });
    let module = checked.as_ref().unwrap_or(module);
    let bset = inline::barrier_functions(module);
    let errs = inline::check_barrier_calls(module, &bset);
    if !errs.is_empty() {
        return Err(errs);
    }
    let mut cx = emit::ModCx::new(module, opts, bset);
    let items = cx.emit_module();
    if !cx.errors.is_empty() {
        return Err(cx.errors);
    }
    let units = if split::splittable(module) { units } else { 1 };
    let mut texts = split::print_parts(&items, units);
    let c = texts.remove(0);
    Ok(Emitted { c, units: texts, kernels: cx.resources })
}

/// Flags the driver passes to the host C compiler for the generated file.
///
/// `opt_level` is the optimisation level for device code: nvcc optimises device code
/// even without `-O` (ptxas defaults to `-O3`), so the driver should pass 3 unless `-G`
/// asks for debuggable device code (0).
pub fn c_compiler_flags(opt_level: u8) -> Vec<String> {
    let mut v: Vec<String> = vec![
        // GNU C11: statement attributes, `__int128`, zero-length arrays.
        "-std=gnu11".into(),
        format!("-O{}", opt_level.min(3)),
        // Signed overflow wraps on the GPU: no UB for the optimiser to exploit.
        "-fwrapv".into(),
        // Device code reinterprets memory freely (e.g. `(float4 *)` over a `float *`).
        "-fno-strict-aliasing".into(),
        // nvcc decides multiply-add fusion; sema has already fused what it would.
        "-ffp-contract=off".into(),
        // errno is not observable from device code; lets sqrtf etc. become instructions.
        "-fno-math-errno".into(),
        // There are no FP traps on the GPU: lets the vectoriser if-convert FP code.
        "-fno-trapping-math".into(),
        // Thread loops carry `#pragma omp simd` (threads between barriers are
        // independent); this honours the pragma without OpenMP's runtime.
        "-fopenmp-simd".into(),
        // GCC 12.2's loop distribution (on at -O3) miscompiles thread loops that store
        // through a pointer the loop cannot disambiguate (the fault-location store)
        // before a value stored to and reloaded from a per-thread slot: the reload
        // reads the slot's earlier value (`tests/conformance/rvalue_references.cu`
        // reads `a.v` after a move constructor wrote it; reduced in
        // docs/ARCHITECTURE.md; GCC 13.3 is correct). Off for every GCC: thread loops
        // gain little from distribution.
        "-fno-tree-loop-distribution".into(),
        // Usable in PIE executables and in shared objects (run-time compilation).
        "-fPIC".into(),
        // Warnings about generated code are not the user's to act on.
        "-w".into(),
    ];
    if opt_level >= 2 {
        // The device object runs where it is built (like a JIT'd fatbinary): use the
        // machine's full SIMD width for thread loops.
        v.push("-march=native".into());
    }
    if opt_level == 0 {
        v.push("-g".into());
    }
    v
}

/// For a module image (`-ptx`, NVRTC, a loaded PTX module): defines, in the generated C,
/// each kernel's and device variable's lowered name, one byte each. These are the
/// addresses the module's table registers them by and `cuModuleGetFunction`/`GetGlobal`
/// find them at (with `dlsym`).
pub fn module_symbol_definitions(module: &Module) -> String {
    let mut names: Vec<&str> = Vec::new();
    for f in &module.functions {
        if let cuprite_ir::FunctionKind::Kernel { stub_symbol, .. } = &f.kind {
            names.push(stub_symbol);
        }
    }
    for g in module.globals.iter().filter(|g| !g.external) {
        if let Some(s) = &g.host_symbol {
            names.push(s);
        }
    }
    let mut out = String::from("\n/* the module's symbols: one byte per kernel and device variable, named as lowered */\n");
    for n in names {
        out.push_str(&format!(
            "__asm__(\".pushsection .data.cuprite_module_symbols,\\\"aw\\\"\\n.globl {n}\\n.type {n}, @object\\n.size {n}, 1\\n{n}:\\n.byte 0\\n.popsection\\n\");\n"
        ));
    }
    out
}
