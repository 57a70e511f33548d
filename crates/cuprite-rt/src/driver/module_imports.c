
/* ---- appended by the runtime when it compiles a module image (driver/loader.rs) ----
 *
 * A module is a shared object that the runtime dlopens privately (RTLD_LOCAL), from a
 * program that may link the runtime statically and export none of its symbols. So the
 * module does not link against the runtime: the functions generated code calls are
 * defined here, and forward through a table of the runtime's functions that the runtime
 * hands over after dlopen (__cuprite_module_image_bind). The module's constructor runs
 * before that: registration is only recorded, and returned by the bind call.
 * The shared object is linked with -Bsymbolic, so these definitions win inside it. */
#include <stdarg.h>

typedef struct cuprite_module_imports {
    uint32_t version;
    int (*vprintf)(const char *fmt, va_list ap);
    void (*assert_fail)(const char *, const char *, unsigned, const char *, cuprite_dim3, cuprite_dim3);
    void (*assert_report)(const char *, const char *, unsigned, const char *, cuprite_dim3, cuprite_dim3);
    void (*trap)(void);
    void (*kernel_error)(int, const char *);
    long long (*clock64)(void);
    void *(*device_malloc)(size_t);
    void (*device_free)(void *);
    int (*tex_fetch)(uint64_t, int, float, float, float, int, void *, unsigned, const char **);
    int (*tex_fetch_int)(uint64_t, int, void *, unsigned, const char **);
    int (*surf_access)(uint64_t, int, int, int, int, void *, unsigned, int, int, const char **);
} cuprite_module_imports;

static const cuprite_module_imports *__cuprite_rt;
static const cuprite_module_desc *__cuprite_registered;

void __cuprite_register_module(const cuprite_module_desc *m) { __cuprite_registered = m; }
void __cuprite_set_target_arch(unsigned int sm) { (void)sm; }
int __cuprite_printf(const char *fmt, ...) {
    va_list ap;
    va_start(ap, fmt);
    int n = __cuprite_rt->vprintf(fmt, ap);
    va_end(ap);
    return n;
}
void __cuprite_assert_fail(const char *e, const char *f, unsigned l, const char *fn, cuprite_dim3 b, cuprite_dim3 t) {
    __cuprite_rt->assert_fail(e, f, l, fn, b, t);
    __builtin_unreachable();
}
void __cuprite_assert_report(const char *e, const char *f, unsigned l, const char *fn, cuprite_dim3 b, cuprite_dim3 t) {
    __cuprite_rt->assert_report(e, f, l, fn, b, t);
}
void __cuprite_trap(void) { __cuprite_rt->trap(); __builtin_unreachable(); }
void __cuprite_kernel_error(int e, const char *m) { __cuprite_rt->kernel_error(e, m); __builtin_unreachable(); }
long long __cuprite_clock64(void) { return __cuprite_rt->clock64(); }
void *__cuprite_device_malloc(size_t n) { return __cuprite_rt->device_malloc(n); }
void __cuprite_device_free(void *p) { __cuprite_rt->device_free(p); }
int __cuprite_tex_fetch(uint64_t o, int d, float x, float y, float z, int l, void *r, unsigned n, const char **m) {
    return __cuprite_rt->tex_fetch(o, d, x, y, z, l, r, n, m);
}
int __cuprite_tex_fetch_int(uint64_t o, int x, void *r, unsigned n, const char **m) {
    return __cuprite_rt->tex_fetch_int(o, x, r, n, m);
}
int __cuprite_surf_access(uint64_t o, int d, int x, int y, int z, void *p, unsigned n, int mode, int w, const char **m) {
    return __cuprite_rt->surf_access(o, d, x, y, z, p, n, mode, w, m);
}

const cuprite_module_desc *__cuprite_module_image_bind(const cuprite_module_imports *rt) {
    __cuprite_rt = rt;
    return __cuprite_registered;
}
