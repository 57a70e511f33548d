#!/usr/bin/env bash
# Cuprite's benchmark suite: every CUDA program in benches/cuda/ built with Cuprite against
# its OpenMP C twin in benches/openmp/, run alternately, medians compared.
#
# Usage (from anywhere):  benches/run.sh [--quick] [--reps N] [KERNEL...]
#   --quick      one repetition (a smoke test: builds everything, checks the results agree)
#   --reps N     repetitions (default 5); each repetition runs every kernel on both sides
#   --rodinia    also Rodinia's own OpenMP bfs, hotspot and pathfinder, fetched at run time
#                (benches/rodinia/rodinia.sh says from where), as an extra column
#   KERNEL...    only these kernels (names of benches/cuda/*.cu; commas also separate)
# Environment:
#   CUPRITE=path        the cuprite binary (default: target/release/cuprite of this repo)
#   CC=gcc, OMP_CFLAGS  the OpenMP side's compiler and flags
#   BENCH_DIR=dir       where binaries, logs and results.tsv go (default target/bench)
#   OMP_* / CUPRITE_WORKERS pass through to the programs unchanged
#
# Each program prints "BENCH name ms=<timed section> check=<checksum> ok=<0|1>"; the two
# sides must both report ok=1 and equal checksums (integers exactly, others within a
# relative 1e-5). Exit status 1 if any kernel failed to build, run or agree.
set -u
ROOT=$(cd "$(dirname "$0")/.." && pwd)
CUPRITE=${CUPRITE:-$ROOT/target/release/cuprite}
CC=${CC:-gcc}
# CUDA's math functions never set errno and the GPU has no FP traps; Cuprite's generated C
# is compiled with the same two flags, so the twins get them too.
OMP_CFLAGS=${OMP_CFLAGS:--O3 -march=native -fopenmp -fno-math-errno -fno-trapping-math}
BENCH_DIR=${BENCH_DIR:-$ROOT/target/bench}
REPS=5
RODINIA=0
FILTER=()
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) REPS=1 ;;
    --rodinia) RODINIA=1 ;;
    --reps) REPS=$2; shift ;;
    --reps=*) REPS=${1#--reps=} ;;
    -h|--help) sed -n '2,20p' "$0"; exit 0 ;;
    -*) echo "run.sh: unknown option $1" >&2; exit 2 ;;
    *) IFS=, read -ra names <<<"$1"; FILTER+=("${names[@]}") ;;
  esac
  shift
done
[ -x "$CUPRITE" ] || { echo "run.sh: no cuprite binary at $CUPRITE (cargo build --release, or set CUPRITE)" >&2; exit 2; }
command -v "$CC" >/dev/null || { echo "run.sh: no C compiler $CC" >&2; exit 2; }

# Timed kernels first; copy and launch are reported apart.
ALL=()
for f in "$ROOT"/benches/cuda/*.cu; do
  n=$(basename "$f" .cu)
  case "$n" in copy|launch) ;; *) ALL+=("$n") ;; esac
done
ALL+=(copy launch)
if [ ${#FILTER[@]} -gt 0 ]; then
  KERNELS=()
  for n in "${FILTER[@]}"; do
    [ -f "$ROOT/benches/cuda/$n.cu" ] || { echo "run.sh: no kernel $n" >&2; exit 2; }
    KERNELS+=("$n")
  done
else
  KERNELS=("${ALL[@]}")
fi

mkdir -p "$BENCH_DIR/bin" "$BENCH_DIR/log"
BIN=$BENCH_DIR/bin LOG=$BENCH_DIR/log
RAW=$BENCH_DIR/raw.txt
: >"$RAW"

echo "# machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2- | sed 's/^ *//')"
echo "# cuprite: $CUPRITE ($("$CUPRITE" --version 2>/dev/null | grep -m1 -i 'version')); suite at $(git -C "$ROOT" rev-parse --short HEAD 2>/dev/null || echo '?')"
echo "# openmp:  $CC $OMP_CFLAGS ($("$CC" --version | head -1))"
echo "# repetitions: $REPS, run alternately (Cuprite, then OpenMP, kernel by kernel)"

# --- build both sides, in parallel over the machine's cores -------------------------------
build_one() { # kernel side
  local n=$1 side=$2
  if [ "$side" = cuda ]; then
    "$CUPRITE" -O3 -o "$BIN/$n.cuprite" "$ROOT/benches/cuda/$n.cu" >"$LOG/$n.cuprite.build" 2>&1
  else
    "$CC" $OMP_CFLAGS -o "$BIN/$n.openmp" "$ROOT/benches/openmp/$n.c" -lm >"$LOG/$n.openmp.build" 2>&1
  fi || { rm -f "$BIN/$n.$([ "$side" = cuda ] && echo cuprite || echo openmp)"; return 0; }
}
export -f build_one
export CUPRITE CC OMP_CFLAGS ROOT BIN LOG
rm -f "$BIN"/*
t0=$(date +%s.%N)
for n in "${KERNELS[@]}"; do echo "$n cuda"; echo "$n openmp"; done |
  xargs -P "$(nproc)" -n 2 bash -c 'build_one "$0" "$1"'
echo "# built in $(awk -v a="$t0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }') s"

if [ $RODINIA = 1 ]; then
  . "$ROOT/benches/rodinia/rodinia.sh"
  rodinia_prepare || { echo "run.sh: --rodinia: preparing Rodinia's programs failed" >&2; RODINIA=0; }
fi

# --- run alternately -----------------------------------------------------------------------
run_one() { # kernel side(cuprite|openmp) rep
  local n=$1 side=$2 rep=$3 exe=$BIN/$1.$2
  [ -x "$exe" ] || return
  local out rc
  out=$(cd "$BENCH_DIR" && timeout 600 "$exe" 2>"$LOG/$n.$side.stderr.$rep")
  rc=$?
  echo "$out" >"$LOG/$n.$side.out.$rep"
  # Only this kernel's lines (NAME or NAME_…): a program that reports another name must
  # not pollute that kernel's figures.
  echo "$out" | awk -v n="$n" -v p="$side $rep" '$1 == "BENCH" && ($2 == n || index($2, n "_") == 1) { $1 = p; print }' >>"$RAW"
  echo "$out" | grep -q "^BENCH $n " || echo "$side $rep $n exit=no-result-line" >>"$RAW"
  [ $rc -eq 0 ] || echo "$side $rep $n exit=$rc" >>"$RAW"
}
for ((r = 1; r <= REPS; r++)); do
  for n in "${KERNELS[@]}"; do
    run_one "$n" cuprite "$r"
    run_one "$n" openmp "$r"
    if [ $RODINIA = 1 ]; then case " ${RODINIA_KERNELS[*]} " in *" $n "*) rodinia_run "$n" "$r" ;; esac; fi
  done
done

# --- cuprite run examples/vector_add.cu: cold (fresh header cache) and warm ----------------
# Cold: TMPDIR (where the embedded headers are written) and CUPRITE_CACHE_DIR (the build
# cache) point into an empty directory; "warm" runs the same build again (a cache hit).
VA=$ROOT/examples/vector_add.cu
if [ ${#FILTER[@]} -eq 0 ] && [ -f "$VA" ]; then
  for ((r = 1; r <= REPS; r++)); do
    tmp=$(mktemp -d)
    for kind in cold warm; do
      s=$(date +%s.%N)
      TMPDIR=$tmp CUPRITE_CACHE_DIR=$tmp/cache "$CUPRITE" run "$VA" >/dev/null 2>&1 || echo "cuprite $r vector_add_$kind exit=1" >>"$RAW"
      echo "cuprite $r vector_add_$kind ms=$(awk -v a="$s" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", (b - a) * 1000 }')" >>"$RAW"
    done
    rm -rf "$tmp"
  done
fi

# --- table ---------------------------------------------------------------------------------
printf '%s\n' "${KERNELS[@]}" >"$BENCH_DIR/kernels.txt"
awk -v kernels="$BENCH_DIR/kernels.txt" -v logdir="$LOG" -v tsv="$BENCH_DIR/results.tsv" '
function median(list,   a, n, i, j, t) {
  n = split(list, a, " ")
  for (i = 2; i <= n; i++) { t = a[i]; for (j = i - 1; j >= 1 && a[j] + 0 > t + 0; j--) a[j + 1] = a[j]; a[j + 1] = t }
  if (n == 0) return ""
  return n % 2 ? a[(n + 1) / 2] : (a[n / 2] + a[n / 2 + 1]) / 2
}
function field(line, key,   m) { return match(line, " " key "=[^ ]+") ? substr(line, RSTART + length(key) + 2, RLENGTH - length(key) - 2) : "" }
function abs(x) { return x < 0 ? -x : x }
function buildfail(k, side,   f, line, first) {
  f = logdir "/" k "." side ".build"; first = ""
  while ((getline line < f) > 0) if (first == "" && line ~ /error/) first = line
  close(f)
  if (first == "") first = "build failed"
  sub(/^.*benches\//, "", first)
  return substr(first, 1, 90)
}
BEGIN { while ((getline k < kernels) > 0) order[++nk] = k }
{
  side = $1; name = $3
  if ($0 ~ / exit=/) { bad[side, name] = "exit " field($0, "exit"); next }
  if (field($0, "ms") != "") ms[side, name] = ms[side, name] " " field($0, "ms")
  if (field($0, "us") != "") us[side, name] = us[side, name] " " field($0, "us")
  if (field($0, "queued_us") != "") qus[side, name] = qus[side, name] " " field($0, "queued_us")
  if (field($0, "gbps") != "") gb[side, name] = gb[side, name] " " field($0, "gbps")
  c = field($0, "check")
  if (c != "") {
    if ((side, name) in chk && chk[side, name] != c) unstable[side, name] = 1
    chk[side, name] = c
  }
  if (field($0, "ok") == "0") notok[side, name] = 1
}
END {
  printf "%-16s %12s %12s %14s  %s\n", "kernel", "Cuprite ms", "OpenMP ms", "OpenMP/Cuprite", "result"
  print "kernel\tcuprite_ms\topenmp_ms\tratio\tresult" > tsv
  logsum = 0; nratio = 0; failures = 0
  for (i = 1; i <= nk; i++) {
    k = order[i]
    if (k == "copy" || k == "launch") continue
    cm = median(ms["cuprite", k]); om = median(ms["openmp", k]); status = "agree"
    if (("cuprite", k) in notok) status = "WRONG: Cuprite result fails its own check"
    else if (("openmp", k) in notok) status = "WRONG: OpenMP result fails its own check"
    else if (cm == "" && !(("cuprite", k) in bad)) status = "fails: " buildfail(k, "cuprite")
    else if (("cuprite", k) in bad) status = "fails: Cuprite program " bad["cuprite", k]
    else if (om == "") status = (("openmp", k) in bad) ? "fails: OpenMP program " bad["openmp", k] : "fails: " buildfail(k, "openmp")
    else if (("openmp", k) in bad) status = "fails: OpenMP program " bad["openmp", k]
    else if ((("cuprite", k) in unstable) || (("openmp", k) in unstable)) status = "WRONG: checksum differs between repetitions"
    else {
      a = chk["cuprite", k] + 0; b = chk["openmp", k] + 0
      if (chk["cuprite", k] ~ /^-?[0-9]+$/ && chk["openmp", k] ~ /^-?[0-9]+$/) differ = chk["cuprite", k] != chk["openmp", k]
      else differ = abs(a - b) > 1e-5 * (abs(a) + abs(b)) + 1e-12
      if (differ) status = "WRONG: checksums differ (" chk["cuprite", k] " vs " chk["openmp", k] ")"
    }
    if (status == "agree") {
      ratio = om / cm; logsum += log(ratio); nratio++
      printf "%-16s %12.2f %12.2f %14.3f  %s\n", k, cm, om, ratio, status
      printf "%s\t%.2f\t%.2f\t%.4f\t%s\n", k, cm, om, ratio, status > tsv
    } else {
      failures++
      printf "%-16s %12s %12s %14s  %s\n", k, cm == "" ? "-" : sprintf("%.2f", cm), om == "" ? "-" : sprintf("%.2f", om), "-", status
      printf "%s\t%s\t%s\t-\t%s\n", k, cm, om, status > tsv
    }
  }
  if (nratio > 0) {
    printf "%-16s %12s %12s %14.3f  (%d kernels)\n", "geomean", "", "", exp(logsum / nratio), nratio
    printf "geomean\t\t\t%.4f\t%d kernels\n", exp(logsum / nratio), nratio > tsv
  }
  print ""
  for (i = 1; i <= nk; i++) {
    k = order[i]
    if (k == "copy") {
      g1 = median(gb["cuprite", "copy_gbps"]); g2 = median(gb["openmp", "copy_gbps"]); g3 = median(gb["openmp", "copy_memcpy1_gbps"])
      if (g1 == "" || ("cuprite", k) in notok) { failures++; print "copy: Cuprite copy kernel failed" }
      else printf "copy bandwidth (GB/s, read+write): Cuprite copy kernel %.2f, memcpy on all threads %.2f (%.0f%%), memcpy on one thread %.2f\n", g1, g2, 100 * g1 / g2, g3
      printf "copy_gbps\t%s\t%s\t%s\tone-thread memcpy %s\n", g1, g2, (g1 != "" && g2 != "") ? sprintf("%.4f", g1 / g2) : "-", g3 > tsv
    }
    if (k == "launch") {
      l1 = median(us["cuprite", k]); l2 = median(us["openmp", k]); q1 = median(qus["cuprite", k])
      if (l1 == "") { failures++; print "launch: Cuprite launch program failed" }
      else printf "empty kernel launch + cudaDeviceSynchronize: %.2f us median (queued launches: %.2f us each); empty OpenMP parallel for: %.2f us\n", l1, q1, l2
      printf "launch_us\t%s\t%s\t-\tqueued %s us\n", l1, l2, q1 > tsv
    }
  }
  header = 0
  for (i = 1; i <= nk; i++) {
    k = order[i]
    if (!((("rodinia", k) in ms) || (("rodinia", k) in bad))) continue
    if (!header++) printf "Rodinia OpenMP versions, same sizes (ratio: Rodinia ms / Cuprite ms):\n"
    rm = median(ms["rodinia", k]); cm = median(ms["cuprite", k])
    if (rm == "") { printf "  %-14s fails: %s\n", k, bad["rodinia", k]; failures++; continue }
    note = k == "bfs" ? (chk["rodinia", k] == chk["cuprite", k] ? "same levels" : "WRONG: levels differ (" chk["rodinia", k] ")") : "same size, its own inputs/constants"
    if (note ~ /^WRONG/) failures++
    printf "  %-14s %10.2f ms %10s  %s\n", k, rm, cm == "" ? "-" : sprintf("%.3f", rm / cm), note
    printf "rodinia_%s\t%s\t%.2f\t%s\t%s\n", k, cm, rm, cm == "" ? "-" : sprintf("%.4f", rm / cm), note > tsv
  }
  c1 = median(ms["cuprite", "vector_add_cold"]); w1 = median(ms["cuprite", "vector_add_warm"])
  if (c1 != "") {
    printf "cuprite run examples/vector_add.cu wall time: cold (empty cache) %.0f ms, warm %.0f ms\n", c1, w1
    printf "vector_add_run_ms\t%.0f\t%.0f\t-\tcold, warm\n", c1, w1 > tsv
  }
  if (("cuprite", "vector_add_cold") in bad || ("cuprite", "vector_add_warm") in bad) { failures++; print "cuprite run examples/vector_add.cu failed" }
  exit failures > 0
}' "$RAW"
status=$?
echo "# results: $BENCH_DIR/results.tsv, logs: $LOG"
exit $status
