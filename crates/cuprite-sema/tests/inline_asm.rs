//! Inline PTX in device code: constraint and operand checks, the template checked when the
//! statement is, and the lowering into the enclosing function.
mod common;
use common::*;

#[test]
fn asm_lowers_into_the_function() {
    let m = compile(
        "__global__ void k(unsigned *p, unsigned long long *q) {\n  unsigned lane, r;\n  asm(\"mov.u32 %0, %%laneid;\" : \"=r\"(lane));\n  asm(\"shf.l.wrap.b32 %0, %1, %2, %3;\" : \"=r\"(r) : \"r\"(p[0]), \"r\"(p[1]), \"n\"(5));\n  asm volatile(\"{ .reg .pred q; setp.ne.u32 q, %1, 0; @q add.u64 %0, %0, 1; }\" : \"+l\"(*q) : \"r\"(lane));\n  p[2] = lane + r;\n}\n",
    );
    let f = func(&m, "k");
    let text = format!("{f:?}");
    assert!(text.contains("LaneId"), "the special register is read");
    assert!(f.blocks.len() > 2, "the predicated add makes blocks");
    assert!(cuprite_ir::verify::verify(&m).is_ok(), "{:?}", cuprite_ir::verify::verify(&m));
}

#[test]
fn asm_errors_name_the_problem() {
    has_error("__global__ void k(int *p) {\n  asm(\"mov.u32 %0, 1;\" : \"r\"(*p));\n}\n", 2, "asm output constraint \"r\" must start with '=' or '+'");
    has_error("__global__ void k(int *p) {\n  asm(\"mov.u32 %0, 1;\" : \"=q\"(*p));\n}\n", 2, "asm output constraint \"=q\" is not supported");
    has_error("__global__ void k(int *p) {\n  asm(\"mov.u32 %0, 1;\" : \"=r\"(3));\n}\n", 2, "an asm output operand must be a modifiable lvalue");
    has_error("__global__ void k(float *p) {\n  asm(\"mov.u32 %0, %1;\" : \"=f\"(*p) : \"r\"(p));\n}\n", 2, "an operand of type 'float *' does not fit the asm constraint \"r\"");
    has_error("__global__ void k(int *p, int n) {\n  asm(\"add.s32 %0, %0, %1;\" : \"+r\"(*p) : \"n\"(n));\n}\n", 2, "must be an integer constant");
    has_error("__global__ void k(int *p) {\n  asm(\"add.s32 %0, %0, %1;\" : \"+r\"(*p) : \"0\"(*p));\n}\n", 2, "matching constraints are not supported yet");
    has_error(
        "__global__ void k(float *p) {\n  asm(\"mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32 {%0}, {%0}, {%0}, {%0};\" : \"+f\"(*p));\n}\n",
        2,
        "in inline PTX (line 1 of the asm template): the PTX instruction 'mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32' (matrix multiply-accumulate) is not supported on the CPU device",
    );
    has_error("__global__ void k(int *p) {\n  asm(\"mov.u32 %0, 1;\\n\\tfrobnicate.b32 %0;\" : \"=r\"(*p));\n}\n", 2, "(line 2 of the asm template): the PTX instruction 'frobnicate.b32' is not supported yet");
    has_error("__global__ void k(int *p) {\n  asm(\"mov.u32 %0, 1;\" : \"=r\"(*p) :: \"rax\");\n}\n", 2, "asm clobber \"rax\" is not supported");
}
