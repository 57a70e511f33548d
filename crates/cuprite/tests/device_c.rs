//! Device C features end to end: a struct with bit-fields shared by host and device code
//! (same layout as g++), `offsetof`, and the device heap.

use std::process::Command;

fn run_cu(name: &str, src: &str) -> String {
    let dir = std::env::temp_dir().join(format!("cuprite-device-c-{}-{name}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join(format!("{name}.cu"));
    std::fs::write(&file, src).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_cuprite")).arg("run").arg(&file).output().unwrap();
    let _ = std::fs::remove_dir_all(&dir);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn bitfield_struct_passes_between_host_and_device() {
    let out = run_cu(
        "bitfields",
        r#"#include <cstdio>
#include <cstddef>
struct P { char tag; int lo : 7; unsigned hi : 20; long long big : 35; short s; };
struct Q { unsigned a : 3, b : 5; int c : 4; unsigned : 0; unsigned char d : 2; };
__device__ Q gq = { 5, 17, -3, 2 };
__global__ void k(P v, P *out, int *o) {
  P r = v;
  r.lo = v.lo * 2; r.hi = v.hi + 1; r.big = -v.big; r.s = v.s + v.tag;
  out[0] = r;
  out[1] = v;
  out[1].hi--;
  Q q = gq;
  q.c += 10;          // -3 + 10 = 7
  o[0] = q.a + q.b * 10 + q.c * 1000 + q.d * 100000;
  o[1] = (q.a = 12);  // the stored value: 4
  int b0 = q.b++;
  o[2] = b0 + ++q.b;  // 17 + 19
  o[3] = sizeof(P) * 100 + sizeof(Q);
  o[4] = offsetof(P, s);
}
int main() {
  P v; v.tag = 3; v.lo = -20; v.hi = 0xABCDE; v.big = 12345678901LL; v.s = 100;
  P *d; int *od, o[5];
  cudaMalloc(&d, 2 * sizeof(P));
  cudaMalloc(&od, sizeof(o));
  k<<<1, 1>>>(v, d, od);
  P h[2];
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  cudaMemcpy(o, od, sizeof(o), cudaMemcpyDeviceToHost);
  printf("%d %d %x %lld %d\n", h[0].tag, h[0].lo, h[0].hi, (long long)h[0].big, h[0].s);
  printf("%d %d %x %lld %d\n", h[1].tag, h[1].lo, h[1].hi, (long long)h[1].big, h[1].s);
  printf("%d %d %d %d %d\n", o[0], o[1], o[2], o[3], o[4]);
  printf("host %d %d\n", (int)(sizeof(P) * 100 + sizeof(Q)), (int)offsetof(P, s));
}
"#,
    );
    assert_eq!(
        out,
        "3 -40 abcdf -12345678901 103\n3 -20 abcdd 12345678901 100\n207175 4 36 1608 14\nhost 1608 14\n"
    );
}

#[test]
fn device_heap_outlives_the_kernel() {
    let out = run_cu(
        "heap",
        r#"#include <cstdio>
#include <cstdlib>
#include <cstring>
__device__ int *saved;
__global__ void make() { saved = (int *)malloc(4 * sizeof(int)); memset(saved, 0, 4 * sizeof(int)); saved[2] = 42; }
__global__ void use(int *o) { int t[4]; memcpy(t, saved, sizeof t); free(saved); o[0] = t[2]; o[1] = malloc((size_t)1 << 40) == NULL; }
int main() {
  int *d, h[2];
  cudaMalloc(&d, sizeof(h));
  make<<<1, 1>>>();
  use<<<1, 1>>>(d);
  cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost);
  printf("%d %d\n", h[0], h[1]);
}
"#,
    );
    assert_eq!(out, "42 1\n");
}

#[test]
fn enum_bitfields_are_unsigned_without_negative_enumerators() {
    let out = run_cu(
        "enums",
        r#"#include <cstdio>
enum Color { R, G, B, W };
enum Neg { M = -1, Z };
struct S { Color c : 2; Neg n : 2; };
__global__ void k(int *o) { S s; s.c = W; s.n = M; o[0] = s.c; o[1] = s.n; o[2] = s.c == W; }
int main() { int *d, h[3]; cudaMalloc(&d, sizeof(h)); k<<<1,1>>>(d); cudaMemcpy(h, d, sizeof(h), cudaMemcpyDeviceToHost); printf("%d %d %d\n", h[0], h[1], h[2]); }
"#,
    );
    assert_eq!(out, "3 -1 1\n");
}
