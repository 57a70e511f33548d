#pragma once
#include <cuda_runtime.h>

// Multiplies n floats in device memory by factor (a kernel in the static library).
void scale_on_device(float *d, int n, float factor);
// a*x + y on the device (a kernel in the shared library).
void saxpy_on_device(float a, const float *x, float *y, int n);
