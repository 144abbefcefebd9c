#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""states_corpus.py REPLAY_DRIVER TARGET DIR: the state coverage of a
corpus (tools/mlflib/states.py) through a replay driver: fails if a cell
the harness can meet is missed, or a cell it cannot is met, or if the
lines MLF_STATES_TIMES prints do not name each cell met once, numbered
in order, at times that never go back. ctest states/<target>; `tools/mlf
cov --states` prints the same table."""
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import states, targets  # noqa: E402


TIME_LINE = re.compile(r"^mlf-states: ([0-9.]+) s: cell ([0-9]+): (.*)$")


def times_agree(driver, files, target):
    """One run of every file with MLF_STATES and MLF_STATES_TIMES: the
    time lines name the cells of the dump, each once, numbered 1..N, at
    non-decreasing times. Returns what is wrong, or None."""
    with tempfile.TemporaryDirectory() as tmp:
        dump = os.path.join(tmp, "states")
        env = dict(os.environ, MLF_STATES=dump, MLF_STATES_TIMES="1")
        run = subprocess.run([driver] + files, env=env, stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE, text=True, check=False)
        if run.returncode:
            return "the replay failed (status %d)" % run.returncode
        met = states.read_dump(dump, target)
    seen, last = [], 0.0
    for line in run.stderr.splitlines():
        m = TIME_LINE.match(line)
        if not m:
            continue
        t, n, cell = float(m.group(1)), int(m.group(2)), tuple(m.group(3).split())
        if n != len(seen) + 1 or t < last:
            return "line %r: cell %d after %d, at %.3f s after %.3f s" % (line, n, len(seen), t, last)
        seen.append(cell)
        last = t
    if len(set(seen)) != len(seen) or set(seen) != set(met):
        return "%d time lines (%d cells) for the %d cells of the dump" % (
            len(seen), len(set(seen)), len(met))
    return None


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
    wrong = times_agree(driver, files, target)
    if wrong:
        print("states: FAILED: MLF_STATES_TIMES: %s" % wrong)
        return 1
    print("states: every reachable cell met")
    return 0


if __name__ == "__main__":
    sys.exit(main())
