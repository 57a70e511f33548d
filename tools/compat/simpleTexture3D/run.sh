#!/usr/bin/env bash
# cuda-samples simpleTexture3D without OpenGL: builds the sample's own
# simpleTexture3D_kernel.cu (from SRC, a cuda-samples work tree outside this repository)
# with our driver.cpp, which does what the sample's auto-test does (render slice w = 0.5
# of data/Bucky.raw into a 512x512 RGBA image) and compares the bytes with the sample's
# data/ref_texture3D.bin, written by NVIDIA on a GPU.
#   tools/compat/simpleTexture3D/run.sh SRC [NVCC]     (NVCC: default /tmp/compat-cuda/bin/nvcc)
set -eu
SRC=$1
NVCC=${2:-/tmp/compat-cuda/bin/nvcc}
S=$SRC/Samples/0_Introduction/simpleTexture3D
W=$(mktemp -d)
"$NVCC" -I"$SRC/Common" -o "$W/st3d" "$S/simpleTexture3D_kernel.cu" "$(dirname "$0")/driver.cpp"
"$W/st3d" "$S/data"
