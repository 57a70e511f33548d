#!/usr/bin/env python3
"""Compares two result directories of run-suite.sh (A = Cuprite, B = the nvcc reference).

Reads the suite's table on stdin (NAME~DIR~BUILD~RUN~OUTFILES~FILTER~TOL); prints one
line per program:  NAME | built | ran | passed | note.
Numbers in NAME.out are compared with the table's tolerance (exact, or rel=R: equal if
|a-b| <= R * max(|a|, |b|, 1)); everything else must be equal."""
import os
import re
import sys

A, B = sys.argv[1], sys.argv[2]
NUM = re.compile(r'[-+]?(?:\d+\.\d*|\.\d+|\d+)(?:[eE][-+]?\d+)?|[-+]?(?:nan|inf)', re.I)


def read(d, n, ext):
    p = os.path.join(d, f"{n}.{ext}")
    try:
        with open(p, "rb") as f:
            return f.read().decode("utf-8", "replace")
    except OSError:
        return None


def tokens(s):
    out = []
    for line in s.splitlines():
        pos = 0
        for m in NUM.finditer(line):
            if line[pos:m.start()].strip():
                out.append(("s", " ".join(line[pos:m.start()].split())))
            out.append(("n", m.group()))
            pos = m.end()
        if line[pos:].strip():
            out.append(("s", " ".join(line[pos:].split())))
        out.append(("s", "\n"))
    return out


def num_eq(a, b, rel):
    if a == b:
        return True
    try:
        x, y = float(a), float(b)
    except ValueError:
        return False
    if x != x and y != y:
        return True
    if rel is None:
        return x == y
    return abs(x - y) <= rel * max(abs(x), abs(y), 1.0)


def first_diff(a, b, rel):
    ta, tb = tokens(a), tokens(b)
    line = 1
    for i in range(max(len(ta), len(tb))):
        if i >= len(ta) or i >= len(tb):
            return f"output length differs (line {line})"
        x, y = ta[i], tb[i]
        if x[0] != y[0] or (x[0] == "s" and x[1] != y[1]) or (x[0] == "n" and not num_eq(x[1], y[1], rel)):
            return f"line {line}: cuprite {x[1]!r} vs nvcc {y[1]!r}"
        if x == ("s", "\n"):
            line += 1
    return None


def rc(d, n, ext):
    v = read(d, n, ext)
    return None if v is None else v.strip()


for row in sys.stdin:
    f = row.rstrip("\n").split("~")
    if len(f) < 7:
        continue
    name, tol = f[0], f[6].strip()
    rel = None
    if tol.startswith("rel="):
        rel = float(tol[4:])
    b_built, b_rc = rc(B, name, "build.rc"), rc(B, name, "rc")
    a_built, a_rc = rc(A, name, "build.rc"), rc(A, name, "rc")
    ref = "nvcc: " + ("not run" if b_built is None else "build failed" if b_built != "0" else "built" if b_rc is None else f"exit {b_rc}")
    if a_built is None:
        print(f"{name} | - | - | - | not attempted | {ref}")
        continue
    if a_built != "0":
        log = read(A, name, "build.log") or ""
        errs = [l for l in log.splitlines() if "error" in l.lower()]
        print(f"{name} | no | - | - | {(errs[0] if errs else log.splitlines()[-1] if log else '')[:300]} | {ref}")
        continue
    skip = read(A, name, "skip")
    if skip is not None:
        print(f"{name} | yes | skipped | - | {skip.strip()} | {ref}")
        continue
    if a_rc == "124":
        print(f"{name} | yes | timeout | no | run timed out | {ref}")
        continue
    if b_built != "0" or b_rc is None:
        print(f"{name} | yes | exit {a_rc} | ? | no reference | {ref}")
        continue
    oa, ob = read(A, name, "out") or "", read(B, name, "out") or ""
    d = first_diff(oa, ob, rel)
    same_rc = a_rc == b_rc
    if d is None and same_rc:
        print(f"{name} | yes | exit {a_rc} | yes | {tol} | {ref}")
    else:
        why = []
        if not same_rc:
            why.append(f"exit {a_rc} vs nvcc {b_rc}")
        if d:
            why.append(d[:300])
        kind = "WRONG" if a_rc == "0" and b_rc == "0" else "differs"
        print(f"{name} | yes | exit {a_rc} | no ({kind}) | {'; '.join(why)} | {ref}")
