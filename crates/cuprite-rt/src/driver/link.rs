//! `cuLink*`: the driver's JIT linker. Each input (PTX, a cubin or fatbinary Cuprite
//! wrote, CUDA C++ source) is turned into a module image when it is added, so errors are
//! reported there, in the error log the options name; `cuLinkComplete` hands back the
//! image (a buffer the state owns until `cuLinkDestroy`), which `cuModuleLoadData` takes.
//! Linking several device-code inputs into one module (`extern` functions across them)
//! is not supported yet: such a completion fails with CUDA_ERROR_NOT_SUPPORTED and says so.

use super::module::{write_log, JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES, JIT_INFO_LOG_BUFFER, JIT_INFO_LOG_BUFFER_SIZE_BYTES};
use super::{drv, out, CuResult, FILE_NOT_FOUND, INVALID_HANDLE, INVALID_VALUE, NOT_SUPPORTED};
use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::time::Instant;


const JIT_WALL_TIME: c_int = 2;

const INPUT_CUBIN: c_int = 0;
const INPUT_PTX: c_int = 1;
const INPUT_FATBINARY: c_int = 2;
const INPUT_OBJECT: c_int = 3;
const INPUT_LIBRARY: c_int = 4;

struct LinkState {
    /// Where the creation options asked for the wall time and the logs.
    wall_time: *mut f32,
    info_log: Option<(*mut u8, usize)>,
    error_log: Option<(*mut u8, usize)>,
    started: Instant,
    images: Vec<Vec<u8>>,
    info: String,
    output: Option<Vec<u8>>,
}

fn state<'a>(h: *mut c_void) -> Result<&'a mut LinkState, CuResult> {
    if h.is_null() || !live().contains(&(h as usize)) {
        return Err(INVALID_HANDLE);
    }
    Ok(unsafe { &mut *(h as *mut LinkState) })
}

fn live() -> std::sync::MutexGuard<'static, std::collections::HashSet<usize>> {
    static L: std::sync::OnceLock<std::sync::Mutex<std::collections::HashSet<usize>>> = std::sync::OnceLock::new();
    L.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

impl LinkState {
    fn report(&self, error: &str) {
        write_log(self.error_log, error);
        write_log(self.info_log, &self.info);
        if !self.wall_time.is_null() {
            unsafe { *self.wall_time = self.started.elapsed().as_secs_f32() * 1000.0 };
        }
    }

    fn add(&mut self, kind: c_int, data: &[u8], name: &str) -> CuResult {
        match kind {
            INPUT_CUBIN | INPUT_PTX | INPUT_FATBINARY => match super::module::image_of(data, name) {
                Ok(img) => {
                    self.info.push_str(&format!("info    : added {name} ({})\n", img.origin));
                    self.images.push(img.encode().into_bytes());
                    self.report("");
                    0
                }
                Err((code, why)) => {
                    self.report(&format!("error   : {name}: {why}"));
                    code
                }
            },
            // An empty archive (the toolkit's libcudadevrt.a) adds nothing.
            INPUT_LIBRARY if data.len() <= 8 && data.starts_with(b"!<arch>") => 0,
            INPUT_OBJECT | INPUT_LIBRARY => {
                self.report(&format!("error   : {name}: linking host objects or libraries of device code is not supported yet"));
                NOT_SUPPORTED
            }
            _ => INVALID_VALUE,
        }
    }
}

/// # Safety
/// `options`/`values` hold `n` entries, as for CUDA.
#[no_mangle]
pub unsafe extern "C" fn cuLinkCreate_v2(n: c_uint, options: *const c_int, values: *mut *mut c_void, out_state: *mut *mut c_void) -> CuResult {
    drv(|| {
        super::context::require()?;
        if out_state.is_null() || (n > 0 && (options.is_null() || values.is_null())) {
            return Err(INVALID_VALUE);
        }
        let opts = if n > 0 { std::slice::from_raw_parts(options, n as usize) } else { &[] };
        let vals = if n > 0 { std::slice::from_raw_parts(values, n as usize) } else { &[] };
        let value = |which: c_int| opts.iter().position(|o| *o == which).map(|i| vals[i]);
        let log = |buf: c_int, size: c_int| value(buf).map(|p| (p as *mut u8, value(size).map_or(0, |s| s as usize)));
        let st = Box::new(LinkState {
            wall_time: value(JIT_WALL_TIME).map_or(std::ptr::null_mut(), |p| p as *mut f32),
            info_log: log(JIT_INFO_LOG_BUFFER, JIT_INFO_LOG_BUFFER_SIZE_BYTES),
            error_log: log(JIT_ERROR_LOG_BUFFER, JIT_ERROR_LOG_BUFFER_SIZE_BYTES),
            started: Instant::now(),
            images: Vec::new(),
            info: String::new(),
            output: None,
        });
        let h = Box::into_raw(st) as *mut c_void;
        live().insert(h as usize);
        out(out_state, h)
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuLinkCreate(n: c_uint, options: *const c_int, values: *mut *mut c_void, out_state: *mut *mut c_void) -> CuResult {
    cuLinkCreate_v2(n, options, values, out_state)
}

/// # Safety
/// `data` holds `size` bytes, as for CUDA.
#[no_mangle]
pub unsafe extern "C" fn cuLinkAddData_v2(
    h: *mut c_void,
    kind: c_int,
    data: *const c_void,
    size: usize,
    name: *const c_char,
    _n: c_uint,
    _options: *const c_int,
    _values: *mut *mut c_void,
) -> CuResult {
    drv(|| {
        let st = state(h)?;
        if data.is_null() || size == 0 {
            return Err(INVALID_VALUE);
        }
        let bytes = std::slice::from_raw_parts(data as *const u8, size);
        let name = if name.is_null() { "<input>".to_string() } else { CStr::from_ptr(name).to_string_lossy().into_owned() };
        match st.add(kind, bytes, &name) {
            0 => Ok(()),
            e => Err(e),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuLinkAddData(h: *mut c_void, kind: c_int, data: *const c_void, size: usize, name: *const c_char, n: c_uint, o: *const c_int, v: *mut *mut c_void) -> CuResult {
    cuLinkAddData_v2(h, kind, data, size, name, n, o, v)
}

/// # Safety
/// `path` is a C string, as for CUDA.
#[no_mangle]
pub unsafe extern "C" fn cuLinkAddFile_v2(h: *mut c_void, kind: c_int, path: *const c_char, _n: c_uint, _o: *const c_int, _v: *mut *mut c_void) -> CuResult {
    drv(|| {
        let st = state(h)?;
        if path.is_null() {
            return Err(INVALID_VALUE);
        }
        let path = CStr::from_ptr(path).to_string_lossy().into_owned();
        let bytes = std::fs::read(&path).map_err(|_| FILE_NOT_FOUND)?;
        match st.add(kind, &bytes, &path) {
            0 => Ok(()),
            e => Err(e),
        }
    })
}

#[no_mangle]
pub unsafe extern "C" fn cuLinkAddFile(h: *mut c_void, kind: c_int, path: *const c_char, n: c_uint, o: *const c_int, v: *mut *mut c_void) -> CuResult {
    cuLinkAddFile_v2(h, kind, path, n, o, v)
}

#[no_mangle]
pub extern "C" fn cuLinkComplete(h: *mut c_void, image: *mut *mut c_void, size: *mut usize) -> CuResult {
    drv(|| {
        let st = state(h)?;
        if image.is_null() || size.is_null() {
            return Err(INVALID_VALUE);
        }
        let result = match st.images.len() {
            0 => Err((INVALID_VALUE, "error   : no input to link".to_string())),
            1 => Ok(st.images[0].clone()),
            n => Err((NOT_SUPPORTED, format!("error   : linking {n} device-code inputs into one module is not supported yet (one input links)"))),
        };
        match result {
            Ok(mut bytes) => {
                bytes.push(0);
                st.info.push_str("info    : linked 1 input\n");
                st.report("");
                let out_bytes = st.output.insert(bytes);
                unsafe {
                    *image = out_bytes.as_mut_ptr() as *mut c_void;
                    *size = out_bytes.len();
                }
                Ok(())
            }
            Err((code, why)) => {
                st.report(&why);
                Err(code)
            }
        }
    })
}

#[no_mangle]
pub extern "C" fn cuLinkDestroy(h: *mut c_void) -> CuResult {
    drv(|| {
        state(h)?;
        live().remove(&(h as usize));
        drop(unsafe { Box::from_raw(h as *mut LinkState) });
        Ok(())
    })
}
