#!/bin/bash
# Builds each program with nvcc (in parallel), runs it once (stdout line-buffered) and
# packs NAME.expected / NAME.exitcode / NAME.stderr / NAME.build into $OUT/capture.tar
# (one file: the run tool brings back only a few files).
cd "$(dirname "$0")"
names=${NAMES:-"mipmap_textures"}
R=$(mktemp -d)
{ nvcc --version | grep -i release; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; } > $R/CUDA_VERSION
for n in $names; do
  f=$(cat $n.flags 2>/dev/null || echo -arch=sm_90)
  (nvcc $f -o /tmp/$n $n.cu > $R/$n.build 2>&1) &
done
wait
for n in $names; do
  [ -x /tmp/$n ] || continue
  timeout 40 stdbuf -oL /tmp/$n > $R/$n.expected 2> $R/$n.stderr
  echo $? > $R/$n.exitcode
done
tar -C $R -cf $OUT/capture.tar .
