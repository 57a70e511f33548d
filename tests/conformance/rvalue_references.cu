// rvalue references in device code: std::move, std::forward, static_cast<T&&>,
// overloads on & and &&, move constructors and move assignment, forwarding
// references, members of xvalues, and copy elision of returned locals.
// Expected output captured from nvcc 13 (-arch=sm_90) on an H100.
#include <cstdio>
#include <utility>
#include <cuda/std/utility>

struct Tracked {
    int v;
    int copies;
    int moves;
    __device__ Tracked(int x) : v(x), copies(0), moves(0) {}
    __device__ Tracked(const Tracked& o) : v(o.v), copies(o.copies + 1), moves(o.moves) {}
    __device__ Tracked(Tracked&& o) : v(o.v), copies(o.copies), moves(o.moves + 1) { o.v = -1; }
    __device__ Tracked& operator=(const Tracked& o) { v = o.v; copies = o.copies + 1; moves = o.moves; return *this; }
    __device__ Tracked& operator=(Tracked&& o) { v = o.v; copies = o.copies; moves = o.moves + 1; o.v = -2; return *this; }
};

struct Pair { Tracked first; int second; };

__device__ int kind(int&) { return 1; }
__device__ int kind(const int&) { return 2; }
__device__ int kind(int&&) { return 3; }

__device__ int take(Tracked&) { return 10; }
__device__ int take(Tracked&&) { return 20; }

template <class T> __device__ int relay(T&& x) { return kind(std::forward<T>(x)); }
template <class T> __device__ int relay_moved(T&& x) { return kind(std::move(x)); }
template <class T> __device__ Tracked sink(T&& x) { return Tracked(std::forward<T>(x)); }
template <class T> __device__ int relay_cuda_std(T&& x) { return kind(cuda::std::forward<T>(x)); }

__device__ Tracked make(int v) {
    Tracked t(v);
    t.v += 1;
    return t;
}

__device__ int&& as_xvalue(int& x) { return static_cast<int&&>(x); }

__global__ void rvalues(int* out) {
    int i = 0;
    Tracked a(5);
    Tracked b(std::move(a));
    out[i++] = b.v; out[i++] = a.v; out[i++] = b.copies; out[i++] = b.moves;

    Tracked c(b);
    Tracked d(static_cast<Tracked&&>(c));
    out[i++] = c.v; out[i++] = d.v; out[i++] = d.copies; out[i++] = d.moves;

    Tracked e(0);
    e = d;
    out[i++] = e.v; out[i++] = e.copies; out[i++] = e.moves;
    e = std::move(d);
    out[i++] = e.v; out[i++] = d.v; out[i++] = e.moves;

    int x = 7;
    const int cx = 8;
    out[i++] = kind(x); out[i++] = kind(cx); out[i++] = kind(std::move(x)); out[i++] = kind(9);
    out[i++] = kind(static_cast<int&&>(x)); out[i++] = kind(as_xvalue(x));
    out[i++] = relay(x); out[i++] = relay(cx); out[i++] = relay(4); out[i++] = relay(std::move(x));
    out[i++] = relay_moved(x);

    Tracked f(3);
    out[i++] = take(f); out[i++] = take(std::move(f)); out[i++] = take(Tracked(1));
    Tracked g = sink(f);
    out[i++] = g.copies; out[i++] = g.moves; out[i++] = f.v;
    Tracked h = sink(std::move(f));
    out[i++] = h.copies; out[i++] = h.moves; out[i++] = f.v;

    Pair p{Tracked(6), 2};
    Tracked m(std::move(p).first);
    out[i++] = m.v; out[i++] = m.moves; out[i++] = p.first.v;

    Tracked r = make(41);
    out[i++] = r.v; out[i++] = r.copies;

    Tracked s(8);
    Tracked t(cuda::std::move(s));
    out[i++] = t.v; out[i++] = t.moves; out[i++] = s.v;
    out[i++] = relay_cuda_std(x); out[i++] = relay_cuda_std(cuda::std::move(x)); out[i++] = relay_cuda_std(cx);
    out[i++] = -100; // end marker
}

int main() {
    int* d;
    cudaMalloc(&d, 64 * sizeof(int));
    rvalues<<<1, 1>>>(d);
    int h[64];
    cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
    for (int i = 0; i < 64 && h[i] != -100; i++) printf("%d%c", h[i], (i % 8 == 7) ? '\n' : ' ');
    printf("\n");
    return 0;
}
