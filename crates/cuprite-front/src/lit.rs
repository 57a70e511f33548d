//! Values of literal tokens: integers (all radixes and suffixes), floats (decimal and hex),
//! characters and strings (escapes resolved).

use crate::ast::{FloatSuffix, IntSuffix};

/// Parses an integer literal such as `0x1Fu`, `0b101`, `017`, `1'000'000ULL`.
pub fn parse_int(text: &str) -> Result<(u128, IntSuffix, u32), String> {
    let t: String = text.chars().filter(|&c| c != '\'').collect();
    let lower = t.to_ascii_lowercase();
    let (radix, digits_start) = if lower.starts_with("0x") {
        (16, 2)
    } else if lower.starts_with("0b") {
        (2, 2)
    } else if lower.starts_with('0') && lower.len() > 1 && lower.as_bytes()[1].is_ascii_digit() {
        (8, 1)
    } else {
        (10, 0)
    };
    let body = &lower[digits_start..];
    let digits_end = body.find(|c: char| !c.is_digit(radix)).unwrap_or(body.len());
    let (digits, suffix_text) = body.split_at(digits_end);
    if digits.is_empty() && radix != 8 {
        return Err(format!("invalid integer literal '{text}'"));
    }
    let mut value: u128 = 0;
    for c in digits.chars() {
        let d = c.to_digit(radix).ok_or_else(|| format!("invalid digit in integer literal '{text}'"))?;
        value = value
            .checked_mul(radix as u128)
            .and_then(|v| v.checked_add(d as u128))
            .ok_or_else(|| format!("integer literal '{text}' is too large"))?;
    }
    let suffix = parse_int_suffix(suffix_text).ok_or_else(|| format!("invalid suffix on integer literal '{text}'"))?;
    Ok((value, suffix, radix))
}

fn parse_int_suffix(s: &str) -> Option<IntSuffix> {
    let mut suf = IntSuffix::default();
    let mut rest = s;
    while !rest.is_empty() {
        if let Some(r) = rest.strip_prefix("ll") {
            if suf.long != 0 {
                return None;
            }
            suf.long = 2;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('l') {
            if suf.long != 0 {
                return None;
            }
            suf.long = 1;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('u') {
            if suf.unsigned {
                return None;
            }
            suf.unsigned = true;
            rest = r;
        } else if let Some(r) = rest.strip_prefix('z') {
            // C++23 `z`/`uz` (size_t): treat as long, which it is on LP64.
            suf.long = 1;
            rest = r;
        } else {
            return None;
        }
    }
    Some(suf)
}

/// Parses a floating literal such as `1.5f`, `.5`, `1e-3L`, `0x1.8p3`.
pub fn parse_float(text: &str) -> Result<(f64, FloatSuffix), String> {
    let t: String = text.chars().filter(|&c| c != '\'').collect();
    let bad = || format!("invalid floating literal '{text}'");
    let is_hex = t.len() > 2 && (t.starts_with("0x") || t.starts_with("0X"));
    let (body, suffix) = split_float_suffix(&t, is_hex);
    let value = if is_hex { parse_hex_float(&body[2..]).ok_or_else(bad)? } else { body.parse::<f64>().map_err(|_| bad())? };
    Ok((value, suffix))
}

fn split_float_suffix(t: &str, is_hex: bool) -> (&str, FloatSuffix) {
    let lower = t.to_ascii_lowercase();
    for (suf, kind) in [("f16", FloatSuffix::F), ("f32", FloatSuffix::F), ("f64", FloatSuffix::None), ("bf16", FloatSuffix::F)] {
        if lower.ends_with(suf) && !(is_hex && suf == "f16" && !lower.contains('p')) {
            return (&t[..t.len() - suf.len()], kind);
        }
    }
    match lower.as_bytes().last() {
        Some(b'f') if !is_hex || lower.contains('p') => (&t[..t.len() - 1], FloatSuffix::F),
        Some(b'l') => (&t[..t.len() - 1], FloatSuffix::L),
        _ => (t, FloatSuffix::None),
    }
}

/// `1.8p3` (after `0x`): hex mantissa, binary exponent.
fn parse_hex_float(s: &str) -> Option<f64> {
    let lower = s.to_ascii_lowercase();
    let (mant, exp) = match lower.split_once('p') {
        Some((m, e)) => (m, e.parse::<i32>().ok()?),
        None => (lower.as_str(), 0),
    };
    let (int_part, frac_part) = mant.split_once('.').unwrap_or((mant, ""));
    if int_part.is_empty() && frac_part.is_empty() {
        return None;
    }
    let mut value = 0f64;
    for c in int_part.chars() {
        value = value * 16.0 + c.to_digit(16)? as f64;
    }
    let mut scale = 1.0 / 16.0;
    for c in frac_part.chars() {
        value += c.to_digit(16)? as f64 * scale;
        scale /= 16.0;
    }
    Some(value * 2f64.powi(exp))
}

/// Splits a prefix (`L`, `u`, `U`, `u8`, with `R` for raw strings) off a literal.
fn split_prefix(text: &str) -> (&str, &str) {
    let q = text.find(['"', '\'']).unwrap_or(0);
    text.split_at(q)
}

/// Parses a character literal: its value and whether it is wide.
pub fn parse_char(text: &str) -> Result<(u32, bool), String> {
    let (prefix, rest) = split_prefix(text);
    let inner = rest.strip_prefix('\'').and_then(|r| r.strip_suffix('\'')).ok_or("invalid character literal")?;
    let units = unescape(inner)?;
    let value = match units.as_slice() {
        [] => return Err("empty character literal".to_string()),
        [one] => *one,
        many => {
            if !prefix.is_empty() {
                return Err("character literal has more than one character".to_string());
            }
            // Multi-character constants: as GCC computes them (int, big-endian bytes).
            many.iter().fold(0u32, |acc, &c| (acc << 8) | (c & 0xff))
        }
    };
    let wide = matches!(prefix, "L" | "u" | "U");
    let value = if prefix.is_empty() { value as u8 as i8 as i32 as u32 } else { value };
    Ok((value, wide))
}

/// Parses one string literal token into bytes (UTF-8 for code points above 0x7f that
/// were written as characters or `\u` escapes; `\x`/octal escapes give raw bytes).
pub fn parse_string(text: &str) -> Result<Vec<u8>, String> {
    let (prefix, rest) = split_prefix(text);
    if prefix.ends_with('R') {
        let open = rest.find('(').ok_or("invalid raw string literal")?;
        let close = rest.rfind(')').ok_or("invalid raw string literal")?;
        return Ok(rest.get(open + 1..close).unwrap_or("").as_bytes().to_vec());
    }
    let inner = rest.strip_prefix('"').and_then(|r| r.strip_suffix('"')).ok_or("invalid string literal")?;
    let mut out = Vec::with_capacity(inner.len());
    let mut chars = inner.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c != '\\' {
            let mut buf = [0u8; 4];
            out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
            continue;
        }
        let (v, is_byte) = escape(&mut chars)?;
        if is_byte {
            out.push(v as u8);
        } else {
            let ch = char::from_u32(v).ok_or("invalid universal character name")?;
            let mut buf = [0u8; 4];
            out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
        }
    }
    Ok(out)
}

/// Resolves escapes into code units (used for character literals).
fn unescape(s: &str) -> Result<Vec<u32>, String> {
    let mut out = Vec::new();
    let mut chars = s.char_indices().peekable();
    while let Some((_, c)) = chars.next() {
        if c == '\\' {
            out.push(escape(&mut chars)?.0);
        } else {
            out.push(c as u32);
        }
    }
    Ok(out)
}

/// Reads the escape after a backslash. Returns the value and whether it is a raw byte
/// (`\x41`, octal) rather than a code point (`\u00e9`).
fn escape(chars: &mut std::iter::Peekable<std::str::CharIndices<'_>>) -> Result<(u32, bool), String> {
    let (_, c) = chars.next().ok_or("unterminated escape sequence")?;
    let simple = match c {
        'n' => Some(10),
        't' => Some(9),
        'r' => Some(13),
        '0'..='7' => {
            let mut v = c.to_digit(8).unwrap_or(0);
            for _ in 0..2 {
                match chars.peek().and_then(|&(_, d)| d.to_digit(8)) {
                    Some(d) => {
                        v = v * 8 + d;
                        chars.next();
                    }
                    None => break,
                }
            }
            return Ok((v, true));
        }
        'a' => Some(7),
        'b' => Some(8),
        'f' => Some(12),
        'v' => Some(11),
        'e' | 'E' => Some(27),
        '\\' | '\'' | '"' | '?' => Some(c as u32),
        _ => None,
    };
    if let Some(v) = simple {
        return Ok((v, true));
    }
    let digits = match c {
        'x' => None,
        'u' => Some(4),
        'U' => Some(8),
        other => return Err(format!("unknown escape sequence '\\{other}'")),
    };
    let mut v: u32 = 0;
    let mut count = 0;
    while let Some(d) = chars.peek().and_then(|&(_, d)| d.to_digit(16)) {
        if digits == Some(count) {
            break;
        }
        v = v.wrapping_mul(16).wrapping_add(d);
        count += 1;
        chars.next();
    }
    if count == 0 || digits.is_some_and(|n| n != count) {
        return Err(format!("invalid '\\{c}' escape sequence"));
    }
    Ok((v, c == 'x'))
}
