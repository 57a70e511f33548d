/* Twin of bfs.cu: the same level-synchronous frontier-mask BFS (Rodinia's OpenMP scheme:
 * a frontier node clears its own mask, the commit phase writes only the nodes reached),
 * nodes over threads in both phases of each level. */
#include <stdbool.h>
#include <omp.h>
#include "../common/graph.h"

#define N (1 << 20)
#define DEG 8

static void bfs(const int *restrict row_start, const int *restrict edges, bool *restrict frontier,
                bool *restrict next, bool *restrict visited, int *restrict level, int n)
{
    bool changed = true;
    while (changed) {
        changed = false;
#pragma omp parallel for schedule(static)
        for (int i = 0; i < n; ++i) {
            if (!frontier[i]) continue;
            frontier[i] = false;
            for (int e = row_start[i]; e < row_start[i + 1]; ++e) {
                int j = edges[e];
                if (!visited[j]) {
                    level[j] = level[i] + 1;
                    next[j] = true;
                }
            }
        }
#pragma omp parallel for schedule(static) reduction(|| : changed)
        for (int i = 0; i < n; ++i) {
            if (next[i]) {
                frontier[i] = true;
                visited[i] = true;
                changed = true;
                next[i] = false;
            }
        }
    }
}

int main(void)
{
    int *row_start = malloc((N + 1) * sizeof(int)), *edges = malloc((size_t)N * DEG * sizeof(int));
    bench_graph(N, DEG, row_start, edges);
    int *level = malloc(N * sizeof(int));
    bool *frontier = calloc(N, 1), *next = calloc(N, 1), *visited = calloc(N, 1);
    for (int i = 0; i < N; ++i) level[i] = -1;
    level[0] = 0;
    for (int i = 0; i < N; ++i) frontier[i] = next[i] = visited[i] = false; /* touch the pages */
    frontier[0] = visited[0] = true;
    double t0 = omp_get_wtime();
    bfs(row_start, edges, frontier, next, visited, level, N);
    double ms = (omp_get_wtime() - t0) * 1e3;
    double sum = 0;
    for (int i = 0; i < N; ++i) sum += level[i];
    bench_report("bfs", ms, sum, 1);
    return 0;
}
