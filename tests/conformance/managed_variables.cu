// managed_variables: __managed__ variables (scalar, array, struct) and cudaMallocManaged
// memory are one object seen by host and device: the host writes, a kernel updates, the
// host reads after cudaDeviceSynchronize; &var is the same address on both sides and is
// what cudaGetSymbolAddress gives; cudaMemcpyToSymbol/FromSymbol and sizeof agree with
// the host's view; a linked list built on the host in cudaMallocManaged memory (one
// array, and one allocation per node) is walked and modified on the device.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (tools/nvcc-capture.sh).
#include <cstdio>

struct Stats {
  int count;
  long long sum;
  float scale;
};

struct Node {
  int value;
  Node *next;
};

__managed__ int counter = 10;
__managed__ int table[4] = {1, 2, 3, 4};
__managed__ float farr[8];
__managed__ Stats stats = {1, 100, 0.5f};
__managed__ long long walk_out[2];

__global__ void bump(int by) { atomicAdd(&counter, by); }

__global__ void same_address(const int *from_host, int *same) { *same = (from_host == &counter); }

__global__ void double_table() { table[threadIdx.x] *= 2; }

__global__ void fill(int base) {
  int i = threadIdx.x;
  farr[i] = base + i * 0.5f;
}

__global__ void accumulate(Stats *s, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    atomicAdd(&s->count, 1);
    atomicAdd((unsigned long long *)&stats.sum, (unsigned long long)i);
  }
  if (i == 0) s->scale *= 4.0f;
}

__global__ void walk(const Node *head) {
  long long sum = 0, n = 0;
  for (const Node *p = head; p; p = p->next) {
    sum += p->value;
    n++;
  }
  walk_out[0] = sum;
  walk_out[1] = n;
}

__global__ void scale_list(Node *head, int k) {
  for (Node *p = head; p; p = p->next) p->value *= k;
}

static long long host_walk(const Node *head) {
  long long s = 0;
  for (const Node *p = head; p; p = p->next) s += p->value;
  return s;
}

int main() {
  // Scalar round trip.
  printf("counter initially %d\n", counter);
  counter = 5;
  bump<<<4, 32>>>(2);
  printf("sync: %s\n", cudaGetErrorName(cudaDeviceSynchronize()));
  printf("counter after kernel %d\n", counter);
  counter += 1000;
  bump<<<1, 1>>>(1);
  cudaDeviceSynchronize();
  printf("counter after second kernel %d\n", counter);

  // One address for host and device.
  int *same;
  cudaMallocManaged(&same, sizeof(int));
  *same = -1;
  same_address<<<1, 1>>>(&counter, same);
  cudaDeviceSynchronize();
  printf("device &counter == host &counter: %d\n", *same);
  void *sym = 0;
  printf("cudaGetSymbolAddress: %s\n", cudaGetErrorName(cudaGetSymbolAddress(&sym, counter)));
  printf("symbol address == &counter: %d\n", (int)(sym == (void *)&counter));
  size_t sz = 0;
  cudaGetSymbolSize(&sz, table);
  printf("sizes: counter %d table %d (symbol %d) stats %d\n", (int)sizeof(counter), (int)sizeof(table), (int)sz,
         (int)sizeof(stats));
  cudaPointerAttributes attr;
  cudaPointerGetAttributes(&attr, &counter);
  printf("&counter is managed: %d\n", (int)(attr.type == cudaMemoryTypeManaged));
  cudaPointerGetAttributes(&attr, same);
  printf("cudaMallocManaged pointer is managed: %d\n", (int)(attr.type == cudaMemoryTypeManaged));

  // Symbol copies see the host's writes and the host sees theirs.
  int v = 77;
  cudaMemcpyToSymbol(counter, &v, sizeof(v));
  printf("after cudaMemcpyToSymbol counter %d\n", counter);
  counter = 88;
  int back = 0;
  cudaMemcpyFromSymbol(&back, counter, sizeof(back));
  printf("cudaMemcpyFromSymbol gives %d\n", back);

  // Array.
  table[2] = 30;
  double_table<<<1, 4>>>();
  cudaDeviceSynchronize();
  printf("table %d %d %d %d\n", table[0], table[1], table[2], table[3]);
  int two[2] = {-5, -6};
  cudaMemcpyToSymbol(table, two, sizeof(two), sizeof(int));
  printf("table after copy at offset %d %d %d %d\n", table[0], table[1], table[2], table[3]);
  fill<<<1, 8>>>(3);
  cudaDeviceSynchronize();
  float fs = 0;
  for (int i = 0; i < 8; i++) fs += farr[i];
  printf("farr[0] %.1f farr[7] %.1f sum %.1f\n", farr[0], farr[7], fs);

  // Struct, updated through a pointer and by name in the same kernel.
  stats.count = 2;
  stats.sum = 1000;
  accumulate<<<2, 64>>>(&stats, 100);
  cudaDeviceSynchronize();
  printf("stats count %d sum %lld scale %.2f\n", stats.count, stats.sum, stats.scale);

  // A linked list in one cudaMallocManaged array, linked out of order on the host.
  const int N = 100;
  Node *nodes;
  printf("cudaMallocManaged: %s\n", cudaGetErrorName(cudaMallocManaged(&nodes, N * sizeof(Node))));
  for (int i = 0; i < N; i++) {
    nodes[i].value = 3 * i + 1;
    nodes[i].next = 0;
  }
  for (int i = 0; i + 1 < N; i++) nodes[(i * 37) % N].next = &nodes[((i + 1) * 37) % N];
  walk<<<1, 1>>>(&nodes[0]);
  cudaDeviceSynchronize();
  printf("array list: sum %lld nodes %lld\n", walk_out[0], walk_out[1]);

  // A linked list of separate allocations, built by prepending.
  Node *head = 0;
  for (int i = 1; i <= 16; i++) {
    Node *n;
    cudaMallocManaged(&n, sizeof(Node));
    n->value = i * i;
    n->next = head;
    head = n;
  }
  walk<<<1, 1>>>(head);
  cudaDeviceSynchronize();
  printf("node list: sum %lld nodes %lld\n", walk_out[0], walk_out[1]);
  scale_list<<<1, 1>>>(head, 2);
  cudaDeviceSynchronize();
  printf("node list scaled on the device, walked on the host: %lld\n", host_walk(head));
  while (head) {
    Node *next = head->next;
    cudaFree(head);
    head = next;
  }
  cudaFree(nodes);
  cudaFree(same);
  printf("last error: %s\n", cudaGetErrorName(cudaGetLastError()));
  return 0;
}
