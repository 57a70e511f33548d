//! The profile report, laid out as Nsight Compute's command-line report: per kernel a
//! header line (name, grid × block) and a table of metrics named as ncu names them.
//! Cuprite's own figures (host time, launches, source-level branches) are prefixed
//! `cuprite__`. Counters are summed over the kernel's launches (ncu shows one launch per
//! table); the header says how many there were.

use super::KernelStats;
use crate::sanitize::report::grouped;
use std::fmt::Write as _;
use std::io::Write;

pub fn print(ks: &[KernelStats], counting: bool) {
    let mut s = String::new();
    let cc = {
        let p = crate::context::ctx().props();
        (p.attribute(75).unwrap_or(9), p.attribute(76).unwrap_or(0))
    };
    let _ = writeln!(s, "==PROF== Cuprite profile of {} kernel(s) on the CPU device (counters from every access's address; see docs/FEATURES.md P3)", ks.len());
    if !counting && !ks.is_empty() {
        let _ = writeln!(s, "==PROF== Memory counters need instrumented device code: run it with 'cuprite prof PROGRAM' (or 'cuprite run --profile FILE.cu'); launches and times only.");
    }
    for k in ks {
        let _ = writeln!(
            s,
            "  {} ({}, {}, {})x({}, {}, {}), Launches {}, Device 0, CC {}.{}",
            k.name, k.grid.x, k.grid.y, k.grid.z, k.block.x, k.block.y, k.block.z, k.launches, cc.0, cc.1
        );
        let mut rows: Vec<(&str, &str, String)> = Vec::new();
        rows.push(("cuprite__launches", "", grouped(k.launches)));
        rows.push(("cuprite__host_time_duration.sum", "ns", grouped(k.host_ns as u64)));
        rows.push(("launch__grid_size", "", grouped(k.grid.count())));
        rows.push(("launch__block_size", "", grouped(k.block.count())));
        rows.push(("launch__shared_mem_per_block_static", "byte", grouped(k.static_shared)));
        rows.push(("launch__shared_mem_per_block_dynamic", "byte", grouped(k.dynamic_shared as u64)));
        if let Some(o) = k.occupancy {
            let blocks = o.by_threads.min(o.by_blocks).min(o.by_regs).min(o.by_shared).max(0);
            let warps = blocks as u64 * k.block.count().div_ceil(32);
            let pct = 100.0 * warps as f64 / k.warps_per_sm.max(1) as f64;
            rows.push(("launch__occupancy_limit_blocks", "block", o.by_blocks.to_string()));
            rows.push(("launch__occupancy_limit_warps", "block", o.by_threads.to_string()));
            if o.by_shared != i32::MAX {
                rows.push(("launch__occupancy_limit_shared_mem", "block", o.by_shared.to_string()));
            }
            rows.push(("launch__occupancy_limit_registers", "block", o.by_regs.to_string()));
            rows.push(("sm__maximum_warps_avg_per_active_cycle", "warp", warps.to_string()));
            rows.push(("sm__maximum_warps_per_active_cycle_pct", "%", format!("{pct:.0}")));
        }
        if k.counted {
            let c = &k.counters;
            let ratio = |a: u64, b: u64| if b == 0 { "0".to_string() } else { format!("{:.2}", a as f64 / b as f64) };
            rows.push(("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", "request", grouped(c.global_ld_requests)));
            rows.push(("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", "sector", grouped(c.global_ld_sectors)));
            rows.push(("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_ld.ratio", "sector", ratio(c.global_ld_sectors, c.global_ld_requests)));
            rows.push(("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", "request", grouped(c.global_st_requests)));
            rows.push(("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", "sector", grouped(c.global_st_sectors)));
            rows.push(("l1tex__average_t_sectors_per_request_pipe_lsu_mem_global_op_st.ratio", "sector", ratio(c.global_st_sectors, c.global_st_requests)));
            rows.push(("smsp__sass_inst_executed_op_shared_ld.sum", "inst", grouped(c.shared_ld_requests)));
            rows.push(("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", "", grouped(c.shared_ld_wavefronts)));
            rows.push(("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum", "", grouped(c.shared_ld_conflicts)));
            rows.push(("smsp__sass_inst_executed_op_shared_st.sum", "inst", grouped(c.shared_st_requests)));
            rows.push(("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", "", grouped(c.shared_st_wavefronts)));
            rows.push(("l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum", "", grouped(c.shared_st_conflicts)));
            rows.push(("cuprite__source_branches.sum", "", grouped(c.branches)));
            rows.push(("cuprite__source_branches_divergent.sum", "", grouped(c.divergent_branches)));
        }
        let w = rows.iter().map(|r| r.0.len()).max().unwrap_or(0).max(11);
        let dash = |n: usize| "-".repeat(n);
        let _ = writeln!(s, "    Section: Command line profiler metrics");
        let _ = writeln!(s, "    {} {} {}", dash(w), dash(11), dash(12));
        let _ = writeln!(s, "    {:<w$} {:>11} {:>12}", "Metric Name", "Metric Unit", "Metric Value");
        let _ = writeln!(s, "    {} {} {}", dash(w), dash(11), dash(12));
        for (name, unit, value) in rows {
            let _ = writeln!(s, "    {name:<w$} {unit:>11} {value:>12}");
        }
        let _ = writeln!(s, "    {} {} {}", dash(w), dash(11), dash(12));
        if k.occupancy.is_some() {
            let _ = writeln!(s, "    Occupancy: registers as cudaFuncGetAttributes reports them (32 per thread; the CPU device has no register file), shared memory with the largest carveout (ncu uses the one the driver chose).");
        }
        s.push('\n');
    }
    unsafe {
        libc::fflush(std::ptr::null_mut());
    }
    let mut out = std::io::stdout().lock();
    let _ = out.write_all(s.as_bytes());
    let _ = out.flush();
}
