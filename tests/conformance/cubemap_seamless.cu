// Cubemap filtering at face edges and corners with cudaTextureDesc::seamlessCubemap off
// and on (linear and point filtering), float texels valued face*100 + y*10 + x.
// Expected output: captured from nvcc 13.0 -arch=sm_90 on an NVIDIA H100 (driver 580.159.04; the run tool).
#include <cstdio>
#include <cuda_runtime.h>

#define CHECK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { printf("%s: %s\n", #x, cudaGetErrorName(e_)); return 1; } } while (0)

__global__ void sampleCube(cudaTextureObject_t t, const float4 *dirs, int n, float *out) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = dirs[i].w < 0 ? texCubemap<float>(t, dirs[i].x, dirs[i].y, dirs[i].z)
                                      : texCubemapLayered<float>(t, dirs[i].x, dirs[i].y, dirs[i].z, (int)dirs[i].w);
}

int main() {
    const int W = 4;
    cudaChannelFormatDesc fd = cudaCreateChannelDesc<float>();
    cudaArray_t cube, cubeL;
    CHECK(cudaMalloc3DArray(&cube, &fd, make_cudaExtent(W, W, 6), cudaArrayCubemap));
    CHECK(cudaMalloc3DArray(&cubeL, &fd, make_cudaExtent(W, W, 12), cudaArrayCubemap | cudaArrayLayered));
    float h[12 * W * W];
    for (int f = 0; f < 12; ++f) for (int y = 0; y < W; ++y) for (int x = 0; x < W; ++x) h[(f * W + y) * W + x] = f * 100 + y * 10 + x;
    cudaMemcpy3DParms p = {};
    p.srcPtr = make_cudaPitchedPtr(h, W * 4, W, W);
    p.dstArray = cube;
    p.extent = make_cudaExtent(W, W, 6);
    p.kind = cudaMemcpyHostToDevice;
    CHECK(cudaMemcpy3D(&p));
    p.dstArray = cubeL;
    p.extent = make_cudaExtent(W, W, 12);
    CHECK(cudaMemcpy3D(&p));

    float4 dirs[400];
    int n = 0;
    float vs[] = {-0.99f, -0.9f, -0.8f, 0.0f, 0.8f, 0.9f, 0.99f};
    for (int axis = 0; axis < 3; ++axis)
        for (int sign = -1; sign <= 1; sign += 2)
            for (float a : vs) for (float b : vs) {
                if (a != 0.0f && b != 0.0f && a != -b && a != b) continue;
                float d[3];
                d[axis] = (float)sign;
                d[(axis + 1) % 3] = a;
                d[(axis + 2) % 3] = b;
                dirs[n++] = make_float4(d[0], d[1], d[2], -1);
            }
    int plain = n;
    for (int i = 0; i < plain; i += 3) { float4 d = dirs[i]; d.w = 1; dirs[n++] = d; }
    float4 *dd; float *dout;
    CHECK(cudaMalloc(&dd, n * sizeof(float4)));
    CHECK(cudaMalloc(&dout, n * sizeof(float)));
    CHECK(cudaMemcpy(dd, dirs, n * sizeof(float4), cudaMemcpyHostToDevice));
    float res[400];
    for (int seamless = 0; seamless < 2; ++seamless)
        for (int filter = 1; filter >= 0; --filter) {
            cudaResourceDesc rd = {};
            rd.resType = cudaResourceTypeArray;
            cudaTextureDesc td = {};
            td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
            td.filterMode = (cudaTextureFilterMode)filter;
            td.readMode = cudaReadModeElementType;
            td.normalizedCoords = 1;
            td.seamlessCubemap = seamless;
            cudaTextureObject_t t, tL;
            rd.res.array.array = cube;
            CHECK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
            rd.res.array.array = cubeL;
            CHECK(cudaCreateTextureObject(&tL, &rd, &td, nullptr));
            sampleCube<<<(plain + 127) / 128, 128>>>(t, dd, plain, dout);
            sampleCube<<<1, 128>>>(tL, dd + plain, n - plain, dout + plain);
            CHECK(cudaMemcpy(res, dout, n * sizeof(float), cudaMemcpyDeviceToHost));
            cudaTextureDesc got = {};
            cudaGetTextureObjectTextureDesc(&got, t);
            printf("seamless %d filter %d (read back %d):\n", seamless, filter, got.seamlessCubemap);
            for (int i = 0; i < n; ++i)
                printf("(%g,%g,%g,%g)=%.9g%s", dirs[i].x, dirs[i].y, dirs[i].z, dirs[i].w, res[i], i % 4 == 3 ? "\n" : " ");
            printf("\n");
            cudaDestroyTextureObject(t);
            cudaDestroyTextureObject(tL);
        }
    return 0;
}
