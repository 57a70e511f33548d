//! CUDA C++ source given to `cuModuleLoad*` (a Cuprite extension: NVIDIA's driver takes
//! only PTX, cubins and fatbinaries). The source is compiled by NVRTC — Cuprite's, found
//! at run time: already in the process (a program linked with `-lnvrtc`), else the
//! library the dynamic linker finds under NVRTC's names — for the selected device's
//! compute capability, and the image it returns is loaded like any other.

use std::ffi::{c_char, c_int, c_void, CStr, CString};

/// Whether `data` reads as CUDA C++ source rather than a module image: UTF-8 text that
/// defines a kernel.
pub fn looks_like_source(data: &[u8]) -> bool {
    std::str::from_utf8(data).map(|t| t.contains("__global__")).unwrap_or(false)
}

type Program = *mut c_void;
type Create = unsafe extern "C" fn(*mut Program, *const c_char, *const c_char, c_int, *const *const c_char, *const *const c_char) -> c_int;
type Compile = unsafe extern "C" fn(Program, c_int, *const *const c_char) -> c_int;
type Size = unsafe extern "C" fn(Program, *mut usize) -> c_int;
type Get = unsafe extern "C" fn(Program, *mut c_char) -> c_int;
type Destroy = unsafe extern "C" fn(*mut Program) -> c_int;

struct Nvrtc {
    create: Create,
    compile: Compile,
    ptx_size: Size,
    ptx: Get,
    log_size: Size,
    log: Get,
    destroy: Destroy,
}

/// A symbol already in the process, or in the first NVRTC library the dynamic linker
/// finds (kept loaded for the life of the process).
unsafe fn nvrtc() -> Result<Nvrtc, String> {
    let mut handle = libc::RTLD_DEFAULT;
    if libc::dlsym(handle, c"nvrtcCreateProgram".as_ptr()).is_null() {
        handle = ["libnvrtc.so.13", "libnvrtc.so", "libcuprite_nvrtc.so"]
            .iter()
            .filter_map(|n| CString::new(*n).ok())
            .map(|n| libc::dlopen(n.as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL))
            .find(|h| !h.is_null())
            .ok_or("CUDA C++ source needs Cuprite's NVRTC library to compile it: link the program with -lnvrtc, or put the Cuprite toolkit's lib64 on LD_LIBRARY_PATH")?;
    }
    let sym = |name: &CStr| -> Result<*mut c_void, String> {
        let p = libc::dlsym(handle, name.as_ptr());
        if p.is_null() {
            Err(format!("the NVRTC library found has no {}", name.to_string_lossy()))
        } else {
            Ok(p)
        }
    };
    Ok(Nvrtc {
        create: std::mem::transmute::<*mut c_void, Create>(sym(c"nvrtcCreateProgram")?),
        compile: std::mem::transmute::<*mut c_void, Compile>(sym(c"nvrtcCompileProgram")?),
        ptx_size: std::mem::transmute::<*mut c_void, Size>(sym(c"nvrtcGetPTXSize")?),
        ptx: std::mem::transmute::<*mut c_void, Get>(sym(c"nvrtcGetPTX")?),
        log_size: std::mem::transmute::<*mut c_void, Size>(sym(c"nvrtcGetProgramLogSize")?),
        log: std::mem::transmute::<*mut c_void, Get>(sym(c"nvrtcGetProgramLog")?),
        destroy: std::mem::transmute::<*mut c_void, Destroy>(sym(c"nvrtcDestroyProgram")?),
    })
}

/// Compiles `source` (named `name`: a file's path makes its directory searched for
/// `#include "…"`, as NVRTC does) into the bytes of a module image; on failure, the
/// program log.
pub fn compile(source: &[u8], name: &str) -> Result<Vec<u8>, String> {
    let text = CString::new(source.strip_suffix(b"\0").unwrap_or(source)).map_err(|_| "the source contains a NUL byte".to_string())?;
    let name = CString::new(name).map_err(|_| "the module's name contains a NUL byte".to_string())?;
    let (major, minor) = crate::context::selected_arch();
    let arch = CString::new(format!("--gpu-architecture=compute_{major}{minor}")).expect("no NUL");
    let options = [arch.as_ptr()];
    unsafe {
        let api = nvrtc()?;
        let mut prog: Program = std::ptr::null_mut();
        if (api.create)(&mut prog, text.as_ptr(), name.as_ptr(), 0, std::ptr::null(), std::ptr::null()) != 0 {
            return Err("nvrtcCreateProgram failed".into());
        }
        let compiled = (api.compile)(prog, options.len() as c_int, options.as_ptr());
        let result = if compiled == 0 {
            read(prog, api.ptx_size, api.ptx).map(|mut image| {
                image.pop(); // the terminating NUL
                image
            })
        } else {
            let log = read(prog, api.log_size, api.log).map(|l| String::from_utf8_lossy(&l).trim_end_matches(['\0', '\n']).to_string()).unwrap_or_default();
            Err(format!("the CUDA C++ source does not compile:\n{log}"))
        };
        (api.destroy)(&mut prog);
        result
    }
}

unsafe fn read(prog: Program, size: Size, get: Get) -> Result<Vec<u8>, String> {
    let mut n = 0usize;
    if size(prog, &mut n) != 0 {
        return Err("NVRTC could not give the result's size".into());
    }
    let mut buf = vec![0u8; n.max(1)];
    if get(prog, buf.as_mut_ptr() as *mut c_char) != 0 {
        return Err("NVRTC could not give the result".into());
    }
    Ok(buf)
}
