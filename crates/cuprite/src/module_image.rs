//! Device code as a module image (`cuprite_image`): what `-ptx`, `-cubin`, `-fatbin` and
//! NVRTC produce, and `cuModuleLoad*` loads.
//!
//! A `.cu` file's device view is checked and lowered as for `-c`, without a host object:
//! its (non-template) kernels are all kept, and kernel template specializations are the
//! ones that NVRTC's name expressions name. Their mangled names come from the host
//! compiler, as for a whole program: the host view, rewritten, gets one pointer per name
//! expression (`(void *)&EXPR`), and the symbols those pointers refer to in the
//! assembly are the specializations' stubs (`device_pass::kernel_instances`). Kernels
//! and device variables are found in a loaded module by these lowered names, so the
//! generated C defines one symbol per kernel and variable under that name (the keys the
//! runtime registers them by).

use crate::device_pass;
use crate::pipeline::Build;
use cuprite_image::Image;
use cuprite_ir::{Init, Module};
use std::path::Path;

/// A compiled module: the image and, per name expression, its lowered name.
pub struct Compiled {
    pub image: Image,
    pub lowered: Vec<String>,
    /// The device IR the image carries (for the PTX back-end).
    pub module: Module,
}

/// Compiles the device code of `input` into a module image.
pub fn compile(build: &Build, input: &Path, name_expressions: &[String]) -> Result<Compiled, String> {
    compile_module(build, input, name_expressions, false)
}

/// `-ptx`, `-cubin`, `-fatbin` of a `.cu` file: as [`compile`], and the kernel template
/// specializations that the file's host code launches are in the module too, as in
/// nvcc's output (the host code is compiled to find them).
pub fn compile_with_host_instances(build: &Build, input: &Path) -> Result<Compiled, String> {
    compile_module(build, input, &[], true)
}

fn compile_module(build: &Build, input: &Path, name_expressions: &[String], host_instances: bool) -> Result<Compiled, String> {
    let stem = input.file_stem().and_then(|s| s.to_str()).unwrap_or("input");
    let work = |ext: &str| build.work.join(format!("{stem}.{ext}"));
    let device_ii = work("module.device.ii");
    build.tools.run_to_file(&build.tools.cxx, &build.device_view_flags(input), &device_ii)?;
    let text = read(&device_ii)?;
    let dc = device_pass::check(&text, build.arch, build.opts)?;
    let mut lowered = if name_expressions.is_empty() { Vec::new() } else { lower_names(build, input, name_expressions)? };
    if host_instances && dc.has_kernel_templates() {
        lowered.extend(host_kernel_symbols(build, input)?);
    }
    let module = device_pass::lower_for_symbols(dc, &lowered)?;
    refuse_managed(&module, input)?;
    let mut c_source = device_pass::emit(&module, input, build.arch, build.opts)?;
    c_source.push_str(&cuprite_cpu::module_symbol_definitions(&module));
    let opt = if build.opts.device_debug { 0 } else { build.opt_level.max(2) };
    let mut c_flags = cuprite_cpu::c_compiler_flags(opt);
    if build.opts.device_debug || build.opts.debug {
        c_flags.push("-g".into());
    }
    let ir = bincode::serialize(&module).map_err(|e| format!("internal error: cannot encode device code: {e}"))?;
    let image = Image { origin: input.display().to_string(), arch: build.arch, c_source, c_flags, ir };
    Ok(Compiled { image, lowered, module })
}

/// `-ptx`: the module as PTX for `-arch` (`cuprite_ptx::emit`), with the module image in
/// its leading comment lines (`Image::encode_with_ptx`), so that `ptxas` and the driver
/// take the file as PTX and `cuModuleLoad*` on the CPU device loads the image, unchanged.
pub fn ptx_file(build: &Build, compiled: &Compiled) -> Result<String, String> {
    let target = cuprite_ptx::isa::Target { sm: build.arch.max(cuprite_ptx::isa::Target::OLDEST_SM), arch_specific: false };
    let module = crate::ptx_math::prepare(&compiled.module)?;
    let ptx = cuprite_ptx::emit::emit_module(&module, target).map_err(|e| e.to_string())?;
    Ok(compiled.image.encode_with_ptx(&ptx))
}

/// The symbols the file's host code defines (among them the stubs of the kernel template
/// specializations it launches), from an object of its host view.
fn host_kernel_symbols(build: &Build, input: &Path) -> Result<Vec<String>, String> {
    let obj = compile_host_view(build, input, "host-instances", "", "-c", "o")?;
    Ok(device_pass::defined_symbols(&obj)?.into_keys().collect())
}

/// The symbols the host compiler gives each name expression (a kernel's stub, or a
/// device variable's shadow), in order.
fn lower_names(build: &Build, input: &Path, exprs: &[String]) -> Result<Vec<String>, String> {
    let mut extra = String::new();
    for (i, e) in exprs.iter().enumerate() {
        let e = e.trim();
        let addr = if e.starts_with('&') { e.to_string() } else { format!("&{e}") };
        extra.push_str(&format!("\n# 1 \"name expression {i}\"\nextern \"C\" {{ __attribute__((used)) void *__cuprite_name_expr_{i} = (void *)({addr}); }}\n"));
    }
    let asm = read(&compile_host_view(build, input, "names", &extra, "-S", "s")?)?;
    exprs
        .iter()
        .enumerate()
        .map(|(i, e)| pointee(&asm, &format!("__cuprite_name_expr_{i}")).ok_or_else(|| format!("name expression '{e}' does not name a __global__ function or __device__ variable")))
        .collect()
}

/// The file's host view, rewritten as for a build, with `extra` appended, compiled at -O0
/// by the host compiler with `step` (`-S` or `-c`) into `STEM.TAG.EXT` in the work directory.
fn compile_host_view(build: &Build, input: &Path, tag: &str, extra: &str, step: &str, ext: &str) -> Result<std::path::PathBuf, String> {
    let stem = input.file_stem().and_then(|s| s.to_str()).unwrap_or("input");
    let mut flags = vec!["-E".to_string()];
    flags.extend(build.host_view_flags(input));
    let host_text = String::from_utf8_lossy(&build.tools.run(&build.tools.cxx, &flags)?).into_owned();
    let (mut rewritten, info) = crate::host_rewrite::rewrite(&host_text);
    if let Some(m) = info.misuse.first() {
        return Err(m.message.clone());
    }
    rewritten.push_str(extra);
    let cpp = build.work.join(format!("{stem}.{tag}.ii"));
    let out = build.work.join(format!("{stem}.{tag}.{ext}"));
    std::fs::write(&cpp, rewritten).map_err(|e| format!("cannot write {}: {e}", cpp.display()))?;
    let mut cflags = vec![step.to_string(), "-O0".into(), "-w".into(), "-x".into(), "c++-cpp-output".into(), build.opts.std_flag()];
    cflags.extend([cpp.display().to_string(), "-o".into(), out.display().to_string()]);
    build.tools.run(&build.tools.cxx, &cflags)?;
    Ok(out)
}

/// The symbol a pointer variable is initialised with, in g++'s assembly
/// (`name:` followed by `.quad symbol`).
fn pointee(asm: &str, name: &str) -> Option<String> {
    let label = format!("{name}:");
    let mut lines = asm.lines().skip_while(|l| l.trim() != label);
    lines.next()?;
    let quad = lines.find(|l| !l.trim().is_empty())?.trim();
    let sym = quad.strip_prefix(".quad")?.trim();
    Some(sym.split('+').next()?.trim().trim_matches('"').to_string())
}

/// A `__managed__` variable's cell (`{cell + 16, …}`, see `cuprite_abi.h`) needs the
/// host shadow a program has; a module has none.
fn refuse_managed(module: &Module, input: &Path) -> Result<(), String> {
    for (i, g) in module.globals.iter().enumerate() {
        if let Some(Init::Aggregate(items)) = &g.init {
            if matches!(items.first(), Some(Init::GlobalAddr { global, offset: 16 }) if global.index() == i) && items.len() == 2 {
                return Err(format!("{}: error: __managed__ variable '{}' in a module (-ptx, -cubin, -fatbin, NVRTC) is not supported yet", input.display(), g.name));
            }
        }
    }
    Ok(())
}

fn read(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pointee_reads_gxx_assembly() {
        let asm = "\t.globl\t__cuprite_name_expr_0\n__cuprite_name_expr_0:\n\t.quad\t_Z6kernelIfLi4EEvPT_\n";
        assert_eq!(pointee(asm, "__cuprite_name_expr_0").as_deref(), Some("_Z6kernelIfLi4EEvPT_"));
        assert_eq!(pointee(asm, "__cuprite_name_expr_1"), None);
    }
}
