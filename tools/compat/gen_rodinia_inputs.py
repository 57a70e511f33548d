#!/usr/bin/env python3
"""Small deterministic inputs for Rodinia's CUDA programs (the suite ships no data).

Usage: gen_rodinia_inputs.py DATA_DIR   (Rodinia's data/ directory; programs that
hard-code ../../data/NAME/... find their inputs there). Sizes are chosen so that a run
on the CPU takes seconds. Values are plausible for each program (temperatures and
powers for hotspot, a closed 2-D mesh for cfd, ...) but not meaningful."""
import os
import random
import struct
import sys

D = sys.argv[1]
R = random.Random(20261124)


def path(*p):
    f = os.path.join(D, *p)
    os.makedirs(os.path.dirname(f), exist_ok=True)
    return f


# b+tree: "count" then one key per line; command file as in Rodinia's data.
n = 10000
with open(path("b+tree", "mil.txt"), "w") as f:
    f.write(f"{n}\n")
    for _ in range(n):
        f.write(f"{R.randrange(0, 1000000)}\n")
with open(path("b+tree", "command.txt"), "w") as f:
    f.write("j 1000 500\nk 1000\n")

# bfs: nodes (start, degree), source, edges (id, cost)
n = 4096
adj = [[] for _ in range(n)]
for i in range(n):
    for _ in range(R.randrange(1, 6)):
        adj[i].append(R.randrange(n))
with open(path("bfs", "graph4096.txt"), "w") as f:
    f.write(f"{n}\n")
    s = 0
    for i in range(n):
        f.write(f"{s} {len(adj[i])}\n")
        s += len(adj[i])
    f.write("\n0\n\n")
    f.write(f"{s}\n")
    for i in range(n):
        for j in adj[i]:
            f.write(f"{j} {R.randrange(1, 10)}\n")

# cfd: nel, then per element: area, 4 x (neighbour (1-based, 0 = wall, -1 = far
# field), normal x y z). A 32 x 32 grid of cells, faces +-x, +-y.
W = 32
with open(path("cfd", "grid.domn"), "w") as f:
    f.write(f"{W * W}\n")
    for y in range(W):
        for x in range(W):
            f.write("0.01")
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                nx, ny = x + dx, y + dy
                nb = ny * W + nx + 1 if 0 <= nx < W and 0 <= ny < W else -1
                f.write(f" {nb} {0.1 * dx:.6f} {0.1 * dy:.6f} 0.000000")
            f.write("\n")

# dwt2d: raw 64x64 RGB bytes (the program reads w*h*3 bytes, no BMP header parsing)
with open(path("dwt2d", "rgb.bmp"), "wb") as f:
    f.write(bytes(R.randrange(256) for _ in range(64 * 64 * 3)))

# gaussian: n, matrix a (n x n), vector b
n = 16
with open(path("gaussian", "matrix16.txt"), "w") as f:
    f.write(f"{n}\n\n")
    for i in range(n):
        f.write(" ".join(f"{(R.uniform(-1, 1) + (n if i == j else 0)):.4f}" for j in range(n)) + "\n")
    f.write("\n" + " ".join(f"{R.uniform(-1, 1):.4f}" for _ in range(n)) + "\n")

# hotspot: temperatures (K) and powers, one per line
for name, cnt in (("hotspot", 64 * 64), ("hotspot3D", 64 * 64 * 8)):
    suffix = "64" if name == "hotspot" else "64x8"
    with open(path(name, f"temp_{suffix}"), "w") as f:
        for _ in range(cnt):
            f.write(f"{R.uniform(320, 345):.6f}\n")
    with open(path(name, f"power_{suffix}"), "w") as f:
        for _ in range(cnt):
            f.write(f"{R.uniform(0, 0.002):.8f}\n")

# huffman: 256 KiB of bytes with a skewed distribution (read as 65536 uints)
with open(path("huffman", "test64k.in"), "wb") as f:
    f.write(bytes(min(255, int(R.expovariate(1 / 20))) for _ in range(262144)))

# kmeans: "id f1 ... f8", 1000 points around 5 centres
cent = [[R.uniform(0, 10) for _ in range(8)] for _ in range(5)]
with open(path("kmeans", "points1k.txt"), "w") as f:
    for i in range(1000):
        c = cent[i % 5]
        f.write(f"{i} " + " ".join(f"{v + R.gauss(0, 0.5):.4f}" for v in c) + "\n")

# mummergpu: reference and queries (FASTA)
ref = "".join(R.choice("ACGT") for _ in range(20000))
with open(path("mummergpu", "ref.fna"), "w") as f:
    f.write(">ref\n")
    for i in range(0, len(ref), 70):
        f.write(ref[i:i + 70] + "\n")
with open(path("mummergpu", "qry.fna"), "w") as f:
    for q in range(200):
        s = R.randrange(0, len(ref) - 100)
        seq = list(ref[s:s + 100])
        for _ in range(3):
            seq[R.randrange(100)] = R.choice("ACGT")
        f.write(f">q{q}\n{''.join(seq)}\n")

# myocyte: 91 initial values, 18 parameters
with open(path("myocyte", "y.txt"), "w") as f:
    for i in range(91):
        f.write(f"{0.01 * (1 + i % 7):.6f}\n")
with open(path("myocyte", "params.txt"), "w") as f:
    for i in range(18):
        f.write(f"{0.1 * (1 + i % 5):.6f}\n")

# srad_v1: P2 image, 128 rows x 96 cols (three header lines are skipped)
rows, cols = 128, 96
with open(path("srad", "image.pgm"), "w") as f:
    f.write(f"P2\n{cols} {rows}\n255\n")
    for r in range(rows):
        f.write(" ".join(str(min(255, max(0, int(128 + 60 * ((r // 16 + c // 16) % 2) + R.gauss(0, 12))))) for c in range(cols)) + "\n")

print("inputs written under", D)
