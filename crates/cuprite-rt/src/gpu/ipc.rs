//! Interprocess memory handles on the GPU device: device memory is the driver's, so a
//! handle is the driver's `CUipcMemHandle` (`cuIpcGetMemHandle` on the allocation's base,
//! so that a handle of an inner pointer opens at the base, as under CUDA), opened with
//! `cuIpcOpenMemHandle` (which counts repeated opens of one allocation) and closed with
//! `cuIpcCloseMemHandle`. Interprocess events need nothing here: the runtime's events
//! are host objects on both devices (`crate::ipc`'s shared counters).

use super::driver::*;
use super::GpuDevice;
use crate::error::{self, Result};
use crate::memory::{self, Kind};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Mutex;

/// Imported mappings of this process: base address → opens not yet closed.
static OPENED: Mutex<Option<HashMap<usize, usize>>> = Mutex::new(None);

fn opened<R>(f: impl FnOnce(&mut HashMap<usize, usize>) -> R) -> R {
    f(OPENED.lock().unwrap_or_else(|e| e.into_inner()).get_or_insert_with(HashMap::new))
}

impl GpuDevice {
    /// `cudaIpcGetMemHandle` for the device allocation containing `ptr`.
    pub fn ipc_export(&self, ptr: *const c_void) -> Result<[u8; 64]> {
        let a = memory::lookup(ptr).ok_or(error::INVALID_VALUE)?;
        if !matches!(a.kind, Kind::Device) {
            return Err(error::INVALID_VALUE);
        }
        self.current();
        let mut h = IpcMemHandle { reserved: [0; 64] };
        self.result(unsafe { (self.drv.ipc_get_mem_handle)(&mut h, a.base as CUdeviceptr) })?;
        Ok(h.reserved)
    }

    /// `cudaIpcOpenMemHandle`: the exported allocation's address in this process, known to
    /// the runtime as device memory while it is open.
    pub fn ipc_import(&self, bytes: &[u8; 64]) -> Result<*mut c_void> {
        if bytes.iter().all(|b| *b == 0) {
            return Err(error::INVALID_VALUE);
        }
        self.current();
        let mut p: CUdeviceptr = 0;
        self.result(unsafe { (self.drv.ipc_open_mem_handle)(&mut p, IpcMemHandle { reserved: *bytes }, CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS) })?;
        let first = opened(|m| {
            let n = m.entry(p as usize).or_insert(0);
            *n += 1;
            *n == 1
        });
        if first {
            self.track_mapping(p);
        }
        Ok(p as *mut c_void)
    }

    /// Makes a mapping the driver opened at `p` (another process's memory) known to the
    /// runtime as device memory, with the extent the driver gives it.
    pub(super) fn track_mapping(&self, p: CUdeviceptr) {
        let (mut base, mut size) = (0u64, 0usize);
        if unsafe { (self.drv.mem_get_address_range)(&mut base, &mut size, p) } != 0 {
            size = 1;
        }
        memory::track_foreign(p as usize, size, Kind::Device);
    }

    /// `cudaIpcCloseMemHandle`: one open of `ptr` fewer; the mapping goes with the last.
    pub fn ipc_close(&self, ptr: *const c_void) -> Result<()> {
        let p = ptr as usize;
        let last = opened(|m| match m.get_mut(&p) {
            None => Err(error::INVALID_VALUE),
            Some(n) => {
                *n -= 1;
                let last = *n == 0;
                if last {
                    m.remove(&p);
                }
                Ok(last)
            }
        })?;
        if last {
            crate::stream::wait_all_streams();
            let _ = memory::untrack_foreign(p as *mut c_void, &|k| matches!(k, Kind::Device));
        }
        self.current();
        self.result(unsafe { (self.drv.ipc_close_mem_handle)(p as CUdeviceptr) })
    }
}
