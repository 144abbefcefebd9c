#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""visits_states.py REPLAY_DRIVER DIR: the reclaim target's visit log
(MLF_VISITS) against its state coverage (MLF_STATES) over one replay of a
corpus. Each walk's visit of a memcg is a line of the log and one count
of the reclaim kind's cell on the memcg LRU in the dump, so the two must
name the same places the same number of times; the corpus must have
visits, and visits by the others' runs in a walk's yield (others=). Each
result line names the memcg of its run's last visit, which has no other
result, and names a rotation (or NOP).
ctest visits/reclaim."""
import collections
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import states  # noqa: E402


def main():
    driver, corpus = sys.argv[1:3]
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "visits")
        dump = os.path.join(tmp, "states")
        env = dict(os.environ, MLF_VISITS=log, MLF_STATES=dump)
        run = subprocess.run([driver, corpus], env=env, stdout=subprocess.DEVNULL)
        if run.returncode:
            print("visits: FAILED: %s %s exited %d" % (driver, corpus, run.returncode))
            return 1
        with open(log) as f:
            lines = f.read().splitlines()
        met = states.read_dump(dump, "reclaim")
    # "op I walk|others nN visit mK <stage> <gen> <seg> <pos> <len> seq S"
    # "op I walk|others nN result mK NOP|HEAD|TAIL|OLD|YOUNG"
    logged = collections.Counter()
    others = results = 0
    bad = []
    last = {}
    for line in lines:
        w = line.split()
        if len(w) == 13 and w[4] == "visit":
            logged[" ".join(w[6:11])] += 1
            others += w[2] == "others"
            last[w[2]] = w[:4] + [w[5]]
        elif len(w) == 7 and w[4] == "result":
            results += 1
            if last.pop(w[2], None) != w[:4] + [w[5]] or \
               w[6] not in ("NOP", "HEAD", "TAIL", "OLD", "YOUNG"):
                bad.append(line)
    # the reclaim kind's cells: (kind, stage, gen, seg, pos, len, depth, dying)
    counted = collections.Counter()
    for cell, n in met.items():
        if cell[0] == "reclaim":
            counted[" ".join(cell[1:6])] += n
    print("visits: %d logged, %d by others' runs, %d counted in the state dump"
          % (sum(logged.values()), others, sum(counted.values())))
    wrong = sorted(set(logged) | set(counted))
    wrong = [p for p in wrong if logged[p] != counted[p]]
    for p in wrong:
        print("visits: %s: %d logged, %d counted" % (p, logged[p], counted[p]))
    print("visits: %d results, %d not after their visit" % (results, len(bad)))
    for line in bad[:5]:
        print("visits: result not after its visit: %s" % line)
    if wrong or bad or not logged or not others or not results:
        print("visits: FAILED")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
