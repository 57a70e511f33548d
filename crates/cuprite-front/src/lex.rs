//! Lexer for preprocessed C/C++ text.
//!
//! Tokens are byte ranges into the source; the parser reads their text back from it.
//! Keywords are not separate kinds: they are `Ident`s, so that the parser decides what is
//! a keyword in which position (CUDA qualifiers arrive as plain identifiers too).
//! Directive lines (`# 12 "file.cu" 2 3` linemarkers, `#pragma`) are handled here:
//! linemarkers feed the [`SourceMapBuilder`], pragmas become `Pragma` tokens.

use crate::source_map::SourceMapBuilder;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind {
    Ident,
    Int,
    Float,
    /// Character literal, with its prefix (`L'x'`).
    Char,
    /// String literal, with its prefix (`u8"x"`, `R"(x)"`).
    Str,
    Punct,
    /// A whole `#pragma ...` line.
    Pragma,
    /// A byte that starts no token, or an unterminated literal.
    Unknown,
    Eof,
}

#[derive(Clone, Copy, Debug)]
pub struct Token {
    pub kind: TokKind,
    pub lo: u32,
    pub hi: u32,
    /// The token is the first one on its line (used for recovery heuristics).
    pub line_start: bool,
}

/// Punctuators, longest first within each starting character so that the first match
/// is the longest one.
const PUNCTS: &[&str] = &[
    ">>=", "<<=", "...", "->*", "<=>", "->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=",
    "&&", "||", "+=", "-=", "*=", "/=", "%=", "&=", "^=", "|=", "::", "##", ".*", "+", "-",
    "*", "/", "%", "<", ">", "=", "!", "&", "|", "^", "~", "?", ":", ";", ",", ".", "(", ")",
    "[", "]", "{", "}", "#", "@", "\\",
];

fn is_ident_start(b: u8) -> bool {
    b.is_ascii_alphabetic() || b == b'_' || b == b'$' || b >= 0x80
}

fn is_ident_char(b: u8) -> bool {
    is_ident_start(b) || b.is_ascii_digit()
}

/// Lexes the whole text. The returned vector always ends with an `Eof` token.
pub fn lex(src: &str, sm: &mut SourceMapBuilder) -> Vec<Token> {
    let b = src.as_bytes();
    let n = b.len();
    let mut toks = Vec::with_capacity(n / 4);
    let mut i = 0usize;
    let mut at_line_start = true;
    while i < n {
        let c = b[i];
        match c {
            b'\n' => {
                at_line_start = true;
                i += 1;
                continue;
            }
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => {
                i += 1;
                continue;
            }
            b'\\' if i + 1 < n && (b[i + 1] == b'\n' || b[i + 1] == b'\r') => {
                // Line continuation (rare after preprocessing).
                i += 2;
                continue;
            }
            b'/' if i + 1 < n && b[i + 1] == b'/' => {
                while i < n && b[i] != b'\n' {
                    i += 1;
                }
                continue;
            }
            b'/' if i + 1 < n && b[i + 1] == b'*' => {
                i += 2;
                while i < n && !(b[i] == b'*' && i + 1 < n && b[i + 1] == b'/') {
                    i += 1;
                }
                i = (i + 2).min(n);
                continue;
            }
            b'#' if at_line_start => {
                let end = memchr_nl(b, i);
                directive(src, i, end, sm, &mut toks);
                i = end;
                continue;
            }
            _ => {}
        }
        let start = i;
        let line_start = at_line_start;
        at_line_start = false;
        let kind = if is_ident_start(c) {
            while i < n && is_ident_char(b[i]) {
                i += 1;
            }
            let word = &src[start..i];
            if i < n && (b[i] == b'"' || b[i] == b'\'') && is_literal_prefix(word) {
                if word.ends_with('R') && b[i] == b'"' {
                    i = lex_raw_string(b, i);
                    TokKind::Str
                } else {
                    lex_quoted(b, &mut i)
                }
            } else {
                TokKind::Ident
            }
        } else if c.is_ascii_digit() || (c == b'.' && i + 1 < n && b[i + 1].is_ascii_digit()) {
            lex_number(b, &mut i)
        } else if c == b'"' || c == b'\'' {
            lex_quoted(b, &mut i)
        } else {
            let rest = &b[i..];
            match PUNCTS.iter().find(|p| rest.starts_with(p.as_bytes())) {
                Some(p) => {
                    i += p.len();
                    TokKind::Punct
                }
                None => {
                    // Skip one whole UTF-8 character (only ASCII reaches here, but be safe).
                    i += 1;
                    while i < n && (b[i] & 0xC0) == 0x80 {
                        i += 1;
                    }
                    TokKind::Unknown
                }
            }
        };
        toks.push(Token { kind, lo: start as u32, hi: i as u32, line_start });
    }
    toks.push(Token { kind: TokKind::Eof, lo: n as u32, hi: n as u32, line_start: true });
    toks
}

fn memchr_nl(b: &[u8], from: usize) -> usize {
    b[from..].iter().position(|&c| c == b'\n').map_or(b.len(), |p| from + p)
}

fn is_literal_prefix(word: &str) -> bool {
    matches!(word, "L" | "u" | "U" | "u8" | "R" | "LR" | "uR" | "UR" | "u8R")
}

/// Lexes `"..."` or `'...'` starting at the quote at `*i`.
fn lex_quoted(b: &[u8], i: &mut usize) -> TokKind {
    let quote = b[*i];
    let mut j = *i + 1;
    while j < b.len() {
        match b[j] {
            b'\\' => j += 2,
            b'\n' => break,
            c if c == quote => {
                *i = j + 1;
                return if quote == b'"' { TokKind::Str } else { TokKind::Char };
            }
            _ => j += 1,
        }
    }
    *i = j.min(b.len());
    TokKind::Unknown
}

/// `R"delim( ... )delim"` starting at the quote.
fn lex_raw_string(b: &[u8], q: usize) -> usize {
    let mut j = q + 1;
    while j < b.len() && b[j] != b'(' && b[j] != b'\n' && j - q <= 17 {
        j += 1;
    }
    let delim = &b[q + 1..j.min(b.len())];
    let mut k = j + 1;
    while k < b.len() {
        if b[k] == b')' && b[k + 1..].starts_with(delim) && b.get(k + 1 + delim.len()) == Some(&b'"') {
            return k + delim.len() + 2;
        }
        k += 1;
    }
    b.len()
}

/// A preprocessing number: digits, letters, `.`, `'` separators and signed exponents.
fn lex_number(b: &[u8], i: &mut usize) -> TokKind {
    let start = *i;
    let hex = b[start] == b'0' && matches!(b.get(start + 1), Some(b'x' | b'X'));
    let mut j = start;
    let mut float = false;
    while j < b.len() {
        let c = b[j];
        if c == b'.' {
            float = true;
            j += 1;
        } else if (c == b'+' || c == b'-')
            && matches!(b[j - 1], b'e' | b'E' | b'p' | b'P')
            && (!hex || matches!(b[j - 1], b'p' | b'P'))
        {
            j += 1;
        } else if c == b'\'' && b.get(j + 1).is_some_and(|d| d.is_ascii_alphanumeric()) {
            j += 1;
        } else if c.is_ascii_alphanumeric() || c == b'_' {
            if hex && (c == b'p' || c == b'P') {
                float = true;
            } else if !hex && (c == b'e' || c == b'E') && j > start {
                float = true;
            }
            j += 1;
        } else {
            break;
        }
    }
    *i = j;
    if float {
        TokKind::Float
    } else {
        TokKind::Int
    }
}

/// Handles one directive line `src[start..end]` (starting at `#`).
fn directive(src: &str, start: usize, end: usize, sm: &mut SourceMapBuilder, toks: &mut Vec<Token>) {
    let line = &src[start + 1..end];
    let body = line.trim_start();
    let next_line = (end + 1).min(src.len()) as u32;
    if body.starts_with(|c: char| c.is_ascii_digit()) {
        linemarker(body, next_line, sm);
    } else if let Some(rest) = body.strip_prefix("line") {
        if rest.starts_with([' ', '\t']) {
            linemarker(rest.trim_start(), next_line, sm);
        }
    } else if body.starts_with("pragma") {
        let hi = end - (line.len() - line.trim_end().len());
        toks.push(Token { kind: TokKind::Pragma, lo: start as u32, hi: hi as u32, line_start: true });
    }
    // Other directives (`#ident`, `#define` under -dD) carry nothing for us.
}

/// `12 "file.cu" 2 3`: the next line is line 12 of `file.cu`.
fn linemarker(text: &str, next_line: u32, sm: &mut SourceMapBuilder) {
    let digits_end = text.find(|c: char| !c.is_ascii_digit()).unwrap_or(text.len());
    let Ok(line) = text[..digits_end].parse::<u32>() else { return };
    let rest = text[digits_end..].trim_start();
    let (file, flags) = match rest.strip_prefix('"') {
        Some(r) => {
            let mut name = String::new();
            let mut chars = r.char_indices();
            let mut close = r.len();
            while let Some((k, ch)) = chars.next() {
                match ch {
                    '\\' => {
                        if let Some((_, e)) = chars.next() {
                            name.push(e);
                        }
                    }
                    '"' => {
                        close = k + 1;
                        break;
                    }
                    _ => name.push(ch),
                }
            }
            (Some(name), &r[close.min(r.len())..])
        }
        None => (None, rest),
    };
    let system = flags.split_whitespace().any(|f| f == "3");
    sm.marker(next_line, line, file, system);
}
