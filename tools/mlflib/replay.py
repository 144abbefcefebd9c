# SPDX-License-Identifier: GPL-2.0
"""mlf replay: run inputs (files or directories) through a target's replay driver.

The target is guessed from the path (corpus/<target>/..., out/<target>/...,
corpus/regressions/<name>/ with its TARGET file) unless --target says. A
failing input prints its check, message, op index and the trace around the
op; replay then goes on with the inputs after it and exits non-zero.
"""
import os
import re

from . import common
from . import fuzz


def guess_target(path):
    parts = os.path.abspath(path).split(os.sep)
    known = fuzz.targets()
    for i, part in enumerate(parts[:-1]):
        if part in ("corpus", "out") and parts[i + 1] in known:
            return parts[i + 1]
        if part == "regressions" and i + 1 < len(parts):
            marker = os.path.join(os.sep.join(parts[:i + 2]), "TARGET")
            if os.path.exists(marker):
                with open(marker, encoding="utf-8") as f:
                    return f.read().strip()
            return "memcg_lru"
    for part in reversed(parts):
        if part in known:
            return part
    return None


def replay_files(driver, files):
    """Run every file; after a failure go on with the files after it."""
    failed, rest = [], list(files)
    while rest:
        rc, err = fuzz.run_tee([driver] + rest)
        if rc == 0:
            break
        m = re.findall(r"^replay: the failing input is (.*)$", err, re.M)
        if not m or m[-1] not in rest:
            failed.append(rest[0] if len(rest) == 1 else "(unknown input, status %d)" % rc)
            break
        failed.append(m[-1])
        rest = rest[rest.index(m[-1]) + 1:]
    return failed


def run(args, extra):
    groups = {}
    for path in args.paths:
        if not os.path.exists(path):
            raise common.MlfError("%s: no such file or directory" % path)
        target = args.target or guess_target(path)
        if not target:
            raise common.MlfError("cannot tell the target of %s; use --target" % path)
        if target not in fuzz.targets():
            raise common.MlfError("unknown target %r (have: %s)"
                                  % (target, ", ".join(fuzz.targets())))
        groups.setdefault(target, []).extend(fuzz.input_files(path))
    build = fuzz.ensure_built(args.preset, args.variant, args.bug,
                              targets=[t + "_replay" for t in groups])
    total, failed = 0, []
    for target, files in groups.items():
        if not files:
            continue
        total += len(files)
        failed += replay_files(fuzz.binary(build, target + "_replay"), files)
    print("replay: %d input%s, %d failed" % (total, "" if total == 1 else "s", len(failed)))
    for path in failed:
        print("  FAILED %s" % path)
    return 1 if failed else 0


def register(subparsers):
    p = subparsers.add_parser(
        "replay", help="replay inputs through a target (no engine)",
        description="Run files or directories of inputs through <target>_replay. "
                    "*.trace files are skipped (encode them first with tools/mlf trace encode).")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--target", help="target (default: guessed from the path)")
    p.add_argument("--variant", help="port variant (default %s)" % common.DEFAULT_VARIANT)
    p.add_argument("--bug", help="bug variant (bug-...) on top of the variant")
    p.add_argument("--preset", default="dev",
                   help="build preset (default dev; asan for sanitizers)")
    p.set_defaults(func=run)
