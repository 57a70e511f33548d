//! cudaGraphDebugDotPrint: a graph in Graphviz's DOT language, one vertex per node
//! (type and main parameters), one edge per dependency; child graphs as clusters.

use super::{GraphObj, NodeKind};
use std::fmt::Write;

fn label(k: &NodeKind) -> String {
    match k {
        NodeKind::Kernel { launch, .. } => format!(
            "KERNEL\\n{}\\ngrid ({},{},{}) block ({},{},{}) shared {}",
            launch.kernel.name, launch.grid.x, launch.grid.y, launch.grid.z, launch.block.x, launch.block.y, launch.block.z, launch.dynamic_shared
        ),
        NodeKind::Memcpy(m) => format!(
            "MEMCPY\\n{:p} -> {:p}\\n{}x{}x{} bytes",
            m.params.src_ptr.ptr, m.params.dst_ptr.ptr, m.params.extent.width, m.params.extent.height, m.params.extent.depth
        ),
        NodeKind::Memset(m) => format!("MEMSET\\n{:p} value {} elem {}\\n{}x{}", m.dst.0, m.value, m.elem, m.width, m.height),
        NodeKind::Host { f, data } => format!("HOST\\nfn {:p} data {:p}", *f as *const (), data.0),
        NodeKind::Child(_) => "CHILD GRAPH".to_string(),
        NodeKind::EventRecord(e) => format!("EVENT RECORD\\n{:p}", std::sync::Arc::as_ptr(e)),
        NodeKind::EventWait(e) => format!("EVENT WAIT\\n{:p}", std::sync::Arc::as_ptr(e)),
        NodeKind::Empty => "EMPTY".to_string(),
        NodeKind::MemAlloc(a, size) => format!("MEM ALLOC\\n{:#x} {} bytes", a.ptr, size),
        NodeKind::MemFree(p) => format!("MEM FREE\\n{:p}", p.0),
    }
}

fn body(g: &GraphObj, prefix: &str, out: &mut String) {
    for (i, n) in g.nodes().iter().enumerate() {
        let k = n.kind().clone();
        let _ = writeln!(out, "\"{prefix}{:x}\" [shape=box label=\"{}: {}\"];", n.handle(), i, label(&k));
        if let NodeKind::Child(c) = &k {
            let _ = writeln!(out, "subgraph \"cluster_{prefix}{:x}\" {{ label=\"child of node {}\";", n.handle(), i);
            body(c, &format!("{prefix}{:x}_", n.handle()), out);
            let _ = writeln!(out, "}}");
        }
        for d in n.deps() {
            let _ = writeln!(out, "\"{prefix}{d:x}\" -> \"{prefix}{:x}\";", n.handle());
        }
    }
}

pub fn render(g: &GraphObj) -> String {
    let mut s = format!("digraph cudaGraph_{} {{\n", g.id);
    body(g, "n", &mut s);
    s.push_str("}\n");
    s
}
