//! Module-scope variables: `__device__` (`.global`), `__constant__` (`.const`),
//! `__shared__` (`.shared`, `extern` ones as the launch's dynamic shared memory), and
//! the string literals device code names.

use super::{EmitError, Names};
use cuprite_ir::{AddressSpace, Const, Global, Init, Module, Type};
use std::fmt::Write;

/// One piece of an initializer laid out in memory.
enum Piece {
    Bytes(Vec<u8>),
    /// An 8-byte address: a variable's generic address plus an offset, or a function.
    Addr(String),
}

pub fn space_name(space: AddressSpace) -> &'static str {
    match space {
        AddressSpace::Global => "global",
        AddressSpace::Constant => "const",
        AddressSpace::Shared => "shared",
    }
}

/// Whether `init` is a `__managed__` variable's cell: `{&self + 16, &self + 16 + size}`.
fn is_managed_cell(index: usize, init: &Init) -> bool {
    match init {
        Init::Aggregate(items) if items.len() == 2 => {
            matches!(items[0], Init::GlobalAddr { global, offset: 16 } if global.index() == index)
                && matches!(items[1], Init::GlobalAddr { global, .. } if global.index() == index)
        }
        _ => false,
    }
}

/// The declaration of one variable.
pub fn declare(m: &Module, names: &Names, index: usize, g: &Global) -> Result<String, EmitError> {
    let (size, natural) = m.layout(&g.ty);
    let align = g.align.unwrap_or(natural).max(natural).max(1);
    let name = &names.globals[index];
    let space = space_name(g.space);
    if g.dynamic_shared {
        return Ok(format!(".extern .shared .align {} .b8 {name}[];\n", align.max(16)));
    }
    if g.external {
        return Ok(format!(".extern .{space} .align {align} .b8 {name}[{}];\n", size.max(1)));
    }
    // Only variables the host refers to (by a shadow) are visible outside the module.
    let vis = if g.space == AddressSpace::Shared || g.host_symbol.is_none() { "" } else { ".visible " };
    let size = size.max(1);
    let Some(init) = &g.init else {
        return Ok(format!("{vis}.{space} .align {align} .b8 {name}[{size}];\n"));
    };
    if is_managed_cell(index, init) {
        // A __managed__ variable's cell ({begin, end} of its storage, cuprite_abi.h): the
        // GPU device points it at the host's object when it loads the module.
        return Ok(format!("// __managed__ '{}': the runtime fills in its cell\n{vis}.{space} .align {align} .b8 {name}[{size}];\n", g.name));
    }
    if g.space == AddressSpace::Shared {
        return Err(EmitError::at(m, g.loc, format!("__shared__ variable '{}' has an initializer, which CUDA does not allow", g.name)));
    }
    let mut pieces = Vec::new();
    let mut bytes = vec![0u8; size as usize];
    let mut addrs: Vec<(u64, String)> = Vec::new();
    lay_out(m, names, &g.ty, init, 0, &mut bytes, &mut addrs).map_err(|e| EmitError::at(m, g.loc, format!("initializer of '{}': {e}", g.name)))?;
    if addrs.is_empty() {
        let list: Vec<String> = bytes.iter().map(|b| b.to_string()).collect();
        return Ok(format!("{vis}.{space} .align {align} .b8 {name}[{size}] = {{{}}};\n", list.join(", ")));
    }
    // With addresses: 64-bit words (pointers in device data are 8-aligned).
    if size % 8 != 0 || align < 8 || addrs.iter().any(|(o, _)| o % 8 != 0) {
        return Err(EmitError::at(m, g.loc, format!("initializer of '{}': an address at an offset that is not a multiple of 8 is not supported by the PTX back-end", g.name)));
    }
    addrs.sort_by_key(|(o, _)| *o);
    let mut at = 0u64;
    for (off, a) in addrs {
        if off > at {
            pieces.push(Piece::Bytes(bytes[at as usize..off as usize].to_vec()));
        }
        pieces.push(Piece::Addr(a));
        at = off + 8;
    }
    if at < size {
        pieces.push(Piece::Bytes(bytes[at as usize..].to_vec()));
    }
    let mut words = Vec::new();
    for p in pieces {
        match p {
            Piece::Addr(a) => words.push(a),
            Piece::Bytes(b) => {
                for w in b.chunks(8) {
                    let mut x = [0u8; 8];
                    x[..w.len()].copy_from_slice(w);
                    words.push(u64::from_le_bytes(x).to_string());
                }
            }
        }
    }
    Ok(format!("{vis}.{space} .align {align} .u64 {name}[{}] = {{{}}};\n", words.len(), words.join(", ")))
}

/// Writes `init` for a value of type `ty` at byte `off`.
fn lay_out(m: &Module, names: &Names, ty: &Type, init: &Init, off: u64, bytes: &mut [u8], addrs: &mut Vec<(u64, String)>) -> Result<(), String> {
    match init {
        Init::Zero => Ok(()),
        Init::Scalar(c) => {
            let raw: Vec<u8> = match (c, ty) {
                (Const::Bool(b), _) => vec![*b as u8],
                (Const::Int(v, _), t) => {
                    let n = t.scalar_size().unwrap_or(8) as usize;
                    v.to_le_bytes()[..n].to_vec()
                }
                (Const::F32(x), _) => x.to_le_bytes().to_vec(),
                (Const::F64(x), _) => x.to_le_bytes().to_vec(),
                (Const::Null(_), _) => vec![0; 8],
                (Const::Str(s), _) => {
                    addrs.push((off, format!("generic({})", names.string(s))));
                    return Ok(());
                }
            };
            let end = (off as usize + raw.len()).min(bytes.len());
            bytes[off as usize..end].copy_from_slice(&raw[..end - off as usize]);
            Ok(())
        }
        Init::Aggregate(items) => match ty {
            Type::Array(elem, _) => {
                let (es, _) = m.layout(elem);
                for (i, it) in items.iter().enumerate() {
                    lay_out(m, names, elem, it, off + es * i as u64, bytes, addrs)?;
                }
                Ok(())
            }
            Type::Struct(id) => {
                let s = m.struct_def(*id);
                let fields: Vec<_> = if s.is_union { s.fields.iter().take(1).collect() } else { s.fields.iter().collect() };
                for (f, it) in fields.into_iter().zip(items) {
                    lay_out(m, names, &f.ty, it, off + f.offset, bytes, addrs)?;
                }
                Ok(())
            }
            other => match items.first() {
                Some(first) => lay_out(m, names, other, first, off, bytes, addrs),
                None => Ok(()),
            },
        },
        Init::GlobalAddr { global, offset } => {
            let g = &names.globals[global.index()];
            let a = if *offset == 0 { format!("generic({g})") } else { format!("generic({g})+{offset}") };
            addrs.push((off, a));
            Ok(())
        }
        Init::FuncAddr(f) => {
            addrs.push((off, names.functions[f.index()].clone()));
            Ok(())
        }
    }
}

/// The string literals, each a `.global` byte array with its NUL.
pub fn strings(names: &Names) -> String {
    let mut out = String::new();
    for (bytes, name) in names.strings.borrow().iter() {
        let list: Vec<String> = bytes.iter().chain(std::iter::once(&0u8)).map(|b| b.to_string()).collect();
        let _ = writeln!(out, ".global .align 1 .b8 {name}[{}] = {{{}}};", bytes.len() + 1, list.join(", "));
    }
    out
}
