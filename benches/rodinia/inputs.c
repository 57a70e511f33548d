/* Writes the inputs of Rodinia's own OpenMP programs in their file formats, from the
 * suite's generators, so that they run on the same data as benches/cuda and benches/openmp:
 *   graph.txt            bfs: the 1M-node graph of common/graph.h, source 0
 *   temp.txt, power.txt  hotspot: the 1024x1024 chip of hotspot.cu (Rodinia's own model
 *                        constants differ from ours, so only the work is the same)
 * Usage: inputs DIR */
#include <stdio.h>
#include "../common/graph.h"

#define BFS_N (1 << 20)
#define BFS_DEG 8
#define HS_N 1024

static FILE *create(const char *dir, const char *name)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    if (!f) { perror(path); exit(1); }
    return f;
}

int main(int argc, char **argv)
{
    if (argc != 2) { fprintf(stderr, "usage: %s DIR\n", argv[0]); return 2; }
    int *row_start = malloc((BFS_N + 1) * sizeof(int)), *edges = malloc((size_t)BFS_N * BFS_DEG * sizeof(int));
    bench_graph(BFS_N, BFS_DEG, row_start, edges);
    FILE *g = create(argv[1], "graph.txt");
    fprintf(g, "%d\n", BFS_N);
    for (int i = 0; i < BFS_N; ++i) fprintf(g, "%d %d\n", row_start[i], row_start[i + 1] - row_start[i]);
    fprintf(g, "\n0\n\n%d\n", row_start[BFS_N]);
    for (int e = 0; e < row_start[BFS_N]; ++e) fprintf(g, "%d 1\n", edges[e]);
    fclose(g);

    /* the same draws as hotspot.cu: temperature then power, cell by cell */
    FILE *t = create(argv[1], "temp.txt"), *p = create(argv[1], "power.txt");
    uint32_t s = 23;
    for (int i = 0; i < HS_N * HS_N; ++i) {
        fprintf(t, "%.6f\n", 300.0f + bench_below(&s, 40));
        fprintf(p, "%.6f\n", bench_below(&s, 100) / 100.0f);
    }
    fclose(t);
    fclose(p);
    return 0;
}
