//! NVIDIA's driver API, loaded at run time from `libcuda.so.1` with `libloading`: no
//! link-time dependency, so a program runs on machines without a GPU. Only the entry
//! points the GPU device uses; names and signatures as `cuda.h` documents them.

use libloading::Library;
use std::ffi::{c_char, c_int, c_uint, c_void};

pub type CUresult = c_int;
pub type CUdevice = c_int;
pub type CUcontext = *mut c_void;
pub type CUmodule = *mut c_void;
pub type CUfunction = *mut c_void;
pub type CUdeviceptr = u64;
pub type CUstream = *mut c_void;
pub type CUevent = *mut c_void;
pub type CUarray = *mut c_void;
pub type CUmipmappedArray = *mut c_void;
pub type CUmemoryPool = *mut c_void;

/// `CUmemPoolProps` (88 bytes): allocation type, handle types, location, and fields
/// left zero here.
#[repr(C)]
pub struct MemPoolProps {
    pub alloc_type: c_int,
    pub handle_types: c_int,
    pub location_type: c_int,
    pub location_id: c_int,
    pub win32_security_attributes: *mut c_void,
    pub max_size: usize,
    pub usage: u16,
    pub reserved: [u8; 54],
}
const _: () = assert!(std::mem::size_of::<MemPoolProps>() == 88);

/// `CUDA_ARRAY3D_DESCRIPTOR`.
#[repr(C)]
pub struct Array3DDesc {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub format: c_uint,
    pub num_channels: c_uint,
    pub flags: c_uint,
}

pub const MEMORYTYPE_HOST: c_uint = 1;
pub const MEMORYTYPE_ARRAY: c_uint = 3;

/// `CUDA_MEMCPY3D`.
#[repr(C)]
pub struct Memcpy3D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_z: usize,
    pub src_lod: usize,
    pub src_memory_type: c_uint,
    pub src_host: *const c_void,
    pub src_device: CUdeviceptr,
    pub src_array: CUarray,
    pub reserved0: *mut c_void,
    pub src_pitch: usize,
    pub src_height: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_z: usize,
    pub dst_lod: usize,
    pub dst_memory_type: c_uint,
    pub dst_host: *mut c_void,
    pub dst_device: CUdeviceptr,
    pub dst_array: CUarray,
    pub reserved1: *mut c_void,
    pub dst_pitch: usize,
    pub dst_height: usize,
    pub width_in_bytes: usize,
    pub height: usize,
    pub depth: usize,
}

impl Default for Memcpy3D {
    fn default() -> Memcpy3D {
        // Every field is an integer or a pointer, for which all-zero is null / 0.
        unsafe { std::mem::zeroed() }
    }
}

/// `CUDA_RESOURCE_DESC` (the union is 128 bytes).
#[repr(C)]
pub struct ResDesc {
    pub res_type: c_int,
    pub res: [u64; 16],
    pub flags: c_uint,
}

/// `CUipcMemHandle`: 64 opaque bytes, passed by value.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct IpcMemHandle {
    pub reserved: [u8; 64],
}

/// `CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS`, the one flag CUDA defines.
pub const CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS: c_uint = 1;
pub const CUDA_ERROR_NOT_READY: CUresult = 600;
pub const CU_STREAM_NON_BLOCKING: c_uint = 1;
pub const CU_EVENT_DISABLE_TIMING: c_uint = 2;
/// `CU_MEMHOSTALLOC_PORTABLE | CU_MEMHOSTALLOC_DEVICEMAP`: page-locked memory kernels reach.
pub const HOST_ALLOC_MAPPED: c_uint = 1 | 2;
/// `CU_MEMHOSTREGISTER_PORTABLE | CU_MEMHOSTREGISTER_DEVICEMAP`.
pub const HOST_REGISTER_MAPPED: c_uint = 1 | 2;

pub const CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT: c_int = 16;
pub const CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: c_int = 75;
pub const CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: c_int = 76;
pub const CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES: c_int = 8;
pub const CU_JIT_ERROR_LOG_BUFFER: c_int = 5;
pub const CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES: c_int = 6;
pub const CU_MEM_ATTACH_GLOBAL: c_uint = 1;

macro_rules! driver_api {
    ($($field:ident = $sym:literal : fn($($arg:ty),*) -> CUresult;)*) => {
        /// The loaded entry points (the library stays loaded for the process).
        pub struct Driver {
            _lib: Library,
            $(pub $field: unsafe extern "C" fn($($arg),*) -> CUresult,)*
        }

        impl Driver {
            unsafe fn resolve(lib: Library) -> Result<Driver, String> {
                $(
                    let $field = *lib
                        .get::<unsafe extern "C" fn($($arg),*) -> CUresult>(concat!($sym, "\0").as_bytes())
                        .map_err(|e| format!("the driver library has no {}: {e}", $sym))?;
                )*
                Ok(Driver { _lib: lib, $($field,)* })
            }
        }
    };
}

driver_api! {
    init = "cuInit": fn(c_uint) -> CUresult;
    device_get = "cuDeviceGet": fn(*mut CUdevice, c_int) -> CUresult;
    device_get_attribute = "cuDeviceGetAttribute": fn(*mut c_int, c_int, CUdevice) -> CUresult;
    device_total_mem = "cuDeviceTotalMem_v2": fn(*mut usize, CUdevice) -> CUresult;
    primary_ctx_retain = "cuDevicePrimaryCtxRetain": fn(*mut CUcontext, CUdevice) -> CUresult;
    ctx_set_current = "cuCtxSetCurrent": fn(CUcontext) -> CUresult;
    ctx_synchronize = "cuCtxSynchronize": fn() -> CUresult;
    module_load_data_ex = "cuModuleLoadDataEx": fn(*mut CUmodule, *const c_void, c_uint, *mut c_int, *mut *mut c_void) -> CUresult;
    module_get_function = "cuModuleGetFunction": fn(*mut CUfunction, CUmodule, *const c_char) -> CUresult;
    module_get_global = "cuModuleGetGlobal_v2": fn(*mut CUdeviceptr, *mut usize, CUmodule, *const c_char) -> CUresult;
    func_set_attribute = "cuFuncSetAttribute": fn(CUfunction, c_int, c_int) -> CUresult;
    mem_alloc = "cuMemAlloc_v2": fn(*mut CUdeviceptr, usize) -> CUresult;
    mem_alloc_managed = "cuMemAllocManaged": fn(*mut CUdeviceptr, usize, c_uint) -> CUresult;
    mem_free = "cuMemFree_v2": fn(CUdeviceptr) -> CUresult;
    mem_get_info = "cuMemGetInfo_v2": fn(*mut usize, *mut usize) -> CUresult;
    memcpy_async = "cuMemcpyAsync": fn(CUdeviceptr, CUdeviceptr, usize, CUstream) -> CUresult;
    memset_d8_async = "cuMemsetD8Async": fn(CUdeviceptr, u8, usize, CUstream) -> CUresult;
    mem_host_alloc = "cuMemHostAlloc": fn(*mut *mut c_void, usize, c_uint) -> CUresult;
    mem_free_host = "cuMemFreeHost": fn(*mut c_void) -> CUresult;
    mem_host_register = "cuMemHostRegister_v2": fn(*mut c_void, usize, c_uint) -> CUresult;
    mem_host_unregister = "cuMemHostUnregister": fn(*mut c_void) -> CUresult;
    mem_host_get_device_pointer = "cuMemHostGetDevicePointer_v2": fn(*mut CUdeviceptr, *mut c_void, c_uint) -> CUresult;
    stream_create = "cuStreamCreate": fn(*mut CUstream, c_uint) -> CUresult;
    stream_synchronize = "cuStreamSynchronize": fn(CUstream) -> CUresult;
    event_create = "cuEventCreate": fn(*mut CUevent, c_uint) -> CUresult;
    event_record = "cuEventRecord": fn(CUevent, CUstream) -> CUresult;
    event_query = "cuEventQuery": fn(CUevent) -> CUresult;
    event_elapsed_time = "cuEventElapsedTime": fn(*mut f32, CUevent, CUevent) -> CUresult;
    event_destroy = "cuEventDestroy_v2": fn(CUevent) -> CUresult;
    launch_kernel = "cuLaunchKernel": fn(CUfunction, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, CUstream, *mut *mut c_void, *mut *mut c_void) -> CUresult;
    launch_cooperative_kernel = "cuLaunchCooperativeKernel": fn(CUfunction, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, c_uint, CUstream, *mut *mut c_void) -> CUresult;
    get_error_string = "cuGetErrorString": fn(CUresult, *mut *const c_char) -> CUresult;
    array3d_create = "cuArray3DCreate_v2": fn(*mut CUarray, *const Array3DDesc) -> CUresult;
    memcpy3d = "cuMemcpy3D_v2": fn(*const Memcpy3D) -> CUresult;
    mipmapped_array_create = "cuMipmappedArrayCreate": fn(*mut CUmipmappedArray, *const Array3DDesc, c_uint) -> CUresult;
    mipmapped_array_get_level = "cuMipmappedArrayGetLevel": fn(*mut CUarray, CUmipmappedArray, c_uint) -> CUresult;
    tex_object_create = "cuTexObjectCreate": fn(*mut u64, *const ResDesc, *const crate::driver::texture::DrvTextureDesc, *const c_void) -> CUresult;
    surf_object_create = "cuSurfObjectCreate": fn(*mut u64, *const ResDesc) -> CUresult;
    ipc_get_mem_handle = "cuIpcGetMemHandle": fn(*mut IpcMemHandle, CUdeviceptr) -> CUresult;
    ipc_open_mem_handle = "cuIpcOpenMemHandle_v2": fn(*mut CUdeviceptr, IpcMemHandle, c_uint) -> CUresult;
    ipc_close_mem_handle = "cuIpcCloseMemHandle": fn(CUdeviceptr) -> CUresult;
    mem_get_address_range = "cuMemGetAddressRange_v2": fn(*mut CUdeviceptr, *mut usize, CUdeviceptr) -> CUresult;
    tex_object_destroy = "cuTexObjectDestroy": fn(u64) -> CUresult;
    surf_object_destroy = "cuSurfObjectDestroy": fn(u64) -> CUresult;
    array_destroy = "cuArrayDestroy": fn(CUarray) -> CUresult;
    mipmapped_array_destroy = "cuMipmappedArrayDestroy": fn(CUmipmappedArray) -> CUresult;
    mem_pool_create = "cuMemPoolCreate": fn(*mut CUmemoryPool, *const MemPoolProps) -> CUresult;
    mem_pool_destroy = "cuMemPoolDestroy": fn(CUmemoryPool) -> CUresult;
    mem_alloc_from_pool_async = "cuMemAllocFromPoolAsync": fn(*mut CUdeviceptr, usize, CUmemoryPool, CUstream) -> CUresult;
    mem_free_async = "cuMemFreeAsync": fn(CUdeviceptr, CUstream) -> CUresult;
    mem_pool_export_to_shareable_handle = "cuMemPoolExportToShareableHandle": fn(*mut c_void, CUmemoryPool, c_int, u64) -> CUresult;
    mem_pool_import_from_shareable_handle = "cuMemPoolImportFromShareableHandle": fn(*mut CUmemoryPool, *mut c_void, c_int, u64) -> CUresult;
    mem_pool_export_pointer = "cuMemPoolExportPointer": fn(*mut [u8; 64], CUdeviceptr) -> CUresult;
    mem_pool_import_pointer = "cuMemPoolImportPointer": fn(*mut CUdeviceptr, CUmemoryPool, *mut [u8; 64]) -> CUresult;
}

/// The library names tried, in order.
const LIBRARIES: [&str; 2] = ["libcuda.so.1", "libcuda.so"];

impl Driver {
    /// Loads NVIDIA's driver library, refusing Cuprite's own (which carries
    /// `__cuprite_runtime_marker`).
    pub fn load() -> Result<Driver, String> {
        let mut why = Vec::new();
        for name in LIBRARIES {
            let lib = match unsafe { Library::new(name) } {
                Ok(l) => l,
                Err(e) => {
                    let detail = std::error::Error::source(&e).map(|s| s.to_string()).unwrap_or_else(|| e.to_string());
                    why.push(format!("{name}: {detail}"));
                    continue;
                }
            };
            if unsafe { lib.get::<*const u8>(b"__cuprite_runtime_marker\0") }.is_ok() {
                why.push(format!("{name} is Cuprite's own runtime, not NVIDIA's driver"));
                continue;
            }
            return unsafe { Driver::resolve(lib) };
        }
        Err(format!("no NVIDIA driver library could be loaded ({})", why.join("; ")))
    }

    /// The driver's name for an error code.
    pub fn error_string(&self, r: CUresult) -> String {
        let mut p: *const c_char = std::ptr::null();
        unsafe {
            if (self.get_error_string)(r, &mut p) == 0 && !p.is_null() {
                return std::ffi::CStr::from_ptr(p).to_string_lossy().into_owned();
            }
        }
        format!("CUresult {r}")
    }
}
