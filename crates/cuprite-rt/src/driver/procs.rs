//! `cuGetProcAddress` (and the runtime's `cudaGetDriverEntryPoint`): the driver's
//! functions by name. A name is looked up as CUDA's header would map it for the
//! requested version (`cuMemAlloc` → `cuMemAlloc_v2`, `cuCtxCreate` → `_v4` from 13.0).
//! The table lists every `cu*` function of `driver/` (regenerate it when adding one).

use super::{any_time, CuResult, INVALID_VALUE, NOT_FOUND};
use std::ffi::{c_char, c_int, c_void, CStr};

fn table() -> &'static [(&'static str, usize)] {
    static T: std::sync::OnceLock<Vec<(&'static str, usize)>> = std::sync::OnceLock::new();
    T.get_or_init(|| {
        let v: Vec<(&str, *mut c_void)> = vec![
        ("cuCtxCreate_v2", super::context::cuCtxCreate_v2 as *mut c_void),
        ("cuIpcGetMemHandle", super::ipc::cuIpcGetMemHandle as *mut c_void),
        ("cuIpcOpenMemHandle_v2", super::ipc::cuIpcOpenMemHandle_v2 as *mut c_void),
        ("cuIpcCloseMemHandle", super::ipc::cuIpcCloseMemHandle as *mut c_void),
        ("cuIpcGetEventHandle", super::ipc::cuIpcGetEventHandle as *mut c_void),
        ("cuIpcOpenEventHandle", super::ipc::cuIpcOpenEventHandle as *mut c_void),
        ("cuArrayCreate_v2", super::texture::cuArrayCreate_v2 as *mut c_void),
        ("cuArray3DCreate_v2", super::texture::cuArray3DCreate_v2 as *mut c_void),
        ("cuArrayGetDescriptor_v2", super::texture::cuArrayGetDescriptor_v2 as *mut c_void),
        ("cuArray3DGetDescriptor_v2", super::texture::cuArray3DGetDescriptor_v2 as *mut c_void),
        ("cuArrayDestroy", super::texture::cuArrayDestroy as *mut c_void),
        ("cuMemcpyHtoA_v2", super::texture::cuMemcpyHtoA_v2 as *mut c_void),
        ("cuMemcpyAtoH_v2", super::texture::cuMemcpyAtoH_v2 as *mut c_void),
        ("cuMemcpyDtoA_v2", super::texture::cuMemcpyDtoA_v2 as *mut c_void),
        ("cuMemcpyAtoD_v2", super::texture::cuMemcpyAtoD_v2 as *mut c_void),
        ("cuMemcpyAtoA_v2", super::texture::cuMemcpyAtoA_v2 as *mut c_void),
        ("cuMemcpyHtoAAsync_v2", super::texture::cuMemcpyHtoAAsync_v2 as *mut c_void),
        ("cuMemcpyAtoHAsync_v2", super::texture::cuMemcpyAtoHAsync_v2 as *mut c_void),
        ("cuMipmappedArrayCreate", super::texture::cuMipmappedArrayCreate as *mut c_void),
        ("cuMipmappedArrayGetLevel", super::texture::cuMipmappedArrayGetLevel as *mut c_void),
        ("cuMipmappedArrayDestroy", super::texture::cuMipmappedArrayDestroy as *mut c_void),
        ("cuTexObjectCreate", super::texture::cuTexObjectCreate as *mut c_void),
        ("cuTexObjectDestroy", super::texture::cuTexObjectDestroy as *mut c_void),
        ("cuTexObjectGetResourceDesc", super::texture::cuTexObjectGetResourceDesc as *mut c_void),
        ("cuTexObjectGetTextureDesc", super::texture::cuTexObjectGetTextureDesc as *mut c_void),
        ("cuSurfObjectCreate", super::texture::cuSurfObjectCreate as *mut c_void),
        ("cuSurfObjectDestroy", super::texture::cuSurfObjectDestroy as *mut c_void),
        ("cuSurfObjectGetResourceDesc", super::texture::cuSurfObjectGetResourceDesc as *mut c_void),
        ("cuModuleGetTexRef", super::texref::cuModuleGetTexRef as *mut c_void),
        ("cuModuleGetSurfRef", super::texref::cuModuleGetSurfRef as *mut c_void),
        ("cuTexRefSetArray", super::texref::cuTexRefSetArray as *mut c_void),
        ("cuTexRefSetMipmappedArray", super::texref::cuTexRefSetMipmappedArray as *mut c_void),
        ("cuTexRefSetAddress_v2", super::texref::cuTexRefSetAddress_v2 as *mut c_void),
        ("cuTexRefSetAddress2D_v3", super::texref::cuTexRefSetAddress2D_v3 as *mut c_void),
        ("cuTexRefSetFormat", super::texref::cuTexRefSetFormat as *mut c_void),
        ("cuTexRefSetAddressMode", super::texref::cuTexRefSetAddressMode as *mut c_void),
        ("cuTexRefSetFilterMode", super::texref::cuTexRefSetFilterMode as *mut c_void),
        ("cuTexRefSetFlags", super::texref::cuTexRefSetFlags as *mut c_void),
        ("cuSurfRefSetArray", super::texref::cuSurfRefSetArray as *mut c_void),
        ("cuSurfRefGetArray", super::texref::cuSurfRefGetArray as *mut c_void),
        ("cuTexRefSetBorderColor", super::texref::cuTexRefSetBorderColor as *mut c_void),
        ("cuTexRefSetMaxAnisotropy", super::texref::cuTexRefSetMaxAnisotropy as *mut c_void),
        ("cuTexRefGetAddress", super::texref::cuTexRefGetAddress_v2 as *mut c_void),
        ("cuTexRefGetArray", super::texref::cuTexRefGetArray as *mut c_void),
        ("cuTexRefGetAddressMode", super::texref::cuTexRefGetAddressMode as *mut c_void),
        ("cuTexRefGetFilterMode", super::texref::cuTexRefGetFilterMode as *mut c_void),
        ("cuTexRefGetFlags", super::texref::cuTexRefGetFlags as *mut c_void),
        ("cuTexRefGetFormat", super::texref::cuTexRefGetFormat as *mut c_void),
        ("cuTexRefGetBorderColor", super::texref::cuTexRefGetBorderColor as *mut c_void),
        ("cuCtxCreate_v4", super::context::cuCtxCreate_v4 as *mut c_void),
        ("cuCtxDestroy", super::context::cuCtxDestroy as *mut c_void),
        ("cuCtxDestroy_v2", super::context::cuCtxDestroy_v2 as *mut c_void),
        ("cuCtxGetApiVersion", super::context::cuCtxGetApiVersion as *mut c_void),
        ("cuCtxGetCacheConfig", super::context::cuCtxGetCacheConfig as *mut c_void),
        ("cuCtxGetCurrent", super::context::cuCtxGetCurrent as *mut c_void),
        ("cuCtxGetDevice", super::context::cuCtxGetDevice as *mut c_void),
        ("cuCtxGetFlags", super::context::cuCtxGetFlags as *mut c_void),
        ("cuCtxGetLimit", super::context::cuCtxGetLimit as *mut c_void),
        ("cuCtxGetStreamPriorityRange", super::context::cuCtxGetStreamPriorityRange as *mut c_void),
        ("cuCtxPopCurrent", super::context::cuCtxPopCurrent as *mut c_void),
        ("cuCtxPopCurrent_v2", super::context::cuCtxPopCurrent_v2 as *mut c_void),
        ("cuCtxPushCurrent", super::context::cuCtxPushCurrent as *mut c_void),
        ("cuCtxPushCurrent_v2", super::context::cuCtxPushCurrent_v2 as *mut c_void),
        ("cuCtxSetCacheConfig", super::context::cuCtxSetCacheConfig as *mut c_void),
        ("cuCtxSetCurrent", super::context::cuCtxSetCurrent as *mut c_void),
        ("cuCtxSetLimit", super::context::cuCtxSetLimit as *mut c_void),
        ("cuCtxSynchronize", super::context::cuCtxSynchronize as *mut c_void),
        ("cuDeviceCanAccessPeer", super::device::cuDeviceCanAccessPeer as *mut c_void),
        ("cuDeviceComputeCapability", super::device::cuDeviceComputeCapability as *mut c_void),
        ("cuDeviceGet", super::device::cuDeviceGet as *mut c_void),
        ("cuDeviceGetAttribute", super::device::cuDeviceGetAttribute as *mut c_void),
        ("cuDeviceGetCount", super::device::cuDeviceGetCount as *mut c_void),
        ("cuDeviceGetDefaultMemPool", super::device::cuDeviceGetDefaultMemPool as *mut c_void),
        ("cuDeviceGetExecAffinitySupport", super::device::cuDeviceGetExecAffinitySupport as *mut c_void),
        ("cuDeviceGetName", super::device::cuDeviceGetName as *mut c_void),
        ("cuDeviceGetPCIBusId", super::device::cuDeviceGetPCIBusId as *mut c_void),
        ("cuDeviceGetUuid", super::device::cuDeviceGetUuid as *mut c_void),
        ("cuDeviceGetUuid_v2", super::device::cuDeviceGetUuid_v2 as *mut c_void),
        ("cuDevicePrimaryCtxGetState", super::context::cuDevicePrimaryCtxGetState as *mut c_void),
        ("cuDevicePrimaryCtxRelease", super::context::cuDevicePrimaryCtxRelease as *mut c_void),
        ("cuDevicePrimaryCtxRelease_v2", super::context::cuDevicePrimaryCtxRelease_v2 as *mut c_void),
        ("cuDevicePrimaryCtxReset", super::context::cuDevicePrimaryCtxReset as *mut c_void),
        ("cuDevicePrimaryCtxReset_v2", super::context::cuDevicePrimaryCtxReset_v2 as *mut c_void),
        ("cuDevicePrimaryCtxRetain", super::context::cuDevicePrimaryCtxRetain as *mut c_void),
        ("cuDevicePrimaryCtxSetFlags", super::context::cuDevicePrimaryCtxSetFlags as *mut c_void),
        ("cuDevicePrimaryCtxSetFlags_v2", super::context::cuDevicePrimaryCtxSetFlags_v2 as *mut c_void),
        ("cuDeviceTotalMem", super::device::cuDeviceTotalMem as *mut c_void),
        ("cuDeviceTotalMem_v2", super::device::cuDeviceTotalMem_v2 as *mut c_void),
        ("cuDriverGetVersion", super::cuDriverGetVersion as *mut c_void),
        ("cuEventCreate", super::stream::cuEventCreate as *mut c_void),
        ("cuEventDestroy", super::stream::cuEventDestroy as *mut c_void),
        ("cuEventDestroy_v2", super::stream::cuEventDestroy_v2 as *mut c_void),
        ("cuEventElapsedTime", super::stream::cuEventElapsedTime as *mut c_void),
        ("cuEventElapsedTime_v2", super::stream::cuEventElapsedTime_v2 as *mut c_void),
        ("cuEventQuery", super::stream::cuEventQuery as *mut c_void),
        ("cuEventRecord", super::stream::cuEventRecord as *mut c_void),
        ("cuEventRecordWithFlags", super::stream::cuEventRecordWithFlags as *mut c_void),
        ("cuEventSynchronize", super::stream::cuEventSynchronize as *mut c_void),
        ("cuFuncGetAttribute", super::launch::cuFuncGetAttribute as *mut c_void),
        ("cuFuncSetAttribute", super::launch::cuFuncSetAttribute as *mut c_void),
        ("cuFuncSetBlockShape", super::launch::cuFuncSetBlockShape as *mut c_void),
        ("cuFuncSetCacheConfig", super::launch::cuFuncSetCacheConfig as *mut c_void),
        ("cuFuncSetSharedSize", super::launch::cuFuncSetSharedSize as *mut c_void),
        ("cuGetErrorName", super::errors::cuGetErrorName as *mut c_void),
        ("cuGetErrorString", super::errors::cuGetErrorString as *mut c_void),
        ("cuInit", super::cuInit as *mut c_void),
        ("cuKernelGetFunction", super::module::cuKernelGetFunction as *mut c_void),
        ("cuLaunch", super::launch::cuLaunch as *mut c_void),
        ("cuLaunchCooperativeKernel", super::launch::cuLaunchCooperativeKernel as *mut c_void),
        ("cuLaunchGrid", super::launch::cuLaunchGrid as *mut c_void),
        ("cuLaunchGridAsync", super::launch::cuLaunchGridAsync as *mut c_void),
        ("cuLaunchHostFunc", super::stream::cuLaunchHostFunc as *mut c_void),
        ("cuLaunchKernel", super::launch::cuLaunchKernel as *mut c_void),
        ("cuLaunchKernelEx", super::launch::cuLaunchKernelEx as *mut c_void),
        ("cuLibraryGetGlobal", super::module::cuLibraryGetGlobal as *mut c_void),
        ("cuLibraryGetKernel", super::module::cuLibraryGetKernel as *mut c_void),
        ("cuLibraryGetModule", super::module::cuLibraryGetModule as *mut c_void),
        ("cuLibraryLoadData", super::module::cuLibraryLoadData as *mut c_void),
        ("cuLibraryLoadFromFile", super::module::cuLibraryLoadFromFile as *mut c_void),
        ("cuLibraryUnload", super::module::cuLibraryUnload as *mut c_void),
        ("cuMemAllocAsync", super::memory::cuMemAllocAsync as *mut c_void),
        ("cuMemAllocHost_v2", super::memory::cuMemAllocHost_v2 as *mut c_void),
        ("cuMemAllocManaged", super::memory::cuMemAllocManaged as *mut c_void),
        ("cuMemAllocPitch_v2", super::memory::cuMemAllocPitch_v2 as *mut c_void),
        ("cuMemAlloc_v2", super::memory::cuMemAlloc_v2 as *mut c_void),
        ("cuMemFreeAsync", super::memory::cuMemFreeAsync as *mut c_void),
        ("cuMemFreeHost", super::memory::cuMemFreeHost as *mut c_void),
        ("cuMemFree_v2", super::memory::cuMemFree_v2 as *mut c_void),
        ("cuMemGetAddressRange_v2", super::memory::cuMemGetAddressRange_v2 as *mut c_void),
        ("cuMemGetInfo_v2", super::memory::cuMemGetInfo_v2 as *mut c_void),
        ("cuMemHostAlloc", super::memory::cuMemHostAlloc as *mut c_void),
        ("cuMemHostGetDevicePointer_v2", super::memory::cuMemHostGetDevicePointer_v2 as *mut c_void),
        ("cuMemHostGetFlags", super::memory::cuMemHostGetFlags as *mut c_void),
        ("cuMemHostRegister_v2", super::memory::cuMemHostRegister_v2 as *mut c_void),
        ("cuMemHostUnregister", super::memory::cuMemHostUnregister as *mut c_void),
        ("cuMemcpy", super::memory::cuMemcpy as *mut c_void),
        ("cuMemcpy2DAsync_v2", super::memory::cuMemcpy2DAsync_v2 as *mut c_void),
        ("cuMemcpy2DUnaligned_v2", super::memory::cuMemcpy2DUnaligned_v2 as *mut c_void),
        ("cuMemcpy2D_v2", super::memory::cuMemcpy2D_v2 as *mut c_void),
        ("cuMemcpy3DAsync_v2", super::memory::cuMemcpy3DAsync_v2 as *mut c_void),
        ("cuMemcpy3D_v2", super::memory::cuMemcpy3D_v2 as *mut c_void),
        ("cuMemcpyAsync", super::memory::cuMemcpyAsync as *mut c_void),
        ("cuMemcpyDtoDAsync_v2", super::memory::cuMemcpyDtoDAsync_v2 as *mut c_void),
        ("cuMemcpyDtoD_v2", super::memory::cuMemcpyDtoD_v2 as *mut c_void),
        ("cuMemcpyDtoHAsync_v2", super::memory::cuMemcpyDtoHAsync_v2 as *mut c_void),
        ("cuMemcpyDtoH_v2", super::memory::cuMemcpyDtoH_v2 as *mut c_void),
        ("cuMemcpyHtoDAsync_v2", super::memory::cuMemcpyHtoDAsync_v2 as *mut c_void),
        ("cuMemcpyHtoD_v2", super::memory::cuMemcpyHtoD_v2 as *mut c_void),
        ("cuMemsetD16Async", super::memory::cuMemsetD16Async as *mut c_void),
        ("cuMemsetD16_v2", super::memory::cuMemsetD16_v2 as *mut c_void),
        ("cuMemsetD2D16_v2", super::memory::cuMemsetD2D16_v2 as *mut c_void),
        ("cuMemsetD2D32_v2", super::memory::cuMemsetD2D32_v2 as *mut c_void),
        ("cuMemsetD2D8_v2", super::memory::cuMemsetD2D8_v2 as *mut c_void),
        ("cuMemsetD32Async", super::memory::cuMemsetD32Async as *mut c_void),
        ("cuMemsetD32_v2", super::memory::cuMemsetD32_v2 as *mut c_void),
        ("cuMemsetD8Async", super::memory::cuMemsetD8Async as *mut c_void),
        ("cuMemsetD8_v2", super::memory::cuMemsetD8_v2 as *mut c_void),
        ("cuModuleGetFunction", super::module::cuModuleGetFunction as *mut c_void),
        ("cuModuleGetGlobal", super::module::cuModuleGetGlobal as *mut c_void),
        ("cuModuleGetGlobal_v2", super::module::cuModuleGetGlobal_v2 as *mut c_void),
        ("cuModuleLoad", super::module::cuModuleLoad as *mut c_void),
        ("cuModuleLoadData", super::module::cuModuleLoadData as *mut c_void),
        ("cuModuleLoadDataEx", super::module::cuModuleLoadDataEx as *mut c_void),
        ("cuModuleLoadFatBinary", super::module::cuModuleLoadFatBinary as *mut c_void),
        ("cuModuleUnload", super::module::cuModuleUnload as *mut c_void),
        ("cuOccupancyMaxActiveBlocksPerMultiprocessor", super::launch::cuOccupancyMaxActiveBlocksPerMultiprocessor as *mut c_void),
        ("cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags", super::launch::cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags as *mut c_void),
        ("cuOccupancyMaxPotentialBlockSize", super::launch::cuOccupancyMaxPotentialBlockSize as *mut c_void),
        ("cuParamSetSize", super::launch::cuParamSetSize as *mut c_void),
        ("cuParamSetf", super::launch::cuParamSetf as *mut c_void),
        ("cuParamSeti", super::launch::cuParamSeti as *mut c_void),
        ("cuParamSetv", super::launch::cuParamSetv as *mut c_void),
        ("cuPointerGetAttribute", super::memory::cuPointerGetAttribute as *mut c_void),
        ("cuPointerGetAttributes", super::memory::cuPointerGetAttributes as *mut c_void),
        ("cuStreamAddCallback", super::stream::cuStreamAddCallback as *mut c_void),
        ("cuStreamCreate", super::stream::cuStreamCreate as *mut c_void),
        ("cuStreamCreateWithPriority", super::stream::cuStreamCreateWithPriority as *mut c_void),
        ("cuStreamDestroy", super::stream::cuStreamDestroy as *mut c_void),
        ("cuStreamDestroy_v2", super::stream::cuStreamDestroy_v2 as *mut c_void),
        ("cuStreamGetFlags", super::stream::cuStreamGetFlags as *mut c_void),
        ("cuStreamGetPriority", super::stream::cuStreamGetPriority as *mut c_void),
        ("cuStreamGetDevice", super::stream::cuStreamGetDevice as *mut c_void),
        ("cuStreamQuery", super::stream::cuStreamQuery as *mut c_void),
        ("cuStreamSynchronize", super::stream::cuStreamSynchronize as *mut c_void),
        ("cuStreamWaitEvent", super::stream::cuStreamWaitEvent as *mut c_void),
        ("cuGetProcAddress", cuGetProcAddress as *mut c_void),
        ("cuGetProcAddress_v2", cuGetProcAddress_v2 as *mut c_void),
    ];
        v.into_iter().map(|(n, p)| (n, p as usize)).collect()
    })
}

fn exact(name: &str) -> Option<*mut c_void> {
    table().iter().find(|(n, _)| *n == name).map(|(_, p)| *p as *mut c_void)
}

/// The function `name` means for a program built against CUDA `version`.
pub fn lookup(name: &str, version: i32) -> Option<*mut c_void> {
    let suffixes: &[&str] = if name == "cuCtxCreate" && version < 13000 { &["_v2"] } else { &["_v4", "_v3", "_v2", ""] };
    suffixes.iter().find_map(|s| exact(&format!("{name}{s}")))
}

#[no_mangle]
pub extern "C" fn cuGetProcAddress_v2(symbol: *const c_char, pfn: *mut *mut c_void, version: c_int, _flags: u64, status: *mut c_int) -> CuResult {
    any_time(|| {
        if symbol.is_null() || pfn.is_null() {
            return Err(INVALID_VALUE);
        }
        let name = unsafe { CStr::from_ptr(symbol) }.to_string_lossy();
        let f = lookup(&name, version);
        unsafe { *pfn = f.unwrap_or(std::ptr::null_mut()) };
        if !status.is_null() {
            unsafe { *status = if f.is_some() { 0 } else { 1 } };
        }
        // An unknown symbol is no error: the status says so (measured on CUDA 13); without
        // a status to carry it, CUDA_ERROR_NOT_FOUND (not measured).
        match (f, status.is_null()) {
            (None, true) => Err(NOT_FOUND),
            _ => Ok(()),
        }
    })
}

#[no_mangle]
pub extern "C" fn cuGetProcAddress(symbol: *const c_char, pfn: *mut *mut c_void, version: c_int, flags: u64) -> CuResult {
    cuGetProcAddress_v2(symbol, pfn, version, flags, std::ptr::null_mut())
}
