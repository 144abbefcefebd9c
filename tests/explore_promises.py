#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""explore/promises/<variant>: a scenario explored with promises (load
buffering, src/kernel/wmm.h) meets the final states it meets without them,
fails no check, and did ask at its relaxed loads whether to promise: the
answer docs/weak-memory.md gives for the code under test (no relaxed store
of it follows a relaxed load with no ordering between, so load buffering
changes nothing), kept honest.

    explore_promises.py EXPLORE_BINARY SCENARIO
"""
import re
import subprocess
import sys


def explore(binary, scenario, *more):
    cmd = [binary, "--scenario", scenario, "--bound", "1"] + list(more)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    print(" ".join(cmd))
    print(proc.stdout, end="")
    if proc.returncode:
        sys.exit("explore_promises: %s exited %d:\n%s" % (" ".join(cmd), proc.returncode,
                                                          proc.stderr))
    finals = re.search(r"final states (\d+) \(digest (\w+)\)\s+failures (\d+)", proc.stdout)
    if not finals:
        sys.exit("explore_promises: no summary from %s" % " ".join(cmd))
    return finals.groups(), proc.stdout


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    binary, scenario = sys.argv[1:]
    without, _ = explore(binary, scenario)
    with_, out = explore(binary, scenario, "--promises", "1")
    m = re.search(r"loads that could promise (\d+), with a store to promise (\d+)", out)
    if not m or int(m.group(1)) == 0:
        sys.exit("explore_promises: no relaxed load asked whether to promise")
    if with_ != without:
        sys.exit("explore_promises: final states and failures %s with promises, %s without"
                 % (with_, without))
    print("explore_promises: %s final states, %s loads could promise, %s had a store to"
          % (with_[0], m.group(1), m.group(2)))


if __name__ == "__main__":
    main()
