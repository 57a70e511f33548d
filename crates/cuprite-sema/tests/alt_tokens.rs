//! C++'s alternative tokens (`and`, `or`, `not`, `bitand`, …) read as the punctuators
//! they stand for (CCCL's headers write `if (not has_flags && …)`).
mod common;
use common::*;

#[test]
fn alternative_tokens_are_operators() {
    let m = compile(
        "static_assert((1 bitor 2) == 3 and not false and (6 bitand 3) == 2 and (5 xor 1) == 4 and compl 0 == -1 and 1 not_eq 2 and (false or true), \"alt\");\n\
         __global__ void k(int *p) {\n\
           int a = p[0], b = p[1];\n\
           if (not (a and b) or a not_eq b) p[2] = compl a bitand b bitor (a xor b);\n\
           p[3] and_eq 1; p[4] or_eq 2; p[5] xor_eq 3;\n\
         }\n",
    );
    func(&m, "k");
}
