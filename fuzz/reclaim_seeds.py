#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write corpus/reclaim/: deterministic seed inputs for the reclaim target.

Each seed is written twice from one list of ops: its trace NAME.trace (the
format of fuzz/reclaim_trace.h, as `mlf-trace decode --target reclaim`
prints it, with a comment saying what the seed is for) and its canonical
bytes NAME (the layout of fuzz/reclaim_codec.h). ctest
trace/roundtrip/reclaim fails if the two drift apart. Overwrites only its
own seeds; an optional argument names another output directory.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "corpus", "reclaim")
MAGIC = "# mlf reclaim trace v1"

ONLINE, OFFLINE, RELEASE, ADD, REFAULT, TOUCH, WBDONE, AGE, PROTECT, \
    SWAPPINESS, RECLAIM, PARK, UNPARK, SHADOW = range(14)
FILE, ZONE1, DIRTY, WB, REF = 1, 2, 4, 8, 16
SWAPPINESS_VALUES = [0, 1, 60, 100, 200]
MEMCG_NR_BINS = 8


class Op:
    """One op: its canonical bytes and its trace line."""

    def __init__(self, data, text):
        self.data = bytes(data)
        self.text = text


def header(nodes, pool):
    assert 1 <= nodes <= 2 and 1 <= pool <= 16
    return Op([nodes - 1, pool - 1], "nodes %d pool %d" % (nodes, pool))


def online(m, b=0):
    # the printer shows a draw below 8 as the bin it picks
    return Op([ONLINE, m, b], "online m%d %s=%d" % (m, "bin" if b < MEMCG_NR_BINS else "draw", b))


def offline(m): return Op([OFFLINE, m], "offline m%d" % m)
def release(m): return Op([RELEASE, m], "release m%d" % m)
def wbdone(m): return Op([WBDONE, m], "wbdone m%d" % m)
def age(m, n): return Op([AGE, m, n], "age m%d n%d" % (m, n))
def touch(f): return Op([TOUCH, f & 255, f >> 8], "touch f%d" % f)
def unpark(k): return Op([UNPARK, k], "unpark p%d" % k)


def _folios(kind, name, m, n, flags, count):
    assert 1 <= count <= 16 and not flags & ~31
    words = ["m%d" % m, "n%d" % n, "file" if flags & FILE else "anon",
             "z%d" % (1 if flags & ZONE1 else 0)]
    words += [w for bit, w in ((DIRTY, "dirty"), (WB, "writeback"), (REF, "referenced"))
              if flags & bit]
    words.append("x%d" % count)
    return Op([kind, m, n, flags, count - 1], " ".join([name] + words))


def add(m, n, flags, count): return _folios(ADD, "add", m, n, flags, count)
def refault(m, n, flags, count): return _folios(REFAULT, "refault", m, n, flags, count)


def protect(m, lo_min, low):
    return Op([PROTECT, m, lo_min, low], "protect m%d min=%d low=%d" % (m, lo_min, low))


def swappiness(m, idx):
    return Op([SWAPPINESS, m, idx], "swappiness m%d %d" % (m, SWAPPINESS_VALUES[idx]))


def reclaim(n, target, prio, kswapd=0, dying=0, draws=(0, 1)):
    text = "reclaim n%d target=%d prio=%d%s%s" % (n, target, prio, " kswapd" if kswapd else "",
                                                 " dying" if dying else "")
    if draws:
        text += " draws=" + ",".join(map(str, draws))
    return Op([RECLAIM, n, target, prio, kswapd | dying << 1, len(draws)] + list(draws), text)


def park(m, n, kswapd=0, draw=0):
    return Op([PARK, m, n, kswapd, draw],
              "park m%d n%d%s draw=%d" % (m, n, " kswapd" if kswapd else "", draw))


def shadow(m, n, nodes): return Op([SHADOW, m, n, nodes], "shadow m%d n%d nodes=%d" % (m, n, nodes))


# name: (what it is for, header, ops)
SEEDS = {
    "evict-anon": (
        "anon folios aged twice and evicted at priority 0 until 8 pages are\n"
        "reclaimed, then the shadow nodes counted against their budget",
        header(1, 4), [online(0), add(0, 0, 0, 16), age(0, 0), age(0, 0),
                       reclaim(0, 8, 0), shadow(0, 0, 40)]),
    "evict-mixed-dirty": (
        "dirty anon and clean file folios evicted together; writeback ends and\n"
        "a second reclaim takes what is left",
        header(1, 4), [online(0), add(0, 0, DIRTY, 12), add(0, 0, FILE, 12),
                       age(0, 0), reclaim(0, 0, 0, draws=(1, 0, 1)),
                       wbdone(0), reclaim(0, 0, 0)]),
    "throttle-anon-only": (
        "an eviction parked with anon folios isolated while direct reclaim and\n"
        "kswapd run: only one type is isolated (the throttle)",
        header(1, 4), [online(0), add(0, 0, 0, 16), park(0, 0), unpark(0),
                       age(0, 0), park(0, 0), reclaim(0, 0, 0),
                       unpark(0), reclaim(0, 0, 0, kswapd=1)]),
    "throttle-one-type-over": (
        "as throttle-anon-only, with file folios added while the eviction is\n"
        "parked: one type over its isolation limit, the other not",
        header(1, 4), [online(0), add(0, 0, 0, 16), park(0, 0),
                       unpark(0), age(0, 0), park(0, 0),
                       add(0, 0, FILE, 8), age(0, 0),
                       reclaim(0, 0, 0), unpark(0)]),
    "dying-task": (
        "a dying task reclaims while an eviction is parked: the throttle lets\n"
        "it go with faked progress",
        header(1, 4), [online(0), add(0, 0, 0, 16), park(0, 0), unpark(0),
                       age(0, 0), park(0, 0), reclaim(0, 0, 0, dying=1)]),
    "offline-scrape-reparent": (
        "a memcg with folios and refaults on two nodes goes offline, is\n"
        "reclaimed on both and released: its event counts go to the parent",
        header(2, 4), [online(0), online(1, 3), add(0, 0, 0, 10),
                       add(0, 1, FILE, 10), refault(0, 0, FILE, 3),
                       offline(0), reclaim(0, 0, 12), reclaim(1, 0, 12),
                       release(0), reclaim(0, 0, 12)]),
    "protection": (
        "memory.min on one memcg and memory.low on another under reclaim,\n"
        "then the low protection dropped",
        header(1, 4), [online(0), online(1), add(0, 0, 0, 16), add(1, 0, FILE, 16),
                       protect(0, 200, 0), protect(1, 0, 200), age(0, 0), age(1, 0),
                       reclaim(0, 0, 0), reclaim(0, 0, 0), protect(1, 0, 0),
                       reclaim(0, 0, 0)]),
    "touch-and-swappiness": (
        "referenced and touched folios, reclaim at swappiness 0 and 200, then\n"
        "the shadow nodes counted",
        header(1, 4), [online(0), add(0, 0, REF, 8), add(0, 0, FILE | ZONE1, 8),
                       touch(3), touch(9), swappiness(0, 0), age(0, 0),
                       reclaim(0, 0, 0), swappiness(0, 4), reclaim(0, 0, 0),
                       shadow(0, 0, 3)]),
    "park-offline-release": (
        "an eviction parked while its memcg goes offline; reclaim walks past\n"
        "it, the eviction finishes, and the memcg is released",
        header(1, 4), [online(0), add(0, 0, FILE, 16), age(0, 0),
                       park(0, 0), offline(0), reclaim(0, 0, 0),
                       unpark(0), reclaim(0, 0, 12), release(0)]),
}


def trace_text(about, hdr, ops):
    lines = [MAGIC] + ["# " + line for line in about.split("\n")]
    lines += [hdr.text] + [op.text for op in ops]
    return "\n".join(lines) + "\n"


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else OUT
    os.makedirs(out, exist_ok=True)
    for name, (about, hdr, ops) in sorted(SEEDS.items()):
        with open(os.path.join(out, name), "wb") as f:
            f.write(hdr.data + b"".join(op.data for op in ops))
        with open(os.path.join(out, name + ".trace"), "w", encoding="utf-8") as f:
            f.write(trace_text(about, hdr, ops))
    print("wrote %d seeds and their traces to %s" % (len(SEEDS), os.path.relpath(out)))


if __name__ == "__main__":
    main()
