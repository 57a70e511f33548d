// The <cuda/std/...> headers kernels include, used in device code: limits (constexpr
// numeric_limits), array, tuple, utility (pair, move, forward, swap), complex
// arithmetic, cstdint, cstddef, functional (plus, less, ...), cmath, bit, span,
// type_traits. Expected output from nvcc 13 on an H100.
#include <cstdio>
#include <cuda/std/limits>
#include <cuda/std/array>
#include <cuda/std/tuple>
#include <cuda/std/utility>
#include <cuda/std/complex>
#include <cuda/std/cstdint>
#include <cuda/std/cstddef>
#include <cuda/std/functional>
#include <cuda/std/cmath>
#include <cuda/std/bit>
#include <cuda/std/span>
#include <cuda/std/type_traits>

// numeric_limits is constexpr: usable as template arguments and array bounds.
template <int N> struct Holder {
    int v[N];
};
static_assert(cuda::std::numeric_limits<int>::max() == 2147483647, "int max");
static_assert(cuda::std::numeric_limits<unsigned char>::digits == 8, "uchar digits");
static_assert(cuda::std::is_same<cuda::std::uint64_t, unsigned long long>::value ||
                  cuda::std::is_same<cuda::std::uint64_t, unsigned long>::value,
              "uint64_t");

// (Cuprite treats the result of std::move/forward as an lvalue: overload resolution
// between T&& and const T& of such a result is not tested here; docs/FEATURES.md L22.)
struct Moved {
    int v;
    __device__ Moved(int x) : v(x) {}
};

__device__ int take(const Moved &) { return 1; }
__device__ int take(Moved &&) { return 2; }
template <class T> __device__ int relay(T &&x) { return take(cuda::std::forward<T>(x)); }

template <class Op> __device__ int fold(const int *v, int n, int init, Op op) {
    for (int i = 0; i < n; i++) init = op(init, v[i]);
    return init;
}

__global__ void limits_kernel(long long *o, double *d) {
    Holder<cuda::std::numeric_limits<signed char>::max()> h;
    o[0] = sizeof(h.v) / sizeof(int);
    o[1] = cuda::std::numeric_limits<int>::min();
    o[2] = cuda::std::numeric_limits<unsigned>::max();
    o[3] = cuda::std::numeric_limits<long long>::lowest();
    o[4] = cuda::std::numeric_limits<short>::max();
    o[5] = cuda::std::numeric_limits<float>::digits;
    o[6] = cuda::std::numeric_limits<double>::digits10;
    o[7] = cuda::std::numeric_limits<int>::is_signed + 2 * cuda::std::numeric_limits<unsigned>::is_signed +
           4 * cuda::std::numeric_limits<float>::is_integer + 8 * cuda::std::numeric_limits<float>::has_infinity;
    o[8] = cuda::std::numeric_limits<unsigned short>::max();
    o[9] = cuda::std::numeric_limits<cuda::std::int8_t>::min();
    o[10] = cuda::std::numeric_limits<float>::max_exponent;
    o[11] = cuda::std::numeric_limits<double>::min_exponent;
    o[12] = cuda::std::numeric_limits<char>::is_specialized;
    o[13] = cuda::std::numeric_limits<bool>::max();
    d[0] = cuda::std::numeric_limits<float>::max();
    d[1] = cuda::std::numeric_limits<float>::min();
    d[2] = cuda::std::numeric_limits<float>::lowest();
    d[3] = cuda::std::numeric_limits<float>::epsilon();
    d[4] = cuda::std::numeric_limits<double>::epsilon();
    d[5] = cuda::std::numeric_limits<double>::max();
    d[6] = cuda::std::numeric_limits<float>::infinity();
    d[7] = cuda::std::numeric_limits<double>::quiet_NaN() != cuda::std::numeric_limits<double>::quiet_NaN();
    d[8] = cuda::std::numeric_limits<float>::denorm_min();
    d[9] = cuda::std::numeric_limits<double>::min();
}

__global__ void containers_kernel(int *o) {
    int k = 0;
    cuda::std::array<int, 5> a = {{5, 3, 9, 1, 7}};
    int s = 0;
    for (int x : a) s += x;
    o[k++] = s;
    o[k++] = (int)a.size();
    o[k++] = a.front() * 10 + a.back();
    o[k++] = a[2] + a[3] + *a.data();
    cuda::std::array<int, 5> b;
    b.fill(2);
    o[k++] = b[0] + b[4];
    o[k++] = (a == b) + 2 * (a != b);
    int *p = a.begin();
    o[k++] = (int)(a.end() - p);

    cuda::std::pair<int, float> pr = cuda::std::make_pair(4, 2.5f);
    o[k++] = pr.first + (int)(pr.second * 2);
    cuda::std::pair<int, int> q(1, 2), r(1, 3);
    o[k++] = (q < r) + 2 * (q == r);
    int x = 7, y = 9;
    cuda::std::swap(x, y);
    o[k++] = x * 10 + y;

    cuda::std::tuple<int, double, char> t = cuda::std::make_tuple(3, 1.5, 'a');
    o[k++] = cuda::std::get<0>(t) + (int)(cuda::std::get<1>(t) * 2) + cuda::std::get<2>(t);
    cuda::std::get<0>(t) = 40;
    o[k++] = cuda::std::get<0>(t);
    o[k++] = (int)cuda::std::tuple_size<cuda::std::tuple<int, int, int, int>>::value;
    cuda::std::tuple<int, int> t2(11, 12);
    o[k++] = cuda::std::get<0>(t2) * 100 + cuda::std::get<1>(t2);

    Moved m(5);
    o[k++] = relay(m) + cuda::std::move(m).v * 10;
    int mv = cuda::std::move(x) + cuda::std::forward<int>(y) * 100;
    o[k++] = mv;

    int v[6] = {4, -2, 8, 3, 5, 1};
    o[k++] = fold(v, 6, 0, cuda::std::plus<int>());
    o[k++] = fold(v, 6, 1, cuda::std::multiplies<int>());
    o[k++] = fold(v, 6, 100, cuda::std::minus<int>());
    o[k++] = cuda::std::less<int>()(2, 3) + 2 * cuda::std::greater<int>()(2, 3) + 4 * cuda::std::equal_to<int>()(5, 5) +
             8 * cuda::std::less_equal<int>()(4, 4) + 16 * cuda::std::not_equal_to<int>()(1, 1);
    o[k++] = cuda::std::bit_and<unsigned>()(12u, 10u) * 100 + cuda::std::bit_or<unsigned>()(12u, 3u);
    o[k++] = cuda::std::negate<int>()(5) + cuda::std::modulus<int>()(17, 5) * 10;

    cuda::std::span<int> sp(v, 6);
    int ss = 0;
    for (int e : sp) ss += e;
    o[k++] = ss * 10 + (int)sp.size();
    o[k++] = sp.subspan(2, 3)[0] + sp.first(2)[1] * 10 + sp.last(1)[0] * 100;

    cuda::std::uint32_t u = 0x00f0f000u;
    o[k++] = cuda::std::popcount(u);
    o[k++] = cuda::std::countl_zero(u);
    o[k++] = cuda::std::countr_zero(u);
    o[k++] = cuda::std::has_single_bit(64u) + 2 * cuda::std::has_single_bit(65u);
    o[k++] = (int)cuda::std::bit_width(1000u);
    o[k++] = (int)cuda::std::bit_ceil(1000u);
    o[k++] = (int)cuda::std::bit_floor(1000u);
    o[k++] = (int)(cuda::std::rotl(0x80000001u, 1));
    o[k++] = (int)(cuda::std::rotr(0x80000001u, 4) >> 16);
    o[k++] = (int)(cuda::std::bit_cast<cuda::std::uint32_t>(1.0f) >> 16);
    o[k++] = cuda::std::countl_one(0xff000000u);
    cuda::std::size_t sz = sizeof(cuda::std::int16_t) + sizeof(cuda::std::uint8_t) * 10 + sizeof(cuda::std::int64_t) * 100;
    cuda::std::ptrdiff_t pd = &v[5] - &v[1];
    o[k++] = (int)sz + (int)pd * 10000;
    o[k++] = (int)sizeof(cuda::std::intptr_t) + 10 * (int)sizeof(cuda::std::uintmax_t);
    o[k++] = cuda::std::is_integral<cuda::std::uint16_t>::value + 2 * cuda::std::is_floating_point<float>::value;
    o[k++] = -99999;
}

__global__ void complex_kernel(double *o) {
    typedef cuda::std::complex<float> cf;
    typedef cuda::std::complex<double> cd;
    int k = 0;
    cf a(3.0f, 4.0f), b(1.0f, -2.0f);
    cf c = a + b;
    o[k++] = c.real();
    o[k++] = c.imag();
    c = a - b;
    o[k++] = c.real();
    o[k++] = c.imag();
    c = a * b;
    o[k++] = c.real();
    o[k++] = c.imag();
    c = cf(4.0f, 2.0f) / cf(1.0f, 1.0f);
    o[k++] = c.real();
    o[k++] = c.imag();
    o[k++] = cuda::std::abs(a);
    o[k++] = cuda::std::norm(a);
    o[k++] = cuda::std::conj(a).imag();
    o[k++] = cuda::std::real(a) + cuda::std::imag(b);
    c = a * 2.0f;
    o[k++] = c.real() + c.imag();
    c = a;
    c += b;
    c *= cf(0.0f, 1.0f);
    o[k++] = c.real();
    o[k++] = c.imag();
    o[k++] = (a == cf(3.0f, 4.0f)) + 2 * (a != b);
    cd z(1.0, 1.0), w(2.0, -1.0);
    cd p = z * w + cd(0.5, 0.0);
    o[k++] = p.real();
    o[k++] = p.imag();
    o[k++] = cuda::std::arg(cd(0.0, 2.0)) * 2;
    cd e = cuda::std::polar(2.0, 0.0);
    o[k++] = e.real();
    o[k++] = cuda::std::abs(cd(-5.0, 12.0));
    o[k++] = cuda::std::sqrt(cd(-4.0, 0.0)).imag();
    o[k++] = cuda::std::sqrt(2.25) + cuda::std::fabs(-1.5) + cuda::std::fmin(3.0, 2.0) + cuda::std::floor(2.5f);
    o[k++] = cuda::std::isnan(cuda::std::numeric_limits<double>::quiet_NaN()) + 2 * cuda::std::isinf(cuda::std::numeric_limits<float>::infinity());
    o[k++] = cuda::std::pow(2.0, 10.0) + cuda::std::exp(0.0) + cuda::std::log(1.0);
    o[k++] = -99999;
}

int main() {
    long long *dl, hl[16];
    double *dd, hd[64];
    int *di, hi[64];
    cudaMalloc(&dl, sizeof hl);
    cudaMalloc(&dd, sizeof hd);
    cudaMalloc(&di, sizeof hi);
    limits_kernel<<<1, 1>>>(dl, dd);
    cudaMemcpy(hl, dl, 14 * sizeof(long long), cudaMemcpyDeviceToHost);
    cudaMemcpy(hd, dd, 10 * sizeof(double), cudaMemcpyDeviceToHost);
    printf("limits:");
    for (int i = 0; i < 14; i++) printf(" %lld", hl[i]);
    printf("\nfloat limits:");
    for (int i = 0; i < 10; i++) printf(" %.9g", hd[i]);
    printf("\n");
    containers_kernel<<<1, 1>>>(di);
    cudaMemcpy(hi, di, sizeof hi, cudaMemcpyDeviceToHost);
    printf("containers:");
    for (int i = 0; i < 64 && hi[i] != -99999; i++) printf(" %d", hi[i]);
    printf("\n");
    complex_kernel<<<1, 1>>>(dd);
    cudaMemcpy(hd, dd, sizeof hd, cudaMemcpyDeviceToHost);
    printf("complex:");
    for (int i = 0; i < 64 && hd[i] != -99999; i++) printf(" %.6g", hd[i]);
    printf("\n");
    printf("done: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 0;
}
