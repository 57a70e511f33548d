//! nvcc's PTX for the conformance programs, run on the CPU through the PTX front-end.
//!
//! For each `tests/ptx-modules/NAME.ptx` (what nvcc -arch=sm_90 -ptx wrote for
//! `tests/conformance/NAME.cu`), the program is built by Cuprite with its device code
//! taken from that PTX (`CUPRITE_DEVICE_PTX`: the PTX front-end lowers it, the CPU
//! back-end compiles it, kernels bind to the host code's stubs by their mangled names),
//! run, and its stdout and exit status compared with the program's `NAME.expected`,
//! captured from nvcc's build on a GPU. The programs listed in
//! `tests/ptx-modules/passing.txt` must pass; the others are reported (with why), so the
//! list can grow: they run with `CUPRITE_PTX_MODULES_ALL=1` or when a filter names them
//! (CI runs the listed ones only). `CUPRITE_PTX_MODULES_FILTER=a,b` runs some only.
//!
//! The round trip does the same with the PTX that Cuprite's own back-end writes
//! (`cuprite -ptx`), for every conformance program: the CI's check of the PTX back-end,
//! since CI has no GPU (`tests/ptx-modules/round-trip-passing.txt`).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Mutex;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Builds one program with its device code from `ptx` and runs it; `Err` says why it does
/// not match.
fn check(name: &str, ptx: &Path, bin: &Path) -> Result<(), String> {
    let conf = root().join("tests/conformance");
    let flags: Vec<String> = std::fs::read_to_string(conf.join(format!("{name}.flags"))).unwrap_or_default().split_whitespace().map(String::from).collect();
    let exe = bin.join(name);
    // Generous: the biggest PTX (cg_block_and_tiles, 5 MB) takes two minutes to build on
    // one core; a hang still fails.
    let out = Command::new("timeout")
        .arg("600")
        .arg(env!("CARGO_BIN_EXE_cuprite"))
        .current_dir(&conf)
        .env("CUPRITE_DEVICE_PTX", &ptx)
        .args(["-arch=sm_90", "-o"])
        .arg(&exe)
        .arg(format!("{name}.cu"))
        .args(&flags)
        .output()
        .map_err(|e| e.to_string())?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("build failed: {}", err.lines().find(|l| l.contains("error")).unwrap_or(err.lines().next().unwrap_or(""))));
    }
    let run = Command::new("timeout").arg("60").arg(&exe).current_dir(&conf).output().map_err(|e| e.to_string())?;
    let expected = std::fs::read(conf.join(format!("{name}.expected"))).map_err(|e| e.to_string())?;
    let code: i32 = std::fs::read_to_string(conf.join(format!("{name}.exitcode"))).ok().and_then(|s| s.trim().parse().ok()).unwrap_or(0);
    let got = run.status.code().unwrap_or(128);
    if got != code {
        return Err(format!("exit code {got}, expected {code}"));
    }
    if run.stdout != expected {
        let (e, a) = (String::from_utf8_lossy(&expected), String::from_utf8_lossy(&run.stdout));
        let (k, (x, y)) = e.lines().zip(a.lines()).enumerate().find(|(_, (x, y))| x != y).unwrap_or((e.lines().count().min(a.lines().count()), ("<end>", "<end>")));
        return Err(format!("stdout differs at line {}: expected {x:?}, got {y:?}", k + 1));
    }
    Ok(())
}

#[test]
fn nvcc_ptx_runs_on_the_cpu() {
    let dir = root().join("tests/ptx-modules");
    let conf = root().join("tests/conformance");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".ptx").map(String::from))
        .filter(|n| conf.join(format!("{n}.cu")).exists() && !conf.join(format!("{n}.prebuild")).exists())
        .collect();
    run_suite("ptx-modules", names, &dir.join("passing.txt"), |name, _bin| Ok(dir.join(format!("{name}.ptx"))));
}

/// CI has no GPU, so Cuprite's PTX back-end is checked by a round trip instead: every
/// conformance program's device code through `cuprite -ptx`, then that PTX through the
/// PTX front-end on the CPU (`CUPRITE_DEVICE_PTX`), with the program's expected output.
/// The programs in `tests/ptx-modules/round-trip-passing.txt` must pass.
#[test]
fn cuprite_ptx_round_trips_on_the_cpu() {
    let conf = root().join("tests/conformance");
    let names: Vec<String> = std::fs::read_dir(&conf)
        .unwrap()
        .filter_map(|e| e.ok()?.file_name().to_str()?.strip_suffix(".cu").map(String::from))
        .filter(|n| !n.ends_with(".module") && !conf.join(format!("{n}.prebuild")).exists())
        .collect();
    let list = root().join("tests/ptx-modules/round-trip-passing.txt");
    run_suite("ptx-round-trip", names, &list, |name, bin| {
        let ptx = bin.join(format!("{name}.ptx"));
        let flags: Vec<String> = std::fs::read_to_string(conf.join(format!("{name}.flags"))).unwrap_or_default().split_whitespace().filter(|f| f.starts_with("-arch") || f.starts_with("-D") || f.starts_with("-I") || f.starts_with("-std")).map(String::from).collect();
        let out = Command::new(env!("CARGO_BIN_EXE_cuprite"))
            .current_dir(&conf)
            .args(["-arch=sm_90", "-ptx", "-o"])
            .arg(&ptx)
            .arg(format!("{name}.cu"))
            .args(&flags)
            .output()
            .map_err(|e| e.to_string())?;
        if !out.status.success() {
            let err = String::from_utf8_lossy(&out.stderr);
            return Err(format!("-ptx failed: {}", err.lines().find(|l| l.contains("error")).unwrap_or(err.lines().next().unwrap_or(""))));
        }
        Ok(ptx)
    });
}

/// Runs `names` (those matching `CUPRITE_PTX_MODULES_FILTER` when set), each built from
/// the PTX `ptx_for` gives, two at a time; those listed in `passing` must pass.
fn run_suite(label: &str, mut names: Vec<String>, passing: &Path, ptx_for: impl Fn(&str, &Path) -> Result<PathBuf, String> + Sync) {
    let passing: BTreeSet<String> = std::fs::read_to_string(passing).unwrap().lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')).map(String::from).collect();
    let filter: Option<Vec<String>> = std::env::var("CUPRITE_PTX_MODULES_FILTER").ok().map(|f| f.split(',').map(String::from).collect());
    names.retain(|n| filter.as_ref().is_none_or(|f| f.iter().any(|x| n.contains(x.as_str()))));
    names.sort();
    // Without a filter only the listed programs run (CI time); the others are named, and
    // `CUPRITE_PTX_MODULES_ALL=1` (or a filter naming them) tries them too.
    let all = filter.is_some() || std::env::var_os("CUPRITE_PTX_MODULES_ALL").is_some();
    let skipped: Vec<String> = if all { Vec::new() } else { names.iter().filter(|n| !passing.contains(*n)).cloned().collect() };
    names.retain(|n| !skipped.contains(n));
    let bin = std::env::temp_dir().join(format!("cuprite-{label}-{}", std::process::id()));
    std::fs::create_dir_all(&bin).unwrap();
    let queue = Mutex::new(names.clone());
    let results = Mutex::new(Vec::new());
    let jobs = std::env::var("CUPRITE_CONFORMANCE_JOBS").ok().and_then(|v| v.parse().ok()).unwrap_or(2usize);
    std::thread::scope(|s| {
        for _ in 0..jobs {
            s.spawn(|| loop {
                let Some(n) = queue.lock().unwrap().pop() else { break };
                let start = std::time::Instant::now();
                let r = ptx_for(&n, &bin).and_then(|ptx| check(&n, &ptx, &bin));
                results.lock().unwrap().push((n, r, start.elapsed().as_secs_f64()));
            });
        }
    });
    let _ = std::fs::remove_dir_all(&bin);
    let mut results = results.into_inner().unwrap();
    results.sort_by(|a, b| a.0.cmp(&b.0));
    let mut report = String::new();
    let mut regressions = Vec::new();
    let mut passed = 0;
    // Each line says how long the program took (PTX, build and run), so the slowest are seen.
    for (n, r, secs) in &results {
        match r {
            Ok(()) => {
                passed += 1;
                report += &format!("{label}: {n:<32} {secs:6.1} s ok{}\n", if passing.contains(n) { "" } else { " (not yet in the passing list)" });
            }
            Err(why) => {
                report += &format!("{label}: {n:<32} {secs:6.1} s {} {why}\n", if passing.contains(n) { "FAILED" } else { "not yet:" });
                if passing.contains(n) {
                    regressions.push(n.clone());
                }
            }
        }
    }
    if !skipped.is_empty() {
        report += &format!("{label}: not tried (not in the passing list; CUPRITE_PTX_MODULES_ALL=1 tries them): {}\n", skipped.join(" "));
    }
    eprintln!("{report}{label}: {passed} of {} programs run from PTX with the expected output", results.len());
    assert!(regressions.is_empty(), "programs in the passing list failed: {regressions:?}\n{report}");
    if filter.is_none() {
        assert!(passing.len() >= 20, "at least 20 programs are expected to pass");
    }
}
