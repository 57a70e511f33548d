//! The parser never panics, whatever it is given, and stays fast on real headers.

mod common;
use common::*;

/// A tiny deterministic generator (no dependency on `rand`).
struct Lcg(u64);
impl Lcg {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        self.0 >> 33
    }
}

const PIECES: &[&str] = &[
    "__global__", "__device__", "void", "int", "float", "struct", "S", "x", "(", ")", "{", "}", "[", "]", ";",
    ",", "*", "&", "=", "+", "<", ">", "::", "template", "typedef", "T", "\"s\"", "'c'", "1", "0x1p3", "#pragma x\n",
    "\n# 3 \"f.cu\" 1 3\n", "?", ":", "sizeof", "return", "for", "if", "else", "namespace", "extern \"C\"", "operator",
    "~", "...", "new", "[", "'", "\"", "\\", "@", "`", "\u{e9}", "0b", "1e", "enum", "class", "public", ":",
];

#[test]
fn random_token_soup_does_not_panic() {
    let mut rng = Lcg(12345);
    for _ in 0..3000 {
        let len = (rng.next() % 60) as usize;
        let mut src = String::new();
        for _ in 0..len {
            src.push_str(PIECES[(rng.next() as usize) % PIECES.len()]);
            src.push(' ');
        }
        let r = parse_cu(&src);
        for d in &r.diagnostics {
            let _ = cuprite_front::render(d, &r.source_map);
        }
    }
}

#[test]
fn truncated_kernels_do_not_panic() {
    let src = "struct P { int x; __device__ P(int a) : x(a) {} };\n\
               __global__ void k(float *a, const P &p) {\n  int i = threadIdx.x + (int)sizeof(P);\n  \
               if (i < p.x) { a[i] = a[i] * 2.0f + 0x1p-3f; }\n  for (int j = 0; j < 3; ++j) a[j] += \"s\"[0];\n}\n";
    for cut in 0..=src.len() {
        if src.is_char_boundary(cut) {
            let r = parse_cu(&src[..cut]);
            for d in &r.diagnostics {
                let _ = cuprite_front::render(d, &r.source_map);
            }
        }
    }
}

#[test]
fn deep_nesting_parses_and_only_memory_limits_it() {
    // g++ takes these; the parser grows its stack instead of overflowing it.
    let deep = format!("__device__ int f() {{ return {}1{}; }}", "(".repeat(5000), ")".repeat(5000));
    assert!(parse_cu(&deep).diagnostics.is_empty());
    let blocks = format!("__device__ void g() {{ {} {} }}", "{".repeat(5000), "}".repeat(5000));
    assert!(parse_cu(&blocks).diagnostics.is_empty());
    let unary = format!("__device__ int h(int x) {{ return {}x; }}", "- ".repeat(5000));
    assert!(parse_cu(&unary).diagnostics.is_empty());
    // Beyond Cuprite's limit, an error that names it.
    let deeper = format!("__device__ int f() {{ return {}1{}; }}", "(".repeat(30000), ")".repeat(30000));
    let r = parse_cu(&deeper);
    assert!(r.diagnostics.iter().any(|d| d.message.contains("Cuprite's limit")), "{:?}", r.diagnostics.first().map(|d| &d.message));
}

#[test]
fn binary_garbage_does_not_panic() {
    let mut rng = Lcg(99);
    for _ in 0..200 {
        let bytes: Vec<u8> = (0..200).map(|_| (rng.next() % 128) as u8).collect();
        let src = String::from_utf8_lossy(&bytes);
        let _ = cuprite_front::parse(&src);
    }
}
