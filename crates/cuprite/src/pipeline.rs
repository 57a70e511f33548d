//! The build of a program: each input compiled into objects, then one link (DESIGN.md §1).
//!
//! For a `.cu` translation unit:
//! 1. preprocess twice with the host compiler: the device view (`__CUDA_ARCH__`) and the
//!    host view, Cuprite's headers first on the include path, `cuda_runtime.h` implied;
//! 2. device view → front-end → sema check (errors reported here, with locations);
//! 3. host view → rewrite → host compiler → host object;
//! 4. the kernel template specializations whose stubs the host object defines are
//!    instantiated (their errors reported here), device code is lowered to IR, and the
//!    kernels' stubs are found among the host object's symbols, so each kernel is keyed
//!    by the address of the stub the host code calls;
//! 5. IR → CPU back-end → C → C compiler → device object;
//! 6. link host objects, device objects and the runtime library.

use crate::cli::{Cudart, Options};
use crate::device_pass;
use crate::host_rewrite;
use crate::support_files;
use crate::toolchain::Toolchain;
use crate::toolkit::{quote, Prefix};
use std::path::{Path, PathBuf};

pub struct Build<'a> {
    pub opts: &'a Options,
    pub tools: Toolchain,
    pub include_dir: PathBuf,
    /// The toolkit prefix this binary runs from (`DIR/bin/nvcc`), if any: its `lib64`
    /// holds the runtime libraries.
    pub prefix: Option<Prefix>,
    pub cudart: Cudart,
    pub work: PathBuf,
    pub arch: u32,
    pub opt_level: u8,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum InputKind {
    Cuda,
    Cxx,
    C,
    Object,
}

/// `CUPRITE_DEVICE_PTX=file.ptx`: compile a `.cu` file's host code as usual but take its
/// device code from this PTX module (the PTX front-end's test path, `tests/ptx-modules`).
pub const DEVICE_PTX_ENV: &str = "CUPRITE_DEVICE_PTX";

pub fn input_kind(path: &Path, forced: Option<&str>) -> Result<InputKind, String> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    if matches!(ext, "o" | "a" | "so" | "obj") {
        // `-x` names the language of sources; objects and libraries stay what they are.
        return Ok(InputKind::Object);
    }
    if let Some(lang) = forced {
        return match lang {
            "cu" | "cuda" => Ok(InputKind::Cuda),
            "c++" | "cpp" => Ok(InputKind::Cxx),
            "c" => Ok(InputKind::C),
            other => Err(format!("Value '{other}' is not defined for option 'x'")),
        };
    }
    Ok(match ext {
        "cu" => InputKind::Cuda,
        "cpp" | "cc" | "cxx" | "C" | "c++" => InputKind::Cxx,
        "c" => InputKind::C,
        "o" | "a" | "so" | "obj" => InputKind::Object,
        _ => return Err(format!("Don't know what to do with '{}'", path.display())),
    })
}

impl<'a> Build<'a> {
    /// Flags shared by both preprocessing passes of a `.cu` file and by `.cpp` inputs.
    fn common_cpp_flags(&self) -> Vec<String> {
        let o = self.opts;
        let mut f = vec![o.std_flag(), "-I".into(), self.include_dir.display().to_string()];
        for d in &o.include_dirs {
            f.push(format!("-I{d}"));
        }
        for d in &o.system_include_dirs {
            f.extend(["-isystem".to_string(), d.clone()]);
        }
        for d in &o.defines {
            f.push(format!("-D{d}"));
        }
        for u in &o.undefines {
            f.push(format!("-U{u}"));
        }
        f
    }

    /// `-include` files, after Cuprite's implied `cuda_runtime.h` as in nvcc.
    fn pre_includes(&self) -> Vec<String> {
        self.opts.pre_includes.iter().flat_map(|h| ["-include".to_string(), h.clone()]).collect()
    }

    fn cuda_macros(&self) -> Vec<String> {
        let mut f: Vec<String> = ["-D__CUDACC__", "-D__NVCC__", "-D__CUPRITE__", "-D__CUDACC_VER_MAJOR__=13", "-D__CUDACC_VER_MINOR__=0", "-D__CUDACC_VER_BUILD__=0"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        f.extend(self.nvcc_version_macros());
        if self.opts.fast_math {
            f.push("-D__USE_FAST_MATH__".into());
        }
        // As nvcc: the runtime headers then make the handle 0 the per-thread stream.
        if self.opts.default_stream_per_thread {
            f.push("-DCUDA_API_PER_THREAD_DEFAULT_STREAM=1".into());
        }
        f
    }

    /// Macros nvcc 13.0 defines in both passes besides the `__CUDACC_VER_*__` ones
    /// (compared with `nvcc -arch=sm_90 --dryrun` on the GPU machine): the virtual
    /// architectures compiled for (`-D__CUDA_ARCH_LIST__=800,900`) and the runtime API
    /// version. nvcc's `__NVCC_DIAG_PRAGMA_SUPPORT__` (headers then write
    /// `#pragma nv_diag_suppress`, which the host compiler warns about) and
    /// `__CUDACC_DEVICE_ATOMIC_BUILTINS__` (headers then call `__nv_atomic_*` builtins,
    /// which Cuprite lacks) are left out on purpose.
    fn nvcc_version_macros(&self) -> Vec<String> {
        let list: Vec<String> = self.opts.virtual_arch_list().iter().map(u32::to_string).collect();
        vec![format!("-D__CUDA_ARCH_LIST__={}", list.join(",")), "-D__CUDA_API_VER_MAJOR__=13".into(), "-D__CUDA_API_VER_MINOR__=0".into()]
    }

    pub fn host_compile_flags(&self) -> Vec<String> {
        let mut f = vec![format!("-O{}", self.opt_level)];
        if self.opts.debug {
            f.push("-g".into());
        }
        if self.opts.profile {
            f.push("-pg".into());
        }
        if self.opts.no_exceptions {
            f.push("-fno-exceptions".into());
        }
        if self.opts.no_warnings {
            f.push("-w".into());
        }
        f.extend(self.opts.xcompiler.iter().cloned());
        f
    }

    /// The device view of a `.cu` file for the preprocessor (`-E` included).
    pub fn device_view_flags(&self, input: &Path) -> Vec<String> {
        let mut dflags = vec!["-E".to_string(), "-x".into(), "c++".into()];
        dflags.extend(self.cuda_macros());
        dflags.push(format!("-D__CUDA_ARCH__={}", self.arch * 10));
        dflags.push("-D__CUPRITE_DEVICE_PASS__".into());
        // As nvcc's device pass (its own math headers key on it).
        dflags.push("-DCUDA_DOUBLE_MATH_FUNCTIONS".into());
        dflags.extend(self.common_cpp_flags());
        dflags.extend(["-include".into(), "cuda_runtime.h".into()]);
        dflags.extend(self.pre_includes());
        dflags.push(input.display().to_string());
        dflags
    }

    /// The host view of a `.cu` file for the preprocessor (after `-E`, `-M`, …).
    pub fn host_view_flags(&self, input: &Path) -> Vec<String> {
        let mut f = vec!["-x".to_string(), "c++".into()];
        f.extend(self.cuda_macros());
        f.push("-D__CUPRITE_HOST_PASS__".into());
        f.extend(self.common_cpp_flags());
        f.extend(self.opts.xcompiler.iter().filter(|f| f.starts_with("-D") || f.starts_with("-U") || f.starts_with("-I") || f.starts_with("-f")).cloned());
        f.extend(["-include".into(), "cuda_runtime.h".into()]);
        f.extend(self.pre_includes());
        f.push(input.display().to_string());
        f
    }

    /// `-E`: the host view of a `.cu` file (a `.cpp`/`.c` file as the host compiler
    /// sees it), preprocessed, on stdout or into `-o`.
    pub fn preprocess(&self, input: &Path, kind: InputKind, output: Option<&Path>) -> Result<(), String> {
        let mut flags = vec!["-E".to_string()];
        match kind {
            InputKind::Cuda => flags.extend(self.host_view_flags(input)),
            _ => {
                flags.extend(self.common_cpp_flags());
                flags.extend(self.pre_includes());
                flags.push(input.display().to_string());
            }
        }
        if let Some(o) = output {
            flags.extend(["-o".into(), o.display().to_string()]);
        }
        let compiler = if kind == InputKind::C { &self.tools.cc } else { &self.tools.cxx };
        let text = self.tools.run(compiler, &flags)?;
        use std::io::Write;
        std::io::stdout().write_all(&text).map_err(|e| format!("cannot write the output: {e}"))
    }

    /// `-M`/`-MM`: make dependencies of a `.cu`/`.cpp` file on stdout (or into `-MF`, or
    /// `-o`, as older CMake asks).
    pub fn dependencies(&self, input: &Path, target: &str) -> Result<(), String> {
        let o = self.opts;
        let kind = if o.deps_nonsystem { "-MM" } else { "-M" };
        let mut flags = vec![kind.to_string(), "-MT".into(), o.deps_target.clone().unwrap_or_else(|| target.to_string())];
        // `-M -o f` writes the rule into f, as `-MF f` does.
        if let Some(f) = o.deps_file.as_ref().or(o.output.as_ref()) {
            flags.extend(["-MF".into(), f.display().to_string()]);
        }
        if o.deps_phony {
            flags.push("-MP".into());
        }
        flags.extend(self.host_view_flags(input));
        let text = self.tools.run(&self.tools.cxx, &flags)?;
        use std::io::Write;
        std::io::stdout().write_all(&text).map_err(|e| format!("cannot write the output: {e}"))
    }

    /// Compiles one `.cu` file into a single object (host and device parts merged). With
    /// `rdc` (relocatable device code), the device part is kept as IR in the object, to be
    /// generated at device link (`rdc.rs`).
    pub fn compile_cuda(&self, input: &Path, object: &Path, rdc: bool) -> Result<(), String> {
        let stem = input.file_stem().and_then(|s| s.to_str()).unwrap_or("input");
        let work = |ext: &str| self.work.join(format!("{stem}.{ext}"));

        // Device view.
        let mut dflags = self.device_view_flags(input);
        let device_deps = self.cache_dependency_flags(&mut dflags, &work("cudafe.device.d"));
        let device_ii = work("cudafe.device.ii");
        self.tools.run_to_file(&self.tools.cxx, &dflags, &device_ii)?;
        self.record_dependencies(device_deps)?;

        // Host view (which also writes make dependencies for -MD).
        let mut hflags = vec!["-E".to_string()];
        hflags.extend(self.dependency_flags(object));
        let host_deps = self.cache_dependency_flags(&mut hflags, &work("cudafe.host.d"));
        hflags.extend(self.host_view_flags(input));
        let host_ii = work("cudafe.host.ii");
        self.tools.run_to_file(&self.tools.cxx, &hflags, &host_ii)?;
        self.record_dependencies(host_deps.or_else(|| self.user_dependency_file(object)))?;
        if self.tools.verbose || self.tools.dryrun {
            // The device pass runs inside this process; this line names its target in
            // the form build systems read the default architecture from.
            eprintln!("#$ # in process: device code of {} for -arch compute_{} -> {}", quote(&input.display().to_string()), self.arch, quote(&work("cudafe.device.c").display().to_string()));
        }
        if self.tools.dryrun {
            return Ok(());
        }

        let device_text = read(&device_ii)?;
        // Errors outside kernel template specializations are reported before the host
        // code is compiled; the specializations are known from the host object.
        let device = device_pass::check(&device_text, self.arch, self.opts)?;
        if self.opts.syntax_only {
            return Ok(());
        }

        let host_text = read(&host_ii)?;
        let (rewritten, info) = host_rewrite::rewrite(&host_text);
        if !info.misuse.is_empty() {
            let sm = cuprite_front::SourceMap::new(&host_text);
            for m in &info.misuse {
                let d = cuprite_front::diag::Diagnostic::error(cuprite_front::ast::Span::new(m.start as u32, m.end as u32), m.message.clone());
                eprint!("{}", cuprite_front::render(&d, &sm));
            }
            return Err(String::new());
        }
        let host_cpp = work("cudafe1.cpp.ii");
        std::fs::write(&host_cpp, rewritten).map_err(|e| format!("cannot write {}: {e}", host_cpp.display()))?;
        let host_o = work("host.o");
        let mut cflags = vec!["-c".to_string(), "-x".into(), "c++-cpp-output".into(), self.opts.std_flag()];
        cflags.extend(self.host_compile_flags());
        cflags.extend([host_cpp.display().to_string(), "-o".into(), host_o.display().to_string()]);
        self.tools.run(&self.tools.cxx, &cflags)?;

        let mut module = device_pass::instantiate_and_lower(device, &host_o)?;
        if let Some(ptx) = std::env::var_os(DEVICE_PTX_ENV) {
            // Testing hook: the device code comes from PTX (nvcc's, or Cuprite's own
            // PTX back-end's) through the PTX front-end, bound to this host code.
            crate::build_cache::record(PathBuf::from(&ptx));
            let fmad = Options::bool_flag(&self.opts.fmad, true)? && !self.opts.device_debug;
            module = device_pass::module_from_ptx(Path::new(&ptx), &host_o, fmad)?;
        }
        // Stubs and shadows with internal linkage get TU-unique global names, so that the
        // device object can name them; they become local again in the TU's object.
        let exported = device_pass::bind_host_symbols(&mut module, &host_o, &tu_key(input))?;
        if !exported.is_empty() {
            let mut args: Vec<String> = exported
                .iter()
                .flat_map(|e| [format!("--redefine-sym={}={}", e.local, e.global), format!("--globalize-symbol={}", e.global)])
                .collect();
            args.push(host_o.display().to_string());
            self.tools.run(&self.tools.objcopy, &args)?;
        }
        self.keep_ir(&module, &work("cuprite.ir"))?;
        if rdc {
            // The symbols stay global (under their TU-unique names): the device object
            // that will name them is made at device link.
            let blob = work("device.ir");
            std::fs::write(&blob, crate::rdc::encode(&input.display().to_string(), &module)?)
                .map_err(|e| format!("cannot write {}: {e}", blob.display()))?;
            let args = vec![
                format!("--add-section={}={}", crate::rdc::SECTION, blob.display()),
                host_o.display().to_string(),
                object.display().to_string(),
            ];
            return self.tools.run(&self.tools.objcopy, &args).map(drop);
        }
        let device_o = work("device.o");
        self.compile_device_code(&module, input, &work("cudafe.device.c"), &device_o)?;

        // One relocatable object per translation unit, as nvcc -c gives.
        let ld_args = vec!["-r".to_string(), "-nostdlib".into(), host_o.display().to_string(), device_o.display().to_string(), "-o".into(), object.display().to_string()];
        self.tools.run(&self.tools.cxx, &ld_args)?;
        if self.opts.sanitize.is_none() {
            // The device IR goes along, so that `cuprite sanitize ./app` can instrument it.
            crate::checked_rebuild::embed(self, &module, input, object)?;
        }
        if !exported.is_empty() {
            let mut args: Vec<String> = exported.iter().map(|e| format!("--localize-symbol={}", e.global)).collect();
            args.push(object.display().to_string());
            self.tools.run(&self.tools.objcopy, &args)?;
        }
        Ok(())
    }

    /// Generates C for a module's device code and compiles it into `device_o`. `source`
    /// names the translation unit (or the device link) in messages and `#line`s.
    pub fn compile_device_code(&self, module: &cuprite_ir::Module, source: &Path, device_c: &Path, device_o: &Path) -> Result<(), String> {
        // One C translation unit per group of kernels, compiled at once on the cores (or
        // make's job slots) this build may use; one unit when only one compiler may run.
        let slots = crate::parallel::slots();
        let units = if self.tools.dryrun { 1 } else { slots.limit() };
        let (mut c_text, more) = device_pass::emit_units(module, source, self.arch, self.opts, units)?;
        c_text.push_str(&crate::ptx_embed::registration_c(module, self.arch));
        let mut dcflags = vec!["-c".to_string()];
        // nvcc optimises device code unless -G asks for debuggable device code.
        dcflags.extend(cuprite_cpu::c_compiler_flags(if self.opts.device_debug { 0 } else { self.opt_level.max(2) }));
        if self.opts.device_debug || self.opts.debug {
            dcflags.push("-g".into());
        }
        // Each unit's object is cached by its content (`build_cache::object_key`); not
        // under -v or -keep, which turn the build cache off too.
        let compile = |c: &Path, o: &Path, text: &str| {
            let cached = !(self.tools.verbose || self.opts.keep || self.opts.keep_dir.is_some());
            let key = cached.then(|| crate::build_cache::object_key(&self.tools.cc, &dcflags, text));
            if key.as_deref().is_some_and(|k| crate::build_cache::object_lookup(k, o)) {
                return Ok(());
            }
            let mut flags = dcflags.clone();
            flags.extend([c.display().to_string(), "-o".into(), o.display().to_string()]);
            self.tools.run(&self.tools.cc, &flags)?;
            if let Some(k) = &key {
                crate::build_cache::object_store(k, o);
            }
            Ok(())
        };
        let write = |path: &Path, text: &str| std::fs::write(path, text).map_err(|e| format!("cannot write {}: {e}", path.display()));
        if more.is_empty() {
            write(device_c, &c_text)?;
            return compile(device_c, device_o, &c_text);
        }
        // NAME.cudafe.device.c (the module table), then NAME.cudafe.device.1.c, ….
        write(device_c, &c_text)?;
        let mut files = vec![(device_c.to_path_buf(), device_o.with_extension("0.o"), c_text)];
        for (i, text) in more.into_iter().enumerate() {
            let c = device_c.with_extension(format!("{}.c", i + 1));
            write(&c, &text)?;
            files.push((c, device_o.with_extension(format!("{}.o", i + 1)), text));
        }
        slots.run_all(files.iter().map(|(c, o, text)| move || compile(c, o, text)).collect())?;
        // One object, whose symbols shared between the units (hidden) are local again.
        let mut ld = vec!["-r".to_string(), "-nostdlib".into()];
        ld.extend(files.iter().map(|(_, o, _)| o.display().to_string()));
        let merged = device_o.with_extension("units.o");
        ld.extend(["-o".into(), merged.display().to_string()]);
        self.tools.run(&self.tools.cxx, &ld)?;
        self.tools.run(&self.tools.objcopy, &["--localize-hidden".to_string(), merged.display().to_string(), device_o.display().to_string()]).map(drop)
    }

    /// Under `-keep`/`--keep-dir`, the printed IR (`cuprite_ir::print`) joins the kept
    /// files: the device code as the back-end receives it, for debugging the compiler.
    fn keep_ir(&self, module: &cuprite_ir::Module, path: &Path) -> Result<(), String> {
        if !self.opts.keep && self.opts.keep_dir.is_none() {
            return Ok(());
        }
        std::fs::write(path, module.to_string()).map_err(|e| format!("cannot write {}: {e}", path.display()))
    }

    /// Device link: generates the device code of every relocatable-device-code unit in
    /// `inputs` (objects and static libraries, `-l` libraries included) into
    /// `device_o`. Returns whether there was any.
    pub fn device_link(&self, inputs: &[PathBuf], device_o: &Path) -> Result<bool, String> {
        let mut files = inputs.to_vec();
        files.extend(crate::rdc::static_libraries(&self.opts.lib_dirs, &self.opts.libs));
        match crate::rdc::link_inputs(&files)? {
            Some(module) => {
                self.keep_ir(&module, &self.work.join("device-link.cuprite.ir"))?;
                let device_c = self.work.join("device-link.cudafe.device.c");
                self.compile_device_code(&module, Path::new("<device link>"), &device_c, device_o)?;
                Ok(true)
            }
            None => Ok(false),
        }
    }

    /// `-lib`: a static library of the objects (replacing an existing file, as nvcc does).
    pub fn archive(&self, objects: &[PathBuf], output: &Path) -> Result<(), String> {
        if output.exists() {
            std::fs::remove_file(output).map_err(|e| format!("cannot replace {}: {e}", output.display()))?;
        }
        let ar = self.opts.archiver.clone().unwrap_or_else(|| "ar".into());
        let mut args = vec!["rcs".to_string()];
        args.extend(self.opts.xarchive.iter().cloned());
        args.push(output.display().to_string());
        args.extend(objects.iter().map(|o| o.display().to_string()));
        self.tools.run(&ar, &args).map(drop)
    }

    /// An object file with nothing in it (`-dlink` of objects without device code).
    pub fn empty_object(&self, output: &Path) -> Result<(), String> {
        let src = self.work.join("empty.c");
        std::fs::write(&src, "/* no relocatable device code among the inputs */\n").map_err(|e| format!("cannot write {}: {e}", src.display()))?;
        let args = vec!["-c".to_string(), "-fPIC".into(), src.display().to_string(), "-o".into(), output.display().to_string()];
        self.tools.run(&self.tools.cc, &args).map(drop)
    }

    /// While the build cache records a build, a preprocessing command also writes the
    /// files it read into `depfile` (unless the user's `-MD` already writes a list, which
    /// is read instead). Returns the list to read afterwards.
    fn cache_dependency_flags(&self, flags: &mut Vec<String>, depfile: &Path) -> Option<PathBuf> {
        if !crate::build_cache::recording() || flags.iter().any(|f| f == "-MD" || f == "-MMD") {
            return None;
        }
        flags.splice(1..1, ["-MD".to_string(), "-MF".into(), depfile.display().to_string()]);
        Some(depfile.to_path_buf())
    }

    /// The user's `-MD` list for `object`, when the build writes one.
    fn user_dependency_file(&self, object: &Path) -> Option<PathBuf> {
        (self.opts.deps_md || self.opts.deps_mmd).then(|| self.dependency_file(object))
    }

    fn record_dependencies(&self, depfile: Option<PathBuf>) -> Result<(), String> {
        match depfile {
            Some(f) if crate::build_cache::recording() && !self.tools.dryrun => crate::build_cache::record_depfile(&f),
            _ => Ok(()),
        }
    }

    /// Where `-MD`/`-MMD` put the make dependencies of `object`: `-MF`, else beside it.
    pub fn dependency_file(&self, object: &Path) -> PathBuf {
        self.opts.deps_file.clone().unwrap_or_else(|| object.with_extension("d"))
    }

    /// `-MD`/`-MMD` (with `-MF`, `-MT`, `-MP`): the host compiler writes the object's
    /// make dependencies while it preprocesses.
    fn dependency_flags(&self, object: &Path) -> Vec<String> {
        let o = self.opts;
        if !(o.deps_md || o.deps_mmd) {
            return Vec::new();
        }
        let dep_file = self.dependency_file(object);
        let mut f = vec![if o.deps_mmd { "-MMD" } else { "-MD" }.to_string(), "-MF".into(), dep_file.display().to_string()];
        f.extend(["-MT".into(), o.deps_target.clone().unwrap_or_else(|| object.display().to_string())]);
        if o.deps_phony {
            f.push("-MP".into());
        }
        f
    }

    /// Compiles a `.cpp` or `.c` input with the host compiler, Cuprite's headers available.
    pub fn compile_host_source(&self, input: &Path, kind: InputKind, object: &Path) -> Result<(), String> {
        let (compiler, mut flags) = match kind {
            InputKind::C => (self.tools.cc.clone(), vec!["-c".to_string(), "-I".into(), self.include_dir.display().to_string()]),
            _ => (self.tools.cxx.clone(), {
                let mut f = vec!["-c".to_string()];
                f.extend(self.common_cpp_flags());
                f
            }),
        };
        if kind == InputKind::C {
            for d in &self.opts.include_dirs {
                flags.push(format!("-I{d}"));
            }
            for d in &self.opts.defines {
                flags.push(format!("-D{d}"));
            }
        }
        flags.extend(self.dependency_flags(object));
        flags.extend(self.host_compile_flags());
        // The language is Cuprite's decision (suffix or `-x`), not the host compiler's.
        let lang = if kind == InputKind::C { "c" } else { "c++" };
        flags.extend(["-x".into(), lang.into(), input.display().to_string(), "-o".into(), object.display().to_string()]);
        let deps = self.cache_dependency_flags(&mut flags, &object.with_extension("cache.d"));
        self.tools.run(&compiler, &flags)?;
        self.record_dependencies(deps.or_else(|| self.user_dependency_file(object)))
    }

    /// Links objects, the runtime library and the user's libraries into an executable.
    pub fn link(&self, objects: &[PathBuf], output: &Path) -> Result<(), String> {
        let mut flags: Vec<String> = vec!["-o".into(), output.display().to_string()];
        flags.extend(objects.iter().map(|o| o.display().to_string()));
        for d in &self.opts.lib_dirs {
            flags.push(format!("-L{d}"));
        }
        // The toolkit's library directory, spelled as `-v` printed it in LIBRARIES=.
        if let Some(p) = &self.prefix {
            flags.push(format!("-L{}", p.lib64().display()));
        }
        for l in &self.opts.libs {
            // Outside a toolkit prefix, `-lnvrtc` is Cuprite's NVRTC, built beside the driver.
            if l == "nvrtc" && self.prefix.is_none() {
                let lib = support_files::nvrtc_lib()?;
                flags.push(lib.display().to_string());
                flags.push(format!("-Wl,-rpath,{}", lib.parent().unwrap_or(Path::new(".")).display()));
                continue;
            }
            flags.push(format!("-l{l}"));
        }
        // A prefix's lib64 has the runtime under CUDA's names; elsewhere `-lcudart` and
        // its kind name Cuprite's runtime, linked below.
        if self.prefix.is_some() {
            flags.extend(self.opts.runtime_libs.iter().map(|l| format!("-l{l}")));
        }
        for x in &self.opts.xlinker {
            flags.push(format!("-Wl,{x}"));
        }
        if self.opts.shared {
            flags.push("-shared".into());
        }
        if self.opts.profile {
            flags.push("-pg".into());
        }
        flags.extend(self.opts.xcompiler.iter().filter(|f| f.starts_with("-f") || f.starts_with("-L") || f.starts_with("-l") || f.starts_with("-pthread") || f.starts_with("-Wl,") || *f == "-shared" || *f == "-static").cloned());
        flags.extend(self.runtime_link_flags()?);
        if !self.opts.shared {
            flags.push(crate::checked_rebuild::export_flag(&self.work)?);
        }
        self.tools.run(&self.tools.cxx, &flags)?;
        if crate::build_cache::recording() {
            self.record_link_inputs(&flags[2..]); // (after `-o OUTPUT`)
        }
        Ok(())
    }

    /// Notes for the build cache the files a link read: the objects and libraries named
    /// on its command line, and `-lNAME` found in the `-L` directories.
    fn record_link_inputs(&self, flags: &[String]) {
        let dirs: Vec<&str> = flags.iter().filter_map(|f| f.strip_prefix("-L")).collect();
        for f in flags {
            if let Some(name) = f.strip_prefix("-l") {
                for d in &dirs {
                    for lib in [format!("{d}/lib{name}.so"), format!("{d}/lib{name}.a")] {
                        if Path::new(&lib).is_file() {
                            crate::build_cache::record(lib);
                        }
                    }
                }
            } else if !f.starts_with('-') && Path::new(f).is_file() && !Path::new(f).starts_with(&self.work) {
                // (Objects in the work directory are this build's own, not its inputs.)
                crate::build_cache::record(f.as_str());
            }
        }
    }

    /// The runtime, as `-cudart` asks: static by default (the program depends on nothing
    /// but the C libraries), shared (`libcudart.so.13`, found through an rpath to the
    /// prefix's `lib64`), or none.
    fn runtime_link_flags(&self) -> Result<Vec<String>, String> {
        let system = ["-lrt", "-lpthread", "-ldl", "-lm"].iter().map(|s| s.to_string());
        Ok(match (self.cudart, &self.prefix) {
            // `-cudart none -lcudart` outside a prefix: the named runtime is Cuprite's.
            (Cudart::None, None) if self.opts.runtime_libs.iter().any(|l| l != "cudadevrt") => {
                let runtime = support_files::runtime_lib()?;
                std::iter::once(runtime.display().to_string()).chain(system).chain(std::iter::once("-lutil".to_string())).collect()
            }
            (Cudart::None, _) => Vec::new(),
            (Cudart::Static, Some(_)) => ["-lcudadevrt", "-lcudart_static"].iter().map(|s| s.to_string()).chain(system).collect(),
            (Cudart::Shared, Some(p)) => ["-lcudadevrt".to_string(), "-lcudart".into(), format!("-Wl,-rpath,{}", p.lib64().display())].into_iter().chain(system).collect(),
            (Cudart::Static, None) => {
                let runtime = support_files::runtime_lib()?;
                std::iter::once(runtime.display().to_string()).chain(system).chain(std::iter::once("-lutil".to_string())).collect()
            }
            (Cudart::Shared, None) => {
                return Err("-cudart shared needs a toolkit prefix: run `cuprite install --prefix DIR` and build with DIR/bin/nvcc".into())
            }
        })
    }
}

/// A key unique to a translation unit (its absolute path), for the names of its symbols
/// with internal linkage.
fn tu_key(input: &Path) -> String {
    use std::hash::{Hash, Hasher};
    let path = input.canonicalize().unwrap_or_else(|_| input.to_path_buf());
    let mut h = std::collections::hash_map::DefaultHasher::new();
    path.hash(&mut h);
    format!("{:016x}", h.finish())
}

fn read(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
    Ok(String::from_utf8_lossy(&bytes).into_owned())
}
