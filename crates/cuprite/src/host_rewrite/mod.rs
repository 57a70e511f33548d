//! The host side of a `.cu` file: its preprocessed text rewritten into plain C++ that the
//! system compiler accepts (DESIGN.md §1).
//!
//! - a kernel's body becomes a stub that hands its arguments to the runtime;
//! - a device-only function's body becomes a trap;
//! - `__host__ __device__` bodies are kept;
//! - a `__device__`/`__constant__` variable becomes a host shadow of the same type with
//!   external linkage, which the device object registers with the runtime;
//! - `k<<<g, b, s, st>>>(args)` becomes "push the configuration, then call the stub";
//! - every remaining CUDA keyword is blanked.
//!
//! The rewrite never adds or removes a line, so the host compiler's diagnostics point at
//! the user's source (the text also keeps the preprocessor's linemarkers).

mod misuse;
mod scan;

pub use misuse::Misuse;
use misuse::{FnDecl, FnKind};

use scan::{Kind, Tokens};

/// Declarations the rewritten text relies on, put before the first linemarker.
const PRELUDE: &str = "extern \"C\" void __cuprite_launch_from_stub(const void *, void **);\n";

const SPACE_KEYWORDS: &[&str] = &["__global__", "__device__", "__host__", "__shared__", "__constant__", "__managed__", "__noinline__", "__grid_constant__"];

/// Keywords followed by a parenthesised argument list that goes away with them.
const KEYWORDS_WITH_ARGS: &[&str] = &["__launch_bounds__", "__cluster_dims__", "__maxnreg__"];

/// Groups that precede a declarator but are not its parameter list.
const NON_DECLARATOR_GROUPS: &[&str] = &["__launch_bounds__", "__cluster_dims__", "__maxnreg__", "__attribute__", "__align__", "alignas", "__declspec", "decltype", "noexcept", "throw", "__asm__", "asm"];

#[derive(Debug)]
struct Edit {
    start: usize,
    end: usize,
    text: String,
}

/// What the rewrite saw, for the driver's checks.
#[derive(Debug, Default)]
pub struct HostInfo {
    /// Source names of the kernels whose bodies became stubs.
    pub kernels: Vec<String>,
    /// Calls nvcc rejects (`misuse.rs`); the build stops with them.
    pub misuse: Vec<Misuse>,
}

pub fn rewrite(text: &str) -> (String, HostInfo) {
    let toks = scan::scan(text);
    let mut rw = Rewriter { t: &toks, edits: Vec::new(), info: HostInfo::default(), fns: Vec::new() };
    rw.scope(0, toks.len(), Scope::Namespace);
    rw.info.misuse = misuse::check(&toks, &rw.fns);
    rw.launches();
    rw.blank_keywords();
    let out = apply(text, rw.edits);
    (format!("{PRELUDE}{out}"), rw.info)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Scope {
    Namespace,
    Class,
}

struct Rewriter<'a> {
    t: &'a Tokens<'a>,
    edits: Vec<Edit>,
    info: HostInfo,
    /// Every function declaration, for the misuse check.
    fns: Vec<FnDecl>,
}

impl<'a> Rewriter<'a> {
    /// Walks the declarations of a namespace-level or class-level scope `[from, to)`.
    fn scope(&mut self, from: usize, to: usize, scope: Scope) {
        let t = self.t;
        let mut decl_start = from;
        let mut i = from;
        let mut seen_assign = false;
        while i < to {
            let s = t.str(i);
            match t.toks[i].kind {
                Kind::Directive => {
                    if decl_start == i {
                        decl_start = i + 1;
                    }
                    i += 1;
                    continue;
                }
                Kind::Punct => {}
                Kind::Ident if s == "template" && t.is(i + 1, "<") => {
                    // A template parameter list: its `=` are default arguments.
                    i = self.angle_close(i + 1).map_or(i + 1, |c| c + 1);
                    continue;
                }
                Kind::Ident if s == "operator" => {
                    // `operator+=`, `operator()`: the name is not an initializer.
                    i = self.after_operator_name(i);
                    continue;
                }
                _ => {
                    i += 1;
                    continue;
                }
            }
            match s {
                ";" => {
                    self.declaration(decl_start, i, None, scope);
                    i += 1;
                    decl_start = i;
                    seen_assign = false;
                }
                "=" => {
                    seen_assign = true;
                    i += 1;
                }
                "(" | "[" => i = t.matching(i) + 1,
                "{" => {
                    let close = t.matching(i);
                    let head = self.head_kind(decl_start, i);
                    if seen_assign || head == Head::Other {
                        // An initializer or an enum body: part of the declaration.
                        i = close + 1;
                        continue;
                    }
                    match head {
                        Head::Namespace => {
                            self.scope(i + 1, close, Scope::Namespace);
                            i = close + 1;
                            decl_start = i;
                        }
                        Head::Class => {
                            self.scope(i + 1, close, Scope::Class);
                            i = close + 1; // the declaration goes on to its `;`
                        }
                        Head::Function => {
                            self.declaration(decl_start, i, Some(close), scope);
                            i = close + 1;
                            decl_start = i;
                        }
                        Head::Other => unreachable!(),
                    }
                    seen_assign = false;
                }
                ":" if scope == Scope::Class && decl_start + 1 == i => {
                    // `public:` and friends.
                    i += 1;
                    decl_start = i;
                }
                _ => i += 1,
            }
        }
    }

    /// What a `{` at token `brace` opens, given the declaration's tokens before it.
    fn head_kind(&self, start: usize, brace: usize) -> Head {
        let t = self.t;
        let words: Vec<&str> = (start..brace).filter(|&k| t.toks[k].kind == Kind::Ident).map(|k| t.str(k)).collect();
        if words.first() == Some(&"namespace") || words.starts_with(&["inline", "namespace"]) {
            return Head::Namespace;
        }
        if words.first() == Some(&"extern") && (start..brace).any(|k| t.toks[k].kind == Kind::Literal) && !(start..brace).any(|k| t.is(k, "(")) {
            return Head::Namespace;
        }
        // A function body follows its parameter list (and trailing qualifiers or a
        // constructor's member initializers). This is decided first: `struct S f() {`
        // is a function returning a struct, not a struct body.
        let mut k = start;
        let mut depth_angle = 0i32;
        while k < brace {
            if t.toks[k].kind == Kind::Punct {
                match t.str(k) {
                    "(" => {
                        let prev = if k > start { t.str(k - 1) } else { "" };
                        if !NON_DECLARATOR_GROUPS.contains(&prev) && depth_angle == 0 {
                            return Head::Function;
                        }
                        k = t.matching(k);
                    }
                    "<" => depth_angle += 1,
                    ">" => depth_angle -= 1,
                    _ => {}
                }
            }
            k += 1;
        }
        if words.iter().any(|w| matches!(*w, "struct" | "class" | "union")) && !words.contains(&"enum") {
            return Head::Class;
        }
        Head::Other
    }

    /// One declaration `[start, end)`, with its function body `{ .. }` ending at
    /// `body_close` when it is a function definition.
    fn declaration(&mut self, start: usize, end: usize, body_close: Option<usize>, scope: Scope) {
        let t = self.t;
        // Only the declaration's own tokens count, not those of a class body or a braced
        // initializer inside it (`struct C { __device__ C(); };` declares no variable).
        let top = self.outside_braces(start, end);
        let has = |w: &str| top.iter().any(|&k| t.toks[k].kind == Kind::Ident && t.str(k) == w);
        let global = has("__global__");
        let device = has("__device__");
        let host = has("__host__");
        let var_space = has("__constant__") || has("__managed__") || (device && !self.is_function(start, end));
        self.record_function(start, end, body_close, scope, [global, device, host]);
        for &k in &top {
            if t.is(k, "__forceinline__") {
                self.replace(k, k + 1, "inline");
            }
        }
        // The device object refers to kernel stubs and variable shadows by symbol: keep
        // them even when host code never uses them and they have internal linkage
        // (`static`, anonymous namespace; the driver makes such symbols visible to the
        // device object, DESIGN.md §1). Templates are emitted per use anyway.
        let keep = |rw: &mut Self, word: &str| {
            if let Some(&k) = top.iter().find(|&&k| t.is(k, word)) {
                rw.replace(k, k + 1, "__attribute__((used))");
            }
        };
        if let Some(close) = body_close {
            let open = end;
            if global {
                if !t.is(start, "template") {
                    keep(self, "__global__");
                }
                self.kernel_stub(start, open, close);
            } else if device && !host {
                if self.drop_member_initializers(start, open, close, scope) {
                    return;
                }
                let newlines = self.newlines(open, close);
                self.edits.push(Edit { start: t.toks[open].start, end: t.toks[close].end, text: format!("{{ __builtin_trap(); {newlines}}}") });
            }
            return;
        }
        if scope == Scope::Namespace && !self.is_function(start, end) && self.is_texture_reference(&top) {
            // The device object registers it as the host side of the reference's cell.
            self.edits.push(Edit { start: t.toks[start].start, end: t.toks[start].start, text: "__attribute__((used)) ".into() });
            return;
        }
        if var_space && !global && !self.is_function(start, end) && scope == Scope::Namespace {
            // A host shadow's definition (not an `extern` declaration).
            let has_init = top.iter().any(|&k| t.is(k, "=") || t.is(k, "{"));
            if has_init || !has("extern") {
                for word in ["__device__", "__constant__", "__managed__"] {
                    if has(word) {
                        keep(self, word);
                        break;
                    }
                }
            }
        }
    }

    /// Notes a function declaration's name and kind (and a host body) for `misuse`.
    fn record_function(&mut self, start: usize, end: usize, body_close: Option<usize>, scope: Scope, [global, device, host]: [bool; 3]) {
        let t = self.t;
        let Some(lparen) = self.declarator_parens(start, end) else { return };
        if lparen == 0 || t.toks[lparen - 1].kind != Kind::Ident {
            return;
        }
        let kind = match (scope, global, device, host) {
            (Scope::Class, ..) => FnKind::Member,
            (_, true, ..) => FnKind::Kernel,
            (_, _, true, true) => FnKind::HostDevice,
            (_, _, true, false) => FnKind::Device,
            _ => FnKind::Host,
        };
        let template = t.is(start, "template");
        let host_body = match (kind, body_close) {
            (FnKind::Host, Some(close)) if !template => Some((end, close)),
            _ => None,
        };
        self.fns.push(FnDecl { name: t.str(lparen - 1).to_string(), kind, host_body });
    }

    /// A legacy texture or surface reference's definition: `[static] texture<...> name;`,
    /// `surface<void, dim> name;`.
    fn is_texture_reference(&self, top: &[usize]) -> bool {
        let t = self.t;
        let words: Vec<usize> = top.iter().copied().skip_while(|&k| t.is(k, "static")).collect();
        matches!(words.as_slice(), [k, lt, ..] if (t.is(*k, "texture") || t.is(*k, "surface")) && t.is(*lt, "<")) && !top.iter().any(|&k| t.is(k, "extern"))
    }

    /// A device-only constructor's member initializers name device code (`__popc(m)`,
    /// `threadIdx.x`) that host code cannot see. Defined in its class, the constructor
    /// becomes a declaration (host code cannot call it anyway, and a base without a
    /// default constructor needs no initializer then); defined outside, its
    /// initializers go and its body traps. True when the whole definition was replaced.
    fn drop_member_initializers(&mut self, start: usize, open: usize, close: usize, scope: Scope) -> bool {
        let t = self.t;
        let Some(lparen) = self.declarator_parens(start, open) else { return false };
        let mut k = t.matching(lparen) + 1;
        while k < open {
            if t.is(k, "(") || t.is(k, "[") {
                k = t.matching(k);
            } else if t.is(k, ":") {
                if scope == Scope::Class {
                    let newlines = self.newlines(k, close);
                    self.edits.push(Edit { start: t.toks[k].start, end: t.toks[close].end, text: format!(";{newlines}") });
                    return true;
                }
                let newlines = self.newlines(k, open);
                self.edits.push(Edit { start: t.toks[k].start, end: t.toks[open].start, text: newlines });
                return false;
            }
            k += 1;
        }
        false
    }

    /// The tokens of `[start, end)` that are not inside a `{ }` group (the braces
    /// themselves included).
    fn outside_braces(&self, start: usize, end: usize) -> Vec<usize> {
        let mut out = Vec::new();
        let mut k = start;
        while k < end {
            out.push(k);
            if self.t.is(k, "{") {
                k = self.t.matching(k);
                out.push(k);
            }
            k += 1;
        }
        out
    }

    /// The declaration declares a function (its declarator has a parameter list).
    fn is_function(&self, start: usize, end: usize) -> bool {
        self.declarator_parens(start, end).is_some()
    }

    /// The `(` of the declarator's parameter list.
    fn declarator_parens(&self, start: usize, end: usize) -> Option<usize> {
        let t = self.t;
        let mut k = start;
        while k < end {
            if t.is(k, "template") && t.is(k + 1, "<") {
                k = self.angle_close(k + 1).map_or(k + 1, |c| c + 1);
                continue;
            }
            if t.is(k, "operator") {
                let params = self.after_operator_name(k);
                return t.is(params, "(").then_some(params);
            }
            if t.is(k, "=") {
                return None;
            }
            if t.is(k, "(") {
                let prev = if k > start { t.str(k - 1) } else { "" };
                if !NON_DECLARATOR_GROUPS.contains(&prev) && prev != "(" {
                    return Some(k);
                }
                k = t.matching(k);
            }
            k += 1;
        }
        None
    }

    /// Replaces a kernel's body with a stub that passes its own address and its
    /// arguments to the runtime.
    fn kernel_stub(&mut self, start: usize, open: usize, close: usize) {
        let t = self.t;
        let Some(lparen) = self.declarator_parens(start, open) else { return };
        let rparen = t.matching(lparen);
        // The kernel's (possibly qualified) name: identifiers and `::` before the `(`.
        let mut n = lparen;
        while n > start {
            let p = n - 1;
            let ident = t.toks[p].kind == Kind::Ident && !SPACE_KEYWORDS.contains(&t.str(p));
            if t.is(p, "::") || (ident && (n == lparen || t.is(n, "::"))) {
                n = p;
                continue;
            }
            break;
        }
        let mut name: String = (n..lparen).map(|k| t.str(k)).collect();
        if n == lparen && t.is(lparen - 1, ">") {
            // An explicit specialization, `k<float>(...)`: the arguments name it.
            let open = t.matching_back(lparen - 1);
            let mut m = open;
            while m > start && (t.toks[m - 1].kind == Kind::Ident || t.is(m - 1, "::")) && !SPACE_KEYWORDS.contains(&t.str(m - 1)) {
                m -= 1;
                if t.toks[m].kind == Kind::Ident && m > start && t.toks[m - 1].kind == Kind::Ident {
                    break;
                }
            }
            name = t.text[t.toks[m].start..t.toks[lparen - 1].end].to_string();
        } else if let Some(args) = self.own_template_args(start) {
            // Inside a template the stub names its own specialization: template
            // parameters that no function parameter mentions cannot be deduced.
            name.push_str(&args);
        }
        self.info.kernels.push(name.clone());

        let mut params = Vec::new();
        let mut names = Vec::new();
        for (pi, (ps, pe)) in self.split_params(lparen + 1, rparen).into_iter().enumerate() {
            // Line markers inside the list (a long `#if` block dropped from it) are not part
            // of the parameter's type.
            let toks: Vec<usize> = (ps..pe)
                .filter(|&k| t.toks[k].kind != Kind::Directive)
                .filter(|&k| !(t.toks[k].kind == Kind::Ident && SPACE_KEYWORDS.contains(&t.str(k))))
                .collect();
            // Drop a default argument.
            let toks: Vec<usize> = match toks.iter().position(|&k| t.is(k, "=")) {
                Some(p) => toks[..p].to_vec(),
                None => toks,
            };
            if toks.is_empty() || (toks.len() == 1 && t.is(toks[0], "void")) {
                continue;
            }
            let mut text: Vec<String> = toks.iter().map(|&k| t.str(k).to_string()).collect();
            let last = *toks.last().unwrap();
            let named = toks.len() > 1 && t.toks[last].kind == Kind::Ident && !TYPE_WORDS.contains(&t.str(last));
            let pname = if named {
                t.str(last).to_string()
            } else {
                let generated = format!("__cuprite_p{pi}");
                text.push(generated.clone());
                generated
            };
            params.push(text.join(" "));
            names.push(pname);
        }
        let args: String = names.iter().map(|n| format!("(void *)&{n}, ")).collect();
        let ptype = params.join(", ");
        // Unnamed parameters get names in the signature as well (same line: no shift).
        let mut sig_edits = Vec::new();
        for (pi, (ps, pe)) in self.split_params(lparen + 1, rparen).into_iter().enumerate() {
            let toks: Vec<usize> = (ps..pe).filter(|&k| t.toks[k].kind != Kind::Directive).collect();
            let Some(&last) = toks.iter().rev().find(|&&k| !(t.toks[k].kind == Kind::Ident && SPACE_KEYWORDS.contains(&t.str(k)))) else { continue };
            let real: Vec<usize> = toks.iter().copied().filter(|&k| !(t.toks[k].kind == Kind::Ident && SPACE_KEYWORDS.contains(&t.str(k)))).collect();
            if real.is_empty() || (real.len() == 1 && t.is(real[0], "void")) || real.iter().any(|&k| t.is(k, "=")) {
                continue;
            }
            let named = real.len() > 1 && t.toks[last].kind == Kind::Ident && !TYPE_WORDS.contains(&t.str(last));
            if !named {
                sig_edits.push(Edit { start: t.toks[last].end, end: t.toks[last].end, text: format!(" __cuprite_p{pi}") });
            }
        }
        self.edits.extend(sig_edits);
        let newlines = self.newlines(open, close);
        let body = format!(
            "{{ void *__cuprite_args[] = {{ {args}0 }}; __cuprite_launch_from_stub((const void *)(void (*)({ptype})){name}, __cuprite_args); {newlines}}}"
        );
        self.edits.push(Edit { start: t.toks[open].start, end: t.toks[close].end, text: body });
    }

    /// `<T, N, Ts...>` for a declaration that starts with `template <typename T, int N,
    /// class... Ts>`; `None` when it is not a template or is an explicit specialization.
    fn own_template_args(&self, start: usize) -> Option<String> {
        let t = self.t;
        if !(t.is(start, "template") && t.is(start + 1, "<")) {
            return None;
        }
        let close = self.angle_close(start + 1)?;
        let params = self.split_params(start + 2, close);
        if params.is_empty() {
            return None;
        }
        let mut args = Vec::new();
        for (ps, pe) in params {
            let end = (ps..pe).find(|&k| t.is(k, "=")).unwrap_or(pe);
            let name = (ps..end).rev().find(|&k| t.toks[k].kind == Kind::Ident)?;
            let pack = (ps..end).any(|k| t.is(k, "."));
            args.push(format!("{}{}", t.str(name), if pack { "..." } else { "" }));
        }
        Some(format!("<{}>", args.join(", ")))
    }

    /// The token after an operator function's name that starts at `op` (`operator`):
    /// the `(` of its parameter list for `operator+=(`, `operator()(`, `operator float(`.
    fn after_operator_name(&self, op: usize) -> usize {
        let t = self.t;
        let mut k = op + 1;
        if t.is(k, "(") && t.is(k + 1, ")") {
            return k + 2;
        }
        while k < t.len() && !t.is(k, "(") && !t.is(k, ";") && !t.is(k, "{") {
            k += 1;
        }
        k
    }

    /// The `>` closing the template parameter list opened at `open` (`<`).
    fn angle_close(&self, open: usize) -> Option<usize> {
        let t = self.t;
        let mut depth = 0i32;
        let mut k = open;
        while k < t.len() {
            match t.str(k) {
                "(" | "[" | "{" => k = t.matching(k),
                "<" => depth += 1,
                ">" => {
                    depth -= 1;
                    if depth == 0 {
                        return Some(k);
                    }
                }
                _ => {}
            }
            k += 1;
        }
        None
    }

    /// Top-level comma-separated ranges of a parameter list.
    fn split_params(&self, from: usize, to: usize) -> Vec<(usize, usize)> {
        let t = self.t;
        let mut out = Vec::new();
        let mut s = from;
        let mut k = from;
        let mut angle = 0i32;
        while k < to {
            match t.str(k) {
                "(" | "[" | "{" => k = t.matching(k),
                "<" => angle += 1,
                ">" => angle -= 1,
                "," if angle <= 0 => {
                    out.push((s, k));
                    s = k + 1;
                }
                _ => {}
            }
            k += 1;
        }
        if s < to {
            out.push((s, to));
        }
        out
    }

    /// Rewrites every `callee<<<config>>>(args)`.
    fn launches(&mut self) {
        let t = self.t;
        let mut i = 1;
        while i + 2 < t.len() {
            if !t.is_triple(i, "<") || t.is(i - 1, "operator") || t.is(i - 1, "<") {
                i += 1;
                continue;
            }
            if self.inside_edit(t.toks[i].start) {
                i += 3;
                continue;
            }
            let Some(callee) = self.callee_start(i - 1) else {
                i += 3;
                continue;
            };
            // The configuration runs to the matching `>>>`.
            let mut k = i + 3;
            let mut depth = 0i32;
            let mut close = None;
            while k < t.len() {
                match t.str(k) {
                    "(" | "[" | "{" => depth += 1,
                    ")" | "]" | "}" => depth -= 1,
                    // `> > >` that is not followed by `(` closes template arguments.
                    ">" if depth == 0 && t.is_triple(k, ">") && t.is(k + 3, "(") => {
                        close = Some(k);
                        break;
                    }
                    _ => {}
                }
                k += 1;
            }
            let Some(close) = close else { return };
            let lparen = close + 3;
            if !t.is(lparen, "(") {
                i = lparen;
                continue;
            }
            let rparen = t.matching(lparen);
            let config = &t.text[t.toks[i + 2].end..t.toks[close].start];
            // On one line; a macro from a system header (`NULL`) leaves the preprocessor's
            // line markers inside the configuration, which are dropped.
            let config_flat: String =
                config.split('\n').filter(|l| !l.trim_start().starts_with('#')).collect::<Vec<_>>().join(" ");
            self.edits.push(Edit {
                start: t.toks[callee].start,
                end: t.toks[callee].start,
                text: format!("((__cudaPushCallConfiguration({config_flat})) ? (void)0 : "),
            });
            // The lines the configuration took stay, line markers included, so that what
            // follows keeps its line numbers.
            let newlines: String = config
                .split('\n')
                .skip(1)
                .map(|l| if l.trim_start().starts_with('#') { format!("\n{l}") } else { "\n".to_string() })
                .collect();
            self.edits.push(Edit { start: t.toks[i].start, end: t.toks[close + 2].end, text: newlines });
            self.edits.push(Edit { start: t.toks[rparen].end, end: t.toks[rparen].end, text: ")".into() });
            i = rparen + 1;
        }
    }

    /// The first token of the postfix expression that ends at token `end` (the callee of
    /// a launch): `k`, `ns::k`, `k<float, 4>`, `obj.k`, `(k)`.
    fn callee_start(&self, end: usize) -> Option<usize> {
        let t = self.t;
        let mut j = end;
        loop {
            let s = t.str(j);
            if s == ">" {
                j = t.matching_back(j);
                if j == 0 {
                    return None;
                }
                j -= 1;
                continue;
            }
            if s == ")" {
                return Some(t.matching_back(j));
            }
            if t.toks[j].kind != Kind::Ident {
                return None;
            }
            if j >= 2 && (t.is(j - 1, "::") || t.is(j - 1, ".") || t.is(j - 1, "->")) {
                j -= 2;
                continue;
            }
            if j >= 1 && t.is(j - 1, "::") {
                return Some(j - 1);
            }
            return Some(j);
        }
    }

    /// Blanks the CUDA keywords that remain (and `__launch_bounds__(...)`).
    fn blank_keywords(&mut self) {
        let t = self.t;
        let mut i = 0;
        while i < t.len() {
            if t.toks[i].kind == Kind::Ident {
                let s = t.str(i);
                if SPACE_KEYWORDS.contains(&s) && !self.inside_edit(t.toks[i].start) {
                    self.replace(i, i + 1, "");
                } else if KEYWORDS_WITH_ARGS.contains(&s) && t.is(i + 1, "(") && !self.inside_edit(t.toks[i].start) {
                    let close = t.matching(i + 1);
                    let newlines = self.newlines(i, close);
                    self.edits.push(Edit { start: t.toks[i].start, end: t.toks[close].end, text: newlines });
                    i = close;
                }
            }
            i += 1;
        }
    }

    fn replace(&mut self, from: usize, to: usize, text: &str) {
        let start = self.t.toks[from].start;
        let end = self.t.toks[to - 1].end;
        if self.edits.iter().any(|e| e.start <= start && end <= e.end && e.start < e.end) {
            return;
        }
        self.edits.push(Edit { start, end, text: text.to_string() });
    }

    fn inside_edit(&self, pos: usize) -> bool {
        self.edits.iter().any(|e| e.start <= pos && pos < e.end)
    }

    /// The newlines between tokens `from` and `to`, to keep the line count of a
    /// replaced range.
    fn newlines(&self, from: usize, to: usize) -> String {
        let text = &self.t.text[self.t.toks[from].start..self.t.toks[to].end];
        "\n".repeat(text.matches('\n').count())
    }
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Head {
    Namespace,
    Class,
    Function,
    Other,
}

/// Words that end a parameter's type when the parameter has no name (`int`, `float *`).
const TYPE_WORDS: &[&str] = &[
    "int", "char", "short", "long", "float", "double", "bool", "void", "signed", "unsigned",
    "const", "volatile", "__restrict__", "__restrict", "size_t",
];

/// Applies non-overlapping edits (insertions at the same position keep their order).
fn apply(text: &str, mut edits: Vec<Edit>) -> String {
    edits.sort_by_key(|e| (e.start, e.end));
    let mut out = String::with_capacity(text.len() + 1024);
    let mut pos = 0;
    for e in edits {
        if e.start < pos {
            continue; // overlaps an earlier edit: the enclosing one wins
        }
        out.push_str(&text[pos..e.start]);
        out.push_str(&e.text);
        pos = e.end;
    }
    out.push_str(&text[pos..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn body(s: &str) -> String {
        rewrite(s).0.trim_start_matches(PRELUDE).to_string()
    }

    #[test]
    fn kernel_becomes_stub_and_keeps_lines() {
        let src = "__global__ void add(const float *a, float *b, int n)\n{\n  int i = threadIdx.x;\n  b[i] = a[i];\n}\nint x;\n";
        let out = body(src);
        assert_eq!(out.matches('\n').count(), src.matches('\n').count());
        assert!(out.contains("__cuprite_launch_from_stub((const void *)(void (*)(const float * a, float * b, int n))add"), "{out}");
        assert!(out.starts_with("__attribute__((used)) void add("), "{out}");
        assert!(!out.contains("threadIdx"));
        assert!(!out.contains("__global__"));
    }

    #[test]
    fn line_markers_inside_a_parameter_list_stay_out_of_the_stub() {
        // g++ -E writes a line marker for a long `#if` block dropped from the list.
        let src = "__global__ void k(int *out,\n# 14 \"a.cu\"\n int a)\n{\n out[0] = a;\n}\n";
        let out = body(src);
        assert!(out.contains("(void (*)(int * out, int a))k"), "{out}");
        assert_eq!(out.matches('\n').count(), src.matches('\n').count());
    }

    #[test]
    fn launch_brackets_may_be_spelled_with_spaces() {
        let out = body("void f() { k << < nb, nt >> > (x, 3); }");
        assert!(out.contains("((__cudaPushCallConfiguration( nb, nt )) ? (void)0 : k"), "{out}");
        let out = body("void f() { k<<<S<T<int> > >::v, 32>>>(p); }");
        assert!(out.contains("((__cudaPushCallConfiguration(S<T<int> > >::v, 32)) ? (void)0 : k"), "{out}");
    }

    #[test]
    fn launch_is_rewritten() {
        let src = "void f() { add<<<g,\n b>>>(x, y); }";
        let out = body(src);
        assert_eq!(out, "void f() { ((__cudaPushCallConfiguration(g,  b)) ? (void)0 : add\n(x, y)); }");
        // `NULL` from a system header: its line markers stay out of the configuration.
        let out = body("void f() { k<<<1, 2, 0,\n# 3 \"a.cu\" 3 4\n __null\n# 3 \"a.cu\"\n>>>(p); }");
        assert!(out.contains("((__cudaPushCallConfiguration(1, 2, 0,  __null )) ? (void)0 : k"), "{out}");
    }

    #[test]
    fn qualified_and_template_callees() {
        assert!(body("void f() { ns::k<<<1, 2>>>(); }").contains("((__cudaPushCallConfiguration(1, 2)) ? (void)0 : ns::k()"));
        assert!(body("void f() { k<float, 4><<<1, 2, 0, s>>>(p); }").contains("((__cudaPushCallConfiguration(1, 2, 0, s)) ? (void)0 : k<float, 4>(p))"));
    }

    #[test]
    fn operator_shift_template_is_left_alone() {
        let src = "template <class T> bool operator<<<T>(int, T);";
        assert_eq!(body(src), src);
    }

    #[test]
    fn device_function_body_traps_and_host_device_is_kept() {
        let out = body("__device__ float sq(float x) { return x * x; }\n__host__ __device__ int id(int x) { return x; }");
        assert!(out.contains("float sq(float x) { __builtin_trap(); }"), "{out}");
        assert!(out.contains("int id(int x) { return x; }"), "{out}");
    }

    #[test]
    fn device_variables_become_shadows() {
        let out = body("static __device__ int counter;\n__constant__ const float k[2] = {1, 2};\n__device__ int z = 3;\nextern __device__ int e;\n");
        assert!(out.contains("static __attribute__((used)) int counter;"), "{out}");
        assert!(out.contains("__attribute__((used)) const float k[2] = {1, 2};"), "{out}");
        assert!(out.contains("__attribute__((used)) int z = 3;"), "{out}");
        assert!(out.contains("extern  int e;"), "{out}");
    }

    #[test]
    fn unnamed_parameters_get_names() {
        let out = body("__global__ void k(int, float *) {}");
        assert!(out.contains("void k(int __cuprite_p0, float * __cuprite_p1)"), "{out}");
        assert!(out.contains("(void *)&__cuprite_p0, (void *)&__cuprite_p1"), "{out}");
    }

    #[test]
    fn launch_bounds_and_namespaces() {
        let out = body("namespace a { __global__ void __launch_bounds__(256, 2) k(int n) { } }");
        assert!(out.contains("void  k(int n)"), "{out}");
        assert!(out.contains("a::k") || out.contains(")k, __cuprite_args"), "{out}");
    }

    #[test]
    fn function_returning_struct_is_a_function() {
        let out = body("static inline struct P mk(int x) { struct P p; return p; }\n__global__ void k(int n) { }");
        assert!(out.contains("__cuprite_launch_from_stub"), "{out}");
    }

    #[test]
    fn template_kernels_name_their_own_specialization() {
        let out = body("template <typename T, unsigned BLOCK = 128, class... Ts>\n__global__ void reduce(const T *in, T *out) { }");
        assert!(out.contains("(void (*)(const T * in, T * out))reduce<T, BLOCK, Ts...>"), "{out}");
        let out = body("template <>\n__global__ void reduce<float, 64>(const float *in, float *out) { }");
        assert!(out.contains("(void (*)(const float * in, float * out))reduce<float, 64>"), "{out}");
    }

    #[test]
    fn class_bodies_do_not_make_a_declaration_a_device_variable() {
        let src = "struct C { static constexpr int k = 2; int v; __device__ C() : v(1) {} __host__ __device__ int get() const { return v + k; } };";
        let out = body(src);
        assert!(out.contains("struct C { static constexpr int k = 2; int v;  C() ;"), "{out}");
        let out = body("struct D : B { __device__ D(unsigned m)\n : B(__popc(m)) {}\n};\n__device__ D::D() : B(threadIdx.x) { }");
        assert!(out.contains("struct D : B {  D(unsigned m)\n ;\n};"), "{out}");
        assert!(out.contains("D::D() { __builtin_trap(); }"), "{out}");
        assert!(!out.contains("extern"), "{out}");
    }

    #[test]
    fn operator_functions_are_functions() {
        let out = body("inline __host__ __device__ void operator+=(float3 &a, float3 b) { a.x += b.x; }\n__device__ bool operator==(int2 a, int2 b) { return a.x == b.x; }\n__global__ void k(int n) { }");
        assert!(out.contains("void operator+=(float3 &a, float3 b) { a.x += b.x; }"), "{out}");
        assert!(out.contains("bool operator==(int2 a, int2 b) { __builtin_trap(); }"), "{out}");
        assert!(out.contains("__cuprite_launch_from_stub"), "{out}");
    }

    #[test]
    fn class_members() {
        let out = body("struct S { __device__ int f() { return 1; } __host__ __device__ S() {} };");
        assert!(out.contains("int f() { __builtin_trap(); }"), "{out}");
        assert!(out.contains("S() {}"), "{out}");
    }
}
