//! The IR as text: one item per line, for people debugging the compiler and for the
//! snapshot tests (`cuprite-sema/tests/ir_snapshots.rs`). Output only; nothing parses it.
//!
//! ```text
//! file #0 "vecadd.cu"
//! struct %s0 "float4" size 16 align 16 { x: f32 @0, y: f32 @4, z: f32 @8, w: f32 @12 }
//! global @g0 "counter" : i32 space global align 4 host_symbol "counter" = i32 7
//! kernel @f0 "vecAdd" stub "_Z6vecAddPKfS0_Pfi" (l0 a: ptr<f32>, l1 n: i32) -> void {
//!   local l2 i: i32
//! bb0:
//!   %0: i32 = load_local l1                  ; vecadd.cu:3:7
//!   br %3, bb1, bb2
//! }
//! ```
//!
//! Ids print as in the IR (`%s` structs, `@g` globals, `@f` functions, `l` locals, `%`
//! values, `bb` blocks); references to globals and functions add the quoted source name,
//! since their definitions are far away. Source locations are trailing `;` comments.
//! Floats print in Rust's shortest round-tripping form (NaNs by their bits), strings
//! escaped, so that two different modules never print the same.
//!
//! Every match below is exhaustive on purpose: a new IR variant does not compile until it
//! has a spelling here.

use crate::*;
use fmt::Write as _;

/// Instructions are padded to this column before their location comment.
const COMMENT_COLUMN: usize = 40;

impl fmt::Display for Module {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let p = Printer { module: Some(self) };
        for (i, file) in self.files.iter().enumerate() {
            writeln!(f, "file #{i} {}", Quoted(file.as_bytes()))?;
        }
        for (i, s) in self.structs.iter().enumerate() {
            p.struct_def(f, i, s)?;
        }
        for (i, g) in self.globals.iter().enumerate() {
            p.global(f, i, g)?;
        }
        for (i, func) in self.functions.iter().enumerate() {
            writeln!(f)?;
            p.function(f, i, func)?;
        }
        Ok(())
    }
}

/// A function on its own: references show ids only and locations show file ids (print
/// the `Module` for names).
impl fmt::Display for Function {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Printer { module: None }.function(f, 0, self)
    }
}

impl fmt::Display for Type {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Type::Void => write!(f, "void"),
            Type::Bool => write!(f, "bool"),
            Type::I8 => write!(f, "i8"),
            Type::U8 => write!(f, "u8"),
            Type::I16 => write!(f, "i16"),
            Type::U16 => write!(f, "u16"),
            Type::I32 => write!(f, "i32"),
            Type::U32 => write!(f, "u32"),
            Type::I64 => write!(f, "i64"),
            Type::U64 => write!(f, "u64"),
            Type::F32 => write!(f, "f32"),
            Type::F64 => write!(f, "f64"),
            Type::Ptr(t) => write!(f, "ptr<{t}>"),
            Type::Array(t, n) => write!(f, "[{t}; {n}]"),
            Type::Struct(s) => write!(f, "%s{}", s.0),
            Type::FnPtr(sig) => write!(f, "fnptr<{sig}>"),
        }
    }
}

impl fmt::Display for Signature {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "(")?;
        list(f, &self.params)?;
        if self.variadic {
            write!(f, "{}...", if self.params.is_empty() { "" } else { ", " })?;
        }
        write!(f, ") -> {}", self.ret)
    }
}

impl fmt::Display for Const {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Const::Bool(b) => write!(f, "bool {b}"),
            // The bits are stored extended to 64; unsigned types read them as unsigned.
            Const::Int(v, ty) if matches!(ty, Type::U8 | Type::U16 | Type::U32 | Type::U64) => write!(f, "{ty} {}", *v as u64),
            Const::Int(v, ty) => write!(f, "{ty} {v}"),
            Const::F32(x) if x.is_nan() => write!(f, "f32 nan:{:#010x}", x.to_bits()),
            Const::F32(x) => write!(f, "f32 {x:?}"),
            Const::F64(x) if x.is_nan() => write!(f, "f64 nan:{:#018x}", x.to_bits()),
            Const::F64(x) => write!(f, "f64 {x:?}"),
            Const::Null(ty) => write!(f, "null {ty}"),
            Const::Str(bytes) => write!(f, "str {}", Quoted(bytes)),
        }
    }
}

impl fmt::Display for SpecialReg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SpecialReg::ThreadIdx(d) => write!(f, "threadIdx.{d}"),
            SpecialReg::BlockIdx(d) => write!(f, "blockIdx.{d}"),
            SpecialReg::BlockDim(d) => write!(f, "blockDim.{d}"),
            SpecialReg::GridDim(d) => write!(f, "gridDim.{d}"),
            SpecialReg::LaneId => write!(f, "laneid"),
            SpecialReg::WarpSize => write!(f, "warpSize"),
            SpecialReg::DynamicSmemSize => write!(f, "dynamic_smem_size"),
        }
    }
}

impl fmt::Display for Dim {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Dim::X => "x",
            Dim::Y => "y",
            Dim::Z => "z",
        })
    }
}

impl fmt::Display for WarpOp {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WarpOp::Shfl(k) => f.write_str(match k {
                ShflKind::Idx => "shfl.idx",
                ShflKind::Up => "shfl.up",
                ShflKind::Down => "shfl.down",
                ShflKind::Xor => "shfl.xor",
            }),
            WarpOp::Vote(k) => f.write_str(match k {
                VoteKind::All => "vote.all",
                VoteKind::Any => "vote.any",
                VoteKind::Uni => "vote.uni",
                VoteKind::Ballot => "vote.ballot",
            }),
            WarpOp::ActiveMask => f.write_str("activemask"),
            WarpOp::SyncWarp => f.write_str("syncwarp"),
            WarpOp::MatchAny => f.write_str("match.any"),
            WarpOp::MatchAll => f.write_str("match.all"),
            WarpOp::Reduce(k) => f.write_str(match k {
                ReduceKind::Add => "reduce.add",
                ReduceKind::Min => "reduce.min",
                ReduceKind::Max => "reduce.max",
                ReduceKind::And => "reduce.and",
                ReduceKind::Or => "reduce.or",
                ReduceKind::Xor => "reduce.xor",
            }),
            WarpOp::Lockstep => f.write_str("lockstep"),
            WarpOp::Yield => f.write_str("yield"),
        }
    }
}

impl fmt::Display for Builtin {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Builtin::Math(name) => write!(f, "math.{name}"),
            Builtin::Printf => f.write_str("printf"),
            Builtin::AssertFail => f.write_str("assert_fail"),
            Builtin::Trap => f.write_str("trap"),
            Builtin::Clock => f.write_str("clock"),
            Builtin::Clock64 => f.write_str("clock64"),
            Builtin::Fence(scope) => write!(f, "fence.{}", scope_name(*scope)),
            Builtin::Atomic { op, scope } => write!(f, "atomic.{}.{}", op.name(), scope_name(*scope)),
            Builtin::Malloc => f.write_str("malloc"),
            Builtin::Free => f.write_str("free"),
            Builtin::Memcpy => f.write_str("memcpy"),
            Builtin::Memset => f.write_str("memset"),
        }
    }
}

fn scope_name(s: Scope) -> &'static str {
    match s {
        Scope::Block => "block",
        Scope::Device => "device",
        Scope::System => "system",
    }
}

fn binary_name(op: BinaryOp) -> &'static str {
    match op {
        BinaryOp::Add => "add",
        BinaryOp::Sub => "sub",
        BinaryOp::Mul => "mul",
        BinaryOp::Div => "div",
        BinaryOp::Rem => "rem",
        BinaryOp::Shl => "shl",
        BinaryOp::Shr => "shr",
        BinaryOp::And => "and",
        BinaryOp::Or => "or",
        BinaryOp::Xor => "xor",
        BinaryOp::Eq => "eq",
        BinaryOp::Ne => "ne",
        BinaryOp::Lt => "lt",
        BinaryOp::Le => "le",
        BinaryOp::Gt => "gt",
        BinaryOp::Ge => "ge",
    }
}

fn unary_name(op: UnaryOp) -> &'static str {
    match op {
        UnaryOp::Neg => "neg",
        UnaryOp::Not => "not",
        UnaryOp::LNot => "lnot",
    }
}

fn barrier_name(k: BarrierKind) -> &'static str {
    match k {
        BarrierKind::Sync => "sync",
        BarrierKind::Count => "count",
        BarrierKind::And => "and",
        BarrierKind::Or => "or",
        BarrierKind::Grid => "grid",
    }
}

fn space_name(s: AddressSpace) -> &'static str {
    match s {
        AddressSpace::Global => "global",
        AddressSpace::Constant => "constant",
        AddressSpace::Shared => "shared",
    }
}

/// Bytes as a double-quoted string: printable ASCII as is, the rest escaped.
struct Quoted<'a>(&'a [u8]);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_char('"')?;
        for &b in self.0 {
            match b {
                b'"' => f.write_str("\\\"")?,
                b'\\' => f.write_str("\\\\")?,
                b'\n' => f.write_str("\\n")?,
                b'\t' => f.write_str("\\t")?,
                b' '..=b'~' => f.write_char(b as char)?,
                _ => write!(f, "\\x{b:02x}")?,
            }
        }
        f.write_char('"')
    }
}

/// A local's or field's name: bare when it is a plain identifier (`i`, `tmp.3`), quoted
/// otherwise (empty, or with spaces or punctuation), so that it cannot run into the syntax.
struct Name<'a>(&'a str);

impl fmt::Display for Name<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plain = !self.0.is_empty() && self.0.chars().all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '.');
        if plain {
            f.write_str(self.0)
        } else {
            Quoted(self.0.as_bytes()).fmt(f)
        }
    }
}

fn list<T: fmt::Display>(f: &mut impl fmt::Write, items: &[T]) -> fmt::Result {
    for (i, x) in items.iter().enumerate() {
        write!(f, "{}{x}", if i == 0 { "" } else { ", " })?;
    }
    Ok(())
}

fn values(f: &mut impl fmt::Write, vs: &[ValueId]) -> fmt::Result {
    for (i, v) in vs.iter().enumerate() {
        write!(f, "{}%{}", if i == 0 { "" } else { ", " }, v.0)?;
    }
    Ok(())
}

/// Prints with the module's names where there is a module.
struct Printer<'m> {
    module: Option<&'m Module>,
}

impl Printer<'_> {
    fn struct_def(&self, f: &mut fmt::Formatter<'_>, id: usize, s: &StructDef) -> fmt::Result {
        let kw = if s.is_union { "union" } else { "struct" };
        write!(f, "{kw} %s{id} {} size {} align {} {{", Quoted(s.name.as_bytes()), s.size, s.align)?;
        for (i, fl) in s.fields.iter().enumerate() {
            write!(f, "{} {}: {} @{}", if i == 0 { "" } else { "," }, Name(&fl.name), fl.ty, fl.offset)?;
        }
        writeln!(f, "{}}}", if s.fields.is_empty() { "" } else { " " })
    }

    fn global(&self, f: &mut fmt::Formatter<'_>, id: usize, g: &Global) -> fmt::Result {
        let mut line = format!("global @g{id} {} : {} space {}", Quoted(g.name.as_bytes()), g.ty, space_name(g.space));
        if let Some(a) = g.align {
            write!(line, " align {a}")?;
        }
        if g.external {
            line.push_str(" external");
        }
        if g.dynamic_shared {
            line.push_str(" dynamic_shared");
        }
        if let Some(s) = &g.host_symbol {
            write!(line, " host_symbol {}", Quoted(s.as_bytes()))?;
        }
        if let Some(init) = &g.init {
            line.push_str(" = ");
            self.init(&mut line, init)?;
        }
        self.end_line(f, &line, g.loc)
    }

    fn init(&self, out: &mut String, init: &Init) -> fmt::Result {
        match init {
            Init::Zero => out.push_str("zeroinit"),
            Init::Scalar(c) => write!(out, "{c}")?,
            Init::Aggregate(items) => {
                out.push('{');
                for (i, item) in items.iter().enumerate() {
                    out.push_str(if i == 0 { " " } else { ", " });
                    self.init(out, item)?;
                }
                out.push_str(if items.is_empty() { "}" } else { " }" });
            }
            Init::GlobalAddr { global, offset } => write!(out, "&{} + {offset}", self.global_ref(*global))?,
            Init::FuncAddr(func) => write!(out, "&{}", self.func_ref(*func))?,
        }
        Ok(())
    }

    fn global_ref(&self, id: GlobalId) -> String {
        match self.module.and_then(|m| m.globals.get(id.index())) {
            Some(g) => format!("@g{} {}", id.0, Quoted(g.name.as_bytes())),
            None => format!("@g{}", id.0),
        }
    }

    fn func_ref(&self, id: FuncId) -> String {
        match self.module.and_then(|m| m.functions.get(id.index())) {
            Some(func) => format!("@f{} {}", id.0, Quoted(func.name.as_bytes())),
            None => format!("@f{}", id.0),
        }
    }

    fn function(&self, f: &mut fmt::Formatter<'_>, id: usize, func: &Function) -> fmt::Result {
        let mut line = String::new();
        if func.blocks.is_empty() {
            line.push_str("declare ");
        }
        match &func.kind {
            FunctionKind::Kernel { stub_symbol, max_threads, min_blocks } => {
                write!(line, "kernel @f{id} {} stub {}", Quoted(func.name.as_bytes()), Quoted(stub_symbol.as_bytes()))?;
                if let Some(n) = max_threads {
                    write!(line, " max_threads {n}")?;
                }
                if let Some(n) = min_blocks {
                    write!(line, " min_blocks {n}")?;
                }
            }
            FunctionKind::Device => write!(line, "device @f{id} {}", Quoted(func.name.as_bytes()))?,
        }
        if let Some(s) = &func.symbol {
            write!(line, " symbol {}", Quoted(s.as_bytes()))?;
        }
        match func.inline {
            InlineHint::None => {}
            InlineHint::Always => line.push_str(" inline always"),
            InlineHint::Never => line.push_str(" inline never"),
        }
        line.push_str(" (");
        for (i, p) in func.params.iter().enumerate() {
            line.push_str(if i == 0 { "" } else { ", " });
            match func.locals.get(p.index()) {
                Some(l) => write!(line, "l{} {}: {}", p.0, Name(&l.name), l.ty)?,
                None => write!(line, "l{}", p.0)?,
            }
        }
        write!(line, ") -> {}", func.ret)?;
        if func.blocks.is_empty() {
            return self.end_line(f, &line, func.loc);
        }
        line.push_str(" {");
        self.end_line(f, &line, func.loc)?;
        for (i, l) in func.locals.iter().enumerate() {
            if func.params.iter().any(|p| p.index() == i) {
                continue;
            }
            write!(f, "  local l{i} {}: {}", Name(&l.name), l.ty)?;
            if let Some(a) = l.align {
                write!(f, " align {a}")?;
            }
            writeln!(f)?;
        }
        for (i, b) in func.blocks.iter().enumerate() {
            writeln!(f, "bb{i}:")?;
            for inst in &b.insts {
                let mut line = String::from("  ");
                if let Some(v) = inst.result {
                    match func.values.get(v.index()) {
                        Some(ty) => write!(line, "%{}: {ty} = ", v.0)?,
                        None => write!(line, "%{} = ", v.0)?,
                    }
                }
                self.inst(&mut line, &inst.kind)?;
                self.end_line(f, &line, inst.loc)?;
            }
            let mut line = String::from("  ");
            self.terminator(&mut line, &b.term)?;
            self.end_line(f, &line, b.term_loc)?;
        }
        writeln!(f, "}}")
    }

    fn inst(&self, out: &mut String, kind: &InstKind) -> fmt::Result {
        match kind {
            InstKind::Const(c) => write!(out, "const {c}"),
            InstKind::Unary(op, a) => write!(out, "unary {} %{}", unary_name(*op), a.0),
            InstKind::Binary(op, a, b) => write!(out, "binary {} %{}, %{}", binary_name(*op), a.0, b.0),
            InstKind::Cast(a) => write!(out, "cast %{}", a.0),
            InstKind::Bitcast(a) => write!(out, "bitcast %{}", a.0),
            InstKind::Select(c, a, b) => write!(out, "select %{}, %{}, %{}", c.0, a.0, b.0),
            InstKind::LoadLocal(l) => write!(out, "load_local l{}", l.0),
            InstKind::StoreLocal(l, v) => write!(out, "store_local l{}, %{}", l.0, v.0),
            InstKind::LocalAddr(l) => write!(out, "local_addr l{}", l.0),
            InstKind::GlobalAddr(g) => write!(out, "global_addr {}", self.global_ref(*g)),
            InstKind::Load { ptr, volatile } => write!(out, "load{} %{}", if *volatile { " volatile" } else { "" }, ptr.0),
            InstKind::Store { ptr, value, volatile } => {
                write!(out, "store{} %{}, %{}", if *volatile { " volatile" } else { "" }, ptr.0, value.0)
            }
            InstKind::FieldAddr { base, strukt, field } => {
                write!(out, "field_addr %{}, %s{} field {field}", base.0, strukt.0)?;
                let def = self.module.and_then(|m| m.structs.get(strukt.index()));
                match def.and_then(|s| s.fields.get(*field as usize)) {
                    Some(fl) => write!(out, " {}", Name(&fl.name)),
                    None => Ok(()),
                }
            }
            InstKind::PtrAdd { base, index } => write!(out, "ptr_add %{}, %{}", base.0, index.0),
            InstKind::PtrDiff(a, b) => write!(out, "ptr_diff %{}, %{}", a.0, b.0),
            InstKind::Copy { dst, src, bytes } => write!(out, "copy %{}, %{}, bytes {bytes}", dst.0, src.0),
            InstKind::Special(r) => write!(out, "special {r}"),
            InstKind::Call { func, args } => {
                write!(out, "call {}(", self.func_ref(*func))?;
                values(out, args)?;
                out.write_char(')')
            }
            InstKind::CallIndirect { callee, args } => {
                write!(out, "call_indirect %{}(", callee.0)?;
                values(out, args)?;
                out.write_char(')')
            }
            InstKind::FuncAddr(func) => write!(out, "func_addr {}", self.func_ref(*func)),
            InstKind::CallBuiltin { builtin, args } => {
                write!(out, "builtin {builtin}(")?;
                values(out, args)?;
                out.write_char(')')
            }
            InstKind::Check(op) => match op {
                CheckOp::Access { ptr, bytes, align, kind, site } => write!(out, "check.access {} %{}, bytes {bytes}, align {align}, site {site}", kind.name(), ptr.0),
                CheckOp::Barrier => out.write_str("check.barrier"),
                CheckOp::WarpSync => out.write_str("check.warp_sync"),
                CheckOp::Exit => out.write_str("check.exit"),
                CheckOp::Fence => out.write_str("check.fence"),
                CheckOp::Branch { cond, site } => write!(out, "check.branch %{}, site {site}", cond.0),
                CheckOp::WarpMask { mask, site, orders_memory } => {
                    write!(out, "check.warp_mask %{}, site {site}{}", mask.0, if *orders_memory { ", orders memory" } else { "" })
                }
            },
        }
    }

    fn terminator(&self, out: &mut String, term: &Terminator) -> fmt::Result {
        match term {
            Terminator::Jump(b) => write!(out, "jump bb{}", b.0),
            Terminator::Branch { cond, then, else_ } => write!(out, "br %{}, bb{}, bb{}", cond.0, then.0, else_.0),
            Terminator::Switch { value, cases, default } => {
                write!(out, "switch %{} [", value.0)?;
                for (i, (v, b)) in cases.iter().enumerate() {
                    write!(out, "{}{v}: bb{}", if i == 0 { "" } else { ", " }, b.0)?;
                }
                write!(out, "] default bb{}", default.0)
            }
            Terminator::Return(None) => write!(out, "ret"),
            Terminator::Return(Some(v)) => write!(out, "ret %{}", v.0),
            Terminator::Barrier { kind, pred, result, next } => {
                write!(out, "barrier {}", barrier_name(*kind))?;
                if let Some(p) = pred {
                    write!(out, " %{}", p.0)?;
                }
                if let Some(r) = result {
                    write!(out, " -> l{}", r.0)?;
                }
                write!(out, " next bb{}", next.0)
            }
            Terminator::Warp { op, args, results, next } => {
                write!(out, "warp {op} [")?;
                values(out, args)?;
                out.push_str("] -> [");
                let locals: Vec<String> = results.iter().map(|l| format!("l{}", l.0)).collect();
                list(out, &locals)?;
                write!(out, "] next bb{}", next.0)
            }
            Terminator::Unreachable => write!(out, "unreachable"),
        }
    }

    /// Writes a line, with its source location as a comment padded to a common column.
    fn end_line(&self, f: &mut fmt::Formatter<'_>, line: &str, loc: Option<SrcLoc>) -> fmt::Result {
        let Some(loc) = loc else { return writeln!(f, "{line}") };
        let pad = COMMENT_COLUMN.saturating_sub(line.chars().count()).max(2);
        write!(f, "{line}{:pad$}; ", "")?;
        match self.module.and_then(|m| m.files.get(loc.file.index())) {
            Some(file) => write!(f, "{file}")?,
            None => write!(f, "#{}", loc.file.0)?,
        }
        writeln!(f, ":{}:{}", loc.line, loc.col)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn constants_print_exactly_and_strings_escaped() {
        assert_eq!(Const::Int(-1, Type::U64).to_string(), "u64 18446744073709551615");
        assert_eq!(Const::Int(-1, Type::I32).to_string(), "i32 -1");
        assert_eq!(Const::F32(0.1).to_string(), "f32 0.1");
        assert_eq!(Const::F64(-0.0).to_string(), "f64 -0.0");
        assert_eq!(Const::F32(f32::from_bits(0x7fc0_0001)).to_string(), "f32 nan:0x7fc00001");
        assert_eq!(Const::F64(f64::INFINITY).to_string(), "f64 inf");
        assert_eq!(Const::Str(b"a\"\\\n\x01".to_vec()).to_string(), r#"str "a\"\\\n\x01""#);
        let sig = Signature { params: vec![Type::I32, Type::Struct(StructId(2)).ptr_to()], ret: Type::F32, variadic: true };
        assert_eq!(Type::FnPtr(Box::new(sig)).to_string(), "fnptr<(i32, ptr<%s2>, ...) -> f32>");
    }

    #[test]
    fn bad_ids_print_without_panicking() {
        let func = Function {
            name: "f".into(),
            symbol: None,
            kind: FunctionKind::Device,
            inline: InlineHint::None,
            params: vec![LocalId(7)],
            ret: Type::Void,
            locals: vec![],
            values: vec![],
            blocks: vec![Block {
                insts: vec![Inst {
                    result: Some(ValueId(3)),
                    kind: InstKind::FieldAddr { base: ValueId(0), strukt: StructId(9), field: 4 },
                    loc: Some(SrcLoc { file: FileId(5), line: 1, col: 2 }),
                }],
                term: Terminator::Return(None),
                term_loc: None,
            }],
            loc: None,
        };
        let m = Module { functions: vec![func], ..Module::default() };
        assert!(m.to_string().contains("%3 = field_addr %0, %s9 field 4"));
        assert!(m.to_string().contains("; #5:1:2"));
    }
}
