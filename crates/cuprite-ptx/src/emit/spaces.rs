//! Which pointers of a function certainly address global memory, so that accesses through
//! them are `ld.global`/`st.global` (as nvcc writes them) instead of generic ones, which
//! the GPU resolves at run time.
//!
//! A kernel's pointer parameters address global memory (CUDA gives a kernel no way to
//! receive a shared or local address), and so do `__device__` variables and what pointer
//! arithmetic, casts between pointers and selects derive from such pointers. A local
//! keeps the property while every value stored into it has it and its address is never
//! taken. The analysis starts from "every candidate is global" and removes what a
//! definition contradicts until nothing changes (the greatest fixed point), so loops
//! that advance a pointer keep it global.

use cuprite_ir::{AddressSpace, Function, FunctionKind, InstKind, Module, Type};

/// For each value of `f`, whether it is a pointer into global memory.
pub fn global_pointers(m: &Module, f: &Function) -> Vec<bool> {
    let kernel = matches!(f.kind, FunctionKind::Kernel { .. });
    let is_ptr = |t: &Type| matches!(t, Type::Ptr(_));
    let nlocals = f.locals.len();
    // Locals: candidates are pointer-typed, never address-taken, and (for parameters) a
    // kernel's; a non-parameter local must be stored to.
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
        if (param && !kernel) || (!param && !stored[i]) {
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
                InstKind::GlobalAddr(g) => m.global(*g).space == AddressSpace::Global && !m.global(*g).external,
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
