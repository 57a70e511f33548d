/*
 * assert.h (Cuprite): in the device pass, assert() reports through the runtime
 * (CUDA's message, then cudaErrorAssert); elsewhere it is the C library's.
 * No include guard: <assert.h> may be included again after NDEBUG changes.
 */
#if defined(__CUPRITE_DEVICE_PASS__)
#  undef assert
#  ifdef NDEBUG
#    define assert(e) ((void)0)
#  else
#    define assert(e) ((e) ? (void)0 : __cuprite_assert(#e, __FILE__, __LINE__, __PRETTY_FUNCTION__))
#  endif
#else
#  include_next <assert.h>
#endif
