// ptx_module_load: a PTX module written as nvcc writes PTX (.version, .target, .entry with
// .param, .reg ranges, ld.param, cvta.to.global, mul.wide, predicated branches, a .func
// called with the PTX calling sequence, module-scope .shared and .global variables,
// bar.sync, atom) loaded from text with cuModuleLoadData and run with cuLaunchKernel;
// cuModuleGetGlobal reads the .global variable.
// Expected output: captured from nvcc 13.0 (V13.0.88) -arch=sm_90 on an NVIDIA H100, driver 580.159.04 (tools/nvcc-capture.sh).
#include <cuda.h>
#include <cstdio>

static const char *ptx = R"PTX(
.version 8.0
.target sm_80
.address_size 64

	// module-scope variables
.global .align 4 .u32 total;
.shared .align 4 .b8 block_sum_tile[1024];

.func  (.param .b32 func_retval0) square(
	.param .b32 square_param_0
)
{
	.reg .b32 	%r<3>;

	ld.param.u32 	%r1, [square_param_0];
	mul.lo.s32 	%r2, %r1, %r1;
	st.param.b32 	[func_retval0+0], %r2;
	ret;
}

.visible .entry scale_add(
	.param .u64 scale_add_param_0,
	.param .u64 scale_add_param_1,
	.param .f32 scale_add_param_2,
	.param .u32 scale_add_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<6>;
	.reg .f32 	%f<4>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [scale_add_param_0];
	ld.param.u64 	%rd2, [scale_add_param_1];
	ld.param.f32 	%f1, [scale_add_param_2];
	ld.param.u32 	%r2, [scale_add_param_3];
	mov.u32 	%r3, %ctaid.x;
	mov.u32 	%r4, %ntid.x;
	mov.u32 	%r5, %tid.x;
	mad.lo.s32 	%r1, %r3, %r4, %r5;
	setp.ge.s32 	%p1, %r1, %r2;
	@%p1 bra 	$L__BB0_2;

	cvta.to.global.u64 	%rd3, %rd1;
	cvta.to.global.u64 	%rd4, %rd2;
	mul.wide.s32 	%rd5, %r1, 4;
	add.s64 	%rd6, %rd3, %rd5;
	ld.global.f32 	%f2, [%rd6];
	add.s64 	%rd7, %rd4, %rd5;
	ld.global.f32 	%f3, [%rd7];
	fma.rn.f32 	%f3, %f2, %f1, %f3;
	st.global.f32 	[%rd7], %f3;

$L__BB0_2:
	ret;
}

.visible .entry block_sum(
	.param .u64 block_sum_param_0,
	.param .u64 block_sum_param_1
)
{
	.reg .pred 	%p<4>;
	.reg .b32 	%r<16>;
	.reg .b64 	%rd<8>;

	ld.param.u64 	%rd1, [block_sum_param_0];
	ld.param.u64 	%rd2, [block_sum_param_1];
	mov.u32 	%r1, %tid.x;
	mov.u32 	%r2, %ctaid.x;
	mov.u32 	%r3, %ntid.x;
	mad.lo.s32 	%r4, %r2, %r3, %r1;
	cvta.to.global.u64 	%rd3, %rd1;
	mul.wide.s32 	%rd4, %r4, 4;
	add.s64 	%rd5, %rd3, %rd4;
	ld.global.u32 	%r5, [%rd5];
	{ // callseq 0, 0
	.param .b32 param0;
	st.param.b32 	[param0+0], %r5;
	.param .b32 retval0;
	call.uni (retval0),
	square,
	(
	param0
	);
	ld.param.b32 	%r6, [retval0+0];
	} // callseq 0
	shl.b32 	%r7, %r1, 2;
	mov.u32 	%r8, block_sum_tile;
	add.s32 	%r9, %r8, %r7;
	st.shared.u32 	[%r9], %r6;
	bar.sync 	0;
	shr.u32 	%r10, %r3, 1;

$L__BB1_1:
	setp.eq.s32 	%p1, %r10, 0;
	@%p1 bra 	$L__BB1_4;
	setp.ge.u32 	%p2, %r1, %r10;
	@%p2 bra 	$L__BB1_3;
	shl.b32 	%r11, %r10, 2;
	add.s32 	%r12, %r9, %r11;
	ld.shared.u32 	%r13, [%r12];
	ld.shared.u32 	%r14, [%r9];
	add.s32 	%r15, %r14, %r13;
	st.shared.u32 	[%r9], %r15;

$L__BB1_3:
	bar.sync 	0;
	shr.u32 	%r10, %r10, 1;
	bra.uni 	$L__BB1_1;

$L__BB1_4:
	setp.ne.s32 	%p3, %r1, 0;
	@%p3 bra 	$L__BB1_5;
	ld.shared.u32 	%r13, [block_sum_tile];
	cvta.to.global.u64 	%rd6, %rd2;
	mul.wide.u32 	%rd7, %r2, 4;
	add.s64 	%rd6, %rd6, %rd7;
	st.global.u32 	[%rd6], %r13;
	atom.global.add.u32 	%r14, [total], %r13;

$L__BB1_5:
	ret;
}
)PTX";

static const char *name(CUresult r) {
  const char *s = nullptr;
  cuGetErrorName(r, &s);
  return s ? s : "(null)";
}

#define CK(x)                                                                 \
  do {                                                                        \
    CUresult r_ = (x);                                                        \
    if (r_ != CUDA_SUCCESS) {                                                 \
      printf("line %d: %s failed: %s\n", __LINE__, #x, name(r_));             \
      return 1;                                                               \
    }                                                                         \
  } while (0)

int main() {
  CUdevice dev;
  CUcontext ctx;
  CUmodule mod;
  CUfunction scale_add, block_sum;
  CK(cuInit(0));
  CK(cuDeviceGet(&dev, 0));
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  CK(cuModuleLoadData(&mod, ptx));
  CK(cuModuleGetFunction(&scale_add, mod, "scale_add"));
  CK(cuModuleGetFunction(&block_sum, mod, "block_sum"));
  CUfunction missing;
  printf("missing function: %s\n", name(cuModuleGetFunction(&missing, mod, "nope")));

  const unsigned n = 1000;
  float hx[n], hy[n];
  for (unsigned i = 0; i < n; i++) { hx[i] = i * 0.5f; hy[i] = 1000.0f - i; }
  CUdeviceptr dx, dy;
  CK(cuMemAlloc(&dx, sizeof(hx)));
  CK(cuMemAlloc(&dy, sizeof(hy)));
  CK(cuMemcpyHtoD(dx, hx, sizeof(hx)));
  CK(cuMemcpyHtoD(dy, hy, sizeof(hy)));
  float a = 3.0f;
  unsigned count = n;
  void *args[] = {&dx, &dy, &a, &count};
  CK(cuLaunchKernel(scale_add, (n + 127) / 128, 1, 1, 128, 1, 1, 0, 0, args, nullptr));
  CK(cuCtxSynchronize());
  CK(cuMemcpyDtoH(hy, dy, sizeof(hy)));
  printf("scale_add: y[0]=%g y[1]=%g y[999]=%g\n", hy[0], hy[1], hy[999]);

  const unsigned blocks = 4, threads = 256;
  unsigned hv[blocks * threads], hs[blocks];
  for (unsigned i = 0; i < blocks * threads; i++) hv[i] = i % 10;
  CUdeviceptr dv, ds, dtotal;
  size_t total_bytes = 0;
  CK(cuMemAlloc(&dv, sizeof(hv)));
  CK(cuMemAlloc(&ds, sizeof(hs)));
  CK(cuMemcpyHtoD(dv, hv, sizeof(hv)));
  CK(cuModuleGetGlobal(&dtotal, &total_bytes, mod, "total"));
  unsigned zero = 0;
  CK(cuMemcpyHtoD(dtotal, &zero, 4));
  void *args2[] = {&dv, &ds};
  CK(cuLaunchKernel(block_sum, blocks, 1, 1, threads, 1, 1, 0, 0, args2, nullptr));
  CK(cuCtxSynchronize());
  CK(cuMemcpyDtoH(hs, ds, sizeof(hs)));
  unsigned total = 0;
  CK(cuMemcpyDtoH(&total, dtotal, 4));
  printf("block_sum: %u %u %u %u total %u (global of %zu bytes)\n", hs[0], hs[1], hs[2], hs[3], total, total_bytes);
  CK(cuModuleUnload(mod));
  CK(cuDevicePrimaryCtxRelease(dev));
  printf("done\n");
  return 0;
}
