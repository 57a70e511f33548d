mod common;
use common::*;

#[test]
fn const_assignment() {
    has_error("__global__ void k(const float *p) {\n  const float c = 1;\n  c = 2;\n}\n", 3, "cannot assign to a variable of type 'const float'");
    has_error("__global__ void k(const float *p) {\n  p[0] = 1;\n}\n", 2, "cannot assign to a variable of type 'const float'");
    has_error("__constant__ int c;\n__global__ void k() {\n  c = 1;\n}\n", 3, "cannot assign to a variable of type 'const int'");
}

#[test]
fn members_and_names() {
    has_error(
        "struct float3 { float x, y, z; };\n__global__ void k(float3 *p) {\n  float v = p->w;\n}\n",
        3,
        "no member named 'w' in 'float3'",
    );
    has_error("__global__ void k() {\n  int a = foo;\n}\n", 2, "use of undeclared identifier 'foo'");
    has_error("struct S { int a; };\n__global__ void k(S *p) {\n  p.a = 1;\n}\n", 3, "is a pointer; did you mean to use '->'?");
}

#[test]
fn execution_spaces() {
    has_error(
        "void foo() {}\n__global__ void k() {\n  foo();\n}\n",
        3,
        "calling a __host__ function(\"foo\") from a __global__ function(\"k\") is not allowed",
    );
    has_error("__global__ int k() {\n  return 1;\n}\n", 1, "a __global__ function must have a void return type");
    has_error("__global__ void k() {}\n__device__ void d() {\n  k();\n}\n", 3, "a __global__ function call must be configured");
    has_error("int h = 3;\n__global__ void k(int *p) {\n  *p = h;\n}\n", 3, "identifier \"h\" is undefined in device code");
}

#[test]
fn not_supported_yet() {
    has_error("__global__ void k(int *p) {\n  int v = 0;\n  *p = __dp4a(v, v, 0);\n}\n", 3, "`__dp4a` is not supported yet");
}

#[test]
fn type_errors() {
    has_error("__global__ void k(int *p) {\n  float *q = p;\n}\n", 2, "cannot convert 'int *' to 'float *'");
    has_error("__global__ void k(int *p) {\n  break;\n}\n", 2, "'break' statement not in loop or switch statement");
    has_error("__device__ int f(int a) {\n  return;\n}\n__global__ void k() { f(1); }\n", 2, "non-void function 'f' should return a value");
    has_error("__device__ int f(int a) { return a; }\n__global__ void k() {\n  f(1, 2);\n}\n", 3, "too many arguments");
    has_error("__global__ void k() {\n  goto nowhere;\n}\n", 2, "use of undeclared label 'nowhere'");
    has_error("__global__ void k(int x) {\n  switch (x) { case 1: case 1: break; }\n}\n", 2, "duplicate case value '1'");
}

#[test]
fn no_panic_on_odd_input() {
    // Errors, but never a panic.
    for src in [
        "__global__ void k() { int a[2] = {1, 2, 3}; }",
        "__global__ void k() { struct U; U *u; u->x = 1; }",
        "__global__ void k() { int x = sizeof(struct Never); }",
        "__global__ void k(int *p) { p(); }",
        "__global__ void k() { int a; a.b = 1; }",
        "__global__ void k() { void v; }",
        "__global__ void k(float f) { f % 2; }",
        "__global__ void k(int *p) { *p = 1 / 0; }",
    ] {
        let _ = compile_opts(src, &Default::default());
    }
}
