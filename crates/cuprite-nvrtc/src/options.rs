//! NVRTC's compile options, as nvcc options for Cuprite's driver (an unknown option is
//! NVRTC_ERROR_INVALID_OPTION, with the option named in the log).

/// Whether the options ask for a real architecture (`sm_XX`): only then is there a
/// CUBIN (NVRTC's default, and `compute_XX`, are virtual: nvrtcGetCUBINSize gives 0).
pub fn real_arch(options: &[String]) -> bool {
    options.iter().any(|o| o.contains("sm_")) && !options.iter().any(|o| o.contains("compute_"))
}

/// NVRTC adds the directory of the program's source (its name, as a path relative to the
/// process's working directory) to the include path unless `-no-source-include` is given:
/// cuda-samples' `*_nvrtc` programs find their headers beside the kernel file that way.
pub fn source_include_dir(options: &[String], program_name: &str) -> Option<std::path::PathBuf> {
    if options.iter().any(|o| matches!(o.as_str(), "--no-source-include" | "-no-source-include")) {
        return None;
    }
    let cwd = std::env::current_dir().ok()?;
    let parent = std::path::Path::new(program_name).parent().unwrap_or(std::path::Path::new(""));
    Some(cwd.join(parent))
}

/// What the options ask for: nvcc arguments, or the message for an option refused.
pub fn to_nvcc(options: &[String]) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut it = options.iter().peekable();
    while let Some(opt) = it.next() {
        let o = opt.as_str();
        // `-DNAME`, `-Idir`, `-UNAME` with the value attached.
        if let Some(flag) = ["-D", "-I", "-U"].into_iter().find(|f| o.len() > 2 && o.starts_with(f)) {
            out.push(format!("{flag}{}", &o[2..]));
            continue;
        }
        // `--name=value`, `-name=value`, or `-name value` for options with a value.
        let (name, inline) = match o.split_once('=') {
            Some((n, v)) => (n, Some(v.to_string())),
            None => (o, None),
        };
        let value = |it: &mut std::iter::Peekable<std::slice::Iter<String>>| -> Result<String, String> {
            inline.clone().or_else(|| it.next().cloned()).ok_or_else(|| format!("option '{name}' needs a value"))
        };
        match name {
            "--gpu-architecture" | "-arch" => {
                let v = value(&mut it)?;
                out.push(format!("-arch={}", v.replace("compute_", "sm_")));
            }
            "--include-path" | "-I" => out.push(format!("-I{}", value(&mut it)?)),
            "--define-macro" | "-D" => out.push(format!("-D{}", value(&mut it)?)),
            "--undefine-macro" | "-U" => out.push(format!("-U{}", value(&mut it)?)),
            "--pre-include" | "-include" => out.extend(["-include".to_string(), value(&mut it)?]),
            "--std" | "-std" => out.push(format!("-std={}", value(&mut it)?)),
            "--use_fast_math" | "-use_fast_math" => out.push("--use_fast_math".into()),
            "--device-debug" | "-G" => out.push("-G".into()),
            "--generate-line-info" | "-lineinfo" => out.push("-lineinfo".into()),
            "--fmad" | "-fmad" => out.push(format!("-fmad={}", value(&mut it)?)),
            "--ftz" | "-ftz" | "--prec-sqrt" | "-prec-sqrt" | "--prec-div" | "-prec-div" => {
                let n = name.trim_start_matches('-');
                out.push(format!("--{n}={}", value(&mut it)?));
            }
            "--disable-warnings" | "-w" => out.push("-w".into()),
            "--maxrregcount" | "-maxrregcount" | "--ptxas-options" | "-Xptxas" | "--dopt" | "-dopt" | "--time" | "-time" | "--split-compile" | "-split-compile" | "--fdevice-time-trace" | "-fdevice-time-trace" => {
                let _ = value(&mut it)?;
            }
            // Accepted: they steer what the GPU's code generator does, or how NVRTC
            // parses (functions without an execution space are host functions here; a
            // call to one from device code is an error naming it).
            "--device-as-default-execution-space" | "-default-device" | "--extra-device-vectorization" | "-extra-device-vectorization" | "--restrict" | "-restrict" | "--builtin-move-forward" | "-builtin-move-forward" | "--builtin-initializer-list" | "-builtin-initializer-list" | "--device-int128" | "-device-int128" | "--dlink-time-opt" | "-dlto" | "--optimization-info" | "-opt-info" | "--display-error-number" | "-err-no" | "--no-display-error-number" | "-no-err-no" | "--minimal" | "-minimal" | "-Werror" | "--Werror" => {
                if inline.is_some() && matches!(name, "--Werror" | "-Werror") {
                    out.push("-Werror".into());
                    out.push("all-warnings".into());
                }
            }
            // Read by `source_include_dir`.
            "--no-source-include" | "-no-source-include" => {}
            "--relocatable-device-code" | "-rdc" | "--device-c" | "-dc" | "--device-w" | "-dw" => {
                let v = if name.ends_with("rdc") || name.ends_with("code") { value(&mut it)? } else { "true".into() };
                if v == "true" {
                    return Err(format!("option '{o}': relocatable device code from NVRTC (for nvJitLink) is not supported yet"));
                }
            }
            _ => return Err(format!("unrecognized option {o} found")),
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn s(v: &[&str]) -> Vec<String> {
        v.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn nvrtc_options_become_nvcc_options() {
        let got = to_nvcc(&s(&["--gpu-architecture=compute_80", "-I", "inc", "-DN=4", "-std=c++17", "--use_fast_math", "-default-device", "-lineinfo"])).unwrap();
        assert_eq!(got, s(&["-arch=sm_80", "-Iinc", "-DN=4", "-std=c++17", "--use_fast_math", "-lineinfo"]));
        assert_eq!(to_nvcc(&s(&["-arch", "sm_90"])).unwrap(), s(&["-arch=sm_90"]));
        assert_eq!(to_nvcc(&s(&["--frobnicate"])).unwrap_err(), "unrecognized option --frobnicate found");
        assert!(to_nvcc(&s(&["-rdc=true"])).is_err());
    }
}
