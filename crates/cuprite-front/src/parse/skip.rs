//! Balanced-token scanning: where an item ends without parsing it, what it seems to
//! declare, and how to get past a statement that failed to parse.
//!
//! This is what lets the parser walk through host code and libstdc++ headers it does not
//! understand: an item ends at `;` outside brackets, or at the `}` that closes a function
//! body (a `{` after a parameter list `(...)` and not after `=`).

use super::Parser;
use crate::lex::TokKind;

/// What a scan found out about one item.
pub(super) struct ItemScan {
    /// Token index just past the item.
    pub end: usize,
    /// The item is a function definition (it ends with a body).
    pub is_function_def: bool,
    /// A device-side CUDA qualifier (`__global__`, `__device__`, `__constant__`,
    /// `__shared__`, `__managed__`) appears outside brackets.
    pub device: bool,
}

fn is_device_qual(s: &str) -> bool {
    matches!(s, "__global__" | "__device__" | "__constant__" | "__shared__" | "__managed__")
}

/// Keywords whose parenthesised operand is not a parameter list.
fn takes_paren_operand(s: &str) -> bool {
    matches!(
        s,
        "__attribute__"
            | "__attribute"
            | "alignas"
            | "_Alignas"
            | "__align__"
            | "__declspec"
            | "decltype"
            | "__typeof__"
            | "__typeof"
            | "typeof"
            | "__launch_bounds__"
            | "noexcept"
            | "throw"
            | "__asm__"
            | "__asm"
            | "asm"
            | "static_assert"
    )
}

impl<'a> Parser<'a> {
    /// Scans the item starting at token `start` (after any `template<...>` headers).
    pub(super) fn scan_item(&self, start: usize) -> ItemScan {
        let mut i = start;
        let mut depth = 0usize;
        let mut saw_params = false;
        let mut saw_eq = false;
        // After `) :` in a constructor: `x{1}` initializes a member, not the body.
        let mut in_ctor_inits = false;
        let mut device = false;
        let mut prev = "";
        loop {
            let t = self.tok(i);
            let s = self.text_of(t);
            match t.kind {
                TokKind::Eof => return ItemScan { end: i, is_function_def: false, device },
                // A pragma between items ends a malformed one.
                TokKind::Pragma if depth == 0 => {
                    return ItemScan { end: i.max(start + 1), is_function_def: false, device }
                }
                TokKind::Punct => match s {
                    "{" if depth == 0 && saw_params && !saw_eq && (!in_ctor_inits || matches!(prev, ")" | "}")) => {
                        let end = self.skip_balanced(i);
                        return ItemScan { end, is_function_def: true, device };
                    }
                    "(" | "[" | "{" => {
                        if s == "(" && depth == 0 && !takes_paren_operand(prev) && prev != "operator" {
                            saw_params = true;
                        }
                        if s == "(" && takes_paren_operand(prev) {
                            // Skip the operand so that nothing inside counts.
                            i = self.skip_balanced(i);
                            prev = ")";
                            continue;
                        }
                        depth += 1;
                    }
                    ")" | "]" => depth = depth.saturating_sub(1),
                    "}" => {
                        if depth == 0 {
                            // The `}` of an enclosing namespace: the item ends before it.
                            return ItemScan { end: i.max(start + 1), is_function_def: false, device };
                        }
                        depth -= 1;
                    }
                    ";" if depth == 0 => return ItemScan { end: i + 1, is_function_def: false, device },
                    "=" if depth == 0 && prev != "operator" => saw_eq = true,
                    ":" if depth == 0 && saw_params => in_ctor_inits = true,
                    _ => {}
                },
                TokKind::Ident if depth == 0 && is_device_qual(s) => device = true,
                _ => {}
            }
            prev = s;
            i += 1;
        }
    }

    /// From an opening bracket at token `i`, the index just past its partner (or EOF).
    pub(super) fn skip_balanced(&self, i: usize) -> usize {
        let mut depth = 0usize;
        let mut j = i;
        loop {
            let t = self.tok(j);
            if t.kind == TokKind::Eof {
                return j;
            }
            if t.kind == TokKind::Punct {
                match self.text_of(t) {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return j + 1;
                        }
                    }
                    _ => {}
                }
            }
            j += 1;
        }
    }

    /// From `<` at token `i` (a template parameter or argument list), the index just past
    /// its closing `>`. Angle brackets inside parentheses do not count.
    pub(super) fn skip_angles(&self, i: usize) -> usize {
        let mut angle = 0i32;
        let mut j = i;
        loop {
            let t = self.tok(j);
            if t.kind == TokKind::Eof {
                return j;
            }
            match self.text_of(t) {
                "<" if t.kind == TokKind::Punct => angle += 1,
                ">" if t.kind == TokKind::Punct => angle -= 1,
                ">>" if t.kind == TokKind::Punct => angle -= 2,
                "(" | "[" | "{" if t.kind == TokKind::Punct => {
                    j = self.skip_balanced(j);
                    continue;
                }
                ";" | "}" | ")" if t.kind == TokKind::Punct => return j, // malformed: stop
                _ => {}
            }
            j += 1;
            if angle <= 0 {
                return j;
            }
        }
    }

    /// The names that the tokens `[start, end)` of an item appear to declare: a record or
    /// enum tag, a function name, variable or typedef names.
    pub(super) fn item_names(&self, start: usize, end: usize) -> Vec<String> {
        let mut names: Vec<String> = Vec::new();
        let mut depth = 0usize;
        let mut i = start;
        let mut push = |n: String| {
            if !names.contains(&n) {
                names.push(n);
            }
        };
        while i < end {
            let t = self.tok(i);
            let s = self.text_of(t);
            match s {
                "(" | "[" | "{" | "<" if t.kind == TokKind::Punct => {
                    if s == "(" && depth == 0 && takes_paren_operand(if i > 0 { self.text_of(self.tok(i - 1)) } else { "" }) {
                        i = self.skip_balanced(i);
                        continue;
                    }
                    if s == "<" {
                        // Template arguments: skip, they declare nothing.
                        i = self.skip_angles(i);
                        continue;
                    }
                    depth += 1;
                }
                ")" | "]" | "}" if t.kind == TokKind::Punct => depth = depth.saturating_sub(1),
                "operator" if depth == 0 => {
                    // `operator+`, `operator()`, `operator new[]`, `operator int`.
                    let mut n = String::from("operator");
                    let mut j = i + 1;
                    if self.text_of(self.tok(j)) == "(" {
                        n.push_str("()");
                        j += 2;
                    } else {
                        while j < end && j < i + 8 && self.text_of(self.tok(j)) != "(" {
                            let tok = self.tok(j);
                            if tok.kind == TokKind::Ident {
                                n.push(' ');
                            }
                            n.push_str(self.text_of(tok));
                            j += 1;
                        }
                    }
                    push(n);
                    i = j;
                    continue;
                }
                "struct" | "class" | "union" | "enum" if depth == 0 => {
                    let mut j = i + 1;
                    while matches!(self.text_of(self.tok(j)), "class" | "struct") {
                        j += 1;
                    }
                    while takes_paren_operand(self.text_of(self.tok(j))) {
                        j = self.skip_balanced(j + 1);
                    }
                    let n = self.tok(j);
                    if n.kind == TokKind::Ident && !super::is_reserved(self.text_of(n)) {
                        push(self.text_of(n).to_string());
                    }
                }
                _ if depth == 0 && t.kind == TokKind::Ident && !super::is_reserved(s) => {
                    let next = self.tok(i + 1);
                    let ns = self.text_of(next);
                    let ends_declarator = next.kind == TokKind::Punct
                        && matches!(ns, "(" | ";" | "," | "=" | "[" | ":" | "{" | ")");
                    if ends_declarator && !takes_paren_operand(s) {
                        push(s.to_string());
                    }
                }
                _ => {}
            }
            i += 1;
        }
        names
    }
}
