#!/usr/bin/env python3
"""Writes include/cuda_bf16.h from include/cuda_fp16.h: the two headers are the same code
for two formats (cuprite/narrow_float.h does the arithmetic), so bfloat16's is made by
renaming half's names to CUDA's bfloat16 names. Run from the repository root after
changing cuda_fp16.h; with --check it only says whether the file is up to date."""
import re
import sys

src = open("include/cuda_fp16.h").read()

# Function names first (longest first where one is a prefix of another), then types.
renames = [
    (r"__half2_raw\b", "__nv_bfloat162_raw"),
    (r"__half_raw\b", "__nv_bfloat16_raw"),
    (r"__half2half2\b", "__bfloat162bfloat162"),
    (r"__halves2half2\b", "__halves2bfloat162"),
    (r"__lows2half2\b", "__lows2bfloat162"),
    (r"__highs2half2\b", "__highs2bfloat162"),
    (r"__low2half2\b", "__low2bfloat162"),
    (r"__high2half2\b", "__high2bfloat162"),
    (r"__low2half\b", "__low2bfloat16"),
    (r"__high2half\b", "__high2bfloat16"),
    (r"__half22float2\b", "__bfloat1622float2"),
    (r"__float22half2_rn\b", "__float22bfloat162_rn"),
    (r"__floats2half2_rn\b", "__floats2bfloat162_rn"),
    (r"__float2half2_rn\b", "__float2bfloat162_rn"),
    (r"__float2half", "__float2bfloat16"),
    (r"__double2half\b", "__double2bfloat16"),
    (r"__half2float\b", "__bfloat162float"),
    (r"__half2(int|uint|short|ushort|ll|ull|char|uchar)(?=_|\b)", r"__bfloat162\1"),
    (r"__(int|uint|short|ushort|ll|ull)2half\b", r"__\g<1>2bfloat16"),
    (r"__half_as_", "__bfloat16_as_"),
    (r"_as_half\b", "_as_bfloat16"),
    (r"\bmake_half2\b", "make_bfloat162"),
    (r"\b__half2\b", "__nv_bfloat162"),
    (r"\b__half\b", "__nv_bfloat16"),
    (r"\bhalf2\b", "nv_bfloat162"),
    (r"\bhalf\b", "nv_bfloat16"),
    (r"__cuprite_h_", "__cuprite_bf_"),
    (r"__CUPRITE_H2_", "__CUPRITE_BF2_"),
    (r"__CUPRITE_H_", "__CUPRITE_BF_"),
    (r"\b__CUPRITE_H\b", "__CUPRITE_BF"),
    (r"\b__CUPRITE_HM\b", "__CUPRITE_BFM"),
    (r"\b__CUPRITE_HDEV\b", "__CUPRITE_BFDEV"),
    (r"__CUPRITE_F16\b", "__CUPRITE_BF16"),
    (r"_FP16\b", "_BF16"),
    (r"__CUDA_FP16_H__", "__CUDA_BF16_H__"),
    (r"__CUDA_NO_HALF_CONVERSIONS__", "__CUDA_NO_BFLOAT16_CONVERSIONS__"),
    (r"__CUDA_NO_HALF_OPERATORS__", "__CUDA_NO_BFLOAT16_OPERATORS__"),
    (r"__CUDA_NO_HALF2_OPERATORS__", "__CUDA_NO_BFLOAT162_OPERATORS__"),
    (r"\bCUDA_NO_HALF\b", "CUDA_NO_BFLOAT16"),
]

# The header comment and the format constants are bfloat16's own.
head_end = src.index("#ifndef __CUDA_FP16_H__")
body = src[head_end:]
for pat, rep in renames:
    body = re.sub(pat, rep, body)

# Format-specific bits: one is 0x3f80 in bfloat16, and its constants.
body = body.replace("0x3c00u", "0x3f80u")
consts = {
    "CUDART_INF_BF16": "0x7F80U",
    "CUDART_NAN_BF16": "0x7FFFU",
    "CUDART_MIN_DENORM_BF16": "0x0001U",
    "CUDART_MAX_NORMAL_BF16": "0x7F7FU",
    "CUDART_NEG_ZERO_BF16": "0x8000U",
    "CUDART_ZERO_BF16": "0x0000U",
    "CUDART_ONE_BF16": "0x3F80U",
}
for name, bits in consts.items():
    body = re.sub(r"(#define %s __ushort_as_bfloat16\(\(unsigned short\))0x[0-9A-F]+U" % name, r"\g<1>%s" % bits, body)
# double -> bfloat16 NaN: the quiet NaN with the input's sign.
body = body.replace("((unsigned short)0x7e00u), 1", "((unsigned short)0x7fc0u), 1")
# Infinity tests in __hisinf.
body = body.replace("0x7c00u) return 1", "0x7f80u) return 1").replace("0xfc00u) return -1", "0xff80u) return -1")
# The conversions between the formats: __nv_bfloat16's constructor from __half here,
# and the definition of __half's from __nv_bfloat16, which cuda_fp16.h declares.
cross_decl = "    __CUPRITE_BFM explicit __nv_bfloat16(const __nv_bfloat16 &f); /* __cuprite_cross_ctor */"
assert cross_decl in body, "cuda_fp16.h's cross-format constructor moved"
body = body.replace(cross_decl, """    __CUPRITE_BFM explicit __nv_bfloat16(const __half &f)
        : __x(__cuprite_nf_from_f32(__half2float(f), __CUPRITE_BF16, __CUPRITE_RN, __CUPRITE_BF_NAN_FROM_F32)) {}""")
body = body.replace("struct __nv_bfloat16;\n\n", "", 1)
body = body.replace("#endif /* __cplusplus */", """__CUPRITE_BFM inline __half::__half(const __nv_bfloat16 &f)
    : __x(__cuprite_nf_from_f32(__bfloat162float(f), __CUPRITE_F16, __CUPRITE_RN, __CUPRITE_H_NAN_FROM_F32)) {}

#endif /* __cplusplus */""", 1)
# cuda_bf16.h needs cuda_fp16.h's nothing, but CUDA's includes it: do the same.
body = body.replace('#include "cuprite/narrow_float.h"', '#include "cuprite/narrow_float.h"\n#include "cuda_fp16.h"', 1)

header = """/* cuda_bf16.h (Cuprite): CUDA's bfloat16 type and functions, written for Cuprite from the
 * CUDA Math API's "Bfloat16 Precision Intrinsics" pages.
 *
 * GENERATED from cuda_fp16.h by tools/gen-cuda-bf16.py: do not edit; change cuda_fp16.h
 * and run the script. `__nv_bfloat16` (1 sign, 8 exponent, 7 mantissa bits) and
 * `__nv_bfloat162` have the same functions as `__half` and `__half2` (cuda_fp16.h says
 * how they are computed and which results are the GPU's bits), under CUDA's bfloat16
 * names: __float2bfloat16*, __bfloat162float, __bfloat162int_rn, ...; the arithmetic,
 * comparison and math functions (__hadd, __hfma, __heq, hsqrt, ...) are overloads of
 * half's. */
"""
if "--check" in sys.argv[1:]:
    # Used by the test suite: the committed file must be what this script writes.
    if open("include/cuda_bf16.h").read() != header + body:
        sys.exit("include/cuda_bf16.h is stale: run tools/gen-cuda-bf16.py")
else:
    open("include/cuda_bf16.h", "w").write(header + body)
    print("wrote include/cuda_bf16.h", file=sys.stderr)
