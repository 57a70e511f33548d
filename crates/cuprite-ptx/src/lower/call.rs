//! `call`: device functions through the PTX calling sequence (parameters are locals
//! written with `st.param` and read with `ld.param`), indirect calls, and the system
//! calls nvcc emits: `vprintf`, `malloc`, `free`, `__assertfail`.

use super::body::{Binding, Lowerer};
use super::{lerr, LResult};
use crate::parse::{Inst, Operand};
use cuprite_ir::{Builtin, InstKind as IK, LocalId, Signature, Type, ValueId};

impl Lowerer<'_> {
    /// The local of a call-sequence parameter named in a call's lists.
    fn param_local(&self, op: &Operand, i: &Inst) -> LResult<LocalId> {
        match op {
            Operand::Name(n, 0) => match self.lookup(n) {
                Some(Binding::Var(l)) | Some(Binding::Reg(l, _)) => Ok(*l),
                _ => lerr(i.loc, format!("'{}': '{n}' is not a parameter declared here", i.name())),
            },
            _ => lerr(i.loc, format!("'{}': call operands must be parameter names", i.name())),
        }
    }

    pub(crate) fn call(&mut self, i: &Inst) -> LResult<()> {
        self.mods(i, &["uni"])?;
        let mut ops = i.operands.iter().peekable();
        let rets: Vec<Operand> = match ops.peek() {
            Some(Operand::List(r)) => {
                let r = r.clone();
                ops.next();
                r
            }
            _ => Vec::new(),
        };
        let Some(callee) = ops.next().cloned() else { return lerr(i.loc, "'call' needs a function") };
        let args: Vec<Operand> = match ops.next() {
            Some(Operand::List(a)) => a.clone(),
            None => Vec::new(),
            Some(_) => return lerr(i.loc, "'call': malformed argument list"),
        };
        if rets.len() > 1 {
            return lerr(i.loc, "'call' with more than one return parameter is not supported");
        }
        let ret_local = match rets.first() {
            Some(r) => Some(self.param_local(r, i)?),
            None => None,
        };
        let arg_locals: Vec<LocalId> = args.iter().map(|a| self.param_local(a, i)).collect::<LResult<_>>()?;
        let Operand::Name(name, 0) = &callee else { return lerr(i.loc, "'call': malformed callee") };
        // A register callee is an indirect call (through a prototype).
        if let Some(Binding::Reg(..)) = self.lookup(name) {
            let sig = Signature {
                params: arg_locals.iter().map(|l| self.s.local_type(*l)).collect(),
                ret: ret_local.map(|l| self.s.local_type(l)).unwrap_or(Type::Void),
                variadic: false,
            };
            let f = self.read_as(&callee, &Type::U64, i.loc)?;
            let fp = self.emit(IK::Cast(f), Type::FnPtr(Box::new(sig.clone())));
            let vals: Vec<ValueId> = arg_locals.iter().map(|l| self.load_local(*l)).collect();
            let r = self.s.emit(IK::CallIndirect { callee: fp, args: vals }, if sig.ret == Type::Void { None } else { Some(sig.ret.clone()) });
            if let (Some(r), Some(l)) = (r, ret_local) {
                self.store_local(l, r);
            }
            return Ok(());
        }
        match name.as_str() {
            "vprintf" => return self.vprintf(i, &args, &arg_locals, ret_local),
            "malloc" => {
                let n = self.load_local(arg_locals[0]);
                let n = self.conv(n, &Type::U64);
                let p = self.emit(IK::CallBuiltin { builtin: Builtin::Malloc, args: vec![n] }, Type::Void.ptr_to());
                if let Some(l) = ret_local {
                    let v = self.cast(p, &Type::U64);
                    self.store_local(l, v);
                }
                return Ok(());
            }
            "free" => {
                let p = self.load_local(arg_locals[0]);
                let p = self.conv(p, &Type::U64);
                let p = self.emit(IK::Cast(p), Type::Void.ptr_to());
                self.emit_void(IK::CallBuiltin { builtin: Builtin::Free, args: vec![p] });
                return Ok(());
            }
            "__assertfail" => {
                if arg_locals.len() < 4 {
                    return lerr(i.loc, "'__assertfail' takes message, file, line and function");
                }
                let ptr = |this: &mut Self, l: LocalId| {
                    let v = this.load_local(l);
                    let v = this.conv(v, &Type::U64);
                    this.emit(IK::Cast(v), Type::I8.ptr_to())
                };
                let msg = ptr(self, arg_locals[0]);
                let file = ptr(self, arg_locals[1]);
                let line = self.load_local(arg_locals[2]);
                let line = self.conv(line, &Type::U32);
                let func = ptr(self, arg_locals[3]);
                self.emit_void(IK::CallBuiltin { builtin: Builtin::AssertFail, args: vec![msg, file, line, func] });
                return Ok(());
            }
            _ => {}
        }
        let Some((f, sig)) = self.s.function(name) else {
            return lerr(i.loc, format!("'call': '{name}' is not a function declared in this module"));
        };
        if sig.params.len() != arg_locals.len() {
            return lerr(i.loc, format!("'call': '{name}' takes {} parameters, not {}", sig.params.len(), arg_locals.len()));
        }
        let mut vals = Vec::new();
        for (l, pt) in arg_locals.iter().zip(&sig.params) {
            let v = self.load_local(*l);
            vals.push(self.conv(v, pt));
        }
        let r = self.s.emit(IK::Call { func: f, args: vals }, if sig.ret == Type::Void { None } else { Some(sig.ret.clone()) });
        if let (Some(r), Some(l)) = (r, ret_local) {
            self.store_local(l, r);
        }
        Ok(())
    }

    /// `vprintf(format, buffer)`: the format must be a known constant (nvcc passes a
    /// `$str` variable's address); the buffer is read as CUDA packs it (each argument at
    /// the next offset aligned to its size) and printed with the IR's printf.
    fn vprintf(&mut self, i: &Inst, args: &[Operand], locals: &[LocalId], ret: Option<LocalId>) -> LResult<()> {
        if locals.len() != 2 {
            return lerr(i.loc, "'vprintf' takes a format and an argument buffer");
        }
        let Operand::Name(fmt_param, _) = &args[0] else { unreachable!() };
        let Some((g, off)) = self.known_addr.get(fmt_param).copied() else {
            return lerr(i.loc, "'vprintf' with a format that is not a constant string in this module is not supported");
        };
        let Some(bytes) = self.s.global_bytes(g) else {
            return lerr(i.loc, "'vprintf': the format variable has no constant contents");
        };
        let fmt: Vec<u8> = bytes.iter().skip(off as usize).take_while(|b| **b != 0).copied().collect();
        let kinds = printf_args(&fmt);
        let fa = self.global_u64(g);
        let fa = self.add_u64(fa, off);
        let fmt_ptr = self.emit(IK::Cast(fa), Type::I8.ptr_to());
        let buf = self.load_local(locals[1]);
        let buf = self.conv(buf, &Type::U64);
        let mut vals = vec![fmt_ptr];
        let mut at = 0u64;
        for k in kinds {
            let (t, size) = match k {
                ArgKind::Int => (Type::I32, 4),
                ArgKind::Long => (Type::I64, 8),
                ArgKind::Double => (Type::F64, 8),
                ArgKind::Ptr => (Type::I8.ptr_to(), 8),
            };
            at = at.div_ceil(size) * size;
            let a = self.add_u64(buf, at as i64);
            let p = self.emit(IK::Cast(a), t.clone().ptr_to());
            vals.push(self.emit(IK::Load { ptr: p, volatile: false }, t));
            at += size;
        }
        let r = self.emit(IK::CallBuiltin { builtin: Builtin::Printf, args: vals }, Type::I32);
        if let Some(l) = ret {
            self.store_local(l, r);
        }
        Ok(())
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum ArgKind {
    Int,
    Long,
    Double,
    Ptr,
}

/// The arguments a printf format consumes, in order, as promoted C types.
pub(crate) fn printf_args(fmt: &[u8]) -> Vec<ArgKind> {
    let mut out = Vec::new();
    let mut k = 0;
    while k < fmt.len() {
        if fmt[k] != b'%' {
            k += 1;
            continue;
        }
        k += 1;
        if fmt.get(k) == Some(&b'%') {
            k += 1;
            continue;
        }
        while k < fmt.len() && b"-+ #0'".contains(&fmt[k]) {
            k += 1;
        }
        if fmt.get(k) == Some(&b'*') {
            out.push(ArgKind::Int);
            k += 1;
        }
        while k < fmt.len() && fmt[k].is_ascii_digit() {
            k += 1;
        }
        if fmt.get(k) == Some(&b'.') {
            k += 1;
            if fmt.get(k) == Some(&b'*') {
                out.push(ArgKind::Int);
                k += 1;
            }
            while k < fmt.len() && fmt[k].is_ascii_digit() {
                k += 1;
            }
        }
        let mut long = false;
        while k < fmt.len() && b"hlLqjzt".contains(&fmt[k]) {
            if b"lLqjzt".contains(&fmt[k]) {
                long = true;
            }
            k += 1;
        }
        let Some(&c) = fmt.get(k) else { break };
        k += 1;
        match c {
            b'd' | b'i' | b'u' | b'x' | b'X' | b'o' | b'c' => out.push(if long { ArgKind::Long } else { ArgKind::Int }),
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => out.push(ArgKind::Double),
            b's' | b'p' => out.push(ArgKind::Ptr),
            _ => {}
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn printf_formats() {
        use ArgKind::*;
        assert_eq!(printf_args(b"a %d %5.2f %% %s %lld %*d %p %c\n"), vec![Int, Double, Ptr, Long, Int, Int, Ptr, Int]);
    }
}
