#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write corpus/reclaim/: deterministic seed inputs for the reclaim target
(the byte layout is in fuzz/reclaim_codec.h; a failing input's trace is
printed by the target). Overwrites only its own seeds."""
import os

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "corpus", "reclaim")

ONLINE, OFFLINE, RELEASE, ADD, REFAULT, TOUCH, WBDONE, AGE, PROTECT, \
    SWAPPINESS, RECLAIM, PARK, UNPARK, SHADOW = range(14)
FILE, ZONE1, DIRTY, WB, REF = 1, 2, 4, 8, 16


def header(nodes, pool):
    return bytes([nodes - 1, pool - 1])


def online(m, b=0): return bytes([ONLINE, m, b])
def offline(m): return bytes([OFFLINE, m])
def release(m): return bytes([RELEASE, m])
def add(m, n, flags, count): return bytes([ADD, m, n, flags, count - 1])
def refault(m, n, flags, count): return bytes([REFAULT, m, n, flags, count - 1])
def touch(f): return bytes([TOUCH, f & 255, f >> 8])
def wbdone(m): return bytes([WBDONE, m])
def age(m, n): return bytes([AGE, m, n])
def protect(m, lo_min, low): return bytes([PROTECT, m, lo_min, low])
def swappiness(m, idx): return bytes([SWAPPINESS, m, idx])
def reclaim(n, target, prio, kswapd=0, dying=0, draws=(0, 1)):
    return bytes([RECLAIM, n, target, prio, kswapd | dying << 1, len(draws)] + list(draws))
def park(m, n, kswapd=0, draw=0): return bytes([PARK, m, n, kswapd, draw])
def unpark(k): return bytes([UNPARK, k])
def shadow(m, n, nodes): return bytes([SHADOW, m, n, nodes])


SEEDS = {
    "evict-anon": (header(1, 4), [online(0), add(0, 0, 0, 16), age(0, 0), age(0, 0),
                                  reclaim(0, 8, 0), shadow(0, 0, 40)]),
    "evict-mixed-dirty": (header(1, 4), [online(0), add(0, 0, DIRTY, 12), add(0, 0, FILE, 12),
                                         age(0, 0), reclaim(0, 0, 0, draws=(1, 0, 1)),
                                         wbdone(0), reclaim(0, 0, 0)]),
    "throttle-anon-only": (header(1, 4), [online(0), add(0, 0, 0, 16), park(0, 0), unpark(0),
                                          age(0, 0), park(0, 0), reclaim(0, 0, 0),
                                          unpark(0), reclaim(0, 0, 0, kswapd=1)]),
    "throttle-one-type-over": (header(1, 4), [online(0), add(0, 0, 0, 16), park(0, 0),
                                              unpark(0), age(0, 0), park(0, 0),
                                              add(0, 0, FILE, 8), age(0, 0),
                                              reclaim(0, 0, 0), unpark(0)]),
    "dying-task": (header(1, 4), [online(0), add(0, 0, 0, 16), park(0, 0), unpark(0),
                                  age(0, 0), park(0, 0), reclaim(0, 0, 0, dying=1)]),
    "offline-scrape-reparent": (header(2, 4), [online(0), online(1, 3), add(0, 0, 0, 10),
                                               add(0, 1, FILE, 10), refault(0, 0, FILE, 3),
                                               offline(0), reclaim(0, 0, 12), reclaim(1, 0, 12),
                                               release(0), reclaim(0, 0, 12)]),
    "protection": (header(1, 4), [online(0), online(1), add(0, 0, 0, 16), add(1, 0, FILE, 16),
                                  protect(0, 200, 0), protect(1, 0, 200), age(0, 0), age(1, 0),
                                  reclaim(0, 0, 0), reclaim(0, 0, 0), protect(1, 0, 0),
                                  reclaim(0, 0, 0)]),
    "touch-and-swappiness": (header(1, 4), [online(0), add(0, 0, REF, 8), add(0, 0, FILE | ZONE1, 8),
                                            touch(3), touch(9), swappiness(0, 0), age(0, 0),
                                            reclaim(0, 0, 0), swappiness(0, 4), reclaim(0, 0, 0),
                                            shadow(0, 0, 3)]),
    "park-offline-release": (header(1, 4), [online(0), add(0, 0, FILE, 16), age(0, 0),
                                            park(0, 0), offline(0), reclaim(0, 0, 0),
                                            unpark(0), reclaim(0, 0, 12), release(0)]),
}


def main():
    os.makedirs(OUT, exist_ok=True)
    for name, (hdr, ops) in sorted(SEEDS.items()):
        with open(os.path.join(OUT, name), "wb") as f:
            f.write(hdr + b"".join(ops))
    print("wrote %d seeds to %s" % (len(SEEDS), os.path.relpath(OUT)))


if __name__ == "__main__":
    main()
