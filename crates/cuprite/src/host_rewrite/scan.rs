//! A token scanner for preprocessed C++ host text, just precise enough for the rewrite:
//! identifiers, literals (so that nothing inside them is mistaken for code), punctuation
//! one character at a time (except `::` and `->`), and preprocessor lines (linemarkers and
//! `#pragma`s) as single tokens.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Ident,
    Number,
    Literal,
    Punct,
    Directive,
}

#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub kind: Kind,
    pub start: usize,
    pub end: usize,
}

pub struct Tokens<'a> {
    pub text: &'a str,
    pub toks: Vec<Token>,
}

impl<'a> Tokens<'a> {
    pub fn str(&self, i: usize) -> &'a str {
        let t = self.toks[i];
        &self.text[t.start..t.end]
    }
    pub fn is(&self, i: usize, s: &str) -> bool {
        i < self.toks.len() && self.str(i) == s
    }
    pub fn len(&self) -> usize {
        self.toks.len()
    }
    /// Index of the token closing the bracket opened at `open` (`(`, `[`, `{`), or the
    /// last token if unbalanced.
    pub fn matching(&self, open: usize) -> usize {
        let (o, c) = match self.str(open) {
            "(" => ("(", ")"),
            "[" => ("[", "]"),
            _ => ("{", "}"),
        };
        let mut depth = 0usize;
        for i in open..self.len() {
            if self.toks[i].kind != Kind::Punct {
                continue;
            }
            let s = self.str(i);
            if s == o {
                depth += 1;
            } else if s == c {
                depth -= 1;
                if depth == 0 {
                    return i;
                }
            }
        }
        self.len().saturating_sub(1)
    }
    /// Index of the token opening the bracket closed at `close`.
    pub fn matching_back(&self, close: usize) -> usize {
        let (o, c) = match self.str(close) {
            ")" => ("(", ")"),
            "]" => ("[", "]"),
            ">" => ("<", ">"),
            _ => ("{", "}"),
        };
        let mut depth = 0usize;
        let mut i = close;
        loop {
            if self.toks[i].kind == Kind::Punct {
                let s = self.str(i);
                if s == c {
                    depth += 1;
                } else if s == o {
                    depth -= 1;
                    if depth == 0 {
                        return i;
                    }
                }
            }
            if i == 0 {
                return 0;
            }
            i -= 1;
        }
    }
    /// Three `ch` punctuators starting at token `i` (`<<<` or `>>>`). Like nvcc, the
    /// launch brackets may be spelled with spaces (`k << < g, b >> > (…)`, as Rodinia's
    /// particlefilter does): three `<` in a row occur nowhere else in C++ (after
    /// `operator`, the caller checks).
    pub fn is_triple(&self, i: usize, ch: &str) -> bool {
        i + 2 < self.len() && self.is(i, ch) && self.is(i + 1, ch) && self.is(i + 2, ch)
    }
}

pub fn scan(text: &str) -> Tokens<'_> {
    let b = text.as_bytes();
    let mut toks = Vec::new();
    let mut i = 0;
    let mut line_start = true;
    while i < b.len() {
        let c = b[i];
        if c == b'\n' {
            line_start = true;
            i += 1;
            continue;
        }
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c == b'#' && line_start {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            toks.push(Token { kind: Kind::Directive, start, end: i });
            continue;
        }
        line_start = false;
        if c == b'/' && b.get(i + 1) == Some(&b'/') {
            while i < b.len() && b[i] != b'\n' {
                i += 1;
            }
            continue;
        }
        if c == b'/' && b.get(i + 1) == Some(&b'*') {
            i += 2;
            while i + 1 < b.len() && !(b[i] == b'*' && b[i + 1] == b'/') {
                i += 1;
            }
            i = (i + 2).min(b.len());
            continue;
        }
        if c.is_ascii_alphabetic() || c == b'_' || c >= 0x80 {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] >= 0x80) {
                i += 1;
            }
            // Raw string literal R"delim( ... )delim", possibly with an encoding prefix.
            let word = &text[start..i];
            if word.ends_with('R') && b.get(i) == Some(&b'"') && matches!(word, "R" | "u8R" | "uR" | "UR" | "LR") {
                i = skip_raw_string(b, i);
                toks.push(Token { kind: Kind::Literal, start, end: i });
                continue;
            }
            if b.get(i) == Some(&b'"') || b.get(i) == Some(&b'\'') {
                if matches!(word, "L" | "u" | "U" | "u8") {
                    i = skip_quoted(b, i);
                    toks.push(Token { kind: Kind::Literal, start, end: i });
                    continue;
                }
            }
            toks.push(Token { kind: Kind::Ident, start, end: i });
            continue;
        }
        if c.is_ascii_digit() || (c == b'.' && b.get(i + 1).is_some_and(|d| d.is_ascii_digit())) {
            while i < b.len() {
                let d = b[i];
                let exp_sign = (d == b'+' || d == b'-') && matches!(b[i - 1], b'e' | b'E' | b'p' | b'P');
                if d.is_ascii_alphanumeric() || d == b'.' || d == b'_' || d == b'\'' || exp_sign {
                    i += 1;
                } else {
                    break;
                }
            }
            toks.push(Token { kind: Kind::Number, start, end: i });
            continue;
        }
        if c == b'"' || c == b'\'' {
            i = skip_quoted(b, i);
            toks.push(Token { kind: Kind::Literal, start, end: i });
            continue;
        }
        let two = &b[i..(i + 2).min(b.len())];
        let len = if two == b"::" || two == b"->" { 2 } else { 1 };
        i += len;
        toks.push(Token { kind: Kind::Punct, start, end: i });
    }
    Tokens { text, toks }
}

fn skip_quoted(b: &[u8], mut i: usize) -> usize {
    let q = b[i];
    i += 1;
    while i < b.len() && b[i] != q && b[i] != b'\n' {
        if b[i] == b'\\' {
            i += 1;
        }
        i += 1;
    }
    (i + 1).min(b.len())
}

fn skip_raw_string(b: &[u8], mut i: usize) -> usize {
    i += 1; // the opening quote
    let delim_start = i;
    while i < b.len() && b[i] != b'(' {
        i += 1;
    }
    let delim = &b[delim_start..i];
    while i < b.len() {
        if b[i] == b')' && b[i + 1..].starts_with(delim) && b.get(i + 1 + delim.len()) == Some(&b'"') {
            return i + delim.len() + 2;
        }
        i += 1;
    }
    b.len()
}
