#!/usr/bin/env bash
# What checking mode costs, as docs/PERFORMANCE.md "Session 10/11: checking-mode cost"
# measure it: the CPU time of the launches alone. Each program runs with one worker
# (CUPRITE_WORKERS=1: every launch runs on the stream thread) under `perf record -e
# task-clock -c 20000` (a sample per 20 µs of a thread's CPU time; this VM has no
# hardware counters), and the stream thread's samples are summed; the least of RUNS runs.
# Builds each kernel of benches/cuda/ plain and with --sanitize at the cut sizes below
# (benches/sanitize_cost.sh's, plus nbody, scan and bitonic), and prints one line per
# kernel and tool: `kernel tool ms findings=N` (tool `none`: the plain build).
#
# Usage: benches/sanitize_launch_cpu.sh [KERNEL...]   (default: the nine below)
# Environment: CUPRITE (default target/release/cuprite), DIR (default
# target/bench-sanitize-cpu; existing builds there are reused: delete it after changing
# the compiler), TOOLS (default "none memcheck initcheck synccheck racecheck"), RUNS (2).
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CUP=${CUPRITE:-$ROOT/target/release/cuprite}
DIR=${DIR:-$ROOT/target/bench-sanitize-cpu}
TOOLS=${TOOLS:-"none memcheck initcheck synccheck racecheck"}
RUNS=${RUNS:-2}
KERNELS=("$@")
[ ${#KERNELS[@]} -gt 0 ] || KERNELS=(saxpy reduce_shared sgemm transpose_tiled stencil2d histogram nbody scan bitonic)
command -v perf >/dev/null || { echo "needs perf" >&2; exit 1; }
declare -A SIZES=(
  [saxpy]='s/^#define N .*/#define N (1 << 20)/; s/^#define REPS .*/#define REPS 3/'
  [reduce_shared]='s/^#define N .*/#define N (1 << 20)/; s/^#define REPS .*/#define REPS 1/'
  [sgemm]='s/^#define N .*/#define N 128/'
  [transpose_tiled]='s/^#define N .*/#define N 1024/; s/^#define REPS .*/#define REPS 1/'
  [stencil2d]='s/^#define N .*/#define N 512/; s/^#define SWEEPS .*/#define SWEEPS 2/'
  [histogram]='s/^#define N .*/#define N (1 << 20)/; s/^#define REPS .*/#define REPS 1/'
  [nbody]='s/^#define N .*/#define N 1024/'
  [scan]='s/^#define N .*/#define N (1 << 18)/'
  [bitonic]='s/^#define N .*/#define N (1 << 16)/'
)
mkdir -p "$DIR"
for k in "${KERNELS[@]}"; do
  src=$DIR/$k.cu
  sed -e "${SIZES[$k]:-}" -e "s|\"\\.\\./common/|\"$ROOT/benches/common/|" "$ROOT/benches/cuda/$k.cu" >"$src"
  [ -x "$DIR/$k.plain" ] || "$CUP" -O3 -o "$DIR/$k.plain" "$src" >"$DIR/$k.build" 2>&1 || { echo "$k: plain build failed" >&2; continue; }
  [ -x "$DIR/$k.checked" ] || "$CUP" -O3 --sanitize -o "$DIR/$k.checked" "$src" >>"$DIR/$k.build" 2>&1 || { echo "$k: checked build failed" >&2; continue; }
  for t in $TOOLS; do
    best=
    for _ in $(seq "$RUNS"); do
      if [ "$t" = none ]; then exe=$DIR/$k.plain; env=(env -u CUPRITE_SANITIZE); else exe=$DIR/$k.checked; env=(env CUPRITE_SANITIZE=$t); fi
      "${env[@]}" CUPRITE_WORKERS=1 perf record -q -e task-clock -c 20000 -o "$DIR/perf.data" "$exe" >"$DIR/$k.$t.out" 2>&1
      ms=$(perf report -i "$DIR/perf.data" --sort pid -F sample,pid --stdio 2>/dev/null | awk '/cuprite-stream/ { s += $1 } END { printf "%.1f", s * 0.02 }')
      if [ -z "$best" ] || awk -v a="$ms" -v b="$best" 'BEGIN { exit !(a < b) }'; then best=$ms; fi
    done
    echo "$k $t $best ms findings=$(grep -c '^========= \(Error\|Invalid\|Uninit\|Barrier\)' "$DIR/$k.$t.out")"
  done
done
