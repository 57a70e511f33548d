//! How IR types live in PTX: register classes, memory types, arithmetic suffixes.
//!
//! Integers narrower than 32 bits live in 32-bit registers, kept sign- or zero-extended
//! from their width (`ld`/`st`/`cvt` accept wider registers, so memory sees the narrow
//! type). `Bool` is a predicate register in flight and a `u8` in memory. Aggregates
//! (structs, arrays) live in memory; their SSA values are the generic address of a slot
//! in the function's local frame.

use cuprite_ir::Type;

/// A PTX register class; each has its own family of registers (`%p3`, `%r7`, ...).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Class {
    Pred,
    B32,
    B64,
    F32,
    F64,
}

impl Class {
    pub const ALL: [Class; 5] = [Class::Pred, Class::B32, Class::B64, Class::F32, Class::F64];

    /// The register-name prefix and the `.reg` type of the family.
    pub fn prefix(self) -> &'static str {
        match self {
            Class::Pred => "%p",
            Class::B32 => "%r",
            Class::B64 => "%rd",
            Class::F32 => "%f",
            Class::F64 => "%fd",
        }
    }

    pub fn reg_type(self) -> &'static str {
        match self {
            Class::Pred => ".pred",
            Class::B32 => ".b32",
            Class::B64 => ".b64",
            Class::F32 => ".f32",
            Class::F64 => ".f64",
        }
    }

    /// The bit-size type for `mov`, `selp`, `shfl`, ...
    pub fn bits(self) -> &'static str {
        match self {
            Class::Pred => "pred",
            Class::B32 | Class::F32 => "b32",
            Class::B64 | Class::F64 => "b64",
        }
    }
}

/// Whether the type is held in memory (its SSA value is a slot address).
pub fn is_aggregate(t: &Type) -> bool {
    matches!(t, Type::Struct(_) | Type::Array(..))
}

/// The register class of a value of type `t` (`None` for `Void`).
pub fn class(t: &Type) -> Option<Class> {
    Some(match t {
        Type::Void => return None,
        Type::Bool => Class::Pred,
        Type::I8 | Type::U8 | Type::I16 | Type::U16 | Type::I32 | Type::U32 => Class::B32,
        Type::I64 | Type::U64 | Type::Ptr(_) | Type::FnPtr(_) => Class::B64,
        Type::F32 => Class::F32,
        Type::F64 => Class::F64,
        Type::Struct(_) | Type::Array(..) => Class::B64,
    })
}

/// The type suffix of a load or store of a scalar (`ld.global.s8`, `st.f32`).
pub fn mem_suffix(t: &Type) -> Option<&'static str> {
    Some(match t {
        Type::Bool | Type::U8 => "u8",
        Type::I8 => "s8",
        Type::I16 => "s16",
        Type::U16 => "u16",
        Type::I32 => "s32",
        Type::U32 => "u32",
        Type::I64 => "s64",
        Type::U64 | Type::Ptr(_) | Type::FnPtr(_) => "u64",
        Type::F32 => "f32",
        Type::F64 => "f64",
        _ => return None,
    })
}

/// The suffix arithmetic on a value of this type uses (narrow integers compute in 32 bits).
pub fn arith_suffix(t: &Type) -> Option<&'static str> {
    Some(match t {
        Type::I8 | Type::I16 | Type::I32 => "s32",
        Type::Bool | Type::U8 | Type::U16 | Type::U32 => "u32",
        Type::I64 => "s64",
        Type::U64 | Type::Ptr(_) | Type::FnPtr(_) => "u64",
        Type::F32 => "f32",
        Type::F64 => "f64",
        _ => return None,
    })
}

/// The narrow width (8 or 16 bits) of an integer held widened in a 32-bit register.
pub fn narrow_bits(t: &Type) -> Option<u32> {
    match t {
        Type::I8 | Type::U8 => Some(8),
        Type::I16 | Type::U16 => Some(16),
        _ => None,
    }
}

/// A `.param` declaration's type for a scalar passed to or returned from a `.func`
/// (the ABI widens integers narrower than 32 bits).
pub fn func_param_type(t: &Type) -> &'static str {
    match class(t) {
        Some(Class::B64) | Some(Class::F64) => ".b64",
        _ => ".b32",
    }
}

/// An `f32` immediate (`0f3F800000`).
pub fn f32_imm(x: f32) -> String {
    format!("0f{:08X}", x.to_bits())
}

/// An `f64` immediate (`0d3FF0000000000000`).
pub fn f64_imm(x: f64) -> String {
    format!("0d{:016X}", x.to_bits())
}

/// A PTX identifier for an arbitrary name: letters, digits, `_` and `$` are kept, other
/// characters become `$` followed by their code in hex; a leading digit gets a `_`.
pub fn identifier(name: &str) -> String {
    let mut s = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() || c == '_' || c == '$' {
            s.push(c);
        } else {
            s.push_str(&format!("${:x}", c as u32));
        }
    }
    if s.is_empty() || s.starts_with(|c: char| c.is_ascii_digit()) || (s.starts_with('$') && s.len() == 1) {
        s.insert(0, '_');
    }
    s
}
