#include <cstdio>
#include <new>
#ifndef __CUDACC__
#define __device__
#define __host__
#endif
// Function pointers, virtual functions, new/delete: the same program as host C++ (g++)
// and in a kernel (Cuprite).

typedef int (*unop)(int);
__host__ __device__ int twice(int x) { return 2 * x; }
__host__ __device__ int square(int x) { return x * x; }
__host__ __device__ int negate(int x) { return -x; }
__host__ __device__ int apply(unop f, int x, int n) {
  for (int i = 0; i < n; i++) x = f(x);
  return x;
}
struct Stage {
  unop fn;
  int repeat;
};

struct Animal {
  int legs;
  __host__ __device__ Animal(int l) : legs(l) { printf("Animal(%d)\n", l); }
  __host__ __device__ virtual ~Animal() { printf("~Animal %d\n", legs); }
  __host__ __device__ virtual int sound() const = 0;
  __host__ __device__ virtual int weight() const { return legs * 10; }
  __host__ __device__ int describe() const { return sound() * 1000 + weight(); }
};
struct Dog : Animal {
  int bark;
  __host__ __device__ Dog(int b) : Animal(4), bark(b) { printf("Dog(%d) sound %d\n", b, sound()); }
  __host__ __device__ ~Dog() override { printf("~Dog %d\n", bark); }
  __host__ __device__ int sound() const override { return bark; }
};
struct Puppy final : Dog {
  __host__ __device__ Puppy() : Dog(2) {}
  __host__ __device__ ~Puppy() { printf("~Puppy\n"); }
  __host__ __device__ int weight() const override { return Dog::weight() / 2 + 1; }
};
struct Bird : Animal {
  __host__ __device__ Bird() : Animal(2) {}
  __host__ __device__ int sound() const override { return 7; }
};

struct Obj {
  int id;
  __host__ __device__ Obj() : id(-1) { printf("Obj()\n"); }
  __host__ __device__ Obj(int i) : id(i) { printf("Obj(%d)\n", i); }
  __host__ __device__ ~Obj() { printf("~Obj %d\n", id); }
};

__host__ __device__ int total(Animal *const *zoo, int n) {
  int s = 0;
  for (int i = 0; i < n; i++) s += zoo[i]->describe();
  return s;
}

__host__ __device__ void body() {
  unop ops[3] = {twice, &square, negate};
  Stage st[2] = {{twice, 3}, {negate, 1}};
  int x = 3;
  for (int k = 0; k < 2; k++)
    for (int r = 0; r < st[k].repeat; r++) x = st[k].fn(x);
  unop none = nullptr;
  unop p = ops[1];
  printf("fp: %d %d %d %d eq %d %d null %d\n", apply(ops[0], 1, 5), (*p)(7), x, apply(negate, 4, 3), ops[1] == square, ops[0] == square, none == nullptr);

  Animal *zoo[3];
  zoo[0] = new Dog(5);
  zoo[1] = new Puppy;
  zoo[2] = new Bird();
  const Animal &ref = *zoo[1];
  printf("virtual: %d %d %d | %d %d | total %d\n", zoo[0]->describe(), zoo[1]->describe(), zoo[2]->describe(), ref.sound(), ref.weight(), total(zoo, 3));
  for (int i = 0; i < 3; i++) delete zoo[i];

  int *one = new int(41);
  int *zeros = new int[5]();
  int *list = new int[3]{7, 8, 9};
  printf("new: %d %d %d\n", *one + 1, zeros[0] + zeros[4], list[0] + list[1] + list[2]);
  delete one;
  delete[] zeros;
  delete[] list;
  Obj *arr = new Obj[3];
  for (int i = 0; i < 3; i++) arr[i].id = 10 + i;
  delete[] arr;
  Obj *o = new Obj(5);
  delete o;
  Obj *nul = nullptr;
  delete nul;
  alignas(Obj) unsigned char buf[sizeof(Obj)];
  Obj *pl = new (buf) Obj(77);
  printf("placement %d %d\n", pl->id, (int)((void *)pl == (void *)buf));
  pl->~Obj();
  alignas(Dog) unsigned char dbuf[sizeof(Puppy)];
  Animal *pa = new (dbuf) Puppy;
  printf("placed virtual %d\n", pa->describe());
  pa->~Animal();
}

#ifdef __CUDACC__
__global__ void kern() { body(); }
#endif

int main() {
#ifdef __CUDACC__
  kern<<<1, 1>>>();
  cudaDeviceSynchronize();
#else
  body();
#endif
  return 0;
}
