//! compute-sanitizer's report layout: every line prefixed `========= `, on stdout, in
//! order with the program's own output (the C library's stdout is flushed first).

use std::io::Write;

/// Prints one report line (an empty `text` gives the separator line `========= `).
pub fn line(text: &str) {
    flush_c_stdout();
    let mut out = std::io::stdout().lock();
    let _ = writeln!(out, "========= {text}");
    let _ = out.flush();
}

fn flush_c_stdout() {
    unsafe {
        libc::fflush(std::ptr::null_mut());
    }
}

pub fn flush() {
    flush_c_stdout();
    let _ = std::io::stdout().flush();
}

/// `4000` → `4,000`, as compute-sanitizer writes sizes and distances.
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// A function as compute-sanitizer names it: demangled with its parameters, pointers
/// spaced and `const` first (`load4(const float *, float *)`); a name that is not
/// mangled is kept.
pub fn display_name(symbol: &str) -> String {
    let Ok(sym) = cpp_demangle::Symbol::new(symbol) else { return symbol.to_string() };
    let opts = cpp_demangle::DemangleOptions::new().no_return_type();
    let Ok(text) = sym.demangle(&opts) else { return symbol.to_string() };
    let Some(open) = text.find('(') else { return text };
    let Some(close) = text.rfind(')') else { return text };
    let params = split_params(&text[open + 1..close]);
    let params: Vec<String> = params.iter().map(|p| spaced_param(p.trim())).collect();
    format!("{}({}){}", &text[..open], params.join(", "), &text[close + 1..])
}

fn split_params(s: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut depth, mut cur) = (0i32, String::new());
    for c in s.chars() {
        match c {
            '<' | '(' | '[' => depth += 1,
            '>' | ')' | ']' => depth -= 1,
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut cur));
                continue;
            }
            _ => {}
        }
        cur.push(c);
    }
    if !cur.trim().is_empty() {
        out.push(cur);
    }
    out
}

/// `float const*` → `const float *`, `int*` → `int *`.
fn spaced_param(p: &str) -> String {
    let stars = p.len() - p.trim_end_matches('*').len();
    if stars == 0 {
        return p.to_string();
    }
    let base = p.trim_end_matches('*').trim_end();
    let base = match base.strip_suffix(" const") {
        Some(b) => format!("const {b}"),
        None => base.to_string(),
    };
    format!("{base} {}", "*".repeat(stars))
}

/// The runtime API function being called, for "on CUDA API call to cudaFree": the
/// outermost `cuda…`/`cu…` frame of this thread's stack (found only when an error is
/// reported, so its cost does not matter).
pub fn api_function_name() -> Option<String> {
    let bt = std::backtrace::Backtrace::force_capture().to_string();
    let mut found = None;
    for l in bt.lines() {
        let l = l.trim();
        let Some((_, name)) = l.split_once(": ") else { continue };
        let name = name.trim();
        let api = (name.starts_with("cuda") || name.starts_with("cu")) && name.len() > 3 && name.chars().nth(if name.starts_with("cuda") { 4 } else { 2 }).is_some_and(|c| c.is_ascii_uppercase());
        if api && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            found = Some(name.trim_end_matches("_v2").to_string());
        }
    }
    // cudaThreadSynchronize is cudaDeviceSynchronize under another name (one body at
    // one address): name the one programs call.
    found.map(|n| if n == "cudaThreadSynchronize" { "cudaDeviceSynchronize".to_string() } else { n })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_numbers_as_compute_sanitizer_writes_them() {
        assert_eq!(grouped(4000), "4,000");
        assert_eq!(grouped(1), "1");
        assert_eq!(grouped(1234567), "1,234,567");
        assert_eq!(display_name("_Z4fillPii"), "fill(int *, int)");
        assert_eq!(display_name("_Z5load4PKfPf"), "load4(const float *, float *)");
        assert_eq!(display_name("kernel"), "kernel");
    }
}
