# SPDX-License-Identifier: GPL-2.0
"""The memcg_lru target's seeds (tools/mlf corpus): each a trace, written
as a person would, with the draws of a seeded PRNG where the choice does
not matter. SEEDS: {name: a function returning its Trace}.
"""
import random

from . import targets


class Trace:
    """A seed being written: trace lines plus the draws a person would pick."""

    def __init__(self, comment, nodes, pool, seed):
        self.lines = [targets.trace_magic("memcg_lru")] + ["# " + c for c in comment.split("\n")]
        self.lines.append("nodes %d pool %d" % (nodes, pool))
        self.nodes = nodes
        self.rng = random.Random(seed)

    def bin(self):
        return self.rng.randrange(8)

    def op(self, text):
        self.lines.append(text)

    def online(self, m, b=None):
        self.op("online m%d bin=%d" % (m, self.bin() if b is None else b))

    def offline(self, m):
        self.op("offline m%d bins=%s" % (m, ",".join(str(self.bin()) for _ in range(self.nodes))))

    def rotate(self, m, n, how, b=None):
        self.op("rotate m%d n%d %s bin=%d" % (m, n, how, self.bin() if b is None else b))

    def reclaim(self, n, target=0, draws=None):
        draws = draws if draws is not None else [self.bin() for _ in range(32)]
        self.op("reclaim n%d target=%d draws=%s" % (n, target, ",".join(map(str, draws))))

    def text(self):
        return "\n".join(self.lines) + "\n"


def seed_rotation_storm():
    t = Trace("rotation storm into one bin: everything lands in bin 3 of its generation,\n"
              "so head / tail insertion, the cached tail and deletion all meet there", 1, 48, 2)
    for m in range(48):
        t.online(m, 3)
    for i in range(400):
        m = (i * 17) % 48
        t.rotate(m, 0, ("HEAD", "TAIL", "TAIL", "HEAD", "YOUNG", "OLD")[i % 6], 3)
    t.reclaim(0, draws=[3] * 32)
    return t


def seed_old_gen_release():
    t = Trace("the old generation emptied by release: all but m0 go young, m0 dies\n"
              "and is released, so seq must advance", 1, 8, 3)
    for m in range(4):
        t.online(m)
    for m in range(1, 4):
        t.rotate(m, 0, "YOUNG")
    t.offline(0)
    t.op("release m0")
    t.online(0)
    t.online(4)
    return t


def seed_old_gen_young():
    t = Trace("the old generation emptied by YOUNG rotations, twice over", 2, 6, 4)
    for m in range(6):
        t.online(m)
    for _ in range(2):
        for n in range(2):
            for m in range(6):
                t.rotate(m, n, "YOUNG")
    t.rotate(2, 0, "OLD")
    t.rotate(2, 0, "YOUNG")
    return t


def seed_offline_under_walk():
    t = Trace("offline of memcgs a reclaim walk meets: m1 offline but pinned by an\n"
              "extra reference, m2 and m3 dead (tryget fails) and not yet released,\n"
              "so the walk must release them itself", 1, 8, 5)
    for m in range(6):
        t.online(m)
    t.op("get m1")
    t.offline(1)
    t.op("get m2")
    t.offline(2)
    t.offline(3)
    t.reclaim(0, target=0)
    t.op("put m2")
    t.reclaim(0, target=0)
    t.op("put m1")
    t.reclaim(0, target=0)
    t.op("release m1")
    t.op("release m2")
    t.op("release m3")
    t.online(1)
    t.reclaim(0, target=0)
    return t


def seed_four_nodes():
    t = Trace("four nodes: online draws one bin for all, offline one per node", 4, 16, 6)
    for m in range(16):
        t.online(m)
    for i in range(64):
        t.rotate(i % 16, i % 4, ("HEAD", "TAIL", "OLD", "YOUNG")[(i // 4) % 4])
    for n in range(4):
        t.reclaim(n, target=16)
    for m in range(0, 16, 3):
        t.offline(m)
    for n in range(4):
        t.reclaim(n)
    return t


def seed_soft_softirq():
    t = Trace("soft limit reclaim (memcg v1) from softirq and from task context:\n"
              "the node lock must be irq-safe", 2, 8, 7)
    for m in range(8):
        t.online(m)
    for i in range(24):
        t.op("soft m%d n%d%s bin=%d" % (i % 8, i % 2, " softirq" if i % 3 else "", t.bin()))
        if i % 5 == 4:
            t.rotate(i % 8, i % 2, "TAIL")
    t.reclaim(0)
    return t


def seed_outcomes_targets():
    t = Trace("shrink_one() outcomes (min, low, success, sizable) then reclaims that\n"
              "stop at a target, so walks end in the middle of a bin", 1, 12, 8)
    for m in range(12):
        t.online(m)
    for m in range(12):
        t.op("set m%d min=%d low=%d success=%d sizable=%d reclaim=%d"
             % (m, m % 4 == 0, m % 4 == 1, m % 3 != 0, m % 2, (m * 5) % 16))
    for target in (1, 8, 32, 0, 4):
        t.reclaim(0, target=target)
    t.offline(5)
    t.reclaim(0, target=2)
    return t


def seed_lifecycle():
    t = Trace("a slot's whole life twice over: online, get, offline, put, release", 2, 3, 9)
    for _ in range(2):
        t.online(1)
        t.op("get m1")
        t.rotate(1, 1, "HEAD")
        t.offline(1)
        t.reclaim(1)
        t.op("put m1")
        t.op("release m1")
    t.online(2)
    return t


# ---- state seeds: one memcg in each state an op can meet it in ----

NODES = 4
KEEPER = 0          # stays in the old generation (bin 7): seq never moves
TARGET_BIN = (0, 2)  # copy 0 and copy 1 of a scenario, each with its own bins
AWAY_BIN = 5        # where the last rotations send the memcg
NOP = "set m%d min=0 low=0 success=0 sizable=1 reclaim=0"  # shrink_one: no rotation
# (pos, len) -> the others placed at the head or the tail of the bin
PLACE_OTHERS = {
    ("only", "1"): (), ("head", "2"): ("tail",), ("tail", "2"): ("head",),
    ("head", "3+"): ("tail", "tail"), ("interior", "3+"): ("head", "tail"),
    ("tail", "3+"): ("head", "head"),
}


def place(t, copy, stage, gen, seg, pos_len):
    """Build memcg X of @copy in (@stage, @gen, @seg) at @pos_len of its bin
    on every node, with one or two others; returns X."""
    x = 1 + 3 * copy
    tgt, staging = TARGET_BIN[copy], TARGET_BIN[copy] + 1
    t.online(x, tgt)
    if stage != "online":
        t.op("get m%d" % x)
        t.op("offline m%d bins=%s" % (x, ",".join([str(tgt)] * NODES)))
    for n in range(NODES):
        if gen == "young":
            t.rotate(x, n, "YOUNG", tgt)
        if seg != "default":
            t.rotate(x, n, seg.upper(), tgt)
    sides = PLACE_OTHERS[pos_len]
    for k in range(len(sides)):
        t.online(x + 1 + k, staging)
    for n in range(NODES):
        for k, side in enumerate(sides):
            o = x + 1 + k
            if gen == "old":
                t.rotate(o, n, "OLD" if side == "head" else "TAIL", tgt)
            elif side == "head":
                t.rotate(o, n, "YOUNG", staging)
                t.rotate(o, n, "HEAD", tgt)
            else:
                t.rotate(o, n, "YOUNG", tgt)
    if stage == "dying":
        t.op("put m%d" % x)
    return x


def seed_state(stage, gen, seg, pos_len, css=False):
    """Every op kind meets a memcg in this state: two copies of it side by
    side, the first for set, get, put and a rotation of each kind (one per
    node), the second for soft, a reclaim walk that visits it (every
    outcome a NOP, so that nothing before it moves) and offline or
    release, which meet it on every node."""
    t = Trace("state coverage (tools/mlf cov --states): memcg m1, and m4, %s, in the %s\n"
              "generation, %s segment, %s of a bin of %s, on each of 4 nodes"
              % (stage, gen, seg, pos_len[0], pos_len[1]), NODES, 16, 10)
    t.online(KEEPER, 7)
    x0 = place(t, 0, stage, gen, seg, pos_len)
    x1 = place(t, 1, stage, gen, seg, pos_len)
    live = stage != "dying"
    t.op("set m%d min=0 low=0 success=0 sizable=1 reclaim=0" % x0)
    if live:
        t.op("get m%d" % x0)
        t.op("put m%d" % x0)
        for n, how in enumerate(("HEAD", "TAIL", "OLD", "YOUNG")):
            t.rotate(x0, n, how, AWAY_BIN)
        t.op("soft m%d n0 bin=%d" % (x1, AWAY_BIN))
        if gen == "old":
            for m in range(8):
                t.op(NOP % m)
            t.reclaim(1, target=0, draws=[TARGET_BIN[1]] + [AWAY_BIN] * 31)
    if stage == "online":
        # offline, or offline_css()'s callback alone (css_offline), which
        # meets the memcg in the same state
        t.op("%s m%d bins=%s" % ("css_offline" if css else "offline", x1,
                                 ",".join([str(AWAY_BIN)] * NODES)))
    elif stage == "dying":
        t.op("release m%d" % x1)
    return t


def seed_state_unlinked():
    t = Trace("state coverage: a dying memcg that a walk unlinked, before its release",
              1, 4, 11)
    t.online(0, 7)
    t.online(1, 0)
    t.op("get m1")
    t.offline(1)
    t.op("put m1")
    t.reclaim(0, target=0, draws=[0] * 32)
    t.op("set m1 min=0 low=0 success=0 sizable=1 reclaim=0")
    t.op("release m1")
    return t


def state_seeds():
    seeds = {"state-unlinked": seed_state_unlinked}
    for stage in ("online", "offline-ref", "dying"):
        for gen in ("old", "young"):
            for seg in ("default", "head", "tail"):
                for pos_len in PLACE_OTHERS:
                    name = "state-%s-%s-%s-%s%s" % (stage, gen, seg, pos_len[0],
                                                    pos_len[1].replace("+", "plus"))
                    seeds[name] = (lambda a=(stage, gen, seg, pos_len): seed_state(*a))
                    if stage == "online":
                        seeds[name + "-css"] = (lambda a=(stage, gen, seg, pos_len):
                                                seed_state(*a, css=True))
    return seeds


def seed_online_200_reclaim():
    t = Trace("200 memcgs onlined, then reclaimed on both nodes: a world past\n"
              "MLF_FULL_CHECK_SMALL, where the per-op checks compare the bins an op\n"
              "touched at their ends and seams (the series' benchmark shape, smaller)",
              2, 200, 1)
    for m in range(200):
        t.online(m)
    for m in range(0, 200, 7):
        t.op("set m%d min=%d low=%d success=%d sizable=%d reclaim=%d"
             % (m, m % 5 == 0, m % 3 == 0, m % 2, m % 11 == 0, m % 16))
    for n in (0, 1):
        t.reclaim(n, target=0)
    t.reclaim(0, target=64)
    return t


def seed_offline_window():
    t = Trace("offline_css() in the kernel's order: the css_offline callback moves\n"
              "m1 and m3 to the old generation while they are still online, and walks\n"
              "meet them there (shrink_one() may send them back YOUNG) before their\n"
              "offline clears CSS_ONLINE", 2, 8, 10)
    for m in range(6):
        t.online(m)
    for m in range(6):
        t.op("set m%d min=0 low=0 success=%d sizable=%d reclaim=1" % (m, m % 2, m % 3 == 0))
        t.rotate(m, m % 2, "YOUNG")
    t.op("css_offline m1 bins=%s" % ",".join(str(t.bin()) for _ in range(t.nodes)))
    t.op("css_offline m3 bins=%s" % ",".join(str(t.bin()) for _ in range(t.nodes)))
    t.reclaim(0, target=0)
    t.reclaim(1, target=2)
    t.offline(1)
    t.reclaim(0, target=0)
    t.offline(3)
    t.reclaim(1, target=0)
    return t


SEEDS = {
    "online-200-reclaim": seed_online_200_reclaim,
    "rotation-storm-one-bin": seed_rotation_storm,
    "old-gen-emptied-by-release": seed_old_gen_release,
    "old-gen-emptied-by-young": seed_old_gen_young,
    "offline-under-walk": seed_offline_under_walk,
    "four-nodes": seed_four_nodes,
    "soft-softirq": seed_soft_softirq,
    "outcomes-then-targets": seed_outcomes_targets,
    "lifecycle": seed_lifecycle,
    "offline-window": seed_offline_window,
}
SEEDS.update(state_seeds())
