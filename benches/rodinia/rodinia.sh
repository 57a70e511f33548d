# Sourced by benches/run.sh --rodinia: Rodinia's own OpenMP versions of bfs, hotspot and
# pathfinder as an extra column, fetched at run time and never committed. The sources come
# from RODINIA_SRC (a checkout of yuhc/gpu-rodinia or rodinia_3.1) or else from the bare
# git mirror RODINIA_GIT. Two edits are made to the fetched copy, for measuring only:
# pathfinder's `#define BENCH_PRINT` (which prints the whole 32M-cell grid) is removed, and
# hotspot prints its time with 6 decimals instead of 3 (milliseconds are its resolution).
RODINIA_GIT=${RODINIA_GIT:-/work/.mirror/yuhc+gpu-rodinia/repo}
RODINIA_KERNELS=(bfs hotspot pathfinder)
RDIR=$BENCH_DIR/rodinia

rodinia_prepare() {
  rm -rf "$RDIR" && mkdir -p "$RDIR/src" "$RDIR/data" || return 1
  if [ -n "${RODINIA_SRC:-}" ]; then
    for k in "${RODINIA_KERNELS[@]}"; do cp -r "$RODINIA_SRC/openmp/$k" "$RDIR/src/" || return 1; done
  else
    # (the mirror lacks some large blobs elsewhere in openmp/, which git reports; the
    # three directories are checked below)
    git --git-dir="$RODINIA_GIT" archive HEAD:openmp "${RODINIA_KERNELS[@]}" 2>/dev/null | tar -x -C "$RDIR/src"
    [ -f "$RDIR/src/bfs/bfs.cpp" ] && [ -f "$RDIR/src/hotspot/hotspot_openmp.cpp" ] && [ -f "$RDIR/src/pathfinder/pathfinder.cpp" ] || { echo "run.sh: cannot read Rodinia from $RODINIA_GIT (set RODINIA_SRC or RODINIA_GIT)" >&2; return 1; }
  fi
  sed -i '/^#define BENCH_PRINT/d' "$RDIR/src/pathfinder/pathfinder.cpp"
  sed -i 's/Total time: %\.3f seconds/Total time: %.6f seconds/' "$RDIR/src/hotspot/hotspot_openmp.cpp"
  local CXX=${CXX:-g++}
  $CXX $OMP_CFLAGS -o "$RDIR/bfs" "$RDIR/src/bfs/bfs.cpp" >"$LOG/bfs.rodinia.build" 2>&1
  $CXX $OMP_CFLAGS -o "$RDIR/hotspot" "$RDIR/src/hotspot/hotspot_openmp.cpp" >"$LOG/hotspot.rodinia.build" 2>&1
  $CXX $OMP_CFLAGS -o "$RDIR/pathfinder" "$RDIR/src/pathfinder/pathfinder.cpp" >"$LOG/pathfinder.rodinia.build" 2>&1
  "$CC" -O2 -o "$RDIR/inputs" "$ROOT/benches/rodinia/inputs.c" && "$RDIR/inputs" "$RDIR/data" || return 1
  "$CC" -O2 -o "$RDIR/tsc_mhz" "$ROOT/benches/rodinia/tsc_mhz.c" && TSC_MHZ=$("$RDIR/tsc_mhz") || return 1
  echo "# rodinia: $(git --git-dir="$RODINIA_GIT" rev-parse --short HEAD 2>/dev/null || echo "${RODINIA_SRC:-?}"), TSC ${TSC_MHZ} MHz"
}

# Appends "rodinia REP NAME ms=… [check=…]" to RAW; the check of bfs is the sum of its levels,
# as in bfs.cu (hotspot's constants and pathfinder's rand() inputs differ from ours).
rodinia_run() { # kernel rep
  local n=$1 rep=$2 out t
  [ -x "$RDIR/$n" ] || return
  case "$n" in
    bfs)
      out=$(cd "$RDIR" && timeout 600 ./bfs "$(nproc)" data/graph.txt 2>&1)
      t=$(echo "$out" | awk '/^Compute time:/ { printf "%.3f", $3 * 1000 }')
      [ -n "$t" ] && echo "rodinia $rep bfs ms=$t check=$(awk -F'cost:' '{ s += $2 } END { printf "%d", s }' "$RDIR/result.txt")" >>"$RAW" ;;
    hotspot)
      out=$(cd "$RDIR" && timeout 600 ./hotspot 1024 1024 20 "$(nproc)" data/temp.txt data/power.txt out.txt 2>&1)
      t=$(echo "$out" | awk '/^Total time:/ { printf "%.3f", $3 * 1000 }')
      [ -n "$t" ] && echo "rodinia $rep hotspot ms=$t" >>"$RAW" ;;
    pathfinder)
      out=$(cd "$RDIR" && timeout 600 ./pathfinder 262144 128 2>&1)
      t=$(echo "$out" | awk -v mhz="$TSC_MHZ" '/^timer:/ { printf "%.3f", $2 / (mhz * 1000) }')
      [ -n "$t" ] && echo "rodinia $rep pathfinder ms=$t" >>"$RAW" ;;
  esac
  [ -n "$t" ] || echo "rodinia $rep $n exit=no-time" >>"$RAW"
}
