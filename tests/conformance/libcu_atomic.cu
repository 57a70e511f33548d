// libcu++ atomics: <cuda/atomic> and <cuda/std/atomic> in device and host code.
// cuda::atomic_ref and cuda::atomic with thread scopes, cuda::std::atomic(_ref), every
// fetch_* operation on 32- and 64-bit integers, fetch_add on float and double, pointers,
// exchange, compare_exchange_weak/strong loops, operators, wait/notify between blocks,
// atomic_flag as a lock between blocks, fences with the last-block pattern.
// Every counter is hit by many blocks at once (real contention).
// Expected output from nvcc 13 on an H100.
#include <cstdio>
#include <cuda/atomic>
#include <cuda/std/atomic>

#define BLOCKS 64
#define THREADS 128

struct Counters {
    int add_i;
    unsigned sub_u;
    unsigned or_u, and_u, xor_u;
    int min_i, max_i;
    long long min_ll, max_ll;
    unsigned long long add_ull;
    long long add_ll;
    float add_f;
    double add_d;
    int cas_strong, cas_weak;
    int exch_count;
    int ops_i;
    unsigned long long ops_ull;
    int std_i;
    int block_i;
};

__global__ void hammer(Counters *c, int *exch_slot) {
    int g = blockIdx.x * blockDim.x + threadIdx.x;
    cuda::atomic_ref<int, cuda::thread_scope_device> add_i(c->add_i);
    add_i.fetch_add(1, cuda::std::memory_order_relaxed);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(c->sub_u).fetch_sub(3u);
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(c->or_u).fetch_or(1u << (g % 31));
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(c->and_u).fetch_and(~(1u << (g % 29)));
    cuda::atomic_ref<unsigned, cuda::thread_scope_device>(c->xor_u).fetch_xor(1u << (g % 7));
    cuda::atomic_ref<int, cuda::thread_scope_device>(c->min_i).fetch_min(1000 - (g * 7919) % 5003);
    cuda::atomic_ref<int, cuda::thread_scope_device>(c->max_i).fetch_max((g * 7919) % 5003 - 2000);
    cuda::atomic_ref<long long, cuda::thread_scope_system>(c->min_ll).fetch_min(-((long long)g << 33));
    cuda::atomic_ref<long long, cuda::thread_scope_system>(c->max_ll).fetch_max((long long)(g % 1000) << 34);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device>(c->add_ull).fetch_add(0x100000001ull);
    cuda::atomic_ref<long long, cuda::thread_scope_device>(c->add_ll).fetch_sub(1ll << 32);
    cuda::atomic_ref<float, cuda::thread_scope_device>(c->add_f).fetch_add(0.5f);
    cuda::atomic_ref<double, cuda::thread_scope_device>(c->add_d).fetch_add(0.25);
    cuda::atomic_ref<double, cuda::thread_scope_device>(c->add_d).fetch_sub(0.125);

    // A read-modify-write that has no fetch_ form: x = x * 3 % 1000003 + 1, by CAS loops.
    cuda::atomic_ref<int, cuda::thread_scope_device> strong(c->cas_strong);
    int old = strong.load();
    while (!strong.compare_exchange_strong(old, old + 2, cuda::std::memory_order_acq_rel, cuda::std::memory_order_relaxed)) {
    }
    cuda::std::atomic_ref<int> weak(c->cas_weak);
    int w = weak.load(cuda::std::memory_order_acquire);
    while (!weak.compare_exchange_weak(w, w + 5)) {
    }

    // exchange: every thread swaps its id in; each id comes out exactly once (or stays).
    cuda::atomic_ref<int, cuda::thread_scope_device> slot(*exch_slot);
    int prev = slot.exchange(g);
    if (prev >= 0) cuda::atomic_ref<int, cuda::thread_scope_device>(c->exch_count).fetch_add(1);

    // Operators.
    cuda::atomic_ref<int, cuda::thread_scope_device> ops(c->ops_i);
    ops++;
    ++ops;
    ops += 3;
    ops -= 1;
    --ops;
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_device> opsu(c->ops_ull);
    opsu |= 1ull << (g % 64);
    // cuda::std::atomic in global memory, reached through a pointer.
    cuda::std::atomic<int> *sa = reinterpret_cast<cuda::std::atomic<int> *>(&c->std_i);
    sa->fetch_add(2);
    // Block scope on shared memory, then published with a device-scope add.
    __shared__ int block_count;
    if (threadIdx.x == 0) block_count = 0;
    __syncthreads();
    cuda::atomic_ref<int, cuda::thread_scope_block> bc(block_count);
    bc.fetch_add(1);
    __syncthreads();
    if (threadIdx.x == 0) cuda::atomic_ref<int, cuda::thread_scope_device>(c->block_i).fetch_add(bc.load());
}

// Pointers: each thread takes a ticket (a pointer into out) and writes its id there.
__global__ void tickets(int **cursor, int *out) {
    cuda::atomic_ref<int *, cuda::thread_scope_device> cur(*cursor);
    int *mine = cur.fetch_add(1);
    *mine = blockIdx.x * blockDim.x + threadIdx.x;
}

// cuda::atomic objects in global memory; the last block to finish sums what the
// others published (release/acquire through a fence and a counter).
__global__ void last_block(cuda::atomic<int, cuda::thread_scope_device> *done, int *partial, int *total) {
    __shared__ bool last;
    if (threadIdx.x == 0) {
        partial[blockIdx.x] = blockIdx.x * 10 + 1;
        cuda::atomic_thread_fence(cuda::std::memory_order_release, cuda::thread_scope_device);
        int ticket = done->fetch_add(1, cuda::std::memory_order_relaxed);
        last = ticket == (int)gridDim.x - 1;
    }
    __syncthreads();
    if (last && threadIdx.x == 0) {
        cuda::std::atomic_thread_fence(cuda::std::memory_order_acquire);
        int s = 0;
        for (int b = 0; b < (int)gridDim.x; b++) s += partial[b];
        *total = s;
    }
}

// The last block waits for a flag the first block raises (wait/notify between blocks).
__global__ void handoff(cuda::atomic<int, cuda::thread_scope_device> *flag, int *data, int *seen) {
    if (threadIdx.x != 0) return;
    if (blockIdx.x == 0) {
        *data = 4242;
        flag->store(1, cuda::std::memory_order_release);
        flag->notify_all();
    } else if (blockIdx.x == gridDim.x - 1) {
        flag->wait(0, cuda::std::memory_order_acquire);
        *seen = *data + flag->load();
    }
}

// atomic_flag as a lock between blocks: a non-atomic read-modify-write under it.
__global__ void locked(cuda::std::atomic_flag *lock, int *counter) {
    if (threadIdx.x != 0) return;
    for (int i = 0; i < 10; i++) {
        while (lock->test_and_set(cuda::std::memory_order_acquire)) {
        }
        int v = *(volatile int *)counter;
        *(volatile int *)counter = v + 1;
        lock->clear(cuda::std::memory_order_release);
    }
}

// Scalar semantics in one thread: return values of every operation.
__global__ void single(int *out) {
    __shared__ int x;
    __shared__ unsigned long long y;
    __shared__ float f;
    cuda::atomic_ref<int, cuda::thread_scope_block> a(x);
    cuda::atomic_ref<unsigned long long, cuda::thread_scope_block> b(y);
    cuda::atomic_ref<float, cuda::thread_scope_block> fr(f);
    a.store(10);
    b.store(~0ull);
    fr.store(1.5f);
    int k = 0;
    out[k++] = a.fetch_add(5);
    out[k++] = a.fetch_sub(3);
    out[k++] = a.exchange(7);
    out[k++] = a.fetch_or(8);
    out[k++] = a.fetch_and(13);
    out[k++] = a.fetch_xor(6);
    out[k++] = a.fetch_min(2);
    out[k++] = a.fetch_max(9);
    out[k++] = a++;
    out[k++] = ++a;
    out[k++] = a--;
    out[k++] = --a;
    out[k++] = (a += 4);
    out[k++] = (a -= 2);
    out[k++] = (a |= 16);
    out[k++] = (a &= 0x1c);
    out[k++] = (a ^= 5);
    out[k++] = a;
    int expected = 99;
    out[k++] = a.compare_exchange_strong(expected, 1);
    out[k++] = expected;
    out[k++] = a.compare_exchange_strong(expected, 1);
    out[k++] = a.load();
    out[k++] = (int)(b.fetch_add(2) == ~0ull);
    out[k++] = (int)b.load();
    out[k++] = (int)fr.fetch_add(2.25f);
    out[k++] = (int)(fr.load() * 4);
    out[k++] = (int)(fr.exchange(-1.0f) * 4);
    float fe = -1.0f;
    out[k++] = fr.compare_exchange_strong(fe, 8.0f);
    out[k++] = (int)fr.load();
    out[k++] = a.is_lock_free();
    cuda::std::atomic_flag fl;
    fl.clear();
    out[k++] = fl.test_and_set();
    out[k++] = fl.test_and_set();
    out[k++] = fl.test();
    fl.clear();
    out[k++] = fl.test();
    a.wait(5);  // value differs: returns at once
    a.notify_one();
    out[k++] = -1;
}

int main() {
    Counters h = {};
    h.sub_u = 1000000u;
    h.and_u = 0xffffffffu;
    h.min_i = 1 << 30;
    h.max_i = -(1 << 30);
    h.min_ll = 0;
    h.max_ll = 0;
    h.cas_strong = 0;
    h.cas_weak = 1;
    Counters *dc;
    int *dslot;
    cudaMalloc(&dc, sizeof(Counters));
    cudaMalloc(&dslot, sizeof(int));
    cudaMemcpy(dc, &h, sizeof h, cudaMemcpyHostToDevice);
    int minus1 = -1;
    cudaMemcpy(dslot, &minus1, sizeof(int), cudaMemcpyHostToDevice);
    hammer<<<BLOCKS, THREADS>>>(dc, dslot);
    cudaError_t e = cudaDeviceSynchronize();
    printf("hammer: %s\n", cudaGetErrorString(e));
    cudaMemcpy(&h, dc, sizeof h, cudaMemcpyDeviceToHost);
    printf("add_i %d sub_u %u or_u %08x and_u %08x xor_u %08x\n", h.add_i, h.sub_u, h.or_u, h.and_u, h.xor_u);
    printf("min_i %d max_i %d min_ll %lld max_ll %lld\n", h.min_i, h.max_i, h.min_ll, h.max_ll);
    printf("add_ull %llx add_ll %lld add_f %.1f add_d %.3f\n", h.add_ull, h.add_ll, h.add_f, h.add_d);
    printf("cas_strong %d cas_weak %d exch_count %d\n", h.cas_strong, h.cas_weak, h.exch_count);
    printf("ops_i %d ops_ull %llx std_i %d block_i %d\n", h.ops_i, h.ops_ull, h.std_i, h.block_i);

    const int N = BLOCKS * THREADS;
    int *dout, **dcursor;
    cudaMalloc(&dout, N * sizeof(int));
    cudaMalloc(&dcursor, sizeof(int *));
    cudaMemcpy(dcursor, &dout, sizeof(int *), cudaMemcpyHostToDevice);
    tickets<<<BLOCKS, THREADS>>>(dcursor, dout);
    cudaDeviceSynchronize();
    int *hout = new int[N];
    int *cursor;
    cudaMemcpy(hout, dout, N * sizeof(int), cudaMemcpyDeviceToHost);
    cudaMemcpy(&cursor, dcursor, sizeof(int *), cudaMemcpyDeviceToHost);
    bool *hit = new bool[N]();
    int dup = 0;
    for (int i = 0; i < N; i++) {
        if (hout[i] < 0 || hout[i] >= N || hit[hout[i]]) dup++;
        else hit[hout[i]] = true;
    }
    printf("tickets: cursor advanced %d, bad %d\n", (int)(cursor - dout), dup);

    cuda::atomic<int, cuda::thread_scope_device> *done;
    int *partial, *total;
    cudaMalloc(&done, sizeof(*done));
    cudaMemset(done, 0, sizeof(*done));
    cudaMalloc(&partial, 100 * sizeof(int));
    cudaMalloc(&total, sizeof(int));
    last_block<<<100, 64>>>(done, partial, total);
    int ht = 0;
    cudaMemcpy(&ht, total, sizeof(int), cudaMemcpyDeviceToHost);
    printf("last block total %d\n", ht);

    cuda::atomic<int, cuda::thread_scope_device> *flag;
    int *data, *seen;
    cudaMalloc(&flag, sizeof(*flag));
    cudaMemset(flag, 0, sizeof(*flag));
    cudaMalloc(&data, sizeof(int));
    cudaMalloc(&seen, sizeof(int));
    handoff<<<8, 32>>>(flag, data, seen);
    int hs = 0;
    cudaMemcpy(&hs, seen, sizeof(int), cudaMemcpyDeviceToHost);
    printf("handoff seen %d\n", hs);

    cuda::std::atomic_flag *lock;
    int *counter;
    cudaMalloc(&lock, sizeof(*lock));
    cudaMemset(lock, 0, sizeof(*lock));
    cudaMalloc(&counter, sizeof(int));
    cudaMemset(counter, 0, sizeof(int));
    locked<<<32, 32>>>(lock, counter);
    int hc = 0;
    cudaMemcpy(&hc, counter, sizeof(int), cudaMemcpyDeviceToHost);
    printf("locked counter %d\n", hc);

    int *dsingle;
    cudaMalloc(&dsingle, 64 * sizeof(int));
    single<<<1, 1>>>(dsingle);
    int hsingle[64];
    cudaMemcpy(hsingle, dsingle, sizeof hsingle, cudaMemcpyDeviceToHost);
    printf("single:");
    for (int i = 0; i < 64 && hsingle[i] != -1; i++) printf(" %d", hsingle[i]);
    printf("\n");

    // Host code: the same types on the host.
    cuda::std::atomic<int> ha(5);
    ha.fetch_add(3);
    ha++;
    int hexp = 9;
    bool ok = ha.compare_exchange_strong(hexp, 20);
    cuda::atomic<unsigned long long, cuda::thread_scope_system> hb(1);
    hb.fetch_or(6);
    int plain = 0;
    cuda::atomic_ref<int> hr(plain);
    hr.fetch_max(12);
    hr.fetch_min(11);
    cuda::std::atomic<double> hd(0.5);
    hd.fetch_add(1.25);
    printf("host: %d %d %llu %d %.2f\n", ha.load(), (int)ok, hb.load(), plain, hd.load());
    e = cudaGetLastError();
    printf("done: %s\n", cudaGetErrorString(e));
    return 0;
}
