#!/usr/bin/env bash
# Runs the conformance suite on an NVIDIA GPU through Cuprite's GPU device.
#
#   CUPRITE=/path/to/cuprite OUT=/dir tools/ptx/gpu-conformance.sh [NAME...]
#
# On a machine with a GPU and its driver (no Rust needed: carry the cuprite binary and
# libcuprite_rt.a next to it). Builds every program of tests/conformance as the harness
# does (`cuprite -arch=sm_90 [NAME.flags] -o NAME <sources>`, NAME.prebuild lines with
# `nvcc` meaning cuprite), runs it with CUPRITE_DEVICE=gpu (timeout 60 s) and compares
# stdout and exit status with NAME.expected / NAME.exitcode (captured from nvcc's builds
# on a GPU). Writes $OUT/gpu-conformance.txt (one line per program, the first differing
# lines of each failure) and prints the summary.
set -u
ROOT=$(cd "$(dirname "$0")/../.." && pwd)
SUITE=${SUITE:-$ROOT/tests/conformance}
CUPRITE=${CUPRITE:?set CUPRITE to the cuprite binary}
OUT=${OUT:-/tmp/gpu-conformance}
mkdir -p "$OUT"
W=$(mktemp -d)
mkdir -p "$W/bin"
cd "$SUITE"
if [ $# -gt 0 ]; then names=("$@"); else
  names=()
  for f in *.cu; do case "$f" in *.module.cu) continue ;; esac; names+=("${f%.cu}"); done
  for d in */; do d=${d%/}; ls "$d"/*.cu >/dev/null 2>&1 && names+=("$d"); done
fi
build_one() {
  local name=$1 srcs flags=
  if [ -d "$name" ]; then srcs=$(ls "$name"/*.cu "$name"/*.cpp "$name"/*.c 2>/dev/null | sort); else srcs="$name.cu"; fi
  if [ -f "$name.prebuild" ]; then
    while IFS= read -r line; do
      case "$line" in ''|'#'*) continue ;; esac
      BIN="$W/bin" bash -c "nvcc() { \"$CUPRITE\" \"\$@\"; }; $line" >>"$W/bin/$name.buildlog" 2>&1 || { echo FAILED >"$W/bin/$name.failed"; return; }
    done <"$name.prebuild"
  fi
  [ -f "$name.flags" ] && flags=$(cat "$name.flags")
  "$CUPRITE" -arch=sm_90 $flags -o "$W/bin/$name" $srcs >>"$W/bin/$name.buildlog" 2>&1 || echo FAILED >"$W/bin/$name.failed"
}
export -f build_one
export W CUPRITE
printf '%s\n' "${names[@]}" | xargs -P "$(nproc)" -I{} bash -c 'build_one {}'
report=$OUT/gpu-conformance.txt
: >"$report"
pass=0; fail=0
for name in "${names[@]}"; do
  if [ -f "$W/bin/$name.failed" ]; then
    echo "BUILD FAILED $name" >>"$report"; head -5 "$W/bin/$name.buildlog" | sed 's/^/    /' >>"$report"; fail=$((fail + 1)); continue
  fi
  (cd "$W/bin" && CUPRITE_DEVICE=gpu timeout 60 "./$name" >"$W/$name.out" 2>"$W/$name.err")
  rc=$?
  if cmp -s "$W/$name.out" "$name.expected" && [ "$rc" = "$(cat "$name.exitcode")" ]; then
    echo "PASS $name" >>"$report"; pass=$((pass + 1))
  else
    echo "FAIL $name (exit $rc, expected $(cat "$name.exitcode"))" >>"$report"
    diff "$name.expected" "$W/$name.out" | head -8 | sed 's/^/    /' >>"$report"
    head -3 "$W/$name.err" | sed 's/^/    stderr: /' >>"$report"
    fail=$((fail + 1))
  fi
done
echo "GPU device: $pass passed, $fail failed of $((pass + fail))" | tee -a "$report"
