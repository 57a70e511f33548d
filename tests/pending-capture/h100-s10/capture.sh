#!/bin/bash
# Builds and runs the s10 probes with nvcc on the GPU machine; outputs under $OUT.
cd "$(dirname "$0")"
{ nvcc --version | grep -i release; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $OUT/CUDA_VERSION
for n in probe_srgb_seg probe_grad2; do (nvcc -arch=sm_90 -o /tmp/$n $n.cu > $OUT/$n.build 2>&1) & done
wait
for n in probe_srgb_seg probe_grad2; do timeout 60 /tmp/$n > $OUT/$n.expected 2> $OUT/$n.stderr; echo $? > $OUT/$n.exitcode; done
