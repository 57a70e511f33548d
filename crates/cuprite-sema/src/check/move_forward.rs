//! `std::move(x)` and `std::forward<T>(x)` from the host's `<utility>`, which nvcc lets
//! device code call as if they were `__host__ __device__`: the host header's templates
//! are not parsed for device code, so their one-line meaning is applied here.

use super::template::TArg;
use super::*;

impl<'o> Checker<'o> {
    /// The call `std::move(x)` / `std::forward<T>(x)`, when `path` names one of them and
    /// device code has no definition of its own for it; `None` otherwise.
    pub(crate) fn std_move_or_forward(&mut self, path: &ast::Path, args: &[ast::Expr], sp: Span) -> Option<Expr> {
        let plain = ast::Path { args: Vec::new(), ..path.clone() };
        let name = expr::path_str(&plain);
        let which = name.trim_start_matches("::");
        if !matches!(which, "std::move" | "std::forward") || args.len() != 1 {
            return None;
        }
        if self.find_templates(&plain).is_some() || self.lookup_skipped(&plain).is_none() {
            return None;
        }
        let forward_as = match path.segment_args(path.segments.len() - 1) {
            Some(targs) if which == "std::forward" => match self.eval_template_args(targs)?.as_slice() {
                [TArg::Type(t)] => Some(t.clone()),
                _ => {
                    self.err(sp, "'std::forward' takes one type template argument");
                    return Some(Expr::error(sp));
                }
            },
            Some(_) => {
                self.err(sp, "'std::move' takes no explicit template arguments");
                return Some(Expr::error(sp));
            }
            None if which == "std::forward" => {
                self.err(sp, "'std::forward' needs its template argument: 'std::forward<T>(x)'");
                return Some(Expr::error(sp));
            }
            None => None,
        };
        let mut v = self.expr(&args[0]);
        if v.is_error() {
            return Some(v);
        }
        v.span = sp;
        // `std::forward<T&>(x)` is `x` as an lvalue; `std::forward<T>(x)` and
        // `std::move(x)` are `x` as an xvalue (a prvalue operand stays one).
        let keeps_lvalue = forward_as.is_some_and(|t| matches!(t.ty, Ty::Ref(_)) && !overload::is_rvalue_ref(&t));
        if keeps_lvalue || !v.lvalue {
            return Some(v);
        }
        Some(v.into_xvalue())
    }
}
