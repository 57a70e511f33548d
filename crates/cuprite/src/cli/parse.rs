//! nvcc's argument syntax: `-o f`, `-o=f`, `--output-file f`, `-Iinc`, `-O3`, `-lm`,
//! comma lists, response files (`--options-file`), unknown options forwarded to the host
//! compiler on request.

use super::table::{self, Arg, Opt};

/// One option as given: the option and its value (lists not split yet).
pub struct Given {
    pub opt: &'static Opt,
    pub value: Option<String>,
    /// As written, for messages.
    pub spelled: String,
}

#[derive(Default)]
pub struct Parsed {
    pub given: Vec<Given>,
    pub inputs: Vec<String>,
    /// After `--` (arguments of the program `cuprite run` runs).
    pub program_args: Vec<String>,
    /// Unknown options for the host compiler / linker (`--forward-unknown-*`).
    pub to_host: Vec<String>,
    pub to_linker: Vec<String>,
}

/// Splits the command line (without the program name).
pub fn parse(args: &[String]) -> Result<Parsed, String> {
    let args = expand_options_files(args, 0)?;
    let forward = |name: &str| args.iter().any(|a| a.trim_start_matches('-') == name);
    let (fwd_host, fwd_link) = (
        forward("forward-unknown-to-host-compiler") || forward("forward-unknown-opts"),
        forward("forward-unknown-to-host-linker") || forward("forward-unknown-opts"),
    );
    let mut out = Parsed::default();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "--" {
            out.program_args.extend(args[i..].iter().cloned());
            break;
        }
        if !arg.starts_with('-') || arg == "-" {
            out.inputs.push(arg.clone());
            continue;
        }
        match lookup(arg) {
            Some((opt, attached)) => {
                let value = match (opt.arg, attached) {
                    (Arg::None, Some(_)) => return Err(format!("Option '{arg}' takes no value")),
                    (Arg::None, None) => None,
                    (_, Some(v)) => Some(v),
                    (_, None) => {
                        let Some(v) = args.get(i) else {
                            return Err(format!("Option '{arg}' needs a value"));
                        };
                        i += 1;
                        Some(v.clone())
                    }
                };
                out.given.push(Given { opt, value, spelled: arg.clone() });
            }
            None if fwd_host || fwd_link => {
                // As nvcc: the option alone is forwarded; a separate value is forwarded
                // only when it looks like an option itself.
                if fwd_host {
                    out.to_host.push(arg.clone());
                }
                if fwd_link {
                    out.to_linker.push(arg.clone());
                }
            }
            None => return Err(format!("Unknown option '{arg}'")),
        }
    }
    Ok(out)
}

/// The option an argument names, with a value written in the same argument
/// (`-o=f`, `-Iinc`, `-O3`).
fn lookup(arg: &str) -> Option<(&'static Opt, Option<String>)> {
    let body = arg.strip_prefix("--").unwrap_or(&arg[1..]);
    if let Some(opt) = table::find(body) {
        return Some((opt, None));
    }
    if let Some((name, value)) = body.split_once('=') {
        if let Some(opt) = table::find(name) {
            return Some((opt, Some(value.to_string())));
        }
    }
    // gcc's joined spelling of -isystem, which CMake may pass: -isystem/usr/include/x.
    if !arg.starts_with("--") {
        if let Some(dir) = body.strip_prefix("isystem").filter(|d| !d.is_empty()) {
            return Some((table::find("isystem")?, Some(dir.to_string())));
        }
    }
    // These one-letter options take their value attached (`-Iinc`, `-DN=4`, `-lm`, `-O3`),
    // as in nvcc and the host compiler; others (`-m`, `-t`) do not, so that `-march=x`
    // stays an unknown option.
    if !arg.starts_with("--") {
        let first = body.get(..1).filter(|f| "IDULlO".contains(f))?;
        let opt = table::OPTIONS.iter().find(|o| o.short == first && o.arg != Arg::None)?;
        return Some((opt, Some(body[1..].to_string())));
    }
    None
}

/// Replaces `--options-file f` / `-optf f` by the arguments in `f` (nested files too).
fn expand_options_files(args: &[String], depth: u32) -> Result<Vec<String>, String> {
    if depth > 16 {
        return Err("options files include each other more than 16 deep".into());
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i < args.len() {
        let arg = &args[i];
        i += 1;
        if arg == "--" {
            out.extend(args[i - 1..].iter().cloned());
            break;
        }
        let files = match lookup(arg) {
            Some((opt, attached)) if opt.long == "options-file" => match attached {
                Some(v) => v,
                None => {
                    let Some(v) = args.get(i) else {
                        return Err(format!("Option '{arg}' needs a value"));
                    };
                    i += 1;
                    v.clone()
                }
            },
            _ => {
                out.push(arg.clone());
                continue;
            }
        };
        for file in split_list(&files) {
            let text = std::fs::read_to_string(&file).map_err(|e| format!("Could not open options file '{file}': {e}"))?;
            out.extend(expand_options_files(&shell_words(&text), depth + 1)?);
        }
    }
    Ok(out)
}

/// Splits an option list at commas (`\,` is a comma inside an item).
pub fn split_list(value: &str) -> Vec<String> {
    let mut items = vec![String::new()];
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&',') => items.last_mut().unwrap().push(chars.next().unwrap()),
            ',' => items.push(String::new()),
            _ => items.last_mut().unwrap().push(c),
        }
    }
    items.into_iter().filter(|s| !s.is_empty()).collect()
}

/// Splits text into words as a POSIX shell does (quotes and backslashes), which is how
/// nvcc's host compiler sees `-Xcompiler "-Wall -Wextra"` and options files.
pub fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match c {
            '\'' => {
                in_word = true;
                for q in chars.by_ref() {
                    if q == '\'' {
                        break;
                    }
                    cur.push(q);
                }
            }
            '"' => {
                in_word = true;
                while let Some(q) = chars.next() {
                    match q {
                        '"' => break,
                        '\\' => {
                            if let Some(n) = chars.next() {
                                if !matches!(n, '"' | '\\' | '$' | '`') {
                                    cur.push('\\');
                                }
                                cur.push(n);
                            }
                        }
                        _ => cur.push(q),
                    }
                }
            }
            '\\' => {
                in_word = true;
                if let Some(n) = chars.next() {
                    if n != '\n' {
                        cur.push(n);
                    }
                }
            }
            c if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            _ => {
                in_word = true;
                cur.push(c);
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}
