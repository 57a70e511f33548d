// multi_tu: declarations shared by main.cu, ops.cu and util.cpp.
#pragma once
void fill_sequence(int *p, int n, int start);
long sum_ints(const int *p, int n);
int add_constant_on_device(int *d, int n, int c);
int read_ops_counter();
