#!/usr/bin/env bash
# One GPU session from a build carried to the GPU machine: copy this file, tools/ptx/ and
# the stripped bin/cuprite, bin/libcuprite_rt.a, bin/libcuprite_nvrtc.so to
# shared-hunt/gpu/, carry that folder, and run from the tree's root:
#   STEPS=conf,bench,benchptx,ptxas REPS=5 OUT=$OUT bash shared-hunt/gpu/run.sh
# conf: the conformance suite on the GPU device; bench: the benchmark table against nvcc;
# benchptx: nvcc's and Cuprite's PTX of the slow benchmark kernels (benchptx.tgz);
# ptxas: ptxas over Cuprite's PTX of every conformance program.
set -u
H=$PWD/shared-hunt/gpu
export CUPRITE=$H/bin/cuprite
chmod +x "$CUPRITE" $H/tools/ptx/*.sh
STEPS=${STEPS:-ptxas,conf,bench}
nvidia-smi -L
mkdir -p "$OUT"
start=$SECONDS
if [[ $STEPS == *conf* ]]; then
  SUITE=$PWD/tests/conformance OUT=$OUT bash $H/tools/ptx/gpu-conformance.sh
  echo "conformance step: $((SECONDS - start)) s"
fi
if [[ $STEPS == *bench* ]]; then
  BENCHES=$PWD/benches/cuda OUT=$OUT bash $H/tools/ptx/gpu-bench.sh ${REPS:-5}
  cat "$OUT/gpu-bench.tsv"
  echo "bench step: $((SECONDS - start)) s"
fi
if [[ $STEPS == *benchptx* ]]; then
  mkdir -p "$OUT/benchptx"
  for n in softmax bitonic kmeans hotspot pathfinder nbody sgemm scan spmv histogram; do
    ( nvcc -O3 -arch=sm_90 -ptx benches/cuda/$n.cu -o "$OUT/benchptx/$n.nvcc.ptx" >/dev/null 2>&1
      "$CUPRITE" -O3 -arch=sm_90 -ptx benches/cuda/$n.cu -o "$OUT/benchptx/$n.cuprite.ptx" >/dev/null 2>&1 ) &
  done
  wait
  (cd "$OUT" && tar czf benchptx.tgz benchptx && rm -rf benchptx)
  nvcc -O3 -arch=sm_90 -o /tmp/sm.nvcc benches/cuda/softmax.cu && /tmp/sm.nvcc
  "$CUPRITE" -O3 -arch=sm_90 -o /tmp/sm.cup benches/cuda/softmax.cu && CUPRITE_DEVICE=gpu /tmp/sm.cup
  echo "benchptx step: $((SECONDS - start)) s"
fi
if [[ $STEPS == *ptxas* ]]; then
  mkdir -p /tmp/ptx "$OUT/benchptx"
  ls tests/conformance/*.cu | grep -v '\.module\.cu$' | xargs -P 16 -I{} bash -c 'n=$(basename {} .cu); cd tests/conformance; "$CUPRITE" -arch=sm_90 -ptx $(cat $n.flags 2>/dev/null) $n.cu -o /tmp/ptx/$n.ptx >/tmp/ptx/$n.log 2>&1 || { echo "BACKEND $n: $(grep -m1 error /tmp/ptx/$n.log)"; rm -f /tmp/ptx/$n.ptx; }' > "$OUT/backend-refusals.txt" 2>&1
  ls /tmp/ptx/*.ptx | wc -l > "$OUT/backend-refusals.txt.count"
  bash $H/tools/ptx/check-ptxas.sh /tmp/ptx sm_90 > "$OUT/ptxas.txt" 2>&1
  tail -1 "$OUT/ptxas.txt"; wc -l < "$OUT/backend-refusals.txt"
  echo "ptxas step: $((SECONDS - start)) s"
fi
