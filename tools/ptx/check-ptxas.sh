#!/usr/bin/env bash
# Runs NVIDIA's ptxas on every .ptx file of a directory and reports which it refuses.
#
#   tools/ptx/check-ptxas.sh DIR [ARCH]      (ARCH defaults to sm_90)
#
# Needs ptxas on PATH (or $PTXAS). Prints one line per file (ok / FAIL) and, for each
# failure, ptxas's messages; the last line counts them. Files that refer to functions or
# variables of other translation units (`.extern` other than the driver's vprintf,
# malloc, free, __assertfail: -rdc output) are compiled with -c, as nvcc does for them.
# Exit status 1 if any file fails.
set -u
dir=${1:?usage: check-ptxas.sh DIR [ARCH]}
arch=${2:-sm_90}
ptxas=${PTXAS:-ptxas}
pass=0
fail=0
for f in "$dir"/*.ptx; do
    [ -e "$f" ] || continue
    flags=(-arch="$arch")
    if grep -E '^\.extern \.(func|global|const)' "$f" | grep -vqE ' (vprintf|malloc|free|__assertfail)\(|\.extern \.shared'; then
        flags+=(-c)
    fi
    if out=$("$ptxas" "${flags[@]}" -o /dev/null "$f" 2>&1); then
        echo "ok   $(basename "$f")"
        pass=$((pass + 1))
    else
        echo "FAIL $(basename "$f")"
        echo "$out" | head -20 | sed 's/^/     /'
        fail=$((fail + 1))
    fi
done
echo "ptxas -arch=$arch: $pass accepted, $fail refused"
[ "$fail" -eq 0 ]
