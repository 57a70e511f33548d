//! Turning a module image into running code: its C is compiled by the system C compiler
//! into a shared object (cached by content), which is opened privately and registered
//! with the runtime like any device object. The runtime's functions reach it through a
//! table (`module_imports.c`), so it works however the program linked the runtime.

use crate::abi::{Dim3, ModuleDesc};
use cuprite_image::Image;
use std::ffi::{c_char, c_int, c_uint, c_void, CString};
use std::hash::{Hash, Hasher};
use std::path::PathBuf;

const IMPORTS_C: &str = include_str!("module_imports.c");

/// Mirror of `cuprite_module_imports` in module_imports.c.
#[repr(C)]
struct Imports {
    version: u32,
    vprintf: unsafe extern "C" fn(*const c_char, *mut c_void) -> c_int,
    assert_fail: unsafe extern "C" fn(*const c_char, *const c_char, c_uint, *const c_char, Dim3, Dim3),
    assert_report: unsafe extern "C" fn(*const c_char, *const c_char, c_uint, *const c_char, Dim3, Dim3),
    trap: unsafe extern "C" fn(),
    kernel_error: unsafe extern "C" fn(c_int, *const c_char),
    clock64: unsafe extern "C" fn() -> i64,
    device_malloc: extern "C" fn(usize) -> *mut c_void,
    device_free: extern "C" fn(*mut c_void),
    tex_fetch: unsafe extern "C" fn(u64, i32, f32, f32, f32, i32, *mut c_void, u32, *mut *const c_char) -> i32,
    tex_fetch_int: unsafe extern "C" fn(u64, i32, *mut c_void, u32, *mut *const c_char) -> i32,
    surf_access: unsafe extern "C" fn(u64, i32, i32, i32, i32, *mut c_void, u32, i32, i32, *mut *const c_char) -> i32,
}

extern "C" {
    // guard.c (the va_list is passed through as the pointer it is on x86-64).
    fn cuprite_vprintf(fmt: *const c_char, ap: *mut c_void) -> c_int;
    fn __cuprite_assert_fail(e: *const c_char, f: *const c_char, l: c_uint, func: *const c_char, b: Dim3, t: Dim3);
    fn __cuprite_assert_report(e: *const c_char, f: *const c_char, l: c_uint, func: *const c_char, b: Dim3, t: Dim3);
    fn __cuprite_trap();
    fn __cuprite_kernel_error(e: c_int, m: *const c_char);
    fn __cuprite_clock64() -> i64;
}

static IMPORTS: Imports = Imports {
    version: 1,
    vprintf: cuprite_vprintf,
    assert_fail: __cuprite_assert_fail,
    assert_report: __cuprite_assert_report,
    trap: __cuprite_trap,
    kernel_error: __cuprite_kernel_error,
    clock64: __cuprite_clock64,
    device_malloc: crate::api::abi::__cuprite_device_malloc,
    device_free: crate::api::abi::__cuprite_device_free,
    tex_fetch: crate::texture::object::__cuprite_tex_fetch,
    tex_fetch_int: crate::texture::object::__cuprite_tex_fetch_int,
    surf_access: crate::texture::object::__cuprite_surf_access,
};

/// A module's code, opened and registered.
pub struct Loaded {
    pub handle: *mut c_void,
    pub desc: *const ModuleDesc,
}

unsafe impl Send for Loaded {}
unsafe impl Sync for Loaded {}

/// Where compiled modules are kept (see `cuprite_image::cache`).
fn cache_dir() -> PathBuf {
    cuprite_image::cache::root().join("modules")
}

fn c_compiler() -> String {
    std::env::var("CUPRITE_CC").or_else(|_| std::env::var("CC")).ok().filter(|s| !s.is_empty()).unwrap_or_else(|| "cc".into())
}

/// Compiles the image's C into a shared object (or finds it in the cache).
fn build(img: &Image) -> Result<PathBuf, String> {
    let cc = c_compiler();
    let mut h = std::collections::hash_map::DefaultHasher::new();
    (crate::abi::ABI_VERSION, &cc, &img.c_flags, &img.c_source, IMPORTS_C).hash(&mut h);
    let dir = cache_dir();
    let so = dir.join(format!("{:016x}.so", h.finish()));
    if so.exists() {
        return Ok(so);
    }
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create the module cache {}: {e}", dir.display()))?;
    let tag = format!("{}-{:?}", std::process::id(), std::thread::current().id()).replace(|c: char| !c.is_ascii_alphanumeric(), "");
    let src = dir.join(format!("{:016x}.{tag}.c", h.finish()));
    let tmp = dir.join(format!("{:016x}.{tag}.so", h.finish()));
    std::fs::write(&src, format!("{}\n{}", img.c_source, IMPORTS_C)).map_err(|e| format!("cannot write {}: {e}", src.display()))?;
    let output = std::process::Command::new(&cc)
        .args(&img.c_flags)
        .args(["-shared", "-fPIC", "-Wl,-Bsymbolic", "-o"])
        .arg(&tmp)
        .arg(&src)
        .arg("-lm")
        .output()
        .map_err(|e| format!("cannot run the C compiler '{cc}': {e}"))?;
    let _ = std::fs::remove_file(&src);
    if !output.status.success() {
        let _ = std::fs::remove_file(&tmp);
        return Err(format!("the C compiler failed on the module's device code:\n{}", String::from_utf8_lossy(&output.stderr)));
    }
    std::fs::rename(&tmp, &so).map_err(|e| format!("cannot write {}: {e}", so.display()))?;
    Ok(so)
}

/// Compiles, opens and registers an image's code.
pub fn load(img: &Image) -> Result<Loaded, String> {
    let so = build(img)?;
    let path = CString::new(so.as_os_str().as_encoded_bytes()).map_err(|_| "bad cache path".to_string())?;
    let handle = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    if handle.is_null() {
        let why = unsafe { std::ffi::CStr::from_ptr(libc::dlerror()) }.to_string_lossy().into_owned();
        return Err(format!("cannot open the compiled module {}: {why}", so.display()));
    }
    let bind = unsafe { libc::dlsym(handle, c"__cuprite_module_image_bind".as_ptr()) };
    if bind.is_null() {
        unsafe { libc::dlclose(handle) };
        return Err(format!("{} is not a Cuprite module", so.display()));
    }
    let bind: unsafe extern "C" fn(*const Imports) -> *const ModuleDesc = unsafe { std::mem::transmute(bind) };
    let desc = unsafe { bind(&IMPORTS) };
    if desc.is_null() {
        unsafe { libc::dlclose(handle) };
        return Err(format!("{} registered no device code", so.display()));
    }
    unsafe { crate::registry::register_module(desc) };
    Ok(Loaded { handle, desc })
}

impl Loaded {
    /// The address of a symbol the module defines (a kernel's or variable's lowered name).
    pub fn symbol(&self, name: &str) -> Option<usize> {
        let c = CString::new(name).ok()?;
        let p = unsafe { libc::dlsym(self.handle, c.as_ptr()) };
        (!p.is_null()).then_some(p as usize)
    }

    /// Unregisters the module and closes its code (all its work must be done).
    pub fn unload(self) {
        unsafe {
            crate::registry::unregister_module(self.desc);
            libc::dlclose(self.handle);
        }
    }
}
