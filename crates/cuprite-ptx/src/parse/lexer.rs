//! PTX text to tokens. Comments (`//`, `/* */`) and whitespace are dropped; every token
//! keeps its line and column for diagnostics.

use super::{Loc, ParseError};

#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// `add`, `%r1`, `$L__BB0_2`, `_Z3fooi`, `%tid` (a special register's axis is a `Dot`).
    Ident(String),
    /// `.u32`, `.global`, `.shared::cta`, `.x`: the text after the dot.
    Dot(String),
    Int(i64),
    /// `0f3F800000` (f32 bits) and `0d...` (f64 bits), or a decimal float.
    F32(u32),
    F64(u64),
    Str(String),
    /// One of `, ; : { } [ ] ( ) + - ! @ < > = |`.
    Punct(char),
}

#[derive(Clone, Debug)]
pub struct Token {
    pub tok: Tok,
    pub loc: Loc,
}

fn ident_start(c: char) -> bool {
    c.is_ascii_alphabetic() || c == '_' || c == '$' || c == '%'
}

fn ident_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == '$'
}

pub fn lex(text: &str) -> Result<Vec<Token>, ParseError> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let (mut i, mut line, mut col) = (0usize, 1u32, 1u32);
    macro_rules! bump {
        () => {{
            if chars[i] == '\n' {
                line += 1;
                col = 1;
            } else {
                col += 1;
            }
            i += 1;
        }};
    }
    while i < chars.len() {
        let c = chars[i];
        let loc = Loc { line, col };
        if c.is_whitespace() {
            bump!();
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'/') {
            while i < chars.len() && chars[i] != '\n' {
                bump!();
            }
            continue;
        }
        if c == '/' && chars.get(i + 1) == Some(&'*') {
            bump!();
            bump!();
            while i < chars.len() && !(chars[i] == '*' && chars.get(i + 1) == Some(&'/')) {
                bump!();
            }
            if i >= chars.len() {
                return Err(ParseError { loc, message: "unterminated comment".into() });
            }
            bump!();
            bump!();
            continue;
        }
        if c == '"' {
            bump!();
            let mut s = String::new();
            while i < chars.len() && chars[i] != '"' {
                if chars[i] == '\\' && i + 1 < chars.len() {
                    bump!();
                }
                s.push(chars[i]);
                bump!();
            }
            if i >= chars.len() {
                return Err(ParseError { loc, message: "unterminated string".into() });
            }
            bump!();
            out.push(Token { tok: Tok::Str(s), loc });
            continue;
        }
        if c == '.' && chars.get(i + 1).is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_') {
            bump!();
            let mut s = String::new();
            // `.shared::cta`, `.L2::cache_hint`: `::` belongs to the modifier.
            while i < chars.len() && (ident_char(chars[i]) || (chars[i] == ':' && chars.get(i + 1) == Some(&':'))) {
                if chars[i] == ':' {
                    s.push_str("::");
                    bump!();
                    bump!();
                } else {
                    s.push(chars[i]);
                    bump!();
                }
            }
            out.push(Token { tok: Tok::Dot(s), loc });
            continue;
        }
        if c.is_ascii_digit() {
            let start = i;
            while i < chars.len() && (chars[i].is_ascii_alphanumeric() || chars[i] == '.') {
                // A decimal float may have an exponent sign: `1.5e-3`.
                let e = chars[i];
                bump!();
                if (e == 'e' || e == 'E') && !text_is_hex(&chars[start..i]) && i < chars.len() && (chars[i] == '-' || chars[i] == '+') {
                    bump!();
                }
            }
            let s: String = chars[start..i].iter().collect();
            let tok = number(&s).ok_or_else(|| ParseError { loc, message: format!("malformed number '{s}'") })?;
            out.push(Token { tok, loc });
            continue;
        }
        if ident_start(c) {
            let mut s = String::new();
            s.push(c);
            bump!();
            while i < chars.len() && ident_char(chars[i]) {
                s.push(chars[i]);
                bump!();
            }
            out.push(Token { tok: Tok::Ident(s), loc });
            continue;
        }
        if ",;:{}[]()+-!@<>=|".contains(c) {
            bump!();
            out.push(Token { tok: Tok::Punct(c), loc });
            continue;
        }
        return Err(ParseError { loc, message: format!("unexpected character '{c}'") });
    }
    Ok(out)
}

fn text_is_hex(s: &[char]) -> bool {
    s.len() >= 2 && s[0] == '0' && matches!(s[1], 'x' | 'X' | 'f' | 'F' | 'd' | 'D')
}

/// Integer (decimal, `0x` hex, `0b` binary, leading-`0` octal, optional `U` suffix) or
/// float (`0f`/`0d` hex bits, or decimal with a `.` or an exponent).
fn number(s: &str) -> Option<Tok> {
    let t = s.strip_suffix(['U', 'u']).unwrap_or(s);
    if let Some(h) = t.strip_prefix("0f").or_else(|| t.strip_prefix("0F")) {
        return (h.len() == 8).then(|| u32::from_str_radix(h, 16).ok().map(Tok::F32)).flatten();
    }
    if let Some(h) = t.strip_prefix("0d").or_else(|| t.strip_prefix("0D")) {
        return (h.len() == 16).then(|| u64::from_str_radix(h, 16).ok().map(Tok::F64)).flatten();
    }
    if let Some(h) = t.strip_prefix("0x").or_else(|| t.strip_prefix("0X")) {
        return u64::from_str_radix(h, 16).ok().map(|v| Tok::Int(v as i64));
    }
    if let Some(b) = t.strip_prefix("0b").or_else(|| t.strip_prefix("0B")) {
        return u64::from_str_radix(b, 2).ok().map(|v| Tok::Int(v as i64));
    }
    if t.contains('.') || t.contains(['e', 'E']) {
        return s.parse::<f64>().ok().map(|v| Tok::F64(v.to_bits()));
    }
    if t.len() > 1 && t.starts_with('0') {
        return u64::from_str_radix(&t[1..], 8).ok().map(|v| Tok::Int(v as i64));
    }
    t.parse::<u64>().ok().map(|v| Tok::Int(v as i64))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        lex(s).unwrap().into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn instruction_tokens() {
        assert_eq!(
            toks("@!%p1 ld.shared::cta.v2.u32 {%r1, %r2}, [%rd1+-8]; // c"),
            vec![
                Tok::Punct('@'),
                Tok::Punct('!'),
                Tok::Ident("%p1".into()),
                Tok::Ident("ld".into()),
                Tok::Dot("shared::cta".into()),
                Tok::Dot("v2".into()),
                Tok::Dot("u32".into()),
                Tok::Punct('{'),
                Tok::Ident("%r1".into()),
                Tok::Punct(','),
                Tok::Ident("%r2".into()),
                Tok::Punct('}'),
                Tok::Punct(','),
                Tok::Punct('['),
                Tok::Ident("%rd1".into()),
                Tok::Punct('+'),
                Tok::Punct('-'),
                Tok::Int(8),
                Tok::Punct(']'),
                Tok::Punct(';'),
            ]
        );
    }

    #[test]
    fn numbers() {
        assert_eq!(toks("0f3F800000 0d3FF0000000000000 0x1f 017 42U 1.5 0b101"), vec![
            Tok::F32(0x3F80_0000),
            Tok::F64(0x3FF0_0000_0000_0000),
            Tok::Int(31),
            Tok::Int(15),
            Tok::Int(42),
            Tok::F64(1.5f64.to_bits()),
            Tok::Int(5),
        ]);
        assert!(lex("0f123").is_err());
    }

    #[test]
    fn positions_and_comments() {
        let t = lex("/* a\n b */ mov.u32\n  %r1").unwrap();
        assert_eq!((t[0].loc.line, t[0].loc.col), (2, 7));
        assert_eq!((t[2].loc.line, t[2].loc.col), (3, 3));
    }
}
