#!/usr/bin/env python3
# Summarises a CUPRITE_LAUNCH_TRACE file (docs/PERFORMANCE.md, session 11): per launch (the first 2 skipped),
# launcher phases and per-worker wake / first-block / last-block times relative to start.
import sys, statistics as st
def med(v): return st.median(v) if v else float('nan')
for path in sys.argv[1:]:
    L = {}
    for line in open(path):
        l, t, *e = map(int, line.split())
        L.setdefault(l, {})[t] = e
    ids = sorted(L)[2:]
    hand, own, alld, gap, wake_first, wake_last, first_last, lastend_max, ownlast, nthreads = [], [], [], [], [], [], [], [], [], []
    blk_us = []
    wakes_by_worker = {}
    prev_done = None
    for l in ids:
        d = L[l]; z = d.get(0)
        if not z or not z[0]: continue
        s = z[0]
        if prev_done: gap.append((s - prev_done) / 1e3)
        prev_done = z[5] or None
        hand.append((z[3] - s) / 1e3)
        if z[2]: own.append((z[2] - s) / 1e3)
        if z[5]: alld.append((z[5] - s) / 1e3)
        ws = [(t, e) for t, e in d.items() if t > 0]
        nthreads.append(len(ws))
        wk = sorted((e[0] - s) / 1e3 for t, e in ws if e[0])
        if wk: wake_first.append(wk[0]); wake_last.append(wk[-1])
        for t, e in ws:
            if e[0]: wakes_by_worker.setdefault(t, []).append((e[0] - s) / 1e3)
        ends = [(e[2] - s) / 1e3 for t, e in d.items() if e[2]]
        if ends: lastend_max.append(max(ends))
        for t, e in d.items():
            if e[1] and e[2] and e[4]: blk_us.append((e[2] - e[1]) / 1e3 / e[4])
    print(f"== {path}: {len(ids)} launches, threads/launch {med(nthreads)}")
    print(f"  us from launcher start: handed {med(hand):.1f}  first worker awake {med(wake_first):.1f}  last worker awake {med(wake_last):.1f}")
    print(f"  launcher own blocks done {med(own):.1f}  last block end (any thread) {med(lastend_max):.1f}  all done {med(alld):.1f}")
    print(f"  gap between launches (stream thread) {med(gap):.1f}  per block (first->last / blocks, med over threads) {med(blk_us):.3f}")
    print("  wake per worker (median us): " + " ".join(f"{t}:{med(v):.0f}" for t, v in sorted(wakes_by_worker.items())))
    # one example launch in detail
    if ids:
        l = ids[len(ids)//2]; d = L[l]; s = d[0][0]
        print(f"  launch {l}: " + "; ".join(f"t{t} w{(e[0]-s)/1e3 if t else 0:.0f} f{(e[1]-s)/1e3:.0f} l{(e[2]-s)/1e3:.0f} b{e[4]}" for t, e in sorted(d.items()) if e[1]))
