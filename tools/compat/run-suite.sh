#!/usr/bin/env bash
# Builds and runs the programs of a real-world CUDA suite (Rodinia's CUDA programs, or
# NVIDIA's cuda-samples) with a given compiler, and compares two such runs.
#
#   tools/compat/run-suite.sh gen     SUITE SRC            generate the inputs (python3)
#   tools/compat/run-suite.sh run     SUITE SRC RESULTS [NAME...]
#   tools/compat/run-suite.sh compare SUITE RESULTS_A RESULTS_B   (A = Cuprite, B = nvcc)
#   tools/compat/run-suite.sh list    SUITE
#   tools/compat/run-suite.sh refilter SUITE RESULTS      re-apply the table's filters
#
# (The other mode, cuda-samples each configured and built by CMake with its own
# CMakeLists.txt and run with test_args.json, is tools/compat/cmake-samples.py; it reuses
# this script's cuda-samples filters and tolerances and compare.py.)
#
# SUITE is `rodinia` or `cuda-samples`. SRC is a work tree of the suite, extracted
# outside this repository (Rodinia: the directory holding cuda/ common/ data/;
# cuda-samples: the directory holding Samples/ and Common/). The suites' code is never
# copied into Cuprite's repository.
#
# Environment: NVCC (default nvcc; e.g. NVCC=target/release/cuprite), ARCH (default
# -arch=sm_90), CC (gcc), CXX (g++), JOBS (parallel builds/runs, default nproc),
# RUN_TIMEOUT (seconds per program run, default 120), BUILD_TIMEOUT (default 300).
#
# nvcc 13 (the reference) no longer has cudaThreadSynchronize, texture references, and
# cudaDeviceProp's clockRate, deviceOverlap and computeMode, which Rodinia uses; build
# the Rodinia reference with
#   ARCH="-arch=sm_90 -include $PWD/tools/compat/harness/cuda13_compat.h"
# (it maps the first ones to their replacements; texture programs have no reference).
#
# `run` builds every program in a private copy of its directory (WORK, default a temp
# dir), runs it with the fixed arguments and inputs of the table below, and writes into
# RESULTS: NAME.build.log, NAME.build.rc, NAME.stdout, NAME.stderr, NAME.rc, NAME.files
# (the output files the program writes, when the table names any) and NAME.out, the
# comparable output: stdout + output files, passed through the table's filter (which
# removes timings, device names and other lines that legitimately differ).
#
# `compare` prints one line per program: built / ran / passed, with the reason. Numbers
# are compared with the table's tolerance: `exact`, or `rel=R` (relative, with an
# absolute floor of R too) for programs whose floating-point output legitimately
# differs in the last digits (fused multiply-add, fast-math intrinsics, summation order
# of atomics).
#
# The table: one line per program,
#   NAME ~ DIR ~ BUILD ~ RUN ~ OUTFILES ~ FILTER ~ TOL   (fields separated by ~)
# DIR is relative to SRC; BUILD and RUN are shell commands run inside the copy of DIR,
# with $NVCC $ARCH $CC $CXX $D (= the suite's data/input directory) set; OUTFILES is a
# space-separated list of files (relative to DIR) to append to the output; FILTER is a
# sed script applied to the output (after the suite's default filter); TOL as above.
# A RUN of the form `SKIP: reason` builds the program but does not run it.
set -u
HERE=$(cd "$(dirname "$0")" && pwd)
NVCC=${NVCC:-nvcc}
ARCH=${ARCH:--arch=sm_90}
CC=${CC:-gcc}
CXX=${CXX:-g++}
JOBS=${JOBS:-$(nproc)}
RUN_TIMEOUT=${RUN_TIMEOUT:-120}
BUILD_TIMEOUT=${BUILD_TIMEOUT:-300}

# Default filters: lines with timings and device names.
RODINIA_FILTER='/[Tt]ime\|[Ss]econds\|[ (]ms\b\|msec\|GFLOP\|Throughput\|TOOK\| s, *[0-9.]* % :\|^ *[0-9.]* s$/d'
SAMPLES_FILTER='/[Tt]ime\b\|[Tt]ime[ =:(]\|[Tt]iming\|[Tt]hroughput\|GB\/s\|[Gg]flop\|GFLOP\|msec\|[0-9] ms\b\|(ms)\|[Ss]econds\|[Bb]andwidth\|MOptions\/s\|[Ss]amples\/s\|GPU Device\|CUDA Device\|Device [0-9]\|device [0-9]:\|> Using\|[Cc]ompute [Cc]apability\|SM [0-9]\.[0-9]\|CUDA [Dd]river\|Runtime Version\|multiprocessors\|Elements\/s\|[Kk]eys\/s\|MPoints\|Gcells\|Mcells\|MP(s)\|[Mm]ulti-\?[Pp]rocessor/d'

# Device names and input paths differ by construction: replaced by GPUNAME and DATA/.
NAME_FILTER='s/NVIDIA H100 80GB HBM3/GPUNAME/g; s/NVIDIA H[12]00[A-Za-z0-9 ]*/GPUNAME/g; s/Cuprite CPU device ([^)]*)/GPUNAME/g; s|/[^ ]*/data/|DATA/|g'

rodinia_table() {
cat <<'EOF'
b+tree~cuda/b+tree~for f in main util/timer/timer util/num/num; do $CC -O3 -c $f.c -o $f.o || exit 1; done; for f in kernel/kernel_gpu_cuda_wrapper kernel/kernel_gpu_cuda_wrapper_2 util/cuda/cuda; do $NVCC $ARCH -O3 -c $f.cu -o $f.o || exit 1; done; $NVCC $ARCH main.o kernel/*.o util/*/*.o -lm -o b+tree.out~./b+tree.out file $D/b+tree/mil.txt command $D/b+tree/command.txt~output.txt~/took/d;s/^.*Getting input/Getting input/;/^\(> *\)*$/d~exact
backprop~cuda/backprop~for f in backprop facetrain imagenet; do $CC -O2 -c $f.c -o $f.o || exit 1; done; $NVCC $ARCH -O2 -c backprop_cuda.cu -o backprop_cuda.o && $CC -O2 -I. -c $H/backprop_dump.c -o backprop_dump.o && $NVCC $ARCH backprop.o facetrain.o imagenet.o backprop_cuda.o backprop_dump.o -Xlinker --wrap=bpnn_free -lm -o backprop~./backprop 65536~~~rel=1e-4
bfs~cuda/bfs~$NVCC $ARCH bfs.cu -o bfs.out -I../util -DTIMING~./bfs.out $D/bfs/graph4096.txt~result.txt~/^Init:\|^MemAlloc:\|^HtoD:\|^Exec:\|^DtoH:\|^Close:\|^Total:/d~exact
cfd-euler3d~cuda/cfd~$NVCC $ARCH -O2 euler3d.cu -o euler3d -I../hybridsort~./euler3d $D/cfd/grid.domn~density momentum density_energy~/^Name:/d;/per iteration/d~rel=1e-3
cfd-euler3d_double~cuda/cfd~$NVCC $ARCH -O3 euler3d_double.cu -o euler3d_double -I../hybridsort~./euler3d_double $D/cfd/grid.domn~density momentum density_energy~/^Name:/d;/per iteration/d~rel=1e-6
cfd-pre_euler3d~cuda/cfd~$NVCC $ARCH -O3 pre_euler3d.cu -o pre_euler3d -I../hybridsort~./pre_euler3d $D/cfd/grid.domn~density momentum density_energy~/^Name:/d;/per iteration/d~rel=1e-3
cfd-pre_euler3d_double~cuda/cfd~$NVCC $ARCH -O3 pre_euler3d_double.cu -o pre_euler3d_double -I../hybridsort~./pre_euler3d_double $D/cfd/grid.domn~density momentum density_energy~/^Name:/d;/per iteration/d~rel=1e-6
dwt2d~cuda/dwt2d~$NVCC $ARCH -I. main.cu dwt.cu components.cu dwt_cuda/fdwt53.cu dwt_cuda/fdwt97.cu dwt_cuda/common.cu dwt_cuda/rdwt97.cu dwt_cuda/rdwt53.cu -o dwt2d~cp $D/dwt2d/rgb.bmp ../../data/dwt2d/ 2>/dev/null; ./dwt2d rgb.bmp -d 64x64 -f -5 -l 3 && ./dwt2d rgb.bmp -d 64x64 -r -5 -l 3 -o rgb.rev~rgb.bmp.dwt.r rgb.bmp.dwt.g rgb.bmp.dwt.b rgb.rev.r rgb.rev.g rgb.rev.b~/^Using device/d~rel=1e-4
gaussian~cuda/gaussian~$NVCC $ARCH gaussian.cu -o gaussian~./gaussian -s 64 -q; ./gaussian -f $D/gaussian/matrix16.txt~~/Total Device found/,/Number of Multi/d~rel=1e-4
heartwall~cuda/heartwall~(cd AVI && $CC -O3 -c avilib.c -o avilib.o && $CC -O3 -c avimod.c -o avimod.o) && $NVCC $ARCH main.cu -I./AVI -c -O3 -o main.o && $NVCC $ARCH main.o AVI/avilib.o AVI/avimod.o -lm -o heartwall~SKIP: needs an AVI video (test.avi) that is not generated; build only~result.txt~~rel=1e-4
hotspot~cuda/hotspot~$NVCC $ARCH hotspot.cu -o hotspot~./hotspot 64 2 4 $D/hotspot/temp_64 $D/hotspot/power_64 output.out~output.out~~rel=1e-5
hotspot3D~cuda/hotspot3D~$NVCC $ARCH -g -G 3D.cu -o 3D~./3D 64 8 10 $D/hotspot3D/power_64x8 $D/hotspot3D/temp_64x8 output.out~output.out~/^Time:/d~rel=1e-5
huffman~cuda/huffman~$NVCC $ARCH -O3 -c main_test_cu.cu -o main_test_cu.o && $CXX -O3 -c stats_logger.cpp -o stats_logger.o && $NVCC $ARCH -O3 -c vlc_kernel_sm64huff.cu -o vlc_kernel_sm64huff.o && $NVCC $ARCH -O3 -c scan.cu -o scan.o && $NVCC $ARCH -O3 -c pack_kernels.cu -o pack_kernels.o && $CXX -O3 -c cpuencode.cpp -o cpuencode.o && $NVCC $ARCH main_test_cu.o stats_logger.o vlc_kernel_sm64huff.o scan.o pack_kernels.o cpuencode.o -o pavle~./pavle $D/huffman/test64k.in~~/[Tt]ime\|msec/d~exact
hybridsort~cuda/hybridsort~$NVCC $ARCH -DVERIFY -DOUTPUT bucketsort.cu mergesort.cu main.cu -o hybridsort~./hybridsort r~hybridoutput.txt~/[Tt]ime/d;/[Tt]imer/d~exact
kmeans~cuda/kmeans~for f in cluster getopt kmeans kmeans_clustering rmse; do $CC -O2 -fopenmp -c $f.c -o $f.o || exit 1; done; $NVCC $ARCH -O2 -c kmeans_cuda.cu -o kmeans_cuda.o && $NVCC $ARCH cluster.o getopt.o kmeans.o kmeans_clustering.o kmeans_cuda.o rmse.o -lm -lgomp -o kmeans~./kmeans -o -i $D/kmeans/points1k.txt -m 5 -n 5~~/[Tt]ime/d~rel=1e-4
lavaMD~cuda/lavaMD~for f in main util/num/num util/timer/timer; do $CC -DOUTPUT -O3 -fopenmp -c $f.c -o $f.o || exit 1; done; for f in kernel/kernel_gpu_cuda_wrapper util/device/device; do $NVCC $ARCH -DOUTPUT -O3 -c $f.cu -o $f.o || exit 1; done; $NVCC $ARCH main.o kernel/kernel_gpu_cuda_wrapper.o util/num/num.o util/timer/timer.o util/device/device.o -lm -lgomp -o lavaMD~LD_PRELOAD=$FIXTIME ./lavaMD -boxes1d 4~result.txt~/[0-9]\.[0-9]* s,/d~rel=1e-4
leukocyte~cuda/leukocyte~(cd meschach_lib && bash ./configure --with-all >/dev/null 2>&1; make -s all >/dev/null 2>&1; ls meschach.a) && cd CUDA && for f in detect_main avilib find_ellipse track_ellipse misc_math; do $CC -O3 -I../meschach_lib -c $f.c -o $f.o || exit 1; done; $NVCC $ARCH -O3 -c find_ellipse_kernel.cu -o find_ellipse_kernel.o && $NVCC $ARCH -O3 -I../meschach_lib -c track_ellipse_kernel.cu -o track_ellipse_kernel.o && $NVCC $ARCH *.o ../meschach_lib/meschach.a -lm -o leukocyte~SKIP: needs an AVI video (testfile.avi) that is not generated; build only~~/[Tt]ime\|seconds\|%/d~rel=1e-4
lud~cuda/lud~cd cuda && $NVCC $ARCH -I../common -O3 -use_fast_math -DGPU_TIMER -c ../common/common.c -o ../common/common.o && $NVCC $ARCH -I../common -O3 -use_fast_math -DGPU_TIMER -c lud.cu -o lud.o && $NVCC $ARCH -I../common -O3 -use_fast_math -DGPU_TIMER -c lud_kernel.cu -o lud_kernel.o && $NVCC $ARCH -o lud_cuda ../common/common.o lud.o lud_kernel.o -lm~LD_PRELOAD=$FIXTIME cuda/lud_cuda -s 64 -v~~/[Tt]ime/d~rel=1e-3
mummergpu~cuda/mummergpu~cd src && $NVCC $ARCH -O3 -I. -c mummergpu.cu -o mummergpu.o && for f in mummergpu_gold suffix-tree PoolMalloc mummergpu_main; do $CXX -O3 -fopenmp -I. -c $f.cpp -o $f.o || exit 1; done; $NVCC $ARCH -o ../mummergpu mummergpu_main.o mummergpu.o mummergpu_gold.o suffix-tree.o PoolMalloc.o -lgomp~./mummergpu $D/mummergpu/ref.fna $D/mummergpu/qry.fna~~/[Tt]ime\|[Ss]ec\b\|[0-9]ms/d~exact
myocyte~cuda/myocyte~$NVCC $ARCH main.cu -c -O3 -o main.o && $NVCC $ARCH main.o -lm -o myocyte.out~./myocyte.out 30 1 0; cat output.txt | head -200~~~rel=1e-3
nn~cuda/nn~$NVCC $ARCH -o nn nn_cuda.cu~ls $D/nn/data/*.db > filelist && ./nn filelist -r 5 -lat 30 -lng 90~~/[Tt]ime/d~rel=1e-5
nw~cuda/nw~$NVCC $ARCH -DTRACEBACK needle.cu -o needle~./needle 256 10~result.txt~~exact
particlefilter_naive~cuda/particlefilter~$NVCC $ARCH -O3 -use_fast_math ex_particle_CUDA_naive_seq.cu -o particlefilter_naive -lm~LD_PRELOAD=$FIXTIME ./particlefilter_naive -x 64 -y 64 -z 5 -np 400~~/[Tt]ime\|TIME/d~rel=1e-3
particlefilter_float~cuda/particlefilter~$NVCC $ARCH -O3 -use_fast_math ex_particle_CUDA_float_seq.cu -o particlefilter_float -lm~LD_PRELOAD=$FIXTIME ./particlefilter_float -x 64 -y 64 -z 5 -np 400~~/[Tt]ime\|TIME/d;/^GPU Execution:\|^SEND .* BACK:/d~rel=1e-3
pathfinder~cuda/pathfinder~$NVCC $ARCH pathfinder.cu -o pathfinder~./pathfinder 10000 100 20~~/[Tt]ime/d~exact
srad_v1~cuda/srad/srad_v1~$NVCC $ARCH main.cu -c -O3 -o main.o && $NVCC $ARCH main.o -lm -o srad~./srad 10 0.5 128 96~image_out.pgm~/[0-9]\.[0-9]*[0-9] s,/d~rel=1e-3
srad_v2~cuda/srad/srad_v2~$NVCC $ARCH srad.cu -o srad -DOUTPUT~./srad 256 256 0 31 0 31 0.5 2~~/[Tt]ime/d~rel=1e-4
streamcluster~cuda/streamcluster~$NVCC $ARCH -O3 streamcluster_cuda_cpu.cpp streamcluster_cuda.cu streamcluster_header.cu -o sc_gpu~./sc_gpu 10 20 16 1024 1024 100 none output.txt 1~output.txt~/[Tt]ime/d~rel=1e-4
EOF
}

# cuda-samples: programs that need no graphics, no CUDA library (cuBLAS, cuFFT, NPP,
# cuRAND host API, Thrust is included: it is headers), no driver API, no NVRTC, no
# MPI, no second GPU. BUILD empty = the default: every .cu/.cpp in the sample's
# directory, -O3 --extended-lambda -I../../../Common, -lcuda only when the sample's
# CMakeLists links it.
samples_table() {
cat <<'EOF'
asyncAPI~Samples/0_Introduction/asyncAPI~~./asyncAPI~~/CPU executed .* iterations/d~exact
clock~Samples/0_Introduction/clock~~./clock~~~rel=1
cudaOpenMP~Samples/0_Introduction/cudaOpenMP~$NVCC $ARCH -O3 -I../../../Common -Xcompiler -fopenmp cudaOpenMP.cu -o cudaOpenMP -lgomp~./cudaOpenMP~~/CPU cores\|[Nn]umber of host CPUs\|CPU thread/d~exact
fp16ScalarProduct~Samples/0_Introduction/fp16ScalarProduct~~./fp16ScalarProduct~~~rel=1e-3
matrixMul~Samples/0_Introduction/matrixMul~~./matrixMul -wA=128 -hA=64 -wB=64 -hB=128~~~exact
mergeSort~Samples/0_Introduction/mergeSort~~./mergeSort~~~exact
simpleAWBarrier~Samples/0_Introduction/simpleAWBarrier~~./simpleAWBarrier~~/numBlocks = /d~rel=1e-5
simpleAssert~Samples/0_Introduction/simpleAssert~~./simpleAssert~~/OS_System_Type.release/d~exact
simpleAtomicIntrinsics~Samples/0_Introduction/simpleAtomicIntrinsics~~./simpleAtomicIntrinsics~~~exact
simpleAttributes~Samples/0_Introduction/simpleAttributes~~./simpleAttributes~~~exact
simpleCallback~Samples/0_Introduction/simpleCallback~~./simpleCallback~~/[Ss]tarting\|CPU thread\|Host thread\|[Ww]orker/d~exact
simpleCooperativeGroups~Samples/0_Introduction/simpleCooperativeGroups~~./simpleCooperativeGroups~~~exact
simpleCubemapTexture~Samples/0_Introduction/simpleCubemapTexture~~./simpleCubemapTexture~~/Mtexlookups/d~exact
simpleHyperQ~Samples/0_Introduction/simpleHyperQ~~./simpleHyperQ~~/[Mm]easured\|[Ee]xpected\|Stream/d~exact
simpleLayeredTexture~Samples/0_Introduction/simpleLayeredTexture~~./simpleLayeredTexture~~/Mtexlookups/d~exact
simpleMultiCopy~Samples/0_Introduction/simpleMultiCopy~~./simpleMultiCopy~~/[Mm]easured\|[Ss]peedup\|[Oo]verlap\|[Ee]xpected\|[Cc]opy [Ee]ngine/d~exact
simpleMultiGPU~Samples/0_Introduction/simpleMultiGPU~~./simpleMultiGPU~~/CUDA-capable device count/d~rel=1e-4
simpleOccupancy~Samples/0_Introduction/simpleOccupancy~~./simpleOccupancy~~/Minimum grid size/d~exact
simplePitchLinearTexture~Samples/0_Introduction/simplePitchLinearTexture~~./simplePitchLinearTexture~~/Texture fetch rate/d~exact
simplePrintf~Samples/0_Introduction/simplePrintf~~./simplePrintf~~/^Device [0-9]/d~exact
simpleStreams~Samples/0_Introduction/simpleStreams~~./simpleStreams~~/[Mm]emcpy\|speed\|elapsed\|^memcopy:\|^kernel:\|streamed:\|streams:/d~exact
simpleSurfaceWrite~Samples/0_Introduction/simpleSurfaceWrite~~./simpleSurfaceWrite~~/Mpixels/d;s|\./data/|./|g~exact
simpleTemplates~Samples/0_Introduction/simpleTemplates~~./simpleTemplates~~~exact
simpleTexture~Samples/0_Introduction/simpleTexture~~./simpleTexture~~/Mpixels/d;s|\./data/|./|g~exact
simpleVoteIntrinsics~Samples/0_Introduction/simpleVoteIntrinsics~~./simpleVoteIntrinsics~~~exact
simpleZeroCopy~Samples/0_Introduction/simpleZeroCopy~~./simpleZeroCopy~~~exact
systemWideAtomics~Samples/0_Introduction/systemWideAtomics~~./systemWideAtomics~~/access pageable memory/d~exact
template~Samples/0_Introduction/template~~./template~~~exact
vectorAdd~Samples/0_Introduction/vectorAdd~~./vectorAdd~~~exact
UnifiedMemoryStreams~Samples/0_Introduction/UnifiedMemoryStreams~$NVCC $ARCH -O3 -I../../../Common -Xcompiler -fopenmp UnifiedMemoryStreams.cu -o UnifiedMemoryStreams -lcublas -lgomp~./UnifiedMemoryStreams~~/[Tt]ask\|[Ee]xecuting/d~exact
deviceQuery~Samples/1_Utilities/deviceQuery~~./deviceQuery~~/./!d;/Device PASS\|Result = \|^deviceQuery/!d~exact
topologyQuery~Samples/1_Utilities/topologyQuery~~./topologyQuery~~/GPU\|Device/d~exact
MC_EstimatePiInlineP~Samples/2_Concepts_and_Techniques/MC_EstimatePiInlineP~$NVCC $ARCH -O3 -I../../../Common -Iinc src/*.cu src/*.cpp -o MC_EstimatePiInlineP~./MC_EstimatePiInlineP~~/Precision\|Estimated value\|Abs error\|Rel error/d~exact
MC_EstimatePiInlineQ~Samples/2_Concepts_and_Techniques/MC_EstimatePiInlineQ~$NVCC $ARCH -O3 -I../../../Common -Iinc src/*.cu src/*.cpp -o MC_EstimatePiInlineQ~./MC_EstimatePiInlineQ~~/Precision\|Estimated value\|Abs error\|Rel error/d~exact
MC_EstimatePiP~Samples/2_Concepts_and_Techniques/MC_EstimatePiP~$NVCC $ARCH -O3 -I../../../Common -Iinc src/*.cu src/*.cpp -o MC_EstimatePiP -lcurand~./MC_EstimatePiP~~/Precision\|Estimated value\|Abs error\|Rel error/d~exact
MC_SingleAsianOptionP~Samples/2_Concepts_and_Techniques/MC_SingleAsianOptionP~$NVCC $ARCH -O3 -I../../../Common -Iinc src/*.cu src/*.cpp -o MC_SingleAsianOptionP -lcurand~./MC_SingleAsianOptionP~~~rel=1e-3
convolutionSeparable~Samples/2_Concepts_and_Techniques/convolutionSeparable~~./convolutionSeparable~~~rel=1e-5
convolutionTexture~Samples/2_Concepts_and_Techniques/convolutionTexture~~./convolutionTexture~~~rel=1e-5
dct8x8~Samples/2_Concepts_and_Techniques/dct8x8~~./dct8x8~~/PSNR/d~exact
eigenvalues~Samples/2_Concepts_and_Techniques/eigenvalues~~./eigenvalues~~~rel=1e-4
histogram~Samples/2_Concepts_and_Techniques/histogram~~./histogram~~~exact
inlinePTX~Samples/2_Concepts_and_Techniques/inlinePTX~~./inlinePTX~~~exact
interval~Samples/2_Concepts_and_Techniques/interval~~./interval~~~rel=1e-6
radixSortThrust~Samples/2_Concepts_and_Techniques/radixSortThrust~~./radixSortThrust -n=100000~~~exact
reduction~Samples/2_Concepts_and_Techniques/reduction~~./reduction -n=1000000~~~exact
reductionMultiBlockCG~Samples/2_Concepts_and_Techniques/reductionMultiBlockCG~~./reductionMultiBlockCG~~/numBlocks: /d~rel=1e-5
scalarProd~Samples/2_Concepts_and_Techniques/scalarProd~~./scalarProd~~~rel=1e-5
scan~Samples/2_Concepts_and_Techniques/scan~~./scan~~~exact
segmentationTreeThrust~Samples/2_Concepts_and_Techniques/segmentationTreeThrust~~./segmentationTreeThrust~~~exact
shfl_scan~Samples/2_Concepts_and_Techniques/shfl_scan~~./shfl_scan~~~exact
sortingNetworks~Samples/2_Concepts_and_Techniques/sortingNetworks~~./sortingNetworks~~~exact
streamOrderedAllocation~Samples/2_Concepts_and_Techniques/streamOrderedAllocation~~./streamOrderedAllocation~~~exact
threadFenceReduction~Samples/2_Concepts_and_Techniques/threadFenceReduction~~./threadFenceReduction~~~rel=1e-5
StreamPriorities~Samples/3_CUDA_Features/StreamPriorities~~./StreamPriorities~~/[Ee]lapsed/d~exact
bf16TensorCoreGemm~Samples/3_CUDA_Features/bf16TensorCoreGemm~~./bf16TensorCoreGemm~~~rel=1e-3
binaryPartitionCG~Samples/3_CUDA_Features/binaryPartitionCG~~./binaryPartitionCG~~/Launching .* blocks/d~exact
cdpSimplePrint~Samples/3_CUDA_Features/cdpSimplePrint~$NVCC $ARCH -O3 -rdc=true -I../../../Common cdpSimplePrint.cu -o cdpSimplePrint -lcudadevrt~./cdpSimplePrint~~~exact
cdpSimpleQuicksort~Samples/3_CUDA_Features/cdpSimpleQuicksort~$NVCC $ARCH -O3 -rdc=true -I../../../Common cdpSimpleQuicksort.cu -o cdpSimpleQuicksort -lcudadevrt~./cdpSimpleQuicksort~~~exact
cdpAdvancedQuicksort~Samples/3_CUDA_Features/cdpAdvancedQuicksort~$NVCC $ARCH -O3 -rdc=true -I../../../Common cdpAdvancedQuicksort.cu cdpBitonicSort.cu -o cdpAdvancedQuicksort -lcudadevrt~./cdpAdvancedQuicksort~~~exact
cudaTensorCoreGemm~Samples/3_CUDA_Features/cudaTensorCoreGemm~~./cudaTensorCoreGemm~~~rel=1e-3
dmmaTensorCoreGemm~Samples/3_CUDA_Features/dmmaTensorCoreGemm~~./dmmaTensorCoreGemm~~~rel=1e-6
globalToShmemAsyncCopy~Samples/3_CUDA_Features/globalToShmemAsyncCopy~~./globalToShmemAsyncCopy~~~rel=1e-4
graphMemoryFootprint~Samples/3_CUDA_Features/graphMemoryFootprint~~./graphMemoryFootprint~~~exact
graphMemoryNodes~Samples/3_CUDA_Features/graphMemoryNodes~~./graphMemoryNodes~~~exact
immaTensorCoreGemm~Samples/3_CUDA_Features/immaTensorCoreGemm~~./immaTensorCoreGemm~~~exact
jacobiCudaGraphs~Samples/3_CUDA_Features/jacobiCudaGraphs~~./jacobiCudaGraphs~~~rel=1e-6
newdelete~Samples/3_CUDA_Features/newdelete~~./newdelete~~~exact
simpleCudaGraphs~Samples/3_CUDA_Features/simpleCudaGraphs~~./simpleCudaGraphs~~~rel=1e-5
tf32TensorCoreGemm~Samples/3_CUDA_Features/tf32TensorCoreGemm~~./tf32TensorCoreGemm~~~rel=1e-3
warpAggregatedAtomicsCG~Samples/3_CUDA_Features/warpAggregatedAtomicsCG~~./warpAggregatedAtomicsCG~~~exact
BlackScholes~Samples/5_Domain_Specific/BlackScholes~~./BlackScholes~~/Gigaoptions\|^L1 norm\|^Max absolute error/d~rel=1e-4
FDTD3d~Samples/5_Domain_Specific/FDTD3d~$NVCC $ARCH -O3 -I../../../Common -Iinc src/*.cu src/*.cpp -o FDTD3d~./FDTD3d -dimx=64 -dimy=64 -dimz=64 -timesteps=2~~~rel=1e-4
MonteCarloMultiGPU~Samples/5_Domain_Specific/MonteCarloMultiGPU~$NVCC $ARCH -O3 -I../../../Common *.cu *.cpp -o MonteCarloMultiGPU -lcurand~./MonteCarloMultiGPU -method=streamed~~~rel=1e-3
SobolQRNG~Samples/5_Domain_Specific/SobolQRNG~~./SobolQRNG~~~rel=1e-6
binomialOptions~Samples/5_Domain_Specific/binomialOptions~~./binomialOptions~~/Options per second/d~rel=1e-4
dwtHaar1D~Samples/5_Domain_Specific/dwtHaar1D~~./dwtHaar1D~~~exact
dxtc~Samples/5_Domain_Specific/dxtc~~./dxtc~~~exact
fastWalshTransform~Samples/5_Domain_Specific/fastWalshTransform~~./fastWalshTransform~~~rel=1e-5
quasirandomGenerator~Samples/5_Domain_Specific/quasirandomGenerator~~./quasirandomGenerator~~~rel=1e-6
stereoDisparity~Samples/5_Domain_Specific/stereoDisparity~~./stereoDisparity~~~exact
HSOpticalFlow~Samples/5_Domain_Specific/HSOpticalFlow~~./HSOpticalFlow~~~rel=1e-3
LargeKernelParameter~Samples/6_Performance/LargeKernelParameter~~./LargeKernelParameter~~~exact
alignedTypes~Samples/6_Performance/alignedTypes~~./alignedTypes~~/Compute scaling value\|Memory Size/d~exact
transpose~Samples/6_Performance/transpose~~./transpose~~/SM Capability\|scaling factor\|Matrix size/d~exact
EOF
}

table() { case "$1" in rodinia) rodinia_table ;; cuda-samples) samples_table ;; *) echo "unknown suite $1" >&2; exit 2 ;; esac; }

# --- input generation (deterministic; run once, before the sources are shipped) ---
gen() {
  local suite=$1 src=$2
  [ "$suite" = rodinia ] || { echo "cuda-samples need no generated inputs (their data/ dirs are in the tree)"; return 0; }
  mkdir -p "$src/data"
  python3 "$HERE/gen_rodinia_inputs.py" "$src/data"
  # nn: the suite's own generator
  ( mkdir -p "$src/data/nn" && cd "$src/data/nn" && $CC -O2 -o hurricane_gen "$src/cuda/nn/hurricane_gen.c" -lm && mkdir -p data && ./hurricane_gen 2048 2 >/dev/null && rm -f hurricane_gen )
}

# Copy DIR into a private work dir, symlinking its siblings on the way down, so that
# paths like ../../common and ../../data resolve as in the original tree.
mirror_dir() {
  local src=$1 dir=$2 dst=$3 part cur_s=$1 cur_d=$3
  mkdir -p "$dst"
  IFS=/ read -ra parts <<<"$dir"
  local i n=${#parts[@]}
  for ((i = 0; i < n; i++)); do
    part=${parts[$i]}
    for e in "$cur_s"/* "$cur_s"/.[!.]*; do
      [ -e "$e" ] || continue
      local b=${e##*/}
      [ "$b" = "$part" ] && continue
      [ -e "$cur_d/$b" ] || ln -s "$e" "$cur_d/$b"
    done
    cur_s=$cur_s/$part; cur_d=$cur_d/$part
    if ((i == n - 1)); then cp -a "$cur_s" "$cur_d"; else mkdir -p "$cur_d"; fi
  done
}

default_samples_build() {
  local name=$1 libs=""
  grep -q 'CUDA::cuda_driver' CMakeLists.txt 2>/dev/null && libs="-lcuda"
  local srcs; srcs=$(ls *.cu *.cpp 2>/dev/null | tr '\n' ' ')
  echo "$NVCC $ARCH -O3 --extended-lambda -I../../../Common $srcs -o $name $libs"
}

one() {  # one NAME: build + run + collect, into $RES
  local name=$1 line dir build runc outfiles filter
  line=$(table "$SUITE" | awk -F'~' -v n="$name" '$1==n')
  IFS='~' read -r _ dir build runc outfiles filter _ <<<"$line"
  local w=$WORK/$name
  rm -rf "$w"; mirror_dir "$SRC" "$dir" "$w"
  cd "$w/$dir" || return
  [ -z "$build" ] && build=$(default_samples_build "$name")
  echo "+ $build" >"$RES/$name.build.log"
  H=$HERE/harness D=$SRC/data NVCC=$NVCC ARCH=$ARCH CC=$CC CXX=$CXX timeout "$BUILD_TIMEOUT" bash -c "$build" >>"$RES/$name.build.log" 2>&1
  local brc=$?
  echo $brc >"$RES/$name.build.rc"
  if [ $brc != 0 ]; then return; fi
  echo "+ $runc" >"$RES/$name.run.cmd"
  case "$runc" in SKIP:*) echo "${runc#SKIP:}" >"$RES/$name.skip"; return ;; esac
  FIXTIME=$WORK/fixtime.so D=$SRC/data timeout "$RUN_TIMEOUT" bash -c "$runc" </dev/null >"$RES/$name.stdout" 2>"$RES/$name.stderr"
  echo $? >"$RES/$name.rc"
  : >"$RES/$name.files"
  for f in $outfiles; do
    echo "=== $f" >>"$RES/$name.files"
    if [ -f "$f" ]; then head -c 2000000 "$f" >>"$RES/$name.files"; else echo "(missing)" >>"$RES/$name.files"; fi
  done
  make_out "$name" "$filter"
}

make_out() {  # make_out NAME FILTER: the comparable output, from stdout + output files
  local deff=$RODINIA_FILTER; [ "$SUITE" = cuda-samples ] && deff=$SAMPLES_FILTER
  cat "$RES/$1.stdout" "$RES/$1.files" 2>/dev/null | LC_ALL=C sed -e "$NAME_FILTER" -e "$deff" | LC_ALL=C sed -e "${2:-}" >"$RES/$1.out"
}

cmd=${1:-}; SUITE=${2:-}
case "$cmd" in
  list) table "$SUITE" | cut -d'~' -f1 ;;
  gen) gen "$SUITE" "$(cd "$3" && pwd)" ;;
  run)
    SRC=$(cd "$3" && pwd); mkdir -p "$4"; RES=$(cd "$4" && pwd); shift 4
    WORK=${WORK:-$(mktemp -d)}; mkdir -p "$WORK"
    $CC -O2 -shared -fPIC -o "$WORK/fixtime.so" "$HERE/harness/fixtime.c"
    export SUITE SRC RES WORK NVCC ARCH CC CXX RUN_TIMEOUT BUILD_TIMEOUT RODINIA_FILTER SAMPLES_FILTER NAME_FILTER HERE
    export -f one make_out table rodinia_table samples_table mirror_dir default_samples_build
    if [ $# -gt 0 ]; then printf '%s\n' "$@"; else table "$SUITE" | cut -d'~' -f1; fi |
      xargs -P "$JOBS" -I{} bash -c 'one {}'
    echo "results in $RES" ;;
  refilter)  # re-make NAME.out in RESULTS ($3) with the table's current filters
    RES=$3
    table "$SUITE" | while IFS='~' read -r name _ _ _ _ filter _; do
      [ -f "$RES/$name.stdout" ] && make_out "$name" "$filter"; done ;;
  compare)
    table "$SUITE" | python3 "$HERE/compare.py" "$3" "$4" ;;
  *) sed -n '2,40p' "$0"; exit 2 ;;
esac
