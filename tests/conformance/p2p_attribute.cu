// cudaDeviceGetP2PAttribute with one device: a device paired with itself or with a device
// that does not exist, a bad attribute, a null pointer. Expected output: nvcc 13, H100 (one GPU).
#include <cstdio>
int main() {
  int v = -7;
  printf("same %s %d\n", cudaGetErrorName(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 0)), v);
  v = -7;
  printf("other %s %d\n", cudaGetErrorName(cudaDeviceGetP2PAttribute(&v, cudaDevP2PAttrAccessSupported, 0, 1)), v);
  printf("attr0 %s\n", cudaGetErrorName(cudaDeviceGetP2PAttribute(&v, (cudaDeviceP2PAttr)0, 0, 0)));
  printf("null %s\n", cudaGetErrorName(cudaDeviceGetP2PAttribute(nullptr, cudaDevP2PAttrAccessSupported, 0, 0)));
}
