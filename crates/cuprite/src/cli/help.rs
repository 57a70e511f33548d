//! `--help`, `--list-gpu-arch`, `--list-gpu-code`: generated from the option table, so
//! what they say is what the parser does.

use super::table::{Arg, How, OPTIONS};
use std::fmt::Write;

pub fn help_text() -> String {
    let mut s = String::new();
    s.push_str("Usage: cuprite [options] <inputs>\n");
    s.push_str("       cuprite run [options] <file.cu> [-- <program arguments>]\n");
    s.push_str("       cuprite run --sanitize[=memcheck|racecheck|synccheck|initcheck] [--leak-check=full] <file.cu> [-- <args>]\n");
    s.push_str("       cuprite sanitize [--tool TOOL] [--leak-check full] [--error-exitcode N] <program|file.cu> [args]\n");
    s.push_str("       cuprite install --prefix <DIR>\n\n");
    s.push_str("Cuprite compiles CUDA programs to run on the CPU. It takes nvcc's command line:\n");
    s.push_str("inputs are .cu, .cpp/.cc/.cxx, .c, .o, .a and .so files; 'cuprite run' builds a\n");
    s.push_str("temporary program, runs it with the arguments after '--' and passes its output\n");
    s.push_str("and exit code through. 'cuprite install --prefix DIR' writes a CUDA toolkit\n");
    s.push_str("directory (DIR/bin/nvcc, include/, lib64/) for CMake, Makefiles and 'g++ -lcudart';\n");
    s.push_str("invoked as 'nvcc', the binary is nvcc only ('run' and 'install' are inputs then).\n");
    s.push_str("'--sanitize' builds device code with compute-sanitizer's checks; 'cuprite sanitize'\n");
    s.push_str("runs a program so built (or builds a .cu file so) under the chosen tool.\n\n");
    s.push_str("Options may be written with one or two dashes, by their long or short name, with\n");
    s.push_str("the value after a space or '=' (one-letter options also attached: -Iinc, -lm,\n");
    s.push_str("-O3). Options marked 'accepted, ignored' have no effect on the CPU, for the\n");
    s.push_str("reason given; options marked 'refused' stop the build with that reason.\n\n");
    for o in OPTIONS {
        let value = match o.arg {
            Arg::None => String::new(),
            Arg::One(m) => format!(" <{m}>"),
            Arg::List(m) => format!(" <{m}>,..."),
        };
        let _ = writeln!(s, "--{}{value}  (-{})", o.long, o.short);
        let _ = writeln!(s, "        {}", o.help);
        match o.how {
            How::Used => {}
            How::Ignored(why) => {
                let _ = writeln!(s, "        Accepted, ignored: {why}.");
            }
            How::Refused(why) => {
                let _ = writeln!(s, "        Refused: {why}.");
            }
        }
        s.push('\n');
    }
    s
}

pub fn print_help() {
    print!("{}", help_text());
}

pub fn print_list_gpu_arch() {
    for a in super::GPU_ARCHS {
        println!("compute_{a}");
    }
}

pub fn print_list_gpu_code() {
    for a in super::GPU_ARCHS {
        println!("sm_{a}");
    }
}
