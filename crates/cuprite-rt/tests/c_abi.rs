//! Builds a C++ program by hand the way Cuprite builds programs (a device module that
//! follows cuprite_abi.h, host stubs, launches through __cudaPushCallConfiguration),
//! links it with the runtime's static library and checks what it does.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

fn manifest() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The newest libcuprite_rt.a next to this test binary.
fn staticlib() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let deps = exe.parent().unwrap();
    let mut cands: Vec<PathBuf> = Vec::new();
    for dir in [deps, deps.parent().unwrap()] {
        for e in std::fs::read_dir(dir).unwrap().flatten() {
            let n = e.file_name().to_string_lossy().into_owned();
            if n.starts_with("libcuprite_rt") && n.ends_with(".a") {
                cands.push(e.path());
            }
        }
    }
    cands.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    cands.pop().expect("libcuprite_rt.a not found next to the test binary")
}

fn program() -> &'static Path {
    static P: OnceLock<PathBuf> = OnceLock::new();
    P.get_or_init(|| {
        let out = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join("abi_program");
        let m = manifest();
        let st = Command::new("c++")
            .arg("-O1")
            .arg("-g")
            .arg("-Wall")
            .arg("-I")
            .arg(m.join("../../include"))
            .arg("-I")
            .arg(m.join("csrc"))
            .arg(m.join("tests/c/abi_program.cpp"))
            .arg(staticlib())
            .args(["-lpthread", "-ldl", "-lm", "-o"])
            .arg(&out)
            .status()
            .expect("c++");
        assert!(st.success(), "compiling the test program failed");
        out
    })
}

fn run(mode: &str) -> (String, String, i32) {
    let o = Command::new(program()).arg(mode).output().expect("run");
    (
        String::from_utf8_lossy(&o.stdout).into_owned(),
        String::from_utf8_lossy(&o.stderr).into_owned(),
        o.status.code().unwrap_or(-1),
    )
}

#[test]
fn basic_results_errors_symbols_events() {
    let (out, err, code) = run("basic");
    assert_eq!(code, 0, "stdout:\n{out}\nstderr:\n{err}");
    assert!(out.contains("basic OK"), "{out}");
}

fn fault_transcript(err: &str) -> String {
    format!(
        "sync {err}\nlast {err}\npeek cudaSuccess\nsync again {err}\nmalloc {err}\nmemcpy {err}\n\
         launch {err}\nreset cudaSuccess\nmalloc after reset cudaSuccess\nafter reset sync cudaSuccess\n"
    )
}

#[test]
fn null_write_is_an_illegal_address_and_the_process_survives() {
    let (out, err, code) = run("null");
    assert_eq!(code, 0, "{out}{err}");
    let expected = fault_transcript("cudaErrorIllegalAddress") + "device printf tag=2 block=0\n";
    // The k_print launched after the reset runs and is flushed by the final sync.
    let expected = expected.replace(
        "after reset sync cudaSuccess\ndevice printf tag=2 block=0\n",
        "device printf tag=2 block=0\nafter reset sync cudaSuccess\n",
    );
    assert_eq!(out, expected);
    assert!(
        err.contains("cuprite: kernel 'k_fault' faulted in block (3,0,0) thread (17,0,0): illegal memory access (address 0x0)"),
        "{err}"
    );
}

#[test]
fn assert_and_trap() {
    let (out, err, code) = run("assert");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with(&fault_transcript("cudaErrorAssert")[..40]), "{out}");
    assert!(out.contains("launch cudaErrorAssert\n"), "{out}");
    assert!(
        err.contains("faults.cu:7: void k_assert(int): block: [") && err.contains("thread: [2,0,0] Assertion `t < lim` failed."),
        "{err}"
    );
    let (out, _err, code) = run("trap");
    assert_eq!(code, 0);
    assert!(out.starts_with("sync cudaErrorLaunchFailure\nlast cudaErrorLaunchFailure\npeek cudaSuccess\n"), "{out}");
}

#[test]
fn printf_flushes_at_sync_memcpy_reset_and_is_lost_at_exit() {
    // stdout is a pipe here, as in `./prog | cat`.
    let (out, _err, code) = run("printf");
    assert_eq!(code, 0);
    // The two blocks of one launch run in parallel: their lines may come in either order.
    let out = out.replace(
        "device printf tag=11 block=1\ndevice printf tag=11 block=0\n",
        "device printf tag=11 block=0\ndevice printf tag=11 block=1\n",
    );
    assert_eq!(
        out,
        "host A\nhost B (after launch, before sync)\ndevice printf tag=10 block=0\nhost C (after sync)\n\
         device printf tag=11 block=0\ndevice printf tag=11 block=1\nhost D (after memcpy)\n\
         device printf tag=12 block=0\nhost E (after reset)\nhost F returning without sync\n"
    );
}

#[test]
fn launches_are_asynchronous_and_events_wait() {
    let (out, err, code) = run("async");
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out,
        "query before sync cudaErrorNotReady\nlast after NotReady cudaSuccess\nquery after sync cudaSuccess flag 5\n"
    );
}

#[test]
fn stack_overflow_in_device_code_is_an_illegal_address() {
    let (out, err, code) = run("recursion");
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.starts_with("sync cudaErrorIllegalAddress\nlast cudaErrorIllegalAddress\n"), "{out}");
    assert!(out.contains("after reset sync cudaSuccess"), "{out}");
    assert!(err.contains("cuprite: kernel 'k_recursion' faulted in block (0,0,0) thread (0,0,0)"), "{err}");
}

#[test]
fn device_printf_formats_like_the_gpu() {
    let (out, err, code) = run("formats");
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(
        out,
        "star: [    42] hi (nil) (null) -1234567890123 2a  3.14% [%.*f] [%zu] [%k]\nno args\nreturned 8 and 0\n"
    );
}

#[test]
fn device_memory_faults_only_where_mapped_memory_ends() {
    let (out, err, code) = run("memory");
    assert_eq!(code, 0, "{out}{err}");
    assert_eq!(out, "far cudaErrorIllegalAddress\nmemory OK\n", "{err}");
    assert!(err.contains("cuprite: kernel 'k_touch' faulted in block (0,0,0) thread (0,0,0): illegal memory access"), "{err}");
}
