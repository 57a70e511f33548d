//! Warp collectives: CUDA's overloads and their lowering to `Terminator::Warp`.
mod common;
use common::*;
use cuprite_ir as ir;

fn warp_ops(f: &ir::Function) -> Vec<(ir::WarpOp, Vec<ir::Type>, Vec<ir::Type>)> {
    f.blocks
        .iter()
        .filter_map(|b| match &b.term {
            ir::Terminator::Warp { op, args, results, .. } => Some((
                *op,
                args.iter().map(|a| f.value_type(*a).clone()).collect(),
                results.iter().map(|r| f.local(*r).ty.clone()).collect(),
            )),
            _ => None,
        })
        .collect()
}

#[test]
fn warp_collectives_are_terminators_with_cuda_overloads() {
    use ir::Type::*;
    use ir::{ReduceKind as R, ShflKind as S, VoteKind as V, WarpOp as W};
    let m = compile(
        "__global__ void k(int *p, double *d, long long *l, unsigned *u) {\n\
           int x = p[0]; short s = 3;\n\
           p[1] = __shfl_sync(0xffffffff, x, 3) + __shfl_up_sync(0xffffffff, s, 1, 16);\n\
           d[0] = __shfl_xor_sync(0xffffffff, d[1], 1);\n\
           l[0] = __shfl_down(l[1], 2);\n\
           u[0] = __ballot_sync(0xffffffff, x > 2) + __all(x) + __uni_sync(1u, x) + __activemask();\n\
           __syncwarp();\n\
           int pred;\n\
           u[1] = __match_all_sync(0xffffffff, 2.5f, &pred) + pred + __match_any_sync(3u, l[2]);\n\
           u[2] = __reduce_max_sync(0xffffffff, x) + __reduce_min_sync(0xffffffff, u[3]) + __reduce_xor_sync(1u, x);\n\
         }\n",
    );
    let f = func(&m, "k");
    let ops = warp_ops(f);
    let expect: Vec<(ir::WarpOp, Vec<ir::Type>, Vec<ir::Type>)> = vec![
        (W::Shfl(S::Idx), vec![U32, I32, I32, I32], vec![I32]),
        (W::Shfl(S::Up), vec![U32, I32, I32, I32], vec![I32]),
        (W::Shfl(S::Xor), vec![U32, F64, I32, I32], vec![F64]),
        (W::Shfl(S::Down), vec![U32, I64, I32, I32], vec![I64]),
        (W::Vote(V::Ballot), vec![U32, Bool], vec![U32]),
        (W::Vote(V::All), vec![U32, Bool], vec![I32]),
        (W::Vote(V::Uni), vec![U32, Bool], vec![I32]),
        (W::ActiveMask, vec![], vec![U32]),
        (W::SyncWarp, vec![U32], vec![]),
        (W::MatchAll, vec![U32, F32], vec![U32, I32]),
        (W::MatchAny, vec![U32, I64], vec![U32]),
        (W::Reduce(R::Max), vec![U32, I32], vec![I32]),
        (W::Reduce(R::Min), vec![U32, U32], vec![U32]),
        (W::Reduce(R::Xor), vec![U32, U32], vec![U32]),
    ];
    assert_eq!(ops, expect);
}

#[test]
fn warp_collective_errors() {
    has_error("__global__ void k(int **p) { p[0] = __shfl_sync(0xffffffff, p[1], 0); }\n", 1, "no matching function for call to '__shfl_sync'");
    has_error("__global__ void k(int *p) { p[0] = __shfl_sync(0xffffffff, 1); }\n", 1, "too few arguments");
    has_error("__global__ void k(long *p) { p[0] = __reduce_add_sync(0xffffffff, p[1]); }\n", 1, "no matching function for call to '__reduce_add_sync'");
}
