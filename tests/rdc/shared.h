// Declarations shared by the translation units of the separable-compilation test.
#pragma once
struct Params {
  int scale;
  int offset;
};
extern __device__ int bias;
extern __device__ int block_sum(const int *in);
extern __device__ int apply(Params p, int x);
extern __device__ int other_helper();
template <class T> __device__ T twice(T x) { return x + x; }
