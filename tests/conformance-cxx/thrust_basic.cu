// Thrust on device vectors: construction from a host vector, transform with a functor,
// sort, reduce, sequence and copy back. Expected output captured with nvcc 13 on an H100.
#include <cstdio>
#include <thrust/device_vector.h>
#include <thrust/host_vector.h>
#include <thrust/sort.h>
#include <thrust/reduce.h>
#include <thrust/transform.h>
#include <thrust/sequence.h>
#include <thrust/functional.h>

struct square_plus_one {
    __host__ __device__ int operator()(int v) const { return v * v + 1; }
};

int main()
{
    thrust::host_vector<int> h(16);
    for (int i = 0; i < 16; ++i) h[i] = (i * 7919) % 23 - 11;
    thrust::device_vector<int> d = h;
    thrust::device_vector<int> sq(16);
    thrust::transform(d.begin(), d.end(), sq.begin(), square_plus_one());
    thrust::sort(d.begin(), d.end());
    int sum = thrust::reduce(d.begin(), d.end());
    int sqsum = thrust::reduce(sq.begin(), sq.end(), 0, thrust::plus<int>());
    thrust::host_vector<int> back = d;
    for (int i = 0; i < 16; ++i) printf("%d ", back[i]);
    printf("\nsum %d sqsum %d\n", sum, sqsum);
    thrust::device_vector<float> f(8);
    thrust::sequence(f.begin(), f.end(), 1.0f, 0.5f);
    float fs = thrust::reduce(f.begin(), f.end(), 0.0f);
    printf("fsum %g\n", fs);
    return 0;
}
