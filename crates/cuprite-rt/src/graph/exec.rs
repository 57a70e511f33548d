//! Executable graphs: a graph's nodes in one dependency-respecting order (child graphs
//! inlined), validated once at instantiation. A launch is one operation on the stream,
//! run by the stream's thread node after node, so it costs one queue entry however many
//! nodes the graph has. Updates (cudaGraphExecUpdate, cudaGraphExec*NodeSetParams)
//! replace the list copy-on-write: a launch already queued keeps what it was given.

use super::{GraphObj, NodeKind};
use crate::context::ctx;
use crate::error::{self, Result};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex, OnceLock};

#[derive(Clone)]
pub struct ExecNode {
    pub kind: NodeKind,
    /// The node of the instantiated graph it came from (0 inside child graphs).
    pub orig: usize,
    /// Positions of its dependencies in the list (top level only).
    pub deps: Vec<usize>,
}

pub struct ExecGraph {
    pub nodes: Mutex<Arc<Vec<ExecNode>>>,
}

impl ExecGraph {
    pub fn snapshot(&self) -> Arc<Vec<ExecNode>> {
        self.nodes.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
}

/// One launch of an executable graph: its nodes, and per node the event record number
/// a record node completes or a wait node waits for.
pub struct Launch {
    pub nodes: Arc<Vec<ExecNode>>,
    pub marks: Vec<u64>,
}

/// The nodes of `g` in an order where every node follows its dependencies.
pub fn topo_order(g: &GraphObj) -> Result<Vec<Arc<super::NodeObj>>> {
    let nodes = g.nodes();
    let index: HashMap<usize, usize> = nodes.iter().enumerate().map(|(i, n)| (n.handle(), i)).collect();
    let mut indeg: Vec<usize> = nodes.iter().map(|n| n.deps().len()).collect();
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); nodes.len()];
    for (i, n) in nodes.iter().enumerate() {
        for d in n.deps() {
            users[*index.get(&d).ok_or(error::INVALID_VALUE)?].push(i);
        }
    }
    let mut ready: std::collections::VecDeque<usize> = (0..nodes.len()).filter(|&i| indeg[i] == 0).collect();
    let mut order = Vec::with_capacity(nodes.len());
    while let Some(i) = ready.pop_front() {
        order.push(nodes[i].clone());
        for &u in &users[i] {
            indeg[u] -= 1;
            if indeg[u] == 0 {
                ready.push_back(u);
            }
        }
    }
    if order.len() != nodes.len() {
        return Err(error::INVALID_VALUE); // a cycle
    }
    Ok(order)
}

/// Flattens a graph into executable nodes (child graphs inlined where they stand).
pub fn flatten(g: &GraphObj, top: bool, out: &mut Vec<ExecNode>) -> Result<()> {
    let order = topo_order(g)?;
    let mut pos: HashMap<usize, usize> = HashMap::new();
    for n in order {
        let kind = n.kind().clone();
        if let NodeKind::Child(c) = &kind {
            flatten(c, false, out)?;
        }
        let deps = if top { n.deps().iter().map(|d| pos[d]).collect() } else { Vec::new() };
        pos.insert(n.handle(), out.len());
        out.push(ExecNode { kind, orig: if top { n.handle() } else { 0 }, deps });
    }
    Ok(())
}

struct Execs {
    live: HashMap<usize, Arc<ExecGraph>>,
}

fn execs() -> std::sync::MutexGuard<'static, Execs> {
    static E: OnceLock<Mutex<Execs>> = OnceLock::new();
    E.get_or_init(|| Mutex::new(Execs { live: HashMap::new() })).lock().unwrap_or_else(|p| p.into_inner())
}

pub fn instantiate(g: &Arc<GraphObj>) -> Result<*mut c_void> {
    let mut nodes = Vec::new();
    flatten(g, true, &mut nodes)?;
    let e = Arc::new(ExecGraph { nodes: Mutex::new(Arc::new(nodes)) });
    let h = Arc::as_ptr(&e) as *mut c_void;
    execs().live.insert(h as usize, e);
    Ok(h)
}

pub fn resolve(h: *mut c_void) -> Result<Arc<ExecGraph>> {
    execs().live.get(&(h as usize)).cloned().ok_or(error::INVALID_VALUE)
}

pub fn destroy(h: *mut c_void) -> Result<()> {
    execs().live.remove(&(h as usize)).map(|_| ()).ok_or(error::INVALID_VALUE)
}

/// The launch of `e` issued now: event records are numbered at this moment.
pub fn prepare(e: &ExecGraph) -> Launch {
    let nodes = e.snapshot();
    let marks = nodes
        .iter()
        .map(|n| match &n.kind {
            NodeKind::EventRecord(ev) => ev.begin_record(),
            NodeKind::EventWait(ev) => ev.current_record(),
            _ => 0,
        })
        .collect();
    Launch { nodes, marks }
}

/// Runs a graph launch on the stream's thread.
pub fn run(l: &Launch) {
    let c = ctx();
    for (n, &mark) in l.nodes.iter().zip(&l.marks) {
        match &n.kind {
            NodeKind::Kernel { launch, .. } => {
                if c.check().is_ok() {
                    if let Err(e) = c.device.execute(launch) {
                        c.set_sticky(e);
                    }
                }
            }
            NodeKind::Memcpy(m) => {
                if c.check().is_ok() {
                    if let Err(e) = copy_3d(&m.params) {
                        c.set_sticky(e);
                    }
                }
            }
            NodeKind::Memset(m) => {
                if c.check().is_ok() {
                    set_elements(m.dst.0, m.pitch, m.value, m.elem, m.width, m.height);
                }
            }
            NodeKind::Host { f, data } => {
                crate::printf::flush();
                unsafe { f(data.0) }
            }
            NodeKind::EventRecord(ev) => ev.fire(mark),
            NodeKind::EventWait(ev) => ev.wait_for(mark),
            // An allocation node's memory is reserved when the node is made, at a fixed
            // address (`mempool::GraphAlloc`); running the node makes it live again.
            NodeKind::MemAlloc(a, _) => a.set_live(true),
            NodeKind::MemFree(p) => crate::mempool::free_now(p.0),
            NodeKind::Child(_) | NodeKind::Empty => {}
        }
    }
}

/// The byte address of (x, y, z) in a pitched pointer.
fn at(p: &crate::api::memory::PitchedPtr, pos: &crate::api::memory::Pos, y: usize, z: usize) -> *mut u8 {
    unsafe { (p.ptr as *mut u8).add(((pos.z + z) * p.ysize + pos.y + y) * p.pitch + pos.x) }
}

/// Copies the rows a `cudaMemcpy3DParms` between linear memory names.
pub fn copy_3d(p: &crate::api::memory::Memcpy3DParms) -> Result<()> {
    let e = p.extent;
    for z in 0..e.depth.max(1) {
        for y in 0..e.height.max(1) {
            let s = at(&p.src_ptr, &p.src_pos, y, z);
            let d = at(&p.dst_ptr, &p.dst_pos, y, z);
            ctx().device.copy(d as *mut c_void, s as *const c_void, e.width)?;
        }
    }
    Ok(())
}

/// Fills `height` rows of `width` elements of `elem` bytes (1, 2 or 4) with `value`.
pub fn set_elements(dst: *mut c_void, pitch: usize, value: u32, elem: usize, width: usize, height: usize) {
    if crate::gpu::active().is_some() {
        // The GPU device's memory is not the CPU's: each row is made here and copied.
        let bytes = value.to_le_bytes();
        let row: Vec<u8> = (0..width * elem).map(|i| bytes[i % elem]).collect();
        for r in 0..height {
            let _ = unsafe { crate::gpu::copy_any((dst as *mut u8).add(r * pitch), row.as_ptr(), row.len()) };
        }
        return;
    }
    for row in 0..height {
        let base = unsafe { (dst as *mut u8).add(row * pitch) };
        match elem {
            1 => unsafe { std::ptr::write_bytes(base, value as u8, width) },
            2 => (0..width).for_each(|i| unsafe { (base.add(2 * i) as *mut u16).write_unaligned(value as u16) }),
            _ => (0..width).for_each(|i| unsafe { (base.add(4 * i) as *mut u32).write_unaligned(value) }),
        }
        crate::sanitize::note_host_write(base as usize, width * elem.clamp(1, 4));
    }
}

/// `cudaGraphExecUpdateResult`.
pub mod update_result {
    pub const SUCCESS: i32 = 0;
    pub const ERROR: i32 = 1;
    pub const TOPOLOGY_CHANGED: i32 = 2;
    pub const NODE_TYPE_CHANGED: i32 = 3;
    pub const FUNCTION_CHANGED: i32 = 4;
    pub const NOT_SUPPORTED: i32 = 6;
}

/// cudaGraphExecUpdate: takes `g`'s parameters when its shape is the executable's.
/// Returns the result code and, on failure, the node of `g` that failed.
pub fn update(e: &ExecGraph, g: &Arc<GraphObj>) -> Result<(i32, usize)> {
    let mut fresh = Vec::new();
    flatten(g, true, &mut fresh)?;
    let old = e.snapshot();
    if fresh.len() != old.len() {
        return Ok((update_result::TOPOLOGY_CHANGED, 0));
    }
    for (n, o) in fresh.iter().zip(old.iter()) {
        if n.kind.type_code() != o.kind.type_code() {
            return Ok((update_result::NODE_TYPE_CHANGED, n.orig));
        }
        if n.deps != o.deps {
            return Ok((update_result::TOPOLOGY_CHANGED, n.orig));
        }
        match (&n.kind, &o.kind) {
            (NodeKind::MemAlloc(a, _), NodeKind::MemAlloc(b, _)) if a.ptr != b.ptr => {
                return Ok((update_result::NOT_SUPPORTED, n.orig))
            }
            (NodeKind::MemFree(a), NodeKind::MemFree(b)) if a.0 != b.0 => return Ok((update_result::NOT_SUPPORTED, n.orig)),
            _ => {}
        }
    }
    let updated: Vec<ExecNode> =
        fresh.into_iter().zip(old.iter()).map(|(n, o)| ExecNode { kind: n.kind, orig: o.orig, deps: o.deps.clone() }).collect();
    *e.nodes.lock().unwrap_or_else(|p| p.into_inner()) = Arc::new(updated);
    Ok((update_result::SUCCESS, 0))
}

/// cudaGraphExec*NodeSetParams: replaces one node's parameters (same node type).
pub fn set_node(e: &ExecGraph, node: usize, kind: NodeKind) -> Result<()> {
    let mut guard = e.nodes.lock().unwrap_or_else(|p| p.into_inner());
    let nodes = Arc::make_mut(&mut guard);
    let n = nodes.iter_mut().find(|n| n.orig == node && n.orig != 0).ok_or(error::INVALID_VALUE)?;
    if n.kind.type_code() != kind.type_code() {
        return Err(error::INVALID_VALUE);
    }
    n.kind = kind;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::graph::{create, NodeKind};

    #[test]
    fn order_follows_dependencies_and_cycles_are_refused() {
        let g = create();
        let a = g.add(NodeKind::Empty, &[]).unwrap();
        let b = g.add(NodeKind::Empty, &[]).unwrap();
        let c = g.add(NodeKind::Empty, &[a.handle(), b.handle()]).unwrap();
        // a after c: added later, still ordered by dependency.
        a.deps.lock().unwrap().push(b.handle());
        let order: Vec<usize> = topo_order(&g).unwrap().iter().map(|n| n.handle()).collect();
        assert_eq!(order, vec![b.handle(), a.handle(), c.handle()]);
        b.deps.lock().unwrap().push(c.handle());
        assert_eq!(topo_order(&g).err(), Some(crate::error::INVALID_VALUE));
    }

    #[test]
    fn child_graphs_are_inlined_and_updates_keep_the_shape() {
        let child = create();
        child.add(NodeKind::Empty, &[]).unwrap();
        let g = create();
        let e = g.add(NodeKind::Empty, &[]).unwrap();
        g.add(NodeKind::Child(child.clone()), &[e.handle()]).unwrap();
        let mut flat = Vec::new();
        flatten(&g, true, &mut flat).unwrap();
        assert_eq!(flat.iter().map(|n| n.kind.type_code()).collect::<Vec<_>>(), vec![5, 5, 4]);
        assert_eq!(flat[2].deps, vec![0]);
        let ex = ExecGraph { nodes: Mutex::new(Arc::new(flat)) };
        assert_eq!(update(&ex, &g).unwrap().0, update_result::SUCCESS);
        let other = create();
        other.add(NodeKind::Empty, &[]).unwrap();
        assert_eq!(update(&ex, &other).unwrap().0, update_result::TOPOLOGY_CHANGED);
    }

    #[test]
    fn allocation_nodes_reuse_memory_freed_before_them() {
        use crate::stream::SendPtr;
        let g = create();
        let a = g.alloc_memory(&[], 1024).unwrap();
        let na = g.add(NodeKind::MemAlloc(a.clone(), 1024), &[]).unwrap();
        // Not yet freed: a second allocation gets new memory.
        let other = g.alloc_memory(&[na.handle()], 512).unwrap();
        assert_ne!(other.ptr, a.ptr);
        let nf = g.add(NodeKind::MemFree(SendPtr(a.ptr as *mut std::ffi::c_void)), &[na.handle()]).unwrap();
        let b = g.alloc_memory(&[nf.handle()], 512).unwrap();
        assert_eq!(b.ptr, a.ptr, "freed before: the address is reused");
        g.add(NodeKind::MemAlloc(b, 512), &[nf.handle()]).unwrap();
        // A node beside the reuse (not after it) must not take the same memory.
        let c = g.alloc_memory(&[nf.handle()], 512).unwrap();
        assert_ne!(c.ptr, a.ptr);
        let too_big = g.alloc_memory(&[nf.handle()], 4096).unwrap();
        assert_ne!(too_big.ptr, a.ptr);
    }
}
