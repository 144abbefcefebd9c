#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""states_corpus.py REPLAY_DRIVER TARGET DIR: the state coverage of a
corpus (tools/mlflib/states.py) through a replay driver: fails if a cell
the harness can meet is missed, or a cell it cannot is met. ctest
states/<target>; `tools/mlf cov --states` prints the same table."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import states, targets  # noqa: E402


def main():
    driver, target, corpus = sys.argv[1:4]
    files = targets.input_files(corpus)
    met, failed = states.collect(driver, files, target)
    n, of, findings = states.print_table(target, met, "%d inputs of %s" % (len(files), corpus))
    if failed:
        print("states: %d inputs failed: %s" % (len(failed), ", ".join(failed)))
    if failed or findings or n != of:
        print("states: FAILED: %d of %d reachable cells met, %d findings" % (n, of, findings))
        return 1
    print("states: every reachable cell met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
