/*
 * guard.c: the parts of the runtime that must be C.
 *
 *  - Fault containment: device code runs inside cuprite_guarded_run (sigsetjmp). A
 *    process-wide SIGSEGV/SIGBUS/SIGILL/SIGFPE handler (on each worker's alternate signal
 *    stack) jumps back there when the signal was raised while the thread was in device
 *    code; otherwise it restores the previous action and lets the signal take its course.
 *    __cuprite_trap / __cuprite_assert_fail / __cuprite_kernel_error jump the same way.
 *    The jump never crosses Rust frames: Rust calls cuprite_guarded_run, which calls the
 *    kernel entry (generated C), which calls these functions (C).
 *  - Device printf: formatted with vsnprintf into a process-wide buffer that is written
 *    to the C library's stdout at CUDA's flush points.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "cuprite_abi.h" /* the fast paths' thread-locals and their layout */
#include <time.h>
#include <unistd.h>

#include "cuprite_abi.h"

/* cudaError_t values used here (the runtime owns the full table). */
#define CUPRITE_ERR_ILLEGAL_ADDRESS 700
#define CUPRITE_ERR_ASSERT 710
#define CUPRITE_ERR_ILLEGAL_INSTRUCTION 715
#define CUPRITE_ERR_LAUNCH_FAILURE 719

/* Fault kinds reported to the runtime. */
enum {
    CUPRITE_FAULT_NONE = 0,
    CUPRITE_FAULT_SIGNAL = 1,
    CUPRITE_FAULT_TRAP = 2,
    CUPRITE_FAULT_ASSERT = 3,
    CUPRITE_FAULT_KERNEL_ERROR = 4,
};

typedef struct cuprite_fault_info {
    int kind;
    int signo;
    int si_code;
    int cuda_error;
    uintptr_t address;
    const char *message; /* static or thread-owned; valid until the next run on this thread */
} cuprite_fault_info;

static __thread sigjmp_buf *tl_jmp;          /* non-NULL while in device code */
static __thread cuprite_fault_info tl_fault;
static __thread int tl_pending_error;       /* an assert reported without jumping */
static __thread char tl_msg[512];
static __thread void *tl_altstack;
static __thread size_t tl_altstack_size;

static struct sigaction g_old_actions[65];
static pthread_once_t g_install_once = PTHREAD_ONCE_INIT;
static const int g_signals[] = {SIGSEGV, SIGBUS, SIGILL, SIGFPE};

static void cuprite_fault_handler(int sig, siginfo_t *info, void *uctx) {
    sigjmp_buf *jb = tl_jmp;
    if (jb != NULL) {
        tl_jmp = NULL;
        tl_fault.kind = CUPRITE_FAULT_SIGNAL;
        tl_fault.signo = sig;
        tl_fault.si_code = info ? info->si_code : 0;
        tl_fault.address = info ? (uintptr_t)info->si_addr : 0;
        if (sig == SIGSEGV || sig == SIGBUS)
            tl_fault.cuda_error = CUPRITE_ERR_ILLEGAL_ADDRESS;
        else if (sig == SIGILL)
            tl_fault.cuda_error = CUPRITE_ERR_ILLEGAL_INSTRUCTION;
        else
            tl_fault.cuda_error = CUPRITE_ERR_LAUNCH_FAILURE;
        tl_fault.message = NULL;
        siglongjmp(*jb, 1);
    }
    /* Not ours: hand the signal to whoever had it before us. */
    struct sigaction *old = (sig > 0 && sig < 65) ? &g_old_actions[sig] : NULL;
    if (old && (old->sa_flags & SA_SIGINFO) && old->sa_sigaction) {
        old->sa_sigaction(sig, info, uctx);
        return;
    }
    if (old && old->sa_handler != SIG_DFL && old->sa_handler != SIG_IGN && old->sa_handler) {
        old->sa_handler(sig);
        return;
    }
    /* Default action: restore it and re-raise (a synchronous fault re-executes the
     * faulting instruction on return and dies with the default action). */
    struct sigaction dfl;
    memset(&dfl, 0, sizeof dfl);
    dfl.sa_handler = SIG_DFL;
    sigemptyset(&dfl.sa_mask);
    sigaction(sig, &dfl, NULL);
    if (info == NULL || info->si_code <= 0) raise(sig);
}

static void cuprite_install_handlers_once(void) {
    for (size_t i = 0; i < sizeof g_signals / sizeof g_signals[0]; i++) {
        struct sigaction sa;
        memset(&sa, 0, sizeof sa);
        sa.sa_sigaction = cuprite_fault_handler;
        sa.sa_flags = SA_SIGINFO | SA_ONSTACK | SA_NODEFER;
        sigemptyset(&sa.sa_mask);
        sigaction(g_signals[i], &sa, &g_old_actions[g_signals[i]]);
    }
}

/* Installs the process-wide handlers (once) and this thread's alternate signal stack. */
int cuprite_guard_thread_init(void) {
    pthread_once(&g_install_once, cuprite_install_handlers_once);
    if (tl_altstack != NULL) return 0;
    size_t size = 256 * 1024;
    void *mem = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED) return -1;
    stack_t ss;
    memset(&ss, 0, sizeof ss);
    ss.ss_sp = mem;
    ss.ss_size = size;
    ss.ss_flags = 0;
    if (sigaltstack(&ss, NULL) != 0) {
        munmap(mem, size);
        return -1;
    }
    tl_altstack = mem;
    tl_altstack_size = size;
    return 0;
}

/* Installs the process-wide handlers only (for threads that run guarded code without
 * an alternate stack of their own). */
void cuprite_guard_install(void) { pthread_once(&g_install_once, cuprite_install_handlers_once); }

/* Runs entry(run) with faults contained. Returns 0 or the cudaError_t that ended it;
 * details in cuprite_guard_last_fault(). */
__attribute__((noinline)) int cuprite_guarded_run(cuprite_kernel_entry entry, cuprite_block_run *run) {
    sigjmp_buf jb;
    memset(&tl_fault, 0, sizeof tl_fault);
    if (sigsetjmp(jb, 1) != 0) {
        tl_jmp = NULL;
        return tl_fault.cuda_error ? tl_fault.cuda_error : CUPRITE_ERR_LAUNCH_FAILURE;
    }
    tl_jmp = &jb;
    tl_pending_error = 0;
    entry(run);
    tl_jmp = NULL;
    if (tl_pending_error) {
        int e = tl_pending_error;
        tl_pending_error = 0;
        tl_fault.kind = CUPRITE_FAULT_ASSERT;
        tl_fault.cuda_error = e;
        return e;
    }
    return 0;
}

/* Same containment for a runtime-internal memory operation (e.g. a device-to-device copy
 * on a worker). Returns 0 or the cudaError_t. */
__attribute__((noinline)) int cuprite_guarded_memcpy(void *dst, const void *src, size_t n) {
    sigjmp_buf jb;
    memset(&tl_fault, 0, sizeof tl_fault);
    if (sigsetjmp(jb, 1) != 0) {
        tl_jmp = NULL;
        return tl_fault.cuda_error ? tl_fault.cuda_error : CUPRITE_ERR_ILLEGAL_ADDRESS;
    }
    tl_jmp = &jb;
    memmove(dst, src, n);
    tl_jmp = NULL;
    return 0;
}

__attribute__((noinline)) int cuprite_guarded_memset(void *dst, int value, size_t n) {
    sigjmp_buf jb;
    memset(&tl_fault, 0, sizeof tl_fault);
    if (sigsetjmp(jb, 1) != 0) {
        tl_jmp = NULL;
        return tl_fault.cuda_error ? tl_fault.cuda_error : CUPRITE_ERR_ILLEGAL_ADDRESS;
    }
    tl_jmp = &jb;
    memset(dst, value, n);
    tl_jmp = NULL;
    return 0;
}

void cuprite_guard_last_fault(cuprite_fault_info *out) { *out = tl_fault; }

static __attribute__((noreturn)) void cuprite_jump_out(int kind, int cuda_error, const char *message) {
    sigjmp_buf *jb = tl_jmp;
    tl_fault.kind = kind;
    tl_fault.cuda_error = cuda_error;
    tl_fault.message = message;
    if (jb == NULL) {
        /* Not inside a guarded run (device code called from the host?): nothing to
         * return to. Report and abort as a GPU context would be lost. */
        fprintf(stderr, "cuprite: device error outside a kernel launch: %s\n",
                message ? message : "(no message)");
        fflush(stderr);
        abort();
    }
    tl_jmp = NULL;
    siglongjmp(*jb, 1);
}

void __cuprite_trap(void) { cuprite_jump_out(CUPRITE_FAULT_TRAP, CUPRITE_ERR_LAUNCH_FAILURE, NULL); }

void __cuprite_kernel_error(int cuda_error, const char *message) {
    if (message) {
        snprintf(tl_msg, sizeof tl_msg, "%s", message);
        message = tl_msg;
    }
    cuprite_jump_out(CUPRITE_FAULT_KERNEL_ERROR, cuda_error, message);
}

/* Set by the runtime: where device assert messages go (0: stderr, 1: stdout). */
static int g_assert_to_stdout = 0;
void cuprite_set_assert_stream(int to_stdout) { g_assert_to_stdout = to_stdout; }

/* A failed assert in a thread that goes on running (the generated code reports every
 * failing thread of a region, then ends the run with __cuprite_assert_fail or lets it
 * finish): prints the message; the run then ends with cudaErrorAssert. */
void __cuprite_assert_report(const char *expr, const char *file, unsigned line, const char *func,
                             cuprite_dim3 block, cuprite_dim3 thread) {
    FILE *f = g_assert_to_stdout ? stdout : stderr;
    fprintf(f, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
            file ? file : "?", line, func ? func : "?", block.x, block.y, block.z, thread.x,
            thread.y, thread.z, expr ? expr : "?");
    fflush(f);
    tl_pending_error = CUPRITE_ERR_ASSERT;
}

void __cuprite_assert_fail(const char *expr, const char *file, unsigned line, const char *func,
                           cuprite_dim3 block, cuprite_dim3 thread) {
    FILE *f = g_assert_to_stdout ? stdout : stderr;
    fprintf(f, "%s:%u: %s: block: [%u,%u,%u], thread: [%u,%u,%u] Assertion `%s` failed.\n",
            file ? file : "?", line, func ? func : "?", block.x, block.y, block.z, thread.x,
            thread.y, thread.z, expr ? expr : "?");
    fflush(f);
    tl_pending_error = 0;
    cuprite_jump_out(CUPRITE_FAULT_ASSERT, CUPRITE_ERR_ASSERT, NULL);
}

/* ---- device printf ---------------------------------------------------------------- */

static pthread_mutex_t g_printf_lock = PTHREAD_MUTEX_INITIALIZER;
static char *g_printf_buf;
static size_t g_printf_len;
static size_t g_printf_cap;
static size_t g_printf_limit = 8650752; /* cudaLimitPrintfFifoSize default (CUDA 13) */

void cuprite_printf_set_limit(size_t limit) {
    pthread_mutex_lock(&g_printf_lock);
    g_printf_limit = limit;
    pthread_mutex_unlock(&g_printf_lock);
}

size_t cuprite_printf_get_limit(void) {
    pthread_mutex_lock(&g_printf_lock);
    size_t l = g_printf_limit;
    pthread_mutex_unlock(&g_printf_lock);
    return l;
}

/* Bytes of the FIFO one printf record takes on the GPU (measured: 8650752 / 33792). */
#define CUPRITE_PRINTF_RECORD_BYTES 256u
static size_t g_printf_fifo_used;

static int cuprite_printf_append(const char *s, size_t n) {
    int ok = 1;
    size_t cost = n > CUPRITE_PRINTF_RECORD_BYTES ? n : CUPRITE_PRINTF_RECORD_BYTES;
    pthread_mutex_lock(&g_printf_lock);
    if (g_printf_fifo_used + cost > g_printf_limit) {
        ok = 0; /* the FIFO is full: the record is dropped, as on a GPU */
    } else {
        if (g_printf_len + n > g_printf_cap) {
            size_t cap = g_printf_cap ? g_printf_cap : 4096;
            while (cap < g_printf_len + n) cap *= 2;
            char *nb = (char *)realloc(g_printf_buf, cap);
            if (nb == NULL) {
                ok = 0;
            } else {
                g_printf_buf = nb;
                g_printf_cap = cap;
            }
        }
        if (ok) {
            memcpy(g_printf_buf + g_printf_len, s, n);
            g_printf_len += n;
            g_printf_fifo_used += cost;
        }
    }
    pthread_mutex_unlock(&g_printf_lock);
    return ok;
}

typedef struct outbuf {
    char local[1024];
    char *p;
    size_t len, cap;
} outbuf;

static void ob_init(outbuf *o) {
    o->p = o->local;
    o->len = 0;
    o->cap = sizeof o->local;
}

static void ob_put(outbuf *o, const char *s, size_t n) {
    if (o->len + n + 1 > o->cap) {
        size_t cap = o->cap * 2;
        while (cap < o->len + n + 1) cap *= 2;
        char *nb = (char *)malloc(cap);
        if (nb == NULL) return;
        memcpy(nb, o->p, o->len);
        if (o->p != o->local) free(o->p);
        o->p = nb;
        o->cap = cap;
    }
    memcpy(o->p + o->len, s, n);
    o->len += n;
}

static void ob_free(outbuf *o) {
    if (o->p != o->local) free(o->p);
}

/* Formats like the GPU's printf: C conversions with flags, width (also '*'), precision
 * and the h/hh/l/ll length modifiers; what the GPU prints literally ('%.*f', '%zu', unknown
 * conversions) is printed literally here too and consumes no argument. Returns the number
 * of arguments used (the GPU's return value). */
static int cuprite_format(outbuf *o, const char *fmt, va_list ap) {
    int nargs = 0;
    const char *f = fmt;
    while (*f) {
        if (*f != '%') {
            const char *q = f;
            while (*q && *q != '%') q++;
            ob_put(o, f, (size_t)(q - f));
            f = q;
            continue;
        }
        const char *start = f++;
        if (*f == '%') {
            ob_put(o, "%", 1);
            f++;
            continue;
        }
        while (*f && strchr("-+ #0'", *f)) f++;
        int star_width = 0;
        if (*f == '*') {
            star_width = 1;
            f++;
        } else {
            while (*f >= '0' && *f <= '9') f++;
        }
        int star_prec = 0;
        if (*f == '.') {
            f++;
            if (*f == '*') {
                star_prec = 1;
                f++;
            } else {
                while (*f >= '0' && *f <= '9') f++;
            }
        }
        int len = 0; /* 0 none, 1 h, 2 hh, 3 l, 4 ll, 5 unsupported (L j z t) */
        if (*f == 'h') {
            len = 1;
            f++;
            if (*f == 'h') {
                len = 2;
                f++;
            }
        } else if (*f == 'l') {
            len = 3;
            f++;
            if (*f == 'l') {
                len = 4;
                f++;
            }
        } else if (*f == 'L' || *f == 'j' || *f == 'z' || *f == 't' || *f == 'q') {
            len = 5;
            f++;
        }
        char conv = *f;
        if (conv == 0) {
            ob_put(o, start, (size_t)(f - start));
            break;
        }
        f++;
        size_t speclen = (size_t)(f - start);
        int supported = strchr("diouxXcsfFeEgGaAp", conv) != NULL && len != 5 && !star_prec;
        if (!supported || speclen > 60) {
            ob_put(o, start, speclen);
            continue;
        }
        char spec[64];
        memcpy(spec, start, speclen);
        spec[speclen] = 0;
        int width = 0;
        if (star_width) {
            width = va_arg(ap, int);
            nargs++;
        }
        char tmp[512];
        char *out = tmp;
        int n = 0;
        char *big = NULL;
        for (int pass = 0; pass < 2; pass++) {
            size_t cap = pass == 0 ? sizeof tmp : (size_t)n + 1;
            if (pass == 1) {
                big = (char *)malloc(cap);
                if (big == NULL) break;
                out = big;
            }
            va_list aq;
            va_copy(aq, ap);
#define EMIT(T)                                                              \
    do {                                                                     \
        T v__ = va_arg(aq, T);                                               \
        n = star_width ? snprintf(out, cap, spec, width, v__) : snprintf(out, cap, spec, v__); \
    } while (0)
            switch (conv) {
            case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': case 'c':
                if (len == 3) EMIT(long);
                else if (len == 4) EMIT(long long);
                else EMIT(int);
                break;
            case 's': EMIT(const char *); break;
            case 'p': EMIT(void *); break;
            default: EMIT(double); break;
            }
#undef EMIT
            va_end(aq);
            if (n < 0 || (size_t)n < sizeof tmp) break;
        }
        /* consume the argument for real */
        switch (conv) {
        case 'd': case 'i': case 'o': case 'u': case 'x': case 'X': case 'c':
            if (len == 3) (void)va_arg(ap, long);
            else if (len == 4) (void)va_arg(ap, long long);
            else (void)va_arg(ap, int);
            break;
        case 's': (void)va_arg(ap, const char *); break;
        case 'p': (void)va_arg(ap, void *); break;
        default: (void)va_arg(ap, double); break;
        }
        nargs++;
        if (n > 0) ob_put(o, out, (size_t)n);
        free(big);
    }
    return nargs;
}

int cuprite_vprintf(const char *fmt, va_list ap) {
    if (fmt == NULL) return -1;
    outbuf o;
    ob_init(&o);
    va_list aq;
    va_copy(aq, ap);
    int nargs = cuprite_format(&o, fmt, aq);
    va_end(aq);
    int ok = cuprite_printf_append(o.p, o.len);
    ob_free(&o);
    (void)ok; /* a full FIFO drops the record silently, as on a GPU */
    return nargs;
}

int __cuprite_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = cuprite_vprintf(fmt, ap);
    va_end(ap);
    return n;
}

/* Writes the buffered device output to the C library's stdout and flushes it. */
void cuprite_printf_flush(void) {
    pthread_mutex_lock(&g_printf_lock);
    if (g_printf_len > 0) {
        fflush(stdout); /* host output written before this point comes first */
        fwrite(g_printf_buf, 1, g_printf_len, stdout);
        g_printf_len = 0;
        fflush(stdout);
    }
    g_printf_fifo_used = 0;
    pthread_mutex_unlock(&g_printf_lock);
}

/* Drops buffered device output (a context torn down without a flush). */
void cuprite_printf_discard(void) {
    pthread_mutex_lock(&g_printf_lock);
    g_printf_len = 0;
    g_printf_fifo_used = 0;
    pthread_mutex_unlock(&g_printf_lock);
}

size_t cuprite_printf_pending(void) {
    pthread_mutex_lock(&g_printf_lock);
    size_t n = g_printf_len;
    pthread_mutex_unlock(&g_printf_lock);
    return n;
}

/* ---- clock ------------------------------------------------------------------------- */

long long __cuprite_clock64(void) {
#if defined(__x86_64__) || defined(__i386__)
    unsigned lo, hi;
    __asm__ __volatile__("rdtsc" : "=a"(lo), "=d"(hi));
    return (long long)(((unsigned long long)hi << 32) | lo);
#else
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000000LL + ts.tv_nsec;
#endif
}

/* ---- exit hook ----------------------------------------------------------------------- */

extern void cuprite_rt_at_exit(void);
static void cuprite_atexit_trampoline(void) { cuprite_rt_at_exit(); }
void cuprite_register_atexit(void) { atexit(cuprite_atexit_trampoline); }

/* ---- checking mode's fast path (cuprite_abi.h, "__cuprite_san_check") ------------------ */

__thread uintptr_t __cuprite_san_fast[8];
__thread uintptr_t __cuprite_san_fast_read[12];
__thread uintptr_t __cuprite_san_fast_init[12];
__thread uint32_t __cuprite_san_launch;
__thread uint64_t __cuprite_san_fast_epoch;
static __thread unsigned cuprite_san_fast_next, cuprite_san_read_next, cuprite_san_init_next;
uint64_t __cuprite_san_epoch = 1;
int __cuprite_san_want_values;
int __cuprite_san_want_events = -1;
int __cuprite_san_skip_accesses;

/* Empties the calling thread's windows if the epoch moved on since they were made. */
static void cuprite_san_windows_at(uint64_t now) {
    if (__cuprite_san_fast_epoch != now) {
        for (int i = 0; i < 8; i++) __cuprite_san_fast[i] = 0;
        for (int i = 0; i < 12; i++) __cuprite_san_fast_read[i] = 0;
        for (int i = 0; i < 12; i++) __cuprite_san_fast_init[i] = 0;
        __cuprite_san_fast_epoch = now;
        cuprite_san_fast_next = cuprite_san_read_next = cuprite_san_init_next = 0;
    }
}

/* Adds [lo, hi) to the calling thread's windows (valid until the next free). */
void cuprite_san_set_fast_window(uintptr_t lo, uintptr_t hi) {
    cuprite_san_windows_at(__atomic_load_n(&__cuprite_san_epoch, __ATOMIC_RELAXED));
    unsigned k = cuprite_san_fast_next++ % 4;
    __cuprite_san_fast[2 * k] = lo;
    __cuprite_san_fast[2 * k + 1] = hi;
}

/* The epoch now (read before looking at what a window will be made from). */
uint64_t cuprite_san_epoch_now(void) { return __atomic_load_n(&__cuprite_san_epoch, __ATOMIC_ACQUIRE); }

/* Adds racecheck's read window [lo, hi) with its shadow (or none), as seen at epoch
 * `seen`: nothing if the epoch moved on since (a shadow made or a free meanwhile). */
void cuprite_san_set_read_window(uintptr_t lo, uintptr_t hi, uintptr_t shadow, uint64_t seen) {
    uint64_t now = __atomic_load_n(&__cuprite_san_epoch, __ATOMIC_ACQUIRE);
    if (now != seen) return;
    cuprite_san_windows_at(now);
    unsigned k = cuprite_san_read_next++ % 4;
    __cuprite_san_fast_read[3 * k] = lo;
    __cuprite_san_fast_read[3 * k + 1] = hi;
    __cuprite_san_fast_read[3 * k + 2] = shadow;
}

/* Adds initcheck's shadow window [lo, hi) with its shadow bytes, as seen at epoch `seen`:
 * nothing if the epoch moved on since (a free meanwhile). */
void cuprite_san_set_init_window(uintptr_t lo, uintptr_t hi, uintptr_t shadow, uint64_t seen) {
    uint64_t now = __atomic_load_n(&__cuprite_san_epoch, __ATOMIC_ACQUIRE);
    if (now != seen) return;
    cuprite_san_windows_at(now);
    unsigned k = cuprite_san_init_next++ % 4;
    __cuprite_san_fast_init[3 * k] = lo;
    __cuprite_san_fast_init[3 * k + 1] = hi;
    __cuprite_san_fast_init[3 * k + 2] = shadow;
}

/* The launch the calling worker runs blocks of (racecheck's read windows). */
void cuprite_san_set_launch(uint32_t launch) { __cuprite_san_launch = launch; }

/* An allocation went away, or racecheck made a shadow: every thread's windows are stale. */
void cuprite_san_bump_epoch(void) { __atomic_add_fetch(&__cuprite_san_epoch, 1, __ATOMIC_ACQ_REL); }

/* synccheck's counts for the block the calling worker last reported on (cuprite_abi.h). */
__thread struct __cuprite_san_sync_state __cuprite_san_sync;
struct __cuprite_san_sync_state *cuprite_san_sync_state(void) { return &__cuprite_san_sync; }

/* Bit `event` of __cuprite_san_want_values: that kind of value is wanted (cuprite_abi.h). */
void cuprite_san_want_values(int bits) { __atomic_or_fetch(&__cuprite_san_want_values, bits, __ATOMIC_RELAXED); }
/* Whether checked code may skip its access checks (cuprite_abi.h). */
void cuprite_san_skip_accesses(int skip) { __atomic_store_n(&__cuprite_san_skip_accesses, skip, __ATOMIC_RELAXED); }
/* Bit `event` of __cuprite_san_want_events: that event is wanted (cuprite_abi.h). */
void cuprite_san_want_events(int bits) { __cuprite_san_want_events = bits; }
