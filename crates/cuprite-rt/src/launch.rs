//! Kernel launches: the call-configuration stack of `<<<>>>`, validation against the
//! device's limits (as the hardware does it), and the argument copy taken at launch.

use crate::abi::Dim3;
use crate::error::{self, Result};
use crate::registry::Kernel;
use std::alloc::Layout;
use std::cell::RefCell;
use std::ffi::c_void;
use std::sync::Arc;

#[derive(Clone, Copy, Debug)]
pub struct CallConfig {
    pub grid: Dim3,
    pub block: Dim3,
    pub shared: usize,
    pub stream: *mut c_void,
}

thread_local! {
    static CONFIGS: RefCell<Vec<CallConfig>> = const { RefCell::new(Vec::new()) };
}

pub fn push_config(c: CallConfig) {
    let _ = CONFIGS.try_with(|v| v.borrow_mut().push(c));
}

pub fn pop_config() -> Option<CallConfig> {
    CONFIGS.try_with(|v| v.borrow_mut().pop()).ok().flatten()
}

/// Limits a launch is checked against.
#[derive(Clone, Copy, Debug)]
pub struct Limits {
    pub max_threads_per_block: u32,
    pub max_block: [u32; 3],
    pub max_grid: [u32; 3],
    pub shared_per_block: u64,
    pub shared_optin: u64,
}

/// Checks a launch configuration as the hardware does. Returns the error a GPU gives.
pub fn validate(k: &Kernel, grid: Dim3, block: Dim3, dynamic_shared: usize, lim: &Limits) -> Result<()> {
    let bad_block = block.x == 0
        || block.y == 0
        || block.z == 0
        || block.x > lim.max_block[0]
        || block.y > lim.max_block[1]
        || block.z > lim.max_block[2]
        || block.count() > lim.max_threads_per_block as u64;
    let bad_grid = grid.x == 0
        || grid.y == 0
        || grid.z == 0
        || grid.x > lim.max_grid[0]
        || grid.y > lim.max_grid[1]
        || grid.z > lim.max_grid[2];
    // CUDA 13 reports every configuration error as cudaErrorInvalidValue (measured).
    if bad_block || bad_grid {
        return Err(error::INVALID_VALUE);
    }
    if k.max_threads_per_block != 0 && block.count() > k.max_threads_per_block as u64 {
        return Err(error::INVALID_VALUE);
    }
    let static_shared = k.static_shared_bytes;
    let dyn_limit = k.dynamic_shared_limit(&lim);
    if static_shared > lim.shared_optin.max(lim.shared_per_block) || dynamic_shared as u64 > dyn_limit {
        return Err(error::INVALID_VALUE);
    }
    Ok(())
}

/// A launch ready to run: the kernel, its configuration and a copy of its arguments.
pub struct PreparedLaunch {
    pub kernel: Arc<Kernel>,
    pub grid: Dim3,
    pub block: Dim3,
    pub dynamic_shared: usize,
    /// Launched cooperatively: its blocks may meet at grid barriers.
    pub cooperative: bool,
    buf: *mut u8,
    layout: Layout,
    ptrs: Vec<*mut c_void>,
}

unsafe impl Send for PreparedLaunch {}
// Shared read-only by graph launches; the argument copy is never written after `new`.
unsafe impl Sync for PreparedLaunch {}

impl Clone for PreparedLaunch {
    fn clone(&self) -> Self {
        unsafe {
            let buf = std::alloc::alloc(self.layout);
            if buf.is_null() {
                std::alloc::handle_alloc_error(self.layout);
            }
            std::ptr::copy_nonoverlapping(self.buf, buf, self.layout.size());
            let ptrs = self.ptrs.iter().map(|p| buf.add(*p as usize - self.buf as usize) as *mut c_void).collect();
            PreparedLaunch {
                kernel: self.kernel.clone(),
                grid: self.grid,
                block: self.block,
                dynamic_shared: self.dynamic_shared,
                cooperative: self.cooperative,
                buf,
                layout: self.layout,
                ptrs,
            }
        }
    }
}

impl PreparedLaunch {
    /// Copies the arguments (`args[i]` points at the i-th argument) with the sizes and
    /// alignments of the kernel's parameters.
    ///
    /// # Safety
    /// `args` must hold `num_params` valid pointers to arguments of the declared sizes.
    pub unsafe fn new(
        kernel: Arc<Kernel>,
        grid: Dim3,
        block: Dim3,
        dynamic_shared: usize,
        args: *const *const c_void,
    ) -> Result<PreparedLaunch> {
        let n = kernel.param_sizes.len();
        if n > 0 && args.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let mut offsets = Vec::with_capacity(n);
        let mut off = 0usize;
        let mut max_align = 16usize;
        for i in 0..n {
            let size = kernel.param_sizes[i] as usize;
            let align = (kernel.param_aligns.get(i).copied().unwrap_or(1) as usize).max(1).next_power_of_two();
            max_align = max_align.max(align);
            off = (off + align - 1) & !(align - 1);
            offsets.push(off);
            off += size;
        }
        let layout = Layout::from_size_align(off.max(1), max_align).map_err(|_| error::INVALID_VALUE)?;
        let buf = std::alloc::alloc_zeroed(layout);
        if buf.is_null() {
            return Err(error::MEMORY_ALLOCATION);
        }
        let mut ptrs = Vec::with_capacity(n);
        for i in 0..n {
            let src = *args.add(i);
            let dst = buf.add(offsets[i]);
            let size = kernel.param_sizes[i] as usize;
            if size > 0 {
                if src.is_null() {
                    std::alloc::dealloc(buf, layout);
                    return Err(error::INVALID_VALUE);
                }
                std::ptr::copy_nonoverlapping(src as *const u8, dst, size);
            }
            ptrs.push(dst as *mut c_void);
        }
        Ok(PreparedLaunch { kernel, grid, block, dynamic_shared, cooperative: false, buf, layout, ptrs })
    }

    pub fn arg_ptrs(&self) -> *const *mut c_void {
        self.ptrs.as_ptr()
    }
}

impl Drop for PreparedLaunch {
    fn drop(&mut self) {
        unsafe { std::alloc::dealloc(self.buf, self.layout) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::{AtomicI32, AtomicU32, Ordering};

    fn kernel(max_threads: u32, static_shared: u64) -> Kernel {
        Kernel {
            name: "k".into(),
            symbol: "_Z1kv".into(),
            entry: None,
            param_sizes: vec![4, 8],
            param_aligns: vec![4, 8],
            static_shared_bytes: static_shared,
            slot_bytes_per_thread: 0,
            local_bytes_per_thread: 0,
            max_threads_per_block: max_threads,
            min_blocks_per_sm: 0,
            max_dynamic_shared: AtomicU32::new(crate::registry::DYNAMIC_SHARED_UNSET),
            carveout: AtomicI32::new(-1),
        }
    }

    const LIM: Limits = Limits {
        max_threads_per_block: 1024,
        max_block: [1024, 1024, 64],
        max_grid: [2147483647, 65535, 65535],
        shared_per_block: 49152,
        shared_optin: 232448,
    };

    fn d(x: u32, y: u32, z: u32) -> Dim3 {
        Dim3 { x, y, z }
    }

    #[test]
    fn validation() {
        let k = kernel(0, 0);
        assert_eq!(validate(&k, d(1, 1, 1), d(1024, 1, 1), 0, &LIM), Ok(()));
        assert_eq!(validate(&k, d(1, 1, 1), d(1025, 1, 1), 0, &LIM), Err(error::INVALID_VALUE));
        assert_eq!(validate(&k, d(1, 1, 1), d(32, 32, 2), 0, &LIM), Err(error::INVALID_VALUE));
        assert_eq!(validate(&k, d(1, 1, 1), d(1, 1, 65), 0, &LIM), Err(error::INVALID_VALUE));
        assert_eq!(validate(&k, d(0, 1, 1), d(1, 1, 1), 0, &LIM), Err(error::INVALID_VALUE));
        assert_eq!(validate(&k, d(1, 65536, 1), d(1, 1, 1), 0, &LIM), Err(error::INVALID_VALUE));
        assert_eq!(validate(&k, d(1, 1, 1), d(1, 1, 1), 49152, &LIM), Ok(()));
        assert_eq!(validate(&k, d(1, 1, 1), d(1, 1, 1), 49153, &LIM), Err(error::INVALID_VALUE));
        k.max_dynamic_shared.store(100000, Ordering::Relaxed);
        assert_eq!(validate(&k, d(1, 1, 1), d(1, 1, 1), 100000, &LIM), Ok(()));
        let lb = kernel(256, 0);
        assert_eq!(validate(&lb, d(1, 1, 1), d(257, 1, 1), 0, &LIM), Err(error::INVALID_VALUE));
    }

    #[test]
    fn args_are_copied_aligned() {
        let k = Arc::new(kernel(0, 0));
        let a: i32 = 7;
        let b: f64 = 2.5;
        let args = [&a as *const i32 as *const c_void, &b as *const f64 as *const c_void];
        let l = unsafe { PreparedLaunch::new(k, d(1, 1, 1), d(1, 1, 1), 0, args.as_ptr()) }.unwrap();
        let p = l.arg_ptrs();
        unsafe {
            assert_eq!(*(*p as *const i32), 7);
            let pb = *p.add(1);
            assert_eq!(pb as usize % 8, 0);
            assert_eq!(*(pb as *const f64), 2.5);
        }
    }
}
