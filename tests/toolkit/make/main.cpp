#include "vecadd.h"
#include <cstdio>

int main() {
    const int n = 4096;
    static float a[n], b[n], c[n];
    for (int i = 0; i < n; ++i) { a[i] = i; b[i] = 2 * i; }
    int err = vecadd(a, b, c, n);
    int bad = 0;
    for (int i = 0; i < n; ++i) bad += c[i] != 3.0f * i;
    std::printf("vecadd: error %d, %d wrong, c[4095] = %.0f\n", err, bad, c[n - 1]);
    return err != 0 || bad != 0;
}
