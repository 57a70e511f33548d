//! The build cache: an unchanged build is taken from the cache without running a compiler,
//! an edited header rebuilds, diagnostics are replayed, `-c -MD` products come back.
//!
//! Each test has its own cache (`CUPRITE_CACHE_DIR`) and counts the host compiler's runs
//! through a wrapper named by `CXX` (and `CC`), which logs each call and runs the real one.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

struct Setup {
    dir: tempfile::TempDir,
}

impl Setup {
    fn new() -> Setup {
        let dir = tempfile::tempdir().unwrap();
        for (name, real) in [("cxx-wrapper", "c++"), ("cc-wrapper", "cc")] {
            let script = format!("#!/bin/sh\necho \"$0 $*\" >> '{}'\nexec {real} \"$@\"\n", dir.path().join("compiler.log").display());
            let path = dir.path().join(name);
            std::fs::write(&path, script).unwrap();
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        Setup { dir }
    }

    fn path(&self, name: &str) -> PathBuf {
        self.dir.path().join(name)
    }

    fn write(&self, name: &str, contents: &str) -> PathBuf {
        let p = self.path(name);
        std::fs::write(&p, contents).unwrap();
        p
    }

    fn cuprite(&self, args: &[&str]) -> Output {
        Command::new(env!("CARGO_BIN_EXE_cuprite"))
            .args(args)
            .current_dir(self.dir.path())
            .env("CUPRITE_CACHE_DIR", self.path("cache"))
            .env("CXX", self.path("cxx-wrapper"))
            .env("CC", self.path("cc-wrapper"))
            .env_remove("CUPRITE_CACHE")
            .output()
            .unwrap()
    }

    fn ok(&self, args: &[&str]) -> Output {
        let out = self.cuprite(args);
        assert!(out.status.success(), "cuprite {args:?} failed:\n{}{}", text(&out.stdout), text(&out.stderr));
        out
    }

    /// How many times a compiler has run so far.
    fn compiler_runs(&self) -> usize {
        std::fs::read_to_string(self.path("compiler.log")).map(|s| s.lines().count()).unwrap_or(0)
    }
}

const PROGRAM: &str = r#"
#include <cstdio>
#include "value.h"
__global__ void k(int *out) { *out = VALUE * 2; }
int main() {
    int *d, h = 0;
    cudaMalloc(&d, sizeof(int));
    k<<<1, 1>>>(d);
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    printf("value %d\n", h);
    return 0;
}
"#;

#[test]
fn an_unchanged_program_runs_without_compiling_and_an_edited_header_rebuilds() {
    let s = Setup::new();
    s.write("value.h", "#define VALUE 21\n");
    s.write("prog.cu", PROGRAM);

    let first = s.ok(&["run", "prog.cu"]);
    assert_eq!(text(&first.stdout), "value 42\n");
    let cold_runs = s.compiler_runs();
    assert!(cold_runs >= 4, "the cold build should run the compilers ({cold_runs} runs)");

    let second = s.ok(&["run", "prog.cu"]);
    assert_eq!(text(&second.stdout), "value 42\n");
    assert_eq!(s.compiler_runs(), cold_runs, "an unchanged build must not run a compiler");

    // Same size, different content: the header's content is what counts.
    s.write("value.h", "#define VALUE 50\n");
    let third = s.ok(&["run", "prog.cu"]);
    assert_eq!(text(&third.stdout), "value 100\n");
    assert!(s.compiler_runs() > cold_runs, "an edited header must rebuild");

    // nvcc-style `-o`: the program is written again from the cache, and runs.
    s.ok(&["-o", "prog", "prog.cu"]);
    std::fs::remove_file(s.path("prog")).unwrap();
    let before = s.compiler_runs();
    s.ok(&["-o", "prog", "prog.cu"]);
    assert_eq!(s.compiler_runs(), before);
    let out = Command::new(s.path("prog")).output().unwrap();
    assert_eq!(text(&out.stdout), "value 100\n");
}

#[test]
fn a_cached_build_replays_its_warnings() {
    let s = Setup::new();
    s.write("value.h", "#define VALUE 1\n");
    s.write("prog.cu", &format!("#warning \"look here\"\n{PROGRAM}"));
    let first = s.ok(&["run", "prog.cu"]);
    assert!(text(&first.stderr).contains("look here"), "{}", text(&first.stderr));
    let runs = s.compiler_runs();
    let second = s.ok(&["run", "prog.cu"]);
    assert_eq!(s.compiler_runs(), runs);
    assert!(text(&second.stderr).contains("look here"), "the warning must be replayed: {}", text(&second.stderr));
}

#[test]
fn compile_only_restores_the_object_and_its_dependency_list() {
    let s = Setup::new();
    s.write("value.h", "#define VALUE 3\n");
    s.write("prog.cu", PROGRAM);
    s.ok(&["-c", "prog.cu", "-MD"]);
    let deps = std::fs::read_to_string(s.path("prog.d")).unwrap();
    assert!(deps.contains("value.h"), "{deps}");
    std::fs::remove_file(s.path("prog.o")).unwrap();
    std::fs::remove_file(s.path("prog.d")).unwrap();
    let runs = s.compiler_runs();
    s.ok(&["-c", "prog.cu", "-MD"]);
    assert_eq!(s.compiler_runs(), runs, "the object comes from the cache");
    assert_eq!(std::fs::read_to_string(s.path("prog.d")).unwrap(), deps);
    // The restored object links into a working program.
    s.ok(&["-o", "linked", "prog.o"]);
    let out = Command::new(s.path("linked")).output().unwrap();
    assert_eq!(text(&out.stdout), "value 6\n");
}

#[test]
fn the_cache_can_be_turned_off_and_failures_are_not_cached() {
    let s = Setup::new();
    s.write("value.h", "#define VALUE 1\n");
    s.write("prog.cu", PROGRAM);
    let off = |args: &[&str]| -> Output {
        Command::new(env!("CARGO_BIN_EXE_cuprite"))
            .args(args)
            .current_dir(s.dir.path())
            .env("CUPRITE_CACHE_DIR", s.path("cache"))
            .env("CXX", s.path("cxx-wrapper"))
            .env("CC", s.path("cc-wrapper"))
            .env("CUPRITE_CACHE", "0")
            .output()
            .unwrap()
    };
    assert!(off(&["run", "prog.cu"]).status.success());
    let runs = s.compiler_runs();
    assert!(off(&["run", "prog.cu"]).status.success());
    assert!(s.compiler_runs() > runs, "CUPRITE_CACHE=0 always builds");
    assert!(!Path::new(&s.path("cache/builds")).exists() || std::fs::read_dir(s.path("cache/builds")).unwrap().next().is_none());

    s.write("bad.cu", "__global__ void k() { undeclared(); }\nint main() { return 0; }\n");
    let first = s.cuprite(&["run", "bad.cu"]);
    assert!(!first.status.success());
    let second = s.cuprite(&["run", "bad.cu"]);
    assert!(!second.status.success());
    assert!(text(&second.stderr).contains("undeclared"), "the error is reported again: {}", text(&second.stderr));
}

/// Device C is compiled per translation unit and cached by content: a build whose host
/// code changed (the device code did not) compiles no device C. With several kernels,
/// the units are separate C files (`MAKEFLAGS=-j2`, no jobserver: two at once).
#[test]
fn a_host_only_edit_reuses_the_compiled_device_code() {
    let s = Setup::new();
    let program = |greeting: &str| {
        format!(
            "#include <cstdio>\n__device__ int twice(int x) {{ return 2 * x; }}\n\
             __global__ void a(int *o) {{ o[0] = twice(21); }}\n\
             __global__ void b(int *o) {{ o[1] = twice(o[0]); }}\n\
             int main() {{ int *d, h[2]; cudaMalloc(&d, 8); a<<<1, 1>>>(d); b<<<1, 1>>>(d);\n\
             cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost); printf(\"{greeting} %d %d\\n\", h[0], h[1]); return 0; }}\n"
        )
    };
    // C compiles of generated device C (not the C++ preprocessor's device view).
    let device_compiles = || {
        let log = std::fs::read_to_string(s.path("compiler.log")).unwrap_or_default();
        log.lines().filter(|l| l.split_whitespace().next().is_some_and(|w| w.ends_with("cc-wrapper")) && l.contains(".cudafe.device.")).count()
    };
    let build = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_cuprite"))
            .args(args)
            .current_dir(s.dir.path())
            .env("CUPRITE_CACHE_DIR", s.path("cache"))
            .env("CXX", s.path("cxx-wrapper"))
            .env("CC", s.path("cc-wrapper"))
            .env("MAKEFLAGS", "-j2")
            .env_remove("CUPRITE_CACHE")
            .output()
            .unwrap();
        assert!(out.status.success(), "cuprite {args:?} failed:\n{}{}", text(&out.stdout), text(&out.stderr));
        out
    };
    s.write("app.cu", &program("hello"));
    let out = build(&["run", "app.cu"]);
    assert_eq!(text(&out.stdout), "hello 42 84\n");
    let first = device_compiles();
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    assert_eq!(first, cores.min(2), "one C file per group of kernels");
    s.write("app.cu", &program("hi"));
    let out = build(&["run", "app.cu"]);
    assert_eq!(text(&out.stdout), "hi 42 84\n");
    assert_eq!(device_compiles(), first, "the device code is unchanged: its objects come from the cache");
}
