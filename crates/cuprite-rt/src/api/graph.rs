//! CUDA graphs: explicit construction, queries, instantiation, launch, updates, and the
//! stream-capture entry points.

use super::memory::{Extent, Memcpy3DParms, PitchedPtr, Pos};
use super::out;
use crate::abi::Dim3;
use crate::context::ctx;
use crate::error::{self, api, CudaError, Result};
use crate::graph::{self, capture, exec, Memcpy, Memset, NodeKind};
use crate::launch::{self, PreparedLaunch};
use crate::stream::{self, HostFn, Op, SendPtr};
use std::ffi::{c_char, c_int, c_uint, c_ulonglong, c_void};
use std::sync::Arc;

type Node = *mut c_void;

#[repr(C)]
pub struct KernelNodeParams {
    func: *mut c_void,
    grid: Dim3,
    block: Dim3,
    shared: c_uint,
    params: *mut *mut c_void,
    extra: *mut *mut c_void,
}

#[repr(C)]
pub struct MemsetParams {
    dst: *mut c_void,
    pitch: usize,
    value: c_uint,
    elem: c_uint,
    width: usize,
    height: usize,
}

#[repr(C)]
pub struct HostNodeParams {
    f: Option<HostFn>,
    data: *mut c_void,
}

#[repr(C)]
pub struct MemAllocNodeParams {
    pool_props: [u64; 11],
    access: *const c_void,
    access_count: usize,
    bytesize: usize,
    dptr: *mut c_void,
}

#[repr(C)]
pub struct ExecUpdateResultInfo {
    result: c_int,
    error_node: Node,
    error_from_node: Node,
}

fn deps_of(deps: *const Node, n: usize) -> Result<Vec<usize>> {
    if n > 0 && deps.is_null() {
        return Err(error::INVALID_VALUE);
    }
    Ok((0..n).map(|i| unsafe { *deps.add(i) } as usize).collect())
}

/// Adds a node to `g` after `deps`, writing its handle to `out_node`.
fn add(out_node: *mut Node, g: *mut c_void, deps: *const Node, n: usize, kind: impl FnOnce() -> Result<NodeKind>) -> CudaError {
    api(|| {
        if out_node.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let g = graph::graph(g)?;
        let deps = deps_of(deps, n)?;
        let node = g.add(kind()?, &deps)?;
        out(out_node, node.handle() as Node)
    })
}

fn kernel_kind(p: *const KernelNodeParams) -> Result<NodeKind> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    let p = unsafe { &*p };
    if !p.extra.is_null() {
        return Err(error::NOT_SUPPORTED);
    }
    let k = crate::registry::kernel(p.func).ok_or(error::INVALID_DEVICE_FUNCTION)?;
    if k.entry.is_none() {
        return Err(error::INVALID_DEVICE_FUNCTION);
    }
    launch::validate(&k, p.grid, p.block, p.shared as usize, &ctx().props().limits())?;
    let l = unsafe { PreparedLaunch::new(k, p.grid, p.block, p.shared as usize, p.params as *const *const c_void)? };
    Ok(NodeKind::Kernel { launch: l, func: SendPtr(p.func) })
}

fn memcpy_kind(p: *const Memcpy3DParms) -> Result<NodeKind> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    let p = unsafe { *p };
    if !p.src_array.is_null() || !p.dst_array.is_null() {
        // CUDA arrays in graph copies are not implemented yet: refused, never wrong.
        return Err(error::NOT_SUPPORTED);
    }
    crate::memory::check_kind(p.kind)?;
    if p.src_ptr.ptr.is_null() || p.dst_ptr.ptr.is_null() {
        return Err(error::INVALID_VALUE);
    }
    Ok(NodeKind::Memcpy(Memcpy { params: p }))
}

fn memcpy_1d(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int) -> Result<NodeKind> {
    crate::memory::check_kind(kind)?;
    super::memory::check_copy(dst, src, count, kind)?;
    let pos = Pos { x: 0, y: 0, z: 0 };
    let p = Memcpy3DParms {
        src_array: std::ptr::null_mut(),
        src_pos: pos,
        src_ptr: PitchedPtr { ptr: src as *mut c_void, pitch: count, xsize: count, ysize: 1 },
        dst_array: std::ptr::null_mut(),
        dst_pos: pos,
        dst_ptr: PitchedPtr { ptr: dst, pitch: count, xsize: count, ysize: 1 },
        extent: Extent { width: count, height: 1, depth: 1 },
        kind,
    };
    Ok(NodeKind::Memcpy(Memcpy { params: p }))
}

fn memset_kind(p: *const MemsetParams) -> Result<NodeKind> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    let p = unsafe { &*p };
    let elem = p.elem as usize;
    if !matches!(elem, 1 | 2 | 4) || p.dst.is_null() {
        return Err(error::INVALID_VALUE);
    }
    let height = p.height.max(1);
    let row = p.width * elem;
    if height > 1 && row > p.pitch {
        return Err(error::INVALID_VALUE);
    }
    let span = if height > 1 { p.pitch * (height - 1) + row } else { row };
    if !crate::memory::is_device_range(p.dst, span.max(1)) {
        return Err(error::INVALID_VALUE);
    }
    Ok(NodeKind::Memset(Memset { dst: SendPtr(p.dst), pitch: p.pitch, value: p.value, elem, width: p.width, height }))
}

fn host_kind(p: *const HostNodeParams) -> Result<NodeKind> {
    if p.is_null() {
        return Err(error::INVALID_VALUE);
    }
    let p = unsafe { &*p };
    Ok(NodeKind::Host { f: p.f.ok_or(error::INVALID_VALUE)?, data: SendPtr(p.data) })
}

#[no_mangle]
pub extern "C" fn cudaGraphCreate(g: *mut *mut c_void, flags: c_uint) -> CudaError {
    api(|| {
        if flags != 0 {
            return Err(error::INVALID_VALUE);
        }
        out(g, graph::create().handle() as *mut c_void)
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphDestroy(g: *mut c_void) -> CudaError {
    api(|| graph::destroy(g))
}

#[no_mangle]
pub extern "C" fn cudaGraphAddKernelNode(n: *mut Node, g: *mut c_void, d: *const Node, nd: usize, p: *const KernelNodeParams) -> CudaError {
    add(n, g, d, nd, || kernel_kind(p))
}

#[no_mangle]
pub extern "C" fn cudaGraphAddMemcpyNode(n: *mut Node, g: *mut c_void, d: *const Node, nd: usize, p: *const Memcpy3DParms) -> CudaError {
    add(n, g, d, nd, || memcpy_kind(p))
}

#[no_mangle]
pub extern "C" fn cudaGraphAddMemcpyNode1D(
    n: *mut Node,
    g: *mut c_void,
    d: *const Node,
    nd: usize,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> CudaError {
    add(n, g, d, nd, || memcpy_1d(dst, src, count, kind))
}

#[no_mangle]
pub extern "C" fn cudaGraphAddMemsetNode(n: *mut Node, g: *mut c_void, d: *const Node, nd: usize, p: *const MemsetParams) -> CudaError {
    add(n, g, d, nd, || memset_kind(p))
}

#[no_mangle]
pub extern "C" fn cudaGraphAddHostNode(n: *mut Node, g: *mut c_void, d: *const Node, nd: usize, p: *const HostNodeParams) -> CudaError {
    add(n, g, d, nd, || host_kind(p))
}

#[no_mangle]
pub extern "C" fn cudaGraphAddChildGraphNode(n: *mut Node, g: *mut c_void, d: *const Node, nd: usize, child: *mut c_void) -> CudaError {
    add(n, g, d, nd, || {
        let c = graph::graph(child)?.clone_graph()?;
        graph::register_child(&c);
        Ok(NodeKind::Child(c))
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphAddEmptyNode(n: *mut Node, g: *mut c_void, d: *const Node, nd: usize) -> CudaError {
    add(n, g, d, nd, || Ok(NodeKind::Empty))
}

#[no_mangle]
pub extern "C" fn cudaGraphAddEventRecordNode(n: *mut Node, g: *mut c_void, d: *const Node, nd: usize, e: *mut c_void) -> CudaError {
    add(n, g, d, nd, || Ok(NodeKind::EventRecord(crate::event::resolve(e)?)))
}

#[no_mangle]
pub extern "C" fn cudaGraphAddEventWaitNode(n: *mut Node, g: *mut c_void, d: *const Node, nd: usize, e: *mut c_void) -> CudaError {
    add(n, g, d, nd, || Ok(NodeKind::EventWait(crate::event::resolve(e)?)))
}

/// The memory of an allocation node is reserved when the node is made, at the address
/// it reports, and belongs to the graph from then on.
#[no_mangle]
pub extern "C" fn cudaGraphAddMemAllocNode(n: *mut Node, g: *mut c_void, d: *const Node, nd: usize, p: *mut MemAllocNodeParams) -> CudaError {
    add(n, g, d, nd, || {
        if p.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let p = unsafe { &mut *p };
        if p.bytesize == 0 {
            return Err(error::INVALID_VALUE);
        }
        let a = graph::graph(g)?.alloc_memory(&deps_of(d, nd)?, p.bytesize)?;
        p.dptr = a.ptr as *mut c_void;
        Ok(NodeKind::MemAlloc(a, p.bytesize))
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphAddMemFreeNode(n: *mut Node, g: *mut c_void, d: *const Node, nd: usize, ptr: *mut c_void) -> CudaError {
    add(n, g, d, nd, || {
        if !crate::mempool::freeable(ptr) {
            return Err(error::INVALID_VALUE);
        }
        Ok(NodeKind::MemFree(SendPtr(ptr)))
    })
}

fn with_node<T>(n: Node, f: impl FnOnce(&mut NodeKind) -> Result<T>) -> Result<T> {
    let node = graph::node(n as usize)?;
    let mut k = node.kind();
    f(&mut k)
}

#[no_mangle]
pub extern "C" fn cudaGraphKernelNodeGetParams(n: Node, p: *mut KernelNodeParams) -> CudaError {
    api(|| {
        if p.is_null() {
            return Err(error::INVALID_VALUE);
        }
        with_node(n, |k| match k {
            NodeKind::Kernel { launch, func } => {
                unsafe {
                    *p = KernelNodeParams {
                        func: func.0,
                        grid: launch.grid,
                        block: launch.block,
                        shared: launch.dynamic_shared as c_uint,
                        params: launch.arg_ptrs() as *mut *mut c_void,
                        extra: std::ptr::null_mut(),
                    }
                };
                Ok(())
            }
            _ => Err(error::INVALID_VALUE),
        })
    })
}

/// Replaces a node's parameters with ones of the same node type.
fn set_params(n: Node, kind: Result<NodeKind>) -> Result<()> {
    let kind = kind?;
    with_node(n, |k| {
        if k.type_code() != kind.type_code() {
            return Err(error::INVALID_VALUE);
        }
        *k = kind;
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphKernelNodeSetParams(n: Node, p: *const KernelNodeParams) -> CudaError {
    api(|| set_params(n, kernel_kind(p)))
}

#[no_mangle]
pub extern "C" fn cudaGraphMemcpyNodeGetParams(n: Node, p: *mut Memcpy3DParms) -> CudaError {
    api(|| {
        with_node(n, |k| match k {
            NodeKind::Memcpy(m) => out(p, m.params),
            _ => Err(error::INVALID_VALUE),
        })
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphMemcpyNodeSetParams(n: Node, p: *const Memcpy3DParms) -> CudaError {
    api(|| set_params(n, memcpy_kind(p)))
}

#[no_mangle]
pub extern "C" fn cudaGraphMemcpyNodeSetParams1D(n: Node, dst: *mut c_void, src: *const c_void, count: usize, kind: c_int) -> CudaError {
    api(|| set_params(n, memcpy_1d(dst, src, count, kind)))
}

#[no_mangle]
pub extern "C" fn cudaGraphMemsetNodeGetParams(n: Node, p: *mut MemsetParams) -> CudaError {
    api(|| {
        with_node(n, |k| match k {
            NodeKind::Memset(m) => out(
                p,
                MemsetParams { dst: m.dst.0, pitch: m.pitch, value: m.value, elem: m.elem as c_uint, width: m.width, height: m.height },
            ),
            _ => Err(error::INVALID_VALUE),
        })
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphMemsetNodeSetParams(n: Node, p: *const MemsetParams) -> CudaError {
    api(|| set_params(n, memset_kind(p)))
}

#[no_mangle]
pub extern "C" fn cudaGraphHostNodeGetParams(n: Node, p: *mut HostNodeParams) -> CudaError {
    api(|| {
        with_node(n, |k| match k {
            NodeKind::Host { f, data } => out(p, HostNodeParams { f: Some(*f), data: data.0 }),
            _ => Err(error::INVALID_VALUE),
        })
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphHostNodeSetParams(n: Node, p: *const HostNodeParams) -> CudaError {
    api(|| set_params(n, host_kind(p)))
}

#[no_mangle]
pub extern "C" fn cudaGraphChildGraphNodeGetGraph(n: Node, g: *mut *mut c_void) -> CudaError {
    api(|| {
        with_node(n, |k| match k {
            NodeKind::Child(c) => out(g, c.handle() as *mut c_void),
            _ => Err(error::INVALID_VALUE),
        })
    })
}

fn event_of(n: Node, record: bool, e: *mut *mut c_void) -> Result<()> {
    with_node(n, |k| match k {
        NodeKind::EventRecord(ev) if record => out(e, Arc::as_ptr(ev) as *mut c_void),
        NodeKind::EventWait(ev) if !record => out(e, Arc::as_ptr(ev) as *mut c_void),
        _ => Err(error::INVALID_VALUE),
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphEventRecordNodeGetEvent(n: Node, e: *mut *mut c_void) -> CudaError {
    api(|| event_of(n, true, e))
}

#[no_mangle]
pub extern "C" fn cudaGraphEventWaitNodeGetEvent(n: Node, e: *mut *mut c_void) -> CudaError {
    api(|| event_of(n, false, e))
}

#[no_mangle]
pub extern "C" fn cudaGraphEventRecordNodeSetEvent(n: Node, e: *mut c_void) -> CudaError {
    api(|| set_params(n, crate::event::resolve(e).map(NodeKind::EventRecord)))
}

#[no_mangle]
pub extern "C" fn cudaGraphEventWaitNodeSetEvent(n: Node, e: *mut c_void) -> CudaError {
    api(|| set_params(n, crate::event::resolve(e).map(NodeKind::EventWait)))
}

#[no_mangle]
pub extern "C" fn cudaGraphMemAllocNodeGetParams(n: Node, p: *mut MemAllocNodeParams) -> CudaError {
    api(|| {
        if p.is_null() {
            return Err(error::INVALID_VALUE);
        }
        with_node(n, |k| match k {
            NodeKind::MemAlloc(a, size) => {
                let ptr = SendPtr(a.ptr as *mut c_void);
                let mut props = [0u64; 11];
                props[0] = 1; // cudaMemAllocationTypePinned, no handle types
                props[1] = 1; // location: cudaMemLocationTypeDevice, device 0
                unsafe {
                    *p = MemAllocNodeParams { pool_props: props, access: std::ptr::null(), access_count: 0, bytesize: *size, dptr: ptr.0 }
                };
                Ok(())
            }
            _ => Err(error::INVALID_VALUE),
        })
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphMemFreeNodeGetParams(n: Node, p: *mut *mut c_void) -> CudaError {
    api(|| {
        with_node(n, |k| match k {
            NodeKind::MemFree(ptr) => out(p, ptr.0),
            _ => Err(error::INVALID_VALUE),
        })
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphNodeGetType(n: Node, t: *mut c_int) -> CudaError {
    api(|| with_node(n, |k| out(t, k.type_code())))
}

/// Fills an array of handles the CUDA way: with NULL out, only the count; otherwise up
/// to `*count` entries (the rest NULL) and the number written.
fn list_out(items: &[usize], arr: *mut Node, count: *mut usize) -> Result<()> {
    if count.is_null() {
        return Err(error::INVALID_VALUE);
    }
    if arr.is_null() {
        unsafe { *count = items.len() };
        return Ok(());
    }
    let room = unsafe { *count };
    for i in 0..room {
        unsafe { *arr.add(i) = items.get(i).copied().unwrap_or(0) as Node };
    }
    unsafe { *count = items.len().min(room) };
    Ok(())
}

/// Zeroes the edge data CUDA 13 hands back beside dependencies (all edges are default).
fn zero_edges(edges: *mut c_void, n: usize) {
    if !edges.is_null() {
        unsafe { std::ptr::write_bytes(edges as *mut u8, 0, n * 8) };
    }
}

#[no_mangle]
pub extern "C" fn cudaGraphGetNodes(g: *mut c_void, nodes: *mut Node, count: *mut usize) -> CudaError {
    api(|| {
        let g = graph::graph(g)?;
        let all: Vec<usize> = g.nodes().iter().map(|n| n.handle()).collect();
        list_out(&all, nodes, count)
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphGetRootNodes(g: *mut c_void, nodes: *mut Node, count: *mut usize) -> CudaError {
    api(|| {
        let g = graph::graph(g)?;
        let roots: Vec<usize> = g.nodes().iter().filter(|n| n.deps().is_empty()).map(|n| n.handle()).collect();
        list_out(&roots, nodes, count)
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphGetEdges(g: *mut c_void, from: *mut Node, to: *mut Node, edges: *mut c_void, count: *mut usize) -> CudaError {
    api(|| {
        let g = graph::graph(g)?;
        let mut pairs = Vec::new();
        for n in g.nodes() {
            for d in n.deps() {
                pairs.push((d, n.handle()));
            }
        }
        if count.is_null() || (from.is_null() != to.is_null()) {
            return Err(error::INVALID_VALUE);
        }
        if from.is_null() {
            unsafe { *count = pairs.len() };
            return Ok(());
        }
        let room = unsafe { *count };
        for i in 0..room {
            let (a, b) = pairs.get(i).copied().unwrap_or((0, 0));
            unsafe {
                *from.add(i) = a as Node;
                *to.add(i) = b as Node;
            }
        }
        zero_edges(edges, room);
        unsafe { *count = pairs.len().min(room) };
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphNodeGetDependencies(n: Node, deps: *mut Node, edges: *mut c_void, count: *mut usize) -> CudaError {
    api(|| {
        let node = graph::node(n as usize)?;
        let d = node.deps();
        if !deps.is_null() && !count.is_null() {
            zero_edges(edges, unsafe { *count });
        }
        list_out(&d, deps, count)
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphNodeGetDependentNodes(n: Node, nodes: *mut Node, edges: *mut c_void, count: *mut usize) -> CudaError {
    api(|| {
        let node = graph::node(n as usize)?;
        let g = graph::graph(node.graph as *mut c_void)?;
        let users = g.dependents(n as usize);
        if !nodes.is_null() && !count.is_null() {
            zero_edges(edges, unsafe { *count });
        }
        list_out(&users, nodes, count)
    })
}

fn edges_in(g: *mut c_void, from: *const Node, to: *const Node, n: usize) -> Result<(Arc<graph::GraphObj>, Vec<(usize, usize)>)> {
    let g = graph::graph(g)?;
    if n > 0 && (from.is_null() || to.is_null()) {
        return Err(error::INVALID_VALUE);
    }
    let mut pairs = Vec::new();
    for i in 0..n {
        let (a, b) = unsafe { (*from.add(i) as usize, *to.add(i) as usize) };
        let (na, nb) = (graph::node(a)?, graph::node(b)?);
        if na.graph != g.handle() || nb.graph != g.handle() || a == b {
            return Err(error::INVALID_VALUE);
        }
        pairs.push((a, b));
    }
    Ok((g, pairs))
}

#[no_mangle]
pub extern "C" fn cudaGraphAddDependencies(g: *mut c_void, from: *const Node, to: *const Node, _edges: *const c_void, n: usize) -> CudaError {
    api(|| {
        let (_, pairs) = edges_in(g, from, to, n)?;
        for (a, b) in pairs {
            let nb = graph::node(b)?;
            let mut d = nb.deps.lock().unwrap_or_else(|p| p.into_inner());
            if d.contains(&a) {
                return Err(error::INVALID_VALUE);
            }
            d.push(a);
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphRemoveDependencies(g: *mut c_void, from: *const Node, to: *const Node, _edges: *const c_void, n: usize) -> CudaError {
    api(|| {
        let (_, pairs) = edges_in(g, from, to, n)?;
        for (a, b) in pairs {
            let nb = graph::node(b)?;
            let mut d = nb.deps.lock().unwrap_or_else(|p| p.into_inner());
            let before = d.len();
            d.retain(|x| *x != a);
            if d.len() == before {
                return Err(error::INVALID_VALUE);
            }
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphDestroyNode(n: Node) -> CudaError {
    api(|| {
        let node = graph::node(n as usize)?;
        graph::graph(node.graph as *mut c_void)?.remove(n as usize);
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphClone(c: *mut *mut c_void, g: *mut c_void) -> CudaError {
    api(|| {
        let g = graph::graph(g)?;
        out(c, g.clone_graph()?.handle() as *mut c_void)
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphNodeFindInClone(n: *mut Node, orig: Node, clone: *mut c_void) -> CudaError {
    api(|| {
        let g = graph::graph(clone)?;
        let found = g.nodes().iter().find(|x| x.origin == orig as usize).map(|x| x.handle()).ok_or(error::INVALID_VALUE)?;
        out(n, found as Node)
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphInstantiate(e: *mut *mut c_void, g: *mut c_void, _flags: c_ulonglong) -> CudaError {
    api(|| {
        if e.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let g = graph::graph(g)?;
        out(e, exec::instantiate(&g)?)
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphInstantiateWithFlags(e: *mut *mut c_void, g: *mut c_void, flags: c_ulonglong) -> CudaError {
    cudaGraphInstantiate(e, g, flags)
}

#[no_mangle]
pub extern "C" fn cudaGraphExecDestroy(e: *mut c_void) -> CudaError {
    api(|| exec::destroy(e))
}

#[no_mangle]
pub extern "C" fn cudaGraphLaunch(e: *mut c_void, s: *mut c_void) -> CudaError {
    api(|| {
        let ex = exec::resolve(e)?;
        let st = stream::resolve(s)?;
        ctx().check()?;
        crate::api::stream::check_capture_rules(&st)?;
        // CUDA 13 does not capture graph launches: the capture becomes invalid.
        crate::api::stream::refuse_if_capturing(&st)?;
        st.submit(Op::Graph(Arc::new(exec::prepare(&ex))));
        if ctx().launch_blocking() && !st.is_capturing() {
            st.synchronize();
        }
        Ok(())
    })
}

/// Uploading prepares nothing on the CPU device: the executable graph is ready.
#[no_mangle]
pub extern "C" fn cudaGraphUpload(e: *mut c_void, s: *mut c_void) -> CudaError {
    api(|| {
        exec::resolve(e)?;
        stream::resolve(s).map(|_| ())
    })
}

#[no_mangle]
pub extern "C" fn cudaGraphExecUpdate(e: *mut c_void, g: *mut c_void, info: *mut ExecUpdateResultInfo) -> CudaError {
    api(|| {
        let ex = exec::resolve(e)?;
        let g = graph::graph(g)?;
        let (result, node) = exec::update(&ex, &g)?;
        if !info.is_null() {
            unsafe {
                *info = ExecUpdateResultInfo { result, error_node: node as Node, error_from_node: std::ptr::null_mut() };
            }
        }
        if result == exec::update_result::SUCCESS {
            Ok(())
        } else {
            Err(error::GRAPH_EXEC_UPDATE_FAILURE)
        }
    })
}

fn exec_set(e: *mut c_void, n: Node, kind: Result<NodeKind>) -> Result<()> {
    let ex = exec::resolve(e)?;
    exec::set_node(&ex, n as usize, kind?)
}

#[no_mangle]
pub extern "C" fn cudaGraphExecKernelNodeSetParams(e: *mut c_void, n: Node, p: *const KernelNodeParams) -> CudaError {
    api(|| exec_set(e, n, kernel_kind(p)))
}

#[no_mangle]
pub extern "C" fn cudaGraphExecMemcpyNodeSetParams(e: *mut c_void, n: Node, p: *const Memcpy3DParms) -> CudaError {
    api(|| exec_set(e, n, memcpy_kind(p)))
}

#[no_mangle]
pub extern "C" fn cudaGraphExecMemcpyNodeSetParams1D(
    e: *mut c_void,
    n: Node,
    dst: *mut c_void,
    src: *const c_void,
    count: usize,
    kind: c_int,
) -> CudaError {
    api(|| exec_set(e, n, memcpy_1d(dst, src, count, kind)))
}

#[no_mangle]
pub extern "C" fn cudaGraphExecMemsetNodeSetParams(e: *mut c_void, n: Node, p: *const MemsetParams) -> CudaError {
    api(|| exec_set(e, n, memset_kind(p)))
}

#[no_mangle]
pub extern "C" fn cudaGraphExecHostNodeSetParams(e: *mut c_void, n: Node, p: *const HostNodeParams) -> CudaError {
    api(|| exec_set(e, n, host_kind(p)))
}

#[no_mangle]
pub extern "C" fn cudaGraphExecEventRecordNodeSetEvent(e: *mut c_void, n: Node, ev: *mut c_void) -> CudaError {
    api(|| exec_set(e, n, crate::event::resolve(ev).map(NodeKind::EventRecord)))
}

#[no_mangle]
pub extern "C" fn cudaGraphExecEventWaitNodeSetEvent(e: *mut c_void, n: Node, ev: *mut c_void) -> CudaError {
    api(|| exec_set(e, n, crate::event::resolve(ev).map(NodeKind::EventWait)))
}

#[no_mangle]
pub extern "C" fn cudaGraphDebugDotPrint(g: *mut c_void, path: *const c_char, _flags: c_uint) -> CudaError {
    api(|| {
        let g = graph::graph(g)?;
        if path.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let path = unsafe { std::ffi::CStr::from_ptr(path) }.to_string_lossy().into_owned();
        std::fs::write(path, graph::dot::render(&g)).map_err(|_| error::OPERATING_SYSTEM)
    })
}

// ---- stream capture -------------------------------------------------------------------

#[no_mangle]
pub extern "C" fn cudaStreamBeginCapture(s: *mut c_void, mode: c_int) -> CudaError {
    api(|| capture::begin(&stream::resolve(s)?, mode))
}

#[no_mangle]
pub extern "C" fn cudaStreamEndCapture(s: *mut c_void, g: *mut *mut c_void) -> CudaError {
    api(|| {
        if g.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let st = stream::resolve(s)?;
        unsafe { *g = std::ptr::null_mut() };
        let graph = capture::end(&st)?;
        out(g, graph.handle() as *mut c_void)
    })
}

#[no_mangle]
pub extern "C" fn cudaStreamIsCapturing(s: *mut c_void, status: *mut c_int) -> CudaError {
    api(|| {
        let st = stream::resolve(s)?;
        if status.is_null() {
            return Err(error::INVALID_VALUE);
        }
        if st.kind == stream::Kind::Legacy && capture::blocking_stream_capturing() {
            return Err(error::STREAM_CAPTURE_IMPLICIT);
        }
        out(status, capture::status(&st))
    })
}

#[no_mangle]
pub extern "C" fn cudaStreamGetCaptureInfo(
    s: *mut c_void,
    status: *mut c_int,
    id: *mut c_ulonglong,
    g: *mut *mut c_void,
    deps: *mut *const Node,
    edges: *mut *const c_void,
    count: *mut usize,
) -> CudaError {
    api(|| {
        let st = stream::resolve(s)?;
        if status.is_null() {
            return Err(error::INVALID_VALUE);
        }
        if st.kind == stream::Kind::Legacy && capture::blocking_stream_capturing() {
            return Err(error::STREAM_CAPTURE_IMPLICIT);
        }
        let code = capture::status(&st);
        unsafe { *status = code };
        if code != 1 {
            return Ok(());
        }
        let (cid, gh, d) = capture::info(&st).ok_or(error::ILLEGAL_STATE)?;
        unsafe {
            if !id.is_null() {
                *id = cid;
            }
            if !g.is_null() {
                *g = gh as *mut c_void;
            }
            if !deps.is_null() {
                *deps = d.0.as_ptr() as *const Node;
            }
            if !edges.is_null() {
                *edges = d.1.as_ptr() as *const c_void;
            }
            if !count.is_null() {
                *count = d.0.len();
            }
        }
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cudaStreamUpdateCaptureDependencies(s: *mut c_void, deps: *mut Node, _edges: *const c_void, n: usize, flags: c_uint) -> CudaError {
    api(|| {
        let st = stream::resolve(s)?;
        if flags > 1 {
            return Err(error::INVALID_VALUE);
        }
        let d = deps_of(deps, n)?;
        capture::update_deps(&st, &d, flags == 1)
    })
}

thread_local! {
    static CAPTURE_MODE: std::cell::Cell<c_int> = const { std::cell::Cell::new(0) };
}

#[no_mangle]
pub extern "C" fn cudaThreadExchangeStreamCaptureMode(mode: *mut c_int) -> CudaError {
    api(|| {
        if mode.is_null() {
            return Err(error::INVALID_VALUE);
        }
        let new = unsafe { *mode };
        if !(0..=2).contains(&new) {
            return Err(error::INVALID_VALUE);
        }
        let old = CAPTURE_MODE.with(|m| m.replace(new));
        unsafe { *mode = old };
        Ok(())
    })
}

/// Graph allocations are owned by their graphs on the CPU device: nothing is cached.
#[no_mangle]
pub extern "C" fn cudaDeviceGraphMemTrim(device: c_int) -> CudaError {
    api(|| crate::devices::check(device))
}

const GRAPH_MEM_USED_CURRENT: c_int = 0;
const GRAPH_MEM_USED_HIGH: c_int = 1;
const GRAPH_MEM_RESERVED_CURRENT: c_int = 2;
const GRAPH_MEM_RESERVED_HIGH: c_int = 3;

/// The graph-allocation footprint (a `uint64_t` each; devices share one footprint).
#[no_mangle]
pub extern "C" fn cudaDeviceGetGraphMemAttribute(device: c_int, attr: c_int, value: *mut c_void) -> CudaError {
    api(|| {
        crate::devices::check(device)?;
        let f = *crate::mempool::graph_footprint();
        let v = match attr {
            GRAPH_MEM_USED_CURRENT => f.used,
            GRAPH_MEM_USED_HIGH => f.used_high,
            GRAPH_MEM_RESERVED_CURRENT => f.reserved,
            GRAPH_MEM_RESERVED_HIGH => f.reserved_high,
            _ => return Err(error::INVALID_VALUE),
        };
        out(value as *mut u64, v)
    })
}

/// Only the high-water marks can be set, and only to 0 (which resets them to the
/// current figure), as CUDA documents.
#[no_mangle]
pub extern "C" fn cudaDeviceSetGraphMemAttribute(device: c_int, attr: c_int, value: *mut c_void) -> CudaError {
    api(|| {
        crate::devices::check(device)?;
        if value.is_null() || unsafe { *(value as *const u64) } != 0 {
            return Err(error::INVALID_VALUE);
        }
        let mut f = crate::mempool::graph_footprint();
        match attr {
            GRAPH_MEM_USED_HIGH => f.used_high = f.used,
            GRAPH_MEM_RESERVED_HIGH => f.reserved_high = f.reserved,
            _ => return Err(error::INVALID_VALUE),
        }
        Ok(())
    })
}
