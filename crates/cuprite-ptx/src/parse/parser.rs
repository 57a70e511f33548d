//! Recursive descent over the tokens of `lexer`.

use super::ast::*;
use super::lexer::{Tok, Token};
use super::{Loc, ParseError};
use crate::isa::{ScalarType, SpecialRegister, StateSpace};

pub struct Parser {
    toks: Vec<Token>,
    pos: usize,
}

type PResult<T> = Result<T, ParseError>;

impl Parser {
    pub fn new(toks: Vec<Token>) -> Parser {
        Parser { toks, pos: 0 }
    }

    fn peek(&self) -> Option<&Tok> {
        self.toks.get(self.pos).map(|t| &t.tok)
    }
    fn peek_at(&self, n: usize) -> Option<&Tok> {
        self.toks.get(self.pos + n).map(|t| &t.tok)
    }
    fn loc(&self) -> Loc {
        self.toks.get(self.pos).or(self.toks.last()).map(|t| t.loc).unwrap_or_default()
    }
    fn next(&mut self) -> Option<Tok> {
        let t = self.toks.get(self.pos).map(|t| t.tok.clone());
        self.pos += 1;
        t
    }
    fn err<T>(&self, message: impl Into<String>) -> PResult<T> {
        Err(ParseError { loc: self.loc(), message: message.into() })
    }
    fn is_punct(&self, c: char) -> bool {
        self.peek() == Some(&Tok::Punct(c))
    }
    fn eat_punct(&mut self, c: char) -> bool {
        if self.is_punct(c) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn expect_punct(&mut self, c: char, what: &str) -> PResult<()> {
        if self.eat_punct(c) {
            Ok(())
        } else {
            self.err(format!("expected '{c}' {what}, found {}", self.describe()))
        }
    }
    fn is_dot(&self, d: &str) -> bool {
        matches!(self.peek(), Some(Tok::Dot(x)) if x == d)
    }
    fn eat_dot(&mut self, d: &str) -> bool {
        if self.is_dot(d) {
            self.pos += 1;
            true
        } else {
            false
        }
    }
    fn describe(&self) -> String {
        match self.peek() {
            None => "the end of the text".into(),
            Some(Tok::Ident(s)) => format!("'{s}'"),
            Some(Tok::Dot(s)) => format!("'.{s}'"),
            Some(Tok::Int(v)) => format!("'{v}'"),
            Some(Tok::F32(_)) | Some(Tok::F64(_)) => "a float literal".into(),
            Some(Tok::Str(s)) => format!("\"{s}\""),
            Some(Tok::Punct(c)) => format!("'{c}'"),
        }
    }
    fn ident(&mut self, what: &str) -> PResult<String> {
        match self.peek() {
            Some(Tok::Ident(s)) => {
                let s = s.clone();
                self.pos += 1;
                Ok(s)
            }
            _ => self.err(format!("expected {what}, found {}", self.describe())),
        }
    }
    fn int(&mut self, what: &str) -> PResult<i64> {
        let neg = self.eat_punct('-');
        match self.peek() {
            Some(Tok::Int(v)) => {
                let v = *v;
                self.pos += 1;
                Ok(if neg { v.wrapping_neg() } else { v })
            }
            _ => self.err(format!("expected {what}, found {}", self.describe())),
        }
    }
    /// Skips to just after the next `;` (for directives whose content is not needed).
    fn skip_statement(&mut self) {
        while let Some(t) = self.next() {
            if t == Tok::Punct(';') {
                break;
            }
        }
    }

    // ---------------------------------------------------------------------------------
    // Module level

    pub fn module(&mut self) -> PResult<Module> {
        let mut m = Module::default();
        while let Some(t) = self.peek().cloned() {
            match t {
                Tok::Dot(d) if d == "version" => {
                    self.pos += 1;
                    let v = match self.next() {
                        Some(Tok::F64(bits)) => f64::from_bits(bits),
                        Some(Tok::Int(i)) => i as f64,
                        _ => return self.err("expected a version number after .version"),
                    };
                    let major = v.trunc() as u32;
                    m.version = Some((major, ((v - major as f64) * 10.0).round() as u32));
                }
                Tok::Dot(d) if d == "target" => {
                    self.pos += 1;
                    m.target.push(self.ident("a target name")?);
                    while self.eat_punct(',') {
                        m.target.push(self.ident("a target name")?);
                    }
                }
                Tok::Dot(d) if d == "address_size" => {
                    self.pos += 1;
                    m.address_size = Some(self.int("an address size")? as u32);
                }
                Tok::Dot(d) if d == "file" => {
                    // `.file 1 "name"` (with optional timestamp and size).
                    self.pos += 1;
                    while matches!(self.peek(), Some(Tok::Int(_)) | Some(Tok::Str(_)) | Some(Tok::Punct(','))) {
                        self.pos += 1;
                    }
                }
                Tok::Dot(d) if d == "section" => {
                    // Debug sections: `.section .debug_x { … }`.
                    self.pos += 1;
                    while !self.is_punct('{') && self.peek().is_some() {
                        self.pos += 1;
                    }
                    self.skip_braces()?;
                }
                Tok::Dot(d) if d == "pragma" => self.skip_statement(),
                _ => m.items.push(self.item()?),
            }
        }
        Ok(m)
    }

    fn skip_braces(&mut self) -> PResult<()> {
        self.expect_punct('{', "to open a section")?;
        let mut depth = 1;
        while depth > 0 {
            match self.next() {
                Some(Tok::Punct('{')) => depth += 1,
                Some(Tok::Punct('}')) => depth -= 1,
                None => return self.err("unterminated section"),
                _ => {}
            }
        }
        Ok(())
    }

    fn linkage(&mut self) -> Linkage {
        let mut l = Linkage::None;
        loop {
            if self.eat_dot("visible") {
                l = Linkage::Visible;
            } else if self.eat_dot("extern") {
                l = Linkage::Extern;
            } else if self.eat_dot("weak") {
                l = Linkage::Weak;
            } else if self.eat_dot("common") {
                l = Linkage::Common;
            } else {
                return l;
            }
        }
    }

    fn item(&mut self) -> PResult<Item> {
        let loc = self.loc();
        let linkage = self.linkage();
        if self.eat_dot("entry") {
            return Ok(Item::Func(self.function(FuncKind::Entry, linkage, loc)?));
        }
        if self.eat_dot("func") {
            return Ok(Item::Func(self.function(FuncKind::Func, linkage, loc)?));
        }
        match self.peek() {
            Some(Tok::Dot(_)) => {
                let mut v = self.var_decl(linkage)?;
                v.loc = loc;
                self.expect_punct(';', "after a variable declaration")?;
                Ok(Item::Var(v))
            }
            _ => self.err(format!("expected a directive (.entry, .func, .global, ...), found {}", self.describe())),
        }
    }

    fn function(&mut self, kind: FuncKind, linkage: Linkage, loc: Loc) -> PResult<FuncDef> {
        // `.func .attribute(.unified(…))` and `.noreturn` are read and ignored.
        self.attributes()?;
        let mut rets = Vec::new();
        if self.is_punct('(') {
            rets = self.param_list()?;
        }
        let name = self.ident("a function name")?;
        self.attributes()?;
        let params = if self.is_punct('(') { self.param_list()? } else { Vec::new() };
        let mut f = FuncDef { kind, linkage, name, rets, params, maxntid: None, reqntid: None, minnctapersm: None, body: None, loc };
        loop {
            if self.eat_dot("maxntid") {
                f.maxntid = Some(self.int_list()?);
            } else if self.eat_dot("reqntid") {
                f.reqntid = Some(self.int_list()?);
            } else if self.eat_dot("minnctapersm") {
                f.minnctapersm = Some(self.int("a count")? as u32);
            } else if self.eat_dot("maxnreg") || self.eat_dot("maxnctapersm") || self.eat_dot("maxclusterrank") {
                self.int("a count")?;
            } else if self.eat_dot("reqnctapercluster") || self.eat_dot("explicitcluster") {
                if matches!(self.peek(), Some(Tok::Int(_))) {
                    self.int_list()?;
                }
            } else if self.eat_dot("noreturn") || self.eat_dot("pragma") {
                if let Some(Tok::Str(_)) = self.peek() {
                    self.pos += 1;
                }
                self.eat_punct(';');
            } else {
                break;
            }
        }
        if self.eat_punct(';') {
            return Ok(f);
        }
        self.expect_punct('{', "to open the function body")?;
        f.body = Some(self.statements_until_brace()?);
        Ok(f)
    }

    fn attributes(&mut self) -> PResult<()> {
        while self.eat_dot("attribute") || self.eat_dot("noreturn") {
            if self.is_punct('(') {
                let mut depth = 0;
                loop {
                    match self.next() {
                        Some(Tok::Punct('(')) => depth += 1,
                        Some(Tok::Punct(')')) => {
                            depth -= 1;
                            if depth == 0 {
                                break;
                            }
                        }
                        None => return self.err("unterminated .attribute"),
                        _ => {}
                    }
                }
            }
        }
        Ok(())
    }

    fn int_list(&mut self) -> PResult<Vec<u32>> {
        let mut v = vec![self.int("a number")? as u32];
        while self.eat_punct(',') {
            v.push(self.int("a number")? as u32);
        }
        Ok(v)
    }

    fn param_list(&mut self) -> PResult<Vec<VarDecl>> {
        self.expect_punct('(', "to open a parameter list")?;
        let mut out = Vec::new();
        if self.eat_punct(')') {
            return Ok(out);
        }
        loop {
            let loc = self.loc();
            let mut v = self.var_decl(Linkage::None)?;
            v.loc = loc;
            out.push(v);
            if self.eat_punct(')') {
                return Ok(out);
            }
            self.expect_punct(',', "between parameters")?;
        }
    }

    /// `.space [.align N] [.vN] .type [.ptr .space .align N] name[<N>][dims] [= init]`,
    /// after the linkage. Stops before the `;`.
    fn var_decl(&mut self, linkage: Linkage) -> PResult<VarDecl> {
        let loc = self.loc();
        let mut v = VarDecl {
            linkage,
            space: StateSpace::Generic,
            align: None,
            vector: None,
            ty: VarType::Scalar(ScalarType::B8),
            names: Vec::new(),
            dims: Vec::new(),
            init: None,
            managed: false,
            loc,
        };
        let mut have_type = false;
        let mut in_ptr = false;
        while let Some(Tok::Dot(d)) = self.peek().cloned() {
            self.pos += 1;
            if d == "align" {
                let a = self.int("an alignment")? as u32;
                if !in_ptr {
                    v.align = Some(a);
                }
            } else if d == "attribute" {
                self.expect_punct('(', "after .attribute")?;
                while !self.eat_punct(')') {
                    if self.eat_dot("managed") {
                        v.managed = true;
                    } else if self.next().is_none() {
                        return self.err("unterminated .attribute");
                    }
                }
            } else if d == "ptr" {
                in_ptr = true;
            } else if let Some(n) = d.strip_prefix('v').and_then(|n| n.parse::<u32>().ok()) {
                v.vector = Some(n);
            } else if let Some(t) = ScalarType::parse(&d) {
                v.ty = VarType::Scalar(t);
                have_type = true;
            } else if matches!(d.as_str(), "texref" | "surfref" | "samplerref") {
                v.ty = VarType::Opaque(d.clone());
                have_type = true;
            } else if let Some(s) = StateSpace::parse(&d) {
                if !in_ptr {
                    v.space = s;
                }
            } else if matches!(d.as_str(), "extern" | "visible" | "weak") {
                // `.param .u64 .ptr .global` orders vary; linkage after the space is odd but harmless.
            } else {
                self.pos -= 1;
                return self.err(format!("unexpected '.{d}' in a declaration"));
            }
        }
        if !have_type {
            return self.err(format!("expected a type in a declaration, found {}", self.describe()));
        }
        let name = self.ident("a name in a declaration")?;
        if self.eat_punct('<') {
            let n = self.int("a register count")?;
            self.expect_punct('>', "after a register count")?;
            v.names = (0..n).map(|i| format!("{name}{i}")).collect();
        } else {
            v.names.push(name);
        }
        while self.eat_punct('[') {
            if self.eat_punct(']') {
                v.dims.push(None);
            } else {
                v.dims.push(Some(self.int("an array size")? as u64));
                self.expect_punct(']', "after an array size")?;
            }
        }
        // More names in one declaration: `.reg .pred p, q;`
        while self.is_punct(',') && matches!(self.peek_at(1), Some(Tok::Ident(_))) && v.space == StateSpace::Reg {
            self.pos += 1;
            let n = self.ident("a register name")?;
            if self.eat_punct('<') {
                let c = self.int("a register count")?;
                self.expect_punct('>', "after a register count")?;
                v.names.extend((0..c).map(|i| format!("{n}{i}")));
            } else {
                v.names.push(n);
            }
        }
        if self.eat_punct('=') {
            v.init = Some(self.init()?);
        }
        Ok(v)
    }

    fn init(&mut self) -> PResult<Init> {
        if self.eat_punct('{') {
            let mut items = Vec::new();
            if !self.eat_punct('}') {
                loop {
                    items.push(self.init()?);
                    if self.eat_punct('}') {
                        break;
                    }
                    self.expect_punct(',', "between initializers")?;
                }
            }
            return Ok(Init::List(items));
        }
        match self.peek().cloned() {
            Some(Tok::F32(b)) => {
                self.pos += 1;
                Ok(Init::F32(b))
            }
            Some(Tok::F64(b)) => {
                self.pos += 1;
                Ok(Init::F64(b))
            }
            Some(Tok::Ident(s)) if s == "generic" && self.peek_at(1) == Some(&Tok::Punct('(')) => {
                self.pos += 2;
                let name = self.ident("a name in generic()")?;
                self.expect_punct(')', "after generic(name")?;
                let off = self.offset()?;
                Ok(Init::Addr(name, off))
            }
            Some(Tok::Ident(s)) => {
                self.pos += 1;
                let off = self.offset()?;
                Ok(Init::Addr(s, off))
            }
            _ => Ok(Init::Int(self.int("an initializer")?)),
        }
    }

    /// `+N` / `-N` / `+-N` after a name, or nothing.
    fn offset(&mut self) -> PResult<i64> {
        if self.eat_punct('+') {
            return self.int("an offset");
        }
        if self.is_punct('-') {
            return self.int("an offset");
        }
        Ok(0)
    }

    // ---------------------------------------------------------------------------------
    // Statements

    pub fn statements_to_end(&mut self) -> PResult<Vec<Stmt>> {
        let mut out = Vec::new();
        while self.peek().is_some() {
            if self.is_punct('}') {
                return self.err("unbalanced '}'");
            }
            self.statement(&mut out)?;
        }
        Ok(out)
    }

    fn statements_until_brace(&mut self) -> PResult<Vec<Stmt>> {
        let mut out = Vec::new();
        loop {
            if self.eat_punct('}') {
                return Ok(out);
            }
            if self.peek().is_none() {
                return self.err("missing '}' at the end of a block");
            }
            self.statement(&mut out)?;
        }
    }

    fn statement(&mut self, out: &mut Vec<Stmt>) -> PResult<()> {
        let loc = self.loc();
        match self.peek().cloned() {
            Some(Tok::Punct('{')) => {
                self.pos += 1;
                out.push(Stmt::Block(self.statements_until_brace()?));
            }
            Some(Tok::Punct(';')) => self.pos += 1,
            Some(Tok::Ident(name)) if self.peek_at(1) == Some(&Tok::Punct(':')) => {
                self.pos += 2;
                if self.eat_dot("callprototype") {
                    self.skip_statement();
                    out.push(Stmt::Prototype(name, loc));
                } else {
                    out.push(Stmt::Label(name, loc));
                }
            }
            Some(Tok::Dot(d)) if matches!(d.as_str(), "loc" | "pragma" | "section") => {
                if d == "section" {
                    self.pos += 1;
                    while !self.is_punct('{') && self.peek().is_some() {
                        self.pos += 1;
                    }
                    self.skip_braces()?;
                } else if d == "loc" {
                    // `.loc 1 12 3[, function_name …]` has no `;`: it ends with its line.
                    let line = loc.line;
                    while self.toks.get(self.pos).is_some_and(|t| t.loc.line == line) {
                        self.pos += 1;
                    }
                } else {
                    self.pos += 1;
                    while !self.eat_punct(';') && self.next().is_some() {}
                }
            }
            Some(Tok::Dot(_)) => {
                let linkage = self.linkage();
                let mut v = self.var_decl(linkage)?;
                v.loc = loc;
                self.expect_punct(';', "after a declaration")?;
                out.push(Stmt::Decl(v));
            }
            Some(Tok::Punct('@')) | Some(Tok::Ident(_)) => out.push(Stmt::Inst(self.instruction()?)),
            _ => return self.err(format!("expected an instruction, found {}", self.describe())),
        }
        Ok(())
    }

    fn instruction(&mut self) -> PResult<Inst> {
        let loc = self.loc();
        let mut guard = None;
        if self.eat_punct('@') {
            let neg = self.eat_punct('!');
            guard = Some((self.ident("a predicate after '@'")?, neg));
        }
        let opcode = self.ident("an instruction")?;
        let mut mods = Vec::new();
        while let Some(Tok::Dot(d)) = self.peek() {
            mods.push(d.clone());
            self.pos += 1;
        }
        let mut inst = Inst { guard, opcode, mods, operands: Vec::new(), loc };
        if !self.eat_punct(';') {
            loop {
                let op = self.operand().map_err(|e| ParseError { message: format!("in '{}': {}", inst.name(), e.message), ..e })?;
                inst.operands.push(op);
                if self.eat_punct(';') {
                    break;
                }
                if !self.eat_punct(',') {
                    return self.err(format!("in '{}': expected ',' or ';' after an operand, found {}", inst.name(), self.describe()));
                }
            }
        }
        Ok(inst)
    }

    fn operand(&mut self) -> PResult<Operand> {
        let first = self.operand_one()?;
        if self.is_punct('|') {
            self.pos += 1;
            let second = self.operand_one()?;
            return Ok(Operand::Pair(Box::new(first), Box::new(second)));
        }
        Ok(first)
    }

    fn operand_one(&mut self) -> PResult<Operand> {
        match self.peek().cloned() {
            Some(Tok::Punct('!')) => {
                self.pos += 1;
                Ok(Operand::Not(Box::new(self.operand_one()?)))
            }
            Some(Tok::Punct('{')) => {
                self.pos += 1;
                let mut items = Vec::new();
                loop {
                    items.push(self.operand_one()?);
                    if self.eat_punct('}') {
                        break;
                    }
                    self.expect_punct(',', "between vector elements")?;
                }
                Ok(Operand::Vector(items))
            }
            Some(Tok::Punct('(')) => {
                self.pos += 1;
                let mut items = Vec::new();
                if !self.eat_punct(')') {
                    loop {
                        items.push(self.operand_one()?);
                        if self.eat_punct(')') {
                            break;
                        }
                        self.expect_punct(',', "between call operands")?;
                    }
                }
                Ok(Operand::List(items))
            }
            Some(Tok::Punct('[')) => {
                self.pos += 1;
                let op = match self.peek().cloned() {
                    Some(Tok::Ident(n)) => {
                        self.pos += 1;
                        let off = self.offset()?;
                        Operand::Addr(Some(n), off)
                    }
                    _ => Operand::Addr(None, self.int("an address")?),
                };
                if self.eat_punct(',') {
                    // A texture or surface operand: `[tex, {x, y}]`.
                    let mut items = vec![op];
                    loop {
                        items.push(self.operand_one()?);
                        if !self.eat_punct(',') {
                            break;
                        }
                    }
                    self.expect_punct(']', "to close a texture operand")?;
                    return Ok(Operand::Tex(items));
                }
                self.expect_punct(']', "to close an address")?;
                Ok(op)
            }
            Some(Tok::Punct('-')) | Some(Tok::Int(_)) => Ok(Operand::Int(self.int("an operand")?)),
            Some(Tok::F32(b)) => {
                self.pos += 1;
                Ok(Operand::F32(b))
            }
            Some(Tok::F64(b)) => {
                self.pos += 1;
                Ok(Operand::F64(b))
            }
            Some(Tok::Ident(n)) => {
                self.pos += 1;
                if n == "_" {
                    return Ok(Operand::Sink);
                }
                if let Some(Tok::Dot(axis)) = self.peek().cloned() {
                    if let [c @ ('x' | 'y' | 'z' | 'w')] = axis.chars().collect::<Vec<_>>()[..] {
                        self.pos += 1;
                        return Ok(Operand::Special(n, Some(c)));
                    }
                }
                if n.starts_with('%') && SpecialRegister::parse(&n).is_some() {
                    return Ok(Operand::Special(n, None));
                }
                let off = self.offset()?;
                Ok(Operand::Name(n, off))
            }
            _ => self.err(format!("expected an operand, found {}", self.describe())),
        }
    }
}
