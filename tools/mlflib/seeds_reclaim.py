# SPDX-License-Identifier: GPL-2.0
"""The reclaim target's seeds (tools/mlf corpus): each a trace (the format
of fuzz/reclaim_trace.h, as `mlf-trace decode --target reclaim` prints it,
with a comment saying what the seed is for), which mlf-trace encodes into
its bytes. Besides the hand-made seeds, a state seed (state-*) per state
of a memcg that tools/mlflib/states.py says the harness can meet, each met
by every op kind that applies (ctest states/reclaim). SEEDS: {name: a
function returning its Seed}.
"""
from . import targets

FILE, ZONE1, DIRTY, WB, REF = 1, 2, 4, 8, 16   # an add's or a refault's flags
SWAPPINESS_VALUES = [0, 1, 60, 100, 200]
MEMCG_NR_BINS = 8


def header(nodes, pool):
    assert 1 <= nodes <= 2 and 1 <= pool <= 16
    return "nodes %d pool %d" % (nodes, pool)


def online(m, b=0, parent=None):
    # the printer shows a draw below 8 as the bin it picks
    text = "online m%d %s=%d" % (m, "bin" if b < MEMCG_NR_BINS else "draw", b)
    if parent is not None:
        text += " parent=m%d" % parent
    return text


def offline(m): return "offline m%d" % m
def release(m): return "release m%d" % m
def wbdone(m): return "wbdone m%d" % m
def age(m, n): return "age m%d n%d" % (m, n)
def touch(f): return "touch f%d" % f
def unpark(k): return "unpark p%d" % k
def free(m, n): return "free m%d n%d" % (m, n)


def _folios(name, m, n, flags, count):
    assert 1 <= count <= 16 and not flags & ~31
    words = ["m%d" % m, "n%d" % n, "file" if flags & FILE else "anon",
             "z%d" % (1 if flags & ZONE1 else 0)]
    words += [w for bit, w in ((DIRTY, "dirty"), (WB, "writeback"), (REF, "referenced"))
              if flags & bit]
    words.append("x%d" % count)
    return " ".join([name] + words)


def add(m, n, flags, count): return _folios("add", m, n, flags, count)
def refault(m, n, flags, count): return _folios("refault", m, n, flags, count)


def protect(m, lo_min, low):
    return "protect m%d min=%d low=%d" % (m, lo_min, low)


def swappiness(m, idx):
    return "swappiness m%d %d" % (m, SWAPPINESS_VALUES[idx])


def reclaim(n, target, prio, kswapd=0, dying=0, draws=(0, 1), order=0, maxzone=None, others=0):
    text = "reclaim n%d target=%d prio=%d%s%s" % (n, target, prio, " kswapd" if kswapd else "",
                                                 " dying" if dying else "")
    zones = 0 if maxzone is None else maxzone + 1
    text += "".join(" %s=%d" % (k, v) for k, v in (("order", order), ("maxzone", zones - 1),
                                                   ("others", others)) if v > 0 or
                    (k == "maxzone" and zones))
    if draws:
        text += " draws=" + ",".join(map(str, draws))
    return text


def park(m, n, kswapd=0, draw=0):
    return "park m%d n%d%s draw=%d" % (m, n, " kswapd" if kswapd else "", draw)


def shadow(m, n, nodes): return "shadow m%d n%d nodes=%d" % (m, n, nodes)
def soft(m, n): return "soft m%d n%d" % (m, n)


def zone(n, z, managed, wmin, gap, boost=0, reserve=0, free=0):
    return ("zone n%d z%d managed=%d min=%d gap=%d boost=%d reserve=%d free=%d"
            % (n, z, managed, wmin, gap, boost, reserve, free))


def slab(m, n, s, objects):
    assert 1 <= objects <= 256
    return "slab m%d n%d s%d objects=%d" % (m, n, s, objects)


def sysctl(recursiveprot=0, tiering=0):
    return "sysctl recursiveprot=%d tiering=%d" % (recursiveprot, tiering)


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


# ---- state seeds: a memcg in each state an op can meet it in ----
#
# tools/mlflib/states.py's cells of the reclaim target: each op kind of
# RECLAIM_KINDS meets memcg m0 in each (stage, generation, segment, place in
# its bin) the harness can reach, one seed per state. What moves a memcg on
# the memcg LRU here: online (the tail of a bin of the old generation, the
# bin its draw), offline (MEMCG_LRU_OLD: the head of the old generation's
# bin 0, since the op has no draws), release, and a walk, which visits the
# old generation bin by bin from its first draw on and rotates each memcg
# as shrink_one() says, into the bin its next draw names. Every walk here
# is at DEF_PRIORITY with a target below MIN_LRU_BATCH (no initial
# priority, and nothing is ever freed, so it never aborts), where
# shrink_one() is decided by a memcg's charge and its LRU on the node:
#   nothing charged (memory.min 0 covers it): YOUNG;
#   charged, unprotected, and either online (a few folios are nothing at
#     DEF_PRIORITY: it scans none) or with nothing on this node's LRU (m0's
#     folio is isolated by a parked eviction): TAIL, and YOUNG once it is
#     in the tail segment;
#   offline with a folio under writeback on this node's LRU and
#     swappiness 0 (a "stayer"): 0, no rotation, no draw (the scrape
#     isolates the folio and puts it back, and it is still sizable).
# Stayers, offlined to the head of bin 0, are what stands before m0 when a
# walk meets it past the head of its bin.

WALK_TARGET, WALK_PRIO = 1, 12
# (pos, len) -> how many memcgs stand before and after m0 in its bin
AROUND = {("only", "1"): (0, 0), ("head", "2"): (0, 1), ("tail", "2"): (1, 0),
          ("head", "3+"): (0, 2), ("interior", "3+"): (1, 1), ("tail", "3+"): (2, 0)}
X, X_FOLIO, X_PARK = 0, 0, 0   # m0, its first folio (f0), its first park (p0)


def walk(n, draws):
    return reclaim(n, WALK_TARGET, WALK_PRIO, draws=draws)


def prepare_x():
    """m0 with one anon folio on node 0 that a parked eviction (p0) holds
    isolated: charged, nothing on its LRU. Two agings first put the folio
    in the oldest generation, where the eviction finds it."""
    return [add(X, 0, 0, 1), age(X, 0), age(X, 0), park(X, 0)]


def stayer(m, nodes, b=7):
    """m offline at the head of the old generation's bin 0, with a folio
    under writeback on every node and swappiness 0: every walk leaves it."""
    return ([online(m, b)] + [add(m, n, FILE | WB, 1) for n in range(nodes)] +
            [swappiness(m, 0), offline(m)])


def measure(stage):
    """Every op kind but online, offline, release and reclaim on m0, none of
    which moves it (touch meets it through f0, unpark through p1; free
    last, leaving f0, which p0 holds isolated)."""
    ops = [wbdone(X), age(X, 0), swappiness(X, 2), shadow(X, 0, 1)]
    if stage == "online":
        ops = [protect(X, 0, 0)] + ops + [add(X, 0, 0, 1), refault(X, 0, FILE, 1)]
    if stage != "dying":
        ops = [touch(X_FOLIO)] + ops + [park(X, 0), unpark(1), free(X, 0)]
    return ops


def seed_state_old(stage, seg, pos_len):
    """m0 in the old generation: online into bin 0, or offlined to its
    head; the stayers before it; a walk rotates it TAIL into bin 0 again
    (the last of the bin: not visited twice) for the tail segment; online
    memcgs after it. Two nodes: a last walk on node 0 meets m0 where it
    is, and offline still meets it in the state on node 1."""
    before, after = AROUND[pos_len]
    nodes = 2
    ops = [online(X, 0)] + prepare_x()
    if stage != "online":
        ops.append(offline(X))
    for k in range(before):
        ops += stayer(1 + k, nodes)
    if seg == "tail":
        ops += [walk(n, (0, 0)) for n in range(nodes)]
    if stage == "dying":
        ops.append(unpark(X_PARK))   # frees f0: the last charge, the last reference
    ops += [online(1 + before + k, 0) for k in range(after)]
    ops += measure(stage)
    if stage != "dying":
        ops.append(walk(0, (0,)))
    if stage != "offline-ref":
        ops.append({"online": offline(X), "dying": release(X)}[stage])
    return nodes, ops


def seed_state_young(stage, pos_len):
    """m0 in the young generation: a walk from bin 6 rotates YOUNG, into
    the young generation's bin 0, the memcgs before m0 (empty, online in
    bin 6), m0 and those after it (empty, online in bin 2), in that order.
    m0 (online in bin 7, or offlined to bin 0, where css_offline has
    cleared a memory.min that could send it YOUNG at once) goes TAIL into
    bin 1 first, where the walk meets it again. A stayer keeps the old
    generation from emptying, which would advance seq and make the young
    generation the old one."""
    before, after = AROUND[pos_len]
    nodes = 1
    ops = [online(X, 7)] + prepare_x()
    if stage != "online":
        ops.append(offline(X))
    ops += stayer(1, nodes, b=5)
    ops += [online(2 + k, 6) for k in range(before)]
    ops += [online(2 + before + k, 2) for k in range(after)]
    ops.append(walk(0, (6,) + (0,) * before + (1, 0) + (0,) * after))
    if stage == "dying":
        ops.append(unpark(X_PARK))
    ops += measure(stage)
    if stage != "offline-ref":
        ops.append({"online": offline(X), "dying": release(X)}[stage])
    return nodes, ops


def seed_state_unlinked():
    """A dying memcg that a walk's failed tryget unlinked, before its
    release."""
    return 1, [online(X, 0), offline(X), walk(0, (0,)), wbdone(X), age(X, 0),
               swappiness(X, 2), shadow(X, 0, 1), release(X)]


def state_seeds():
    about = ("state coverage (tools/mlf cov --states): memcg m0 dying and unlinked by\n"
             "a walk whose tryget failed, before its release")
    seeds = {"state-dying-unlinked": (about,) + seed_state_unlinked()}
    for stage in ("online", "offline-ref", "dying"):
        for gen, seg in (("old", "default"), ("old", "tail"), ("young", "default")):
            for pos_len in AROUND:
                name = "state-%s-%s-%s-%s%s" % (stage, gen, seg, pos_len[0],
                                                pos_len[1].replace("+", "plus"))
                about = ("state coverage (tools/mlf cov --states): memcg m0 %s, in the %s\n"
                         "generation, %s segment, %s of a bin of %s on node 0, as every op\n"
                         "kind that applies meets it" % (stage, gen, seg, pos_len[0], pos_len[1]))
                if gen == "old":
                    nodes, ops = seed_state_old(stage, seg, pos_len)
                else:
                    nodes, ops = seed_state_young(stage, pos_len)
                seeds[name] = (about, nodes, ops)
    return {name: (about, header(nodes, 8), ops)
            for name, (about, nodes, ops) in seeds.items()}


SEEDS.update(state_seeds())


class Seed:
    """A seed's trace: what it is for, its header line and its ops' lines."""

    def __init__(self, about, hdr, ops):
        self.about, self.hdr, self.ops = about, hdr, ops

    def text(self):
        lines = [targets.trace_magic("reclaim")] + ["# " + line for line in self.about.split("\n")]
        return "\n".join(lines + [self.hdr] + self.ops) + "\n"


SEEDS = {name: (lambda s=s: Seed(*s)) for name, s in sorted(SEEDS.items())}
