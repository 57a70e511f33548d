//! The PTX syntax tree: what the parser reads, before any meaning is given to it.

use super::Loc;
use crate::isa::{ScalarType, StateSpace};

/// A whole `.ptx` file.
#[derive(Clone, Debug, Default)]
pub struct Module {
    /// `.version 9.0`
    pub version: Option<(u32, u32)>,
    /// `.target sm_90` (its comma-separated words).
    pub target: Vec<String>,
    pub address_size: Option<u32>,
    pub items: Vec<Item>,
}

#[derive(Clone, Debug)]
pub enum Item {
    Var(VarDecl),
    Func(FuncDef),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Linkage {
    None,
    Visible,
    Extern,
    Weak,
    Common,
}

/// `.reg .b32 %r<27>;`, `.global .align 4 .b8 name[64] = {…};`, `.param .u64 p`, ...
#[derive(Clone, Debug)]
pub struct VarDecl {
    pub linkage: Linkage,
    pub space: StateSpace,
    pub align: Option<u32>,
    /// `.v2`/`.v4` variables.
    pub vector: Option<u32>,
    pub ty: VarType,
    /// One name, or `count` names `name0 … name{count-1}` for `%r<count>`.
    pub names: Vec<String>,
    /// Array dimensions; `None` for `[]` (an `.extern` array of unknown size).
    pub dims: Vec<Option<u64>>,
    pub init: Option<Init>,
    /// `.attribute(.managed)`
    pub managed: bool,
    /// `.ptr` attributes on a kernel parameter (ignored, but read).
    pub loc: Loc,
}

#[derive(Clone, Debug, PartialEq)]
pub enum VarType {
    Scalar(ScalarType),
    /// `.texref`, `.surfref`, `.samplerref`: legacy texture references.
    Opaque(String),
}

#[derive(Clone, Debug, PartialEq)]
pub enum Init {
    Int(i64),
    F32(u32),
    F64(u64),
    /// The address of a variable or function, plus a byte offset (`generic(x)` too).
    Addr(String, i64),
    List(Vec<Init>),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncKind {
    Entry,
    Func,
}

#[derive(Clone, Debug)]
pub struct FuncDef {
    pub kind: FuncKind,
    pub linkage: Linkage,
    pub name: String,
    /// `.func (.param .b32 func_retval0) f(...)`: the return parameters.
    pub rets: Vec<VarDecl>,
    pub params: Vec<VarDecl>,
    /// `.maxntid x, y, z`, `.reqntid …`, `.minnctapersm n`.
    pub maxntid: Option<Vec<u32>>,
    pub reqntid: Option<Vec<u32>>,
    pub minnctapersm: Option<u32>,
    /// `None` for a declaration (`;` instead of a body).
    pub body: Option<Vec<Stmt>>,
    pub loc: Loc,
}

#[derive(Clone, Debug)]
pub enum Stmt {
    Label(String, Loc),
    Decl(VarDecl),
    Inst(Inst),
    /// `{ … }`: a scope for declarations (a call sequence, or an `asm` body).
    Block(Vec<Stmt>),
    /// `prototype_0 : .callprototype (…) _ (…);`
    Prototype(String, Loc),
}

#[derive(Clone, Debug)]
pub struct Inst {
    /// `@p` (false) or `@!p` (true).
    pub guard: Option<(String, bool)>,
    pub opcode: String,
    /// Modifiers after the opcode, without their dots, in order (`global`, `nc`, `v4`, `f32`).
    pub mods: Vec<String>,
    pub operands: Vec<Operand>,
    pub loc: Loc,
}

impl Inst {
    pub fn has(&self, m: &str) -> bool {
        self.mods.iter().any(|x| x == m)
    }
    /// The instruction as written, for messages: `ld.global.nc.f32`.
    pub fn name(&self) -> String {
        let mut s = self.opcode.clone();
        for m in &self.mods {
            s.push('.');
            s.push_str(m);
        }
        s
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Operand {
    /// A register, variable, function or label name, with a byte offset (`x+4`).
    Name(String, i64),
    /// A special register with its axis, `%tid.x` → ("%tid", Some('x')).
    Special(String, Option<char>),
    Int(i64),
    F32(u32),
    F64(u64),
    /// `[base+offset]`; the base is a name or absent (`[4096]`).
    Addr(Option<String>, i64),
    /// `{a, b, c, d}`
    Vector(Vec<Operand>),
    /// `!p`
    Not(Box<Operand>),
    /// `(a, b)`: a call's return or argument list.
    List(Vec<Operand>),
    /// `[tex, {x, y}]`: a texture or surface and its coordinates.
    Tex(Vec<Operand>),
    /// `_`: a result that is thrown away.
    Sink,
    /// `d|p`: a result and a predicate result (`shfl.sync`, `setp` with two results).
    Pair(Box<Operand>, Box<Operand>),
}
