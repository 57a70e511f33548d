#!/usr/bin/env bash
# Runs the fact-finding programs in tools/facts/ on a machine with nvcc and an NVIDIA
# GPU and packs every result into $OUT/facts.tar (unpack into tests/facts/).
# Usage (from the repo root): OUT=/some/dir tools/nvcc-facts.sh
set -u
OUT=${OUT:-/tmp/facts-out}
SRC=$(cd "$(dirname "$0")/facts" && pwd)
W=$(mktemp -d)
R=$W/facts
mkdir -p "$R"
cd "$W"
NVCC_VER=$(nvcc --version | grep -i release | sed 's/.*release //')
DRV=$(nvidia-smi --query-gpu=driver_version,name --format=csv,noheader 2>/dev/null | head -1)
HDR="# Captured with nvcc $NVCC_VER; driver/GPU: $DRV; by tools/nvcc-facts.sh"
hdr() { echo "$HDR"; echo "# $1"; echo; }
run() { # name timeout cmd...
  local name=$1 t=$2; shift 2
  { hdr "command: $*"; timeout "$t" "$@" >"$W/o" 2>"$W/e"; local rc=$?
    echo "## stdout"; cat "$W/o"; echo "## stderr"; cat "$W/e"; echo "## exit code: $rc"; } >"$R/$name.txt"
}
build() { # out src flags...
  local out=$1 src=$2; shift 2
  if ! nvcc "$@" -o "$out" "$SRC/$src" >"$W/build-$out.log" 2>&1; then
    echo "BUILD FAILED: nvcc $* $src" >>"$R/build-failures.txt"; cat "$W/build-$out.log" >>"$R/build-failures.txt"
  fi
  cat "$W/build-$out.log" >>"$R/build-warnings.txt"
}
{ hdr "toolchain"; nvcc --version; echo; echo "## nvidia-smi"; nvidia-smi; echo; echo "## host compiler"; g++ --version;
  echo "## nvcc --list-gpu-arch"; nvcc --list-gpu-arch; echo "## nvcc --list-gpu-code"; nvcc --list-gpu-code; } >"$R/toolchain.txt" 2>&1

# 1. architecture
build arch_default arch.cu
build arch_sm90 arch.cu -arch=sm_90
build arch_sm75 arch.cu -arch=sm_75
{ hdr "__CUDA_ARCH__ with no -arch, with -arch=sm_90, -arch=sm_75"
  echo "## nvcc arch.cu (no -arch)"; ./arch_default; echo "## cuobjdump --list-elf --list-ptx"; cuobjdump --list-elf --list-ptx arch_default
  echo "## nvcc -arch=sm_90"; ./arch_sm90; echo "## cuobjdump"; cuobjdump --list-elf --list-ptx arch_sm90
  echo "## nvcc -arch=sm_75"; ./arch_sm75
  echo "## nvcc -dryrun arch.cu (default flags)"; nvcc -dryrun -o x "$SRC/arch.cu" 2>&1 | grep -E 'cicc|ptxas|fatbinary' | head -5
  echo "## CUDA macros predefined for host (nvcc -E -dM)"; echo 'int main(){}' > m.cu; nvcc -E -Xcompiler -dM m.cu 2>/dev/null | grep -E 'CUDA|NVCC' | sort
} >"$R/arch.txt" 2>&1

# 2. error table
build errors errors.cu -arch=sm_90
{ echo "$HDR"; echo "# value<TAB>cudaGetErrorName<TAB>cudaGetErrorString for 0..1000, 10000, -1, 100000"; ./errors; } >"$R/error-table.tsv" 2>&1
grep -n -A3 'enum __device_builtin__ cudaError' /usr/local/cuda/include/driver_types.h >/dev/null 2>&1
{ hdr "enum cudaError from driver_types.h"; sed -n '/^enum __device_builtin__ cudaError$/,/^};/p' /usr/local/cuda/include/driver_types.h | grep -E '^\s*cudaError\w*\s*=' | sed 's/,.*//;s/^\s*//'; } >"$R/error-enum.txt"

# 3. launch validation
build launch launch.cu -arch=sm_90
run launch 120 ./launch

# 4. integer division etc.
build intdiv intdiv.cu -arch=sm_90
run intdiv 60 ./intdiv

# 5. printf
build printf_exit printf_exit.cu -arch=sm_90
for m in nosync slow exit reset memcpy order; do
  run printf-$m-file 60 ./printf_exit $m
  run printf-$m-pipe 60 bash -c "./printf_exit $m | cat"
done
run printf-stderr 60 ./printf_exit stderr
run printf-order-pipe-stdbuf 60 bash -c "stdbuf -o0 ./printf_exit order | cat"
build printf_formats printf_formats.cu -arch=sm_90
run printf-formats 60 ./printf_formats
build printf_fifo printf_fifo.cu -arch=sm_90
{ hdr "65536 threads each printf 'line %07d\\n' (13 bytes): lines that came out"; timeout 60 ./printf_fifo >fifo.out 2>fifo.err; echo "exit $?"; cat fifo.err; echo "lines: $(wc -l <fifo.out)"; head -2 fifo.out; tail -2 fifo.out; sort fifo.out | uniq | wc -l; } >"$R/printf-fifo.txt" 2>&1

# 6. faults
build faults faults.cu -arch=sm_90
for m in assert trap null addr10 oob recursion; do run fault-$m 120 ./faults $m; done
build faults_ndebug faults.cu -arch=sm_90 -DNDEBUG
run fault-assert-NDEBUG 60 ./faults_ndebug assert

# 7. properties
python3 "$SRC/gen_fields.py" /usr/local/cuda/include/driver_types.h "$W" && cp "$W"/*.h.txt "$W"/attr_names.inc "$W"/limit_names.inc "$R/" 
cp "$SRC/props.cu" "$W/props.cu"
if ! nvcc -arch=sm_90 -o props "$W/props.cu" >build-props.log 2>&1; then echo "BUILD FAILED props" >>"$R/build-failures.txt"; cat build-props.log >>"$R/build-failures.txt"; fi
run props 60 ./props
{ hdr "enum cudaDeviceAttr / cudaLimit / cudaFuncAttributes / cudaDeviceProp raw header text"; sed -n '/^enum __device_builtin__ cudaDeviceAttr/,/^};/p;/^enum __device_builtin__ cudaLimit/,/^};/p' /usr/local/cuda/include/driver_types.h; } >"$R/header-enums.txt" 2>&1

# 8. misc API misuse
build misc misc.cu -arch=sm_90
run misc 60 ./misc

ls -la "$R" >"$R/index.txt"
mkdir -p "$OUT"
tar -C "$W" -cf "$OUT/facts.tar" facts
echo "facts done: $(ls "$R" | wc -l) files"
