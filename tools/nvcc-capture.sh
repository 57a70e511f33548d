#!/usr/bin/env bash
# Captures the expected output of the conformance suite with the real nvcc on a GPU.
#
# For every program in tests/conformance/ — each NAME.cu, and each subdirectory NAME/
# (a multi-translation-unit program: all its *.cu, *.cpp and *.c files, sorted, on one
# command line) — it runs
#     nvcc -arch=sm_90 -o NAME <sources>          (from inside tests/conformance/)
# then runs the program (timeout 60 s) twice: once with stdout to a file, once with
# stdout to a pipe. It writes NAME.expected (exact stdout), NAME.exitcode and, for
# information only, gpu-stderr/NAME.stderr; plus CUDA_VERSION, and capture-report.txt
# (build failures, programs whose two runs differed). Everything is packed into
# $OUT/conformance.tar; unpack it into the suite directory.
#
# Usage (repo root, on the GPU machine): OUT=/some/dir tools/nvcc-capture.sh [NAME...]
# A program's NAME.prebuild (nvcc steps run first, $BIN standing for the directory the
# program is built into) and NAME.flags (more flags) are honoured, as by the harness;
# NAME.module.cu files are device code for those steps, not programs.
# SUITE=dir (relative to the repo root, or absolute) captures another suite with the
# same layout, e.g. SUITE=tests/conformance-cxx; the default is tests/conformance.
set -u
OUT=${OUT:-/tmp/capture-out}
ROOT=$(cd "$(dirname "$0")/.." && pwd)
SUITE=${SUITE:-tests/conformance}
case "$SUITE" in /*) ;; *) SUITE=$ROOT/$SUITE ;; esac
W=$(mktemp -d)
R=$W/res
mkdir -p "$R/gpu-stderr" "$W/bin"
cd "$SUITE"

if [ $# -gt 0 ]; then names=("$@"); else
  names=()
  for f in *.cu; do case "$f" in *.module.cu) continue ;; esac; names+=("${f%.cu}"); done
  for d in */; do d=${d%/}; ls "$d"/*.cu >/dev/null 2>&1 && names+=("$d"); done
fi

{ nvcc --version | grep -i release; echo "driver $(nvidia-smi --query-gpu=driver_version --format=csv,noheader | head -1)";
  echo "gpu $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)"; echo "flags: nvcc -arch=sm_90"; } >"$R/CUDA_VERSION"

build_one() {
  local name=$1 srcs flags=
  if [ -d "$name" ]; then srcs=$(ls "$name"/*.cu "$name"/*.cpp "$name"/*.c 2>/dev/null | sort); else srcs="$name.cu"; fi
  # NAME.prebuild: nvcc command lines run first ($BIN: where the program is built);
  # NAME.flags: more flags for its build line (as crates/cuprite/tests/conformance.rs).
  if [ -f "$name.prebuild" ]; then
    while IFS= read -r line; do
      case "$line" in ''|'#'*) continue ;; esac
      BIN="$W/bin" bash -c "$line" >>"$W/bin/$name.buildlog" 2>&1 || { echo "FAILED" >"$W/bin/$name.failed"; return; }
    done <"$name.prebuild"
  fi
  [ -f "$name.flags" ] && flags=$(cat "$name.flags")
  nvcc -arch=sm_90 $flags -o "$W/bin/$name" $srcs >>"$W/bin/$name.buildlog" 2>&1 || echo "FAILED" >"$W/bin/$name.failed"
}
export -f build_one
export W
printf '%s\n' "${names[@]}" | xargs -P "$(nproc)" -I{} bash -c 'build_one {}'

report=$R/capture-report.txt
echo "capture report ($(cat "$R/CUDA_VERSION" | head -1))" >"$report"
for name in "${names[@]}"; do
  if [ -f "$W/bin/$name.failed" ]; then
    echo "BUILD FAILED: $name" >>"$report"; cat "$W/bin/$name.buildlog" >>"$report"; continue
  fi
  [ -s "$W/bin/$name.buildlog" ] && { echo "build warnings: $name" >>"$report"; cat "$W/bin/$name.buildlog" >>"$report"; }
  timeout 60 "$W/bin/$name" >"$R/$name.expected" 2>"$R/gpu-stderr/$name.stderr"
  echo $? >"$R/$name.exitcode"
  [ -s "$R/gpu-stderr/$name.stderr" ] || rm -f "$R/gpu-stderr/$name.stderr"
  set -o pipefail
  timeout 60 "$W/bin/$name" 2>/dev/null | cat >"$W/second.out"
  rc2=$?
  set +o pipefail
  if ! cmp -s "$W/second.out" "$R/$name.expected" || [ "$rc2" != "$(cat "$R/$name.exitcode")" ]; then
    echo "NONDETERMINISTIC (file vs pipe run differ): $name (rc $(cat "$R/$name.exitcode") vs $rc2)" >>"$report"
    diff "$R/$name.expected" "$W/second.out" | head -20 >>"$report"
  fi
  echo "ok: $name exit $(cat "$R/$name.exitcode"), $(wc -l <"$R/$name.expected") lines" >>"$report"
done
mkdir -p "$OUT"
tar -C "$R" -cf "$OUT/conformance.tar" .
cat "$report"
