#include <cstdio>
#ifndef __CUDACC__
#define __device__
#define __host__
#endif
// Pointers to members: the same program as host C++ (g++) and in a kernel (Cuprite).

struct Point {
  int x, y, z;
  float w;
  __host__ __device__ int sum() const { return x + y + z; }
  __host__ __device__ void shift(int d) { x += d; y += d; z += d; }
  __host__ __device__ void scale(int k) { x *= k; y *= k; z *= k; }
  __host__ __device__ int &at0() { return x; }
};

struct Shape {
  int id;
  __host__ __device__ Shape(int i) : id(i) {}
  __host__ __device__ virtual int area() const { return 0; }
  __host__ __device__ virtual int sides() const { return 0; }
  __host__ __device__ int ident() const { return id; }
};
struct Square : Shape {
  int s;
  __host__ __device__ Square(int i, int side) : Shape(i), s(side) {}
  __host__ __device__ int area() const override { return s * s; }
  __host__ __device__ int sides() const override { return 4; }
};
struct Tri : Shape {
  int b, h;
  __host__ __device__ Tri(int i, int bb, int hh) : Shape(i), b(bb), h(hh) {}
  __host__ __device__ int area() const override { return b * h / 2; }
  __host__ __device__ int sides() const override { return 3; }
};

typedef int Point::*coord_t;
using action_t = void (Point::*)(int);
typedef int (Shape::*query_t)() const;

__device__ coord_t g_coords[3] = {&Point::x, &Point::y, &Point::z};
__device__ query_t g_queries[3];

__host__ __device__ int total(const Point *ps, int n, coord_t c) {
  int s = 0;
  for (int i = 0; i < n; i++) s += ps[i].*c;
  return s;
}

__host__ __device__ void apply_all(Point *ps, int n, action_t a, int arg) {
  for (int i = 0; i < n; i++) (ps[i].*a)(arg);
}

struct Binding {
  action_t act;
  int arg;
};

__host__ __device__ void body() {
  Point p = {1, 2, 3, 0.5f};
  int Point::*pm = &Point::y;
  printf("y via pm %d\n", p.*pm);
  p.*pm = 20;
  Point *pp = &p;
  pp->*pm += 5;
  printf("y now %d\n", p.y);
  float Point::*pw = &Point::w;
  p.*pw *= 4.0f;
  printf("w %.2f\n", p.w);
  int Point::*none = nullptr;
  printf("null %d %d %d\n", (int)(none == nullptr), (int)(pm != nullptr), (int)(pm == &Point::y));
  printf("eq %d %d\n", (int)(pm == &Point::x), (int)(g_coords[1] == pm));
  if (!none && pm) printf("bool ok\n");
  Point ps[3] = {{1, 2, 3, 0}, {4, 5, 6, 0}, {7, 8, 9, 0}};
  for (int c = 0; c < 3; c++) printf("total %d = %d\n", c, total(ps, 3, g_coords[c]));
  const Point &cp = p;
  printf("const read %d\n", cp.*pm);

  action_t a = &Point::shift;
  (p.*a)(10);
  printf("shift %d %d %d\n", p.x, p.y, p.z);
  a = &Point::scale;
  (pp->*a)(2);
  printf("scale %d %d %d\n", p.x, p.y, p.z);
  apply_all(ps, 3, &Point::shift, 100);
  printf("apply_all %d %d %d\n", ps[0].x, ps[1].y, ps[2].z);
  Binding plan[3] = {{&Point::scale, 3}, {&Point::shift, -1}, {nullptr, 0}};
  for (int i = 0; plan[i].act != nullptr; i++) (p.*plan[i].act)(plan[i].arg);
  printf("plan %d %d %d\n", p.x, p.y, p.z);
  int (Point::*s)() const = &Point::sum;
  printf("sum %d\n", (cp.*s)());
  int &(Point::*r)() = &Point::at0;
  (p.*r)() = 42;
  printf("ref %d\n", p.x);
  action_t b = &Point::shift, c = &Point::scale, n = nullptr;
  printf("fn eq %d %d %d %d\n", (int)(a == c), (int)(a == b), (int)(n == nullptr), (int)(b != nullptr));

  g_queries[0] = &Shape::area;
  g_queries[1] = &Shape::sides;
  g_queries[2] = &Shape::ident;
  Square sq(1, 5);
  Tri tr(2, 4, 6);
  Shape sh(3);
  Shape *shapes[3] = {&sq, &tr, &sh};
  for (int i = 0; i < 3; i++)
    for (int q = 0; q < 3; q++) printf("shape %d query %d: %d\n", i, q, (shapes[i]->*g_queries[q])());
  query_t area = &Shape::area;
  printf("virtual on object %d %d\n", (sq.*area)(), (tr.*area)());
  printf("virtual eq %d %d\n", (int)(g_queries[0] == area), (int)(g_queries[1] == area));
  int Shape::*idp = &Shape::id;
  printf("derived data %d\n", tr.*idp);
  int Square::*sidp = idp;
  printf("converted %d\n", sq.*sidp);
  printf("sizes %d %d\n", (int)sizeof(coord_t), (int)sizeof(action_t));
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
