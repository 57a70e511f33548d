//! Calls in host code that nvcc rejects: a `__device__` function called from a host
//! function, `<<<>>>` on a function that is not a kernel, a kernel called without
//! `<<<>>>`. Without these checks such programs would build and trap at run time.
//!
//! Host code is not parsed, so the check is deliberately conservative: a name counts only
//! when every function declared with it has the same kind (no host overload, no member
//! of that name), the call is not qualified by an object or a class, and it is not in a
//! template (nvcc checks those per instantiation) or in a `__device__` lambda.

use super::scan::{Kind, Tokens};
use std::collections::HashMap;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FnKind {
    Kernel,
    Device,
    Host,
    HostDevice,
    /// A member function: its name may shadow anything, so the name is never checked.
    Member,
}

/// A function declaration the rewrite saw.
pub struct FnDecl {
    pub name: String,
    pub kind: FnKind,
    /// `{` and `}` of the body of a non-template host function.
    pub host_body: Option<(usize, usize)>,
}

#[derive(Debug)]
/// One misuse: the byte range of the callee's name in the host text, and the message.
pub struct Misuse {
    pub start: usize,
    pub end: usize,
    pub message: String,
}

/// Words after which `name(` is still a call (not a declaration of a variable `name`).
const CALL_AFTER_WORD: &[&str] = &["return", "else", "do", "throw", "case", "co_return"];

pub fn check(t: &Tokens, fns: &[FnDecl]) -> Vec<Misuse> {
    let mut kinds: HashMap<&str, Option<FnKind>> = HashMap::new();
    for f in fns {
        let entry = kinds.entry(f.name.as_str()).or_insert(Some(f.kind));
        if *entry != Some(f.kind) || f.kind == FnKind::Member {
            *entry = None;
        }
    }
    let mut out = Vec::new();
    for (f, (open, close)) in fns.iter().filter_map(|f| f.host_body.map(|b| (f, b))) {
        let mut k = open + 1;
        while k < close {
            let s = t.str(k);
            if t.toks[k].kind != Kind::Ident {
                k += 1;
                continue;
            }
            if matches!(s, "__device__" | "__global__") {
                // A device lambda in host code: its body is device code.
                k = (k..close).find(|&j| t.is(j, "{")).map_or(close, |j| t.matching(j) + 1);
                continue;
            }
            let kind = kinds.get(s).copied().flatten();
            if kind.is_none() || !called_plainly(t, k) {
                k += 1;
                continue;
            }
            let launched = t.is_triple(k + 1, "<");
            let called = t.is(k + 1, "(");
            let message = match (kind.unwrap(), launched, called) {
                (FnKind::Device, false, true) => Some(format!("calling a __device__ function(\"{s}\") from a __host__ function(\"{}\") is not allowed", f.name)),
                (FnKind::Device, true, _) => Some("a __device__ function call cannot be configured".to_string()),
                (FnKind::Host, true, _) => Some("a host function call cannot be configured".to_string()),
                (FnKind::Kernel, false, true) => Some("a __global__ function call must be configured".to_string()),
                _ => None,
            };
            if let Some(message) = message {
                out.push(Misuse { start: t.toks[k].start, end: t.toks[k].end, message });
            }
            k += 1;
        }
    }
    out
}

/// The name at `k` is a plain call's callee: not `obj.f`, `p->f`, `C::f`, nor a
/// declaration `T f(...)`.
fn called_plainly(t: &Tokens, k: usize) -> bool {
    if k == 0 {
        return true;
    }
    let prev = t.str(k - 1);
    match t.toks[k - 1].kind {
        Kind::Ident => CALL_AFTER_WORD.contains(&prev),
        Kind::Punct => !matches!(prev, "." | "->" | "::" | ">" | "~" | "&" | "*") || (matches!(prev, "&" | "*") && k >= 2 && t.toks[k - 2].kind == Kind::Punct && !t.is(k - 2, ")")),
        _ => false,
    }
}
