// Memory pools shared between two processes (streamOrderedAllocationIPC's mechanism):
// the parent creates a pool with POSIX file-descriptor handles, allocates from it in a
// stream, fills it with a kernel, exports the pool (a descriptor, sent over a Unix
// socket with SCM_RIGHTS) and the allocation (cudaMemPoolPtrExportData); the child,
// forked before any CUDA call, imports the pool and the pointer, adds to the memory with
// a kernel, frees its mapping with cudaFreeAsync. The parent then reads what the child
// wrote. Also the errors of misuse on both sides.
// Expected output captured with nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (session 9).
#include <cstdio>
#include <cstring>
#include <unistd.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <cuda_runtime.h>

#define E(call) printf("%-72s %s\n", #call, cudaGetErrorName(call)); cudaGetLastError()
const int N = 1 << 16;

__global__ void fill(int *p, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] = i;
}
__global__ void addTo(int *p, int n, int v) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) p[i] += v;
}

struct Msg { cudaMemPoolPtrExportData data, zeroed; };

static int sendFd(int sock, int fd, const Msg &m) {
    struct iovec io = {(void *)&m, sizeof m};
    char ctl[CMSG_SPACE(sizeof(int))];
    memset(ctl, 0, sizeof ctl);
    struct msghdr h = {};
    h.msg_iov = &io;
    h.msg_iovlen = 1;
    h.msg_control = ctl;
    h.msg_controllen = sizeof ctl;
    struct cmsghdr *c = CMSG_FIRSTHDR(&h);
    c->cmsg_level = SOL_SOCKET;
    c->cmsg_type = SCM_RIGHTS;
    c->cmsg_len = CMSG_LEN(sizeof(int));
    memcpy(CMSG_DATA(c), &fd, sizeof fd);
    return sendmsg(sock, &h, 0) == (ssize_t)sizeof m ? 0 : -1;
}

static int recvFd(int sock, Msg &m) {
    struct iovec io = {(void *)&m, sizeof m};
    char ctl[CMSG_SPACE(sizeof(int))];
    struct msghdr h = {};
    h.msg_iov = &io;
    h.msg_iovlen = 1;
    h.msg_control = ctl;
    h.msg_controllen = sizeof ctl;
    if (recvmsg(sock, &h, MSG_WAITALL) != (ssize_t)sizeof m) return -1;
    struct cmsghdr *c = CMSG_FIRSTHDR(&h);
    if (!c || c->cmsg_type != SCM_RIGHTS) return -1;
    int fd;
    memcpy(&fd, CMSG_DATA(c), sizeof fd);
    return fd;
}

static void child(int sock) {
    Msg m;
    int fd = recvFd(sock, m);
    printf("child: received a descriptor: %d\n", fd >= 0);
    cudaMemPool_t pool = nullptr;
    E(cudaMemPoolImportFromShareableHandle(&pool, (void *)(long)fd, cudaMemHandleTypePosixFileDescriptor, 0));
    close(fd);  // the imported pool does not need the caller's descriptor
    cudaMemAccessFlags flags = cudaMemAccessFlagsProtNone;
    cudaMemLocation loc = {cudaMemLocationTypeDevice, 0};
    E(cudaMemPoolGetAccess(&flags, pool, &loc));
    cudaMemAccessDesc desc = {};
    desc.location = loc;
    desc.flags = cudaMemAccessFlagsProtReadWrite;
    E(cudaMemPoolSetAccess(pool, &desc, 1));
    int *p = nullptr;
    E(cudaMemPoolImportPointer((void **)&p, pool, &m.zeroed));
    E(cudaMemPoolImportPointer((void **)&p, pool, &m.data));
    int first[4];
    cudaMemcpy(first, p, sizeof first, cudaMemcpyDeviceToHost);
    printf("child: reads %d %d %d %d\n", first[0], first[1], first[2], first[3]);
    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    void *q = nullptr;
    E(cudaMallocFromPoolAsync(&q, 1024, pool, s));
    E(cudaDeviceSetMemPool(0, pool));
    addTo<<<(N + 255) / 256, 256, 0, s>>>(p, N, 1000);
    E(cudaGetLastError());
    E(cudaFreeAsync(p, s));
    E(cudaStreamSynchronize(s));
    cudaStreamDestroy(s);
    E(cudaMemPoolDestroy(pool));
    fflush(stdout);
    char done = 1;
    if (write(sock, &done, 1) != 1) _exit(4);
    _exit(0);
}

int main() {
    int sv[2];
    if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv)) return 2;
    fflush(stdout);
    pid_t pid = fork();
    if (pid == 0) { close(sv[0]); alarm(30); child(sv[1]); }
    close(sv[1]);
    alarm(40);

    printf("sizeof(cudaMemPoolPtrExportData) %zu\n", sizeof(cudaMemPoolPtrExportData));
    int types = 0;
    E(cudaDeviceGetAttribute(&types, cudaDevAttrMemoryPoolSupportedHandleTypes, 0));
    printf("POSIX file descriptors among the supported handle types: %d\n", (types & cudaMemHandleTypePosixFileDescriptor) != 0);

    cudaMemPoolProps props = {};
    props.allocType = cudaMemAllocationTypePinned;
    props.location.type = cudaMemLocationTypeDevice;
    props.location.id = 0;
    cudaMemPool_t plain = nullptr, pool = nullptr;
    E(cudaMemPoolCreate(&plain, &props));
    props.handleTypes = cudaMemHandleTypePosixFileDescriptor;
    E(cudaMemPoolCreate(&pool, &props));

    cudaStream_t s;
    cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking);
    int *d = nullptr, *other = nullptr;
    E(cudaMallocFromPoolAsync((void **)&d, N * sizeof(int), pool, s));
    E(cudaMallocFromPoolAsync((void **)&other, 256, plain, s));
    fill<<<(N + 255) / 256, 256, 0, s>>>(d, N);
    E(cudaStreamSynchronize(s));

    int fd = -1;
    E(cudaMemPoolExportToShareableHandle(&fd, pool, cudaMemHandleTypePosixFileDescriptor, 0));
    printf("parent: a descriptor: %d\n", fd >= 0);
    int bad = -1;
    E(cudaMemPoolExportToShareableHandle(&bad, plain, cudaMemHandleTypePosixFileDescriptor, 0));
    E(cudaMemPoolExportToShareableHandle(&bad, pool, cudaMemHandleTypePosixFileDescriptor, 1));
    Msg m;
    memset(&m, 0, sizeof m);
    E(cudaMemPoolExportPointer(&m.data, d));
    cudaMemPoolPtrExportData x;
    E(cudaMemPoolExportPointer(&x, other));
    int *plainMem = nullptr;
    cudaMalloc(&plainMem, 256);
    E(cudaMemPoolExportPointer(&x, plainMem));
    cudaMemPool_t self = nullptr;
    int devnull = open("/dev/null", O_RDONLY);
    E(cudaMemPoolImportFromShareableHandle(&self, (void *)(long)devnull, cudaMemHandleTypePosixFileDescriptor, 0));
    close(devnull);
    int *again = nullptr;
    E(cudaMemPoolImportPointer((void **)&again, pool, &m.data));

    fflush(stdout);  // the child's lines come next
    if (sendFd(sv[0], fd, m)) { printf("sendmsg failed\n"); return 3; }
    close(fd);
    char done = 0;
    if (read(sv[0], &done, 1) != 1) printf("parent: the child did not answer\n");
    int status = 0;
    waitpid(pid, &status, 0);
    printf("parent: child exited %d\n", WIFEXITED(status) ? WEXITSTATUS(status) : -1);

    int *h = new int[N];
    cudaMemcpy(h, d, N * sizeof(int), cudaMemcpyDeviceToHost);
    long bad_count = 0;
    for (int i = 0; i < N; ++i) bad_count += h[i] != i + 1000;
    printf("parent: %d %d %d ... %d; %ld elements differ from i + 1000\n", h[0], h[1], h[2], h[N - 1], bad_count);
    delete[] h;
    E(cudaFreeAsync(d, s));
    E(cudaFreeAsync(other, s));
    E(cudaStreamSynchronize(s));
    cudaFree(plainMem);
    E(cudaMemPoolDestroy(pool));
    E(cudaMemPoolDestroy(plain));
    cudaStreamDestroy(s);
    printf("done\n");
    return 0;
}
