//! CUDA graphs: nodes of work with dependencies, built explicitly or by stream capture
//! (`capture.rs`), instantiated into executable graphs and launched into streams
//! (`exec.rs`). A graph handle points at a `GraphObj`, a node handle at a `NodeObj`;
//! both are checked against registries of live objects before use.

pub mod capture;
pub mod dot;
pub mod exec;

use crate::api::memory::Memcpy3DParms;
use crate::error::{self, Result};
use crate::event::EventObj;
use crate::launch::PreparedLaunch;
use crate::stream::{HostFn, SendPtr};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// `cudaGraphNodeType`.
pub mod node_type {
    pub const KERNEL: i32 = 0;
    pub const MEMCPY: i32 = 1;
    pub const MEMSET: i32 = 2;
    pub const HOST: i32 = 3;
    pub const GRAPH: i32 = 4;
    pub const EMPTY: i32 = 5;
    pub const WAIT_EVENT: i32 = 6;
    pub const EVENT_RECORD: i32 = 7;
    pub const MEM_ALLOC: i32 = 10;
    pub const MEM_FREE: i32 = 11;
}

/// A memset node's parameters (`cudaMemsetParams`, elements of 1, 2 or 4 bytes).
#[derive(Clone, Copy, Debug)]
pub struct Memset {
    pub dst: SendPtr,
    pub pitch: usize,
    pub value: u32,
    pub elem: usize,
    pub width: usize,
    pub height: usize,
}

/// A memcpy node: the parameters as given, and the rows they copy.
#[derive(Clone, Copy)]
pub struct Memcpy {
    pub params: Memcpy3DParms,
}
// The parameters hold device and host addresses, used only by the node's stream thread.
unsafe impl Send for Memcpy {}
unsafe impl Sync for Memcpy {}

#[derive(Clone)]
pub enum NodeKind {
    Kernel { launch: PreparedLaunch, func: SendPtr },
    Memcpy(Memcpy),
    Memset(Memset),
    Host { f: HostFn, data: SendPtr },
    Child(Arc<GraphObj>),
    EventRecord(Arc<EventObj>),
    EventWait(Arc<EventObj>),
    Empty,
    /// The memory (shared by the allocations that reuse its address) and the size asked.
    MemAlloc(Arc<crate::mempool::GraphAlloc>, usize),
    MemFree(SendPtr),
}

impl NodeKind {
    pub fn type_code(&self) -> i32 {
        match self {
            NodeKind::Kernel { .. } => node_type::KERNEL,
            NodeKind::Memcpy(_) => node_type::MEMCPY,
            NodeKind::Memset(_) => node_type::MEMSET,
            NodeKind::Host { .. } => node_type::HOST,
            NodeKind::Child(_) => node_type::GRAPH,
            NodeKind::EventRecord(_) => node_type::EVENT_RECORD,
            NodeKind::EventWait(_) => node_type::WAIT_EVENT,
            NodeKind::Empty => node_type::EMPTY,
            NodeKind::MemAlloc(..) => node_type::MEM_ALLOC,
            NodeKind::MemFree(_) => node_type::MEM_FREE,
        }
    }
}

pub struct NodeObj {
    /// The graph it belongs to (its handle).
    pub graph: usize,
    pub kind: Mutex<NodeKind>,
    /// The nodes it depends on (handles), in the order they were added.
    pub deps: Mutex<Vec<usize>>,
    /// The node this one was cloned from (cudaGraphNodeFindInClone).
    pub origin: usize,
}

impl NodeObj {
    pub fn kind(&self) -> std::sync::MutexGuard<'_, NodeKind> {
        self.kind.lock().unwrap_or_else(|p| p.into_inner())
    }
    pub fn deps(&self) -> Vec<usize> {
        self.deps.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }
    pub fn handle(self: &Arc<Self>) -> usize {
        Arc::as_ptr(self) as usize
    }
}

pub struct GraphObj {
    pub id: u64,
    pub nodes: Mutex<Vec<Arc<NodeObj>>>,
}

struct Registry {
    graphs: HashMap<usize, Arc<GraphObj>>,
    nodes: HashMap<usize, Arc<NodeObj>>,
}

fn registry() -> std::sync::MutexGuard<'static, Registry> {
    static R: OnceLock<Mutex<Registry>> = OnceLock::new();
    R.get_or_init(|| Mutex::new(Registry { graphs: HashMap::new(), nodes: HashMap::new() }))
        .lock()
        .unwrap_or_else(|p| p.into_inner())
}

impl GraphObj {
    pub fn handle(self: &Arc<Self>) -> usize {
        Arc::as_ptr(self) as usize
    }

    pub fn nodes(&self) -> Vec<Arc<NodeObj>> {
        self.nodes.lock().unwrap_or_else(|p| p.into_inner()).clone()
    }

    /// Adds a node depending on `deps` (handles of nodes of this graph).
    pub fn add(self: &Arc<Self>, kind: NodeKind, deps: &[usize]) -> Result<Arc<NodeObj>> {
        self.add_with_origin(kind, deps, 0)
    }

    fn add_with_origin(self: &Arc<Self>, kind: NodeKind, deps: &[usize], origin: usize) -> Result<Arc<NodeObj>> {
        let me = self.handle();
        for (i, d) in deps.iter().enumerate() {
            if node(*d).map(|n| n.graph) != Ok(me) || deps[..i].contains(d) {
                return Err(error::INVALID_VALUE);
            }
        }
        let n = Arc::new(NodeObj { graph: me, kind: Mutex::new(kind), deps: Mutex::new(deps.to_vec()), origin });
        registry().nodes.insert(n.handle(), n.clone());
        self.nodes.lock().unwrap_or_else(|p| p.into_inner()).push(n.clone());
        Ok(n)
    }

    /// Nodes that depend on `h`.
    pub fn dependents(&self, h: usize) -> Vec<usize> {
        self.nodes().iter().filter(|n| n.deps().contains(&h)).map(|n| n.handle()).collect()
    }

    /// A copy with new nodes (each remembering its original).
    pub fn clone_graph(self: &Arc<Self>) -> Result<Arc<GraphObj>> {
        let g = create();
        let mut map = HashMap::new();
        let originals = self.nodes();
        for n in &originals {
            let kind = clone_kind(&n.kind())?;
            let c = g.add_with_origin(kind, &[], n.handle())?;
            map.insert(n.handle(), c);
        }
        for n in &originals {
            let deps: Vec<usize> = n.deps().iter().filter_map(|d| map.get(d).map(|c| c.handle())).collect();
            *map[&n.handle()].deps.lock().unwrap_or_else(|p| p.into_inner()) = deps;
        }
        Ok(g)
    }

    /// Removes a node and every edge that touches it.
    pub fn remove(&self, h: usize) {
        let mut nodes = self.nodes.lock().unwrap_or_else(|p| p.into_inner());
        nodes.retain(|n| Arc::as_ptr(n) as usize != h);
        for n in nodes.iter() {
            n.deps.lock().unwrap_or_else(|p| p.into_inner()).retain(|d| *d != h);
        }
        registry().nodes.remove(&h);
    }
}

/// Every node reachable backwards from `from` (`from` included).
pub fn ancestors(from: &[usize]) -> std::collections::HashSet<usize> {
    let mut seen = std::collections::HashSet::new();
    let mut stack: Vec<usize> = from.to_vec();
    while let Some(h) = stack.pop() {
        if seen.insert(h) {
            if let Ok(n) = node(h) {
                stack.extend(n.deps());
            }
        }
    }
    seen
}

impl GraphObj {
    /// Memory for an allocation node placed after `deps`. Like CUDA, it takes the address
    /// of a graph allocation that is certainly free at that point (every allocation and
    /// free node of it precede `deps`, as many frees as allocations) and large enough;
    /// else new memory.
    pub fn alloc_memory(&self, deps: &[usize], size: usize) -> Result<Arc<crate::mempool::GraphAlloc>> {
        let before = ancestors(deps);
        let nodes = self.nodes();
        let mut candidates: Vec<Arc<crate::mempool::GraphAlloc>> = Vec::new();
        for n in &nodes {
            if let NodeKind::MemAlloc(a, _) = &*n.kind() {
                if a.size >= size && !candidates.iter().any(|c| Arc::ptr_eq(c, a)) {
                    candidates.push(a.clone());
                }
            }
        }
        for a in candidates {
            let (mut allocs, mut frees, mut parallel) = (0, 0, false);
            for n in &nodes {
                let here = before.contains(&n.handle());
                match &*n.kind() {
                    NodeKind::MemAlloc(b, _) if Arc::ptr_eq(b, &a) => {
                        allocs += 1;
                        parallel |= !here;
                    }
                    NodeKind::MemFree(p) if p.0 as usize == a.ptr => {
                        frees += 1;
                        parallel |= !here;
                    }
                    _ => {}
                }
            }
            if !parallel && allocs == frees {
                return Ok(a);
            }
        }
        crate::mempool::GraphAlloc::new(size)
    }
}

/// A node's parameters as a copy for another graph: child graphs are copied too.
pub fn clone_kind(k: &NodeKind) -> Result<NodeKind> {
    Ok(match k {
        NodeKind::Child(g) => NodeKind::Child(g.clone_graph()?),
        other => other.clone(),
    })
}

static NEXT_ID: AtomicU64 = AtomicU64::new(1);

pub fn create() -> Arc<GraphObj> {
    let g = Arc::new(GraphObj { id: NEXT_ID.fetch_add(1, Ordering::Relaxed), nodes: Mutex::new(Vec::new()) });
    registry().graphs.insert(g.handle(), g.clone());
    g
}

pub fn graph(h: *mut c_void) -> Result<Arc<GraphObj>> {
    registry().graphs.get(&(h as usize)).cloned().ok_or(error::INVALID_VALUE)
}

pub fn node(h: usize) -> Result<Arc<NodeObj>> {
    registry().nodes.get(&h).cloned().ok_or(error::INVALID_VALUE)
}

/// Destroys a graph: its nodes (and those of graphs nested in it) stop being valid.
pub fn destroy(h: *mut c_void) -> Result<()> {
    let g = registry().graphs.remove(&(h as usize)).ok_or(error::INVALID_VALUE)?;
    forget_nodes(&g);
    Ok(())
}

fn forget_nodes(g: &GraphObj) {
    for n in g.nodes() {
        if let NodeKind::Child(c) = &*n.kind() {
            registry().graphs.remove(&(Arc::as_ptr(c) as usize));
            forget_nodes(c);
        }
        registry().nodes.remove(&n.handle());
    }
}

/// A child graph node's graph becomes a handle the program may query (not destroy).
pub fn register_child(g: &Arc<GraphObj>) {
    registry().graphs.insert(g.handle(), g.clone());
}
