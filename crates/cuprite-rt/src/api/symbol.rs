//! Device variables by their host shadows: cudaMemcpyToSymbol and friends.

use super::memory::{copy_async, copy_blocking, KIND_D2D, KIND_D2H, KIND_H2D};
use super::out;
use crate::context::ctx;
use crate::error::{self, api, CudaError, Result};
use crate::registry;
use std::ffi::{c_int, c_void};

fn symbol_range(symbol: *const c_void, count: usize, offset: usize) -> Result<*mut u8> {
    let v = registry::var(symbol).ok_or(error::INVALID_SYMBOL)?;
    match offset.checked_add(count) {
        Some(end) if end as u64 <= v.size => Ok(unsafe { (v.device_addr as *mut u8).add(offset) }),
        _ => Err(error::INVALID_VALUE),
    }
}

fn to_symbol(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int) -> Result<(*mut u8, c_int)> {
    crate::memory::check_kind(kind)?;
    ctx().check()?;
    let dst = symbol_range(symbol, count, offset)?;
    let kind = match kind {
        KIND_H2D | KIND_D2D => kind,
        4 => {
            if crate::memory::is_device_range(src, count.max(1)) {
                KIND_D2D
            } else {
                KIND_H2D
            }
        }
        _ => return Err(error::INVALID_MEMCPY_DIRECTION),
    };
    Ok((dst, kind))
}

fn from_symbol(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int) -> Result<(*mut u8, c_int)> {
    crate::memory::check_kind(kind)?;
    ctx().check()?;
    let src = symbol_range(symbol, count, offset)?;
    let kind = match kind {
        KIND_D2H | KIND_D2D => kind,
        4 => {
            if crate::memory::is_device_range(dst, count.max(1)) {
                KIND_D2D
            } else {
                KIND_D2H
            }
        }
        _ => return Err(error::INVALID_MEMCPY_DIRECTION),
    };
    Ok((src, kind))
}

#[no_mangle]
pub extern "C" fn cudaMemcpyToSymbol(
    symbol: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> CudaError {
    api(|| {
        let (dst, kind) = to_symbol(symbol, src, count, offset, kind)?;
        copy_blocking(dst as _, src, count, kind)
    })
}

#[no_mangle]
pub extern "C" fn cudaMemcpyFromSymbol(
    dst: *mut c_void,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
) -> CudaError {
    api(|| {
        let (src, kind) = from_symbol(dst, symbol, count, offset, kind)?;
        copy_blocking(dst, src as _, count, kind)
    })
}

#[no_mangle]
pub extern "C" fn cudaMemcpyToSymbolAsync(
    symbol: *const c_void,
    src: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
    st: *mut c_void,
) -> CudaError {
    api(|| {
        let (dst, kind) = to_symbol(symbol, src, count, offset, kind)?;
        copy_async(dst as _, src, count, kind, st)
    })
}

#[no_mangle]
pub extern "C" fn cudaMemcpyFromSymbolAsync(
    dst: *mut c_void,
    symbol: *const c_void,
    count: usize,
    offset: usize,
    kind: c_int,
    st: *mut c_void,
) -> CudaError {
    api(|| {
        let (src, kind) = from_symbol(dst, symbol, count, offset, kind)?;
        copy_async(dst, src as _, count, kind, st)
    })
}

#[no_mangle]
pub extern "C" fn cudaGetSymbolAddress(p: *mut *mut c_void, symbol: *const c_void) -> CudaError {
    api(|| {
        if p.is_null() {
            return Err(error::INVALID_VALUE);
        }
        ctx().check()?;
        let v = registry::var(symbol).ok_or(error::INVALID_SYMBOL)?;
        out(p, v.device_addr as *mut c_void)
    })
}

#[no_mangle]
pub extern "C" fn cudaGetSymbolSize(size: *mut usize, symbol: *const c_void) -> CudaError {
    api(|| {
        if size.is_null() {
            return Err(error::INVALID_VALUE);
        }
        ctx().check()?;
        let v = registry::var(symbol).ok_or(error::INVALID_SYMBOL)?;
        out(size, v.size as usize)
    })
}
