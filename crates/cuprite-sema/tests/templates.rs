//! Templates are parsed but not instantiated yet: sema refuses what device code needs
//! from them, at the template, and ignores the rest.

mod common;
use common::*;

#[test]
fn kernel_templates_are_refused_where_they_are_declared() {
    has_error("int x;\ntemplate <class T>\n__global__ void k(T *p) { *p = 0; }\n", 2, "templates in device code are not supported yet");
}

#[test]
fn uses_of_device_templates_are_refused() {
    // Deduced call: the use is reported, with a note at the template.
    has_error(
        "template <class T> __device__ T sq(T x) { return x * x; }\n__global__ void k(float *p) {\n  *p = sq(*p);\n}\n",
        3,
        "'sq' uses a construct that device code does not support yet",
    );
    // Template-ids in types and expressions.
    for src in [
        "template <class T> struct Box { T v; };\n__global__ void k(float *p) {\n  Box<float> b;\n}\n",
        "template <class T> struct S { static const int value = 1; };\n__global__ void k(int *p) {\n  *p = S<int>::value;\n}\n",
        "template <class T> __device__ T id(T x) { return x; }\n__device__ int id(int x) { return x; }\n__global__ void k(int *p) {\n  *p = id<int>(*p);\n}\n",
    ] {
        let errs = errors(src);
        assert!(!errs.is_empty(), "{src}: no error");
        assert!(errs.iter().any(|(_, m)| m.contains("does not support yet") || m.contains("not supported yet")), "{src}: {errs:?}");
    }
}

#[test]
fn unused_templates_are_ignored() {
    compile(
        "template <class T> struct Traits { static const int size = sizeof(T); };\n\
         template <class T> __device__ T sq(T x) { return x * x; }\n\
         template <> struct Traits<float> { static const int size = 4; };\n\
         template <class T> using Ptr = T*;\n\
         __global__ void k(float *p) { *p = 1; }\n",
    );
}
