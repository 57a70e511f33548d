// Device printf flush behaviour. argv[1] selects the scenario.
#include <cstdio>
#include <cstdlib>
#include <cstring>
__global__ void say(int tag) { printf("device printf tag=%d\n", tag); }
__global__ void slow_say(int tag, long long cycles) {
  long long t0 = clock64();
  while (clock64() - t0 < cycles) {}
  printf("slow device printf tag=%d\n", tag);
}
int main(int argc, char **argv) {
  const char *m = argc > 1 ? argv[1] : "order";
  if (!strcmp(m, "nosync")) { printf("host before\n"); say<<<1, 1>>>(1); printf("host after launch, returning without sync\n"); return 0; }
  if (!strcmp(m, "slow")) { printf("host before\n"); slow_say<<<1, 1>>>(2, 2000000000LL); printf("host after slow launch, returning without sync\n"); return 0; }
  if (!strcmp(m, "exit")) { printf("host before\n"); say<<<1, 1>>>(3); printf("host calls exit(0)\n"); exit(0); }
  if (!strcmp(m, "reset")) { printf("host before\n"); say<<<1, 1>>>(4); printf("host before reset\n"); cudaDeviceReset(); printf("host after reset\n"); return 0; }
  if (!strcmp(m, "memcpy")) { int *d, h; cudaMalloc(&d, 4); printf("host before\n"); say<<<1, 1>>>(5); printf("host before memcpy\n"); cudaMemcpy(&h, d, 4, cudaMemcpyDeviceToHost); printf("host after memcpy\n"); return 0; }
  if (!strcmp(m, "stderr")) { fprintf(stderr, "stderr before\n"); say<<<1, 1>>>(6); cudaDeviceSynchronize(); fprintf(stderr, "stderr after\n"); return 0; }
  // order
  printf("host A\n");
  say<<<1, 1>>>(10);
  printf("host B (after launch, before sync)\n");
  cudaDeviceSynchronize();
  printf("host C (after sync)\n");
  say<<<1, 1>>>(11);
  say<<<1, 1>>>(12);
  printf("host D (two launches, no sync)\n");
  cudaDeviceSynchronize();
  printf("host E (after sync)\n");
  return 0;
}
