/* nvtx3/nvToolsExt.h (Cuprite): the NVTX annotation API, written from its documentation.
 * NVTX calls do nothing unless a profiling tool is injected; Cuprite never injects one,
 * so every call here is an inline no-op with the documented return values. */
#ifndef CUPRITE_NVTOOLSEXT_H
#define CUPRITE_NVTOOLSEXT_H
#include <stddef.h>
#include <stdint.h>

#ifndef NVTX_VERSION
#define NVTX_VERSION 3
#endif
#define NVTX_SUCCESS 0
#define NVTX_FAIL 1
#define NVTX_ERR_INIT_LOAD_PROPERTY 2
#define NVTX_ERR_INIT_ACCESS_LIBRARY 3
#define NVTX_ERR_INIT_LOAD_LIBRARY 4
#define NVTX_ERR_INIT_MISSING_LIBRARY_ENTRY_POINT 5
#define NVTX_ERR_INIT_FAILED_LIBRARY_ENTRY_POINT 6
#define NVTX_ERR_NO_INJECTION_LIBRARY_AVAILABLE 7
#define NVTX_NO_PUSH_POP_TRACKING ((int)-2)

#ifdef __cplusplus
#define CUPRITE_NVTX_API static inline
extern "C" {
#else
#define CUPRITE_NVTX_API static inline
#endif

typedef uint64_t nvtxRangeId_t;
typedef struct nvtxDomainRegistration_st *nvtxDomainHandle_t;
typedef struct nvtxStringRegistration_st *nvtxStringHandle_t;

typedef enum nvtxColorType_t { NVTX_COLOR_UNKNOWN = 0, NVTX_COLOR_ARGB = 1 } nvtxColorType_t;
typedef enum nvtxMessageType_t {
    NVTX_MESSAGE_UNKNOWN = 0,
    NVTX_MESSAGE_TYPE_ASCII = 1,
    NVTX_MESSAGE_TYPE_UNICODE = 2,
    NVTX_MESSAGE_TYPE_REGISTERED = 3
} nvtxMessageType_t;
typedef enum nvtxPayloadType_t {
    NVTX_PAYLOAD_UNKNOWN = 0,
    NVTX_PAYLOAD_TYPE_UNSIGNED_INT64 = 1,
    NVTX_PAYLOAD_TYPE_INT64 = 2,
    NVTX_PAYLOAD_TYPE_DOUBLE = 3,
    NVTX_PAYLOAD_TYPE_UNSIGNED_INT32 = 4,
    NVTX_PAYLOAD_TYPE_INT32 = 5,
    NVTX_PAYLOAD_TYPE_FLOAT = 6
} nvtxPayloadType_t;

typedef union nvtxMessageValue_t {
    const char *ascii;
    const wchar_t *unicode;
    nvtxStringHandle_t registered;
} nvtxMessageValue_t;

typedef struct nvtxEventAttributes_v2 {
    uint16_t version;
    uint16_t size;
    uint32_t category;
    int32_t colorType;
    uint32_t color;
    int32_t payloadType;
    int32_t reserved0;
    union payload_t {
        uint64_t ullValue;
        int64_t llValue;
        double dValue;
        uint32_t uiValue;
        int32_t iValue;
        float fValue;
    } payload;
    int32_t messageType;
    nvtxMessageValue_t message;
} nvtxEventAttributes_v2;
typedef struct nvtxEventAttributes_v2 nvtxEventAttributes_t;
#define NVTX_EVENT_ATTRIB_STRUCT_SIZE ((uint16_t)(sizeof(nvtxEventAttributes_t)))

CUPRITE_NVTX_API void nvtxInitialize(const void *reserved) { (void)reserved; }
CUPRITE_NVTX_API void nvtxMarkEx(const nvtxEventAttributes_t *a) { (void)a; }
CUPRITE_NVTX_API void nvtxMarkA(const char *m) { (void)m; }
CUPRITE_NVTX_API void nvtxMarkW(const wchar_t *m) { (void)m; }
CUPRITE_NVTX_API nvtxRangeId_t nvtxRangeStartEx(const nvtxEventAttributes_t *a) { (void)a; return 0; }
CUPRITE_NVTX_API nvtxRangeId_t nvtxRangeStartA(const char *m) { (void)m; return 0; }
CUPRITE_NVTX_API nvtxRangeId_t nvtxRangeStartW(const wchar_t *m) { (void)m; return 0; }
CUPRITE_NVTX_API void nvtxRangeEnd(nvtxRangeId_t id) { (void)id; }
/* Push/pop return the nesting level when a tool tracks it; without one, the documented
 * "no tracking" value. */
CUPRITE_NVTX_API int nvtxRangePushEx(const nvtxEventAttributes_t *a) { (void)a; return NVTX_NO_PUSH_POP_TRACKING; }
CUPRITE_NVTX_API int nvtxRangePushA(const char *m) { (void)m; return NVTX_NO_PUSH_POP_TRACKING; }
CUPRITE_NVTX_API int nvtxRangePushW(const wchar_t *m) { (void)m; return NVTX_NO_PUSH_POP_TRACKING; }
CUPRITE_NVTX_API int nvtxRangePop(void) { return NVTX_NO_PUSH_POP_TRACKING; }
CUPRITE_NVTX_API void nvtxNameCategoryA(uint32_t c, const char *n) { (void)c; (void)n; }
CUPRITE_NVTX_API void nvtxNameCategoryW(uint32_t c, const wchar_t *n) { (void)c; (void)n; }
CUPRITE_NVTX_API void nvtxNameOsThreadA(uint32_t t, const char *n) { (void)t; (void)n; }
CUPRITE_NVTX_API void nvtxNameOsThreadW(uint32_t t, const wchar_t *n) { (void)t; (void)n; }
CUPRITE_NVTX_API nvtxDomainHandle_t nvtxDomainCreateA(const char *n) { (void)n; return (nvtxDomainHandle_t)0; }
CUPRITE_NVTX_API nvtxDomainHandle_t nvtxDomainCreateW(const wchar_t *n) { (void)n; return (nvtxDomainHandle_t)0; }
CUPRITE_NVTX_API void nvtxDomainDestroy(nvtxDomainHandle_t d) { (void)d; }
CUPRITE_NVTX_API void nvtxDomainMarkEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) { (void)d; (void)a; }
CUPRITE_NVTX_API nvtxRangeId_t nvtxDomainRangeStartEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) { (void)d; (void)a; return 0; }
CUPRITE_NVTX_API void nvtxDomainRangeEnd(nvtxDomainHandle_t d, nvtxRangeId_t id) { (void)d; (void)id; }
CUPRITE_NVTX_API int nvtxDomainRangePushEx(nvtxDomainHandle_t d, const nvtxEventAttributes_t *a) { (void)d; (void)a; return NVTX_NO_PUSH_POP_TRACKING; }
CUPRITE_NVTX_API int nvtxDomainRangePop(nvtxDomainHandle_t d) { (void)d; return NVTX_NO_PUSH_POP_TRACKING; }
CUPRITE_NVTX_API nvtxStringHandle_t nvtxDomainRegisterStringA(nvtxDomainHandle_t d, const char *s) { (void)d; (void)s; return (nvtxStringHandle_t)0; }
CUPRITE_NVTX_API nvtxStringHandle_t nvtxDomainRegisterStringW(nvtxDomainHandle_t d, const wchar_t *s) { (void)d; (void)s; return (nvtxStringHandle_t)0; }
CUPRITE_NVTX_API void nvtxDomainNameCategoryA(nvtxDomainHandle_t d, uint32_t c, const char *n) { (void)d; (void)c; (void)n; }

#ifdef __cplusplus
}
#endif

#ifdef UNICODE
#define nvtxMarkT nvtxMarkW
#define nvtxRangeStart nvtxRangeStartW
#define nvtxRangePush nvtxRangePushW
#else
#define nvtxMark nvtxMarkA
#define nvtxRangeStart nvtxRangeStartA
#define nvtxRangePush nvtxRangePushA
#define nvtxNameOsThread nvtxNameOsThreadA
#define nvtxNameCategory nvtxNameCategoryA
#define nvtxDomainCreate nvtxDomainCreateA
#endif
#endif
