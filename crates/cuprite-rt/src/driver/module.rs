//! Modules: `cuModuleLoad*` read a Cuprite module image (`cuprite_image`: what
//! `cuprite -ptx/-cubin/-fatbin` and NVRTC write), NVIDIA PTX (`ptx`) or CUDA C++ source
//! (`source_module`), and `loader` turns the image into registered
//! kernels; a `CUfunction` is the kernel's registry key, as a host stub's address is for
//! the runtime (so `cudaGetFuncBySymbol` and `cuLaunchKernel` meet). NVIDIA images are
//! refused with the reason on stderr. `cuLibrary*` (CUDA 12's context-independent
//! modules) are the same objects.

use super::context::require;
use super::loader::{self, Loaded};
use super::{drv, out, CuResult, Result, FILE_NOT_FOUND, INVALID_HANDLE, INVALID_IMAGE, INVALID_VALUE, NOT_FOUND};
use cuprite_image::{Image, NotAnImage};
use std::collections::HashSet;
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::{Mutex, OnceLock};

pub struct Module {
    loaded: Mutex<Option<Loaded>>,
}

fn live() -> std::sync::MutexGuard<'static, HashSet<usize>> {
    static LIVE: OnceLock<Mutex<HashSet<usize>>> = OnceLock::new();
    LIVE.get_or_init(|| Mutex::new(HashSet::new())).lock().unwrap_or_else(|p| p.into_inner())
}

fn module<'a>(h: usize) -> Result<&'a Module> {
    if h == 0 || !live().contains(&h) {
        return Err(INVALID_HANDLE);
    }
    Ok(unsafe { &*(h as *const Module) })
}

/// Loads image bytes; on failure, the reason (also printed to stderr, since a CUresult
/// cannot carry it) and the code.
/// The module image `data` is or gives: a Cuprite image as it is, NVIDIA PTX through
/// the PTX front-end, CUDA C++ source through NVRTC; else the code and the reason.
pub(super) fn image_of(data: &[u8], source_name: &str) -> std::result::Result<Image, (CuResult, String)> {
    Image::decode(data).or_else(|e| match e {
        // CUDA C++ source is compiled by Cuprite's NVRTC first.
        NotAnImage::Unknown if super::source_module::looks_like_source(data) => super::source_module::compile(data, source_name)
            .map_err(|why| (INVALID_IMAGE, why))
            .and_then(|image| Image::decode(&image).map_err(|e| (INVALID_IMAGE, e.to_string()))),
        // NVIDIA PTX goes through the PTX front-end.
        NotAnImage::NvidiaPtx => super::ptx::image_from_ptx(data).map_err(|why| {
            let code = if why.contains("ISA version") { super::UNSUPPORTED_PTX_VERSION } else { super::INVALID_PTX };
            (code, why)
        }),
        e => Err((INVALID_IMAGE, e.to_string())),
    })
}

fn load_bytes(data: &[u8], call: &str, source_name: &str) -> std::result::Result<usize, (CuResult, String)> {
    let img = image_of(data, source_name);
    let loaded = img.and_then(|img| {
        let l = loader::load(&img).map_err(|why| (INVALID_IMAGE, why))?;
        // On the GPU device the module also goes to the driver.
        crate::gpu::loaded_modules::load(data, &img, &|name| l.symbol(name));
        Ok(l)
    });
    match loaded {
        Ok(l) => {
            let m = Box::leak(Box::new(Module { loaded: Mutex::new(Some(l)) }));
            let h = m as *const Module as usize;
            live().insert(h);
            Ok(h)
        }
        Err((code, why)) => {
            eprintln!("cuprite: {call}: {why}");
            Err((code, why))
        }
    }
}

/// An image given by address: a Cuprite image is text and ends at its first byte that
/// is not base64; NVIDIA's are recognised by their first bytes.
unsafe fn image_bytes<'a>(image: *const c_void) -> &'a [u8] {
    let p = image as *const u8;
    let head = std::slice::from_raw_parts(p, cuprite_image::HEADER.len().min(4));
    if head == b"\x7fELF" || head[..4] == 0xBA55ED50u32.to_le_bytes() || head[..4] == 0x466243B1u32.to_le_bytes() {
        return std::slice::from_raw_parts(p, 4);
    }
    CStr::from_ptr(image as *const c_char).to_bytes()
}

fn load_data(pm: *mut usize, image: *const c_void, call: &str) -> Result<Option<String>> {
    require()?;
    if pm.is_null() || image.is_null() {
        return Err(INVALID_VALUE);
    }
    match load_bytes(unsafe { image_bytes(image) }, call, "module.cu") {
        Ok(h) => out(pm, h).map(|_| None),
        Err((code, why)) => {
            unsafe { *pm = 0 };
            Err(code).map_err(|c| {
                LAST_WHY.with(|w| *w.borrow_mut() = why);
                c
            })
        }
    }
}

/// Copies `text` into a JIT log buffer of `cap` bytes (as the `CU_JIT_*_LOG_BUFFER`
/// options give it), cut to fit and NUL-terminated.
pub(super) fn write_log(buf: Option<(*mut u8, usize)>, text: &str) {
    if let Some((p, cap)) = buf {
        if !p.is_null() && cap > 0 {
            let n = text.len().min(cap - 1);
            unsafe {
                std::ptr::copy_nonoverlapping(text.as_ptr(), p, n);
                *p.add(n) = 0;
            }
        }
    }
}

thread_local! {
    static LAST_WHY: std::cell::RefCell<String> = const { std::cell::RefCell::new(String::new()) };
}

#[no_mangle]
pub extern "C" fn cuModuleLoad(pm: *mut usize, fname: *const c_char) -> CuResult {
    drv(|| {
        require()?;
        if pm.is_null() || fname.is_null() {
            return Err(INVALID_VALUE);
        }
        let path = unsafe { CStr::from_ptr(fname) }.to_string_lossy().into_owned();
        let data = std::fs::read(&path).map_err(|_| FILE_NOT_FOUND)?;
        let h = load_bytes(&data, &format!("cuModuleLoad(\"{path}\")"), &path).map_err(|(c, _)| c)?;
        out(pm, h)
    })
}

#[no_mangle]
pub extern "C" fn cuModuleLoadData(pm: *mut usize, image: *const c_void) -> CuResult {
    drv(|| load_data(pm, image, "cuModuleLoadData").map(drop))
}

#[no_mangle]
pub extern "C" fn cuModuleLoadFatBinary(pm: *mut usize, image: *const c_void) -> CuResult {
    drv(|| load_data(pm, image, "cuModuleLoadFatBinary").map(drop))
}

pub(super) const JIT_INFO_LOG_BUFFER: c_int = 3;
pub(super) const JIT_INFO_LOG_BUFFER_SIZE_BYTES: c_int = 4;
pub(super) const JIT_ERROR_LOG_BUFFER: c_int = 5;
pub(super) const JIT_ERROR_LOG_BUFFER_SIZE_BYTES: c_int = 6;

/// JIT options are accepted; the error log buffer receives the reason a load failed.
#[no_mangle]
pub extern "C" fn cuModuleLoadDataEx(pm: *mut usize, image: *const c_void, n: c_uint, opts: *const c_int, vals: *mut *mut c_void) -> CuResult {
    drv(|| {
        let r = load_data(pm, image, "cuModuleLoadDataEx");
        if n > 0 && !opts.is_null() && !vals.is_null() {
            let opts = unsafe { std::slice::from_raw_parts(opts, n as usize) };
            let vals = unsafe { std::slice::from_raw_parts(vals, n as usize) };
            let size_of = |which: c_int| opts.iter().position(|o| *o == which).map(|i| vals[i] as usize);
            let why = if r.is_err() { LAST_WHY.with(|w| w.borrow().clone()) } else { String::new() };
            for (buf, size, text) in [(JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES, why.as_str()), (JIT_INFO_LOG_BUFFER, JIT_INFO_LOG_BUFFER_SIZE_BYTES, "")] {
                if let (Some(i), Some(cap)) = (opts.iter().position(|o| *o == buf), size_of(size)) {
                    write_log(Some((vals[i] as *mut u8, cap)), text);
                }
            }
        }
        r.map(drop)
    })
}

#[no_mangle]
pub extern "C" fn cuModuleUnload(h: usize) -> CuResult {
    drv(|| {
        let m = module(h)?;
        // Any device may still run the module's kernels.
        crate::stream::wait_all_streams();
        live().remove(&h);
        if let Some(l) = m.loaded.lock().unwrap_or_else(|p| p.into_inner()).take() {
            l.unload();
        }
        Ok(())
    })
}

/// A kernel of a module by its name as the module's symbol table has it (the mangled
/// name, or the plain name of an `extern "C"` kernel).
pub fn function(h: usize, name: *const c_char) -> Result<usize> {
    let m = module(h)?;
    if name.is_null() {
        return Err(INVALID_VALUE);
    }
    let name = unsafe { CStr::from_ptr(name) }.to_string_lossy();
    let g = m.loaded.lock().unwrap_or_else(|p| p.into_inner());
    let addr = g.as_ref().and_then(|l| l.symbol(&name)).ok_or(NOT_FOUND)?;
    crate::registry::kernel(addr as *const c_void).ok_or(NOT_FOUND)?;
    Ok(addr)
}

#[no_mangle]
pub extern "C" fn cuModuleGetFunction(pf: *mut usize, h: usize, name: *const c_char) -> CuResult {
    drv(|| {
        require()?;
        if pf.is_null() {
            return Err(INVALID_VALUE);
        }
        out(pf, function(h, name)?)
    })
}

pub(super) fn global(h: usize, name: *const c_char) -> Result<(u64, usize)> {
    let m = module(h)?;
    if name.is_null() {
        return Err(INVALID_VALUE);
    }
    let name = unsafe { CStr::from_ptr(name) }.to_string_lossy();
    let g = m.loaded.lock().unwrap_or_else(|p| p.into_inner());
    let addr = g.as_ref().and_then(|l| l.symbol(&name)).ok_or(NOT_FOUND)?;
    let v = crate::registry::var(addr as *const c_void).filter(|v| v.device_addr != addr).ok_or(NOT_FOUND)?;
    Ok((v.device_addr as u64, v.size as usize))
}

#[no_mangle]
pub extern "C" fn cuModuleGetGlobal_v2(dptr: *mut u64, bytes: *mut usize, h: usize, name: *const c_char) -> CuResult {
    drv(|| {
        require()?;
        // As CUDA does (measured): a failed lookup leaves the outputs zero.
        let (a, s) = global(h, name).inspect_err(|_| unsafe {
            if !dptr.is_null() {
                *dptr = 0;
            }
            if !bytes.is_null() {
                *bytes = 0;
            }
        })?;
        if !dptr.is_null() {
            unsafe { *dptr = a };
        }
        if !bytes.is_null() {
            unsafe { *bytes = s };
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuModuleGetGlobal(dptr: *mut u64, bytes: *mut usize, h: usize, name: *const c_char) -> CuResult {
    cuModuleGetGlobal_v2(dptr, bytes, h, name)
}

// ---- libraries: the same objects ------------------------------------------------------

#[no_mangle]
pub extern "C" fn cuLibraryLoadData(
    pl: *mut usize,
    code: *const c_void,
    _jit_opts: *mut c_int,
    _jit_vals: *mut *mut c_void,
    _n_jit: c_uint,
    _lib_opts: *mut c_int,
    _lib_vals: *mut *mut c_void,
    _n_lib: c_uint,
) -> CuResult {
    drv(|| {
        if pl.is_null() || code.is_null() {
            return Err(INVALID_VALUE);
        }
        let h = load_bytes(unsafe { image_bytes(code) }, "cuLibraryLoadData", "module.cu").map_err(|(c, _)| c)?;
        out(pl, h)
    })
}

#[no_mangle]
pub extern "C" fn cuLibraryLoadFromFile(
    pl: *mut usize,
    fname: *const c_char,
    _jit_opts: *mut c_int,
    _jit_vals: *mut *mut c_void,
    _n_jit: c_uint,
    _lib_opts: *mut c_int,
    _lib_vals: *mut *mut c_void,
    _n_lib: c_uint,
) -> CuResult {
    drv(|| {
        if pl.is_null() || fname.is_null() {
            return Err(INVALID_VALUE);
        }
        let path = unsafe { CStr::from_ptr(fname) }.to_string_lossy().into_owned();
        let data = std::fs::read(&path).map_err(|_| FILE_NOT_FOUND)?;
        let h = load_bytes(&data, &format!("cuLibraryLoadFromFile(\"{path}\")"), &path).map_err(|(c, _)| c)?;
        out(pl, h)
    })
}

#[no_mangle]
pub extern "C" fn cuLibraryUnload(h: usize) -> CuResult {
    cuModuleUnload(h)
}

/// A `CUkernel` is the kernel's registry key too: it is usable as a `CUfunction`.
#[no_mangle]
pub extern "C" fn cuLibraryGetKernel(pk: *mut usize, h: usize, name: *const c_char) -> CuResult {
    drv(|| {
        if pk.is_null() {
            return Err(INVALID_VALUE);
        }
        out(pk, function(h, name)?)
    })
}

#[no_mangle]
pub extern "C" fn cuLibraryGetModule(pm: *mut usize, h: usize) -> CuResult {
    drv(|| {
        module(h)?;
        out(pm, h)
    })
}

#[no_mangle]
pub extern "C" fn cuLibraryGetGlobal(dptr: *mut u64, bytes: *mut usize, h: usize, name: *const c_char) -> CuResult {
    drv(|| {
        let (a, s) = global(h, name)?;
        if !dptr.is_null() {
            unsafe { *dptr = a };
        }
        if !bytes.is_null() {
            unsafe { *bytes = s };
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cuKernelGetFunction(pf: *mut usize, k: usize) -> CuResult {
    drv(|| {
        crate::registry::kernel(k as *const c_void).ok_or(INVALID_HANDLE)?;
        out(pf, k)
    })
}
