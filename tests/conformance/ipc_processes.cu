// IPC between two processes: the parent allocates device memory and an interprocess
// event and sends their handles through a pipe; the child (forked before any CUDA call)
// opens them, runs a kernel on the parent's memory, records the event, closes the memory
// handle. The parent waits on the event and reads what the child wrote. Also the
// handles' sizes and the errors of misuse.
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <sys/wait.h>
#include <signal.h>
#include <cuda_runtime.h>

#define E(call) printf("%-56s %s\n", #call, cudaGetErrorName(call)); cudaGetLastError()
const int N = 256;

__global__ void addTo(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += v;
}

struct Msg { cudaIpcMemHandle_t mem, inner; cudaIpcEventHandle_t ev; };

static void child(int rd, int wr) {
    Msg m;
    if (read(rd, &m, sizeof m) != (ssize_t)sizeof m) _exit(3);
    int *p = nullptr, *q = nullptr;
    E(cudaIpcOpenMemHandle((void **)&p, m.mem, cudaIpcMemLazyEnablePeerAccess));
    E(cudaIpcOpenMemHandle((void **)&q, m.inner, cudaIpcMemLazyEnablePeerAccess));
    printf("child: handles of the base and an inner pointer open at the same address: %d\n", p == q);
    int first[4];
    cudaMemcpy(first, p, sizeof first, cudaMemcpyDeviceToHost);
    printf("child: reads %d %d %d %d\n", first[0], first[1], first[2], first[3]);
    cudaEvent_t ev = nullptr;
    E(cudaIpcOpenEventHandle(&ev, m.ev));
    cudaStream_t s;
    cudaStreamCreate(&s);
    addTo<<<(N + 127) / 128, 128, 0, s>>>(p, N, 1000);
    E(cudaEventRecord(ev, s));
    E(cudaStreamSynchronize(s));
    E(cudaIpcCloseMemHandle(p));
    E(cudaIpcCloseMemHandle(q));
    E(cudaIpcCloseMemHandle(p));
    E(cudaEventDestroy(ev));
    fflush(stdout);
    char done = 1;
    if (write(wr, &done, 1) != 1) _exit(4);
    _exit(0);
}

int main() {
    int toChild[2], toParent[2];
    if (pipe(toChild) || pipe(toParent)) return 2;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) { close(toChild[1]); close(toParent[0]); alarm(20); child(toChild[0], toParent[1]); }
    close(toChild[0]);
    close(toParent[1]);
    alarm(25);

    printf("sizeof(cudaIpcMemHandle_t) %zu, sizeof(cudaIpcEventHandle_t) %zu, CUDA_IPC_HANDLE_SIZE %d\n",
           sizeof(cudaIpcMemHandle_t), sizeof(cudaIpcEventHandle_t), CUDA_IPC_HANDLE_SIZE);
    int *d;
    cudaMalloc(&d, N * sizeof(int));
    int h[N];
    for (int i = 0; i < N; ++i) h[i] = i;
    cudaMemcpy(d, h, sizeof h, cudaMemcpyHostToDevice);
    Msg m;
    E(cudaIpcGetMemHandle(&m.mem, d));
    E(cudaIpcGetMemHandle(&m.inner, d + 64));
    cudaEvent_t ev, plain;
    E(cudaEventCreateWithFlags(&ev, cudaEventInterprocess | cudaEventDisableTiming));
    cudaEventCreate(&plain);
    E(cudaIpcGetEventHandle(&m.ev, ev));
    cudaIpcEventHandle_t eh;
    cudaIpcMemHandle_t mh;
    E(cudaIpcGetEventHandle(&eh, plain));
    E(cudaIpcGetMemHandle(&mh, h));
    void *self = nullptr;
    E(cudaIpcOpenMemHandle(&self, m.mem, cudaIpcMemLazyEnablePeerAccess));
    memset(&mh, 0, sizeof mh);
    E(cudaIpcOpenMemHandle(&self, mh, cudaIpcMemLazyEnablePeerAccess));
    E(cudaIpcCloseMemHandle(d));
    cudaEvent_t selfEv = nullptr;
    E(cudaIpcOpenEventHandle(&selfEv, m.ev));
    fflush(stdout);
    if (write(toChild[1], &m, sizeof m) != (ssize_t)sizeof m) return 2;
    char done;
    if (read(toParent[0], &done, 1) != 1) { printf("child failed\n"); return 2; }
    E(cudaStreamWaitEvent(0, ev, 0));
    E(cudaEventSynchronize(ev));
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    long sum = 0;
    for (int i = 0; i < N; ++i) sum += h[i];
    printf("parent: %d %d %d, sum %ld\n", h[0], h[1], h[N - 1], sum);
    int status = 0;
    waitpid(pid, &status, 0);
    printf("child exit %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);
    E(cudaFree(d));
    return 0;
}
