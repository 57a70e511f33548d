/* Forced include (-include) for building Rodinia with nvcc 13, the reference: CUDA 12/13
   removed APIs that Rodinia (written for CUDA 4-8) still calls. Only names that do not
   change what a program computes are mapped; texture references (kmeans, leukocyte,
   mummergpu) cannot be, so those programs have no nvcc 13 reference.
   Not used for Cuprite builds. */
#define cudaThreadSynchronize cudaDeviceSynchronize
#define clockRate major       /* printed only (gaussian): filtered out */
#define deviceOverlap asyncEngineCount
#define computeMode major     /* old helper_cuda.h: "not prohibited" (major != 2) */
