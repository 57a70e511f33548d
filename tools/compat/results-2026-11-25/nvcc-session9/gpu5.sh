#!/bin/bash
# compat, session 9: nvcc 13 reference outputs on the H100 (one run call).
R=$(pwd); H=$R/shared-hunt/compat
exec > >(tee $OUT/gpu5.log) 2>&1
nvcc --version | tail -2; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
# 1. conformance mempool_ipc
( SUITE=$H/suite5 OUT=$OUT/capture timeout 60 $R/tools/nvcc-capture.sh mempool_ipc; ls $OUT/capture ) &
# 2. streamOrderedAllocationIPC (as its CMakeLists: the .cu + helper_multiprocess.cpp, -lcuda)
( cd $H/cs/Samples/2_Concepts_and_Techniques/streamOrderedAllocationIPC && nvcc -arch=sm_90 -std=c++17 -I../../../Common -o soaipc streamOrderedAllocationIPC.cu ../../../Common/helper_multiprocess.cpp -lcuda && { timeout 60 ./soaipc >$OUT/soaipc.out 2>&1; echo $? >$OUT/soaipc.rc; } ) &
# 3. BlackScholes_nvrtc
( cd $H/cs/Samples/5_Domain_Specific/BlackScholes_nvrtc && g++ -std=c++17 -O2 -I../../../Common -I$(dirname $(which nvcc))/../include -o bsn BlackScholes.cpp BlackScholes_gold.cpp -L$(dirname $(which nvcc))/../lib64 -lnvrtc -lcuda && { timeout 60 ./bsn >$OUT/bsnvrtc.out 2>&1; echo $? >$OUT/bsnvrtc.rc; } ) &
# 4. NV12toBGRandResize: output images, hashed; the first of each test kept
( cd $H/cs/Samples/5_Domain_Specific/NV12toBGRandResize && nvcc -arch=sm_90 -std=c++17 -I../../../Common -o nv12 bgr_resize.cu nv12_resize.cu nv12_to_bgr_planar.cu resize_convert_main.cpp utils.cu && { timeout 60 ./nv12 >$OUT/nv12.out 2>&1; echo $? >$OUT/nv12.rc; ls -la output/*; md5sum output/*/* >$OUT/nv12.md5; mkdir -p $OUT/nv12; for f in output/t1/*_1.raw output/t2/*_1.raw; do gzip -c $f >$OUT/nv12/$(basename $(dirname $f))_$(basename $f).gz; done; } ) &
# 5. Rodinia huffman (cudaThreadExit = cudaDeviceReset, via the compat header)
( cd $H/rod/huffman && A="-arch=sm_90 -include $H/rod/cuda13_compat.h" && nvcc $A -O3 -c main_test_cu.cu -o main_test_cu.o && g++ -O3 -c stats_logger.cpp -o stats_logger.o && nvcc $A -O3 -c vlc_kernel_sm64huff.cu -o vlc_kernel_sm64huff.o && nvcc $A -O3 -c scan.cu -o scan.o && nvcc $A -O3 -c pack_kernels.cu -o pack_kernels.o && g++ -O3 -c cpuencode.cpp -o cpuencode.o && nvcc $A main_test_cu.o stats_logger.o vlc_kernel_sm64huff.o scan.o pack_kernels.o cpuencode.o -o pavle && { timeout 60 ./pavle $H/rod/test64k.in >$OUT/huffman.out 2>&1; echo $? >$OUT/huffman.rc; } ) &
wait
ls -la $OUT
