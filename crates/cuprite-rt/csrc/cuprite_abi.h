/*
 * cuprite_abi.h: the contract between device code that cuprite-cpu generates (C), the
 * runtime (libcuprite_rt.a), and host code rewritten by the driver.
 *
 * The generated C of a translation unit embeds this header verbatim, defines one entry
 * function per kernel and a table describing the unit's kernels and device variables,
 * and registers the table from a constructor before main runs.
 *
 * Bump CUPRITE_ABI_VERSION on any change to a struct or signature here.
 */
#ifndef CUPRITE_ABI_H
#define CUPRITE_ABI_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define CUPRITE_ABI_VERSION 1u

typedef struct cuprite_dim3 {
    unsigned int x, y, z;
} cuprite_dim3;

/* One launch of a kernel, as the runtime hands it to the kernel's entry. */
typedef struct cuprite_launch {
    cuprite_dim3 grid_dim;
    cuprite_dim3 block_dim;
    /* args[i] points at the bytes of the i-th kernel argument (the runtime's copy, taken
     * when the launch was enqueued, aligned to the parameter's alignment). */
    void *const *args;
    size_t dynamic_shared_bytes;
    /* 1 for a cooperative launch (cudaLaunchCooperativeKernel, the cooperative launch
     * attribute): its blocks may meet at grid barriers (see grid_resume). */
    uint32_t cooperative;
} cuprite_launch;

/* A run of blocks that one worker executes, one block after the other. */
typedef struct cuprite_block_run {
    const cuprite_launch *launch;
    /* Linear block indices [first_block, end_block); linear = x + y*gx + z*gx*gy. */
    uint64_t first_block;
    uint64_t end_block;
    /* The worker's shared memory, 64-byte aligned, at least
     * CUPRITE_DYNAMIC_SHARED_OFFSET(static_shared_bytes) + dynamic_shared_bytes long.
     * Static __shared__ variables are laid out from offset 0 by the generated code; the
     * dynamic part (extern __shared__) starts at CUPRITE_DYNAMIC_SHARED_OFFSET. Not
     * cleared between blocks (as on a GPU). */
    char *shared;
    /* The worker's per-thread scratch, 64-byte aligned, at least
     * slot_bytes_per_thread * (threads per block) long: the generated code keeps values
     * that live across a barrier here. Not cleared between blocks. */
    char *thread_slots;
    /* Written by the entry as it goes, read by the runtime when a fault ends the run,
     * to name where it happened. Best effort. */
    cuprite_dim3 fault_block;
    uint32_t fault_thread_linear;
    /* Grid phases of cooperative launches. A cooperative launch runs one block per run,
     * each with shared memory and thread slots of its own that live for the whole launch.
     * In: 0 to start the block at its entry, else the value the block left here when it
     * stopped at a grid barrier (it resumes after the barrier). Out: 0 when the block has
     * finished, nonzero when it stopped at a grid barrier; the runtime runs every stopped
     * block again once all blocks of the grid have finished or stopped. */
    uint32_t grid_resume;
} cuprite_block_run;

#define CUPRITE_DYNAMIC_SHARED_OFFSET(static_bytes) (((static_bytes) + 15u) & ~(size_t)15u)

typedef void (*cuprite_kernel_entry)(cuprite_block_run *run);

typedef struct cuprite_kernel_desc {
    /* The host stub's address: the key of <<<>>>, cudaLaunchKernel, cudaFuncGetAttributes. */
    const void *host_stub;
    /* The stub's (mangled) symbol and the kernel's source name, for messages. */
    const char *symbol;
    const char *name;
    cuprite_kernel_entry entry;
    uint32_t num_params;
    const uint32_t *param_sizes;
    const uint32_t *param_aligns;
    uint64_t static_shared_bytes;
    uint64_t slot_bytes_per_thread;
    /* Bytes of local (per-thread) memory the kernel's locals need, for
     * cudaFuncGetAttributes. */
    uint64_t local_bytes_per_thread;
    /* __launch_bounds__: 0 when absent. */
    uint32_t max_threads_per_block;
    uint32_t min_blocks_per_sm;
} cuprite_kernel_desc;

typedef struct cuprite_var_desc {
    /* The host shadow's address: the key of cudaMemcpyToSymbol and friends. */
    const void *host_shadow;
    const char *name;
    /* The variable's instance on the (CPU) device. */
    void *device_addr;
    uint64_t size;
    /* 1 for __constant__, 0 for __device__ and __managed__. */
    uint32_t is_constant;
} cuprite_var_desc;

/* Managed variables. A __managed__ variable is one object: the host shadow. Its
 * device_addr is a cell of two pointers {begin, end} through which device code reaches
 * the object; the generated code initialises it to {cell + 16, cell + 16 + size of the
 * variable} (a 16-byte variable whose first word points just past itself: nothing else
 * looks like that). At registration the runtime stores {host_shadow, host_shadow +
 * size} in it and registers the host shadow itself as the variable's device instance. */

typedef struct cuprite_module_desc {
    uint32_t abi_version;
    const char *source_file;
    const cuprite_kernel_desc *kernels;
    uint32_t num_kernels;
    const cuprite_var_desc *vars;
    uint32_t num_vars;
} cuprite_module_desc;

/* ---- provided by the runtime ------------------------------------------------------- */

/* Called from a constructor of each generated device object. */
void __cuprite_register_module(const cuprite_module_desc *module);

/* Device printf: formats with the C library's rules and appends to the launch's printf
 * buffer, which is written to the C library's stdout at CUDA's flush points.
 * Returns the number of characters, or -1 if the buffer is full. */
int __cuprite_printf(const char *fmt, ...);

/* A failed device assert: prints CUDA's message for (block, thread) to stderr and ends
 * the current run of blocks with cudaErrorAssert. */
void __cuprite_assert_fail(const char *expr, const char *file, unsigned line, const char *func,
                           cuprite_dim3 block, cuprite_dim3 thread) __attribute__((noreturn));

/* A failed device assert in a thread that goes on (additive): prints CUDA's message for
 * (block, thread) to stderr and marks the run; when the entry returns, the launch ends with
 * cudaErrorAssert. Lets generated code report every failing thread, as a GPU does, before
 * ending the run (with __cuprite_assert_fail for the last one, or by returning). */
void __cuprite_assert_report(const char *expr, const char *file, unsigned line, const char *func,
                             cuprite_dim3 block, cuprite_dim3 thread);

/* __trap(): ends the current run with cudaErrorLaunchFailure. */
void __cuprite_trap(void) __attribute__((noreturn));

/* A barrier that the threads of a block reached in different places, or some other
 * error the generated code detects: ends the run with the given cudaError_t value and
 * message (printed to stderr with the kernel name and block). */
void __cuprite_kernel_error(int cuda_error, const char *message) __attribute__((noreturn));

/* clock() / clock64(): a per-process monotonically increasing cycle-like counter. */
long long __cuprite_clock64(void);

/* Device heap: malloc/free in device code (cudaLimitMallocHeapSize). */
void *__cuprite_device_malloc(size_t size);
void __cuprite_device_free(void *ptr);

/* Optional (additive): the compute capability the device code was built for (-arch),
 * e.g. 75 or 90, called from the generated constructor before main. The CPU device then
 * reports and enforces that capability's limits (default 90; CUPRITE_ARCH overrides). */
void __cuprite_set_target_arch(unsigned int sm);

/* Checking mode (additive; only device code built with --sanitize calls these; see
 * cuprite_ir::instrument and crates/cuprite-rt/src/sanitize/). Each call names its site:
 * the function's (mangled) symbol, the source file and line, and the running thread.
 *
 * __cuprite_san_access: an access of `bytes` bytes at `ptr` (kind 0 read, 1 write,
 * 2 atomic, 3 volatile read, 4 volatile write) whose type is aligned to `align`. Returns
 * the pointer to access through:
 * `ptr`, or a scratch area when the access is invalid (the thread goes on). */
void *__cuprite_san_access(void *ptr, uint32_t bytes, uint32_t align, int kind, uint32_t site,
                           const char *symbol, const char *file, unsigned line, cuprite_dim3 thread,
                           cuprite_dim3 block);
/* A thread event: 0 arrives at __syncthreads, 1 at a warp collective, 2 leaves the kernel,
 * 3 reaches a memory fence (__threadfence*, cuda::atomic_thread_fence). */
void __cuprite_san_event(int event, const char *symbol, const char *file, unsigned line,
                         cuprite_dim3 thread, cuprite_dim3 block);
/* A thread event with a value: 0 takes a conditional branch (value: 1 taken, 0 not),
 * 1 arrives at a warp collective whose member mask is `value`, 3 at a __syncwarp (which
 * also orders its lanes' memory accesses) whose mask is `value`. `site` (here and in
 * __cuprite_san_access) numbers the instruction within its module (cuprite_ir::instrument),
 * so that the profiler and synccheck can put together the lanes of a warp at one
 * instruction. */
void __cuprite_san_value(int event, uint32_t value, uint32_t site, const char *symbol, const char *file,
                         unsigned line, cuprite_dim3 thread, cuprite_dim3 block);
/* Called from the constructor of a checked device object, before it registers. */
void __cuprite_san_module_checked(void);

/* The checker's fast path, inlined into checked device code: an access that lies in
 * one of the (up to four) allocations this thread last found valid (memcheck only; the
 * runtime leaves the windows empty for the other tools and the profiler, which must
 * see every access), and is aligned, goes on without a call. The windows hold while no
 * allocation has been freed since (__cuprite_san_epoch). */
/* The runtime, and these thread-locals with it, is linked into every program (static
 * TLS), so checked code reaches them at a fixed offset from the thread pointer
 * (initial-exec), also from a shared object the runtime dlopens (`cuprite sanitize`'s
 * on-demand build): the default model for -fPIC code called __tls_get_addr for each
 * access, which cost more than the rest of the check. */
#define __CUPRITE_SAN_TLS __thread __attribute__((tls_model("initial-exec")))
extern __CUPRITE_SAN_TLS uintptr_t __cuprite_san_fast[8]; /* {lo, hi} × 4 */
extern __CUPRITE_SAN_TLS uint64_t __cuprite_san_fast_epoch;
extern uint64_t __cuprite_san_epoch;
/* racecheck's windows for reads, {lo, hi, shadow} × 4: an allocation with no shadow of
 * its writes (never written by checked code: a read cannot follow a racing write), or
 * whose shadow (16-byte cells, one per 4-byte word, the first 8 bytes `launch << 32 |
 * block`) says no word the read covers was written in the running launch
 * (__cuprite_san_launch), goes on without a call. A shadow made bumps the epoch. */
extern __CUPRITE_SAN_TLS uintptr_t __cuprite_san_fast_read[12];
extern __CUPRITE_SAN_TLS uint32_t __cuprite_san_launch;
/* initcheck's shadow windows, {lo, hi, shadow} × 4: an allocation with bytes never set,
 * and its shadow (a byte per byte, 1 once set). A write marks its bytes set, a read of
 * bytes all set goes on, without a call; a read of a byte not set calls (the report). */
extern __CUPRITE_SAN_TLS uintptr_t __cuprite_san_fast_init[12];
/* Which events __cuprite_san_event is wanted for (bit `event`: racecheck wants barriers,
 * exits and fences, synccheck barriers and exits), and which
 * values __cuprite_san_value is wanted for: bit `event` (bit 0, branches: the profiler;
 * bit 1, collectives' masks: synccheck; bit 3, __syncwarp's: synccheck and racecheck),
 * so a tool pays only for what it reads. */
extern int __cuprite_san_want_values, __cuprite_san_want_events;
/* Nonzero while accesses need no check at all (synccheck without the profiler: it looks
 * at barriers and collectives only). Kernels read it, and the two above, once at entry
 * and pass them to the checks below (`skip`, `want`): a thread loop then tests a value
 * the C compiler knows does not change, and can make a copy of the loop without the
 * checks (loop unswitching), which it may vectorise. Device functions pass the globals. */
extern int __cuprite_san_skip_accesses;
static inline __attribute__((always_inline)) void *__cuprite_san_check(int skip, void *ptr, uint32_t bytes, uint32_t align, int kind,
                                                                       uint32_t site, const char *symbol, const char *file,
                                                                       unsigned line, cuprite_dim3 thread, cuprite_dim3 block) {
    if (skip)
        return ptr;
    uintptr_t a = (uintptr_t)ptr;
    if (__builtin_expect((a & (align - 1)) == 0 && __cuprite_san_fast_epoch == __atomic_load_n(&__cuprite_san_epoch, __ATOMIC_RELAXED), 1)) {
        for (int i = 0; i < 8; i += 2)
            if (a >= __cuprite_san_fast[i] && a + bytes <= __cuprite_san_fast[i + 1])
                return ptr;
        if (kind == 0)
            for (int i = 0; i < 12; i += 3)
                if (a >= __cuprite_san_fast_read[i] && a + bytes <= __cuprite_san_fast_read[i + 1]) {
                    const uint64_t *cells = (const uint64_t *)__cuprite_san_fast_read[i + 2];
                    if (!cells)
                        return ptr;
                    uintptr_t w = (a - __cuprite_san_fast_read[i]) >> 2, last = (a + bytes - 1 - __cuprite_san_fast_read[i]) >> 2;
                    for (; w <= last; w++)
                        if ((uint32_t)(__atomic_load_n(&cells[2 * w], __ATOMIC_RELAXED) >> 32) == __cuprite_san_launch)
                            break;
                    if (w > last)
                        return ptr;
                    break;
                }
        for (int i = 0; i < 12; i += 3)
            if (a >= __cuprite_san_fast_init[i] && a + bytes <= __cuprite_san_fast_init[i + 1]) {
                unsigned char *set = (unsigned char *)__cuprite_san_fast_init[i + 2] + (a - __cuprite_san_fast_init[i]);
                uint32_t b = 0;
                if (kind == 0 || kind == 3) {
                    while (b < bytes && __atomic_load_n(&set[b], __ATOMIC_RELAXED))
                        b++;
                    if (b == bytes)
                        return ptr;
                    break;
                }
                for (; b < bytes; b++)
                    __atomic_store_n(&set[b], 1, __ATOMIC_RELAXED);
                return ptr;
            }
    }
    return __cuprite_san_access(ptr, bytes, align, kind, site, symbol, file, line, thread, block);
}
/* synccheck's barrier counts for the block the calling worker last reported on
 * (crates/cuprite-rt/src/sanitize/synccheck.rs publishes them after each call): a
 * barrier that is the site other threads reached as this thread's next one, or an exit
 * that changes nothing the runtime keeps (the thread passed as many barriers as any, and
 * another thread already exited after no more), is counted here without a call. */
struct __cuprite_san_barrier_site {
    const char *symbol, *file;
    uint32_t line, first;
};
struct __cuprite_san_sync_state {
    uint32_t valid, bx, by, bz, bdx, bdy;
    uint32_t nsites;      /* barriers some thread reached (sites[k-1]: the k-th's site) */
    uint32_t most;        /* the most barriers any thread reached */
    uint32_t fewest_exit; /* the fewest barriers a thread exited after (UINT32_MAX: none) */
    uint32_t *passed;     /* barriers each thread passed, by linear index */
    const struct __cuprite_san_barrier_site *sites;
};
extern __CUPRITE_SAN_TLS struct __cuprite_san_sync_state __cuprite_san_sync;
static inline __attribute__((always_inline)) int __cuprite_san_sync_counted(int event, const char *symbol, const char *file,
                                                                            unsigned line, cuprite_dim3 thread,
                                                                            cuprite_dim3 block) {
    struct __cuprite_san_sync_state *s = &__cuprite_san_sync;
    if (!s->valid || s->bx != block.x || s->by != block.y || s->bz != block.z)
        return 0;
    uint32_t t = (thread.z * s->bdy + thread.y) * s->bdx + thread.x, n = s->passed[t];
    if (event == 2)
        return n >= s->most && s->fewest_exit <= n;
    if (n >= s->nsites || n >= s->fewest_exit || s->sites[n].symbol != symbol || s->sites[n].file != file ||
        s->sites[n].line != line)
        return 0;
    s->passed[t] = n + 1;
    return 1;
}
static inline __attribute__((always_inline)) void __cuprite_san_event_if_wanted(int want, int event, const char *symbol,
                                                                                const char *file, unsigned line,
                                                                                cuprite_dim3 thread, cuprite_dim3 block) {
    if (__builtin_expect(want & (1 << event), 1)) {
        if ((event == 0 || event == 2) && __cuprite_san_sync_counted(event, symbol, file, line, thread, block))
            return;
        __cuprite_san_event(event, symbol, file, line, thread, block);
    }
}
static inline __attribute__((always_inline)) void __cuprite_san_value_if_wanted(int want, int event, uint32_t value,
                                                                                uint32_t site, const char *symbol,
                                                                                const char *file, unsigned line,
                                                                                cuprite_dim3 thread, cuprite_dim3 block) {
    if (__builtin_expect(want & (1 << event), 0))
        __cuprite_san_value(event, value, site, symbol, file, line, thread, block);
}

/* ---- host side: provided by the runtime, called by rewritten host code ------------- */

/* The launch stub of every kernel: takes the configuration pushed by
 * __cudaPushCallConfiguration for `k<<<...>>>(...)` and enqueues the launch. */
void __cuprite_launch_from_stub(const void *host_stub, void **args);

#ifdef __cplusplus
}
#endif

#endif /* CUPRITE_ABI_H */
