//! Separable compilation (`-rdc=true`, `-dc`, `-dlink`): relocatable device code.
//!
//! With `-rdc`, a `.cu` file's object holds its host code as usual and its device code as
//! Cuprite IR, in the section `.cuprite_device_ir`, instead of generated device code. The
//! device code of a whole program is generated when it is linked — by `cuprite` linking
//! objects (as nvcc does), or by `cuprite -dlink` writing a device object for another
//! linker (CMake's rule) — from the IR of every input object and static library, linked
//! with `cuprite_ir::link`. So an `extern __device__` function may be defined in another
//! translation unit, and a barrier inside it still works (it is inlined at device link).
//!
//! The section holds one frame per translation unit: a magic string, the payload's
//! length, and the payload (bincode). `ld -r` and `ar` concatenate frames, so one object
//! may hold several.

use cuprite_ir::link::Unit;
use cuprite_ir::Module;
use object::read::archive::ArchiveFile;
use object::{Object, ObjectSection};
use std::path::{Path, PathBuf};

pub const SECTION: &str = ".cuprite_device_ir";
const MAGIC: &[u8; 16] = b"CUPRITE-DEVIR-01";

#[derive(serde::Serialize, serde::Deserialize)]
struct Payload {
    origin: String,
    module: Module,
}

/// The section contents for one translation unit.
pub fn encode(origin: &str, module: &Module) -> Result<Vec<u8>, String> {
    let payload = Payload { origin: origin.to_string(), module: module.clone() };
    let body = bincode::serialize(&payload).map_err(|e| format!("internal error: cannot encode device code: {e}"))?;
    let mut out = MAGIC.to_vec();
    out.extend((body.len() as u64).to_le_bytes());
    out.extend(body);
    Ok(out)
}

/// Every frame of a section's contents (padding between frames is skipped).
fn decode(mut data: &[u8], file: &Path) -> Result<Vec<Unit>, String> {
    let bad = || format!("{}: the device code in section {SECTION} is damaged or from another version of Cuprite; rebuild it", file.display());
    let mut units = Vec::new();
    loop {
        while data.first() == Some(&0) {
            data = &data[1..];
        }
        if data.is_empty() {
            return Ok(units);
        }
        if data.len() < 24 || &data[..16] != MAGIC {
            return Err(bad());
        }
        let len = u64::from_le_bytes(data[16..24].try_into().unwrap()) as usize;
        let body = data.get(24..24 + len).ok_or_else(bad)?;
        let p: Payload = bincode::deserialize(body).map_err(|_| bad())?;
        units.push(Unit { origin: p.origin, module: p.module });
        data = &data[24 + len..];
    }
}

fn units_in_object(data: &[u8], file: &Path) -> Result<Vec<Unit>, String> {
    units_in_section(data, SECTION, file)
}

/// The frames of section `section` of an object or executable (none without it).
pub fn units_in_section(data: &[u8], section: &str, file: &Path) -> Result<Vec<Unit>, String> {
    let Ok(obj) = object::File::parse(data) else { return Ok(Vec::new()) };
    match obj.section_by_name(section) {
        Some(s) => decode(s.data().map_err(|e| format!("{}: {e}", file.display()))?, file),
        None => Ok(Vec::new()),
    }
}

/// The device code units in an object file or a static library (none in other files).
pub fn units_in(file: &Path) -> Result<Vec<Unit>, String> {
    let data = std::fs::read(file).map_err(|e| format!("cannot read {}: {e}", file.display()))?;
    if let Ok(ar) = ArchiveFile::parse(&*data) {
        let mut units = Vec::new();
        for member in ar.members() {
            let member = member.map_err(|e| format!("{}: {e}", file.display()))?;
            let bytes = member.data(&*data).map_err(|e| format!("{}: {e}", file.display()))?;
            units.extend(units_in_object(bytes, file)?);
        }
        return Ok(units);
    }
    units_in_object(&data, file)
}

/// Static libraries named by `-l` that the device linker reads too (as nvcc's does):
/// `lib<name>.a` in the `-L` directories.
pub fn static_libraries(lib_dirs: &[String], libs: &[String]) -> Vec<PathBuf> {
    libs.iter()
        .filter_map(|l| lib_dirs.iter().map(|d| Path::new(d).join(format!("lib{l}.a"))).find(|p| p.exists()))
        .collect()
}

/// Links the device code of all inputs into one module; `None` when no input has any.
pub fn link_inputs(files: &[PathBuf]) -> Result<Option<Module>, String> {
    let mut units = Vec::new();
    for f in files {
        units.extend(units_in(f)?);
    }
    if units.is_empty() {
        return Ok(None);
    }
    cuprite_ir::link::link(units).map(Some).map_err(|errs| {
        for e in &errs {
            eprintln!("cuprite error   : {e}");
        }
        String::new()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frames_round_trip_and_concatenate_with_padding() {
        let m = Module { files: vec!["a.cu".into()], ..Default::default() };
        let mut data = encode("a.cu", &m).unwrap();
        data.extend([0, 0, 0]);
        data.extend(encode("b.cu", &m).unwrap());
        let units = decode(&data, Path::new("x.o")).unwrap();
        let origins: Vec<&str> = units.iter().map(|u| u.origin.as_str()).collect();
        assert_eq!(origins, ["a.cu", "b.cu"]);
        assert!(decode(b"garbage-garbage-garbage-garbage", Path::new("x.o")).unwrap_err().contains("damaged"));
    }
}
