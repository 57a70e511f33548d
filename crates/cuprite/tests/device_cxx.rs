//! C++ in device code, end to end: each program in `tests/cxx/` is written so that the
//! same source is valid host C++ (CUDA keywords defined away when `__CUDACC__` is not
//! defined). It is compiled by `g++` as host code and run, then compiled by Cuprite with
//! the work in a kernel; the outputs must be identical (C++ semantics, including
//! constructor/destructor order and copy elision, are deterministic here).

use std::path::PathBuf;
use std::process::Command;

fn dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/cxx")
}

fn same_as_gxx(name: &str) {
    same_as_gxx_with(name, &[]);
}

/// `same_as_gxx` with more arguments for g++ (`-I` Cuprite's headers).
fn same_as_gxx_with(name: &str, gxx_args: &[&str]) {
    let src = dir().join(format!("{name}.cu"));
    let tmp = std::env::temp_dir().join(format!("cuprite-cxx-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&tmp).unwrap();
    let host_bin = tmp.join("host");
    let st = Command::new("g++").args(["-x", "c++", "-std=c++17"]).args(gxx_args).arg(&src).arg("-o").arg(&host_bin).status();
    let Ok(st) = st else {
        eprintln!("g++ not available: skipped");
        return;
    };
    assert!(st.success(), "g++ failed on {name}");
    let want = Command::new(&host_bin).output().unwrap();
    let got = Command::new(env!("CARGO_BIN_EXE_cuprite")).arg("run").arg(&src).output().unwrap();
    let want = String::from_utf8_lossy(&want.stdout).to_string();
    let got_out = String::from_utf8_lossy(&got.stdout).to_string();
    assert_eq!(got_out, want, "{name}: cuprite stderr:\n{}", String::from_utf8_lossy(&got.stderr));
    let _ = std::fs::remove_dir_all(&tmp);
}

/// Classes with member functions (in and out of class), constructors (init lists,
/// default arguments, explicit, copy), destructors at scope exit / break / temporaries,
/// copy elision of a returned local, operators (member and non-member, `[]` const and
/// non-const, prefix/postfix `++`, unary `-`, `==`), conversion operator, static members,
/// single inheritance with a base constructor call and derived-to-base references,
/// overload resolution by conversion rank, default arguments.
#[test]
fn classes_match_gxx() {
    same_as_gxx("classes");
}

/// Function pointers (tables, struct members, higher-order functions, comparison),
/// virtual functions (pure, override/final, base-version calls, calls from constructors
/// and non-virtual members, virtual destructors through base pointers), `new`/`delete`
/// (scalars, class arrays destroyed in reverse order, value-init, brace init, null),
/// placement new with explicit destructor calls (virtual ones too).
#[test]
fn dynamic_match_gxx() {
    same_as_gxx("dynamic");
}

/// Templates: deduction, a non-template preferred on a tie, the more specialized
/// template, class templates with out-of-class members and a member template, explicit
/// and partial specializations, packs and folds, `auto` return types, `typename`
/// dependent types, standard traits; the kernel is a template whose specializations
/// come from a host function template (lazy instantiation from the host object).
#[test]
fn templates_match_gxx() {
    same_as_gxx("templates");
}

/// Pointers to members: data members (offsets, null, comparison, a constant table in
/// `__device__` memory, through references to const and derived objects, a conversion to
/// a derived class's member pointer), member functions (typedef/`using` types, `.*` and
/// `->*` calls, const members, reference returns, a table in a struct, null and
/// comparison, virtual functions dispatched through the vtable), and their sizes.
#[test]
fn member_pointers_match_gxx() {
    same_as_gxx("member_pointers");
}

/// Cuprite's libcu++ headers (`include/cuda/`): every atomic operation on 1- to 8-byte
/// integers (small ones by CAS on their word, neighbours untouched), bool, float, double
/// and pointers, atomic_flag, and limits, complex, tuple, array, bit, functional; their
/// host branch (GCC's `__atomic` builtins) against their device branch.
#[test]
fn libcu_headers_match_gxx() {
    let include = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../include");
    same_as_gxx_with("libcu", &["-I", include.to_str().unwrap()]);
}
