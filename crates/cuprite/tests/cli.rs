//! nvcc's command line end to end (issue 9): the defects of the old parser, the
//! misuse nvcc rejects, and programs deep enough to overflow a naive compiler's stack.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn cuprite() -> Command {
    Command::new(env!("CARGO_BIN_EXE_cuprite"))
}

fn text(bytes: &[u8]) -> String {
    String::from_utf8_lossy(bytes).into_owned()
}

fn write(dir: &Path, name: &str, contents: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, contents).unwrap();
    p
}

fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("runs")
}

fn ok(cmd: &mut Command) -> Output {
    let out = run(cmd);
    assert!(out.status.success(), "{cmd:?} failed:\n{}{}", text(&out.stdout), text(&out.stderr));
    out
}

fn fails_with(cmd: &mut Command, expected: &[&str]) -> String {
    let out = run(cmd);
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{cmd:?} should fail:\n{err}");
    for e in expected {
        assert!(err.contains(e), "{cmd:?}: expected {e:?} in:\n{err}");
    }
    assert!(!err.contains("panicked") && !err.contains("RUST_BACKTRACE"), "{err}");
    err
}

const KERNEL: &str = "__global__ void k(int *p) { p[0] = 1; }\n";
const MAIN: &str = "#include <cstdio>\n__global__ void k2(int *p) { p[0] = 2; }\nint main() { printf(\"ok\\n\"); return 0; }\n";

#[test]
fn compile_with_one_output_and_several_inputs_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.cu", KERNEL);
    write(dir.path(), "b.cu", MAIN);
    fails_with(cuprite().current_dir(dir.path()).args(["-c", "a.cu", "b.cu", "-o", "x.o"]), &["A single input file is required for a non-link phase when an outputfile is specified"]);
    // Without -o each input gets its own object, in -odir when given.
    std::fs::create_dir(dir.path().join("objs")).unwrap();
    ok(cuprite().current_dir(dir.path()).args(["-c", "a.cu", "b.cu", "-odir", "objs"]));
    assert!(dir.path().join("objs/a.o").exists() && dir.path().join("objs/b.o").exists());
}

#[test]
fn xcompiler_werror_reaches_the_host_compiler_as_werror() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "w.cu", "int main() { int unused; return 0; }\n");
    let out = dir.path().join("w.o");
    ok(cuprite().args(["-Xcompiler", "-Werror", "-c"]).arg(&src).arg("-o").arg(&out));
    fails_with(cuprite().args(["-Xcompiler", "-Wall -Werror", "-c"]).arg(&src).arg("-o").arg(&out), &["unused"]);
    fails_with(cuprite().args(["-Xcompiler", "-Wall,-Werror", "-c"]).arg(&src).arg("-o").arg(&out), &["unused"]);
}

#[test]
fn language_cxx_builds_a_program() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "t.txt", "#include <cstdio>\nint main() { std::printf(\"cxx\\n\"); }\n");
    ok(cuprite().current_dir(dir.path()).args(["-x", "c++", "t.txt", "-o", "t"]));
    assert_eq!(text(&ok(&mut Command::new(dir.path().join("t"))).stdout), "cxx\n");
}

#[test]
fn module_outputs_and_refused_outputs() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.cu", KERNEL);
    fails_with(cuprite().current_dir(dir.path()).args(["-cuda", "a.cu"]), &["-cuda", "Cuprite generates CPU code"]);
    // -cubin and -fatbin write a Cuprite module image (what cuModuleLoad* loads), -ptx
    // real PTX with the image in its leading comment lines; named after the input by
    // default, as nvcc names its outputs.
    for (flag, ext) in [("-ptx", "ptx"), ("-cubin", "cubin"), ("-fatbin", "fatbin")] {
        ok(cuprite().current_dir(dir.path()).args([flag, "a.cu"]));
        let image = std::fs::read_to_string(dir.path().join(format!("a.{ext}"))).unwrap();
        let header = if flag == "-ptx" { "//CUPRITE-MODULE-IMAGE 2 " } else { "//CUPRITE-MODULE-IMAGE 1\n" };
        assert!(image.starts_with(header), "{flag}: {}", &image[..image.len().min(60)]);
        assert_eq!(image.contains("\n.version 9.0\n"), flag == "-ptx", "{flag}");
    }
    fails_with(cuprite().current_dir(dir.path()).args(["-r", "a.cu"]), &["-r:", "not supported yet"]);
}

#[test]
fn lists_of_gpu_targets() {
    let out = ok(cuprite().arg("--list-gpu-arch"));
    assert!(text(&out.stdout).lines().any(|l| l == "compute_90"));
    let out = ok(cuprite().arg("--list-gpu-code"));
    assert!(text(&out.stdout).lines().any(|l| l == "sm_75"));
}

#[test]
fn help_lists_run_and_every_option() {
    let out = ok(cuprite().arg("--help"));
    let help = text(&out.stdout);
    for word in ["cuprite run", "cuprite install --prefix", "--device-link", "--cudart", "--shared", "--threads", "--ptx", "--list-gpu-arch", "--options-file", "Refused:", "Accepted, ignored:"] {
        assert!(help.contains(word), "--help lacks {word}");
    }
}

#[test]
fn options_file_threads_shared_and_forwarding() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "b.cu", MAIN);
    write(dir.path(), "opts.txt", "-O1\n-DGREETING=1\n");
    ok(cuprite().current_dir(dir.path()).args(["-optf", "opts.txt", "-t", "2", "--forward-unknown-to-host-compiler", "-fno-common", "b.cu", "-o", "app"]));
    assert_eq!(text(&ok(&mut Command::new(dir.path().join("app"))).stdout), "ok\n");
    fails_with(cuprite().current_dir(dir.path()).args(["--forward-unknown-to-host-compiler", "-frobnicate", "-c", "b.cu"]), &["frobnicate"]);
    write(dir.path(), "a.cu", KERNEL);
    ok(cuprite().current_dir(dir.path()).args(["-shared", "-Xcompiler", "-fPIC", "a.cu", "-o", "liba.so"]));
    assert!(dir.path().join("liba.so").exists());
}

#[test]
fn preprocess_and_dependencies_to_files() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "b.cu", MAIN);
    ok(cuprite().current_dir(dir.path()).args(["-E", "b.cu", "-o", "b.ii"]));
    assert!(std::fs::read_to_string(dir.path().join("b.ii")).unwrap().contains("main"));
    let out = ok(cuprite().current_dir(dir.path()).args(["-M", "-odir", "objs", "b.cu"]));
    assert!(text(&out.stdout).starts_with("objs/b.o:"), "{}", text(&out.stdout));
    let out = ok(cuprite().current_dir(dir.path()).args(["-MM", "b.cu"]));
    assert!(!text(&out.stdout).contains("/usr/include"), "{}", text(&out.stdout));
    ok(cuprite().current_dir(dir.path()).args(["-MD", "-MF", "b.d", "-MP", "-c", "b.cu", "-o", "b.o"]));
    assert!(std::fs::read_to_string(dir.path().join("b.d")).unwrap().starts_with("b.o:"));
}

#[test]
fn runtime_library_names_link() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "b.cu", MAIN);
    ok(cuprite().current_dir(dir.path()).args(["b.cu", "-o", "app", "-lcudart", "-L/nonexistent", "-lm"]));
    fails_with(cuprite().current_dir(dir.path()).args(["b.cu", "-o", "app", "-lnosuchlib"]), &["nosuchlib"]);
}

#[test]
fn device_debug_overrides_lineinfo_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "a.cu", KERNEL);
    let out = ok(cuprite().current_dir(dir.path()).args(["-G", "-lineinfo", "-c", "a.cu"]));
    assert!(text(&out.stderr).contains("'--device-debug (-G)' overrides '--generate-line-info (-lineinfo)'"));
}

const MISUSE: &str = r#"__device__ int twice(int x) { return 2 * x; }
__global__ void k(int *p) { *p = 1; }
void hostf(int *p) { *p = 1; }
int main() {
    int *p = 0;
    int y = twice(3);
    twice<<<1, 1>>>(3);
    hostf<<<1, 1>>>(p);
    k(p);
    k<<<1, 1>>>(p);
    return y;
}
"#;

#[test]
fn misuse_nvcc_rejects_is_a_compile_error_with_location() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "m.cu", MISUSE);
    let err = fails_with(
        cuprite().current_dir(dir.path()).args(["-c", "m.cu"]),
        &[
            "m.cu:6:13: error: calling a __device__ function(\"twice\") from a __host__ function(\"main\") is not allowed",
            "m.cu:7:5: error: a __device__ function call cannot be configured",
            "m.cu:8:5: error: a host function call cannot be configured",
            "m.cu:9:5: error: a __global__ function call must be configured",
        ],
    );
    assert!(err.contains("    9 |     k(p);\n      |     ^"), "{err}");
    assert!(!err.contains("m.cu:10:"), "a configured launch is fine:\n{err}");
}

#[test]
fn kernel_returning_non_void_and_host_api_in_device_code() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "r.cu", "__global__ int k(int *p) { return *p; }\nint main() {}\n");
    fails_with(cuprite().current_dir(dir.path()).args(["-c", "r.cu"]), &["r.cu:1:16: error: a __global__ function must have a void return type"]);
    write(dir.path(), "d.cu", "__global__ void k(int *d, int *s) {\n    cudaMemcpy(d, s, 4, cudaMemcpyDeviceToDevice);\n    cudaDeviceSynchronize();\n}\nint main() {}\n");
    let err = fails_with(
        cuprite().current_dir(dir.path()).args(["-c", "d.cu"]),
        &["d.cu:2:5: error: calling a __host__ function(\"cudaMemcpy\") from a __global__ function(\"k\") is not allowed", "d.cu:3:5: error: calling a __host__ function(\"cudaDeviceSynchronize\")"],
    );
    assert!(!err.contains("not supported yet"), "{err}");
}

#[test]
fn device_lambdas_and_members_are_not_misuse() {
    let dir = tempfile::tempdir().unwrap();
    let src = r#"#include <cstdio>
__device__ int twice(int x) { return 2 * x; }
struct S { int twice(int x) { return x; } };
__global__ void k(int *p) { *p = twice(21); }
int main() {
    S s;
    int *p;
    cudaMallocManaged(&p, sizeof(int));
    k<<<1, 1>>>(p);
    cudaDeviceSynchronize();
    printf("%d %d\n", *p, s.twice(1));
    return 0;
}
"#;
    write(dir.path(), "ok.cu", src);
    ok(cuprite().current_dir(dir.path()).args(["ok.cu", "-o", "okapp"]));
    assert_eq!(text(&ok(&mut Command::new(dir.path().join("okapp"))).stdout), "42 1\n");
}

/// Programs deep enough to overflow a recursive compiler's stack; g++ and nvcc take them.
#[test]
fn deep_programs_compile() {
    let dir = tempfile::tempdir().unwrap();
    let kernel = |body: &str| format!("#include <cstdio>\n__global__ void k(int *p) {{ int x = p[0];\n{body}\n}}\n");
    let main = "int main() { int *p; cudaMallocManaged(&p, 2 * sizeof(int)); p[0] = 7; k<<<1, 1>>>(p); cudaDeviceSynchronize(); printf(\"%d\\n\", p[1]); }\n";
    let sum = format!("p[1] = x{};", " + x".repeat(2999));
    let cond = format!("p[1] = {}-1;", (0..3000).map(|i| format!("x == {i} ? {i} : ")).collect::<String>());
    let elif = format!("if (x == 0) p[1] = 0;\n{}", (1..1000).map(|i| format!("else if (x == {i}) p[1] = {i} * 2;\n")).collect::<String>());
    for (name, body, expect) in [("sum", sum, "21000\n"), ("cond", cond, "7\n"), ("elif", elif, "14\n")] {
        write(dir.path(), &format!("{name}.cu"), &format!("{}{main}", kernel(&body)));
        // -G: device C at -O0, which the C compiler takes quickly even for 3,000 arms.
        ok(cuprite().current_dir(dir.path()).args(["-G", &format!("{name}.cu"), "-o", name]));
        assert_eq!(text(&ok(&mut Command::new(dir.path().join(name))).stdout), expect, "{name}");
    }
}

const RECURSE: &str = "template <int N> struct R { static constexpr int v = R<N - 1>::v + 1; };\ntemplate <> struct R<0> { static constexpr int v = 0; };\n";

#[test]
fn template_recursion_to_g_plus_plus_limit() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "t450.cu", &format!("{RECURSE}__global__ void k(int *p) {{ p[0] = R<450>::v; }}\nint main() {{}}\n"));
    ok(cuprite().current_dir(dir.path()).args(["-c", "t450.cu"]));
    write(dir.path(), "t1000.cu", &format!("{RECURSE}__global__ void k(int *p) {{ p[0] = R<1000>::v; }}\nint main() {{}}\n"));
    fails_with(cuprite().current_dir(dir.path()).args(["-c", "t1000.cu"]), &["t1000.cu:1:", "template instantiation depth exceeds maximum of 900"]);
    ok(cuprite().current_dir(dir.path()).args(["-ftemplate-depth=1100", "-c", "t1000.cu"]));
}
