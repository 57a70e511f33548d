//! Which pointers of a function certainly address global or shared memory, so that
//! accesses through them are `ld.global`/`st.global` or `ld.shared`/`st.shared` (as nvcc
//! writes them) instead of generic ones, which the GPU resolves at run time and which
//! keep ptxas from telling shared accesses apart from global ones.
//!
//! A kernel's pointer parameters address global memory (CUDA gives a kernel no way to
//! receive a shared or local address), and so do `__device__` variables; `__shared__`
//! variables (static or the dynamic `extern __shared__` array) address shared memory.
//! What pointer arithmetic, casts between pointers and selects derive from such a
//! pointer keeps its space. A local keeps the property while every value stored into it
//! has it and its address is never taken. Each space is its own analysis that starts
//! from "every candidate is in it" and removes what a definition contradicts until
//! nothing changes (the greatest fixed point), so loops that advance a pointer keep it.

use cuprite_ir::{AddressSpace, Function, FunctionKind, GlobalId, InstKind, Module, Type};

/// The state space every access through a value may name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PtrSpace {
    Generic,
    Global,
    Shared,
}

impl PtrSpace {
    /// The `ld`/`st` state-space suffix and the `cvta.to` space that goes with it.
    pub fn suffix(self) -> Option<(&'static str, &'static str)> {
        match self {
            PtrSpace::Generic => None,
            PtrSpace::Global => Some((".global", "global")),
            PtrSpace::Shared => Some((".shared", "shared")),
        }
    }
}

/// For each value of `f`, the state space it certainly points into.
pub fn pointer_spaces(m: &Module, f: &Function) -> Vec<PtrSpace> {
    let kernel = matches!(f.kind, FunctionKind::Kernel { .. });
    let global_root = |g: GlobalId| m.global(g).space == AddressSpace::Global && !m.global(g).external;
    let shared_root = |g: GlobalId| m.global(g).space == AddressSpace::Shared;
    let global = points_into(f, kernel, &global_root);
    let shared = points_into(f, false, &shared_root);
    global
        .iter()
        .zip(&shared)
        .map(|(g, s)| match (g, s) {
            (true, false) => PtrSpace::Global,
            (false, true) => PtrSpace::Shared,
            _ => PtrSpace::Generic,
        })
        .collect()
}

/// For each value of `f`, whether it certainly points where `root` variables (and, with
/// `params`, the function's pointer parameters) do.
fn points_into(f: &Function, params: bool, root: &dyn Fn(GlobalId) -> bool) -> Vec<bool> {
    let is_ptr = |t: &Type| matches!(t, Type::Ptr(_));
    let nlocals = f.locals.len();
    // Locals: candidates are pointer-typed and never address-taken; a parameter only
    // where parameters are roots, any other local only if it is stored to.
    let mut local_ok: Vec<bool> = f.locals.iter().map(|l| is_ptr(&l.ty)).collect();
    let mut stored = vec![false; nlocals];
    for inst in f.blocks.iter().flat_map(|b| &b.insts) {
        match &inst.kind {
            InstKind::LocalAddr(l) => local_ok[l.index()] = false,
            InstKind::StoreLocal(l, _) => stored[l.index()] = true,
            _ => {}
        }
    }
    for (i, ok) in local_ok.iter_mut().enumerate() {
        let param = f.params.iter().any(|p| p.index() == i);
        if (param && !params) || (!param && !stored[i]) {
            *ok = false;
        }
    }
    let mut val: Vec<bool> = f.values.iter().map(is_ptr).collect();
    loop {
        let mut changed = false;
        for inst in f.blocks.iter().flat_map(|b| &b.insts) {
            let Some(r) = inst.result else {
                if let InstKind::StoreLocal(l, v) = &inst.kind {
                    if local_ok[l.index()] && !val[v.index()] {
                        local_ok[l.index()] = false;
                        changed = true;
                    }
                }
                continue;
            };
            if !val[r.index()] {
                continue;
            }
            let keep = match &inst.kind {
                InstKind::LoadLocal(l) => local_ok[l.index()],
                InstKind::PtrAdd { base, .. } | InstKind::FieldAddr { base, .. } => val[base.index()],
                InstKind::Cast(v) => is_ptr(f.value_type(*v)) && val[v.index()],
                InstKind::Select(_, a, b) => val[a.index()] && val[b.index()],
                InstKind::GlobalAddr(g) => root(*g),
                _ => false,
            };
            if !keep {
                val[r.index()] = false;
                changed = true;
            }
        }
        if !changed {
            return val;
        }
    }
}
