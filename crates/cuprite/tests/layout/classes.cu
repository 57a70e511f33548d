// Class layout: sizeof/alignof/offsetof of classes computed by the device compiler (in a
// kernel) against the host compiler's (g++) for the same definitions. Prints the
// mismatches and a summary.
#include <cstdio>
#include <cstddef>

struct Pad { char c; double d; short s; };
struct Base { int a; char b; };                       // POD base: tail padding not reused
struct Derived : Base { char c; };
class NonPodBase { public: __host__ __device__ NonPodBase() {} int a; char b; };
struct ReuseTail : NonPodBase { char c; };            // Itanium: c in the base's tail padding
struct ReuseTail2 : NonPodBase { short s; char c; };
struct Empty {};
struct EmptyBase : Empty { int x; };
struct WithEmpty { Empty e; int x; };
struct alignas(16) Al16 { char c; };
struct HasAl { char c; Al16 a; char d; };
struct FieldAl { char c; alignas(8) int x; char d; };
struct Outer { struct Inner { char c; int i; } in; char tail; Inner arr[2]; };
union U { char c[5]; int i; short s; };
struct WithUnion { char c; U u; double d; };
struct Bits { unsigned a : 3; unsigned b : 7; unsigned char c; unsigned d : 20; };
struct BitsMixed { char c; int x : 4; long long y : 33; short z; };
struct Vecs { char c; float4 f; int2 i; double2 d; };
struct Deep : Derived { double d; };
struct Arr { char c[3]; short s[3]; };
struct __align__(8) CudaAl { short s; };
struct Multi { bool b; long l; char c; long long ll; float f; };
struct Statics { static const int k = 3; static __device__ int shared_count; char c; int i; };
struct Virt { __host__ __device__ virtual ~Virt() {} char c; };
struct VirtDerived : Virt { char d; int e; };
struct alignas(8) AlBase { char c; };
struct AlDerived : AlBase { char d; };

#define TYPES(X) X(Pad) X(Base) X(Derived) X(NonPodBase) X(ReuseTail) X(ReuseTail2) X(Empty) \
  X(EmptyBase) X(WithEmpty) X(Al16) X(HasAl) X(FieldAl) X(Outer) X(Outer::Inner) X(U) X(WithUnion) \
  X(Bits) X(BitsMixed) X(Vecs) X(Deep) X(Arr) X(CudaAl) X(Multi) \
  X(Statics) X(Virt) X(VirtDerived) X(AlBase) X(AlDerived)
#define FIELDS(X) X(Pad, d) X(Pad, s) X(Derived, c) X(ReuseTail, c) X(ReuseTail2, s) X(ReuseTail2, c) \
  X(EmptyBase, x) X(WithEmpty, x) X(HasAl, a) X(HasAl, d) X(FieldAl, x) X(FieldAl, d) X(Outer, tail) \
  X(Outer, arr) X(Outer::Inner, i) X(WithUnion, u) X(WithUnion, d) X(Bits, c) X(BitsMixed, z) \
  X(Vecs, f) X(Vecs, i) X(Vecs, d) X(Deep, d) X(Arr, s) X(Multi, l) X(Multi, ll) X(Multi, f) \
  X(Statics, c) X(Statics, i) X(Virt, c) X(VirtDerived, d) X(VirtDerived, e) X(AlDerived, d)

#define SZ(T) (long)sizeof(T), (long)alignof(T),
#define OFF(T, f) (long)offsetof(T, f),
#define NAME_T(T) #T, #T,
#define NAME_F(T, f) #T "::" #f,
#define COUNT_T(T) +2
#define COUNT_F(T, f) +1
const int N = 0 TYPES(COUNT_T) FIELDS(COUNT_F);

__global__ void device_layout(long *out) {
  long v[] = {TYPES(SZ) FIELDS(OFF)};
  for (int i = 0; i < N; i++) out[i] = v[i];
}

int main() {
  long host[] = {TYPES(SZ) FIELDS(OFF)};
  const char *names[] = {TYPES(NAME_T) FIELDS(NAME_F)};
  long *d, dev[N];
  cudaMalloc(&d, sizeof(dev));
  device_layout<<<1, 1>>>(d);
  cudaMemcpy(dev, d, sizeof(dev), cudaMemcpyDeviceToHost);
  int bad = 0;
  for (int i = 0; i < N; i++) {
    if (host[i] != dev[i]) {
      printf("mismatch: %s: host %ld device %ld\n", names[i], host[i], dev[i]);
      bad++;
    }
  }
  printf("layout: %d values, %d mismatches\n", N, bad);
  return bad != 0;
}
