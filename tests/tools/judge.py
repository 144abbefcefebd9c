#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""judge.py --expect CHECKS [--min-execs N] [--fresh DIR]... LOG [-- CMD...]:
whether the run whose output is LOG failed with a check of CHECKS ("a|b":
either), judged as
tools/mlf zoo judges (zoo.judge(): the first report wins, and a data race
is "race" only when both of its accesses are in the code under test).
With --min-execs, a libFuzzer run must also have run at least N inputs
(stat::number_of_executed_units, -print_final_stats=1): a race caught on
the first input is the harness's setup, not the bug. ctest's
zoo/<bug>/empty-corpus and regression/<bug>/caught; prints the signature
and the report's message (a race: the two accesses' lines) either way.
With a command after --, it first empties each --fresh DIR (in order),
runs the command with its output in LOG, and judges that: ctest's tests
are this one command, not shell scripts.
"""
import argparse
import os
import shutil
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import engine, signatures, zoo  # noqa: E402


def verdict(text, expect, min_execs=0):
    """(ok, line saying why) of the output @text."""
    sig = signatures.signature(text)
    if not sig:
        return False, "judge: no failure at all (expected %s)" % expect
    caught, fired = zoo.judge(sig, expect)
    said = "judge: %s: %s" % (sig, signatures.message(text))
    if not caught:
        return False, "%s\njudge: %s fired, not %s" % (said, fired, expect)
    if min_execs:
        execs, _ = engine.libfuzzer_stats(text)
        if execs < min_execs:
            return False, ("%s\njudge: caught in %d input%s (at least %d wanted: a catch on "
                           "the first input is the harness's)" % (said, execs, "" if execs == 1
                                                                  else "s", min_execs))
    return True, "%s\njudge: caught by %s" % (said, fired)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--expect", required=True)
    ap.add_argument("--min-execs", type=int, default=0)
    ap.add_argument("--fresh", action="append", default=[],
                    help="a directory to empty (create) before the command")
    ap.add_argument("log")
    ap.add_argument("command", nargs="*", help="after --: the run to judge")
    args = ap.parse_args()
    if args.command:
        for d in args.fresh:
            shutil.rmtree(d, ignore_errors=True)
            os.makedirs(d)
        os.makedirs(os.path.dirname(os.path.abspath(args.log)), exist_ok=True)
        with open(args.log, "wb") as out:
            # its status is not the verdict: a driver aborts on the failure
            subprocess.call(args.command, stdout=out, stderr=subprocess.STDOUT)
    with open(args.log, encoding="utf-8", errors="replace") as f:
        text = f.read()
    ok, why = verdict(text, args.expect, args.min_execs)
    print(why)
    if not ok:
        # the run's last words, for the reader of a failed test
        print("---- the end of %s ----" % args.log)
        print("".join(text.splitlines(True)[-40:]), end="")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
