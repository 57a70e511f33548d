//! Rust GPU code on the CPU: the `cudarc` crate loads `libcuda.so` and `libnvrtc.so`
//! dynamically; with Cuprite's first on the library path (a toolkit prefix's `lib64`), it
//! compiles a kernel from source with its NVRTC wrapper, loads it, launches it and reads
//! the result back.
//!
//! The library path must be set before the process starts, so the test runs itself again
//! (the ignored `cudarc_child`) with `LD_LIBRARY_PATH` pointing at a fresh `lib64`.

use cudarc::driver::{CudaContext, LaunchConfig, PushKernelArg};
use std::process::Command;

const SRC: &str = r#"
template <typename T>
__device__ T twice(T v) { return v + v; }

extern "C" __global__ void axpy(float *y, const float *x, float a, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + twice(y[i]);
}

extern "C" __global__ void block_sums(const int *in, int *out) {
    __shared__ int s[256];
    s[threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
    __syncthreads();
    for (int w = blockDim.x / 2; w > 0; w /= 2) {
        if (threadIdx.x < w) s[threadIdx.x] += s[threadIdx.x + w];
        __syncthreads();
    }
    if (threadIdx.x == 0) out[blockIdx.x] = s[0];
}
"#;

#[test]
fn cudarc_compiles_loads_and_launches_on_cuprite() {
    let dir = tempfile::tempdir().unwrap();
    let prefix = cuprite::toolkit::Prefix { root: dir.path().to_path_buf() };
    std::fs::create_dir_all(prefix.lib64()).unwrap();
    cuprite::install::install_libraries(&prefix).expect("the runtime and NVRTC libraries");
    assert!(prefix.lib64().join("libnvrtc.so").exists(), "libnvrtc.so is missing: build cuprite-nvrtc");
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", "cudarc_child", "--ignored", "--nocapture", "--test-threads=1"])
        .env("LD_LIBRARY_PATH", prefix.lib64())
        .env("CUPRITE_CUDARC_CHILD", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed:\n{stdout}\n{stderr}");
    assert!(stdout.contains("cudarc on cuprite: ok"), "child did not finish:\n{stdout}\n{stderr}");
}

/// Run by `cudarc_compiles_loads_and_launches_on_cuprite` with Cuprite's libraries first.
#[test]
#[ignore]
fn cudarc_child() {
    if std::env::var_os("CUPRITE_CUDARC_CHILD").is_none() {
        return;
    }
    let ctx = CudaContext::new(0).unwrap();
    let stream = ctx.default_stream();
    let ptx = cudarc::nvrtc::compile_ptx(SRC).unwrap();
    let module = ctx.load_module(ptx).unwrap();

    let axpy = module.load_function("axpy").unwrap();
    let n = 1000i32;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let dx = stream.memcpy_stod(&x).unwrap();
    let mut dy = stream.memcpy_stod(&vec![1.5f32; n as usize]).unwrap();
    let mut b = stream.launch_builder(&axpy);
    b.arg(&mut dy).arg(&dx).arg(&2.0f32).arg(&n);
    unsafe { b.launch(LaunchConfig::for_num_elems(n as u32)) }.unwrap();
    let y = stream.memcpy_dtov(&dy).unwrap();
    for (i, v) in y.iter().enumerate() {
        assert_eq!(*v, 2.0 * i as f32 + 3.0, "y[{i}]");
    }

    let sums = module.load_function("block_sums").unwrap();
    let input: Vec<i32> = (0..1024).collect();
    let din = stream.memcpy_stod(&input).unwrap();
    let mut dout = stream.alloc_zeros::<i32>(4).unwrap();
    let cfg = LaunchConfig { grid_dim: (4, 1, 1), block_dim: (256, 1, 1), shared_mem_bytes: 0 };
    let mut b = stream.launch_builder(&sums);
    b.arg(&din).arg(&mut dout);
    unsafe { b.launch(cfg) }.unwrap();
    let got = stream.memcpy_dtov(&dout).unwrap();
    let want: Vec<i32> = (0..4).map(|blk| (blk * 256..(blk + 1) * 256).sum()).collect();
    assert_eq!(got, want);
    println!("cudarc on cuprite: ok");
}
