//! The profiler (`cuprite --profile`, `CUPRITE_PROFILE=1`, `cuprite prof`), end to end.
//!
//! `counters_equal_nsight_computes`: the programs of `tests/profile/` are built with
//! `--profile -arch=sm_90` and run with `CUPRITE_PROFILE=1`; for every kernel, the global
//! requests and sectors, the shared-memory instructions, wavefronts and bank conflicts,
//! and the occupancy limits by warps and blocks must equal what Nsight Compute 2025.3
//! measured on an H100 (`tests/profile/gpu/NAME.ncu.csv`, captured with `nvcc
//! -arch=sm_90 -lineinfo` and `ncu --section LaunchStats --section Occupancy --metrics …
//! --print-metric-name name --print-units base --csv`; launches of one kernel summed),
//! except where nvcc's optimiser changed the accesses themselves (`COMPILER_CHANGED`).

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::process::Command;

fn cuprite() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_cuprite"))
}

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/profile")
}

/// Metrics that are a function of the addresses (and the launch shape) only.
const EXACT: &[&str] = &[
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
    "smsp__sass_inst_executed_op_shared_ld.sum",
    "smsp__sass_inst_executed_op_shared_st.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
    "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
    "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
    "launch__grid_size",
    "launch__block_size",
    "launch__shared_mem_per_block_static",
    "launch__occupancy_limit_blocks",
    "launch__occupancy_limit_warps",
    "sm__maximum_warps_per_active_cycle_pct",
];

/// (kernel, metrics) where nvcc's code makes other accesses than the source: Cuprite
/// counts the source's.
const COMPILER_CHANGED: &[(&str, &[&str], &str)] = &[
    // nvcc loads `in[t]` once for both stores; the source (and Cuprite) loads it twice.
    ("shared_double(const double *, double *)", &["l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], "load merged by nvcc"),
    // nvcc unrolls the loop, so other lanes' iterations share a load instruction
    // (the request count is the same, the sectors differ).
    ("loop_divergent(const float *, float *, int)", &["l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"], "loop unrolled by nvcc"),
];

/// One CSV line's fields (ncu quotes every field).
fn csv_fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let (mut cur, mut quoted) = (String::new(), false);
    for c in line.chars() {
        match c {
            '"' => quoted = !quoted,
            ',' if !quoted => out.push(std::mem::take(&mut cur)),
            c => cur.push(c),
        }
    }
    out.push(cur);
    out
}

/// kernel → metric → value, launches of a kernel summed for `.sum` metrics.
fn ncu_metrics(csv: &str) -> HashMap<String, HashMap<String, f64>> {
    let mut lines = csv.lines().filter(|l| l.starts_with('"'));
    let header = csv_fields(lines.next().expect("ncu header"));
    let col = |n: &str| header.iter().position(|h| h == n).unwrap();
    let (id, kernel, name, value) = (col("ID"), col("Kernel Name"), col("Metric Name"), col("Metric Value"));
    let mut seen = std::collections::HashSet::new();
    let mut out: HashMap<String, HashMap<String, f64>> = HashMap::new();
    for l in lines {
        let f = csv_fields(l);
        if !seen.insert((f[id].clone(), f[name].clone())) {
            continue;
        }
        let Ok(v) = f[value].replace(',', "").parse::<f64>() else { continue };
        let e = out.entry(f[kernel].clone()).or_default().entry(f[name].clone()).or_insert(0.0);
        if f[name].ends_with(".sum") {
            *e += v;
        } else {
            *e = v;
        }
    }
    out
}

/// kernel → metric → value from Cuprite's report.
fn our_metrics(report: &str) -> HashMap<String, HashMap<String, f64>> {
    let mut out: HashMap<String, HashMap<String, f64>> = HashMap::new();
    let mut cur: Option<String> = None;
    for l in report.lines() {
        if let Some(rest) = l.strip_prefix("  ").filter(|r| !r.starts_with(' ')) {
            if let Some(i) = rest.find(") (") {
                cur = Some(rest[..=i].to_string());
                continue;
            }
        }
        let Some(k) = &cur else { continue };
        let Some(rest) = l.strip_prefix("    ") else { continue };
        let words: Vec<&str> = rest.split_whitespace().collect();
        if words.len() >= 2 {
            if let Ok(v) = words[words.len() - 1].replace(',', "").parse::<f64>() {
                out.entry(k.clone()).or_default().insert(words[0].to_string(), v);
            }
        }
    }
    out
}

fn build(src: &Path, out: &Path, flags: &[&str]) {
    let o = Command::new(cuprite()).current_dir(dir()).args(flags).arg("-arch=sm_90").arg("-o").arg(out).arg(src).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

#[test]
fn counters_equal_nsight_computes() {
    let work = tempfile::tempdir().unwrap();
    let mut failures = Vec::new();
    let mut compared = 0;
    for name in ["counters", "counters2"] {
        let exe = work.path().join(name);
        build(Path::new(&format!("{name}.cu")), &exe, &["--sanitize"]);
        let trace = work.path().join(format!("{name}.json"));
        let o = Command::new(&exe).env("CUPRITE_PROFILE", "1").env("CUPRITE_PROFILE_TRACE", &trace).output().unwrap();
        assert!(o.status.success());
        let out = String::from_utf8_lossy(&o.stdout);
        let expected = std::fs::read_to_string(dir().join(format!("gpu/{name}.expected"))).unwrap();
        assert!(out.starts_with(&expected), "{name}: the program's own output differs from the GPU's\n{out}");
        let ours = our_metrics(&out);
        let ncu = ncu_metrics(&std::fs::read_to_string(dir().join(format!("gpu/{name}.ncu.csv"))).unwrap());
        assert!(!ncu.is_empty());
        for (kernel, theirs) in &ncu {
            let Some(mine) = ours.get(kernel) else {
                failures.push(format!("{name}: no report for {kernel}"));
                continue;
            };
            for m in EXACT {
                let skip = COMPILER_CHANGED.iter().any(|(k, ms, _)| k == kernel && ms.contains(m));
                match (theirs.get(*m), mine.get(*m)) {
                    (Some(t), Some(o)) if skip => assert_ne!(t, o, "{kernel} {m}: listed as changed by nvcc but equal"),
                    (Some(t), Some(o)) if t == o => compared += 1,
                    (t, o) => failures.push(format!("{name}: {kernel} {m}: ncu {t:?}, Cuprite {o:?}")),
                }
            }
        }
        // The trace: a JSON object of complete events, kernels and copies among them.
        let t = std::fs::read_to_string(&trace).unwrap();
        assert!(t.starts_with("{\"traceEvents\":[") && t.trim_end().ends_with('}'), "{t}");
        assert!(t.contains("\"cat\":\"kernel\"") && t.contains("\"name\":\"memcpy\"") && t.contains("\"ph\":\"X\""), "{t}");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    assert!(compared > 250, "{compared}");
}

#[test]
fn divergence_and_unprofiled_programs() {
    let work = tempfile::tempdir().unwrap();
    let exe = work.path().join("counters");
    let src = Path::new("counters.cu");
    // `cuprite prof FILE.cu` builds instrumented and profiles.
    let o = Command::new(cuprite()).current_dir(dir()).args(["prof", "counters.cu"]).output().unwrap();
    assert!(o.status.success());
    let ours = our_metrics(&String::from_utf8_lossy(&o.stdout));
    let k = &ours["branch_divergent(const int *, int *)"];
    // Odd and even lanes of each of the 32 warps go different ways; nvcc predicates this
    // branch (ncu counts 0 divergent SASS branches), so Cuprite counts source branches.
    assert_eq!(k["cuprite__source_branches_divergent.sum"], 32.0);
    assert_eq!(k["cuprite__source_branches.sum"], 32.0);
    assert_eq!(ours["copy_coalesced(const float *, float *, int)"]["cuprite__source_branches_divergent.sum"], 0.0);
    // A program built without instrumentation: `cuprite prof` instruments its kept
    // device IR on demand, and counts as the instrumented build does.
    build(src, &exe, &[]);
    let o = Command::new(cuprite()).args(["prof"]).arg(&exe).output().unwrap();
    let on_demand = our_metrics(&String::from_utf8_lossy(&o.stdout));
    let tiled = "transpose_tiled(float *, const float *)";
    assert_eq!(on_demand[tiled]["l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum"], 63488.0);
    assert_eq!(on_demand[tiled]["l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum"], 8192.0);
    // Run directly with CUPRITE_PROFILE=1: launches and times only, and it says so.
    let o = Command::new(&exe).env("CUPRITE_PROFILE", "1").output().unwrap();
    let out = String::from_utf8_lossy(&o.stdout);
    assert!(out.contains("Memory counters need instrumented device code"), "{out}");
    let ours = our_metrics(&out);
    assert_eq!(ours["copy_strided(const float *, float *, int, int)"]["cuprite__launches"], 2.0);
    assert!(!out.contains("l1tex__"), "{out}");
    // Without CUPRITE_PROFILE there is no report.
    let o = Command::new(&exe).output().unwrap();
    assert!(!String::from_utf8_lossy(&o.stdout).contains("==PROF=="));
}
