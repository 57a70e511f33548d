//! Source-level (C/C++) types of the typed HIR, their layout, and how they print in
//! diagnostics.

use cuprite_front::ast::Span;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct RecId(pub u32);
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct EnumId(pub u32);

/// Integer types other than `bool`. `char` is signed; `long` is 64-bit (LP64).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IntKind {
    Char,
    SChar,
    UChar,
    Short,
    UShort,
    Int,
    UInt,
    Long,
    ULong,
    LongLong,
    ULongLong,
}

impl IntKind {
    pub fn size(self) -> u64 {
        use IntKind::*;
        match self {
            Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 4,
            Long | ULong | LongLong | ULongLong => 8,
        }
    }
    pub fn signed(self) -> bool {
        use IntKind::*;
        matches!(self, Char | SChar | Short | Int | Long | LongLong)
    }
    /// Integer conversion rank.
    pub fn rank(self) -> u8 {
        use IntKind::*;
        match self {
            Char | SChar | UChar => 1,
            Short | UShort => 2,
            Int | UInt => 3,
            Long | ULong => 4,
            LongLong | ULongLong => 5,
        }
    }
    pub fn to_unsigned(self) -> IntKind {
        use IntKind::*;
        match self {
            Char | SChar | UChar => UChar,
            Short | UShort => UShort,
            Int | UInt => UInt,
            Long | ULong => ULong,
            LongLong | ULongLong => ULongLong,
        }
    }
    pub fn name(self) -> &'static str {
        use IntKind::*;
        match self {
            Char => "char",
            SChar => "signed char",
            UChar => "unsigned char",
            Short => "short",
            UShort => "unsigned short",
            Int => "int",
            UInt => "unsigned int",
            Long => "long",
            ULong => "unsigned long",
            LongLong => "long long",
            ULongLong => "unsigned long long",
        }
    }
    /// Wrap a value to this type's width and signedness.
    pub fn wrap(self, v: i128) -> i128 {
        let bits = self.size() * 8;
        let m = v & ((1i128 << bits) - 1);
        if self.signed() && m >= (1i128 << (bits - 1)) {
            m - (1i128 << bits)
        } else {
            m
        }
    }
}

#[derive(Clone, Debug, PartialEq)]
pub enum Ty {
    /// The type of an expression that already had an error (no further messages).
    Error,
    Void,
    Bool,
    Int(IntKind),
    Float,
    Double,
    /// `decltype(nullptr)`.
    Nullptr,
    Ptr(Box<QTy>),
    /// C++ reference (lvalue or rvalue); represented as a pointer in the IR.
    Ref(Box<QTy>),
    Array(Box<QTy>, Option<u64>),
    Record(RecId),
    Enum(EnumId),
    Func(Box<FnTy>),
    /// A pointer to member of class `class` (Itanium C++ ABI representation): to a data
    /// member, an `i64` offset (null: -1); to a member function (`pointee` a `Func`; its
    /// `c` flag marks a `const` member function), a `{ptr, adj}` pair of 64-bit words
    /// (`ptr` the function's address, or 1 + the vtable offset of a virtual function;
    /// null: ptr 0).
    MemberPtr { class: RecId, pointee: Box<QTy> },
}

#[derive(Clone, Debug, PartialEq)]
pub struct FnTy {
    pub params: Vec<QTy>,
    pub ret: QTy,
    pub variadic: bool,
}

/// A type with its top-level cv-qualifiers.
#[derive(Clone, Debug, PartialEq)]
pub struct QTy {
    pub ty: Ty,
    pub c: bool,
    pub v: bool,
}

impl From<Ty> for QTy {
    fn from(ty: Ty) -> QTy {
        QTy { ty, c: false, v: false }
    }
}

impl QTy {
    pub fn new(ty: Ty) -> QTy {
        ty.into()
    }
    pub fn unqual(&self) -> QTy {
        QTy::new(self.ty.clone())
    }
    pub fn with_const(mut self, c: bool) -> QTy {
        self.c |= c;
        self
    }
    pub fn error() -> QTy {
        QTy::new(Ty::Error)
    }
}

impl Ty {
    pub fn int() -> Ty {
        Ty::Int(IntKind::Int)
    }
    pub fn ptr(to: QTy) -> Ty {
        Ty::Ptr(Box::new(to))
    }
    pub fn is_error(&self) -> bool {
        matches!(self, Ty::Error)
    }
    pub fn is_integer(&self) -> bool {
        matches!(self, Ty::Bool | Ty::Int(_) | Ty::Enum(_))
    }
    pub fn is_float(&self) -> bool {
        matches!(self, Ty::Float | Ty::Double)
    }
    pub fn is_arith(&self) -> bool {
        self.is_integer() || self.is_float()
    }
    pub fn is_pointer(&self) -> bool {
        matches!(self, Ty::Ptr(_))
    }
    pub fn is_scalar(&self) -> bool {
        self.is_arith() || matches!(self, Ty::Ptr(_) | Ty::Nullptr)
    }
    /// A pointer to member function (else to data member, or not a member pointer).
    pub fn is_member_fn_ptr(&self) -> bool {
        matches!(self, Ty::MemberPtr { pointee, .. } if matches!(pointee.ty, Ty::Func(_)))
    }
    pub fn pointee(&self) -> Option<&QTy> {
        match self {
            Ty::Ptr(t) => Some(t),
            _ => None,
        }
    }
}

#[derive(Clone, Debug)]
pub struct FieldDef {
    /// `None` for an anonymous struct/union member.
    pub name: Option<String>,
    pub ty: QTy,
    /// Byte offset; for a bit-field, the byte that holds its first bit.
    pub offset: u64,
    pub span: Span,
    /// `Some` for a bit-field (its type is then an integer, `bool` or enum type).
    pub bits: Option<BitField>,
}

/// Where a bit-field lives, as GCC lays it out on x86-64 (System V ABI).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BitField {
    pub width: u32,
    /// Bit position from the start of the record (bit 0: the low bit of byte 0).
    pub bit_pos: u64,
}

impl BitField {
    /// The memory access that reads or writes this field: the smallest naturally
    /// aligned 1/2/4/8-byte unit that holds all its bits and is no wider than the
    /// declared type (`decl_size` bytes). Returns (byte offset of the unit in the
    /// record, unit size in bytes, shift of the field's low bit within the unit).
    pub fn access_unit(&self, decl_size: u64) -> (u64, u64, u32) {
        let last = self.bit_pos + self.width.max(1) as u64 - 1;
        let mut n = 1u64;
        while n < decl_size && self.bit_pos / (8 * n) != last / (8 * n) {
            n *= 2;
        }
        let off = self.bit_pos / (8 * n) * n;
        (off, n, (self.bit_pos - off * 8) as u32)
    }
    /// The bytes of the record holding at least one bit of this field.
    pub fn bytes(&self) -> (u64, u64) {
        (self.bit_pos / 8, (self.bit_pos + self.width as u64).div_ceil(8))
    }
}

#[derive(Clone, Debug)]
pub struct RecordDef {
    /// Unqualified name (`None` for anonymous records).
    pub name: Option<String>,
    /// Enclosing namespaces, outermost first.
    pub scope: Vec<String>,
    pub is_union: bool,
    pub is_class: bool,
    /// `None` until the definition is seen.
    pub fields: Option<Vec<FieldDef>>,
    pub size: u64,
    pub align: u64,
    pub span: Span,
}

#[derive(Clone, Debug)]
pub struct EnumDef {
    pub name: Option<String>,
    pub scope: Vec<String>,
    pub underlying: IntKind,
    pub span: Span,
    /// Whether a bit-field of this type is signed: GCC treats an enum without a fixed
    /// underlying type and without negative enumerators as unsigned there.
    pub signed_bitfield: bool,
}

/// All records and enums of the translation unit.
#[derive(Clone, Debug, Default)]
pub struct TypeTable {
    pub records: Vec<RecordDef>,
    pub enums: Vec<EnumDef>,
}

impl TypeTable {
    pub fn rec(&self, id: RecId) -> &RecordDef {
        &self.records[id.0 as usize]
    }
    pub fn enm(&self, id: EnumId) -> &EnumDef {
        &self.enums[id.0 as usize]
    }

    /// Size and alignment; `None` for incomplete types and functions.
    pub fn layout(&self, ty: &Ty) -> Option<(u64, u64)> {
        Some(match ty {
            Ty::Error => (1, 1),
            Ty::Void => return None,
            Ty::Bool => (1, 1),
            Ty::Int(k) => (k.size(), k.size()),
            Ty::Float => (4, 4),
            Ty::Double => (8, 8),
            Ty::Nullptr | Ty::Ptr(_) | Ty::Ref(_) => (8, 8),
            Ty::Array(e, Some(n)) => {
                let (s, a) = self.layout(&e.ty)?;
                (s * n, a)
            }
            Ty::Array(_, None) => return None,
            Ty::Record(r) => {
                let d = self.rec(*r);
                d.fields.as_ref()?;
                (d.size, d.align)
            }
            Ty::Enum(e) => {
                let k = self.enm(*e).underlying;
                (k.size(), k.size())
            }
            Ty::Func(_) => return None,
            Ty::MemberPtr { pointee, .. } if matches!(pointee.ty, Ty::Func(_)) => (16, 8),
            Ty::MemberPtr { .. } => (8, 8),
        })
    }

    pub fn is_complete(&self, ty: &Ty) -> bool {
        self.layout(ty).is_some()
    }

    /// The name of a record or enum as C++ prints it (`ns::S`, `float4`).
    pub fn tag_name(&self, ty: &Ty) -> String {
        let (name, scope, kind) = match ty {
            Ty::Record(r) => {
                let d = self.rec(*r);
                (d.name.clone(), &d.scope, if d.is_union { "union" } else { "struct" })
            }
            Ty::Enum(e) => {
                let d = self.enm(*e);
                (d.name.clone(), &d.scope, "enum")
            }
            _ => return String::new(),
        };
        match name {
            Some(n) => {
                let mut s = String::new();
                for p in scope {
                    s.push_str(p);
                    s.push_str("::");
                }
                s + &n
            }
            None => format!("(anonymous {kind})"),
        }
    }

    /// A type as a C++ compiler prints it: `const float`, `int *`, `float (*)[4]`.
    pub fn show(&self, t: &QTy) -> String {
        self.show_decl(t, "")
    }

    /// Print a type around a declarator text (`inner`), C-style.
    pub fn show_decl(&self, t: &QTy, inner: &str) -> String {
        let cv = |q: &QTy| {
            let mut s = String::new();
            if q.c {
                s.push_str("const ");
            }
            if q.v {
                s.push_str("volatile ");
            }
            s
        };
        match &t.ty {
            Ty::Ptr(p) | Ty::Ref(p) => {
                let is_ref = matches!(t.ty, Ty::Ref(_));
                let sym = if !is_ref { "*" } else if t.v { "&&" } else { "&" };
                let mut quals = String::new();
                if t.c && !is_ref {
                    quals.push_str(" const");
                }
                if t.v && !is_ref {
                    quals.push_str(" volatile");
                }
                let mut inn = format!("{sym}{quals}{}{inner}", if inner.is_empty() || quals.is_empty() { "" } else { " " });
                if matches!(p.ty, Ty::Array(..) | Ty::Func(_)) {
                    inn = format!("({inn})");
                }
                self.show_decl(p, &inn)
            }
            Ty::MemberPtr { class, pointee } => {
                let quals = format!("{}{}", if t.c { " const" } else { "" }, if t.v { " volatile" } else { "" });
                let cname = self.tag_name(&Ty::Record(*class));
                let mut inn = format!("{cname}::*{quals}{}{inner}", if inner.is_empty() || quals.is_empty() { "" } else { " " });
                if let Ty::Func(_) = &pointee.ty {
                    inn = format!("({inn})");
                    let s = self.show_decl(&QTy::new(pointee.ty.clone()), &inn);
                    return if pointee.c { format!("{s} const") } else { s };
                }
                self.show_decl(pointee, &inn)
            }
            Ty::Array(e, n) => {
                let dim = match n {
                    Some(n) => format!("[{n}]"),
                    None => "[]".to_string(),
                };
                let inn = if inner.is_empty() { format!(" {dim}") } else { format!("{inner}{dim}") };
                // `int [10]` for an abstract array.
                let base = self.show_decl(e, "");
                format!("{}{}", base, inn)
            }
            Ty::Func(f) => {
                let ps: Vec<String> = f.params.iter().map(|p| self.show(p)).collect();
                let mut ps = ps.join(", ");
                if f.variadic {
                    ps.push_str(if ps.is_empty() { "..." } else { ", ..." });
                }
                let base = self.show(&f.ret);
                let inn = if inner.is_empty() { " ".to_string() } else { inner.to_string() };
                format!("{base}{}({ps})", inn.trim_end())
            }
            other => {
                let base = match other {
                    Ty::Error => "<error>".to_string(),
                    Ty::Void => "void".into(),
                    Ty::Bool => "bool".into(),
                    Ty::Int(k) => k.name().into(),
                    Ty::Float => "float".into(),
                    Ty::Double => "double".into(),
                    Ty::Nullptr => "std::nullptr_t".into(),
                    Ty::Record(_) | Ty::Enum(_) => self.tag_name(other),
                    _ => unreachable!(),
                };
                let s = format!("{}{}", cv(t), base);
                if inner.is_empty() {
                    s
                } else if inner.starts_with('[') || inner.starts_with('(') && !inner.starts_with("(*") && !inner.starts_with("(&") {
                    format!("{s}{inner}")
                } else {
                    format!("{s} {inner}")
                }
            }
        }
    }

    /// Compute the layout of a record from its fields (C rules; unions overlap).
    /// `min_align` comes from `__attribute__((aligned(n)))`.
    ///
    /// Bit-fields (`bits: Some`, with `bit_pos` ignored on input and set here) follow
    /// GCC on x86-64: a field of type `T` and width `w` starts at the next free bit
    /// unless it would straddle a `sizeof(T)`-aligned unit, in which case it starts at
    /// the next such unit; a zero-width field moves to the next `T`-aligned unit; named
    /// bit-fields raise the record's alignment to `alignof(T)`, unnamed ones do not. In
    /// a union every bit-field starts at bit 0.
    pub fn layout_fields(&self, fields: &mut [FieldDef], is_union: bool, min_align: u64) -> Option<(u64, u64)> {
        self.layout_fields_with(fields, is_union, min_align, &[])
    }

    /// `layout_fields` with a minimum alignment per field (`alignas` on members; missing
    /// entries are 1).
    pub fn layout_fields_with(&self, fields: &mut [FieldDef], is_union: bool, min_align: u64, field_align: &[u64]) -> Option<(u64, u64)> {
        let mut bit = 0u64; // next free bit (structs)
        let mut size = 0u64;
        let mut align = 1u64.max(min_align);
        for (i, f) in fields.iter_mut().enumerate() {
            let (s, a) = self.layout(&f.ty.ty)?;
            let a = if f.bits.is_none() { a.max(field_align.get(i).copied().unwrap_or(1)) } else { a };
            if let Some(bf) = &mut f.bits {
                let w = bf.width as u64;
                if f.name.is_some() {
                    align = align.max(a);
                }
                let unit = 8 * a;
                let pos = if is_union {
                    0
                } else if w == 0 {
                    bit.div_ceil(unit) * unit
                } else if bit / unit != (bit + w - 1) / unit {
                    bit.div_ceil(unit) * unit
                } else {
                    bit
                };
                bf.bit_pos = pos;
                f.offset = pos / 8;
                let end = pos + w;
                if is_union {
                    size = size.max(end.div_ceil(8));
                } else {
                    bit = end;
                    size = size.max(end.div_ceil(8));
                }
                continue;
            }
            align = align.max(a);
            if is_union {
                f.offset = 0;
                size = size.max(s);
            } else {
                let off = bit.div_ceil(8).div_ceil(a) * a;
                f.offset = off;
                bit = (off + s) * 8;
                size = off + s;
            }
        }
        let size = size.div_ceil(align) * align;
        Some((size, align))
    }
}
