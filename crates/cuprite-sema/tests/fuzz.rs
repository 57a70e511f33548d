//! A mutation fuzzer over the device front-end and checker, on stable Rust (`cargo fuzz`
//! needs a nightly toolchain, which this project's machines do not have).
//!
//! The corpus is the conformance programs, preprocessed as the driver's device view is
//! (Cuprite's headers, `__CUDA_ARCH__`). Each mutant deletes, duplicates, swaps or
//! inserts tokens in the user's part of a program and goes through parsing, checking and
//! lowering; bad input must give diagnostics, never a panic. A panicking mutant is
//! written to `target/fuzz-findings/` and fails the test.
//!
//! - `cargo test --release -p cuprite-sema --test fuzz` runs a short, fixed-seed round
//!   (part of the test suite);
//! - `CUPRITE_FUZZ_SECONDS=3600 CUPRITE_FUZZ_SEED=7 cargo test --release -p cuprite-sema
//!   --test fuzz -- --ignored --nocapture` runs the whole corpus for an hour.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The device view of a conformance program, as the driver preprocesses it.
fn device_view(file: &Path) -> Option<String> {
    let out = Command::new("c++")
        .args(["-E", "-x", "c++", "-D__CUDACC__", "-D__NVCC__", "-D__CUDA_ARCH__=900", "-D__CUPRITE_DEVICE_PASS__"])
        .arg("-I")
        .arg(repo().join("include"))
        .args(["-include", "cuda_runtime.h"])
        .arg(file)
        .output()
        .ok()?;
    out.status.success().then(|| String::from_utf8_lossy(&out.stdout).into_owned())
}

fn corpus(limit: usize) -> Vec<(String, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(repo().join("tests/conformance"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu"))
        .collect();
    files.sort();
    files.into_iter().take(limit).filter_map(|f| Some((f.file_name()?.to_string_lossy().into_owned(), device_view(&f)?))).collect()
}

/// xorshift64*: deterministic for a seed, good enough to pick mutations.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Token boundaries (byte ranges) in `text`: identifiers, numbers, single punctuators.
fn tokens(text: &str) -> Vec<(usize, usize)> {
    let b = text.as_bytes();
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        let c = b[i];
        if c.is_ascii_whitespace() {
            i += 1;
            continue;
        }
        let start = i;
        if c.is_ascii_alphanumeric() || c == b'_' {
            while i < b.len() && (b[i].is_ascii_alphanumeric() || b[i] == b'_' || b[i] == b'.') {
                i += 1;
            }
        } else {
            i += 1;
        }
        out.push((start, i));
    }
    out
}

const DICTIONARY: &[&str] = &[
    "{", "}", "(", ")", "[", "]", "<", ">", ";", ",", "*", "&", "::", "template", "typename", "class", "struct", "__global__",
    "__device__", "__shared__", "volatile", "const", "auto", "return", "if", "else", "for", "while", "operator", "sizeof", "0",
    "-1", "1e308", "0x7fffffff", "\"s\"", "'c'", "...", "=", "==", "?", ":", "~", "->", ".", "new", "delete", "virtual",
    "__syncthreads()", "threadIdx.x", "__shfl_sync(0xffffffff, 1, 2)", "static_assert(1, \"x\");", "int", "float", "void",
];

/// One mutant of the user's part of `text` (after the last line marker naming `name`).
fn mutate(text: &str, name: &str, rng: &mut Rng) -> String {
    let user = text.rfind(&format!("\"{name}\"")).and_then(|p| text[p..].find('\n').map(|n| p + n + 1)).unwrap_or(0);
    let toks: Vec<(usize, usize)> = tokens(&text[user..]).into_iter().map(|(a, b)| (a + user, b + user)).collect();
    if toks.is_empty() {
        return text.to_string();
    }
    let mut out = text.to_string();
    for _ in 0..1 + rng.below(4) {
        let toks = tokens(&out[user.min(out.len())..]).into_iter().map(|(a, b)| (a + user, b + user)).collect::<Vec<_>>();
        if toks.is_empty() {
            break;
        }
        let i = rng.below(toks.len());
        let j = (i + 1 + rng.below(8)).min(toks.len() - 1);
        let (a, b) = (toks[i].0, toks[j].1);
        match rng.below(5) {
            0 => out.replace_range(a..b, " "),
            1 => {
                let piece = out[a..b].to_string();
                out.insert_str(b, &format!(" {piece} "));
            }
            2 => {
                let x = out[toks[i].0..toks[i].1].to_string();
                let y = out[toks[j].0..toks[j].1].to_string();
                if i != j {
                    out.replace_range(toks[j].0..toks[j].1, &x);
                    out.replace_range(toks[i].0..toks[i].1, &y);
                }
            }
            3 => out.insert_str(a, &format!(" {} ", DICTIONARY[rng.below(DICTIONARY.len())])),
            _ => {
                // Nesting: wrap a range in brackets, deepening what recursion must handle.
                let (l, r) = [("(", ")"), ("{", "}"), ("<", ">"), ("[", "]")][rng.below(4)];
                let n = 1 + rng.below(40);
                out.insert_str(b, &r.repeat(n));
                out.insert_str(a, &l.repeat(n));
            }
        }
    }
    out
}

/// Parses, checks and lowers; `Err` with the panic message if anything panicked.
fn compile(src: &str) -> Result<(), String> {
    // (On a thread with a large stack: the compiler's own guard against deep recursion is
    // under test too, but an overflow would abort the whole fuzzer.)
    let src = src.to_string();
    std::thread::Builder::new()
        .stack_size(512 << 20)
        .spawn(move || compile_here(&src))
        .unwrap()
        .join()
        .unwrap_or_else(|_| Err("thread failed".into()))
}

fn compile_here(src: &str) -> Result<(), String> {
    catch_unwind(AssertUnwindSafe(|| {
        let parsed = cuprite_front::parse(src);
        if let Ok(checked) = cuprite_sema::check(&parsed.tu, &cuprite_sema::SemaOptions::default()) {
            let _ = checked.lower_with(&[], &parsed.source_map);
        }
    }))
    .map_err(|e| e.downcast_ref::<String>().cloned().or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string())).unwrap_or_default())
}

fn fuzz(corpus_limit: usize, budget: Duration, seed: u64) {
    let corpus = corpus(corpus_limit);
    assert!(!corpus.is_empty(), "no corpus: is c++ installed?");
    // Panics are the findings: keep their messages out of the test output.
    std::panic::set_hook(Box::new(|_| {}));
    let mut rng = Rng(seed | 1);
    let start = Instant::now();
    let (mut runs, mut findings) = (0u64, Vec::new());
    while start.elapsed() < budget {
        let (name, text) = &corpus[rng.below(corpus.len())];
        let mutant = mutate(text, name, &mut rng);
        runs += 1;
        if let Err(msg) = compile(&mutant) {
            let dir = repo().join("target/fuzz-findings");
            let _ = std::fs::create_dir_all(&dir);
            let path = dir.join(format!("{name}-{seed}-{runs}.ii"));
            let _ = std::fs::write(&path, &mutant);
            findings.push(format!("{}: {msg}", path.display()));
        }
    }
    let _ = std::panic::take_hook();
    eprintln!("fuzz: {runs} mutants of {} programs in {:?}, {} panics", corpus.len(), start.elapsed(), findings.len());
    assert!(findings.is_empty(), "the front-end panicked on {} mutants:\n{}", findings.len(), findings.join("\n"));
}

#[test]
fn mutants_of_conformance_programs_never_panic() {
    fuzz(6, Duration::from_secs(8), 0x5eed);
}

#[test]
#[ignore = "long run: CUPRITE_FUZZ_SECONDS (default 600) and CUPRITE_FUZZ_SEED"]
fn fuzz_long() {
    let secs = std::env::var("CUPRITE_FUZZ_SECONDS").ok().and_then(|s| s.parse().ok()).unwrap_or(600);
    let seed = std::env::var("CUPRITE_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1);
    fuzz(usize::MAX, Duration::from_secs(secs), seed);
}
