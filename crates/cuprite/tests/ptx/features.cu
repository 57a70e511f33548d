// PTX back-end coverage: device calls with the PTX ABI (structs by value, recursion,
// function pointers), printf, assert, malloc/free, atomics of every width and scope,
// fences, warp collectives, predicate barriers, static and constant data.
#include <cstdio>
#include <cassert>

struct Pair { double a; int b; };

__device__ Pair swap_pair(Pair p) { Pair q; q.a = p.b; q.b = (int)p.a; return q; }
__device__ int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
__device__ int twice(int x) { return 2 * x; }
__device__ int square(int x) { return x * x; }
typedef int (*op_t)(int);
__device__ op_t ops[2] = {twice, square};
__constant__ int table[4] = {1, 2, 3, 4};
__device__ unsigned long long counter64;
__device__ int counter32;

__global__ void features(int *out, float *f, double *d, int n) {
    int t = threadIdx.x;
    Pair p = swap_pair(Pair{1.5, t});
    out[t] = fib(t % 8) + ops[t & 1](t) + table[t & 3] + (int)p.a;
    atomicAdd(&counter64, 1ull);
    atomicAdd_block(&counter32, 1);
    atomicMax_system(&counter32, t);
    atomicCAS(&counter32, 0, 1);
    atomicExch(f, 2.0f);
    atomicAdd(d, 1.0);
    atomicInc((unsigned *)out, 7u);
    __threadfence();
    __threadfence_block();
    unsigned m = __activemask();
    int v = __shfl_down_sync(0xffffffff, t, 1);
    double dv = __shfl_xor_sync(0xffffffff, (double)t, 2);
    unsigned b = __ballot_sync(0xffffffff, t > 3);
    int all = __all_sync(0xffffffff, t >= 0);
    unsigned mm = __match_any_sync(0xffffffff, t / 4);
    int r = __reduce_add_sync(0xffffffff, t);
    __syncwarp();
    int cnt = __syncthreads_count(t & 1);
    int *heap = (int *)malloc(16);
    if (heap) { heap[0] = v; free(heap); }
    assert(n >= 0);
    if (t == 0) printf("t=%d v=%d dv=%f b=%u all=%d mm=%u r=%d cnt=%d m=%u\n", t, v, dv, b, all, mm, r, cnt, m);
}
