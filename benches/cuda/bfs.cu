// Breadth-first search levels (Rodinia's scheme): a frontier mask, one thread per node;
// each level one launch expands the frontier and a second one commits the next frontier,
// the host loops until no node was added. 1M nodes, 8 edges each.
#include "../common/cuda_check.h"
#include "../common/graph.h"

#define N (1 << 20)
#define DEG 8

__global__ void bfs_expand(const int *row_start, const int *edges, bool *frontier,
                           bool *next, const bool *visited, int *level, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n || !frontier[i])
        return;
    frontier[i] = false;
    for (int e = row_start[i]; e < row_start[i + 1]; ++e) {
        int j = edges[e];
        if (!visited[j]) {
            level[j] = level[i] + 1;
            next[j] = true;
        }
    }
}

__global__ void bfs_commit(bool *frontier, bool *next, bool *visited, bool *changed, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    if (next[i]) {
        frontier[i] = true;
        visited[i] = true;
        *changed = true;
        next[i] = false;
    }
}

int main()
{
    int *row_start = (int *)malloc((N + 1) * sizeof(int)), *edges = (int *)malloc((size_t)N * DEG * sizeof(int));
    bench_graph(N, DEG, row_start, edges);
    int *drow, *dedges, *dlevel;
    bool *dfrontier, *dnext, *dvisited, *dchanged;
    CHECK(cudaMalloc(&drow, (N + 1) * sizeof(int)));
    CHECK(cudaMalloc(&dedges, (size_t)N * DEG * sizeof(int)));
    CHECK(cudaMalloc(&dlevel, N * sizeof(int)));
    CHECK(cudaMalloc(&dfrontier, N));
    CHECK(cudaMalloc(&dnext, N));
    CHECK(cudaMalloc(&dvisited, N));
    CHECK(cudaMalloc(&dchanged, 1));
    CHECK(cudaMemcpy(drow, row_start, (N + 1) * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dedges, edges, (size_t)N * DEG * sizeof(int), cudaMemcpyHostToDevice));

    int *level = (int *)malloc(N * sizeof(int));
    bool *init = (bool *)calloc(N, 1);
    for (int i = 0; i < N; ++i) level[i] = -1;
    level[0] = 0;
    init[0] = true;
    CHECK(cudaMemcpy(dlevel, level, N * sizeof(int), cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dfrontier, init, N, cudaMemcpyHostToDevice));
    CHECK(cudaMemcpy(dvisited, init, N, cudaMemcpyHostToDevice));
    CHECK(cudaMemset(dnext, 0, N));

    int levels = 0;
    BenchTimer t;
    t.begin();
    bool changed = true;
    while (changed) {
        changed = false;
        CHECK(cudaMemcpy(dchanged, &changed, 1, cudaMemcpyHostToDevice));
        bfs_expand<<<(N + 255) / 256, 256>>>(drow, dedges, dfrontier, dnext, dvisited, dlevel, N);
        bfs_commit<<<(N + 255) / 256, 256>>>(dfrontier, dnext, dvisited, dchanged, N);
        CHECK(cudaMemcpy(&changed, dchanged, 1, cudaMemcpyDeviceToHost));
        ++levels;
    }
    double ms = t.end();
    CHECK(cudaMemcpy(level, dlevel, N * sizeof(int), cudaMemcpyDeviceToHost));

    // Serial queue BFS for reference.
    int *want = (int *)malloc(N * sizeof(int)), *queue = (int *)malloc(N * sizeof(int));
    for (int i = 0; i < N; ++i) want[i] = -1;
    int head = 0, tail = 0;
    want[0] = 0;
    queue[tail++] = 0;
    while (head < tail) {
        int i = queue[head++];
        for (int e = row_start[i]; e < row_start[i + 1]; ++e)
            if (want[edges[e]] < 0) { want[edges[e]] = want[i] + 1; queue[tail++] = edges[e]; }
    }
    int ok = 1;
    double sum = 0;
    for (int i = 0; i < N; ++i) {
        if (level[i] != want[i]) ok = 0;
        sum += level[i];
    }
    printf("bfs: %d levels\n", levels - 1);
    bench_report("bfs", ms, sum, ok);
    return ok ? 0 : 1;
}
