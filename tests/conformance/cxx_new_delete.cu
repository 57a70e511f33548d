// cxx_new_delete: dynamic allocation with C++ operators in device code: new / delete of
// scalars and of class objects (constructor and destructor run), new[] / delete[] of
// scalars and of class arrays (every element constructed and destroyed, in reverse
// order), value-initialisation (new T(), new T[n]()), brace initialisers, placement new
// into local, shared and global memory with explicit destructor calls, a linked list
// built with new and freed with delete, and an object allocated in one kernel and
// freed in another.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <new>

__device__ int g_log[64];
__device__ int g_log_len;
__device__ int g_live;

struct Widget {
  int id;
  int payload[3];
  __device__ Widget() : id(-1) { payload[0] = payload[1] = payload[2] = 7; atomicAdd(&g_live, 1); }
  __device__ explicit Widget(int i) : id(i) { payload[0] = i; payload[1] = 2 * i; payload[2] = 3 * i; atomicAdd(&g_live, 1); }
  __device__ ~Widget() {
    atomicAdd(&g_live, -1);
    int slot = atomicAdd(&g_log_len, 1);
    if (slot < 64) g_log[slot] = id;
  }
  __device__ int sum() const { return id + payload[0] + payload[1] + payload[2]; }
};

struct WidgetBits { int id; int payload[3]; };   // the host's view of a Widget's bytes

struct Node {
  int value;
  Node *next;
  __device__ Node(int v, Node *n) : value(v), next(n) {}
};

__device__ Widget *g_kept;

// One thread: results written in order, so the log is deterministic.
__global__ void single(int *out) {
  int k = 0;
  int *p = new int(41);
  *p += 1;
  out[k++] = *p;                                 // 42
  delete p;

  int *zeros = new int[8]();                     // value-initialised
  int *filled = new int[4]{1, 2, 3, 4};
  int s = 0;
  for (int i = 0; i < 8; i++) s += zeros[i];
  for (int i = 0; i < 4; i++) s += filled[i] * 10;
  out[k++] = s;                                  // 100
  delete[] zeros;
  delete[] filled;

  Widget *w = new Widget(5);
  out[k++] = w->sum();                           // 5+5+10+15 = 35
  out[k++] = g_live;                             // 1
  delete w;                                      // log: 5

  Widget *arr = new Widget[3];                   // default constructor x3
  for (int i = 0; i < 3; i++) arr[i].id = 10 + i;
  out[k++] = g_live;                             // 3
  delete[] arr;                                  // log: 12 11 10 (reverse order)

  alignas(Widget) unsigned char buf[sizeof(Widget)];
  Widget *pw = new (buf) Widget(20);             // placement new in local memory
  out[k++] = pw->sum() + ((void *)pw == (void *)buf);
  pw->~Widget();                                 // log: 20

  Node *head = nullptr;
  for (int i = 1; i <= 5; i++) head = new Node(i * i, head);
  int listsum = 0, len = 0;
  for (Node *q = head; q; q = q->next) { listsum += q->value; len++; }
  while (head) { Node *nx = head->next; delete head; head = nx; }
  out[k++] = listsum * 10 + len;                 // 55*10 + 5

  g_kept = new Widget(30);                       // freed by another kernel
  out[k++] = g_live;                             // 1
  double *d = new double[2]{0.5, 0.25};
  out[k++] = (int)(100 * (d[0] + d[1]));
  delete[] d;
  out[9] = k;                                    // 9 results above
}

__global__ void release() {
  if (g_kept) { delete g_kept; g_kept = nullptr; }  // log: 30
}

// Many threads: each constructs a Widget in shared memory with placement new, and
// allocates its own array on the heap.
__global__ void many(int *out) {
  __shared__ unsigned long long pool_raw[(64 * sizeof(Widget) + 7) / 8];   // raw storage, 8-aligned
  unsigned char *pool = reinterpret_cast<unsigned char *>(pool_raw);
  int t = threadIdx.x;
  Widget *mine = new (pool + t * sizeof(Widget)) Widget(t);
  __syncthreads();
  const Widget *other = reinterpret_cast<const Widget *>(pool) + (t + 1) % blockDim.x;
  int *heap = new int[t + 1];
  for (int i = 0; i <= t; i++) heap[i] = i;
  int s = 0;
  for (int i = 0; i <= t; i++) s += heap[i];
  delete[] heap;
  out[t] = other->sum() * 1000 + s;
  __syncthreads();
  mine->~Widget();
}

// Placement new into global memory allocated by the host.
__global__ void construct_global(Widget *slots, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) new (&slots[i]) Widget(100 + i);
}

int main() {
  int *d, h[64];
  cudaMalloc(&d, sizeof(h));
  single<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  int k = h[9];
  printf("single:");
  for (int i = 0; i < k; i++) printf(" %d", h[i]);
  printf("\n");
  release<<<1, 1>>>();
  int log[64], len, live;
  cudaMemcpyFromSymbol(&len, g_log_len, sizeof(int));
  cudaMemcpyFromSymbol(log, g_log, sizeof(log));
  cudaMemcpyFromSymbol(&live, g_live, sizeof(int));
  printf("destructor log (%d):", len);
  for (int i = 0; i < len; i++) printf(" %d", log[i]);
  printf("\nlive widgets: %d\n", live);

  many<<<1, 64>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  int ok = 0;
  for (int t = 0; t < 64; t++) {
    int o = (t + 1) % 64;
    ok += h[t] == (o + o + 2 * o + 3 * o) * 1000 + t * (t + 1) / 2;
  }
  cudaMemcpyFromSymbol(&len, g_log_len, sizeof(int));
  cudaMemcpyFromSymbol(&live, g_live, sizeof(int));
  printf("many: %d of 64 correct, log length %d, live %d\n", ok, len, live);

  const int n = 10;
  Widget *slots;
  cudaMalloc(&slots, n * sizeof(Widget));
  construct_global<<<1, 32>>>(slots, n);
  static_assert(sizeof(WidgetBits) == sizeof(Widget), "same layout");
  WidgetBits hw[n];
  cudaMemcpy(hw, slots, sizeof(hw), cudaMemcpyDeviceToHost);
  printf("global: id %d payload %d %d %d ... id %d payload %d\n", hw[0].id, hw[0].payload[0], hw[0].payload[1],
         hw[0].payload[2], hw[n - 1].id, hw[n - 1].payload[2]);
  cudaMemcpyFromSymbol(&live, g_live, sizeof(int));
  printf("live after construct_global: %d\n", live);
  printf("%s\n", cudaGetErrorString(cudaDeviceSynchronize()));
  cudaFree(d); cudaFree(slots);
  return 0;
}
