// structs_unions: structs passed by value as kernel parameters (with mixed member
// types and padding), arrays of structs in global memory, nested structs, unions,
// enums, typedefs, sizeof/offsetof agreement between host and device.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H200 (tools/nvcc-capture.sh).
#include <cstdio>
#include <cstddef>

typedef unsigned char u8;
typedef struct { float x, y; } Vec2;
enum Shape { CIRCLE = 1, SQUARE = 4, TRIANGLE = 3 };
struct Item { Shape kind; u8 flag; double weight; Vec2 pos; short id; };
union Bits { float f; unsigned int u; u8 bytes[4]; };
struct Config { int n; float scale; char name[8]; Vec2 offset; long long big; };

__global__ void apply(Config cfg, Item *items, float *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= cfg.n) return;
  Item it = items[i];
  float area;
  switch (it.kind) {
    case CIRCLE: area = 3.0f * it.weight; break;
    case SQUARE: area = (float)(it.weight * it.weight); break;
    default: area = 0.5f * (float)it.weight; break;
  }
  it.pos.x = it.pos.x * cfg.scale + cfg.offset.x;
  it.pos.y = it.pos.y * cfg.scale + cfg.offset.y;
  it.flag = (u8)(it.flag + cfg.name[0]);
  it.id = (short)(it.id + (short)(cfg.big >> 32));
  items[i] = it;
  out[i] = area;
}

__global__ void union_kernel(Bits *b, int n) {
  int i = threadIdx.x;
  if (i < n) {
    Bits v = b[i];
    v.u ^= 0x80000000u;            // flip the sign of the float
    v.bytes[0] = (u8)(v.bytes[0] | 1);
    b[i] = v;
  }
}

__global__ void layout(int *out) {
  out[0] = sizeof(Item); out[1] = offsetof(Item, weight); out[2] = offsetof(Item, pos);
  out[3] = offsetof(Item, id); out[4] = sizeof(Config); out[5] = offsetof(Config, big);
  out[6] = sizeof(Bits); out[7] = sizeof(Shape);
}

int main() {
  const int n = 6;
  Item h[n];
  for (int i = 0; i < n; i++) {
    h[i].kind = (i % 3 == 0) ? CIRCLE : (i % 3 == 1) ? SQUARE : TRIANGLE;
    h[i].flag = (u8)i; h[i].weight = 1.5 + i; h[i].pos.x = (float)i; h[i].pos.y = (float)-i; h[i].id = (short)(100 + i);
  }
  Config cfg = {n, 2.0f, "abc", {0.5f, -0.25f}, 7LL << 32};
  Item *d; float *dout, out[n];
  cudaMalloc(&d, sizeof(h)); cudaMalloc(&dout, sizeof(out));
  cudaMemcpy(d, h, sizeof(h), cudaMemcpyHostToDevice);
  apply<<<2, 4>>>(cfg, d, dout);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(out, dout, sizeof(out), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    printf("item %d: kind=%d flag=%d weight=%g pos=(%g,%g) id=%d area=%g\n", i, (int)h[i].kind, h[i].flag, h[i].weight, h[i].pos.x, h[i].pos.y, h[i].id, out[i]);

  Bits b[3];
  b[0].f = 1.0f; b[1].f = -2.5f; b[2].u = 0x7f7fffffu;
  Bits *db; cudaMalloc(&db, sizeof(b));
  cudaMemcpy(db, b, sizeof(b), cudaMemcpyHostToDevice);
  union_kernel<<<1, 4>>>(db, 3);
  cudaMemcpy(b, db, sizeof(b), cudaMemcpyDeviceToHost);
  for (int i = 0; i < 3; i++) printf("union %d: u=0x%08x f=%g\n", i, b[i].u, b[i].f);

  int *dl, l[8];
  cudaMalloc(&dl, sizeof(l));
  layout<<<1, 1>>>(dl);
  cudaMemcpy(l, dl, sizeof(l), cudaMemcpyDeviceToHost);
  printf("device layout: sizeof(Item)=%d weight@%d pos@%d id@%d sizeof(Config)=%d big@%d sizeof(Bits)=%d sizeof(Shape)=%d\n", l[0], l[1], l[2], l[3], l[4], l[5], l[6], l[7]);
  printf("host layout matches: %d\n", l[0] == (int)sizeof(Item) && l[1] == (int)offsetof(Item, weight) && l[2] == (int)offsetof(Item, pos) && l[3] == (int)offsetof(Item, id) && l[4] == (int)sizeof(Config) && l[5] == (int)offsetof(Config, big));
  return 0;
}
