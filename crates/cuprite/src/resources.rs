//! What ptxas checks and reports for GPU code, done on the CPU back-end's figures: the
//! per-kernel static shared memory limit and the per-file constant memory limit (compile
//! errors, with nvcc's wording and the kernel's location), and the resource report of
//! `-Xptxas -v` / `--resource-usage`.

use cuprite_cpu::KernelResources;
use cuprite_ir::{AddressSpace, FunctionKind, Module};

/// Static shared memory per block (0xc000, every compute capability) and constant memory
/// per program (0x10000), as ptxas enforces them (tests/facts/limits.txt).
const MAX_STATIC_SHARED: u64 = 0xc000;
const MAX_CONSTANT: u64 = 0x10000;

fn total_bytes(module: &Module, space: AddressSpace) -> u64 {
    module
        .globals
        .iter()
        .filter(|g| g.space == space && !g.dynamic_shared)
        .fold(0, |end, g| {
            let (size, align) = module.layout(&g.ty);
            let align = g.align.unwrap_or(align).max(1);
            end.div_ceil(align) * align + size
        })
}

fn location(module: &Module, kernel: &KernelResources, input: &str) -> String {
    module
        .functions
        .iter()
        .find(|f| matches!(&f.kind, FunctionKind::Kernel { stub_symbol, .. } if *stub_symbol == kernel.symbol))
        .and_then(|f| f.loc)
        .map(|l| format!("{}:{}:{}", module.files.get(l.file.index()).map(String::as_str).unwrap_or(input), l.line, l.col))
        .unwrap_or_else(|| input.to_string())
}

/// Reports every limit the module exceeds; `Err` if any.
pub fn check_limits(module: &Module, kernels: &[KernelResources], input: &str) -> Result<(), String> {
    let mut failed = false;
    for k in kernels {
        if k.static_shared_bytes > MAX_STATIC_SHARED {
            crate::diagnostics::emit(&format!(
                "{}: error: entry function '{}' uses too much shared data ({:#x} bytes, {:#x} max)\n",
                location(module, k, input),
                k.symbol,
                k.static_shared_bytes,
                MAX_STATIC_SHARED
            ));
            failed = true;
        }
    }
    let constant = total_bytes(module, AddressSpace::Constant);
    if constant > MAX_CONSTANT {
        crate::diagnostics::emit(&format!("{input}: error: file uses too much global constant data ({constant:#x} bytes, {MAX_CONSTANT:#x} max)\n"));
        failed = true;
    }
    if failed {
        Err(String::new())
    } else {
        Ok(())
    }
}

/// The report of `-Xptxas -v`, in ptxas's layout, with the figures that mean something
/// on the CPU (there are no registers or spills to report).
pub fn report(module: &Module, kernels: &[KernelResources], arch: u32) -> String {
    let mut out = format!("cuprite info  : {} bytes gmem\n", total_bytes(module, AddressSpace::Global));
    for k in kernels {
        out.push_str(&format!("cuprite info  : Compiling entry function '{}' for 'sm_{arch}' (on the CPU)\n", k.symbol));
        out.push_str(&format!("cuprite info  : Function properties for {}\n", k.symbol));
        out.push_str(&format!("    {} bytes stack frame\n", k.local_bytes_per_thread));
        let mut used = format!("cuprite info  : Used {} barriers", u32::from(k.uses_barriers));
        if k.static_shared_bytes > 0 {
            used.push_str(&format!(", {} bytes smem", k.static_shared_bytes));
        }
        out.push_str(&used);
        out.push('\n');
    }
    out
}

/// What `-v` says about how kernels run on the CPU: which ones execute their warps in
/// lock step (slower, but what warp-synchronous code relies on).
pub fn execution_notes(kernels: &[KernelResources]) -> String {
    kernels
        .iter()
        .filter(|k| k.warp_lockstep)
        .map(|k| {
            format!(
                "cuprite info  : kernel '{}' runs its warps in lock step: lanes of a warp communicate through volatile or shared memory without a barrier\n",
                k.name
            )
        })
        .collect()
}
