//! Lowering of texture/surface instructions, nvcc's grid barrier (`%envreg`), the reserved
//! shared memory registers and half-precision atomics: what the IR gets, and the named
//! refusals. (tests/ptx-modules runs the real programs on the CPU.)

use cuprite_ir::{BarrierKind, Builtin, InstKind, MathFn, Module, Terminator};
use cuprite_ptx::lower::module::lower_module_text;

fn module(body: &str, params: &str) -> Result<Module, String> {
    let text = format!(".version 8.0\n.target sm_90\n.address_size 64\n\n.visible .entry k({params})\n{{\n{body}\n}}\n");
    lower_module_text(&text).map_err(|e| e.to_string())
}

fn builtins(m: &Module) -> Vec<Builtin> {
    m.functions.iter().flat_map(|f| f.blocks.iter()).flat_map(|b| b.insts.iter()).filter_map(|i| match &i.kind {
        InstKind::CallBuiltin { builtin, .. } => Some(builtin.clone()),
        _ => None,
    }).collect()
}

fn barriers(m: &Module) -> Vec<BarrierKind> {
    m.functions.iter().flat_map(|f| f.blocks.iter()).filter_map(|b| match &b.term {
        Terminator::Barrier { kind, .. } => Some(*kind),
        _ => None,
    }).collect()
}

/// nvcc's `grid.sync()` (CUDA 13.0, sm_90): the block barrier after the workspace spin
/// becomes the grid barrier; the one before stays a block barrier.
#[test]
fn nvcc_grid_sync_becomes_the_grid_barrier() {
    let body = "
	.reg .pred %p<4>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<6>;
	mov.u32 %r1, %envreg2;
	cvt.u64.u32 %rd1, %r1;
	mov.u32 %r2, %envreg1;
	cvt.u64.u32 %rd2, %r2;
	bfi.b64 %rd3, %rd2, %rd1, 32, 32;
	setp.ne.s64 %p1, %rd3, 0;
	@%p1 bra $L1;
	trap;
$L1:
	mov.u32 %r3, %tid.x;
	setp.ne.s32 %p2, %r3, 0;
	barrier.sync 0;
	@%p2 bra $L3;
	add.s64 %rd4, %rd3, 4;
	mov.u32 %r4, 1;
	atom.add.release.gpu.u32 %r5, [%rd4], %r4;
$L2:
	ld.acquire.gpu.u32 %r6, [%rd4];
	xor.b32 %r7, %r6, %r5;
	setp.gt.s32 %p3, %r7, -1;
	@%p3 bra $L2;
$L3:
	barrier.sync 0;
	ret;";
    let m = module(body, "").unwrap();
    assert_eq!(barriers(&m), vec![BarrierKind::Sync, BarrierKind::Grid]);
    // No memory access through the workspace token is left.
    assert!(!builtins(&m).iter().any(|b| matches!(b, Builtin::Atomic { .. })));
}

#[test]
fn other_workspace_accesses_are_refused_by_name() {
    let body = "
	.reg .b32 %r<4>;
	.reg .b64 %rd<4>;
	mov.u32 %r1, %envreg2;
	cvt.u64.u32 %rd1, %r1;
	st.global.u32 [%rd1], %r1;
	ret;";
    let e = module(body, "").unwrap_err();
    assert!(e.contains("st.global.u32") && e.contains("grid workspace"), "{e}");
    let e = module("\t.reg .b32 %r<2>;\n\tmov.u32 %r1, %envreg5;\n\tret;", "").unwrap_err();
    assert!(e.contains("%envreg5"), "{e}");
}

#[test]
fn reserved_smem_is_a_shared_variable_of_its_own() {
    let body = "
	.reg .b32 %r<3>;
	mov.u32 %r1, %reserved_smem_offset_1;
	mov.u32 %r2, %reserved_smem_offset_cap;
	ret;";
    let m = module(body, "").unwrap();
    let g = m.globals.iter().find(|g| g.name == "__cuprite_reserved_smem").expect("the reserved variable");
    assert_eq!(g.space, cuprite_ir::AddressSpace::Shared);
    assert_eq!(g.ty, cuprite_ir::Type::Array(Box::new(cuprite_ir::Type::U8), 1024));
}

#[test]
fn texture_and_surface_instructions_call_the_runtime() {
    let body = "
	.reg .f32 %f<12>;
	.reg .b32 %r<8>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [k_param_0];
	tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];
	tex.level.a2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%r1, %f5, %f6, %f6}], %f7;
	tld4.g.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}];
	tex.1d.v4.f32.s32 {%f1, %f2, %f3, %f4}, [%rd1, {%r2}];
	suld.b.2d.v2.b32.clamp {%r3, %r4}, [%rd1, {%r5, %r6}];
	sust.b.a2d.b32.trap [%rd1, {%r1, %r5, %r6, %r6}], {%r3};
	ret;";
    let m = module(body, ".param .u64 k_param_0").unwrap();
    let count = |f: MathFn| builtins(&m).iter().filter(|b| **b == Builtin::Math(f)).count();
    assert_eq!(count(MathFn::CupriteTexFetch), 3);
    assert_eq!(count(MathFn::CupriteTexFetchInt), 1);
    assert_eq!(count(MathFn::CupriteSurfAccess), 2);
}

#[test]
fn integer_texel_results_ask_the_runtime_for_32_bit_channels() {
    // `.s32`/`.u32` results: the fetch's size carries the widening flag (bit 31) so the
    // runtime, which knows the channel format, sign- or zero-extends each channel.
    let body = "
	.reg .f32 %f<4>;
	.reg .b32 %r<9>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [k_param_0];
	tex.2d.v4.u32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f1, %f2}];
	tex.1d.v4.s32.s32 {%r5, %r6, %r7, %r8}, [%rd1, {%r1}];
	tld4.g.2d.v4.s32.f32 {%r1, %r2, %r3, %r4}, [%rd1, {%f1, %f2}];
	ret;";
    let m = module(body, ".param .u64 k_param_0").unwrap();
    let count = |f: MathFn| builtins(&m).iter().filter(|b| **b == Builtin::Math(f)).count();
    assert_eq!(count(MathFn::CupriteTexFetch), 2);
    assert_eq!(count(MathFn::CupriteTexFetchInt), 1);
    let text = format!("{m:?}");
    assert!(text.contains(&((1u64 << 31) | 16).to_string()), "the widening flag is passed");
    // tld4.g gathers component 1: kind 2 | 0x40 | 1 << 8.
    assert!(text.contains("Int(322,"), "the gathered component is passed");
    // Other result types stay refused by name.
    let body = "
	.reg .f32 %f<4>;
	.reg .b16 %h<5>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [k_param_0];
	tex.2d.v4.f16.f32 {%h1, %h2, %h3, %h4}, [%rd1, {%f1, %f2}];
	ret;";
    let e = module(body, ".param .u64 k_param_0").unwrap_err();
    assert!(e.contains("tex.2d.v4.f16.f32") && e.contains("f16 results"), "{e}");
}

#[test]
fn half_atomics_are_compare_and_swap_loops() {
    let body = "
	.reg .b16 %rs<3>;
	.reg .b32 %r<3>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [k_param_0];
	atom.add.noftz.f16 %rs1, [%rd1], %rs2;
	red.global.add.noftz.bf16x2 [%rd1], %r1;
	ret;";
    let m = module(body, ".param .u64 k_param_0").unwrap();
    let cas = builtins(&m).iter().filter(|b| matches!(b, Builtin::Atomic { op: cuprite_ir::AtomicOp::Cas, .. })).count();
    assert_eq!(cas, 2);
    assert!(cuprite_ir::verify::verify(&m).is_ok());
}
