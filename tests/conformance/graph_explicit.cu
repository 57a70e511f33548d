// graph_explicit: a graph built node by node with every node type (kernel, memcpy 3D
// and 1D, memset with 1-, 2- and 4-byte elements, host, child graph, event record and
// wait, empty, memory allocation and free) and dependencies; node queries (types,
// dependencies, dependents, roots, edges), parameters read back, clone and
// cudaGraphNodeFindInClone, cudaGraphExec*NodeSetParams, cudaGraphAddDependencies /
// RemoveDependencies, cudaGraphDestroyNode, cudaGraphDebugDotPrint, and errors.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cstring>

__global__ void axpy(float *y, const float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
__global__ void iota(int *p, int n) { int i = blockIdx.x * blockDim.x + threadIdx.x; if (i < n) p[i] = i; }

static int host_log[8];
static int host_n = 0;
static void CUDART_CB record_host(void *p) { host_log[host_n++] = *(int *)p; }
#define E(x) cudaGetErrorName(x)

int main() {
  const int n = 256;
  float *x, *y, *hy;
  cudaMalloc(&x, n * sizeof(float));
  cudaMalloc(&y, n * sizeof(float));
  cudaMallocHost(&hy, n * sizeof(float));
  float *hx;
  cudaMallocHost(&hx, n * sizeof(float));
  for (int i = 0; i < n; i++) hx[i] = (float)i;
  cudaGraph_t g;
  printf("create: %s\n", E(cudaGraphCreate(&g, 0)));

  // memcpy x <- hx (3D parameters), memset y (4-byte elements), then axpy, then copy back.
  cudaMemcpy3DParms cp = {0};
  cp.srcPtr = make_cudaPitchedPtr(hx, n * sizeof(float), n, 1);
  cp.dstPtr = make_cudaPitchedPtr(x, n * sizeof(float), n, 1);
  cp.extent = make_cudaExtent(n * sizeof(float), 1, 1);
  cp.kind = cudaMemcpyHostToDevice;
  cudaGraphNode_t copy_in, set_y, kern, copy_out, host, empty;
  printf("memcpy node: %s\n", E(cudaGraphAddMemcpyNode(&copy_in, g, nullptr, 0, &cp)));
  cudaMemsetParams ms = {0};
  ms.dst = y;
  ms.value = 0x3f800000;  // 1.0f
  ms.elementSize = 4;
  ms.width = n;
  ms.height = 1;
  printf("memset node: %s\n", E(cudaGraphAddMemsetNode(&set_y, g, nullptr, 0, &ms)));
  float a = 2.0f;
  int nn = n;
  void *args[] = {&y, &x, &a, &nn};
  cudaKernelNodeParams kp = {0};
  kp.func = (void *)axpy;
  kp.gridDim = dim3(n / 64);
  kp.blockDim = dim3(64);
  kp.kernelParams = args;
  cudaGraphNode_t both[] = {copy_in, set_y};
  printf("kernel node: %s\n", E(cudaGraphAddKernelNode(&kern, g, both, 2, &kp)));
  a = 100.0f;  // the node keeps its own copy of the arguments
  printf("memcpy1D node: %s\n", E(cudaGraphAddMemcpyNode1D(&copy_out, g, &kern, 1, hy, y, n * sizeof(float), cudaMemcpyDeviceToHost)));
  static int tag = 7;
  cudaHostNodeParams hp = {record_host, &tag};
  printf("host node: %s\n", E(cudaGraphAddHostNode(&host, g, &copy_out, 1, &hp)));
  printf("empty node: %s\n", E(cudaGraphAddEmptyNode(&empty, g, &host, 1)));

  // Event record / wait nodes and a child graph.
  cudaEvent_t ev;
  cudaEventCreate(&ev);
  cudaGraphNode_t rec, wait, child_node;
  printf("event record node: %s\n", E(cudaGraphAddEventRecordNode(&rec, g, &empty, 1, ev)));
  printf("event wait node: %s\n", E(cudaGraphAddEventWaitNode(&wait, g, &rec, 1, ev)));
  cudaGraph_t child;
  cudaGraphCreate(&child, 0);
  int *iv;
  cudaMalloc(&iv, 64 * sizeof(int));
  void *iargs[] = {&iv, &nn};
  int sixty_four = 64;
  iargs[1] = &sixty_four;
  cudaKernelNodeParams ikp = {0};
  ikp.func = (void *)iota;
  ikp.gridDim = dim3(1);
  ikp.blockDim = dim3(64);
  ikp.kernelParams = iargs;
  cudaGraphNode_t ik, iset;
  cudaMemsetParams ims = {0};
  ims.dst = iv;
  ims.value = 0xab;
  ims.elementSize = 1;
  ims.width = 64 * sizeof(int);
  ims.height = 1;
  cudaGraphAddMemsetNode(&iset, child, nullptr, 0, &ims);
  cudaGraphAddKernelNode(&ik, child, &iset, 1, &ikp);
  printf("child graph node: %s\n", E(cudaGraphAddChildGraphNode(&child_node, g, &wait, 1, child)));

  // Node queries.
  size_t count = 0;
  cudaGraphGetNodes(g, nullptr, &count);
  printf("nodes: %zu\n", count);
  cudaGraphNode_t nodes[16];
  size_t cap = 16;
  cudaGraphGetNodes(g, nodes, &cap);
  printf("types:");
  for (size_t i = 0; i < cap; i++) {
    cudaGraphNodeType t;
    cudaGraphNodeGetType(nodes[i], &t);
    printf(" %d", (int)t);
  }
  printf("\n");
  size_t roots = 0, edges = 0, ndeps = 0, nusers = 0;
  cudaGraphGetRootNodes(g, nullptr, &roots);
  cudaGraphGetEdges(g, nullptr, nullptr, nullptr, &edges);
  cudaGraphNodeGetDependencies(kern, nullptr, nullptr, &ndeps);
  cudaGraphNodeGetDependentNodes(kern, nullptr, nullptr, &nusers);
  printf("roots=%zu edges=%zu kernel deps=%zu kernel dependents=%zu\n", roots, edges, ndeps, nusers);
  cudaGraphNode_t dl[4];
  size_t dn = 4;
  cudaGraphNodeGetDependencies(kern, dl, nullptr, &dn);
  printf("kernel depends on copy_in and set_y: %d %d\n", dl[0] == copy_in || dl[1] == copy_in, dl[0] == set_y || dl[1] == set_y);
  cudaKernelNodeParams back;
  cudaGraphKernelNodeGetParams(kern, &back);
  printf("kernel params back: func=%d grid=%u block=%u a=%g\n", back.func == (void *)axpy, back.gridDim.x, back.blockDim.x,
         *(float *)back.kernelParams[2]);
  cudaMemsetParams msb;
  cudaGraphMemsetNodeGetParams(set_y, &msb);
  printf("memset params back: value=%#x elem=%u width=%zu\n", msb.value, msb.elementSize, msb.width);
  cudaGraph_t cg;
  cudaGraphChildGraphNodeGetGraph(child_node, &cg);
  size_t cn = 0;
  cudaGraphGetNodes(cg, nullptr, &cn);
  printf("child graph nodes: %zu\n", cn);
  cudaEvent_t evb;
  cudaGraphEventRecordNodeGetEvent(rec, &evb);
  printf("record node event: %d\n", evb == ev);

  // Instantiate, launch, check.
  cudaStream_t s;
  cudaStreamCreate(&s);
  cudaGraphExec_t ge;
  printf("instantiate: %s\n", E(cudaGraphInstantiateWithFlags(&ge, g, 0)));
  printf("launch: %s\n", E(cudaGraphLaunch(ge, s)));
  printf("sync: %s\n", E(cudaStreamSynchronize(s)));
  printf("event after launch: %s\n", E(cudaEventQuery(ev)));
  int hi[64];
  cudaMemcpy(hi, iv, sizeof hi, cudaMemcpyDeviceToHost);
  printf("y[0]=%g y[1]=%g y[255]=%g iota[63]=%d host log n=%d first=%d\n", hy[0], hy[1], hy[255], hi[63], host_n, host_log[0]);

  // Executable-graph parameter updates.
  a = -1.0f;
  kp.gridDim = dim3(n / 128);
  kp.blockDim = dim3(128);
  printf("exec kernel set: %s\n", E(cudaGraphExecKernelNodeSetParams(ge, kern, &kp)));
  ms.value = 0;
  printf("exec memset set: %s\n", E(cudaGraphExecMemsetNodeSetParams(ge, set_y, &ms)));
  static int tag2 = 9;
  cudaHostNodeParams hp2 = {record_host, &tag2};
  printf("exec host set: %s\n", E(cudaGraphExecHostNodeSetParams(ge, host, &hp2)));
  printf("exec kernel set on a memset node: %s\n", E(cudaGraphExecKernelNodeSetParams(ge, set_y, &kp)));
  cudaGetLastError();
  cudaGraphLaunch(ge, s);
  cudaStreamSynchronize(s);
  printf("after exec updates: y[3]=%g host log n=%d last=%d\n", hy[3], host_n, host_log[host_n - 1]);

  // The graph itself was not changed by the exec updates: clone it and run the clone.
  cudaGraph_t cl;
  printf("clone: %s\n", E(cudaGraphClone(&cl, g)));
  cudaGraphNode_t kern_in_clone;
  printf("find in clone: %s\n", E(cudaGraphNodeFindInClone(&kern_in_clone, kern, cl)));
  cudaKernelNodeParams cb;
  cudaGraphKernelNodeGetParams(kern_in_clone, &cb);
  printf("clone kernel a=%g different handle=%d\n", *(float *)cb.kernelParams[2], kern_in_clone != kern);
  cudaGraphExec_t gce;
  cudaGraphInstantiate(&gce, cl, 0);
  cudaGraphLaunch(gce, s);
  cudaStreamSynchronize(s);
  printf("clone run: y[3]=%g host log last=%d\n", hy[3], host_log[host_n - 1]);

  // Dependencies added and removed, nodes destroyed.
  cudaGraph_t g2;
  cudaGraphCreate(&g2, 0);
  cudaGraphNode_t e1, e2, e3;
  cudaGraphAddEmptyNode(&e1, g2, nullptr, 0);
  cudaGraphAddEmptyNode(&e2, g2, nullptr, 0);
  cudaGraphAddEmptyNode(&e3, g2, nullptr, 0);
  cudaGraphNode_t from[] = {e1, e2}, to[] = {e3, e3};
  printf("add deps: %s\n", E(cudaGraphAddDependencies(g2, from, to, nullptr, 2)));
  printf("add duplicate dep: %s\n", E(cudaGraphAddDependencies(g2, from, to, nullptr, 1)));
  cudaGetLastError();
  cudaGraphGetEdges(g2, nullptr, nullptr, nullptr, &edges);
  printf("edges: %zu\n", edges);
  printf("remove dep: %s\n", E(cudaGraphRemoveDependencies(g2, from, to, nullptr, 1)));
  cudaGraphGetEdges(g2, nullptr, nullptr, nullptr, &edges);
  cudaGraphGetRootNodes(g2, nullptr, &roots);
  printf("edges: %zu roots: %zu\n", edges, roots);
  printf("destroy node: %s\n", E(cudaGraphDestroyNode(e2)));
  cudaGraphGetNodes(g2, nullptr, &count);
  cudaGraphGetEdges(g2, nullptr, nullptr, nullptr, &edges);
  printf("nodes: %zu edges: %zu\n", count, edges);

  // Memory allocation and free nodes.
  cudaGraph_t g3;
  cudaGraphCreate(&g3, 0);
  cudaMemAllocNodeParams ap;
  memset(&ap, 0, sizeof ap);
  ap.poolProps.allocType = cudaMemAllocationTypePinned;
  ap.poolProps.location.type = cudaMemLocationTypeDevice;
  ap.poolProps.location.id = 0;
  ap.bytesize = 64 * sizeof(int);
  cudaGraphNode_t an, kn, cn2, fn;
  cudaError_t ae = cudaGraphAddMemAllocNode(&an, g3, nullptr, 0, &ap);
  printf("alloc node: %s dptr set: %d\n", E(ae), ap.dptr != nullptr);
  int *gm = (int *)ap.dptr;
  void *gargs[] = {&gm, &sixty_four};
  ikp.kernelParams = gargs;
  cudaGraphAddKernelNode(&kn, g3, &an, 1, &ikp);
  int *hg;
  cudaMallocHost(&hg, 64 * sizeof(int));
  cudaGraphAddMemcpyNode1D(&cn2, g3, &kn, 1, hg, gm, 64 * sizeof(int), cudaMemcpyDeviceToHost);
  printf("free node: %s\n", E(cudaGraphAddMemFreeNode(&fn, g3, &cn2, 1, gm)));
  cudaMemAllocNodeParams apb;
  cudaGraphMemAllocNodeGetParams(an, &apb);
  void *freed = nullptr;
  cudaGraphMemFreeNodeGetParams(fn, &freed);
  printf("alloc params back: bytes=%zu same ptr=%d free ptr=%d\n", apb.bytesize, apb.dptr == ap.dptr, freed == ap.dptr);
  cudaGraphExec_t ge3;
  printf("instantiate: %s\n", E(cudaGraphInstantiate(&ge3, g3, 0)));
  cudaGraphLaunch(ge3, s);
  cudaStreamSynchronize(s);
  printf("allocated memory used: hg[10]=%d hg[63]=%d\n", hg[10], hg[63]);

  // Debug dump and errors.
  printf("dot print: %s\n", E(cudaGraphDebugDotPrint(g, "graph_explicit.dot", 0)));
  FILE *f = fopen("graph_explicit.dot", "r");
  char line[64] = {0};
  if (f) { fgets(line, sizeof line, f); fclose(f); remove("graph_explicit.dot"); }
  printf("dot starts with digraph: %d\n", strncmp(line, "digraph", 7) == 0);
  cudaGraphNode_t bad;
  printf("kernel node with null params: %s\n", E(cudaGraphAddKernelNode(&bad, g, nullptr, 0, nullptr)));
  cudaGetLastError();
  cudaMemsetParams badms = ms;
  badms.elementSize = 3;
  printf("memset with 3-byte elements: %s\n", E(cudaGraphAddMemsetNode(&bad, g, nullptr, 0, &badms)));
  cudaGetLastError();
  printf("dependency from another graph: %s\n", E(cudaGraphAddEmptyNode(&bad, g2, &kern, 1)));
  cudaGetLastError();

  printf("destroy: %s %s %s %s %s\n", E(cudaGraphExecDestroy(ge)), E(cudaGraphExecDestroy(gce)), E(cudaGraphExecDestroy(ge3)),
         E(cudaGraphDestroy(g)), E(cudaGraphDestroy(cl)));
  cudaGraphDestroy(g2); cudaGraphDestroy(g3); cudaGraphDestroy(child);
  cudaStreamDestroy(s);
  cudaFree(x); cudaFree(y); cudaFree(iv); cudaFreeHost(hy); cudaFreeHost(hx); cudaFreeHost(hg);
  return 0;
}
