# SPDX-License-Identifier: GPL-2.0
"""The concurrent target's seeds (tools/mlf corpus): each a trace whose
switches are placed where the interleaving it names happens. SEEDS:
{name: a function returning its SchedTrace}.
"""
import random

from . import targets


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


SEEDS = {
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
