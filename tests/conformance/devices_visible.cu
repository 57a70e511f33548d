// Devices as CUDA_VISIBLE_DEVICES selects them (each setting in a child process that sets
// the variable before its first CUDA call), and on the one-GPU machine: peer queries,
// peer access and peer copies with a device paired with itself or a missing one, current
// device per host thread, and stream priorities.
// On Cuprite this is the default of one device (CUPRITE_DEVICE_COUNT unset).
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (driver 580.159.04; the run tool).
#include <cstdio>
#include <cstdlib>
#include <thread>
#include <unistd.h>
#include <sys/wait.h>
#include <cuda_runtime.h>

#define E(call) printf("%-58s %s\n", #call, cudaGetErrorName(call)); cudaGetLastError()

static void probe(const char *v) {
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) {
        alarm(20);
        if (v) setenv("CUDA_VISIBLE_DEVICES", v, 1); else unsetenv("CUDA_VISIBLE_DEVICES");
        int n = -1;
        cudaError_t e = cudaGetDeviceCount(&n);
        int cur = -1;
        cudaError_t g = cudaGetDevice(&cur);
        cudaError_t s = cudaSetDevice(0);
        printf("CUDA_VISIBLE_DEVICES=%s%s%s: count %d (%s), current %d (%s), set 0: %s\n", v ? "\"" : "(unset", v ? v : ")", v ? "\"" : "",
               n, cudaGetErrorName(e), cur, cudaGetErrorName(g), cudaGetErrorName(s));
        fflush(stdout);
        _exit(0);
    }
    int st;
    waitpid(pid, &st, 0);
}

int main() {
    const char *vals[] = {nullptr, "0", "1", "", "0,1", "1,0", "0,0", "-1", "abc", "0,abc", " 0", "0 ", "0,,0", "00", "+0", "0x0"};
    for (const char *v : vals) probe(v);

    int can = -7;
    E(cudaDeviceCanAccessPeer(&can, 0, 0));
    printf("can 0->0: %d\n", can);
    can = -7;
    E(cudaDeviceCanAccessPeer(&can, 0, 1));
    printf("can 0->1: %d\n", can);
    E(cudaDeviceCanAccessPeer(&can, 1, 0));
    E(cudaDeviceEnablePeerAccess(0, 0));
    E(cudaDeviceEnablePeerAccess(1, 0));
    E(cudaDeviceEnablePeerAccess(0, 1));
    E(cudaDeviceDisablePeerAccess(0));
    E(cudaDeviceDisablePeerAccess(1));
    int *a, *b;
    cudaMalloc(&a, 64);
    cudaMalloc(&b, 64);
    cudaMemset(a, 7, 64);
    E(cudaMemcpyPeer(b, 0, a, 0, 64));
    E(cudaMemcpyPeer(b, 1, a, 0, 64));
    E(cudaMemcpyPeer(b, 0, a, 1, 64));
    E(cudaMemcpyPeerAsync(b, 0, a, 0, 64, 0));
    E(cudaMemcpyPeerAsync(b, 0, a, 2, 64, 0));
    E(cudaMemcpyPeer(b, 0, a, 0, 0));
    int hb[16];
    cudaMemcpy(hb, b, 64, cudaMemcpyDeviceToHost);
    printf("peer copy: %08x\n", hb[15]);
    E(cudaSetDevice(1));
    E(cudaSetDevice(-1));
    int cur = -1;
    E(cudaGetDevice(&cur));
    printf("current %d\n", cur);
    std::thread t([] { int c = -1; cudaError_t e = cudaGetDevice(&c); printf("other thread: current %d (%s)\n", c, cudaGetErrorName(e)); });
    t.join();
    int lo = 99, hi = 99;
    E(cudaDeviceGetStreamPriorityRange(&lo, &hi));
    printf("priority range: least %d greatest %d\n", lo, hi);
    int prios[] = {-100, -6, -5, -3, 0, 1, 100};
    for (int p : prios) {
        cudaStream_t s;
        int got = 99;
        cudaError_t e = cudaStreamCreateWithPriority(&s, cudaStreamNonBlocking, p);
        cudaStreamGetPriority(s, &got);
        printf("create with priority %d: %s, got %d\n", p, cudaGetErrorName(e), got);
        cudaStreamDestroy(s);
    }
    int got = 99;
    E(cudaStreamGetPriority(0, &got));
    printf("legacy stream priority %d\n", got);
    return 0;
}
