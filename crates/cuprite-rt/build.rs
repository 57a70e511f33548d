fn main() {
    println!("cargo:rerun-if-changed=csrc");
    println!("cargo:rerun-if-changed=../../include");
    cc::Build::new()
        .file("csrc/guard.c")
        .file("csrc/props.c")
        .include("csrc")
        .include("../../include")
        .flag_if_supported("-std=gnu11")
        .warnings(true)
        .compile("cuprite_guard");
}
