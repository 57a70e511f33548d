#!/usr/bin/env bash
# The benchmark suite's kernels on the GPU: nvcc's build against Cuprite's GPU device.
#
#   CUPRITE=/path/to/cuprite OUT=/dir tools/ptx/gpu-bench.sh [REPS]     (REPS default 5)
#
# On the GPU machine. Builds each benches/cuda/NAME.cu with `nvcc -O3 -arch=sm_90` and
# with `cuprite -O3 -arch=sm_90`, runs each REPS times (Cuprite's with
# CUPRITE_DEVICE=gpu), takes the median of the timed section each prints (`BENCH name
# ms=...`, timed with events) and writes a table NAME, nvcc ms, cuprite ms, ratio, and
# whether the checksums agree, to $OUT/gpu-bench.tsv. BENCHES=DIR takes the programs from
# DIR instead of this tree's benches/cuda.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
CUPRITE=${CUPRITE:?set CUPRITE to the cuprite binary}
OUT=${OUT:-/tmp/gpu-bench}
REPS=${1:-5}
mkdir -p "$OUT"
W=$(mktemp -d)
names=()
BENCHES=${BENCHES:-$ROOT/benches/cuda}
for f in "$BENCHES"/*.cu; do names+=("$(basename "$f" .cu)"); done
build() {
  local n=$1
  nvcc -O3 -arch=sm_90 -o "$W/$n.nvcc" "$BENCHES/$n.cu" >"$W/$n.nvcc.log" 2>&1 || echo FAILED >"$W/$n.nvcc.failed"
  "$CUPRITE" -O3 -arch=sm_90 -o "$W/$n.cuprite" "$BENCHES/$n.cu" >"$W/$n.cuprite.log" 2>&1 || echo FAILED >"$W/$n.cuprite.failed"
}
export -f build
export W ROOT CUPRITE BENCHES
printf '%s\n' "${names[@]}" | xargs -P "$(nproc)" -I{} bash -c 'build {}'
median() { sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "-"; else print a[int((NR + 1) / 2)]}'; }
field() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" | head -1; }
tsv=$OUT/gpu-bench.tsv
printf 'kernel\tnvcc_ms\tcuprite_ms\tratio\tchecks_agree\n' >"$tsv"
for n in "${names[@]}"; do
  : >"$W/$n.n.ms"; : >"$W/$n.c.ms"
  for _ in $(seq "$REPS"); do
    if [ ! -f "$W/$n.nvcc.failed" ] && timeout 60 "$W/$n.nvcc" >"$W/$n.n.out" 2>/dev/null; then field ms <"$W/$n.n.out" >>"$W/$n.n.ms"; fi
    if [ ! -f "$W/$n.cuprite.failed" ] && CUPRITE_DEVICE=gpu timeout 60 "$W/$n.cuprite" >"$W/$n.c.out" 2>"$W/$n.c.err"; then field ms <"$W/$n.c.out" >>"$W/$n.c.ms"; fi
  done
  nm=$(median <"$W/$n.n.ms"); cm=$(median <"$W/$n.c.ms")
  agree=no
  [ "$(field check <"$W/$n.n.out" 2>/dev/null)" = "$(field check <"$W/$n.c.out" 2>/dev/null)" ] && [ -n "$(field check <"$W/$n.c.out" 2>/dev/null)" ] && agree=yes
  ratio=$(awk -v a="$cm" -v b="$nm" 'BEGIN { if (a == "-" || b == "-" || b == 0) print "-"; else printf "%.2f", a / b }')
  printf '%s\t%s\t%s\t%s\t%s\n' "$n" "$nm" "$cm" "$ratio" "$agree" >>"$tsv"
  [ -f "$W/$n.cuprite.failed" ] && head -3 "$W/$n.cuprite.log" | sed "s/^/# $n build: /" >>"$tsv"
  [ -s "$W/$n.c.err" ] && head -2 "$W/$n.c.err" | sed "s/^/# $n stderr: /" >>"$tsv"
done
awk -F'\t' 'NR > 1 && $4 != "-" && $1 !~ /^#/ { s += log($4); k++ } END { if (k) printf "geomean cuprite/nvcc over %d kernels: %.2f\n", k, exp(s / k) }' "$tsv" | tee -a "$tsv"
