//! A structural check of PTX text, for tests where `ptxas` is not available (CI has no
//! GPU toolkit): the module directives come first, every instruction ends in `;`,
//! braces balance, every register a function uses is declared in it, and every branch
//! target is a label of the same function.

use std::collections::HashSet;

/// Registers the ISA predefines (special registers and the ABI's stack pointers are
/// declared or predefined).
const PREDEFINED: [&str; 22] = [
    "%tid", "%ntid", "%ctaid", "%nctaid", "%laneid", "%warpid", "%nwarpid", "%smid", "%nsmid", "%gridid", "%clock", "%clock64",
    "%clock_hi", "%lanemask_eq", "%lanemask_le", "%lanemask_lt", "%lanemask_ge", "%lanemask_gt", "%globaltimer",
    "%dynamic_smem_size", "%total_smem_size", "%envreg",
];

/// Every problem found, each a sentence with its line number; empty when none.
pub fn check(ptx: &str) -> Vec<String> {
    let mut problems = Vec::new();
    let directives: Vec<&str> = ptx.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with("//")).take(3).collect();
    if directives.len() < 3 || !directives[0].starts_with(".version ") || !directives[1].starts_with(".target ") || directives[2] != ".address_size 64" {
        problems.push("the module does not start with .version, .target and .address_size 64".into());
    }
    let mut depth = 0i32;
    let mut declared: HashSet<String> = HashSet::new();
    let mut labels: HashSet<String> = HashSet::new();
    let mut targets: Vec<(usize, String)> = Vec::new();
    let mut used: Vec<(usize, String)> = Vec::new();
    for (n, raw) in ptx.lines().enumerate() {
        let n = n + 1;
        let line = raw.split("//").next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        if line == "{" {
            depth += 1;
            continue;
        }
        if line == "}" {
            depth -= 1;
            if depth < 0 {
                problems.push(format!("line {n}: unbalanced '}}'"));
                depth = 0;
            }
            if depth == 0 {
                finish_function(&declared, &labels, &targets, &used, &mut problems);
                declared.clear();
                labels.clear();
                targets.clear();
                used.clear();
            }
            continue;
        }
        if depth == 0 {
            continue;
        }
        if let Some(l) = line.strip_suffix(':') {
            labels.insert(l.to_string());
            continue;
        }
        if !line.ends_with(';') {
            problems.push(format!("line {n}: instruction without ';': {line}"));
        }
        let body = line.trim_end_matches(';');
        if let Some(decl) = body.strip_prefix(".reg ") {
            for name in decl.split_whitespace().skip(1).flat_map(|s| s.split(',')) {
                let name = name.trim();
                match name.split_once('<') {
                    Some((prefix, count)) => {
                        let count: usize = count.trim_end_matches('>').parse().unwrap_or(0);
                        for i in 0..count {
                            declared.insert(format!("{prefix}{i}"));
                        }
                    }
                    None if !name.is_empty() => {
                        declared.insert(name.to_string());
                    }
                    None => {}
                }
            }
            continue;
        }
        let words: Vec<&str> = body.split(|c: char| c.is_whitespace() || c == ',').filter(|w| !w.is_empty()).collect();
        if let Some(i) = words.iter().position(|w| *w == "bra" || w.starts_with("bra.")) {
            if let Some(t) = words.get(i + 1) {
                targets.push((n, t.to_string()));
            }
        }
        for tok in registers(body) {
            used.push((n, tok));
        }
    }
    if depth != 0 {
        problems.push("unbalanced braces at the end of the module".into());
    }
    problems
}

/// The `%name` tokens of an instruction.
fn registers(body: &str) -> Vec<String> {
    let mut out = Vec::new();
    let b = body.as_bytes();
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let start = i;
            i += 1;
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_') {
                i += 1;
            }
            out.push(body[start..i].to_string());
        } else {
            i += 1;
        }
    }
    out
}

fn finish_function(declared: &HashSet<String>, labels: &HashSet<String>, targets: &[(usize, String)], used: &[(usize, String)], problems: &mut Vec<String>) {
    for (n, r) in used {
        if !declared.contains(r) && !PREDEFINED.contains(&r.as_str()) {
            problems.push(format!("line {n}: register {r} is not declared"));
        }
    }
    for (n, t) in targets {
        if !labels.contains(t) {
            problems.push(format!("line {n}: branch to undefined label {t}"));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::check;

    #[test]
    fn finds_undeclared_registers_and_labels() {
        let good = ".version 9.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{\n\t.reg .b32 %r<2>;\n\tmov.u32 %r0, %tid.x;\n$L0:\n\t@%r1 bra $L0;\n\tret;\n}\n";
        assert_eq!(check(good), Vec::<String>::new());
        let bad = good.replace("%r<2>", "%r<1>").replace("bra $L0", "bra $L1");
        let p = check(&bad);
        assert!(p.iter().any(|m| m.contains("%r1 is not declared")), "{p:?}");
        assert!(p.iter().any(|m| m.contains("undefined label $L1")), "{p:?}");
    }
}
