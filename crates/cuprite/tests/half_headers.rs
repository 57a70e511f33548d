//! cuda_fp16.h and cuda_bf16.h beyond what the conformance programs capture: the C++
//! conversions CUDA documents (integer conversions round toward zero and saturate, as
//! the `_rz` intrinsics), the headers in plain C++ and C compiles, and the
//! `__CUDA_NO_*` macros.

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

#[test]
fn cxx_conversions_follow_the_documented_rounding() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "conv.cu",
        r#"
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__host__ __device__ void convert(long long *o) {
    __half big = __float2half(40000.0f), neg = __float2half(-2.75f), nan = __ushort_as_half(0x7e00);
    __nv_bfloat16 b = __float2bfloat16(1e6f);
    short s = big; int i = neg; unsigned u = neg; long long l = b; bool z = neg; signed char c = big;
    unsigned short us = b; int n = nan;
    __half h; h = 3; __nv_bfloat16 k; k = 1000000ll;
    o[0] = s; o[1] = i; o[2] = u; o[3] = l; o[4] = z; o[5] = c; o[6] = us; o[7] = n;
    o[8] = __half_as_ushort(h); o[9] = __bfloat16_as_ushort(k);
}
__global__ void k(long long *o) { convert(o); }
int main() {
    long long *d, dev[10], host[10];
    cudaMalloc(&d, sizeof dev);
    k<<<1, 1>>>(d);
    cudaMemcpy(dev, d, sizeof dev, cudaMemcpyDeviceToHost);
    convert(host);
    for (int i = 0; i < 10; i++) printf("%lld%c", dev[i], i == 9 ? '|' : ' ');
    for (int i = 0; i < 10; i++) printf("%lld%c", host[i], i == 9 ? '\n' : ' ');
    return 0;
}
"#,
    );
    let out = run_ok(cuprite().arg("run").arg(&src));
    let one = "32767 -2 0 999424 1 127 65535 0 16896 18804";
    assert_eq!(text(&out.stdout), format!("{one}|{one}\n"));
}

#[test]
fn headers_work_in_plain_cpp_and_c() {
    let dir = tempfile::tempdir().unwrap();
    let cpp = write(
        dir.path(),
        "plain.cpp",
        r#"
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
int main() {
    __half a = __float2half(1.5f), b = 2.25f;
    __nv_bfloat16 c = __float2bfloat16(3.0f);
    half2 v = __floats2half2_rn(1.0f, 2.0f);
    printf("%g %g %g %g\n", __half2float(a + b), __bfloat162float(c * c), __high2float(v), (float)__hmax(a, b));
    return 0;
}
"#,
    );
    let c = write(dir.path(), "raw.c", "#include <cuda_fp16.h>\n#include <cuda_bf16.h>\n__half_raw r = {0x3c00}; __nv_bfloat16_raw q = {0x3f80};\n");
    let exe = dir.path().join("plain");
    run_ok(cuprite().arg("-o").arg(&exe).arg(&cpp));
    let out = run_ok(&mut Command::new(&exe));
    assert_eq!(text(&out.stdout), "3.75 9 2 2.25\n");
    run_ok(cuprite().arg("-c").arg("-o").arg(dir.path().join("raw.o")).arg(&c));
}

#[test]
fn no_conversions_and_no_operators_leave_the_intrinsics() {
    let dir = tempfile::tempdir().unwrap();
    let src = write(
        dir.path(),
        "noconv.cu",
        r#"
#include <cstdio>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
__global__ void k(float *o) {
    __half a = __float2half(1.5f), b = __float2half(2.0f);
    __nv_bfloat16 c = __float2bfloat16(3.0f);
    o[0] = __half2float(__hfma(a, b, a)) + __low2float(__hmul2(__halves2half2(a, b), __halves2half2(a, b))) + __bfloat162float(__hadd(c, c));
}
int main() {
    float *d, h;
    cudaMalloc(&d, sizeof h);
    k<<<1, 1>>>(d);
    cudaMemcpy(&h, d, sizeof h, cudaMemcpyDeviceToHost);
    printf("%g\n", h);
    return 0;
}
"#,
    );
    let mut cmd = cuprite();
    cmd.arg("run");
    for m in [
        "__CUDA_NO_HALF_CONVERSIONS__",
        "__CUDA_NO_HALF_OPERATORS__",
        "__CUDA_NO_HALF2_OPERATORS__",
        "__CUDA_NO_BFLOAT16_CONVERSIONS__",
        "__CUDA_NO_BFLOAT16_OPERATORS__",
        "__CUDA_NO_BFLOAT162_OPERATORS__",
    ] {
        cmd.arg(format!("-D{m}"));
    }
    let out = run_ok(cmd.arg(&src));
    assert_eq!(text(&out.stdout), "12.75\n");
}

#[test]
fn cuda_bf16_h_is_generated_from_cuda_fp16_h() {
    // tools/gen-cuda-bf16.py writes cuda_bf16.h; the committed file must be its output.
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let Ok(out) = Command::new("python3").arg("tools/gen-cuda-bf16.py").arg("--check").current_dir(&root).output() else {
        eprintln!("python3 not found: cuda_bf16.h not checked");
        return;
    };
    assert!(out.status.success(), "{}", text(&out.stderr));
}
