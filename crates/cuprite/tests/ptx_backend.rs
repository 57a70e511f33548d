//! The PTX back-end through the driver (`cuprite -ptx`): golden PTX for small kernels,
//! a structural check (`cuprite_ptx::emit::lint`) of everything it writes, the module
//! image in the PTX file's comments, named errors for what it cannot translate, and the
//! GPU device's error when no driver is present. ptxas itself runs on the GPU machine
//! (tools/ptx/check-ptxas.sh); CI has no GPU.
//!
//! After a deliberate change to the back-end, rewrite the golden files with
//! `CUPRITE_UPDATE_SNAPSHOTS=1 cargo test --release -p cuprite --test ptx_backend`.

use std::path::{Path, PathBuf};
use std::process::Command;

fn dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ptx")
}

/// Runs `cuprite -arch=sm_90 -ptx NAME.cu` and returns the whole file.
fn ptx_file(name: &str) -> Result<String, String> {
    let tmp = tempfile::tempdir().unwrap();
    let out = tmp.path().join(format!("{name}.ptx"));
    let o = Command::new(env!("CARGO_BIN_EXE_cuprite"))
        .current_dir(dir())
        .args(["-arch=sm_90", "-ptx", &format!("{name}.cu"), "-o"])
        .arg(&out)
        .output()
        .unwrap();
    if !o.status.success() {
        return Err(String::from_utf8_lossy(&o.stderr).into_owned());
    }
    Ok(std::fs::read_to_string(&out).unwrap())
}

fn ptx_of(file: &str) -> String {
    cuprite_image::Image::ptx_text(file.as_bytes()).expect("a -ptx file carries PTX after its image").to_string()
}

fn golden(name: &str) {
    let file = ptx_file(name).unwrap_or_else(|e| panic!("{name}: {e}"));
    let ptx = ptx_of(&file);
    let problems = cuprite_ptx::emit::lint::check(&ptx);
    assert!(problems.is_empty(), "{name}: {problems:#?}");
    let path = dir().join(format!("{name}.ptx"));
    if std::env::var_os("CUPRITE_UPDATE_SNAPSHOTS").is_some() {
        std::fs::write(&path, &ptx).unwrap();
    }
    let want = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(want == ptx, "{name}: the PTX differs from {} (CUPRITE_UPDATE_SNAPSHOTS=1 rewrites it):\n{ptx}", path.display());
}

#[test]
fn vector_add_golden() {
    golden("vector_add");
}

#[test]
fn reduce_shared_golden() {
    golden("reduce_shared");
}

#[test]
fn every_feature_is_well_formed_and_native() {
    let file = ptx_file("features").unwrap();
    // The CPU device still loads the file: the image rides in its comment lines.
    let img = cuprite_image::Image::decode(file.as_bytes()).expect("the image decodes");
    assert!(img.c_source.contains("features"));
    let ptx = ptx_of(&file);
    assert_eq!(cuprite_ptx::emit::lint::check(&ptx), Vec::<String>::new());
    for needle in [
        ".target sm_90",
        ".extern .func (.param .b32 func_retval0) vprintf(",
        ".extern .func __assertfail(",
        "call (retval0), malloc,",
        "call free,",
        ".callprototype",
        "atom.add.u64",
        "atom.cta.add.s32",
        "atom.sys.max.s32",
        "atom.cas.b32",
        "atom.exch.b32",
        "atom.add.f64",
        "atom.inc.u32",
        "membar.gl",
        "membar.cta",
        "activemask.b32",
        "shfl.sync.down.b32",
        "shfl.sync.bfly.b32",
        "vote.sync.ballot.b32",
        "vote.sync.all.pred",
        "match.any.sync.b32",
        "redux.sync.add.s32",
        "bar.warp.sync",
        "bar.red.popc.u32",
        ".const .align 4 .b8",
        ".u64 ops[2] = {_Z5twicei, _Z6squarei};",
    ] {
        assert!(ptx.contains(needle), "no `{needle}` in:\n{ptx}");
    }
    // Recursion: fib calls itself.
    assert!(ptx.lines().filter(|l| l.contains("call (retval0), _Z3fibi")).count() >= 3, "{ptx}");
}

#[test]
fn unsupported_constructs_are_named_with_their_position() {
    let err = ptx_file("unsupported_math").unwrap_err();
    assert!(err.contains("unsupported_math.cu:3:") && err.contains("'j0f'") && err.contains("PTX back-end"), "{err}");
}

#[test]
fn yield_points_are_zero_sleeps() {
    // A spin wait's yield point must reach the PTX: the front-end reads it back as a
    // yield, without which re-read waits never let the block's other threads run.
    let ptx = ptx_file("yield_points").unwrap();
    assert!(ptx.contains("nanosleep.u32 0"), "no yield point in:\n{ptx}");
}

#[test]
fn textures_surfaces_and_grid_barriers_are_native() {
    let ptx = ptx_of(&ptx_file("textures_grid").unwrap());
    let problems = cuprite_ptx::emit::lint::check(&ptx);
    assert!(problems.is_empty(), "{problems:?}");
    for want in [
        "tex.2d.v4.f32.f32",
        "tex.level.2d.v4.f32.f32",
        "tex.grad.2d.v4.f32.f32",
        "tld4.g.2d.v4.u32.f32",
        "tex.1d.v4.s32.s32",
        "tex.a2d.v4.f32.f32",
        "sust.b.2d.b32.zero",
        "suld.b.2d.b8.trap",
        "sust.b.a2d.b32.trap",
        ".global .align 4 .u32 __cuprite_grid_state[4]",
        "atom.global.add.u32",
    ] {
        assert!(ptx.contains(want), "no {want} in:\n{ptx}");
    }
}

#[test]
fn math_library_functions_call_the_device_math_library() {
    let ptx = ptx_file("library_math").unwrap();
    // expf is inline, as nvcc writes it (emit/math.rs).
    assert!(ptx.contains("ex2.approx.ftz.f32") && !ptx.contains("cuprite_ptx_expf"), "{ptx}");
    for routine in ["cuprite_ptx_sinf", "cuprite_ptx_powf", "cuprite_ptx_erfc", "cuprite_ptx_lgamma"] {
        assert!(ptx.lines().any(|l| l.starts_with(".func") && l.contains(routine)), "no routine {routine} in:\n{ptx}");
        assert!(ptx.lines().any(|l| l.contains("call") && l.contains(routine)), "no call of {routine}");
    }
    // Only the routines the kernel reaches are written.
    assert!(!ptx.contains("cuprite_ptx_atan2"), "unreached routines are left out");
    // The tables of the library are the module's own, not visible to the host.
    assert!(!ptx.contains(".visible .global .align 8 .b8 __cuprite_g"), "{ptx}");
}

#[test]
fn gpu_device_without_a_driver_is_a_clear_error() {
    // Where NVIDIA's driver is installed this is the GPU machine's business.
    let has_driver = ["/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib64/libcuda.so.1", "/usr/lib/libcuda.so.1"].iter().any(|p| Path::new(p).exists());
    if has_driver {
        eprintln!("skipped: an NVIDIA driver is installed here");
        return;
    }
    let tmp = tempfile::tempdir().unwrap();
    let exe = tmp.path().join("vadd");
    let src = tmp.path().join("vadd.cu");
    std::fs::write(
        &src,
        "#include <cstdio>\n__global__ void k(int *p) { p[threadIdx.x] = threadIdx.x; }\nint main() { int *d; cudaError_t e = cudaMalloc(&d, 64); printf(\"%s\\n\", cudaGetErrorName(e)); k<<<1, 16>>>(d); return 0; }\n",
    )
    .unwrap();
    let st = Command::new(env!("CARGO_BIN_EXE_cuprite")).args(["-arch=sm_90", "-o"]).arg(&exe).arg(&src).status().unwrap();
    assert!(st.success());
    let cpu = Command::new(&exe).output().unwrap();
    assert_eq!(String::from_utf8_lossy(&cpu.stdout), "cudaSuccess\n");
    let gpu = Command::new(&exe).env("CUPRITE_DEVICE", "gpu").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&gpu.stdout), "cudaErrorNoDevice\n");
    let err = String::from_utf8_lossy(&gpu.stderr);
    assert!(err.contains("CUPRITE_DEVICE=gpu") && err.contains("libcuda.so.1"), "{err}");
}

#[test]
fn run_device_option_selects_the_device() {
    let tmp = tempfile::tempdir().unwrap();
    let src = tmp.path().join("p.cu");
    std::fs::write(&src, "#include <cstdio>\nint main() { int *d; printf(\"%s\\n\", cudaGetErrorName(cudaMalloc(&d, 4))); return 0; }\n").unwrap();
    let run = |dev: &str| Command::new(env!("CARGO_BIN_EXE_cuprite")).args(["run", "--device", dev]).arg(&src).env_remove("CUPRITE_DEVICE").output().unwrap();
    assert_eq!(String::from_utf8_lossy(&run("cpu").stdout), "cudaSuccess\n");
    let bad = run("tpu");
    assert!(!bad.status.success() && String::from_utf8_lossy(&bad.stderr).contains("--device takes 'gpu' or 'cpu'"));
    let has_driver = ["/usr/lib/x86_64-linux-gnu/libcuda.so.1", "/usr/lib64/libcuda.so.1"].iter().any(|p| Path::new(p).exists());
    if !has_driver {
        assert_eq!(String::from_utf8_lossy(&run("gpu").stdout), "cudaErrorNoDevice\n");
    }
}

/// Every conformance program either becomes PTX that passes the structural check, or is
/// refused with a named error (on the H100 machine, ptxas accepts all that become PTX:
/// tools/ptx/h100-results.md).
#[test]
fn every_conformance_program_is_well_formed_ptx_or_a_named_error() {
    let suite = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/conformance");
    let mut programs: Vec<PathBuf> = std::fs::read_dir(&suite)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "cu") && !p.to_string_lossy().ends_with(".module.cu"))
        .collect();
    programs.sort();
    let chunks: Vec<Vec<PathBuf>> = programs.chunks(programs.len().div_ceil(4).max(1)).map(|c| c.to_vec()).collect();
    let problems: Vec<String> = std::thread::scope(|s| {
        let handles: Vec<_> = chunks
            .into_iter()
            .map(|chunk| {
                let suite = suite.clone();
                s.spawn(move || {
                    let tmp = tempfile::tempdir().unwrap();
                    let mut found = Vec::new();
                    for p in chunk {
                        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
                        let out = tmp.path().join(format!("{name}.ptx"));
                        let o = Command::new(env!("CARGO_BIN_EXE_cuprite")).current_dir(&suite).args(["-arch=sm_90", "-ptx"]).arg(&p).arg("-o").arg(&out).output().unwrap();
                        let err = String::from_utf8_lossy(&o.stderr);
                        if !o.status.success() {
                            let named = err.contains("(PTX back-end)") && err.contains(": error: ") || err.contains("__managed__ variable");
                            if !named {
                                found.push(format!("{name}: refused without a named construct: {err}"));
                            }
                            continue;
                        }
                        let ptx = ptx_of(&std::fs::read_to_string(&out).unwrap());
                        found.extend(cuprite_ptx::emit::lint::check(&ptx).into_iter().map(|m| format!("{name}: {m}")));
                    }
                    found
                })
            })
            .collect();
        handles.into_iter().flat_map(|h| h.join().unwrap()).collect()
    });
    assert!(problems.is_empty(), "{problems:#?}");
}
