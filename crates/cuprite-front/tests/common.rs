//! Helpers shared by the integration tests (included with `mod common;`).
#![allow(dead_code)]

use cuprite_front::ast::*;
use cuprite_front::ParseResult;

/// Parses `src` as if it were the preprocessed text of `test.cu`.
pub fn parse_cu(src: &str) -> ParseResult {
    cuprite_front::parse(&format!("# 1 \"test.cu\"\n{src}"))
}

/// Parses and asserts there are no diagnostics.
pub fn parse_ok(src: &str) -> ParseResult {
    let r = parse_cu(src);
    if !r.diagnostics.is_empty() {
        panic!("unexpected diagnostics:\n{}", cuprite_front::render_all(&r.diagnostics, &r.source_map));
    }
    r
}

/// All items, flattened through namespaces and linkage blocks.
pub fn flat_items(items: &[Item]) -> Vec<&Item> {
    let mut out = Vec::new();
    for i in items {
        match &i.kind {
            ItemKind::Namespace { items, .. } | ItemKind::LinkageSpec { items, .. } => out.extend(flat_items(items)),
            _ => out.push(i),
        }
    }
    out
}

pub fn function<'a>(r: &'a ParseResult, name: &str) -> &'a FunctionDef {
    for i in flat_items(&r.tu.items) {
        if let ItemKind::FunctionDef(f) = &i.kind {
            if f.declarator.name.as_ref().map(|p| p.last().name.as_str()) == Some(name) {
                return f;
            }
        }
    }
    panic!("no function {name} in {:#?}", r.tu.items.iter().map(|i| &i.kind).collect::<Vec<_>>());
}

/// The first statement of function `name` that is an expression statement.
pub fn nth_stmt<'a>(r: &'a ParseResult, func: &str, n: usize) -> &'a Stmt {
    &function(r, func).body.stmts[n]
}

/// The expression of a `return e;` in `int f() { return e; }`-style tests.
pub fn expr_of(src_expr: &str) -> Expr {
    expr_with(src_expr, "")
}

pub fn expr_with(src_expr: &str, prelude: &str) -> Expr {
    let r = parse_ok(&format!("{prelude}\n__device__ int f() {{ return {src_expr}; }}"));
    match &nth_stmt(&r, "f", 0).kind {
        StmtKind::Return(Some(e)) => e.clone(),
        other => panic!("expected return, got {other:?}"),
    }
}

/// The first diagnostic, rendered on one line as `file:line:col: message`.
pub fn first_error(src: &str) -> String {
    let r = parse_cu(src);
    let d = r.diagnostics.first().unwrap_or_else(|| panic!("expected a diagnostic for:\n{src}"));
    let loc = r.source_map.lookup(d.span.lo);
    format!("{}:{}:{}: {}", loc.file, loc.line, loc.col, d.message)
}
