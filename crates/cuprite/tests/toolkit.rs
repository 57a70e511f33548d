//! `cuprite install --prefix DIR` as a drop-in CUDA toolkit: programs built by DIR/bin/nvcc
//! (static and shared runtime), host code linked by g++ with `-lcudart`/`-lcudart_static`,
//! a Makefile that calls `nvcc` by name, and a CMake project (Ninja and Unix Makefiles)
//! with static and shared libraries of device code. The projects are in tests/toolkit/.
//!
//! CMake and Ninja are installed from PyPI when missing; the tests fail, never skip, when
//! they cannot be found or installed.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::OnceLock;

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd.output().unwrap_or_else(|e| panic!("cannot run {cmd:?}: {e}"));
    assert!(out.status.success(), "command failed: {cmd:?}\nstdout:\n{}\nstderr:\n{}", text(&out.stdout), text(&out.stderr));
    out
}

fn projects() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/toolkit")
}

/// The toolkit prefix, installed once for all tests of this file.
fn prefix() -> &'static Path {
    static PREFIX: OnceLock<PathBuf> = OnceLock::new();
    PREFIX.get_or_init(|| {
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("toolkit-prefix");
        run_ok(Command::new(env!("CARGO_BIN_EXE_cuprite")).arg("install").arg("--prefix").arg(&dir));
        dir
    })
}

fn nvcc() -> Command {
    Command::new(prefix().join("bin/nvcc"))
}

/// Copies a project of tests/toolkit/ into a fresh directory.
fn copy_project(name: &str, into: &Path) -> PathBuf {
    let dest = into.join(name);
    std::fs::create_dir_all(&dest).unwrap();
    for entry in std::fs::read_dir(projects().join(name)).unwrap() {
        let entry = entry.unwrap();
        std::fs::copy(entry.path(), dest.join(entry.file_name())).unwrap();
    }
    dest
}

const VECADD_OK: &str = "vecadd: error 0, 0 wrong, c[4095] = 12285\n";

#[test]
fn prefix_has_cudas_layout() {
    let p = prefix();
    for f in ["bin/nvcc", "include/cuda_runtime.h", "include/cuda.h", "lib64/libcudart_static.a", "lib64/libcudadevrt.a", "lib64/libcudart.so.13.0.0", "lib64/libcuda.so.1", "lib64/libcuda.so", "include/nvrtc.h", "include/nv/target", "include/cccl/nv/target", "include/cccl/cuda/barrier", "version.json"] {
        assert!(p.join(f).is_file(), "missing {f}");
    }
    assert_eq!(std::fs::read_link(p.join("lib64/libcudart.so")).unwrap(), Path::new("libcudart.so.13"));
    assert_eq!(std::fs::read_link(p.join("lib64/libcudart.so.13")).unwrap(), Path::new("libcudart.so.13.0.0"));
    let json = std::fs::read_to_string(p.join("version.json")).unwrap();
    assert!(json.contains("\"cuda\"") && json.contains("\"version\" : \"13.0."), "{json}");
    let out = run_ok(nvcc().arg("--version"));
    assert!(text(&out.stdout).contains("Cuda compiler driver") && text(&out.stdout).contains("V13.0."), "{}", text(&out.stdout));
    // CMake reads the toolkit's directories from these lines.
    let out = nvcc().args(["-v", "__cmake_determine_cuda"]).output().unwrap();
    let err = text(&out.stderr);
    assert!(err.contains(&format!("#$ TOP={}", p.display())) && err.contains("#$ LIBRARIES="), "{err}");
}

#[test]
fn install_into_an_unwritable_place_says_so() {
    let out = Command::new(env!("CARGO_BIN_EXE_cuprite")).args(["install", "--prefix", "/proc/cuprite-cannot-be-here"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cannot create /proc/cuprite-cannot-be-here"), "{}", text(&out.stderr));
}

#[test]
fn nvcc_built_programs_run_anywhere_static_and_shared() {
    let build = tempfile::tempdir().unwrap();
    let src = copy_project("make", build.path());
    let elsewhere = tempfile::tempdir().unwrap();
    for (name, extra) in [("static_app", &[][..]), ("shared_app", &["-cudart", "shared"][..])] {
        run_ok(nvcc().current_dir(&src).args(extra).args(["-o", name, "kernels.cu", "main.cpp"]));
        std::fs::rename(src.join(name), elsewhere.path().join(name)).unwrap();
    }
    drop(build); // the sources and objects are gone
    for name in ["static_app", "shared_app"] {
        let out = run_ok(Command::new(elsewhere.path().join(name)).current_dir("/"));
        assert_eq!(text(&out.stdout), VECADD_OK, "{name}");
    }
    // The statically linked program needs no libcudart; the other finds the prefix's.
    let ldd = |name: &str| text(&run_ok(Command::new("ldd").arg(elsewhere.path().join(name))).stdout);
    assert!(!ldd("static_app").contains("libcudart"));
    assert!(ldd("shared_app").contains(&format!("{}", prefix().join("lib64/libcudart.so.13").display())));
}

#[test]
fn gxx_links_nvcc_objects_with_libcudart() {
    let dir = tempfile::tempdir().unwrap();
    let src = copy_project("make", dir.path());
    run_ok(nvcc().current_dir(&src).args(["-c", "kernels.cu", "-o", "kernels.o"]));
    let lib64 = prefix().join("lib64");
    run_ok(Command::new("g++").current_dir(&src).args(["main.cpp", "kernels.o", "-o", "shared_app"]).arg("-L").arg(&lib64).arg("-lcudart"));
    let out = run_ok(Command::new(src.join("shared_app")).env("LD_LIBRARY_PATH", &lib64));
    assert_eq!(text(&out.stdout), VECADD_OK);
    run_ok(Command::new("g++").current_dir(&src).args(["main.cpp", "kernels.o", "-o", "static_app"]).arg("-L").arg(&lib64).args(["-lcudart_static", "-ldl", "-lpthread", "-lrt"]));
    let out = run_ok(&mut Command::new(src.join("static_app")));
    assert_eq!(text(&out.stdout), VECADD_OK);
}

/// The driver API as cuda-samples' driver programs use it: a kernel file compiled with
/// `nvcc -fatbin`, host code linked by g++ with `-lcuda` (alone, and beside the static
/// runtime: one runtime either way), the module loaded from the file.
#[test]
fn gxx_links_driver_api_programs_with_libcuda() {
    let dir = tempfile::tempdir().unwrap();
    let src = copy_project("driver", dir.path());
    run_ok(nvcc().current_dir(&src).args(["-arch=sm_90", "-fatbin", "kernels.cu", "-o", "kernels.fatbin"]));
    let lib64 = prefix().join("lib64");
    let include = prefix().join("include");
    const OK: &str = "driver: c[999] = 2997, counter 384 (4 bytes)\n";
    run_ok(Command::new("g++").current_dir(&src).args(["main.cpp", "-o", "drv_app", "-I"]).arg(&include).arg("-L").arg(&lib64).arg("-lcuda"));
    let out = run_ok(Command::new(src.join("drv_app")).current_dir(&src).env("LD_LIBRARY_PATH", &lib64));
    assert_eq!(text(&out.stdout), OK);
    run_ok(Command::new("g++").current_dir(&src).args(["main.cpp", "-o", "drv_static_app", "-I"]).arg(&include).arg("-L").arg(&lib64).args(["-lcuda", "-lcudart_static", "-ldl", "-lpthread", "-lrt"]));
    let out = run_ok(Command::new(src.join("drv_static_app")).current_dir(&src).env("LD_LIBRARY_PATH", &lib64));
    assert_eq!(text(&out.stdout), OK);
}

#[test]
fn makefile_calls_nvcc_by_name() {
    let dir = tempfile::tempdir().unwrap();
    let src = copy_project("make", dir.path());
    let path = format!("{}:{}", prefix().join("bin").display(), std::env::var("PATH").unwrap_or_default());
    let out = run_ok(Command::new("make").current_dir(&src).env("PATH", &path).env_remove("MAKEFLAGS"));
    assert!(text(&out.stdout).contains("nvcc -O2 -arch=sm_80"), "{}", text(&out.stdout));
    for exe in ["vecadd", "vecadd_shared", "host_link"] {
        let out = run_ok(&mut Command::new(src.join(exe)));
        assert_eq!(text(&out.stdout), VECADD_OK, "{exe}");
    }
}

#[test]
fn cmake_project_with_ninja() {
    cmake_project("Ninja", "75;80;90");
}

#[test]
fn cmake_project_with_makefiles() {
    cmake_project("Unix Makefiles", "native");
}

fn cmake_project(generator: &str, archs: &str) {
    let tools = cmake_tools();
    let dir = tempfile::tempdir().unwrap();
    let build = dir.path().join("build");
    let mut configure = Command::new(&tools.cmake);
    configure
        .arg("-S")
        .arg(projects().join("cmake"))
        .arg("-B")
        .arg(&build)
        .args(["-G", generator])
        .arg(format!("-DCMAKE_CUDA_COMPILER={}", prefix().join("bin/nvcc").display()))
        .arg(format!("-DCMAKE_CUDA_ARCHITECTURES={archs}"))
        .arg("-DCMAKE_BUILD_TYPE=Release");
    if generator == "Ninja" {
        configure.arg(format!("-DCMAKE_MAKE_PROGRAM={}", tools.ninja.display()));
    }
    let out = run_ok(&mut configure);
    let log = text(&out.stdout);
    assert!(log.contains("The CUDA compiler identification is NVIDIA 13.0"), "{log}");
    assert!(log.contains(&format!("CUDAToolkit 13.0.0 at {}", prefix().join("lib64").display())), "{log}");
    run_ok(Command::new(&tools.cmake).arg("--build").arg(&build).args(["-j", "2"]).env_remove("MAKEFLAGS"));
    for exe in ["host_app", "host_app_static"] {
        let out = run_ok(&mut Command::new(build.join(exe)));
        assert_eq!(text(&out.stdout), "saxpy: no error, 0 wrong, y[999] = 1499.5\n", "{exe}");
    }
    let out = run_ok(&mut Command::new(build.join("std17")));
    assert_eq!(text(&out.stdout), "c++17: 0 6 12 18 (last 18)\n");
    // CUDA_SEPARABLE_COMPILATION: device functions of a static library, device link.
    let out = run_ok(&mut Command::new(build.join("rdc_app")));
    assert_eq!(
        text(&out.stdout),
        "block 0: 2150\nblock 1: 2154\nblock 2: 2139\n-1 83 167 23 107 191 47 131 \nhelpers: 2 101\nstatus: no error\n"
    );
}

struct CmakeTools {
    cmake: PathBuf,
    ninja: PathBuf,
}

/// cmake and ninja from PATH or Python's script directories, installed from PyPI
/// (`python3 -m pip install cmake ninja`) when missing. Panics when that fails.
fn cmake_tools() -> &'static CmakeTools {
    static TOOLS: OnceLock<CmakeTools> = OnceLock::new();
    TOOLS.get_or_init(|| {
        let find = || Some(CmakeTools { cmake: find_tool("cmake")?, ninja: find_tool("ninja")? });
        if let Some(t) = find() {
            return t;
        }
        let mut log = String::new();
        for extra in [&["--user"][..], &[][..]] {
            let out = Command::new("python3").args(["-m", "pip", "install", "--quiet"]).args(extra).args(["cmake", "ninja"]).output();
            match out {
                Ok(o) => log.push_str(&format!("pip install {extra:?}: {}\n{}", o.status, text(&o.stderr))),
                Err(e) => log.push_str(&format!("cannot run python3 -m pip: {e}\n")),
            }
            if let Some(t) = find() {
                return t;
            }
        }
        panic!("cmake and ninja are needed for these tests and could not be installed:\n{log}");
    })
}

fn find_tool(name: &str) -> Option<PathBuf> {
    let works = |p: &Path| Command::new(p).arg("--version").output().is_ok_and(|o| o.status.success());
    if works(Path::new(name)) {
        return Some(PathBuf::from(name));
    }
    // Where pip puts scripts: the user base's bin, and the interpreter's scripts directory.
    let python = |code: &str| Command::new("python3").args(["-c", code]).output().ok().map(|o| PathBuf::from(text(&o.stdout).trim()));
    let dirs = [python("import site; print(site.getuserbase() + '/bin')"), python("import sysconfig; print(sysconfig.get_path('scripts'))")];
    dirs.into_iter().flatten().map(|d| d.join(name)).find(|p| works(p))
}
