# SPDX-License-Identifier: GPL-2.0
"""The trace_parser target's seeds (tools/mlf corpus): trace text itself, a
few valid traces of the memcg_lru and concurrent seeds and one of each
kind of error their parsers name (the *-reclaim-* ones of corpus/
trace_parser/ are written by hand). files(): {name: its text}.
"""
from . import seeds_concurrent
from . import seeds_memcg_lru
from . import targets

# memcg_lru traces: a few seeds, and one of each kind of error its parser names
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


def files():
    out = {}
    for name in TRACE_PARSER_GOOD:
        out["ok-" + name] = seeds_memcg_lru.SEEDS[name]().text()
    for name in TRACE_PARSER_GOOD_CONCURRENT:
        out["ok-concurrent-" + name] = seeds_concurrent.SEEDS[name]().text()
    out.update(TRACE_PARSER_BAD)
    out.update(TRACE_PARSER_BAD_CONCURRENT)
    return out
