//! The driver's behaviour as a command-line tool: nvcc's flags, `cuprite run`, multiple
//! translation units, diagnostics with locations, and independence from the build tree.

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

fn run_ok(cmd: &mut Command) -> Output {
    let out = cmd.output().expect("runs");
    assert!(out.status.success(), "command failed: {:?}\nstdout:\n{}\nstderr:\n{}", cmd, text(&out.stdout), text(&out.stderr));
    out
}

const HELLO: &str = r#"
#include <cstdio>
__global__ void hello(int base) { printf("thread %d says %d\n", threadIdx.x, base + threadIdx.x); }
int main(int argc, char **argv) {
    hello<<<1, 3>>>(argc * 10);
    cudaDeviceSynchronize();
    printf("args:");
    for (int i = 1; i < argc; ++i) printf(" %s", argv[i]);
    printf("\n");
    return argc == 3 ? 7 : 0;
}
"#;

#[test]
fn version_flag() {
    let out = run_ok(cuprite().arg("--version"));
    assert!(text(&out.stdout).contains("Cuprite"), "{}", text(&out.stdout));
    let out = run_ok(cuprite().arg("-V"));
    assert!(text(&out.stdout).contains("CUDA 13"));
}

#[test]
fn unknown_flag_is_an_error_as_in_nvcc() {
    let out = cuprite().args(["-frobnicate", "x.cu"]).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("cuprite fatal"), "{}", text(&out.stderr));
    assert!(text(&out.stderr).contains("Unknown option '-frobnicate'"), "{}", text(&out.stderr));
}

#[test]
fn gpu_only_flags_are_accepted() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "hello.cu", HELLO);
    let exe = dir.path().join("hello");
    run_ok(cuprite().args(["-arch=sm_80", "-lineinfo", "-maxrregcount=32", "-Xptxas", "-v", "--use_fast_math", "-O2", "-std=c++17"]).arg("-o").arg(&exe).arg(&src));
    let out = run_ok(Command::new(&exe).arg("x").current_dir(dir.path()));
    assert!(text(&out.stdout).contains("thread 2 says 22"), "{}", text(&out.stdout));
}

#[test]
fn run_passes_arguments_output_and_exit_code() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "hello.cu", HELLO);
    let out = cuprite().arg("run").arg(&src).args(["--", "a", "-b"]).output().unwrap();
    assert_eq!(out.status.code(), Some(7), "stderr: {}", text(&out.stderr));
    assert_eq!(text(&out.stdout), "thread 0 says 30\nthread 1 says 31\nthread 2 says 32\nargs: a -b\n");
}

#[test]
fn programs_do_not_depend_on_the_build_tree() {
    // Build from an unrelated working directory, move the program, run it elsewhere.
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "hello.cu", HELLO);
    run_ok(cuprite().current_dir(dir.path()).args(["-o", "built"]).arg(&src));
    let moved = dir.path().join("moved");
    std::fs::rename(dir.path().join("built"), &moved).unwrap();
    let out = run_ok(Command::new(&moved).current_dir("/").env_clear());
    assert!(text(&out.stdout).starts_with("thread 0 says 10\n"), "{}", text(&out.stdout));
}

#[test]
fn separate_compilation_with_c_and_cpp_inputs() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "scale.h", "void scale_on_device(float *host, int n, float k);\nextern \"C\" int c_helper(int);\n");
    let kernel = write(
        dir.path(),
        "scale.cu",
        r#"
#include "scale.h"
__global__ void scale(float *p, int n, float k) { int i = threadIdx.x; if (i < n) p[i] *= k; }
void scale_on_device(float *host, int n, float k) {
    float *d; cudaMalloc(&d, n * sizeof(float));
    cudaMemcpy(d, host, n * sizeof(float), cudaMemcpyHostToDevice);
    scale<<<1, 32>>>(d, n, k);
    cudaMemcpy(host, d, n * sizeof(float), cudaMemcpyDeviceToHost);
    cudaFree(d);
}
"#,
    );
    let main = write(
        dir.path(),
        "main.cpp",
        r#"
#include <cstdio>
#include <cuda_runtime.h>
#include "scale.h"
int main() {
    float v[4] = {1, 2, 3, 4};
    scale_on_device(v, 4, 2.5f);
    int count = 0; cudaGetDeviceCount(&count);
    printf("%g %g %g %g %d %d\n", v[0], v[1], v[2], v[3], c_helper(20), count);
    return 0;
}
"#,
    );
    let c = write(dir.path(), "helper.c", "int c_helper(int x) { return x + 1; }\n");
    let obj = dir.path().join("scale.o");
    run_ok(cuprite().current_dir(dir.path()).arg("-c").arg(&kernel).arg("-o").arg(&obj));
    assert!(obj.exists());
    let exe = dir.path().join("app");
    run_ok(cuprite().current_dir(dir.path()).arg("-o").arg(&exe).arg(&obj).arg(&main).arg(&c));
    let out = run_ok(&mut Command::new(&exe));
    assert_eq!(text(&out.stdout), "2.5 5 7.5 10 21 1\n");
}

#[test]
fn device_syntax_error_has_location_line_and_caret() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "bad.cu", "__global__ void k(int *p)\n{\n    p[0] = 1 +;\n}\nint main() { return 0; }\n");
    let out = cuprite().arg("-o").arg(dir.path().join("bad")).arg(&src).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("bad.cu:3:"), "{err}");
    assert!(err.contains("error:"), "{err}");
    assert!(err.contains("p[0] = 1 +;"), "{err}");
    assert!(err.contains('^'), "{err}");
}

#[test]
fn calling_a_host_function_from_a_kernel_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "host.cu", "int host_only(int x) { return x; }\n__global__ void k(int *p) { p[0] = host_only(1); }\nint main() { return 0; }\n");
    let out = cuprite().arg("-o").arg(dir.path().join("h")).arg(&src).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("host.cu:2:"), "{err}");
    assert!(err.contains("calling a __host__ function(\"host_only\") from a __global__ function(\"k\") is not allowed"), "{err}");
}

#[test]
fn host_compiler_errors_point_at_the_user_source() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "hosterr.cu", "__global__ void k() {}\n\nint main() {\n    k<<<1, 1>>>();\n    return undefined_name;\n}\n");
    let out = cuprite().arg("-o").arg(dir.path().join("x")).arg(&src).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("hosterr.cu:5:"), "{err}");
}

#[test]
fn arch_selects_cuda_arch_and_device_properties() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "arch.cu",
        r#"
#include <cstdio>
__global__ void k(int *out) {
#ifdef __CUDA_ARCH__
    *out = __CUDA_ARCH__;
#endif
}
int main() {
    int *d, v = 0; cudaMalloc(&d, sizeof(int));
    k<<<1, 1>>>(d);
    cudaMemcpy(&v, d, sizeof(int), cudaMemcpyDeviceToHost);
    cudaDeviceProp p; cudaGetDeviceProperties(&p, 0);
    printf("%d %d.%d\n", v, p.major, p.minor);
    return 0;
}
"#,
    );
    let out = run_ok(cuprite().arg("run").arg("-arch=sm_80").arg(&src));
    assert_eq!(text(&out.stdout), "800 8.0\n");
    // nvcc 13's default is sm_75 (tests/facts/arch.txt).
    let out = run_ok(cuprite().arg("run").arg(&src));
    assert_eq!(text(&out.stdout), "750 7.5\n");
}

#[test]
fn device_debug_keeps_line_directives() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "dbg.cu", "__global__ void k(int *p)\n{\n    p[threadIdx.x] = 1;\n}\nint main() { return 0; }\n");
    let keep = dir.path().join("keep");
    run_ok(cuprite().arg("-G").arg("--keep-dir").arg(&keep).arg("-o").arg(dir.path().join("dbg")).arg(&src));
    let c = std::fs::read_to_string(keep.join("dbg.cudafe.device.c")).unwrap();
    assert!(c.contains("#line 3 \"") && c.contains("dbg.cu\""), "no #line to the source in the generated C");
    // The printed IR is kept too.
    let ir = std::fs::read_to_string(keep.join("dbg.cuprite.ir")).unwrap();
    assert!(ir.contains("kernel @f0 \"k\" stub \"_Z1kPi\""), "{ir}");
}

#[test]
fn preprocess_and_dependencies() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "dep.h", "#define VALUE 42\n");
    let src = write(dir.path(), "dep.cu", "#include \"dep.h\"\nint f() { return VALUE; }\n");
    let out = run_ok(cuprite().current_dir(dir.path()).arg("-E").arg(&src));
    assert!(text(&out.stdout).contains("return 42;"));
    let out = run_ok(cuprite().current_dir(dir.path()).arg("-M").arg(&src));
    let deps = text(&out.stdout);
    assert!(deps.starts_with("dep.o:") && deps.contains("dep.h"), "{deps}");
}

#[test]
fn resource_limits_are_compile_errors_as_in_nvcc() {
    // The byte counts and limits are those nvcc 13 reports (tests/facts/limits.txt).
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "smem.cu", "__global__ void big_shared(float *out) {\n  __shared__ float s[12289];\n  s[threadIdx.x] = 1.0f;\n  __syncthreads();\n  out[threadIdx.x] = s[threadIdx.x + 1];\n}\nint main() { return 0; }\n");
    let out = cuprite().arg("-o").arg(dir.path().join("a")).arg(&src).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    let err = text(&out.stderr);
    assert!(err.contains("smem.cu:1:") && err.contains("entry function '_Z10big_sharedPf' uses too much shared data (0xc004 bytes, 0xc000 max)"), "{err}");

    let src = write(dir.path(), "cmem.cu", "__constant__ float table[16385];\n__global__ void use_table(float *out) { out[threadIdx.x] = table[threadIdx.x]; }\nint main() { return 0; }\n");
    let out = cuprite().arg("-o").arg(dir.path().join("b")).arg(&src).output().unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stderr).contains("uses too much global constant data (0x10004 bytes, 0x10000 max)"), "{}", text(&out.stderr));
}

#[test]
fn ptxas_verbose_prints_a_resource_report() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "res.cu", "__global__ void with_shared(float *a) {\n  __shared__ float s[256];\n  s[threadIdx.x] = a[threadIdx.x];\n  __syncthreads();\n  a[threadIdx.x] = s[255 - threadIdx.x];\n}\nint main() { return 0; }\n");
    for flags in [&["-Xptxas", "-v"][..], &["--resource-usage"][..], &["--ptxas-options=-v"][..]] {
        let out = run_ok(cuprite().args(flags).arg("-arch=sm_90").arg("-o").arg(dir.path().join("r")).arg(&src));
        let err = text(&out.stderr);
        assert!(err.contains("Compiling entry function '_Z11with_sharedPf' for 'sm_90'"), "{flags:?}: {err}");
        assert!(err.contains("Used 1 barriers, 1024 bytes smem"), "{flags:?}: {err}");
    }
}

#[test]
fn cuda_math_extensions_work_in_host_code_too() {
    // nvcc's headers give host code rsqrtf, erfinvf, sinpif …: helper_math-style
    // __host__ __device__ functions use them on both sides.
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "hm.cu",
        r#"
#include <cstdio>
__host__ __device__ inline float3 normalize3(float3 v) {
    float inv = rsqrtf(v.x * v.x + v.y * v.y + v.z * v.z);
    return make_float3(v.x * inv, v.y * inv, v.z * inv);
}
__global__ void k(float *out) { float3 n = normalize3(make_float3(3, 0, 4)); out[0] = n.x; out[1] = erfinvf(0.5f); out[2] = sinpif(0.5f); }
int main() {
    float *d, h[3]; cudaMalloc(&d, sizeof h);
    k<<<1, 1>>>(d); cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    float3 n = normalize3(make_float3(3, 0, 4));
    printf("%.4f %.4f %.4f | %.4f %.4f %.4f\n", h[0], h[1], h[2], n.x, erfinvf(0.5f), sinpif(0.5f));
    return 0;
}
"#,
    );
    let out = run_ok(cuprite().arg("run").arg(&src));
    assert_eq!(text(&out.stdout), "0.6000 0.4769 1.0000 | 0.6000 0.4769 1.0000\n");
}

#[test]
fn internal_linkage_kernels_and_variables() {
    // `static` and anonymous-namespace kernels and __device__ variables keep internal
    // linkage: two translation units may use the same names, as with nvcc.
    let dir = tempfile::tempdir().unwrap();
    let unit = |tag: i32| {
        format!(
            r#"
static __device__ int counter = {tag};
static __global__ void bump(int *out) {{ counter += 1; *out = counter; }}
static __global__ void never_launched(int *out) {{ *out = -1; }}
namespace {{
__device__ int scale = {tag} * 10;
__global__ void times(int *out) {{ *out *= scale; }}
}}
int run_{tag}() {{
    int *d, h = 0;
    cudaMalloc(&d, sizeof(int));
    int start = 100 * {tag};
    cudaMemcpyToSymbol(counter, &start, sizeof(int));
    bump<<<1, 1>>>(d);
    times<<<1, 1>>>(d);
    cudaMemcpy(&h, d, sizeof(int), cudaMemcpyDeviceToHost);
    cudaFree(d);
    return h;
}}
"#
        )
    };
    let a = write(dir.path(), "a.cu", &unit(1));
    let b = write(dir.path(), "b.cu", &unit(2));
    let main = write(dir.path(), "main.cpp", "#include <cstdio>\nint run_1();\nint run_2();\nint main() { int x = run_1(), y = run_2(); std::printf(\"%d %d\\n\", x, y); return 0; }\n");
    let exe = dir.path().join("app");
    run_ok(cuprite().arg("-o").arg(&exe).arg(&a).arg(&b).arg(&main));
    let out = run_ok(&mut Command::new(&exe));
    assert_eq!(text(&out.stdout), "1010 4020\n");
}

/// `-v` names the kernels that run their warps in lock step, and only those: kernels whose
/// lanes communicate through memory only across barriers keep their per-thread loops.
#[test]
fn verbose_names_kernels_that_run_warps_in_lock_step() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "ws.cu",
        r#"
__global__ void warp_sync(float *out) {
  __shared__ float s[64];
  unsigned t = threadIdx.x;
  s[t] = t;
  __syncthreads();
  if (t < 32) { volatile float *v = s; v[t] += v[t + 16]; v[t] += v[t + 8]; }
  if (t == 0) out[0] = s[0];
}
__device__ void tail(volatile int *s, unsigned t) { s[t] += s[t + 1]; }
__global__ void through_call(int *out) {
  __shared__ int s[64];
  s[threadIdx.x] = 1;
  __syncthreads();
  if (threadIdx.x < 32) tail(s, threadIdx.x);
  out[threadIdx.x] = s[threadIdx.x];
}
__global__ void reads_neighbour(int *out) {
  __shared__ int s[32];
  s[threadIdx.x] = threadIdx.x;
  out[threadIdx.x] = s[threadIdx.x ^ 1];
}
__global__ void tree(float *in, float *out) {
  __shared__ float s[256];
  unsigned t = threadIdx.x;
  s[t] = in[t];
  __syncthreads();
  for (unsigned k = 128; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
  if (t == 0) out[0] = s[0];
}
__global__ void tiles(const float *a, float *c, int n) {
  __shared__ float as[16][16], bs[16][16];
  int tx = threadIdx.x, ty = threadIdx.y;
  float sum = 0;
  for (int t = 0; t < n / 16; t++) {
    as[ty][tx] = a[ty * n + t * 16 + tx];
    bs[ty][tx] = a[(t * 16 + ty) * n + tx];
    __syncthreads();
    for (int k = 0; k < 16; k++) sum += as[ty][k] * bs[k][tx];
    __syncthreads();
  }
  c[ty * n + tx] = sum;
}
__global__ void own_element(int *out) {
  __shared__ int s[128];
  int t = threadIdx.x;
  s[t] = t * 2;
  s[t] += 1;
  volatile int private_copy = s[t];
  out[t] = private_copy;
}
int main() {}
"#,
    );
    let out = run_ok(cuprite().args(["-v", "-c", "-o"]).arg(dir.path().join("ws.o")).arg(&src));
    let err = text(&out.stderr);
    let stepped: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("runs its warps in lock step"))
        .filter_map(|l| l.split('\'').nth(1))
        .collect();
    assert_eq!(stepped, ["warp_sync", "through_call", "reads_neighbour"], "{err}");
}

/// Host declarations the device view cannot make sense of (standard-library types at
/// file scope) are the host compiler's business: the build goes on, and only a use from
/// device code is an error, which names the declaration's problem. Launch brackets may
/// be written with spaces, as nvcc accepts (`k << < g, b >> > (…)`).
#[test]
fn host_declarations_never_stop_the_build_and_spaced_launch_brackets() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "host.cu",
        r#"
#include <cstdio>
#include <map>
#include <string>
#include <vector>
typedef struct { float x; } Rec;
int count(std::vector<Rec> &records);
static std::vector<int> order;
std::map<std::string, int> table;
typedef std::vector<bool> Code;
struct Holder { std::vector<int> v; int n; };
__global__ void k(int *p, int m) { p[threadIdx.x] = threadIdx.x * m; }
int count(std::vector<Rec> &records) { return (int)records.size(); }
int main() {
  int *d;
  cudaMalloc(&d, 32 * sizeof(int));
  k << < 1, 32 >> > (d, 3);
  int h[32];
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  std::vector<Rec> r(4);
  order.push_back(h[5]);
  table["x"] = h[7];
  Holder hd{{1}, 2};
  printf("%d %d %d %d\n", order[0], table["x"], count(r), hd.n);
}
"#,
    );
    let exe = dir.path().join("host");
    run_ok(cuprite().arg("-o").arg(&exe).arg(&src));
    let out = run_ok(&mut Command::new(&exe));
    assert_eq!(text(&out.stdout), "15 21 4 2\n");

    let bad = write(
        dir.path(),
        "bad.cu",
        "#include <vector>\nstruct Holder { std::vector<int> v; int n; };\nstatic std::vector<int> order;\n__global__ void k(int *p) {\n  Holder h;\n  p[0] = order.size();\n}\n",
    );
    let out = cuprite().args(["-c", "-o"]).arg(dir.path().join("bad.o")).arg(&bad).output().unwrap();
    let err = text(&out.stderr);
    assert!(!out.status.success());
    assert!(err.contains("bad.cu:2:17: error: no template named 'std::vector'"), "{err}");
    assert!(err.contains("bad.cu:5:3: note: 'Holder' is used in device code here"), "{err}");
    assert!(err.contains("bad.cu:6:10: error: identifier \"order\" is undefined in device code"), "{err}");
}

/// The runtime library next to the driver (as `support_files::runtime_lib` finds it), for
/// links done by g++ directly.
fn runtime_library() -> PathBuf {
    let dir = Path::new(env!("CARGO_BIN_EXE_cuprite")).parent().unwrap().to_path_buf();
    let direct = dir.join("libcuprite_rt.a");
    if direct.exists() {
        return direct;
    }
    let mut found: Vec<PathBuf> = std::fs::read_dir(dir.join("deps"))
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("libcuprite_rt-") && p.extension().is_some_and(|e| e == "a"))
        .collect();
    found.sort_by_key(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    found.pop().expect("libcuprite_rt.a is built")
}

/// Separable compilation (tests/rdc: device functions, a device variable and a function
/// with __syncthreads() defined in another translation unit; static functions of the same
/// name in two units; a struct by value across units), built the three ways nvcc users
/// do: `-rdc=true` in one command, `-dc` then link, `-dc` then `-dlink` and a g++ link;
/// and a static library of device code found through `-L`/`-l`. The expected output is
/// what nvcc 13 -rdc=true prints on an H100.
#[test]
fn separable_compilation_three_ways() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/rdc");
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let expected = "block 0: 2150\nblock 1: 2154\nblock 2: 2139\n-1 83 167 23 107 191 47 131 \nhelpers: 2 101\nstatus: no error\n";
    let check = |exe: &Path| {
        let out = run_ok(&mut Command::new(exe));
        assert_eq!(text(&out.stdout), expected, "{}", exe.display());
    };
    let units = ["main", "kernels", "library"];
    run_ok(cuprite().arg("-rdc=true").arg("-o").arg(d.join("one")).args(units.map(|u| src.join(format!("{u}.cu")))));
    check(&d.join("one"));
    for u in units {
        run_ok(cuprite().arg("-dc").arg(src.join(format!("{u}.cu"))).arg("-o").arg(d.join(format!("{u}.o"))));
    }
    let objs = units.map(|u| d.join(format!("{u}.o")));
    run_ok(cuprite().arg("-o").arg(d.join("two")).args(&objs));
    check(&d.join("two"));
    run_ok(cuprite().arg("-dlink").args(&objs).arg("-o").arg(d.join("dlink.o")));
    run_ok(
        Command::new("c++")
            .arg("-o")
            .arg(d.join("three"))
            .args(&objs)
            .arg(d.join("dlink.o"))
            .arg(runtime_library())
            .args(["-lpthread", "-ldl", "-lm", "-lrt", "-lutil"]),
    );
    check(&d.join("three"));
    run_ok(Command::new("ar").arg("rcs").arg(d.join("libdev.a")).arg(&objs[2]));
    run_ok(cuprite().arg("-o").arg(d.join("four")).args(&objs[..2]).arg("-L").arg(d).arg("-ldev"));
    check(&d.join("four"));
    // `-lib -rdc=true`: the library nvcc would make, device code still relocatable.
    run_ok(cuprite().args(["-lib", "-rdc=true"]).arg(src.join("library.cu")).arg("-o").arg(d.join("libdevlib.a")));
    run_ok(cuprite().arg("-o").arg(d.join("six")).args(&objs[..2]).arg("-L").arg(d).arg("-ldevlib"));
    check(&d.join("six"));

    // Without the library: nvlink's kind of error, naming what is missing and where.
    let out = cuprite().arg("-o").arg(d.join("five")).args(&objs[..2]).output().unwrap();
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("undefined reference to device function 'block_sum' (_Z9block_sumPKi) in"), "{err}");
    // Without -rdc, an extern device function is a compile error, not a crash.
    let out = cuprite().arg("-c").arg(src.join("kernels.cu")).arg("-o").arg(d.join("k.o")).output().unwrap();
    assert!(!out.status.success());
    let err = text(&out.stderr);
    assert!(err.contains("device function 'block_sum' is declared but not defined in this translation unit"), "{err}");
    assert!(err.contains("compile with -rdc=true"), "{err}");
}

/// nvcc contracts `a*b + c` into one fused multiply-add by default, but not under `-G`
/// even with `-fmad=true` (tests/fmad/fmad_under_G.cu, values printed by nvcc 13 on an
/// H100 for each of these command lines).
#[test]
fn device_debug_does_not_contract_fma() {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/fmad/fmad_under_G.cu");
    let dir = tempfile::tempdir().unwrap();
    for (flags, want) in [
        (&[][..], "device a*b+c = 4.8834085464e-04 (fused)\n"),
        (&["-G"][..], "device a*b+c = 4.8828125000e-04 (separately rounded)\n"),
        (&["-G", "-fmad=true"][..], "device a*b+c = 4.8828125000e-04 (separately rounded)\n"),
        (&["-fmad=false"][..], "device a*b+c = 4.8828125000e-04 (separately rounded)\n"),
    ] {
        let exe = dir.path().join("fmad");
        run_ok(cuprite().args(flags).arg("-o").arg(&exe).arg(&src));
        let out = run_ok(&mut Command::new(&exe));
        assert_eq!(text(&out.stdout), want, "{flags:?}");
    }
}

/// Device printf format mismatches are warnings with a caret, as g++'s -Wformat gives
/// them; `-Werror all-warnings` makes them errors and `-w` silences them.
#[test]
fn device_printf_format_warnings() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "pf.cu", "#include <cstdio>\n__global__ void k(float f) { printf(\"%d\\n\", f); }\nint main() { return 0; }\n");
    let exe = dir.path().join("pf");
    let out = run_ok(cuprite().arg("-o").arg(&exe).arg(&src));
    let err = text(&out.stderr);
    assert!(err.contains("pf.cu:2:45: warning: format '%d' expects argument of type 'int', but argument 2 has type 'double' [-Wformat=]"), "{err}");
    let out = cuprite().args(["-Werror", "all-warnings", "-o"]).arg(&exe).arg(&src).output().unwrap();
    assert!(!out.status.success());
    assert!(text(&out.stderr).contains("pf.cu:2:45: error: format '%d'"), "{}", text(&out.stderr));
    let out = run_ok(cuprite().arg("-w").arg("-o").arg(&exe).arg(&src));
    assert!(!text(&out.stderr).contains("warning"), "{}", text(&out.stderr));
}

#[test]
fn default_stream_per_thread_makes_stream_zero_per_thread() {
    // Two host threads launch into stream 0: one kernel spins until the other's sets a
    // flag. With `--default-stream per-thread` the two are different streams and run at
    // once; the host gives up after 20 s (exit 3) rather than hang.
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "ptds.cu",
        r#"
#include <cstdio>
#include <cstdlib>
#include <chrono>
#include <thread>
__global__ void wait_for(volatile int *f) { while (*f == 0) { } }
__global__ void set_flag(volatile int *f) { *f = 1; }
int main() {
#ifdef CUDA_API_PER_THREAD_DEFAULT_STREAM
    printf("macro %d\n", CUDA_API_PER_THREAD_DEFAULT_STREAM);
#endif
    int *f; cudaMalloc(&f, sizeof(int)); cudaMemset(f, 0, sizeof(int));
    std::thread t([&] {
        wait_for<<<1, 1>>>(f);
        auto start = std::chrono::steady_clock::now();
        while (cudaStreamQuery(0) == cudaErrorNotReady)
            if (std::chrono::steady_clock::now() - start > std::chrono::seconds(20)) { printf("timeout\n"); fflush(stdout); _Exit(3); }
    });
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    set_flag<<<1, 1>>>(f);
    cudaStreamSynchronize(0);
    t.join();
    printf("%s\n", cudaGetErrorName(cudaDeviceSynchronize()));
    return 0;
}
"#,
    );
    let out = run_ok(cuprite().arg("run").args(["--default-stream", "per-thread"]).arg(&src));
    assert_eq!(text(&out.stdout), "macro 1\ncudaSuccess\n");
}

/// Separable compilation keeps function template specializations apart that take the
/// same parameters (`row<3>`, `row<2>`, …, the unrolled recursion of cuda-samples
/// convolutionTexture): they were once linked as one function that called itself forever.
#[test]
fn separable_compilation_keeps_template_specializations_apart() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let src = d.join("rows.cu");
    std::fs::write(
        &src,
        "#include <cstdio>\n\
         template <int i> __device__ float row(float x) { return x * i + row<i - 1>(x); }\n\
         template <> __device__ float row<-1>(float) { return 0; }\n\
         __global__ void k(float *o) { o[0] = row<3>(o[1]); }\n\
         int main() {\n\
           float *d; cudaMalloc(&d, 8); float h[2] = {0, 2};\n\
           cudaMemcpy(d, h, 8, cudaMemcpyHostToDevice); k<<<1, 1>>>(d);\n\
           cudaMemcpy(h, d, 8, cudaMemcpyDeviceToHost);\n\
           printf(\"%s %g\\n\", cudaGetErrorName(cudaDeviceSynchronize()), h[0]);\n\
         }\n",
    )
    .unwrap();
    run_ok(cuprite().arg("-rdc=true").arg("-o").arg(d.join("rows")).arg(&src));
    let out = run_ok(&mut Command::new(d.join("rows")));
    assert_eq!(text(&out.stdout), "cudaSuccess 12\n");
}

/// NVRTC programs may call assert() without including <assert.h>, as with NVIDIA's
/// NVRTC (cuda-samples simpleAssert_nvrtc); the driver API's texture attributes are the
/// runtime's (cuda-samples deviceQueryDrv).
#[test]
fn nvrtc_assert_without_header_and_driver_texture_attributes() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let src = d.join("nv.cpp");
    std::fs::write(
        &src,
        "#include <cstdio>\n#include <cuda.h>\n#include <cuda_runtime.h>\n#include <nvrtc.h>\n\
         int main() {\n\
           const char *k = \"extern \\\"C\\\" __global__ void k(int *p) { assert(p != 0); }\";\n\
           nvrtcProgram prog; nvrtcCreateProgram(&prog, k, \"k.cu\", 0, 0, 0);\n\
           nvrtcResult r = nvrtcCompileProgram(prog, 0, 0);\n\
           printf(\"%s\\n\", nvrtcGetErrorString(r));\n\
           cuInit(0); int a = 0, b = 0;\n\
           cuDeviceGetAttribute(&a, CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE2D_LAYERED_LAYERS, 0);\n\
           cudaDeviceGetAttribute(&b, cudaDevAttrMaxTexture2DLayeredLayers, 0);\n\
           printf(\"%d\\n\", a == b && a > 0);\n\
         }\n",
    )
    .unwrap();
    run_ok(cuprite().arg("-o").arg(d.join("nv")).arg(&src).args(["-lnvrtc", "-lcuda"]));
    let out = run_ok(&mut Command::new(d.join("nv")));
    assert_eq!(text(&out.stdout), "NVRTC_SUCCESS\n1\n");
}

/// NVRTC adds the directory of the program's source (its name as a path) to the include
/// path, and `-no-source-include` turns that off (cuda-samples' `*_nvrtc` programs find
/// their headers beside the kernel file that way).
#[test]
fn nvrtc_searches_the_source_directory_unless_told_not_to() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let kernels = d.join("kernels");
    std::fs::create_dir(&kernels).unwrap();
    std::fs::write(kernels.join("scale.h"), "#define SCALE 7\n").unwrap();
    let src = d.join("nv.cpp");
    std::fs::write(
        &src,
        format!(
            "#include <cstdio>\n#include <nvrtc.h>\n\
             static nvrtcResult build(const char *opt) {{\n\
               const char *k = \"#include \\\"scale.h\\\"\\nextern \\\"C\\\" __global__ void k(int *p) {{ *p = SCALE; }}\";\n\
               nvrtcProgram prog; nvrtcCreateProgram(&prog, k, \"{}/kernel.cu\", 0, 0, 0);\n\
               nvrtcResult r = nvrtcCompileProgram(prog, opt ? 1 : 0, &opt);\n\
               nvrtcDestroyProgram(&prog); return r;\n\
             }}\n\
             int main() {{ printf(\"%s %s\\n\", nvrtcGetErrorString(build(0)), nvrtcGetErrorString(build(\"-no-source-include\"))); }}\n",
            kernels.display()
        ),
    )
    .unwrap();
    run_ok(cuprite().arg("-o").arg(d.join("nv")).arg(&src).arg("-lnvrtc"));
    let out = run_ok(&mut Command::new(d.join("nv")));
    assert_eq!(text(&out.stdout), "NVRTC_SUCCESS NVRTC_ERROR_COMPILATION\n");
}

/// `cuModuleLoad` and `cuModuleLoadData` also take CUDA C++ source (a Cuprite extension,
/// ARCHITECTURE.md "Module images"): compiled by Cuprite's NVRTC, headers found beside
/// the file; without an NVRTC library in reach the load fails with
/// CUDA_ERROR_INVALID_IMAGE and says what to do.
#[test]
fn module_load_compiles_cuda_source() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("step.h"), "#define STEP 5\n").unwrap();
    std::fs::write(
        d.join("kern.cu"),
        "#include \"step.h\"\ntemplate <typename T> __device__ T twice(T x) { return 2 * x; }\n\
         extern \"C\" __global__ void fill(int *p, int n) { int i = threadIdx.x; if (i < n) p[i] = twice(i) + STEP; }\n",
    )
    .unwrap();
    let src = d.join("load.cpp");
    std::fs::write(
        &src,
        format!(
            "#include <cstdio>\n#include <cuda.h>\n\
             static const char *inline_src = \"extern \\\"C\\\" __global__ void neg(int *p) {{ p[threadIdx.x] = -p[threadIdx.x]; }}\";\n\
             int main() {{\n\
               cuInit(0); CUdevice dev; cuDeviceGet(&dev, 0); CUcontext ctx; cuDevicePrimaryCtxRetain(&ctx, dev); cuCtxSetCurrent(ctx);\n\
               CUmodule m1, m2; CUfunction fill, neg;\n\
               CUresult r1 = cuModuleLoad(&m1, \"{}/kern.cu\");\n\
               CUresult r2 = cuModuleLoadData(&m2, inline_src);\n\
               printf(\"load %d %d\\n\", r1, r2);\n\
               if (r1 || r2) return 1;\n\
               cuModuleGetFunction(&fill, m1, \"fill\"); cuModuleGetFunction(&neg, m2, \"neg\");\n\
               CUdeviceptr p; cuMemAlloc(&p, 4 * sizeof(int)); int n = 4;\n\
               void *a1[] = {{&p, &n}}; cuLaunchKernel(fill, 1, 1, 1, 4, 1, 1, 0, 0, a1, 0);\n\
               void *a2[] = {{&p}}; cuLaunchKernel(neg, 1, 1, 1, 4, 1, 1, 0, 0, a2, 0);\n\
               int h[4]; cuMemcpyDtoH(h, p, sizeof h);\n\
               printf(\"%d %d %d %d\\n\", h[0], h[1], h[2], h[3]);\n\
             }}\n",
            d.display()
        ),
    )
    .unwrap();
    run_ok(cuprite().arg("-o").arg(d.join("with")).arg(&src).args(["-lcuda", "-lnvrtc"]));
    let out = run_ok(&mut Command::new(d.join("with")));
    assert_eq!(text(&out.stdout), "load 0 0\n-5 -7 -9 -11\n");

    run_ok(cuprite().arg("-o").arg(d.join("without")).arg(&src).arg("-lcuda"));
    let out = Command::new(d.join("without")).env_remove("LD_LIBRARY_PATH").output().unwrap();
    assert_eq!(text(&out.stdout), "load 200 200\n");
    assert!(text(&out.stderr).contains("link the program with -lnvrtc"), "{}", text(&out.stderr));
}

/// Builds and runs one of `tests/pending-capture/`'s programs (whose GPU output Cuprite
/// does not match yet in every line) and returns its stdout.
fn run_pending(name: &str, flags: &[&str]) -> String {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../tests/pending-capture").join(name);
    let exe = dir.path().join("prog");
    run_ok(cuprite().arg("-arch=sm_90").args(flags).arg(&src).arg("-o").arg(&exe));
    text(&run_ok(&mut Command::new(&exe)).stdout)
}

fn has_line(out: &str, line: &str) {
    assert!(out.lines().any(|l| l == line), "missing line {line:?} in:\n{out}");
}

#[test]
fn mipmapped_arrays_and_level_selection() {
    let out = run_pending("mipmap_textures.cu", &[]);
    has_line(&out, "2D 16x8 5: [0 16x8x0 f0] [1 8x4x0 f0] [2 4x2x0 f0] [3 2x1x0 f0] [4 1x1x0 f0] [5 cudaErrorInvalidValue]");
    has_line(&out, "3D 8x4x2 4: [0 8x4x2 f0] [1 4x2x1 f0] [2 2x1x1 f0] [3 1x1x1 f0] [4 cudaErrorInvalidValue]");
    has_line(&out, "layered 8x8x3 4: [0 8x8x3 f1] [1 4x4x3 f1] [2 2x2x3 f1] [3 1x1x3 f1] [4 cudaErrorInvalidValue]");
    has_line(&out, "surface level 1: 1000 1001 1002 1003 1010 1011 1012 1013 1020 1021 1022 1023 1030 1031 1032 1033");
    has_line(&out, "resource desc: type 1 same 1");
    // (The parts equal to the H100 bit for bit are conf/mipmap_textures; what still differs:
    // tests/pending-capture/README.md.)
    // The blend weight truncates to 8 bits, as on the H100: level 0.3 blends with 76/256.
    assert!(out.contains(" 0.3:0.296875 "), "{out}");
    assert!(!out.contains("run: "), "{out}");
}

const SEVERAL_DEVICES: &str = r#"
#include <cstdio>
#include <thread>
#include <cuda.h>
#define E(x) printf("%s %s\n", #x, cudaGetErrorName(x))
__global__ void inc(int *p) { p[threadIdx.x] += 1; }
int main() {
    int n = 0, d = -1;
    E(cudaGetDeviceCount(&n));
    printf("count %d\n", n);
    E(cudaSetDevice(2));
    std::thread([] { int d = -1; cudaGetDevice(&d); printf("other thread %d\n", d); }).join();
    cudaGetDevice(&d);
    printf("current %d\n", d);
    int can = -1;
    E(cudaDeviceCanAccessPeer(&can, 2, 0));
    printf("can %d\n", can);
    E(cudaDeviceEnablePeerAccess(0, 0));
    E(cudaDeviceEnablePeerAccess(0, 0));
    E(cudaDeviceDisablePeerAccess(1));
    E(cudaDeviceDisablePeerAccess(0));
    int *a, *b;
    cudaSetDevice(0);
    cudaMalloc(&a, 64);
    cudaMemset(a, 0, 64);
    cudaSetDevice(1);
    cudaMalloc(&b, 64);
    inc<<<1, 16>>>(a);
    E(cudaMemcpyPeer(b, 1, a, 0, 64));
    int h[16];
    cudaMemcpy(h, b, 64, cudaMemcpyDeviceToHost);
    printf("peer copy %d %d\n", h[0], h[15]);
    CUdevice dev; CUcontext c, cur;
    cuDeviceGet(&dev, 2);
    cuDevicePrimaryCtxRetain(&c, dev);
    cuCtxSetCurrent(c);
    cudaGetDevice(&d);
    CUdevice cd = -1;
    cuCtxGetDevice(&cd);
    printf("after cuCtxSetCurrent: runtime %d, context %d\n", d, cd);
    cudaSetDevice(1);
    cuCtxGetCurrent(&cur);
    cuCtxGetDevice(&cd);
    printf("after cudaSetDevice(1): context %d, same as before %d\n", cd, cur == c);
    E(cudaSetDevice(3));
    return 0;
}
"#;

#[test]
fn several_devices_from_the_environment() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "devices.cu", SEVERAL_DEVICES);
    let exe = dir.path().join("devices");
    run_ok(cuprite().arg(&src).arg("-lcuda").arg("-o").arg(&exe));
    let out = text(&run_ok(Command::new(&exe).env("CUPRITE_DEVICE_COUNT", "3")).stdout);
    let want = "cudaGetDeviceCount(&n) cudaSuccess\ncount 3\ncudaSetDevice(2) cudaSuccess\nother thread 0\ncurrent 2\n\
cudaDeviceCanAccessPeer(&can, 2, 0) cudaSuccess\ncan 1\ncudaDeviceEnablePeerAccess(0, 0) cudaSuccess\n\
cudaDeviceEnablePeerAccess(0, 0) cudaErrorPeerAccessAlreadyEnabled\ncudaDeviceDisablePeerAccess(1) cudaErrorPeerAccessNotEnabled\n\
cudaDeviceDisablePeerAccess(0) cudaSuccess\ncudaMemcpyPeer(b, 1, a, 0, 64) cudaSuccess\npeer copy 1 1\n\
after cuCtxSetCurrent: runtime 2, context 2\nafter cudaSetDevice(1): context 1, same as before 0\ncudaSetDevice(3) cudaErrorInvalidDevice\n";
    assert_eq!(out, want);
    // CUDA_VISIBLE_DEVICES picks and orders them; an invalid entry ends the list.
    let out = text(&run_ok(Command::new(&exe).env("CUPRITE_DEVICE_COUNT", "4").env("CUDA_VISIBLE_DEVICES", "3,1,9,0")).stdout);
    assert!(out.starts_with("cudaGetDeviceCount(&n) cudaSuccess\ncount 2\n"), "{out}");
}

/// The driver API's texture and surface references, as the CUDA 2.x–4.x guides describe
/// them: `cuModuleGetTexRef` on a module's `texture<>` variable, bound to an array, linear
/// memory (with the alignment offset) and set up in any order; `cuModuleGetSurfRef` and
/// `cuSurfRefSetArray`. (CUDA 13 compiles no references, so there is no GPU output to
/// compare with; the values follow from the texels: nearest, half-way linear, clamped,
/// bytes read as normalized floats.)
const DRIVER_REFS_MODULE: &str = r#"
texture<float, 2, cudaReadModeElementType> img;
texture<float, 1, cudaReadModeElementType> line;
texture<unsigned char, 1, cudaReadModeNormalizedFloat> bytes;
surface<void, 2> out2d;
extern "C" __global__ void sample(float *o, float dx) {
    int x = threadIdx.x, y = blockIdx.x;
    o[y * 4 + x] = tex2D(img, x + dx, y + 0.5f);
}
extern "C" __global__ void fetch(float *o) {
    int i = threadIdx.x;
    o[i] = tex1Dfetch(line, i) + tex1Dfetch(bytes, i);
}
extern "C" __global__ void write(int v) {
    int x = threadIdx.x, y = blockIdx.x;
    surf2Dwrite(v + 10 * y + x, out2d, x * 4, y);
}
"#;

const DRIVER_REFS_MAIN: &str = r#"
#include <cstdio>
#include <cuda.h>
#define CK(x) do { CUresult r_ = (x); if (r_) { printf("%s -> %d\n", #x, r_); return 1; } } while (0)
int main() {
    CK(cuInit(0)); CUdevice dev; CK(cuDeviceGet(&dev, 0)); CUcontext ctx; CK(cuDevicePrimaryCtxRetain(&ctx, dev)); CK(cuCtxSetCurrent(ctx));
    CUmodule m; CK(cuModuleLoad(&m, "refs.cu"));
    CUfunction sample, fetch, write;
    CK(cuModuleGetFunction(&sample, m, "sample")); CK(cuModuleGetFunction(&fetch, m, "fetch")); CK(cuModuleGetFunction(&write, m, "write"));
    CUtexref img, line, bytes, again; CUsurfref out2d;
    CK(cuModuleGetTexRef(&img, m, "img")); CK(cuModuleGetTexRef(&again, m, "img"));
    CK(cuModuleGetTexRef(&line, m, "line")); CK(cuModuleGetTexRef(&bytes, m, "bytes"));
    CK(cuModuleGetSurfRef(&out2d, m, "out2d"));
    printf("same handle %d, missing %d\n", img == again, (int)cuModuleGetTexRef(&again, m, "nope"));
    // A 4x2 float array: value = 10*y + x.
    CUDA_ARRAY_DESCRIPTOR ad = {4, 2, CU_AD_FORMAT_FLOAT, 1};
    CUarray arr; CK(cuArrayCreate(&arr, &ad));
    float h[8]; for (int i = 0; i < 8; i++) h[i] = 10 * (i / 4) + i % 4;
    CUDA_MEMCPY2D c = {}; c.srcMemoryType = CU_MEMORYTYPE_HOST; c.srcHost = h; c.srcPitch = 16;
    c.dstMemoryType = CU_MEMORYTYPE_ARRAY; c.dstArray = arr; c.WidthInBytes = 16; c.Height = 2;
    CK(cuMemcpy2D(&c));
    // Bound first, set up after (the order of the 2008 guides' samples).
    CK(cuTexRefSetArray(img, arr, CU_TRSA_OVERRIDE_FORMAT));
    CK(cuTexRefSetAddressMode(img, 0, CU_TR_ADDRESS_MODE_CLAMP)); CK(cuTexRefSetAddressMode(img, 1, CU_TR_ADDRESS_MODE_CLAMP));
    CK(cuTexRefSetFilterMode(img, CU_TR_FILTER_MODE_POINT)); CK(cuTexRefSetFlags(img, 0)); CK(cuTexRefSetFormat(img, CU_AD_FORMAT_FLOAT, 1));
    CUdeviceptr o; CK(cuMemAlloc(&o, 8 * sizeof(float)));
    float res[8];
    float dx = 0.5f; void *a1[] = {&o, &dx};
    CK(cuLaunchKernel(sample, 2, 1, 1, 4, 1, 1, 0, 0, a1, 0)); CK(cuMemcpyDtoH(res, o, sizeof res));
    printf("point:"); for (float v : res) printf(" %g", v); printf("\n");
    CK(cuTexRefSetFilterMode(img, CU_TR_FILTER_MODE_LINEAR)); dx = 1.0f;
    CK(cuLaunchKernel(sample, 2, 1, 1, 4, 1, 1, 0, 0, a1, 0)); CK(cuMemcpyDtoH(res, o, sizeof res));
    printf("linear:"); for (float v : res) printf(" %g", v); printf("\n");
    CUfilter_mode fm; unsigned fl; CUarray_format f; int n; CUaddress_mode am;
    CK(cuTexRefGetFilterMode(&fm, img)); CK(cuTexRefGetFlags(&fl, img)); CK(cuTexRefGetFormat(&f, &n, img)); CK(cuTexRefGetAddressMode(&am, img, 1));
    printf("get: filter %d flags %u format %d x%d mode %d\n", fm, fl, f, n, am);
    // Linear memory: 4 floats at an offset, and 4 bytes read as normalized floats.
    CUdeviceptr lin; CK(cuMemAlloc(&lin, 256 + 4 * sizeof(float)));
    float lv[4] = {1, 2, 3, 4}; CK(cuMemcpyHtoD(lin, lv, sizeof lv));
    size_t off = 7; CK(cuTexRefSetAddress(&off, line, lin, sizeof lv)); CK(cuTexRefSetFormat(line, CU_AD_FORMAT_FLOAT, 1));
    CUdeviceptr b; CK(cuMemAlloc(&b, 4)); unsigned char bv[4] = {0, 51, 255, 128}; CK(cuMemcpyHtoD(b, bv, 4));
    CK(cuTexRefSetFormat(bytes, CU_AD_FORMAT_UNSIGNED_INT8, 1)); CK(cuTexRefSetAddress(&off, bytes, b, 4));
    void *a2[] = {&o};
    CK(cuLaunchKernel(fetch, 1, 1, 1, 4, 1, 1, 0, 0, a2, 0)); CK(cuMemcpyDtoH(res, o, 4 * sizeof(float)));
    printf("fetch (offset %zu):", off); for (int i = 0; i < 4; i++) printf(" %g", res[i]); printf("\n");
    // Surface reference over a 4x2 int array made for surface writes.
    CUDA_ARRAY3D_DESCRIPTOR sd = {4, 2, 0, CU_AD_FORMAT_SIGNED_INT32, 1, CUDA_ARRAY3D_SURFACE_LDST};
    CUarray sa; CK(cuArray3DCreate(&sa, &sd)); CK(cuSurfRefSetArray(out2d, sa, 0));
    int v = 100; void *a3[] = {&v};
    CK(cuLaunchKernel(write, 2, 1, 1, 4, 1, 1, 0, 0, a3, 0));
    int si[8]; CUDA_MEMCPY2D d = {}; d.srcMemoryType = CU_MEMORYTYPE_ARRAY; d.srcArray = sa; d.dstMemoryType = CU_MEMORYTYPE_HOST; d.dstHost = si; d.dstPitch = 16; d.WidthInBytes = 16; d.Height = 2;
    CK(cuMemcpy2D(&d));
    printf("surface:"); for (int x : si) printf(" %d", x); printf("\n");
    printf("bad handle %d\n", (int)cuTexRefSetFilterMode((CUtexref)&v, CU_TR_FILTER_MODE_POINT));
    return 0;
}
"#;

#[test]
fn driver_texture_and_surface_references() {
    let dir = tempfile::tempdir().unwrap();
    write(dir.path(), "refs.cu", DRIVER_REFS_MODULE);
    let src = write(dir.path(), "main.cpp", DRIVER_REFS_MAIN);
    let exe = dir.path().join("refs");
    run_ok(cuprite().arg(&src).args(["-lcuda", "-lnvrtc", "-o"]).arg(&exe));
    let out = text(&run_ok(Command::new(&exe).current_dir(dir.path())).stdout);
    assert_eq!(
        out,
        "same handle 1, missing 500\npoint: 0 1 2 3 10 11 12 13\nlinear: 0.5 1.5 2.5 3 10.5 11.5 12.5 13\n\
get: filter 1 flags 0 format 32 x1 mode 1\nfetch (offset 0): 1 2.2 4 4.50196\nsurface: 100 101 102 103 110 111 112 113\nbad handle 400\n"
    );
}

/// Entry points of the CUDA 2.x–4.x driver API that CUDA 13's libcuda still exports:
/// `cuDeviceGetProperties` (the same figures as the attributes), `cuCtxAttach`/`Detach`
/// (a created context is destroyed when the last attach is detached), `cuMemcpyPeer`
/// between contexts, `cuParamSetTexRef` with a reference from `cuTexRefCreate`, the
/// shared-memory configuration, and the graphics calls (no resource can exist).
const DRIVER_LEGACY: &str = r#"
#include <cstdio>
#include <cuda.h>
int main() {
    cuInit(0); CUdevice dev; cuDeviceGet(&dev, 0);
    CUdevprop p; int tpb, warp, align;
    printf("props %d\n", (int)cuDeviceGetProperties(&p, dev));
    cuDeviceGetAttribute(&tpb, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, dev);
    cuDeviceGetAttribute(&warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, dev);
    cuDeviceGetAttribute(&align, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, dev);
    printf("same %d %d %d\n", p.maxThreadsPerBlock == tpb, p.SIMDWidth == warp, p.textureAlign == align);
    CUcontext c, a; cuCtxCreate(&c, NULL, 0, dev);
    int r1 = cuCtxAttach(&a, 0); printf("attach %d same %d\n", r1, a == c);
    int d1 = cuCtxDetach(c); int d2 = cuCtxDetach(c); int d3 = cuCtxDetach(c);
    printf("detach %d %d again %d\n", d1, d2, d3);
    CUcontext pc; cuDevicePrimaryCtxRetain(&pc, dev); cuCtxSetCurrent(pc);
    CUdeviceptr x, y; cuMemAlloc(&x, 16); cuMemAlloc(&y, 16);
    int h[4] = {1, 2, 3, 4}, g[4] = {0};
    cuMemcpyHtoD(x, h, 16);
    int p1 = cuMemcpyPeer(y, pc, x, pc, 16); int p2 = cuMemcpyPeer(y, (CUcontext)&h, x, pc, 16);
    printf("peer %d bad ctx %d\n", p1, p2);
    cuMemcpyDtoH(g, y, 16); printf("copied %d %d %d %d\n", g[0], g[1], g[2], g[3]);
    CUtexref t; printf("texref %d\n", (int)cuTexRefCreate(&t));
    CUmodule m; CUfunction f;
    cuModuleLoadData(&m, "extern \"C\" __global__ void k() {}");
    cuModuleGetFunction(&f, m, "k");
    int t1 = cuParamSetTexRef(f, CU_PARAM_TR_DEFAULT, t); int t2 = cuParamSetTexRef(f, 0, t);
    printf("param texref %d bad unit %d\n", t1, t2);
    int x1 = cuTexRefDestroy(t); int x2 = cuTexRefDestroy(t);
    printf("destroy %d again %d\n", x1, x2);
    CUsharedconfig cfg; int c1 = cuCtxSetSharedMemConfig(CU_SHARED_MEM_CONFIG_FOUR_BYTE_BANK_SIZE); int c2 = cuCtxGetSharedMemConfig(&cfg);
    printf("config %d %d %d\n", c1, c2, (int)cfg);
    CUgraphicsResource r = (CUgraphicsResource)&h;
    int g1 = cuGraphicsMapResources(1, &r, 0); int g2 = cuGraphicsUnregisterResource(r);
    printf("graphics %d %d\n", g1, g2);
    int q1 = cuProfilerStart(); int q2 = cuProfilerStop();
    printf("profiler %d %d\n", q1, q2);
    return 0;
}
"#;

#[test]
fn driver_entry_points_of_older_cuda() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "legacy.cpp", DRIVER_LEGACY);
    let exe = dir.path().join("legacy");
    run_ok(cuprite().arg(&src).args(["-lcuda", "-lnvrtc", "-o"]).arg(&exe));
    let out = text(&run_ok(&mut Command::new(&exe)).stdout);
    assert_eq!(
        out,
        "props 0\nsame 1 1 1\nattach 0 same 1\ndetach 0 0 again 709\npeer 0 bad ctx 201\ncopied 1 2 3 4\ntexref 0\n\
param texref 0 bad unit 1\ndestroy 0 again 400\nconfig 0 0 1\ngraphics 400 400\nprofiler 0 0\n"
    );
}

/// `cudaDeviceGetGraphMemAttribute`: the memory graph allocation nodes hold (each node
/// its own, from its creation until its last graph goes: the CPU device maps no physical
/// memory later and shares none between graphs, so the figures are a GPU's upper bound),
/// the high-water marks, and resetting them (only to 0).
const GRAPH_MEM_ATTRIBUTES: &str = r#"
#include <cstdio>
static unsigned long long attr(cudaGraphMemAttributeType a) {
    unsigned long long v = 12345; cudaDeviceGetGraphMemAttribute(0, a, &v); return v;
}
static void show(const char *when) {
    printf("%s: used %llu/%llu reserved %llu/%llu\n", when, attr(cudaGraphMemAttrUsedMemCurrent), attr(cudaGraphMemAttrUsedMemHigh),
           attr(cudaGraphMemAttrReservedMemCurrent), attr(cudaGraphMemAttrReservedMemHigh));
}
int main() {
    show("start");
    cudaGraph_t g; cudaGraphCreate(&g, 0);
    cudaMemAllocNodeParams p = {};
    p.poolProps.allocType = cudaMemAllocationTypePinned;
    p.poolProps.location.type = cudaMemLocationTypeDevice;
    p.poolProps.location.id = 0;
    p.bytesize = 1 << 20;
    cudaGraphNode_t a, f;
    cudaGraphAddMemAllocNode(&a, g, NULL, 0, &p);
    cudaGraphAddMemFreeNode(&f, g, &a, 1, p.dptr);
    show("node");
    cudaGraphExec_t e; cudaGraphInstantiate(&e, g, NULL, NULL, 0);
    cudaGraphLaunch(e, 0); cudaDeviceSynchronize();
    show("launched");
    cudaGraphExecDestroy(e); cudaGraphDestroy(g);
    show("destroyed");
    unsigned long long zero = 0, one = 1;
    int r1 = cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemHigh, &zero);
    int r2 = cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrReservedMemHigh, &one);
    int r3 = cudaDeviceSetGraphMemAttribute(0, cudaGraphMemAttrUsedMemCurrent, &zero);
    int r4 = cudaDeviceGetGraphMemAttribute(0, (cudaGraphMemAttributeType)7, &zero);
    int r5 = cudaDeviceGetGraphMemAttribute(3, cudaGraphMemAttrUsedMemCurrent, &zero);
    printf("set %d %d %d get %d %d\n", r1, r2, r3, r4, r5);
    show("reset");
    printf("trim %d\n", (int)cudaDeviceGraphMemTrim(0));
    return 0;
}
"#;

#[test]
fn graph_memory_attributes() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "gm.cu", GRAPH_MEM_ATTRIBUTES);
    let exe = dir.path().join("gm");
    run_ok(cuprite().arg(&src).arg("-o").arg(&exe));
    let out = text(&run_ok(&mut Command::new(&exe)).stdout);
    assert_eq!(
        out,
        "start: used 0/0 reserved 0/0\nnode: used 1048576/1048576 reserved 1048576/1048576\n\
launched: used 1048576/1048576 reserved 1048576/1048576\ndestroyed: used 0/1048576 reserved 0/1048576\n\
set 0 1 1 get 1 101\nreset: used 0/0 reserved 0/1048576\ntrim 0\n"
    );
}

/// The JIT linker (`cuLink*`, cuda-samples ptxjit): one input (here `-ptx` output, and
/// CUDA C++ source) links into an image `cuModuleLoadData` takes; a bad input fails at
/// `cuLinkAddData` with the reason in the error log; two device-code inputs are refused
/// at completion (linking across inputs is not supported yet).
const DRIVER_LINK: &str = r#"
#include <cstdio>
#include <cstring>
#include <cuda.h>
static char *slurp(const char *path, size_t *n) {
    FILE *f = fopen(path, "rb"); fseek(f, 0, SEEK_END); *n = ftell(f); fseek(f, 0, SEEK_SET);
    char *b = new char[*n + 1]; fread(b, 1, *n, f); b[*n] = 0; fclose(f); return b;
}
int main() {
    cuInit(0); CUdevice d; cuDeviceGet(&d, 0); CUcontext c; cuDevicePrimaryCtxRetain(&c, d); cuCtxSetCurrent(c);
    char err[512] = "", info[512] = ""; float ms = -1;
    CUjit_option o[5] = {CU_JIT_WALL_TIME, CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *v[5] = {&ms, info, (void *)512, err, (void *)512};
    CUlinkState st; printf("create %d\n", (int)cuLinkCreate(5, o, v, &st));
    size_t n; char *ptx = slurp("k.ptx", &n);
    printf("add %d\n", (int)cuLinkAddData(st, CU_JIT_INPUT_PTX, ptx, n + 1, "k.ptx", 0, 0, 0));
    void *img; size_t sz;
    int c1 = cuLinkComplete(st, &img, &sz);
    printf("complete %d time %d info %d\n", c1, ms >= 0, strstr(info, "k.ptx") != 0);
    CUmodule m; CUfunction f; printf("load %d\n", (int)cuModuleLoadData(&m, img));
    cuModuleGetFunction(&f, m, "twice");
    CUdeviceptr p; cuMemAlloc(&p, 4 * sizeof(int)); int h[4] = {1, 2, 3, 4}; cuMemcpyHtoD(p, h, sizeof h);
    void *a[] = {&p}; cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, 0, a, 0); cuMemcpyDtoH(h, p, sizeof h);
    printf("%d %d %d %d\n", h[0], h[1], h[2], h[3]);
    printf("destroy %d\n", (int)cuLinkDestroy(st));
    CUlinkState s2; cuLinkCreate(5, o, v, &s2);
    const char *bad = "this is neither PTX nor an image";
    int b1 = cuLinkAddData(s2, CU_JIT_INPUT_PTX, (void *)bad, strlen(bad) + 1, "bad", 0, 0, 0);
    printf("bad %d log %d\n", b1, strstr(err, "bad") != 0);
    const char *src = "extern \"C\" __global__ void one(int *p) { *p = 1; }";
    int a1 = cuLinkAddData(s2, CU_JIT_INPUT_PTX, ptx, n + 1, "k.ptx", 0, 0, 0);
    int a2 = cuLinkAddData(s2, CU_JIT_INPUT_PTX, (void *)src, strlen(src) + 1, "one.cu", 0, 0, 0);
    int r = cuLinkComplete(s2, &img, &sz);
    printf("two %d %d -> %d log %d\n", a1, a2, r, strstr(err, "not supported") != 0);
    cuLinkDestroy(s2);
    printf("destroyed again %d\n", (int)cuLinkDestroy(s2));
    return 0;
}
"#;

#[test]
fn driver_jit_linker() {
    let dir = tempfile::tempdir().unwrap();
    let k = write(dir.path(), "k.cu", "extern \"C\" __global__ void twice(int *p) { p[threadIdx.x] *= 2; }\n");
    run_ok(cuprite().current_dir(dir.path()).args(["-ptx", "-o", "k.ptx"]).arg(&k));
    let src = write(dir.path(), "link.cpp", DRIVER_LINK);
    let exe = dir.path().join("link");
    run_ok(cuprite().arg(&src).args(["-lcuda", "-lnvrtc", "-o"]).arg(&exe));
    let out = text(&run_ok(Command::new(&exe).current_dir(dir.path())).stdout);
    assert_eq!(
        out,
        "create 0\nadd 0\ncomplete 0 time 1 info 1\nload 0\n2 4 6 8\ndestroy 0\nbad 200 log 1\ntwo 0 0 -> 801 log 1\ndestroyed again 400\n"
    );
}

/// Device attribute numbers are CUDA 13's (checked against its headers on an H100: the
/// persisting-L2 and access-policy attributes are 108 and 109, as in the driver API).
#[test]
fn device_attribute_numbers_match_cuda() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "attrs.cu",
        "#include <cstdio>\n#include <cuda.h>\nint main() {\n\
           cudaDeviceProp p; cudaGetDeviceProperties(&p, 0); int a = -1, b = -1, c = -1, d = -1;\n\
           cudaDeviceGetAttribute(&a, (cudaDeviceAttr)108, 0); cudaDeviceGetAttribute(&b, (cudaDeviceAttr)109, 0);\n\
           cuInit(0); cuDeviceGetAttribute(&c, (CUdevice_attribute)108, 0); cuDeviceGetAttribute(&d, (CUdevice_attribute)109, 0);\n\
           printf(\"%d %d %d %d %d\\n\", (int)cudaDevAttrMaxPersistingL2CacheSize, a == p.persistingL2CacheMaxSize, b == p.accessPolicyMaxWindowSize, c == a, d == b);\n\
         }\n",
    );
    let exe = dir.path().join("attrs");
    run_ok(cuprite().arg("-arch=sm_90").arg(&src).args(["-lcuda", "-o"]).arg(&exe));
    assert_eq!(text(&run_ok(&mut Command::new(&exe)).stdout), "108 1 1 1 1\n");
}

/// Virtual memory management on the host's own virtual memory: a reserved range, a
/// physical allocation mapped into it, made accessible, used by copies and a kernel;
/// a POSIX file descriptor exported from it and imported by another process maps the
/// same pages; misuse gets CUDA_ERROR_INVALID_VALUE.
const DRIVER_VMM: &str = r#"
#include <cstdio>
#include <unistd.h>
#include <sys/wait.h>
#include <cuda.h>
int main() {
    cuInit(0); CUdevice dev; cuDeviceGet(&dev, 0);
    int vmm = -1, fd_ok = -1, comp = -1;
    cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, dev);
    cuDeviceGetAttribute(&fd_ok, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, dev);
    cuDeviceGetAttribute(&comp, CU_DEVICE_ATTRIBUTE_GENERIC_COMPRESSION_SUPPORTED, dev);
    printf("attributes %d %d %d\n", vmm, fd_ok, comp);
    CUmemAllocationProp prop = {};
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED; prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE; prop.location.id = 0;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t g = 0; cuMemGetAllocationGranularity(&g, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    printf("granularity %zu\n", g);
    CUmemGenericAllocationHandle h;
    int bad = cuMemCreate(&h, g + 1, &prop, 0);
    int ok = cuMemCreate(&h, 2 * g, &prop, 0);
    printf("create odd %d whole %d\n", bad, ok);
    CUdeviceptr va; printf("reserve %d aligned %d\n", (int)cuMemAddressReserve(&va, 4 * g, 0, 0, 0), (int)(va % g == 0));
    int m1 = cuMemMap(va + g, 2 * g, 0, h, 0);
    int m2 = cuMemMap(va, 2 * g, 0, h, 0);
    printf("map %d overlap %d\n", m1, m2);
    CUcontext c; cuDevicePrimaryCtxRetain(&c, dev); cuCtxSetCurrent(c);
    int before[4] = {1, 2, 3, 4};
    int early = cuMemcpyHtoD(va + g, before, sizeof before);
    CUmemAccessDesc acc = {}; acc.location = prop.location; acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    int sa = cuMemSetAccess(va + g, 2 * g, &acc, 1);
    int cp = cuMemcpyHtoD(va + g, before, sizeof before);
    printf("copy before access %d, access %d, copy %d\n", early, sa, cp);
    CUmodule m; CUfunction f;
    cuModuleLoadData(&m, "extern \"C\" __global__ void add(int *p) { p[threadIdx.x] += 10; }");
    cuModuleGetFunction(&f, m, "add");
    CUdeviceptr p = va + g; void *args[] = {&p};
    printf("launch %d\n", (int)cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, 0, args, 0));
    int after[4]; cuMemcpyDtoH(after, va + g, sizeof after);
    printf("after %d %d %d %d\n", after[0], after[1], after[2], after[3]);
    int fd = -1; printf("export %d\n", (int)cuMemExportToShareableHandle(&fd, h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        CUmemGenericAllocationHandle h2; CUdeviceptr v2;
        int r1 = cuMemImportFromShareableHandle(&h2, (void *)(long)fd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
        int r2 = cuMemAddressReserve(&v2, 2 * g, 0, 0, 0);
        int r3 = cuMemMap(v2, 2 * g, 0, h2, 0);
        int r4 = cuMemSetAccess(v2, 2 * g, &acc, 1);
        int seen[4]; int r5 = cuMemcpyDtoH(seen, v2, sizeof seen);
        printf("child %d %d %d %d %d: %d %d %d %d\n", r1, r2, r3, r4, r5, seen[0], seen[1], seen[2], seen[3]);
        fflush(stdout); _exit(0);
    }
    waitpid(pid, 0, 0);
    int u1 = cuMemUnmap(va, g);
    int u2 = cuMemUnmap(va + g, 2 * g);
    int free_early = cuMemRelease(h);
    int af = cuMemAddressFree(va, 4 * g);
    printf("unmap unmapped %d, unmap %d, release %d, free %d\n", u1, u2, free_early, af);
    return 0;
}
"#;

#[test]
fn driver_virtual_memory_management() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "vmm.cpp", DRIVER_VMM);
    let exe = dir.path().join("vmm");
    run_ok(cuprite().arg(&src).args(["-lcuda", "-lnvrtc", "-o"]).arg(&exe));
    let out = text(&run_ok(&mut Command::new(&exe)).stdout);
    assert_eq!(
        out,
        "attributes 1 1 0\ngranularity 2097152\ncreate odd 1 whole 0\nreserve 0 aligned 1\nmap 0 overlap 1\n\
copy before access 1, access 0, copy 0\nlaunch 0\nafter 11 12 13 14\nexport 0\nchild 0 0 0 0 0: 11 12 13 14\n\
unmap unmapped 1, unmap 0, release 0, free 0\n"
    );
}

/// Streams, events and memory belong to the device current when they were made
/// (Programming Guide, "Stream and Event Behavior"); the codes are the documented ones.
const DEVICE_OWNERSHIP: &str = r#"
// Streams, events and memory belong to the device that was current when they were
// created (Programming Guide, "Stream and Event Behavior"): a launch into another
// device's stream fails, an event recorded into another device's stream fails, elapsed
// time between two devices' events fails; memory copies into another device's stream,
// event queries and synchronisation across devices, and stream waits on another
// device's event succeed. Each device has its own default stream. Needs 2 devices
// (CUPRITE_DEVICE_COUNT=2 on Cuprite). The expected codes are the documented ones (no
// machine with two GPUs was available to capture them).
#include <cstdio>

__global__ void add(int *p, int v) { p[threadIdx.x] += v; }

#define SHOW(what, call) do { cudaError_t e_ = (call); printf("%-40s %s\n", what, cudaGetErrorName(e_)); } while (0)

int main() {
    int n = 0;
    cudaGetDeviceCount(&n);
    if (n < 2) { printf("needs 2 devices, found %d\n", n); return 0; }

    cudaStream_t s0, s1;
    cudaEvent_t e0, e1;
    int *d0, *d1;
    cudaSetDevice(0);
    cudaStreamCreate(&s0);
    cudaEventCreate(&e0);
    cudaMalloc(&d0, 32 * sizeof(int));
    cudaMemset(d0, 0, 32 * sizeof(int));
    cudaSetDevice(1);
    cudaStreamCreate(&s1);
    cudaEventCreate(&e1);
    cudaMalloc(&d1, 32 * sizeof(int));
    cudaMemset(d1, 0, 32 * sizeof(int));

    // Current device 1.
    add<<<1, 32, 0, s1>>>(d1, 1);
    SHOW("launch into own stream", cudaGetLastError());
    add<<<1, 32, 0, s0>>>(d1, 1);
    SHOW("launch into device 0's stream", cudaGetLastError());
    SHOW("sync after refused launch", cudaDeviceSynchronize());
    add<<<1, 32>>>(d1, 2);
    SHOW("launch into default stream", cudaGetLastError());
    SHOW("record own event in own stream", cudaEventRecord(e1, s1));
    SHOW("record device 0's event in own stream", cudaEventRecord(e0, s1));
    SHOW("record own event in device 0's stream", cudaEventRecord(e1, s0));
    SHOW("memcpy async in device 0's stream", cudaMemcpyAsync(d1, d1 + 16, 16 * sizeof(int), cudaMemcpyDeviceToDevice, s0));
    SHOW("stream 1 waits device 0's event", cudaStreamWaitEvent(s1, e0, 0));
    SHOW("synchronize device 0's stream", cudaStreamSynchronize(s0));

    cudaSetDevice(0);
    SHOW("record on device 0", cudaEventRecord(e0, s0));
    cudaEventSynchronize(e0);
    SHOW("event sync from device 0", cudaEventSynchronize(e1));
    float ms = 0;
    SHOW("elapsed between devices", cudaEventElapsedTime(&ms, e0, e1));
    SHOW("elapsed same device", cudaEventElapsedTime(&ms, e0, e0));
    int sd = -1;
    SHOW("device of stream 1", cudaStreamGetDevice(s1, &sd));
    printf("stream 1 on %d\n", sd);
    cudaSetDevice(1);
    SHOW("query device 0's event from device 1", cudaEventQuery(e0));
    SHOW("device 1 synchronize", cudaDeviceSynchronize());

    cudaPointerAttributes a;
    SHOW("attributes d0", cudaPointerGetAttributes(&a, d0));
    printf("d0 device %d type %d\n", a.device, (int)a.type);
    SHOW("attributes d1", cudaPointerGetAttributes(&a, d1));
    printf("d1 device %d type %d\n", a.device, (int)a.type);

    int h[32];
    cudaMemcpy(h, d1, sizeof h, cudaMemcpyDeviceToHost);
    printf("d1: %d %d %d %d\n", h[0], h[15], h[16], h[31]);

    cudaStreamDestroy(s1);
    cudaEventDestroy(e1);
    cudaFree(d1);
    cudaSetDevice(0);
    SHOW("destroy stream 0 from device 0", cudaStreamDestroy(s0));
    cudaEventDestroy(e0);
    cudaFree(d0);
    SHOW("last error", cudaGetLastError());
    return 0;
}
"#;

#[test]
fn streams_events_and_memory_belong_to_their_device() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "owned.cu", DEVICE_OWNERSHIP);
    let exe = dir.path().join("owned");
    run_ok(cuprite().arg("-arch=sm_90").arg(&src).arg("-o").arg(&exe));
    let out = text(&run_ok(Command::new(&exe).env("CUPRITE_DEVICE_COUNT", "2")).stdout);
    let want = "\
launch into own stream                   cudaSuccess
launch into device 0's stream            cudaErrorInvalidResourceHandle
sync after refused launch                cudaSuccess
launch into default stream               cudaSuccess
record own event in own stream           cudaSuccess
record device 0's event in own stream    cudaErrorInvalidResourceHandle
record own event in device 0's stream    cudaErrorInvalidResourceHandle
memcpy async in device 0's stream        cudaSuccess
stream 1 waits device 0's event          cudaSuccess
synchronize device 0's stream            cudaSuccess
record on device 0                       cudaSuccess
event sync from device 0                 cudaSuccess
elapsed between devices                  cudaErrorInvalidResourceHandle
elapsed same device                      cudaSuccess
device of stream 1                       cudaSuccess
stream 1 on 1
query device 0's event from device 1     cudaSuccess
device 1 synchronize                     cudaSuccess
attributes d0                            cudaSuccess
d0 device 0 type 2
attributes d1                            cudaSuccess
d1 device 1 type 2
d1: 3 3 3 3
destroy stream 0 from device 0           cudaSuccess
last error                               cudaErrorInvalidResourceHandle
";
    assert_eq!(out, want);
}

const DRIVER_IPC: &str = r#"
#include <cstdio>
#include <unistd.h>
#include <sys/wait.h>
#include <cuda.h>
int main() {
    int pipefd[2];
    if (pipe(pipefd)) return 2;
    pid_t pid = fork();
    if (pid == 0) {
        close(pipefd[1]);
        CUipcMemHandle h;
        if (read(pipefd[0], &h, sizeof h) != (ssize_t)sizeof h) _exit(3);
        cuInit(0);
        CUcontext c;
        cuDevicePrimaryCtxRetain(&c, 0);
        cuCtxSetCurrent(c);
        CUdeviceptr p = 0;
        CUresult r = cuIpcOpenMemHandle(&p, h, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
        unsigned v[4] = {0};
        cuMemcpyDtoH(v, p, sizeof v);
        printf("child: open %d, reads %u %u\n", (int)r, v[0], v[3]);
        cuMemsetD32(p, 77, 4);
        cuCtxSynchronize();
        int first = cuIpcCloseMemHandle(p);
        int again = cuIpcCloseMemHandle(p);
        printf("child: close %d, again %d\n", first, again);
        fflush(stdout);
        _exit(0);
    }
    close(pipefd[0]);
    cuInit(0);
    CUcontext c;
    cuDevicePrimaryCtxRetain(&c, 0);
    cuCtxSetCurrent(c);
    CUdeviceptr d;
    cuMemAlloc(&d, 16);
    cuMemsetD32(d, 5, 4);
    CUipcMemHandle h;
    printf("parent: get %d\n", (int)cuIpcGetMemHandle(&h, d));
    fflush(stdout);
    if (write(pipefd[1], &h, sizeof h) != (ssize_t)sizeof h) return 2;
    int st;
    waitpid(pid, &st, 0);
    unsigned v[4];
    cuMemcpyDtoH(v, d, sizeof v);
    printf("parent: %u %u\n", v[0], v[3]);
    return 0;
}
"#;

#[test]
fn driver_api_ipc_between_two_processes() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(dir.path(), "ipc.cu", DRIVER_IPC);
    let exe = dir.path().join("ipc");
    run_ok(cuprite().arg(&src).arg("-lcuda").arg("-o").arg(&exe));
    let out = text(&run_ok(&mut Command::new(&exe)).stdout);
    assert_eq!(out, "parent: get 0\nchild: open 0, reads 5 5\nchild: close 0, again 1\nparent: 77 77\n");
}
