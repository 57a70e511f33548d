//! The math sweep (`tests/math-sweep/`): every CUDA math function and intrinsic, evaluated
//! in device code built by `cuprite` on 100 000 inputs each (zeros, subnormals,
//! infinities, NaN, huge trig arguments, random bit patterns, the function's interesting
//! range), judged by `reference.c` against a correctly rounded reference (libquadmath's
//! `__float128`, host IEEE operations under `fesetround` for the directed roundings) and
//! the CUDA Programming Guide's ulp bounds, and compared bit for bit with an H100's
//! results for the first 2 000 inputs (`gpu-h100-2000.bin.gz`, captured with nvcc 13.0 by
//! running the same `sweep.cu`): correctly rounded functions and intrinsics must agree
//! with it exactly.
//!
//! Environment: `CUPRITE_MATH_SWEEP_N` (inputs per function, default 100 000),
//! `CUPRITE_MATH_SWEEP_TABLE=1` prints the Markdown table of docs/MATH.md instead.

use std::path::{Path, PathBuf};
use std::process::Command;

fn sweep_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/math-sweep")
}

fn run(cmd: &mut Command, what: &str) -> std::process::Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("{what}: cannot run: {e}"));
    if !out.status.success() {
        panic!(
            "{what} failed ({}):\n{}\n{}",
            out.status,
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr)
        );
    }
    out
}

#[test]
fn math_functions_within_cuda_bounds_and_equal_to_the_gpu_where_exact() {
    let dir = sweep_dir();
    let tmp = tempfile::Builder::new().prefix("cuprite-math-sweep-").tempdir().expect("temp dir");
    let t = tmp.path();
    let n = std::env::var("CUPRITE_MATH_SWEEP_N").unwrap_or_else(|_| "100000".into());

    // The reference: C with libquadmath (part of GCC).
    let reference = t.join("reference");
    run(
        Command::new("cc")
            .args(["-O2", "-frounding-math", "-fopenmp"])
            .arg(dir.join("reference.c"))
            .args(["-lquadmath", "-lm", "-o"])
            .arg(&reference),
        "building tests/math-sweep/reference.c (needs gcc's libquadmath)",
    );
    run(Command::new(&reference).arg("gen").arg(&n).arg(t.join("in.bin")), "reference gen");

    // The device side, built by Cuprite as a user's program.
    let sweep = t.join("sweep");
    run(
        Command::new(env!("CARGO_BIN_EXE_cuprite"))
            .current_dir(&dir)
            .args(["-arch=sm_90", "-o"])
            .arg(&sweep)
            .arg("sweep.cu"),
        "cuprite sweep.cu",
    );
    run(Command::new(&sweep).arg(t.join("in.bin")).arg(t.join("out.bin")), "sweep");

    // The GPU's results, checked in compressed.
    let gpu = t.join("gpu.bin");
    let unpacked = run(
        Command::new("gzip").arg("-dc").arg(dir.join("gpu-h100-2000.bin.gz")),
        "gzip -dc gpu-h100-2000.bin.gz",
    );
    std::fs::write(&gpu, unpacked.stdout).expect("write gpu.bin");

    let mode = if std::env::var("CUPRITE_MATH_SWEEP_TABLE").is_ok() { "table" } else { "check" };
    let out = Command::new(&reference)
        .arg(mode)
        .arg(t.join("in.bin"))
        .arg(t.join("out.bin"))
        .arg(&gpu)
        .output()
        .expect("reference check");
    let report = String::from_utf8_lossy(&out.stdout);
    println!("{report}");
    let failures: Vec<&str> = report.lines().filter(|l| l.contains(" FAIL ")).collect();
    assert!(
        out.status.success() && failures.is_empty(),
        "{} functions outside their CUDA bound or differing from the GPU where exact:\n{}\n{}",
        failures.len(),
        failures.join("\n"),
        String::from_utf8_lossy(&out.stderr)
    );
}
