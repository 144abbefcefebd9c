# SPDX-License-Identifier: GPL-2.0
"""mlf corpus: write the seed corpora, deterministically.

fuzz/targets.json's "seeds" says, per target, what writes corpus/<target>/:
`tools/mlf corpus --target T` is a generator of this module (GENERATORS,
which must be exactly those targets), any other command (a script under
fuzz/) is run as it stands. Each memcg_lru and concurrent seed is written
as a trace, corpus/<target>/<name>.trace, and encoded by mlf-trace into its
bytes, corpus/<target>/<name>; the replay driver and the fuzzers skip
*.trace.
trace_parser seeds are trace text themselves (no .trace suffix, since that
text is the input). Files a generator does not write are never touched.
"""
import filecmp
import os
import random
import shlex
import tempfile

from . import builds
from . import common
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


MEMCG_LRU_SEEDS = {
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
MEMCG_LRU_SEEDS.update(state_seeds())

class SchedTrace:
    """A concurrent seed being written: its header, run line, each task's
    ops and the schedule's decisions, as trace lines (fuzz/concurrent_trace.h)."""

    def __init__(self, comment, nodes, pool, writers=1, readers=1, initial=0,
                 policy="input", seed=1):
        self.lines = [targets.trace_magic("concurrent")]
        self.lines += ["# " + c for c in comment.split("\n")]
        self.lines.append("nodes %d pool %d" % (nodes, pool))
        self.lines.append("run writers=%d readers=%d initial=%d policy=%s seed=%d"
                          % (writers, readers, initial, policy, seed))
        self.decisions = []
        self.weaks = []
        self.rng = random.Random(seed)

    def op(self, task, text):
        self.lines.append("t%d %s" % (task, text))

    def switch(self, after, to):
        """After @after more points, task @to runs (an index, or "rcu")."""
        self.decisions.append("switch after=%d to=%s"
                              % (after, to if isinstance(to, str) else "t%d" % to))

    def change(self, after):
        """PCT: a change point @after points after the one before."""
        self.decisions.append("change after=%d" % after)

    def weak(self, after, back=1):
        """At the @after-th weak choice point after the one before, read
        the store @back before the newest (the weak memory model's)."""
        self.weaks.append("weak after=%d back=%d" % (after, back))

    def text(self):
        return "\n".join(self.lines + self.decisions + self.weaks) + "\n"


# A walk's first points, from the reader's start (step S; a decision at a
# point switches before its access): S+1 .. S+4 enter shrink_many() and the
# bin, S+5 .. S+7 take the first memcg (tryget, then out of RCU), S+8 ..
# S+13 shrink it, S+15 re-enter RCU, S+16 read its next, S+17 lock the node
# to rotate it. An online is 17 points; the run's first is t0's start. The
# seeds below place their switches by these counts (read a run with
# MLF_SCHED_SHOW=N tools/mlf replay corpus/concurrent/NAME).
ONLINE_POINTS = 17


def onlines(t, task, slots, b=0):
    """Online @slots into bin @b of the old generation, in order; returns
    the points they take."""
    for m in slots:
        t.op(task, "online m%d bin=%d" % (m, b))
    return ONLINE_POINTS * len(slots)


def seed_walk_on_moving_entry():
    t = SchedTrace("a walk stands on m0 (shrinking it, its reference held) while a writer\n"
                   "moves m0 and then m1, the next entry, to the young generation and back;\n"
                   "the walk then reads m0's next", 1, 4)
    ready = onlines(t, 0, range(4)) + 1
    for m in (0, 1):
        t.op(0, "rotate m%d n0 YOUNG" % m)
        t.op(0, "rotate m%d n0 OLD" % m)
    t.op(1, "reclaim n0 target=0 bin=0")
    t.switch(ready, 1)
    t.switch(10, 0)
    return t


def seed_release_under_walk():
    t = SchedTrace("a walk inside its RCU section, about to read m0's next, while a writer\n"
                   "offlines and releases m1 (unlinked, freed after the grace period the\n"
                   "walk holds up) and m2; rcu's callbacks run when the walk is done", 1, 4)
    ready = onlines(t, 0, range(4)) + 1
    for m in (1, 2):
        t.op(0, "offline m%d" % m)
        t.op(0, "release m%d" % m)
    t.op(1, "reclaim n0 target=0 bin=0")
    t.switch(ready, 1)
    t.switch(17, 0)
    t.switch(40, "rcu")
    return t


def seed_offline_under_walk():
    t = SchedTrace("memcgs a walk has yet to reach go offline while it shrinks m0: its\n"
                   "tryget on them fails, and they stay linked until their release", 1, 6)
    ready = onlines(t, 0, range(6)) + 1
    for m in (1, 3, 4):
        t.op(0, "offline m%d" % m)
    t.op(1, "reclaim n0 target=0 bin=0")
    t.switch(ready, 1)
    t.switch(9, 0)
    return t


def seed_soft_softirq_under_walk():
    t = SchedTrace("soft limit reclaim from softirq on the node a walk is on: first while\n"
                   "the walk shrinks m0, then while it holds the node lock to rotate m0\n"
                   "(the softirq spins on the lock until the walk lets go)", 1, 4)
    ready = onlines(t, 0, range(4)) + 1
    t.op(0, "soft m0 n0 softirq bin=0")
    t.op(0, "soft m1 n0 softirq bin=1")
    t.op(0, "soft m2 n0 softirq")
    t.op(1, "reclaim n0 target=0 bin=0")
    t.switch(ready, 1)
    t.switch(9, 0)
    t.switch(21, 1)
    t.switch(10, 0)
    return t


def seed_hold_across_walk():
    t = SchedTrace("a writer holds m1, offlines it, and keeps it across a whole walk (an\n"
                   "offline memcg still referenced), then drops it and releases it", 1, 4)
    ready = onlines(t, 0, range(4)) + 1
    t.op(0, "hold m1")
    t.op(0, "offline m1")
    t.op(0, "drop")
    t.op(0, "release m1")
    t.op(1, "reclaim n0 target=0 bin=0")
    t.switch(ready + 21, 1)
    return t


def seed_online_under_walk():
    t = SchedTrace("new memcgs go online into the bin a walk is in, while it reads its\n"
                   "next entry", 1, 8)
    ready = onlines(t, 0, range(4)) + 1
    onlines(t, 0, range(4, 8))
    t.op(1, "reclaim n0 target=0 bin=0")
    t.switch(ready, 1)
    t.switch(16, 0)
    t.switch(40, 1)
    t.switch(30, 0)
    return t


def seed_two_readers_one_node():
    t = SchedTrace("two walks of one node and a writer rotating its memcgs, each task\n"
                   "preempted every few points", 1, 6, writers=1, readers=2, initial=6, seed=7)
    for i in range(12):
        t.op(0, "rotate m%d n0 %s" % (i % 6, ("HEAD", "TAIL", "OLD", "YOUNG")[i % 4]))
    t.op(1, "reclaim n0 target=0")
    t.op(2, "reclaim n0 target=0 bin=3")
    for i in range(60):
        t.switch(3 + i % 5, (1, 2, 0)[i % 3])
    return t


def seed_rcu_mid_walk():
    t = SchedTrace("a release during one walk, then rcu's task asked to run while the\n"
                   "other walk is inside its section (the callback waits for the grace\n"
                   "period, not for the switch)", 2, 6, writers=1, readers=2, initial=6, seed=8)
    t.op(0, "offline m2")
    t.op(0, "release m2")
    t.op(0, "offline m4")
    t.op(0, "release m4")
    t.op(1, "reclaim n0 target=0")
    t.op(2, "reclaim n1 target=0")
    t.switch(2, 1)
    t.switch(8, 2)
    t.switch(6, 0)
    t.switch(20, "rcu")
    t.switch(5, 1)
    t.switch(7, "rcu")
    t.switch(9, 2)
    t.switch(11, "rcu")
    return t


def seed_pct_mix():
    t = SchedTrace("PCT (policy=pct): two writers and two readers on two nodes, priorities\n"
                   "from the seed and three change points", 2, 8, writers=2, readers=2,
                   initial=6, policy="pct", seed=0x5eed)
    for i in range(6):
        t.op(0, "rotate m%d n%d %s" % (i, i % 2, ("YOUNG", "OLD", "TAIL")[i % 3]))
    t.op(0, "offline m1")
    t.op(0, "release m1")
    t.op(1, "online m6 success sizable bin=2")
    t.op(1, "hold m3")
    t.op(1, "soft m3 n1 softirq")
    t.op(1, "offline m3")
    t.op(1, "drop")
    t.op(1, "release m3")
    t.op(2, "reclaim n0 target=0")
    t.op(3, "reclaim n1 target=4")
    for after in (30, 45, 70):
        t.change(after)
    return t


def seed_outcomes_and_targets():
    t = SchedTrace("what shrink_one() finds changes under a walk (set), and walks stop at a\n"
                   "target, so they end in the middle of a bin", 1, 8, readers=2, initial=8,
                   seed=11)
    for i in range(8):
        t.op(0, "set m%d%s%s reclaimed=%d" % (i, " success" if i % 3 else "",
                                              " sizable" if i % 2 else "", (i * 5) % 16))
    t.op(0, "set m0 min")
    t.op(0, "set m5 low")
    t.op(1, "reclaim n0 target=8 bin=1")
    t.op(2, "reclaim n0 target=3")
    t.op(1, "reclaim n0 target=0")
    for i in range(40):
        t.switch(4 + (i * 7) % 9, (1, 0, 2)[i % 3])
    return t


def seed_four_nodes_mix():
    t = SchedTrace("four nodes, three writers, two readers: a pseudo-random mix of every op\n"
                   "and switches to every task (rcu's too)", 4, 16, writers=3, readers=2,
                   initial=12, seed=12345)
    kinds = ("online", "offline", "release", "rotate", "soft", "set", "hold", "drop")
    for _ in range(80):
        task = t.rng.randrange(5)
        m, n = t.rng.randrange(16), t.rng.randrange(4)
        if task >= 3:
            t.op(task, "reclaim n%d target=%d" % (n, t.rng.choice((0, 0, 4, 16))))
            continue
        kind = t.rng.choice(kinds)
        if kind == "rotate":
            t.op(task, "rotate m%d n%d %s" % (m, n, t.rng.choice(("HEAD", "TAIL", "OLD",
                                                                  "YOUNG"))))
        elif kind == "soft":
            t.op(task, "soft m%d n%d%s" % (m, n, t.rng.choice(("", " softirq"))))
        elif kind == "drop":
            t.op(task, "drop")
        elif kind in ("online", "set"):
            t.op(task, "%s m%d%s" % (kind, m, t.rng.choice(("", " success", " sizable",
                                                            " success sizable"))))
        else:
            t.op(task, "%s m%d" % (kind, m))
    for _ in range(80):
        t.switch(t.rng.randrange(1, 40), t.rng.choice((0, 1, 2, 3, 4, "rcu")))
    return t


CONCURRENT_SEEDS = {
    "walk-on-moving-entry": seed_walk_on_moving_entry,
    "release-under-walk": seed_release_under_walk,
    "offline-under-walk": seed_offline_under_walk,
    "soft-softirq-under-walk": seed_soft_softirq_under_walk,
    "hold-across-walk": seed_hold_across_walk,
    "online-under-walk": seed_online_under_walk,
    "two-readers-one-node": seed_two_readers_one_node,
    "rcu-mid-walk": seed_rcu_mid_walk,
    "pct-mix": seed_pct_mix,
    "outcomes-and-targets": seed_outcomes_and_targets,
    "four-nodes-mix": seed_four_nodes_mix,
}

# trace_parser: a few small valid traces and one of each kind of error
TRACE_PARSER_BAD = {
    "bad-unknown-op": "nodes 2 pool 10\nonline m1 bin=1\nrotat m1 n0 HEAD\n",
    "bad-outside-pool": targets.trace_magic("memcg_lru") + "\nnodes 4 pool 1500\nonline m1600\n",
    "bad-no-header": "online m1 bin=2\n",
    "bad-node": "nodes 2 pool 4\nrotate m1 n2 YOUNG bin=1\n",
    "bad-value": "nodes 1 pool 4\nset m1 min=2\n",
    "bad-too-many-draws": "nodes 2 pool 4\noffline m1 bins=1,2,3\n",
    "bad-bin-range": "nodes 1 pool 4\nonline m1 bin=8\n",
    "bad-twice": "nodes 1 pool 4\nrotate m1 n0 HEAD TAIL bin=1\n",
    "bad-second-header": "nodes 1 pool 4\nnodes 2 pool 4\n",
    "bad-field": "nodes 1 pool 4\nget m1 bin=3\n",
}
TRACE_PARSER_GOOD = ["old-gen-emptied-by-release", "offline-under-walk", "soft-softirq",
                     "lifecycle"]
# concurrent traces: a few seeds, and one of each kind of error its parser names
TRACE_PARSER_GOOD_CONCURRENT = ["release-under-walk", "rcu-mid-walk", "pct-mix"]
_SCHED = targets.trace_magic("concurrent") + "\nnodes 2 pool 4\n"
TRACE_PARSER_BAD_CONCURRENT = {
    "bad-concurrent-no-run": _SCHED + "t0 online m1\n",
    "bad-concurrent-reader-op": _SCHED + "run writers=1 readers=1\nt1 rotate m0 n0 HEAD\n",
    "bad-concurrent-writer-reclaim": _SCHED + "run writers=2 readers=1\nt1 reclaim n0\n",
    "bad-concurrent-task": _SCHED + "run writers=1 readers=2\nt3 reclaim n0\n",
    "bad-concurrent-switch-under-pct": _SCHED + "run policy=pct\nswitch after=3 to=t0\n",
    "bad-concurrent-delay": _SCHED + "run\nswitch after=1025 to=rcu\n",
    "bad-concurrent-initial": _SCHED + "run initial=5\n",
    "bad-concurrent-flags": _SCHED + "run\nt0 set m1 reclaimed=16\n",
    "bad-concurrent-memcg-lru": _SCHED + "run\n" + targets.trace_magic("memcg_lru") + "\n",
}


def write_if_changed(path, data):
    mode = "w" if isinstance(data, str) else "wb"
    if os.path.exists(path):
        with open(path, "r" if mode == "w" else "rb") as f:
            if f.read() == data:
                return False
    with open(path, mode) as f:
        f.write(data)
    return True


def gen_traced(seeds, out, mlf_trace):
    """Each seed's trace <name>.trace and its bytes <name>, encoded by mlf-trace."""
    os.makedirs(out, exist_ok=True)
    written = []
    for name, make in seeds.items():
        trace = os.path.join(out, name + ".trace")
        write_if_changed(trace, make().text())
        common.run([mlf_trace, "encode", trace, "-o", os.path.join(out, name), "--force"])
        written += [name, name + ".trace"]
    return written


def gen_memcg_lru(out, mlf_trace):
    return gen_traced(MEMCG_LRU_SEEDS, out, mlf_trace)


def gen_concurrent(out, mlf_trace):
    return gen_traced(CONCURRENT_SEEDS, out, mlf_trace)


def gen_trace_parser(out, mlf_trace):
    os.makedirs(out, exist_ok=True)
    written = []
    for name in TRACE_PARSER_GOOD:
        write_if_changed(os.path.join(out, "ok-" + name), MEMCG_LRU_SEEDS[name]().text())
        written.append("ok-" + name)
    for name in TRACE_PARSER_GOOD_CONCURRENT:
        write_if_changed(os.path.join(out, "ok-concurrent-" + name),
                         CONCURRENT_SEEDS[name]().text())
        written.append("ok-concurrent-" + name)
    for name, text in list(TRACE_PARSER_BAD.items()) + list(TRACE_PARSER_BAD_CONCURRENT.items()):
        write_if_changed(os.path.join(out, name), text)
        written.append(name)
    return written


GENERATORS = {
    "memcg_lru": gen_memcg_lru,
    "trace_parser": gen_trace_parser,
    "concurrent": gen_concurrent,
}
OWN = "tools/mlf corpus --target "


def seed_commands():
    """{target: its seeds command} of the targets that have one, table order;
    a one-line MlfError when the table and GENERATORS disagree."""
    found = {t: targets.seeds(t) for t in targets.names() if targets.seeds(t)}
    for t, cmd in found.items():
        if cmd.startswith(OWN) and (cmd[len(OWN):].strip() != t or t not in GENERATORS):
            raise common.MlfError("fuzz/targets.json: %s's seeds %r is not a generator of "
                                  "tools/mlf corpus (have: %s)" % (t, cmd, ", ".join(GENERATORS)))
    for t in GENERATORS:
        if not (found.get(t) or "").startswith(OWN):
            raise common.MlfError("tools/mlf corpus has a generator for %s, but "
                                  "fuzz/targets.json says its seeds are %r"
                                  % (t, found.get(t)))
    return found


def run_script(cmd, out=None):
    """Run a seeds command of the table that is not ours, as the table
    spells it, from the top of the tree; with @out, into that directory
    (the scripts take it as their last argument)."""
    common.run(shlex.split(cmd) + ([out] if out else []), cwd=common.ROOT)


def stale_files(written_dir, dest, names):
    """The files of @names that @dest lacks or holds other bytes of than
    @written_dir, as corpus/... paths."""
    out = []
    for name in names:
        mine = os.path.join(dest, name)
        if not os.path.exists(mine) or not filecmp.cmp(
                mine, os.path.join(written_dir, name), shallow=False):
            out.append(os.path.relpath(mine, common.ROOT))
    return out


def run(args, extra):
    commands = seed_commands()
    if args.target:
        if args.target not in targets.names():
            raise common.MlfError("unknown target %r (have: %s)"
                                  % (args.target, ", ".join(targets.names())))
        if args.target not in commands:
            raise common.MlfError("no seeds for target %r (fuzz/targets.json)" % args.target)
        chosen = [args.target]
    else:
        chosen = list(commands)
    mlf_trace = None
    if any(t in GENERATORS for t in chosen):
        # MLF_TRACE: a build's own mlf-trace (ctest corpus/up-to-date), so
        # that a test does not build the dev tree under itself
        mlf_trace = os.environ.get("MLF_TRACE") or builds.binary(
            builds.ensure_built("dev", targets=["mlf-trace"]), "mlf-trace")
    stale = []
    for target in chosen:
        dest = os.path.join(common.CORPUS_DIR, target)
        if not args.check:
            if target in GENERATORS:
                written = GENERATORS[target](dest, mlf_trace)
                print("corpus/%s: %d files" % (target, len(written)))
            else:
                run_script(commands[target])
            continue
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, target)
            if target in GENERATORS:
                written = GENERATORS[target](out, mlf_trace)
            else:
                run_script(commands[target], out)
                written = sorted(os.listdir(out))
            stale += stale_files(out, dest, written)
    if stale:
        raise common.MlfError("out of date (run tools/mlf corpus): " + ", ".join(stale))
    if args.check:
        print("corpus: up to date (%s)" % ", ".join(chosen))
    return 0


def register(subparsers):
    p = subparsers.add_parser(
        "corpus", help="write the seed corpora (corpus/<target>/)",
        description="Write each target's seeds with the command fuzz/targets.json gives "
                    "(memcg_lru: <name>.trace and its bytes <name>). Deterministic; other "
                    "files in corpus/ are left alone.")
    p.add_argument("--target", help="one target (default: every target with seeds)")
    p.add_argument("--check", action="store_true",
                   help="write nothing; fail if a target's seeds command (a generator of "
                        "this command, or a script under fuzz/, run into a scratch "
                        "directory) would write something else")
    p.set_defaults(func=run)
