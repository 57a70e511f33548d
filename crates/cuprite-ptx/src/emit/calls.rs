//! Calls: device functions through the PTX ABI (`.param` space, `call` with a
//! prototype for indirect calls), and the runtime services the driver provides to PTX
//! (`vprintf`, `__assertfail`, `malloc`, `free`), plus the builtins that are not math.

use super::function::{is_kernel, Fx, Mem};
use super::inst::convert_reg;
use super::types::{self, class, is_aggregate, Class};
use super::EmitError;
use cuprite_ir::{Builtin, FuncId, InstKind, Module, Scope, Type, ValueId};

const VPRINTF: &str = ".extern .func (.param .b32 func_retval0) vprintf(\n\t.param .b64 vprintf_param_0,\n\t.param .b64 vprintf_param_1\n);\n";
const ASSERTFAIL: &str = ".extern .func __assertfail(\n\t.param .b64 __assertfail_param_0,\n\t.param .b64 __assertfail_param_1,\n\t.param .b32 __assertfail_param_2,\n\t.param .b64 __assertfail_param_3,\n\t.param .b64 __assertfail_param_4\n);\n";
const MALLOC: &str = ".extern .func (.param .b64 func_retval0) malloc(\n\t.param .b64 malloc_param_0\n);\n";
const FREE: &str = ".extern .func free(\n\t.param .b64 free_param_0\n);\n";

/// Declarations of the driver-provided functions the module calls.
pub fn extern_declarations(m: &Module) -> String {
    let uses = |want: &Builtin| {
        m.functions.iter().flat_map(|f| &f.blocks).flat_map(|b| &b.insts).any(|i| matches!(&i.kind, InstKind::CallBuiltin { builtin, .. } if builtin == want))
    };
    let mut out = String::new();
    for (b, text) in [(Builtin::Printf, VPRINTF), (Builtin::AssertFail, ASSERTFAIL), (Builtin::Malloc, MALLOC), (Builtin::Free, FREE)] {
        if uses(&b) {
            out.push_str(text);
        }
    }
    out
}

/// One argument or result in the `.param` space of a call.
enum ParamKind {
    Scalar(&'static str),
    Aggregate { size: u64, align: u64 },
}

fn param_kind(m: &Module, ty: &Type) -> ParamKind {
    if is_aggregate(ty) {
        let (size, align) = m.layout(ty);
        ParamKind::Aggregate { size, align }
    } else {
        ParamKind::Scalar(types::func_param_type(ty))
    }
}

impl<'a> Fx<'a> {
    pub fn call_direct(&mut self, func: FuncId, args: &[ValueId], result: Option<ValueId>) -> Result<(), EmitError> {
        let callee = self.m.function(func);
        if is_kernel(callee) {
            return Err(self.err(format!("launching kernel '{}' from device code (dynamic parallelism) is not supported by the PTX back-end", callee.name)));
        }
        let params: Vec<Type> = callee.params.iter().map(|l| callee.local(*l).ty.clone()).collect();
        let target = self.names.functions[func.index()].clone();
        self.call_sequence(&target, None, &params, &callee.ret.clone(), args, result)
    }

    pub fn call_indirect(&mut self, callee: ValueId, args: &[ValueId], result: Option<ValueId>) -> Result<(), EmitError> {
        let (params, ret) = match self.vty(callee) {
            Type::FnPtr(sig) if !sig.variadic => (sig.params.clone(), sig.ret.clone()),
            Type::FnPtr(_) => return Err(self.err("indirect call of a variadic function is not supported by the PTX back-end")),
            _ => (args.iter().map(|a| self.vty(*a).clone()).collect(), result.map(|r| self.vty(r).clone()).unwrap_or(Type::Void)),
        };
        let target = self.v(callee)?;
        let mut proto = String::from(".callprototype ");
        if ret != Type::Void {
            proto.push_str(&match param_kind(self.m, &ret) {
                ParamKind::Scalar(t) => format!("(.param {t} _) "),
                ParamKind::Aggregate { size, align } => format!("(.param .align {align} .b8 _[{size}]) "),
            });
        }
        let ps: Vec<String> = params
            .iter()
            .map(|p| match param_kind(self.m, p) {
                ParamKind::Scalar(t) => format!(".param {t} _"),
                ParamKind::Aggregate { size, align } => format!(".param .align {align} .b8 _[{size}]"),
            })
            .collect();
        proto.push_str(&format!("_ ({})", ps.join(", ")));
        self.call_sequence(&target, Some(proto), &params, &ret, args, result)
    }

    /// `{ .param ...; st.param ...; call (retval0), target, (param0, ...)[, proto]; ld.param ... }`
    fn call_sequence(&mut self, target: &str, proto: Option<String>, params: &[Type], ret: &Type, args: &[ValueId], result: Option<ValueId>) -> Result<(), EmitError> {
        if params.len() != args.len() {
            return Err(self.err(format!("internal error: call with {} arguments to a function of {} parameters", args.len(), params.len())));
        }
        self.body.push_str("\t{\n");
        let mut names = Vec::new();
        for (i, (pty, a)) in params.iter().zip(args).enumerate() {
            let pname = format!("param{i}");
            let r = self.v(*a)?;
            let aty = self.vty(*a).clone();
            match param_kind(self.m, pty) {
                ParamKind::Aggregate { size, align } => {
                    self.emit(format!(".param .align {align} .b8 {pname}[{size}]"));
                    let pm = Mem { space: ".param", base: pname.clone() };
                    self.copy_mem(&pm, 0, &Self::generic(&r), 0, size, align);
                }
                ParamKind::Scalar(t) => {
                    self.emit(format!(".param {t} {pname}"));
                    let r = convert_reg(self, &r, &aty, pty)?;
                    self.store_param(&pname, pty, &r);
                }
            }
            names.push(pname);
        }
        let has_ret = *ret != Type::Void;
        if has_ret {
            match param_kind(self.m, ret) {
                ParamKind::Scalar(t) => self.emit(format!(".param {t} retval0")),
                ParamKind::Aggregate { size, align } => self.emit(format!(".param .align {align} .b8 retval0[{size}]")),
            }
        }
        let proto_name = proto.map(|p| {
            let n = format!("prototype_{}", self.label().trim_start_matches("$L__cu"));
            self.emit(format!("{n} : {p}"));
            n
        });
        let mut line = String::from("call ");
        if has_ret {
            line.push_str("(retval0), ");
        }
        line.push_str(target);
        line.push_str(&format!(", ({})", names.join(", ")));
        if let Some(p) = proto_name {
            line.push_str(&format!(", {p}"));
        }
        self.emit(line);
        if let (true, Some(v)) = (has_ret, result) {
            if is_aggregate(ret) {
                let (size, align) = self.m.layout(ret);
                let d = self.def_aggregate(v)?;
                let pm = Mem { space: ".param", base: "retval0".into() };
                self.copy_mem(&Self::generic(&d), 0, &pm, 0, size, align);
            } else {
                let t = self.load_param("retval0", ret);
                let vty = self.vty(v).clone();
                let c = convert_reg(self, &t, ret, &vty)?;
                let d = self.v(v)?;
                self.emit(format!("mov.{} {d}, {c}", class(&vty).unwrap().bits()));
            }
        }
        self.body.push_str("\t}\n");
        Ok(())
    }

    fn store_param(&mut self, pname: &str, ty: &Type, r: &str) {
        match class(ty) {
            Some(Class::Pred) => {
                let t = self.pred_to_u32(r);
                self.emit(format!("st.param.b32 [{pname}], {t}"));
            }
            Some(Class::F32) => self.emit(format!("st.param.f32 [{pname}], {r}")),
            Some(Class::F64) => self.emit(format!("st.param.f64 [{pname}], {r}")),
            Some(Class::B64) => self.emit(format!("st.param.b64 [{pname}], {r}")),
            _ => self.emit(format!("st.param.b32 [{pname}], {r}")),
        }
    }

    fn load_param(&mut self, pname: &str, ty: &Type) -> String {
        let c = class(ty).unwrap_or(Class::B32);
        match c {
            Class::Pred => {
                let (t, p) = (self.tmp(Class::B32), self.tmp(Class::Pred));
                self.emit(format!("ld.param.b32 {t}, [{pname}]"));
                self.emit(format!("setp.ne.u32 {p}, {t}, 0"));
                p
            }
            _ => {
                let t = self.tmp(c);
                let s = match c {
                    Class::F32 => "f32",
                    Class::F64 => "f64",
                    Class::B64 => "b64",
                    _ => "b32",
                };
                self.emit(format!("ld.param.{s} {t}, [{pname}]"));
                t
            }
        }
    }

    /// A call of a driver-provided function with scalar `.b32`/`.b64` parameters.
    fn call_extern(&mut self, name: &str, args: &[(&str, String)], ret: Option<&str>) -> Option<String> {
        self.body.push_str("\t{\n");
        let mut names = Vec::new();
        for (i, (t, r)) in args.iter().enumerate() {
            self.emit(format!(".param .{t} param{i}"));
            self.emit(format!("st.param.{t} [param{i}], {r}"));
            names.push(format!("param{i}"));
        }
        let out = ret.map(|t| {
            self.emit(format!(".param .{t} retval0"));
            self.emit(format!("call (retval0), {name}, ({})", names.join(", ")));
            let r = self.tmp(if t == "b64" { Class::B64 } else { Class::B32 });
            self.emit(format!("ld.param.{t} {r}, [retval0]"));
            r
        });
        if ret.is_none() {
            self.emit(format!("call {name}, ({})", names.join(", ")));
        }
        self.body.push_str("\t}\n");
        out
    }

    /// A value as a 64-bit unsigned register (sizes, pointers).
    fn as_u64(&mut self, v: ValueId) -> Result<String, EmitError> {
        let (r, ty) = (self.v(v)?, self.vty(v).clone());
        convert_reg(self, &r, &ty, &Type::U64)
    }

    /// Defines `result` (if any) from register `r` of type `from`.
    pub fn define(&mut self, result: Option<ValueId>, r: &str, from: &Type) -> Result<(), EmitError> {
        if let Some(v) = result {
            let to = self.vty(v).clone();
            if to == Type::Void {
                return Ok(());
            }
            let c = convert_reg(self, r, from, &to)?;
            let d = self.v(v)?;
            self.emit(format!("mov.{} {d}, {c}", class(&to).unwrap().bits()));
        }
        Ok(())
    }

    pub fn builtin(&mut self, b: &Builtin, args: &[ValueId], result: Option<ValueId>) -> Result<(), EmitError> {
        let need = |fx: &Fx, n: usize| {
            if args.len() < n {
                Err(fx.err(format!("internal error: builtin {b:?} needs {n} operands")))
            } else {
                Ok(())
            }
        };
        match b {
            Builtin::Math(f) => self.math(*f, args, result)?,
            Builtin::Printf => {
                need(self, 1)?;
                let fmt = self.v(args[0])?;
                let buf = self.printf_buffer(&args[1..])?;
                let r = self.call_extern("vprintf", &[("b64", fmt), ("b64", buf)], Some("b32")).unwrap();
                self.define(result, &r, &Type::I32)?;
            }
            Builtin::AssertFail => {
                need(self, 4)?;
                let msg = self.v(args[0])?;
                let file = self.v(args[1])?;
                let lty = self.vty(args[2]).clone();
                let line = self.v(args[2])?;
                let line = convert_reg(self, &line, &lty, &Type::U32)?;
                let func = self.v(args[3])?;
                let one = self.tmp(Class::B64);
                self.emit(format!("mov.u64 {one}, 1"));
                self.call_extern("__assertfail", &[("b64", msg), ("b64", file), ("b32", line), ("b64", func), ("b64", one)], None);
            }
            Builtin::Trap => self.emit("trap"),
            Builtin::Clock => {
                let t = self.tmp(Class::B32);
                self.emit(format!("mov.u32 {t}, %clock"));
                self.define(result, &t, &Type::I32)?;
            }
            Builtin::Clock64 => {
                let t = self.tmp(Class::B64);
                self.emit(format!("mov.u64 {t}, %clock64"));
                self.define(result, &t, &Type::I64)?;
            }
            Builtin::Fence(scope) => self.emit(match scope {
                Scope::Block => "membar.cta",
                Scope::Device => "membar.gl",
                Scope::System => "membar.sys",
            }),
            Builtin::Atomic { op, scope } => self.atomic(*op, *scope, args, result)?,
            Builtin::Malloc => {
                need(self, 1)?;
                let n = self.as_u64(args[0])?;
                let r = self.call_extern("malloc", &[("b64", n)], Some("b64")).unwrap();
                self.define(result, &r, &Type::U64)?;
            }
            Builtin::Free => {
                need(self, 1)?;
                let p = self.as_u64(args[0])?;
                self.call_extern("free", &[("b64", p)], None);
            }
            Builtin::Memcpy | Builtin::Memset => {
                need(self, 3)?;
                let dst = self.v(args[0])?;
                let n = self.as_u64(args[2])?;
                let src = self.v(args[1])?;
                self.byte_loop(&dst, &src, &n, *b == Builtin::Memset);
                let dty = self.vty(args[0]).clone();
                self.define(result, &dst, &dty)?;
            }
            #[allow(unreachable_patterns)]
            other => return Err(self.err(format!("builtin {other:?} is not supported by the PTX back-end"))),
        }
        Ok(())
    }

    /// `for (i = 0; i < n; i++) dst[i] = src[i]` (or `= value` for memset).
    fn byte_loop(&mut self, dst: &str, src: &str, n: &str, set: bool) {
        let (i, a, t) = (self.tmp(Class::B64), self.tmp(Class::B64), self.tmp(Class::B32));
        let p = self.tmp(Class::Pred);
        let (top, end) = (self.label(), self.label());
        self.emit(format!("mov.u64 {i}, 0"));
        self.place_label(&top);
        self.emit(format!("setp.ge.u64 {p}, {i}, {n}"));
        self.emit(format!("@{p} bra {end}"));
        if set {
            self.emit(format!("mov.b32 {t}, {src}"));
        } else {
            self.emit(format!("add.u64 {a}, {src}, {i}"));
            self.emit(format!("ld.u8 {t}, [{a}]"));
        }
        self.emit(format!("add.u64 {a}, {dst}, {i}"));
        self.emit(format!("st.u8 [{a}], {t}"));
        self.emit(format!("add.u64 {i}, {i}, 1"));
        self.emit(format!("bra {top}"));
        self.place_label(&end);
    }

    /// `vprintf`'s argument buffer: each argument at the next offset aligned to its size
    /// (the front-end has applied C's promotions: 4- and 8-byte scalars); a null pointer
    /// when there are none.
    fn printf_buffer(&mut self, args: &[ValueId]) -> Result<String, EmitError> {
        let r = self.tmp(Class::B64);
        if args.is_empty() {
            self.emit(format!("mov.u64 {r}, 0"));
            return Ok(r);
        }
        let mut layout = Vec::new();
        let mut off = 0u64;
        for a in args {
            let ty = self.vty(*a).clone();
            let size = match class(&ty) {
                Some(Class::B64) | Some(Class::F64) | Some(Class::F32) => 8,
                Some(_) => 4,
                None => return Err(self.err(format!("printf argument of type {ty} is not supported by the PTX back-end"))),
            };
            if is_aggregate(&ty) {
                return Err(self.err(format!("printf argument of type {ty} is not supported by the PTX back-end")));
            }
            off = off.div_ceil(size) * size;
            layout.push((*a, ty, off));
            off += size;
        }
        let base = self.slot(off, 8);
        for (a, ty, o) in layout {
            let s = self.v(a)?;
            let at = format!("%SPL+{}", base + o);
            match class(&ty).unwrap() {
                Class::F32 => {
                    let d = convert_reg(self, &s, &ty, &Type::F64)?;
                    self.emit(format!("st.local.f64 [{at}], {d}"));
                }
                Class::F64 => self.emit(format!("st.local.f64 [{at}], {s}")),
                Class::B64 => self.emit(format!("st.local.b64 [{at}], {s}")),
                Class::Pred => {
                    let t = self.pred_to_u32(&s);
                    self.emit(format!("st.local.b32 [{at}], {t}"));
                }
                Class::B32 => self.emit(format!("st.local.b32 [{at}], {s}")),
            }
        }
        self.emit(format!("add.u64 {r}, %SP, {base}"));
        Ok(r)
    }
}
