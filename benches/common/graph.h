/* The BFS input graph, built the same way on both sides: N nodes, node i has edges to
 * i+1 (a long chain keeps the BFS many levels deep) and to DEG-1 pseudo-random nodes,
 * stored as CSR. */
#ifndef CUPRITE_BENCH_GRAPH_H
#define CUPRITE_BENCH_GRAPH_H
#include "bench.h"

static inline void bench_graph(int n, int deg, int *row_start, int *edges)
{
    uint32_t s = 21;
    int e = 0;
    for (int i = 0; i < n; ++i) {
        row_start[i] = e;
        edges[e++] = (i + 1) % n;
        for (int k = 1; k < deg; ++k) {
            /* mostly local edges (as in meshes and road networks), a few long ones */
            uint32_t r = bench_rand(&s);
            int j = (r & 1023) == 0 ? (int)(bench_rand(&s) % (uint32_t)n)
                                    : (int)((i + n - 8192 + (r >> 10) % 24576u) % (uint32_t)n);
            edges[e++] = j;
        }
    }
    row_start[n] = e;
}
#endif
