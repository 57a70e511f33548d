#!/usr/bin/env bash
# Facts about nvcc's compile-time diagnostics (resource limits, -Xptxas -v), captured on
# the GPU machine: writes $OUT/limits.txt.
set -u
OUT=${OUT:-/tmp/limits-out}
mkdir -p "$OUT"
cd "$(dirname "$0")/facts"
{
  echo "# Captured with $(nvcc --version | grep -i release); by tools/nvcc-limits.sh"
  for f in limit_shared limit_const; do
    echo "## nvcc -arch=sm_90 -o /tmp/$f $f.cu   (exit code and stderr)"
    nvcc -arch=sm_90 -o /tmp/$f $f.cu 2>&1; echo "exit=$?"
  done
  echo "## nvcc -arch=sm_90 -Xptxas -v -c ptxas_v.cu"
  nvcc -arch=sm_90 -Xptxas -v -c -o /tmp/ptxas_v.o ptxas_v.cu 2>&1; echo "exit=$?"
  echo "## nvcc -arch=sm_90 --resource-usage -c ptxas_v.cu"
  nvcc -arch=sm_90 --resource-usage -c -o /tmp/ptxas_v.o ptxas_v.cu 2>&1; echo "exit=$?"
} >"$OUT/limits.txt" 2>&1
