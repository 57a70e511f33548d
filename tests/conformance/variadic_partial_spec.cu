// Variadic class-template partial specializations (`template <class T, class... Ts>
// struct S<T, Ts...>`), used in device code: recursion over a pack, a specialization
// for an empty pack, and one that matches a pack nested in another template.
#include <cstdio>
#include <cuda_runtime.h>

template <class... Ts> struct Sum;
template <> struct Sum<> {
    __device__ static int size() { return 0; }
    __device__ static double total(const double *) { return 0.0; }
};
template <class T, class... Ts> struct Sum<T, Ts...> {
    __device__ static int size() { return (int)sizeof(T) + Sum<Ts...>::size(); }
    __device__ static double total(const double *v) { return v[0] * (double)sizeof(T) + Sum<Ts...>::total(v + 1); }
};

template <class... Ts> struct List {};
template <class L> struct Length;
template <class... Ts> struct Length<List<Ts...>> { static constexpr int value = sizeof...(Ts); };
template <class L> struct Front;
template <class T, class... Ts> struct Front<List<T, Ts...>> { using type = T; };

template <int N, class... Ts> struct Nth;
template <class T, class... Ts> struct Nth<0, T, Ts...> { using type = T; };
template <int N, class T, class... Ts> struct Nth<N, T, Ts...> { using type = typename Nth<N - 1, Ts...>::type; };

__global__ void k(const double *v, double *out, int *iout)
{
    iout[0] = Sum<char, short, int, double>::size();
    iout[1] = Sum<>::size();
    iout[2] = Length<List<int, float, char>>::value;
    iout[3] = (int)sizeof(typename Front<List<double, char>>::type);
    iout[4] = (int)sizeof(typename Nth<2, char, short, long long, int>::type);
    out[0] = Sum<char, short, int, double>::total(v);
    typename Nth<1, int, float, double>::type f = 1.5f;
    out[1] = f / 3;
}

int main()
{
    double hv[4] = {1.0, 2.0, 3.0, 4.0}, *v, *out, ho[2];
    int *iout, hi[5];
    cudaMalloc(&v, sizeof hv); cudaMalloc(&out, sizeof ho); cudaMalloc(&iout, sizeof hi);
    cudaMemcpy(v, hv, sizeof hv, cudaMemcpyHostToDevice);
    k<<<1, 1>>>(v, out, iout);
    cudaMemcpy(ho, out, sizeof ho, cudaMemcpyDeviceToHost);
    cudaMemcpy(hi, iout, sizeof hi, cudaMemcpyDeviceToHost);
    printf("sizes %d %d length %d front %d nth %d\n", hi[0], hi[1], hi[2], hi[3], hi[4]);
    printf("total %.1f third %.9g\n", ho[0], ho[1]);
    return 0;
}
