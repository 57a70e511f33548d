mod common;
use common::*;
use cuprite_ir as ir;

#[test]
fn vec_add() {
    let m = compile(
        "__global__ void vecAdd(const float* __restrict__ a, const float* __restrict__ b, float *c, int n) {\n\
           int i = blockIdx.x * blockDim.x + threadIdx.x;\n\
           if (i < n) c[i] = a[i] + b[i];\n\
         }\n",
    );
    let f = func(&m, "vecAdd");
    match &f.kind {
        ir::FunctionKind::Kernel { stub_symbol, .. } => assert_eq!(stub_symbol, "_Z6vecAddPKfS0_Pfi"),
        k => panic!("{k:?}"),
    }
    assert_eq!(f.params.len(), 4);
    assert!(insts(f).iter().any(|k| matches!(k, ir::InstKind::Special(ir::SpecialReg::ThreadIdx(ir::Dim::X)))));
}
