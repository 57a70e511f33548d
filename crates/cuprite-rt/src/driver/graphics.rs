//! The graphics-interoperability calls every graphics API shares (`cuGraphics*`). A
//! `CUgraphicsResource` comes only from an API-specific registration (OpenGL, Direct3D,
//! EGL, Vulkan), none of which the CPU device has, so no resource handle is valid:
//! each call answers CUDA_ERROR_INVALID_HANDLE (or INVALID_VALUE for bad arguments).

use super::{drv, CuResult, INVALID_HANDLE, INVALID_VALUE};
use std::ffi::{c_uint, c_void};

fn no_resource(resource: *mut c_void) -> CuResult {
    drv(|| Err(if resource.is_null() { INVALID_VALUE } else { INVALID_HANDLE }))
}

#[no_mangle]
pub extern "C" fn cuGraphicsUnregisterResource(r: *mut c_void) -> CuResult {
    no_resource(r)
}

#[no_mangle]
pub extern "C" fn cuGraphicsSubResourceGetMappedArray(_p: *mut *mut c_void, r: *mut c_void, _index: c_uint, _level: c_uint) -> CuResult {
    no_resource(r)
}

#[no_mangle]
pub extern "C" fn cuGraphicsResourceGetMappedMipmappedArray(_p: *mut *mut c_void, r: *mut c_void) -> CuResult {
    no_resource(r)
}

#[no_mangle]
pub extern "C" fn cuGraphicsResourceGetMappedPointer_v2(_p: *mut u64, _size: *mut usize, r: *mut c_void) -> CuResult {
    no_resource(r)
}

#[no_mangle]
pub extern "C" fn cuGraphicsResourceGetMappedPointer(p: *mut u64, size: *mut usize, r: *mut c_void) -> CuResult {
    cuGraphicsResourceGetMappedPointer_v2(p, size, r)
}

#[no_mangle]
pub extern "C" fn cuGraphicsResourceSetMapFlags_v2(r: *mut c_void, _flags: c_uint) -> CuResult {
    no_resource(r)
}

#[no_mangle]
pub extern "C" fn cuGraphicsResourceSetMapFlags(r: *mut c_void, flags: c_uint) -> CuResult {
    cuGraphicsResourceSetMapFlags_v2(r, flags)
}

fn map_or_unmap(count: c_uint, resources: *mut *mut c_void) -> CuResult {
    drv(|| {
        if count == 0 || resources.is_null() {
            return Err(INVALID_VALUE);
        }
        Err(INVALID_HANDLE)
    })
}

#[no_mangle]
pub extern "C" fn cuGraphicsMapResources(count: c_uint, resources: *mut *mut c_void, _s: *mut c_void) -> CuResult {
    map_or_unmap(count, resources)
}

#[no_mangle]
pub extern "C" fn cuGraphicsUnmapResources(count: c_uint, resources: *mut *mut c_void, _s: *mut c_void) -> CuResult {
    map_or_unmap(count, resources)
}
