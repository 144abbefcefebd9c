#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""ctest explore/modes/*: the reduction of tools/mlf explore reaches what the
complete enumeration reaches.

    explore_modes.py BINARY BOUND [--keep-going] [--control SCENARIO]

Runs the mlf_explore BINARY on every scenario at BOUND twice, --complete and
with the default reduction, and compares per scenario: the distinct states
(traces met at choice points), the final states (count and digest of the
engine's state at quiescence) and the set of checks that failed
(--keep-going: each run in a child, to its first failure). They must be
equal; the reduction must not run more schedules than the complete one.

--control SCENARIO: the comparison itself must be able to fail: on that
scenario the heuristic mode (state hashing, which is unsound) must differ
from the complete one in the final states or failures it reaches.
"""
import re
import subprocess
import sys

HEADER = re.compile(r"^mlf explore: .* scenario=(\S+) ")
SCHEDULES = re.compile(r"^\s+schedules (\d+) .* distinct states (\d+) ")
FINALS = re.compile(r"^\s+final states (\d+) \(digest ([0-9a-f]+)\)")
FAILED = re.compile(r"^\s+failed (.+) in \d+ schedules$")


ENGINE_ARGS = []


def explore(binary, bound, mode, keep_going, scenario=None):
    """{scenario: (schedules, distinct, finals, digest, frozenset(failed))}"""
    cmd = [binary, "--bound", str(bound)] + ENGINE_ARGS
    if mode:
        cmd.append(mode)
    if keep_going:
        cmd.append("--keep-going")
    if scenario:
        cmd += ["--scenario", scenario]
    print("+ " + " ".join(cmd), flush=True)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          text=True, check=False)
    if proc.returncode not in (0, 1) or (proc.returncode and not keep_going):
        sys.stdout.write(proc.stdout[-2000:] + proc.stderr[-2000:])
        sys.exit("explore_modes: %s exited %d" % (" ".join(cmd), proc.returncode))
    out, cur = {}, None
    for line in proc.stdout.splitlines():
        m = HEADER.match(line)
        if m:
            cur = m.group(1)
            out[cur] = {"failed": set()}
            continue
        if cur is None:
            continue
        m = SCHEDULES.match(line)
        if m:
            out[cur]["schedules"] = int(m.group(1))
            out[cur]["distinct"] = int(m.group(2))
        m = FINALS.match(line)
        if m:
            out[cur]["finals"] = (int(m.group(1)), m.group(2))
        m = FAILED.match(line)
        if m:
            out[cur]["failed"].add(m.group(1))
    if not out or any("finals" not in r for r in out.values()):
        sys.stdout.write(proc.stdout[-2000:])
        sys.exit("explore_modes: no per-scenario summary from %s" % " ".join(cmd))
    return out


def main(argv):
    args = argv[1:]
    if "--" in args:
        # the explore binary's own arguments, for every run (--memory-model)
        ENGINE_ARGS.extend(args[args.index("--") + 1:])
        args = args[:args.index("--")]
    keep_going = "--keep-going" in args
    control = None
    if "--control" in args:
        control = args[args.index("--control") + 1]
        del args[args.index("--control"):args.index("--control") + 2]
    args = [a for a in args if a != "--keep-going"]
    if len(args) != 2:
        sys.exit(__doc__)
    binary, bound = args
    complete = explore(binary, bound, "--complete", keep_going)
    reduced = explore(binary, bound, None, keep_going)
    bad = 0
    for sc in sorted(complete):
        c, r = complete[sc], reduced.get(sc)
        if r is None:
            print("%s: the reduction did not explore it" % sc)
            bad += 1
            continue
        print("%-12s complete %7d schedules, reduced %7d (%.2fx): distinct states %d/%d, "
              "final states %d/%d, failed %s/%s"
              % (sc, c["schedules"], r["schedules"],
                 c["schedules"] / max(r["schedules"], 1), c["distinct"], r["distinct"],
                 c["finals"][0], r["finals"][0], sorted(c["failed"]) or "-",
                 sorted(r["failed"]) or "-"))
        for key in ("distinct", "finals", "failed"):
            if c[key] != r[key]:
                print("  %s differ: complete %s, reduced %s" % (key, c[key], r[key]))
                bad += 1
        if r["schedules"] > c["schedules"]:
            print("  the reduction ran more schedules than the complete enumeration")
            bad += 1
    if control:
        h = explore(binary, bound, "--heuristic", keep_going, control)[control]
        c = complete[control]
        if h["finals"] == c["finals"] and h["failed"] == c["failed"]:
            print("control: the heuristic reached what the complete enumeration reached "
                  "on %s; the comparison showed no difference it should have" % control)
            bad += 1
        else:
            print("control: the heuristic differs on %s (final states %d/%d), as it may"
                  % (control, c["finals"][0], h["finals"][0]))
    if bad:
        sys.exit("explore_modes: %d differences" % bad)
    print("explore_modes: the reduction reached what the complete enumeration reached")


if __name__ == "__main__":
    main(sys.argv)
