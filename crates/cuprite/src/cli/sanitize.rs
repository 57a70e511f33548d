//! Checking mode's command line: `cuprite run --sanitize[=TOOL] [--leak-check=full]
//! file.cu [-- args]`, `cuprite --sanitize …` (a build whose device code is checked), and
//! `cuprite sanitize --tool TOOL [--leak-check full] [--error-exitcode N] PROGRAM [args]`
//! with compute-sanitizer's option spellings. The tool is chosen at run time (the
//! runtime reads `CUPRITE_SANITIZE*`), so one checked build serves all four tools.
//!
//! The profiler shares the instrumented build: `cuprite run --profile [--profile-trace
//! FILE] file.cu` and `cuprite prof [--profile-trace FILE] PROGRAM|file.cu [args]` run
//! with `CUPRITE_PROFILE=1` (`CUPRITE_PROFILE_TRACE=FILE`) instead of a checking tool;
//! outside `cuprite run`, `--profile` keeps nvcc's meaning (gprof).

use std::path::PathBuf;

/// compute-sanitizer's tools.
pub const TOOLS: &[&str] = &["memcheck", "racecheck", "synccheck", "initcheck"];

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    pub tool: String,
    pub leak_check: bool,
    pub error_exitcode: Option<i32>,
    /// Profile instead of checking (`--profile`), and where the trace goes.
    pub profile: bool,
    pub trace: Option<String>,
}

impl Settings {
    fn new() -> Settings {
        Settings { tool: "memcheck".into(), leak_check: false, error_exitcode: None, profile: false, trace: None }
    }

    /// The environment the program runs with: what the runtime's checker reads.
    pub fn env(&self) -> Vec<(String, String)> {
        if self.profile {
            let mut v = vec![("CUPRITE_PROFILE".to_string(), "1".to_string())];
            if let Some(t) = &self.trace {
                v.push(("CUPRITE_PROFILE_TRACE".into(), t.clone()));
            }
            return v;
        }
        let mut v = vec![("CUPRITE_SANITIZE".to_string(), self.tool.clone())];
        if self.leak_check {
            v.push(("CUPRITE_SANITIZE_LEAK_CHECK".into(), "full".into()));
        }
        if let Some(n) = self.error_exitcode {
            v.push(("CUPRITE_SANITIZE_ERROR_EXITCODE".into(), n.to_string()));
        }
        v
    }

    fn set_tool(&mut self, t: &str) -> Result<(), String> {
        if !TOOLS.contains(&t) {
            return Err(format!("Value '{t}' is not defined for option 'tool' (one of {})", TOOLS.join(", ")));
        }
        self.tool = t.to_string();
        Ok(())
    }

    fn set_leak_check(&mut self, v: &str) -> Result<(), String> {
        match v {
            "full" => self.leak_check = true,
            "no" => self.leak_check = false,
            _ => return Err(format!("Value '{v}' is not defined for option 'leak-check' (full or no)")),
        }
        Ok(())
    }
}

/// Takes `--sanitize[=TOOL]` and `--leak-check[=]full|no` out of a build's command line
/// (before `--`, which starts the program's arguments), and under `cuprite run` also
/// `--profile` and `--profile-trace FILE` (elsewhere `--profile` is nvcc's, gprof's);
/// `Some` when checking or profiling is asked.
pub fn take_build_flags(args: &mut Vec<String>, run_mode: bool) -> Result<Option<Settings>, String> {
    let mut s = Settings::new();
    let (mut asked, mut profile) = (false, false);
    let end = args.iter().position(|a| a == "--").unwrap_or(args.len());
    let mut kept = Vec::new();
    let mut i = 0;
    while i < end {
        let a = args[i].as_str();
        if a == "--sanitize" || a == "-sanitize" {
            asked = true;
        } else if let Some(t) = a.strip_prefix("--sanitize=").or_else(|| a.strip_prefix("-sanitize=")) {
            asked = true;
            s.set_tool(t)?;
        } else if let Some(v) = a.strip_prefix("--leak-check=") {
            s.set_leak_check(v)?;
        } else if a == "--leak-check" {
            i += 1;
            s.set_leak_check(args.get(i).map(String::as_str).unwrap_or(""))?;
        } else if run_mode && a == "--profile" {
            profile = true;
        } else if let Some(f) = a.strip_prefix("--profile-trace=").filter(|_| run_mode) {
            (profile, s.trace) = (true, Some(f.to_string()));
        } else if run_mode && a == "--profile-trace" {
            i += 1;
            let f = args.get(i).filter(|_| i < end).ok_or("--profile-trace needs a file name")?;
            (profile, s.trace) = (true, Some(f.clone()));
        } else {
            kept.push(args[i].clone());
        }
        i += 1;
    }
    if s.leak_check && !asked {
        return Err("--leak-check needs --sanitize".into());
    }
    if asked && profile {
        return Err("--profile and --sanitize cannot be used together".into());
    }
    kept.extend(args.drain(end..));
    *args = kept;
    s.profile = profile;
    Ok((asked || profile).then_some(s))
}

/// `cuprite sanitize …`: the settings, the program (a built executable, or a `.cu` file
/// to build checked first) and its arguments.
#[derive(Debug, PartialEq, Eq)]
pub struct SanitizeCommand {
    pub settings: Settings,
    pub program: PathBuf,
    pub args: Vec<String>,
}

pub const SANITIZE_USAGE: &str = "Usage: cuprite sanitize [--tool memcheck|racecheck|synccheck|initcheck] [--leak-check full|no] [--error-exitcode N] <program or file.cu> [program arguments]";

/// Parses `cuprite sanitize`'s arguments (without the subcommand): options until the
/// first word that is not one, as compute-sanitizer does.
pub fn parse_sanitize(args: &[String]) -> Result<SanitizeCommand, String> {
    let mut s = Settings::new();
    let mut i = 0;
    let value = |i: &mut usize, name: &str| -> Result<String, String> {
        let a = &args[*i];
        if let Some((_, v)) = a.split_once('=') {
            return Ok(v.to_string());
        }
        *i += 1;
        args.get(*i).cloned().ok_or_else(|| format!("option '{name}' needs a value"))
    };
    while i < args.len() {
        let a = args[i].as_str();
        let name = a.split('=').next().unwrap_or(a);
        match name {
            "--tool" => {
                let v = value(&mut i, "tool")?;
                s.set_tool(&v)?
            }
            "--leak-check" => {
                let v = value(&mut i, "leak-check")?;
                s.set_leak_check(&v)?
            }
            "--error-exitcode" => {
                let v = value(&mut i, "error-exitcode")?;
                s.error_exitcode = Some(v.parse().map_err(|_| format!("Value '{v}' is not a valid exit code"))?);
            }
            "--" => {
                i += 1;
                break;
            }
            _ if a.starts_with('-') => return Err(format!("unknown option '{a}'\n{SANITIZE_USAGE}")),
            _ => break,
        }
        i += 1;
    }
    let program = args.get(i).ok_or_else(|| format!("no program to run\n{SANITIZE_USAGE}"))?;
    Ok(SanitizeCommand { settings: s, program: PathBuf::from(program), args: args[i + 1..].to_vec() })
}

pub const PROF_USAGE: &str = "Usage: cuprite prof [--profile-trace FILE] <program or file.cu> [program arguments]";

/// Parses `cuprite prof`'s arguments (without the subcommand).
pub fn parse_prof(args: &[String]) -> Result<SanitizeCommand, String> {
    let mut s = Settings::new();
    s.profile = true;
    let mut i = 0;
    while i < args.len() {
        let a = args[i].as_str();
        if let Some(f) = a.strip_prefix("--profile-trace=") {
            s.trace = Some(f.to_string());
        } else if a == "--profile-trace" {
            i += 1;
            s.trace = Some(args.get(i).cloned().ok_or("--profile-trace needs a file name")?);
        } else if a == "--" {
            i += 1;
            break;
        } else if a.starts_with('-') {
            return Err(format!("unknown option '{a}'\n{PROF_USAGE}"));
        } else {
            break;
        }
        i += 1;
    }
    let program = args.get(i).ok_or_else(|| format!("no program to run\n{PROF_USAGE}"))?;
    Ok(SanitizeCommand { settings: s, program: PathBuf::from(program), args: args[i + 1..].to_vec() })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn v(s: &[&str]) -> Vec<String> {
        s.iter().map(|x| x.to_string()).collect()
    }

    #[test]
    fn run_flags_are_taken_before_the_program_arguments() {
        let mut a = v(&["--sanitize=racecheck", "-O2", "k.cu", "--", "--sanitize"]);
        let s = take_build_flags(&mut a, true).unwrap().unwrap();
        assert_eq!(s.tool, "racecheck");
        assert_eq!(a, v(&["-O2", "k.cu", "--", "--sanitize"]));
        let mut b = v(&["--sanitize", "--leak-check=full", "k.cu"]);
        let s = take_build_flags(&mut b, true).unwrap().unwrap();
        assert_eq!((s.tool.as_str(), s.leak_check), ("memcheck", true));
        assert!(take_build_flags(&mut v(&["k.cu"]), true).unwrap().is_none());
        assert!(take_build_flags(&mut v(&["--sanitize=nope", "k.cu"]), true).is_err());
        let mut p = v(&["--profile-trace", "t.json", "k.cu", "--", "x"]);
        let s = take_build_flags(&mut p, true).unwrap().unwrap();
        assert!(s.profile);
        assert_eq!(p, v(&["k.cu", "--", "x"]));
        assert_eq!(s.env(), vec![("CUPRITE_PROFILE".to_string(), "1".to_string()), ("CUPRITE_PROFILE_TRACE".to_string(), "t.json".to_string())]);
        assert!(take_build_flags(&mut v(&["--profile", "--sanitize", "k.cu"]), true).is_err());
        // Outside `cuprite run`, `--profile` is nvcc's (gprof) and stays.
        let mut g = v(&["--profile", "k.cu"]);
        assert!(take_build_flags(&mut g, false).unwrap().is_none());
        assert_eq!(g, v(&["--profile", "k.cu"]));
    }

    #[test]
    fn prof_command_takes_the_trace_file_and_the_program() {
        let c = parse_prof(&v(&["--profile-trace=t.json", "./app", "1"])).unwrap();
        assert!(c.settings.profile);
        assert_eq!(c.settings.trace.as_deref(), Some("t.json"));
        assert_eq!((c.program, c.args), (PathBuf::from("./app"), v(&["1"])));
        assert!(parse_prof(&v(&["--bogus", "./app"])).is_err());
    }

    #[test]
    fn sanitize_command_reads_compute_sanitizers_options() {
        let c = parse_sanitize(&v(&["--tool", "initcheck", "--leak-check", "full", "--error-exitcode=3", "./app", "-x", "1"])).unwrap();
        assert_eq!(c.settings, Settings { tool: "initcheck".into(), leak_check: true, error_exitcode: Some(3), profile: false, trace: None });
        assert_eq!(c.program, PathBuf::from("./app"));
        assert_eq!(c.args, v(&["-x", "1"]));
        assert_eq!(parse_sanitize(&v(&["./app"])).unwrap().settings.tool, "memcheck");
        assert!(parse_sanitize(&v(&["--tool", "memcheck"])).is_err());
        assert!(parse_sanitize(&v(&["--bogus", "./app"])).is_err());
    }
}
