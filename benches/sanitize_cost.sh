#!/usr/bin/env bash
# What checking mode costs: each kernel of benches/cuda/ built plain and with --sanitize,
# run unchecked (the plain build) and under memcheck, racecheck, synccheck and initcheck
# (the checked build with CUPRITE_SANITIZE=TOOL, as `cuprite sanitize` runs it), in turn,
# REPS times; prints the median of the timed section (the program's BENCH ms=) and of the
# whole program's CPU time (user + sys) per tool, and each over unchecked.
#
# Usage: benches/sanitize_cost.sh [--reps N] [--min] [KERNEL...]   (default: the six below,
# 3 reps, medians; --min takes the fastest run, steadier on a loaded machine, e.g. with
# CUPRITE_WORKERS=1 in the environment: one worker, so other programs' load mostly delays
# whole runs rather than stretching the timed section)
# Problem sizes are cut (a copy of each program with smaller #defines, SIZES below) so a
# checked run takes seconds: the ratios are per access, which the sizes do not change much.
# Environment: CUPRITE (default target/release/cuprite), BENCH_DIR (default
# target/bench-sanitize). On a loaded machine take the ratios as rough.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CUPRITE=${CUPRITE:-$ROOT/target/release/cuprite}
DIR=${BENCH_DIR:-$ROOT/target/bench-sanitize}
REPS=3
STAT=median
KERNELS=()
while [ $# -gt 0 ]; do
  case "$1" in
    --reps) REPS=$2; shift ;;
    --min) STAT=min ;;
    *) KERNELS+=("$1") ;;
  esac
  shift
done
[ ${#KERNELS[@]} -gt 0 ] || KERNELS=(saxpy reduce_shared sgemm transpose_tiled stencil2d histogram)
TOOLS=(none memcheck racecheck synccheck initcheck)

# kernel -> sed script cutting its sizes.
declare -A SIZES=(
  [saxpy]='s/^#define N .*/#define N (1 << 20)/; s/^#define REPS .*/#define REPS 3/'
  [reduce_shared]='s/^#define N .*/#define N (1 << 20)/; s/^#define REPS .*/#define REPS 1/'
  [sgemm]='s/^#define N .*/#define N 128/'
  [transpose_tiled]='s/^#define N .*/#define N 1024/; s/^#define REPS .*/#define REPS 1/'
  [transpose_naive]='s/^#define N .*/#define N 1024/; s/^#define REPS .*/#define REPS 1/'
  [stencil2d]='s/^#define N .*/#define N 512/; s/^#define SWEEPS .*/#define SWEEPS 2/'
  [histogram]='s/^#define N .*/#define N (1 << 20)/; s/^#define REPS .*/#define REPS 1/'
)

mkdir -p "$DIR"
median() {
  if [ "$STAT" = min ]; then sort -g | awk 'NR == 1 { print $1; f = 1 } END { if (!f) print "nan" }'
  else sort -g | awk '{ v[NR] = $1 } END { if (NR == 0) print "nan"; else print v[int((NR + 1) / 2)] }'; fi
}
RAW=$DIR/raw.tsv
: >"$RAW"
for k in "${KERNELS[@]}"; do
  src=$DIR/$k.cu
  sed -e "${SIZES[$k]:-}" -e "s|\"\\.\\./common/|\"$ROOT/benches/common/|" "$ROOT/benches/cuda/$k.cu" >"$src"
  "$CUPRITE" -O3 -o "$DIR/$k.plain" "$src" >"$DIR/$k.build" 2>&1 || { echo "$k: plain build failed (see $DIR/$k.build)" >&2; continue; }
  "$CUPRITE" -O3 --sanitize -o "$DIR/$k.checked" "$src" >>"$DIR/$k.build" 2>&1 || { echo "$k: checked build failed" >&2; continue; }
  for r in $(seq "$REPS"); do
    for t in "${TOOLS[@]}"; do
      if [ "$t" = none ]; then exe=$DIR/$k.plain; env=(); else exe=$DIR/$k.checked; env=(CUPRITE_SANITIZE=$t); fi
      out=$(env "${env[@]}" /usr/bin/time -f "CPU %U %S" "$exe" 2>&1)
      ms=$(grep -o 'ms=[0-9.]*' <<<"$out" | head -1 | cut -d= -f2)
      cpu=$(awk '/^CPU / { print $2 + $3 }' <<<"$out")
      findings=$(grep -c '^========= \(Error\|Invalid\|Uninit\|Barrier\)' <<<"$out")
      printf '%s\t%s\t%s\t%s\t%s\n' "$k" "$t" "${ms:-nan}" "${cpu:-nan}" "$findings" >>"$RAW"
    done
  done
done

printf '%-16s %-10s %10s %8s %10s %8s %s\n' kernel tool "ms" "x" "cpu_s" "x" findings
for k in "${KERNELS[@]}"; do
  base_ms=$(awk -F'\t' -v k="$k" '$1 == k && $2 == "none" { print $3 }' "$RAW" | median)
  base_cpu=$(awk -F'\t' -v k="$k" '$1 == k && $2 == "none" { print $4 }' "$RAW" | median)
  for t in "${TOOLS[@]}"; do
    ms=$(awk -F'\t' -v k="$k" -v t="$t" '$1 == k && $2 == t { print $3 }' "$RAW" | median)
    cpu=$(awk -F'\t' -v k="$k" -v t="$t" '$1 == k && $2 == t { print $4 }' "$RAW" | median)
    f=$(awk -F'\t' -v k="$k" -v t="$t" '$1 == k && $2 == t { print $5 }' "$RAW" | sort -u | tr '\n' ' ')
    printf '%-16s %-10s %10s %8s %10s %8s %s\n' "$k" "$t" "$ms" "$(awk -v a="$ms" -v b="$base_ms" 'BEGIN { printf "%.1f", a / b }')" "$cpu" "$(awk -v a="$cpu" -v b="$base_cpu" 'BEGIN { printf "%.1f", a / b }')" "$f"
  done
done
