//! NVIDIA PTX text given to `cuModuleLoad*`: the PTX front-end (`cuprite_ptx`) lowers it
//! to the IR, the CPU back-end turns that into C, and the result is a module image like
//! the ones Cuprite writes, loaded the same way (`loader`).

use cuprite_image::Image;

/// The image for a PTX module; on failure, the reason (the PTX line and what is wrong).
pub fn image_from_ptx(data: &[u8]) -> Result<Image, String> {
    let text = std::str::from_utf8(data).map_err(|_| "the PTX is not valid UTF-8 text".to_string())?;
    let text = text.trim_end_matches('\0');
    let parsed = cuprite_ptx::parse::parse_module(text).map_err(|e| format!("PTX line {}:{}: {}", e.loc.line, e.loc.col, e.message))?;
    if let Some((major, minor)) = parsed.version {
        let (max_major, max_minor) = cuprite_ptx::isa::Target::ISA_VERSION;
        if (major, minor) > (max_major, max_minor) {
            return Err(format!("PTX ISA version {major}.{minor} is newer than this driver supports ({max_major}.{max_minor})"));
        }
    }
    let arch = parsed
        .target
        .iter()
        .find_map(|t| t.strip_prefix("sm_").map(|n| n.trim_end_matches(['a', 'f']).parse::<u32>().ok()))
        .flatten()
        .unwrap_or(cuprite_ptx::isa::Target::OLDEST_SM);
    let module = cuprite_ptx::lower::module::lower_module(&parsed).map_err(|e| format!("PTX line {}:{}: {}", e.loc.line, e.loc.col, e.message))?;
    let opts = cuprite_cpu::EmitOptions { line_directives: false, source_name: "<PTX module>".into(), checks: false };
    let emitted = cuprite_cpu::emit(&module, &opts).map_err(|errs| errs.iter().map(|e| e.message.clone()).collect::<Vec<_>>().join("; "))?;
    let mut c_source = emitted.c;
    c_source.push_str(&format!("\n__attribute__((constructor)) static void __cuprite_select_arch(void) {{ __cuprite_set_target_arch({arch}u); }}\n"));
    c_source.push_str(&cuprite_cpu::module_symbol_definitions(&module));
    Ok(Image { origin: "PTX module".into(), arch, c_source, c_flags: cuprite_cpu::c_compiler_flags(2), ir: Vec::new() })
}
