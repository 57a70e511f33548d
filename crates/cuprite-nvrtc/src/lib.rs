//! NVRTC on Cuprite (`nvrtc.h`, `libnvrtc.so` in a Cuprite toolkit prefix): CUDA C++
//! source compiled at run time, in process, by Cuprite's compiler (`compile`), into a
//! Cuprite module image, which `nvrtcGetPTX` and `nvrtcGetCUBIN` return and
//! `cuModuleLoadData` loads. The image is text, so programs that treat PTX as a
//! NUL-terminated string work unchanged.

pub mod compile;
pub mod options;

use std::ffi::{c_char, c_int, CStr, CString};
use std::sync::Mutex;

pub type NvrtcResult = c_int;
pub const SUCCESS: NvrtcResult = 0;
pub const OUT_OF_MEMORY: NvrtcResult = 1;
pub const PROGRAM_CREATION_FAILURE: NvrtcResult = 2;
pub const INVALID_INPUT: NvrtcResult = 3;
pub const INVALID_PROGRAM: NvrtcResult = 4;
pub const INVALID_OPTION: NvrtcResult = 5;
pub const COMPILATION: NvrtcResult = 6;
pub const NO_NAME_EXPRESSIONS_AFTER_COMPILATION: NvrtcResult = 8;
pub const NO_LOWERED_NAMES_BEFORE_COMPILATION: NvrtcResult = 9;
pub const NAME_EXPRESSION_NOT_VALID: NvrtcResult = 10;
pub const INTERNAL_ERROR: NvrtcResult = 11;

const NAMES: &[&CStr] = &[
    c"NVRTC_SUCCESS",
    c"NVRTC_ERROR_OUT_OF_MEMORY",
    c"NVRTC_ERROR_PROGRAM_CREATION_FAILURE",
    c"NVRTC_ERROR_INVALID_INPUT",
    c"NVRTC_ERROR_INVALID_PROGRAM",
    c"NVRTC_ERROR_INVALID_OPTION",
    c"NVRTC_ERROR_COMPILATION",
    c"NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
    c"NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION",
    c"NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION",
    c"NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID",
    c"NVRTC_ERROR_INTERNAL_ERROR",
    c"NVRTC_ERROR_TIME_FILE_WRITE_FAILED",
    c"NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED",
    c"NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED",
    c"NVRTC_ERROR_PCH_CREATE",
    c"NVRTC_ERROR_CANCELLED",
    c"NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED",
];

/// A program: its input, and after compilation its image, log and lowered names.
pub struct Program {
    name: String,
    source: String,
    headers: Vec<(String, String)>,
    name_expressions: Vec<String>,
    compiled: bool,
    /// Compiled for a real architecture (`sm_XX`): there is a CUBIN.
    cubin: bool,
    image: Option<CString>,
    log: CString,
    lowered: Vec<(String, CString)>,
}

/// A `nvrtcProgram` is a `Box<Mutex<Program>>`.
type Handle = *mut Mutex<Program>;

fn guarded(f: impl FnOnce() -> NvrtcResult) -> NvrtcResult {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(INTERNAL_ERROR)
}

fn with<T>(h: Handle, f: impl FnOnce(&mut Program) -> Result<T, NvrtcResult>) -> Result<T, NvrtcResult> {
    if h.is_null() {
        return Err(INVALID_PROGRAM);
    }
    let m = unsafe { &*h };
    let mut p = m.lock().unwrap_or_else(|e| e.into_inner());
    f(&mut p)
}

fn code(r: Result<(), NvrtcResult>) -> NvrtcResult {
    r.err().unwrap_or(SUCCESS)
}

unsafe fn text(p: *const c_char) -> Option<String> {
    (!p.is_null()).then(|| CStr::from_ptr(p).to_string_lossy().into_owned())
}

#[no_mangle]
pub extern "C" fn nvrtcGetErrorString(r: NvrtcResult) -> *const c_char {
    NAMES.get(r as usize).map_or(c"NVRTC_ERROR unknown".as_ptr(), |s| s.as_ptr())
}

#[no_mangle]
pub extern "C" fn nvrtcVersion(major: *mut c_int, minor: *mut c_int) -> NvrtcResult {
    if major.is_null() || minor.is_null() {
        return INVALID_INPUT;
    }
    unsafe {
        *major = 13;
        *minor = 0;
    }
    SUCCESS
}

/// The architectures `--gpu-architecture` accepts (those nvcc 13 accepts).
const ARCHS: &[c_int] = &[75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121];

#[no_mangle]
pub extern "C" fn nvrtcGetNumSupportedArchs(n: *mut c_int) -> NvrtcResult {
    if n.is_null() {
        return INVALID_INPUT;
    }
    unsafe { *n = ARCHS.len() as c_int };
    SUCCESS
}

#[no_mangle]
pub extern "C" fn nvrtcGetSupportedArchs(out: *mut c_int) -> NvrtcResult {
    if out.is_null() {
        return INVALID_INPUT;
    }
    unsafe { std::ptr::copy_nonoverlapping(ARCHS.as_ptr(), out, ARCHS.len()) };
    SUCCESS
}

#[no_mangle]
pub unsafe extern "C" fn nvrtcCreateProgram(
    prog: *mut Handle,
    src: *const c_char,
    name: *const c_char,
    num_headers: c_int,
    headers: *const *const c_char,
    include_names: *const *const c_char,
) -> NvrtcResult {
    guarded(|| {
        if prog.is_null() || src.is_null() || num_headers < 0 || (num_headers > 0 && (headers.is_null() || include_names.is_null())) {
            return INVALID_INPUT;
        }
        let mut hs = Vec::new();
        for i in 0..num_headers as usize {
            let (Some(h), Some(n)) = (text(*headers.add(i)), text(*include_names.add(i))) else { return INVALID_INPUT };
            hs.push((n, h));
        }
        let p = Program {
            name: text(name).unwrap_or_else(|| "default_program".into()),
            source: text(src).unwrap_or_default(),
            headers: hs,
            name_expressions: Vec::new(),
            compiled: false,
            cubin: false,
            image: None,
            log: CString::default(),
            lowered: Vec::new(),
        };
        *prog = Box::into_raw(Box::new(Mutex::new(p)));
        SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvrtcDestroyProgram(prog: *mut Handle) -> NvrtcResult {
    guarded(|| {
        if prog.is_null() || (*prog).is_null() {
            return INVALID_PROGRAM;
        }
        drop(Box::from_raw(*prog));
        *prog = std::ptr::null_mut();
        SUCCESS
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvrtcAddNameExpression(prog: Handle, expr: *const c_char) -> NvrtcResult {
    guarded(|| {
        code(with(prog, |p| {
            let e = text(expr).ok_or(INVALID_INPUT)?;
            if p.compiled {
                return Err(NO_NAME_EXPRESSIONS_AFTER_COMPILATION);
            }
            if !p.name_expressions.contains(&e) {
                p.name_expressions.push(e);
            }
            Ok(())
        }))
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvrtcCompileProgram(prog: Handle, num_options: c_int, options: *const *const c_char) -> NvrtcResult {
    guarded(|| {
        code(with(prog, |p| {
            if num_options < 0 || (num_options > 0 && options.is_null()) {
                return Err(INVALID_INPUT);
            }
            let opts: Vec<String> = (0..num_options as usize).filter_map(|i| text(*options.add(i))).collect();
            let args = match options::to_nvcc(&opts) {
                // NVRTC's programs may call assert() without including <assert.h>
                // (cuda-samples simpleAssert_nvrtc does).
                Ok(a) => ["-include".to_string(), "assert.h".to_string()]
                    .into_iter()
                    .chain(a)
                    .chain(options::source_include_dir(&opts, &p.name).map(|d| format!("-I{}", d.display())))
                    .collect(),
                Err(msg) => {
                    p.log = CString::new(format!("nvrtc: error: {msg}\n")).unwrap_or_default();
                    return Err(INVALID_OPTION);
                }
            };
            let out = compile::compile(
                &compile::Input { name: &p.name, source: &p.source, headers: &p.headers, name_expressions: &p.name_expressions },
                args,
            );
            p.compiled = true;
            p.cubin = options::real_arch(&opts);
            p.log = CString::new(out.log.replace('\0', "")).unwrap_or_default();
            p.lowered = p.name_expressions.iter().cloned().zip(out.lowered.into_iter().filter_map(|l| CString::new(l).ok())).collect();
            p.image = out.image.and_then(|i| CString::new(i).ok());
            if p.image.is_some() {
                Ok(())
            } else {
                Err(COMPILATION)
            }
        }))
    })
}

/// The image, with its terminating NUL (as PTX sizes count it).
fn image_bytes(p: &Program) -> Result<&[u8], NvrtcResult> {
    p.image.as_ref().map(|i| i.as_bytes_with_nul()).ok_or(INVALID_PROGRAM)
}

unsafe fn size_of_image(prog: Handle, size: *mut usize) -> NvrtcResult {
    guarded(|| {
        code(with(prog, |p| {
            if size.is_null() {
                return Err(INVALID_INPUT);
            }
            *size = image_bytes(p)?.len();
            Ok(())
        }))
    })
}

unsafe fn copy_image(prog: Handle, out: *mut c_char) -> NvrtcResult {
    guarded(|| {
        code(with(prog, |p| {
            if out.is_null() {
                return Err(INVALID_INPUT);
            }
            let b = image_bytes(p)?;
            std::ptr::copy_nonoverlapping(b.as_ptr() as *const c_char, out, b.len());
            Ok(())
        }))
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvrtcGetPTXSize(prog: Handle, size: *mut usize) -> NvrtcResult {
    size_of_image(prog, size)
}
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetPTX(prog: Handle, out: *mut c_char) -> NvrtcResult {
    copy_image(prog, out)
}
/// As NVRTC: a program compiled for a virtual architecture (`compute_XX`, the default)
/// has no CUBIN: its size is 0 and nothing is copied.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetCUBINSize(prog: Handle, size: *mut usize) -> NvrtcResult {
    guarded(|| {
        code(with(prog, |p| {
            if size.is_null() {
                return Err(INVALID_INPUT);
            }
            let n = image_bytes(p)?.len();
            *size = if p.cubin { n } else { 0 };
            Ok(())
        }))
    })
}
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetCUBIN(prog: Handle, out: *mut c_char) -> NvrtcResult {
    if with(prog, |p| Ok(!p.cubin)).unwrap_or(false) {
        return SUCCESS;
    }
    copy_image(prog, out)
}

#[no_mangle]
pub unsafe extern "C" fn nvrtcGetProgramLogSize(prog: Handle, size: *mut usize) -> NvrtcResult {
    guarded(|| {
        code(with(prog, |p| {
            if size.is_null() {
                return Err(INVALID_INPUT);
            }
            *size = p.log.as_bytes_with_nul().len();
            Ok(())
        }))
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvrtcGetProgramLog(prog: Handle, out: *mut c_char) -> NvrtcResult {
    guarded(|| {
        code(with(prog, |p| {
            if out.is_null() {
                return Err(INVALID_INPUT);
            }
            let b = p.log.as_bytes_with_nul();
            std::ptr::copy_nonoverlapping(b.as_ptr() as *const c_char, out, b.len());
            Ok(())
        }))
    })
}

#[no_mangle]
pub unsafe extern "C" fn nvrtcGetLoweredName(prog: Handle, expr: *const c_char, lowered: *mut *const c_char) -> NvrtcResult {
    guarded(|| {
        code(with(prog, |p| {
            let e = text(expr).ok_or(INVALID_INPUT)?;
            if lowered.is_null() {
                return Err(INVALID_INPUT);
            }
            if !p.compiled {
                return Err(NO_LOWERED_NAMES_BEFORE_COMPILATION);
            }
            let l = p.lowered.iter().find(|(x, _)| *x == e).ok_or(NAME_EXPRESSION_NOT_VALID)?;
            *lowered = l.1.as_ptr();
            Ok(())
        }))
    })
}
