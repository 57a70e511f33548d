//! The command-line defects of issue 9, one test each.

use super::*;

fn parse(args: &[&str]) -> Result<Options, String> {
    Options::parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
}

fn ok(args: &[&str]) -> Options {
    parse(args).unwrap_or_else(|e| panic!("{args:?}: {e}"))
}

#[test]
fn nvcc_style_flags() {
    let o = ok(&["-arch=sm_80", "-O2", "-Iinc", "-DN=4", "-Xcompiler", "-fopenmp,-Wall", "-o", "a", "x.cu", "-lm"]);
    assert_eq!(o.compute_capability().unwrap(), 80);
    assert_eq!(o.opt_level().unwrap(), 2);
    assert_eq!(o.include_dirs, vec!["inc"]);
    assert_eq!(o.defines, vec!["N=4"]);
    assert_eq!(o.xcompiler, vec!["-fopenmp", "-Wall"]);
    assert_eq!(o.libs, vec!["m"]);
    assert_eq!(o.inputs, vec![PathBuf::from("x.cu")]);
}

#[test]
fn long_and_short_spellings_with_one_or_two_dashes() {
    for args in [&["--gpu-architecture", "sm_86", "x.cu"][..], &["-arch", "sm_86", "x.cu"], &["--arch=sm_86", "x.cu"], &["-gpu-architecture=sm_86", "x.cu"]] {
        assert_eq!(ok(args).compute_capability().unwrap(), 86, "{args:?}");
    }
}

#[test]
fn gencode_sets_arch() {
    assert_eq!(ok(&["-gencode", "arch=compute_75,code=sm_75", "x.cu"]).compute_capability().unwrap(), 75);
    // Several images: the program runs as the oldest, whatever the order (CMake's
    // multi-architecture lines).
    let multi = ["--generate-code=arch=compute_90,code=[compute_90,sm_90]", "--generate-code=arch=compute_75,code=[compute_75,sm_75]", "x.cu"];
    assert_eq!(ok(&multi).compute_capability().unwrap(), 75);
    let multi = ["-gencode", "arch=compute_80,code=sm_80", "-gencode", "arch=compute_90,code=sm_90", "x.cu"];
    assert_eq!(ok(&multi).compute_capability().unwrap(), 80);
}

/// `__CUDA_ARCH_LIST__` as nvcc 13.0 defines it (`--dryrun` on the GPU machine:
/// `-arch=sm_90` → 900, `-arch=sm_75` → 750, two `-gencode`s for 80 and 90 → 800,900).
#[test]
fn virtual_arch_list_is_nvccs() {
    assert_eq!(ok(&["-arch=sm_90", "x.cu"]).virtual_arch_list(), vec![900]);
    assert_eq!(ok(&["x.cu"]).virtual_arch_list(), vec![crate::DEFAULT_ARCH * 10]);
    let multi = ["-gencode", "arch=compute_90,code=sm_90", "-gencode", "arch=compute_80,code=sm_80", "x.cu"];
    assert_eq!(ok(&multi).virtual_arch_list(), vec![800, 900]);
    let cmake = ["--generate-code=arch=compute_90,code=[compute_90,sm_90]", "--generate-code=arch=compute_75,code=[compute_75,sm_75]", "x.cu"];
    assert_eq!(ok(&cmake).virtual_arch_list(), vec![750, 900]);
}

#[test]
fn unknown_flag_is_an_error() {
    assert_eq!(parse(&["-frobnicate", "x.cu"]).unwrap_err(), "Unknown option '-frobnicate'");
}

#[test]
fn program_args_after_double_dash() {
    assert_eq!(ok(&["x.cu", "--", "-n", "5"]).program_args, vec!["-n", "5"]);
}

#[test]
fn xcompiler_werror_stays_werror() {
    let o = ok(&["-Xcompiler", "-Werror", "-c", "x.cu"]);
    assert_eq!(o.xcompiler, vec!["-Werror"]);
    assert!(o.warnings_are_errors);
}

#[test]
fn xcompiler_splits_spaces_and_commas() {
    assert_eq!(ok(&["-Xcompiler", "-Wall -Wextra", "x.cu"]).xcompiler, vec!["-Wall", "-Wextra"]);
    assert_eq!(ok(&["-Xcompiler", "-O2,-g", "--compiler-options=-fPIC", "x.cu"]).xcompiler, vec!["-O2", "-g", "-fPIC"]);
    assert_eq!(ok(&["-Xlinker", "-rpath,/opt/lib", "x.cu"]).xlinker, vec!["-rpath", "/opt/lib"]);
}

#[test]
fn multi_letter_short_options_are_not_split() {
    assert_eq!(ok(&["-cubin", "x.cu"]).module_output, Some("cubin"));
    assert!(ok(&["-lib", "x.cu"]).lib);
    let o = ok(&["-odir", "objs", "-c", "x.cu"]);
    assert_eq!(o.output_dir, Some(PathBuf::from("objs")));
    assert_eq!(o.output, None);
    assert!(ok(&["-lineinfo", "x.cu"]).libs.is_empty());
}

#[test]
fn options_files_are_read() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("opts.rsp");
    std::fs::write(&f, "-O1 -DNAME=\"a b\"\n-Iinc").unwrap();
    for flag in ["-optf", "--options-file"] {
        let o = ok(&[flag, f.to_str().unwrap(), "x.cu"]);
        assert_eq!(o.opt.as_deref(), Some("1"));
        assert_eq!(o.defines, vec!["NAME=a b"]);
        assert_eq!(o.include_dirs, vec!["inc"]);
    }
}

#[test]
fn options_nvcc_lacked_in_cuprite_are_known() {
    assert!(ok(&["-shared", "x.cu"]).shared);
    ok(&["-t", "4", "x.cu"]);
    ok(&["--threads", "4", "x.cu"]);
    assert!(ok(&["--list-gpu-arch"]).list_gpu_arch);
    assert!(ok(&["--list-gpu-code"]).list_gpu_code);
    for (f, ext) in [("-ptx", "ptx"), ("-fatbin", "fatbin"), ("--ptx", "ptx")] {
        assert_eq!(ok(&[f, "x.cu"]).module_output, Some(ext), "{f}");
    }
}

#[test]
fn separable_compilation_options_are_implemented() {
    let o = ok(&["-dc", "x.cu"]);
    assert!(o.dc && o.refused.is_none() && o.relocatable().unwrap());
    assert!(ok(&["-rdc=true", "-c", "x.cu"]).relocatable().unwrap());
    assert!(ok(&["--relocatable-device-code", "true", "-c", "x.cu"]).relocatable().unwrap());
    assert!(!ok(&["-c", "x.cu"]).relocatable().unwrap());
    assert_eq!(parse(&["-rdc=maybe", "x.cu"]).unwrap_err(), "Value 'maybe' is not defined for option 'relocatable-device-code'");
    for f in ["-dlink", "--device-link"] {
        let o = ok(&[f, "a.o", "b.o", "-o", "d.o"]);
        assert!(o.dlink && o.refused.is_none(), "{f}");
    }
    let o = ok(&["-dlto", "-dlink", "a.o"]);
    assert!(o.refused.is_none() && o.notes.is_empty());
    let o = ok(&["-dw", "x.cu"]);
    assert!(o.compile_only && !o.relocatable().unwrap());
    let e = ok(&["-dc", "a.cu", "b.cu", "-o", "x.o"]).validate().unwrap_err();
    assert!(e.starts_with("A single input file is required"), "{e}");
}

#[test]
fn compile_with_output_and_several_inputs_is_refused_as_nvcc() {
    let e = ok(&["-c", "a.cu", "b.cu", "-o", "x.o"]).validate().unwrap_err();
    assert_eq!(e, "A single input file is required for a non-link phase when an outputfile is specified");
    ok(&["-c", "a.cu", "b.cu"]).validate().unwrap();
    ok(&["a.cu", "b.cu", "-o", "app"]).validate().unwrap();
}

#[test]
fn forward_unknown_to_host_compiler() {
    let o = ok(&["--forward-unknown-to-host-compiler", "-fopenmp", "-march=native", "x.cu"]);
    assert_eq!(o.xcompiler, vec!["-fopenmp", "-march=native"]);
    assert_eq!(o.inputs, vec![PathBuf::from("x.cu")]);
    let o = ok(&["-forward-unknown-to-host-linker", "--as-needed", "x.cu"]);
    assert_eq!(o.xlinker, vec!["--as-needed"]);
}

#[test]
fn language_std_and_dependency_options() {
    assert_eq!(ok(&["-x", "c++", "t.cpp"]).language.as_deref(), Some("c++"));
    assert_eq!(parse(&["-x", "fortran", "t.f"]).unwrap_err(), "Value 'fortran' is not defined for option 'x'");
    assert_eq!(ok(&["-std=c++20", "x.cu"]).std_flag(), "-std=c++20");
    assert_eq!(parse(&["-std=c++23", "x.cu"]).unwrap_err(), "Value 'c++23' is not defined for option 'std'");
    let o = ok(&["-MD", "-MF", "x.d", "-MT", "x.o", "-MP", "-c", "x.cu"]);
    assert!(o.deps_md && o.deps_phony);
    assert_eq!(o.deps_file, Some(PathBuf::from("x.d")));
    let o = ok(&["-MM", "x.cu"]);
    assert!(o.deps_only && o.deps_nonsystem);
    assert!(ok(&["-E", "x.cu"]).preprocess_only);
    assert_eq!(ok(&["-ccbin", "g++-13", "x.cu"]).ccbin.as_deref(), Some("g++-13"));
    assert_eq!(ok(&["-isystem", "/opt/inc", "-include", "pre.h", "x.cu"]).pre_includes, vec!["pre.h"]);
}

#[test]
fn runtime_libraries_are_cupritess_own() {
    let o = ok(&["-L/opt/lib", "-lcudart", "-l", "m,pthread", "-lcudart_static", "x.cu"]);
    assert_eq!(o.lib_dirs, vec!["/opt/lib"]);
    assert_eq!(o.libs, vec!["m", "pthread"]);
    assert_eq!(o.runtime_libs, vec!["cudart", "cudart_static"]);
}

#[test]
fn cudart_kinds() {
    assert_eq!(ok(&["x.cu"]).cudart().unwrap(), Cudart::Static);
    assert_eq!(ok(&["-cudart", "shared", "x.cu"]).cudart().unwrap(), Cudart::Shared);
    assert_eq!(ok(&["--cudart=none", "x.cu"]).cudart().unwrap(), Cudart::None);
    assert_eq!(parse(&["-cudart=bogus", "x.cu"]).unwrap_err(), "Value 'bogus' is not defined for option 'cudart'");
    ok(&["-cudadevrt", "static", "x.cu"]);
}

#[test]
fn dependency_and_system_include_flags() {
    let o = ok(&["-MD", "-MT", "x.o", "-MF", "x.d", "-isystem", "/a", "-isystem/b", "--system-include=/c", "-MP", "x.cu"]);
    assert!(o.deps_md && o.deps_phony);
    assert_eq!(o.deps_target.as_deref(), Some("x.o"));
    assert_eq!(o.deps_file, Some(PathBuf::from("x.d")));
    assert_eq!(o.system_include_dirs, vec!["/a", "/b", "/c"]);
    // nvcc's long names of the -M family.
    let o = ok(&[
        "--generate-nonsystem-dependencies-with-compile",
        "--dependency-output",
        "y.d",
        "--dependency-target-name=y.o",
        "--generate-dependency-targets",
        "-c",
        "x.cu",
    ]);
    assert!(o.deps_mmd && o.deps_nonsystem && o.deps_phony);
    assert_eq!((o.deps_file, o.deps_target.as_deref()), (Some(PathBuf::from("y.d")), Some("y.o")));
    let o = ok(&["--generate-dependencies", "x.cu", "-o", "x.d"]);
    assert!(o.deps_only && !o.deps_nonsystem);
    assert_eq!(o.output, Some(PathBuf::from("x.d")));
    let o = ok(&["--generate-nonsystem-dependencies", "x.cu"]);
    assert!(o.deps_only && o.deps_nonsystem);
}

#[test]
fn options_files_quote_as_a_shell() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("includes.rsp");
    std::fs::write(&f, "-I\"/a b\" -DX='1 2'\n  -Ic\n").unwrap();
    let o = ok(&["--options-file", f.to_str().unwrap(), "x.cu"]);
    assert_eq!(o.include_dirs, vec!["/a b", "c"]);
    assert_eq!(o.defines, vec!["X=1 2"]);
    let o = ok(&[&format!("-optf={}", f.display()), "x.cu"]);
    assert_eq!(o.include_dirs, vec!["/a b", "c"]);
}

#[test]
fn unknown_options_go_to_the_host_compiler_only_on_request() {
    let o = ok(&["-forward-unknown-to-host-compiler", "-pthread", "-fopenmp", "x.cu"]);
    assert_eq!(o.xcompiler, vec!["-pthread", "-fopenmp"]);
    assert_eq!(parse(&["-pthread", "x.cu"]).unwrap_err(), "Unknown option '-pthread'");
}

#[test]
fn gpu_only_options_are_accepted() {
    let o = ok(&["-G", "-lineinfo", "--expt-relaxed-constexpr", "--extended-lambda", "-maxrregcount=32", "-Xptxas", "-v", "x.cu"]);
    assert!(o.device_debug);
    assert_eq!(o.notes, vec!["'--device-debug (-G)' overrides '--generate-line-info (-lineinfo)'"]);
    assert_eq!(o.xptxas, vec!["-v"]);
}

#[test]
fn werror_kinds() {
    assert!(ok(&["-Werror", "all-warnings", "x.cu"]).warnings_are_errors);
    assert_eq!(parse(&["-Werror=bogus", "x.cu"]).unwrap_err(), "Value 'bogus' is not defined for option 'Werror'");
}

#[test]
fn template_depth() {
    assert_eq!(ok(&["x.cu"]).template_depth, 900);
    assert_eq!(ok(&["-ftemplate-depth", "1200", "x.cu"]).template_depth, 1200);
}

#[test]
fn help_lists_every_option_and_why() {
    let text = help::help_text();
    for o in table::OPTIONS {
        assert!(text.contains(&format!("--{}", o.long)), "--help misses {}", o.long);
        if let How::Ignored(why) | How::Refused(why) = o.how {
            assert!(text.contains(why));
        }
    }
    assert!(text.contains("cuprite run"));
}

#[test]
fn every_used_option_has_a_handler() {
    for o in table::OPTIONS.iter().filter(|o| o.how == How::Used) {
        let value = match o.arg {
            table::Arg::None => None,
            _ => Some(table::allowed(o).map_or("1".to_string(), |a| a[0].to_string())),
        };
        let mut args = vec![format!("--{}", o.long)];
        args.extend(value);
        if o.long == "options-file" || o.long == "Werror" || o.long == "machine" {
            continue;
        }
        if let Err(e) = Options::parse(&args) {
            assert!(!e.contains("internal error"), "{}: {e}", o.long);
        }
    }
}
