# SPDX-License-Identifier: GPL-2.0
"""mlf replay: run inputs (files or directories) through a target's replay driver.

The target is guessed from the path (corpus/<target>/..., out/<target>/...,
corpus/regressions/<name>/: its zoo patch for a bug-* directory, else its
TARGET file, else memcg_lru; corpus/regressions as a whole, each directory
by its own) unless --target says. A failing input prints its check,
message, op index and the trace around the op; replay then goes on with the
inputs after it and exits non-zero. Paths with no input in them fail the
command: a replay that runs nothing proves nothing.
"""
import os
import shutil

from . import builds
from . import campaign
from . import common
from . import engine
from . import regressions
from . import targets


def plan(paths, target=None):
    """{target: [input files]} of @paths; a one-line MlfError for a path
    that is not there, whose target nothing tells, or that holds no input."""
    groups = {}
    known = targets.names()
    for path in paths:
        common.check_path(path)
        found = 0
        for t, files in regressions.group(path, target):
            if not t:
                raise common.MlfError("cannot tell the target of %s; use --target" % path)
            if t not in known:
                raise common.MlfError("unknown target %r (have: %s)" % (t, ", ".join(known)))
            if files:
                groups.setdefault(t, []).extend(files)
                found += len(files)
        if not found:
            raise common.MlfError("%s holds no input (fuzz/README.md says which files are "
                                  "inputs)" % path)
    return groups


def run(args, extra):
    for path in args.paths:
        common.check_path(path)
    meta = camp_defaults(args, args.paths)
    if args.timeline:
        # the concurrent target prints each run's timeline, failing or not
        os.environ.setdefault("MLF_SCHED_TIMELINE", "1")
        os.environ.setdefault("MLF_SCHED_SHOW", "0")
    code = builds.Code.of(args, meta)
    code.check()
    groups = plan(args.paths, args.target)
    build = builds.ensure_built(args.preset, args.variant, args.bug,
                                targets=[t + "_replay" for t in groups], code=code)
    total, failed, works = 0, [], []
    try:
        for target, files in groups.items():
            # a readable trace runs as the input it spells, never as its text
            files, shown, work = engine.encoded(files, target)
            works.append(work)
            total += len(files)
            failed += [shown.get(f, f) for f in
                       engine.replay_files(builds.binary(build, target + "_replay"), files)]
    finally:
        for work in works:
            if work:
                shutil.rmtree(work, ignore_errors=True)
    print("replay: %d input%s, %d failed" % (total, "" if total == 1 else "s", len(failed)))
    for path in failed:
        print("  FAILED %s" % path)
    return 1 if failed else 0


def camp_defaults(args, paths):
    """--target, --variant, --bug and --memory-model from the campaign.json
    of the campaign the paths are in (the first one that is), where not
    given: a crash file of `tools/mlf fuzz --bug B` replays on B, as the
    hints say. Returns that campaign.json (its tree and patches, when
    --tree / --patches are not given: builds.Code.of())."""
    meta = campaign.meta_of_paths(paths)
    for key in ("target", "variant", "bug", "memory_model"):
        if getattr(args, key, None) is None and meta.get(key):
            setattr(args, key, meta[key])
    engine.set_memory_model(getattr(args, "memory_model", None))
    return meta


def register(subparsers):
    p = subparsers.add_parser(
        "replay", help="replay inputs through a target (no engine)",
        description="Run files or directories of inputs through <target>_replay. "
                    "A directory's *.trace files are skipped; a file given by name that is a "
                    "readable trace (it starts with a trace magic line) is encoded first and "
                    "runs as the input it spells. Inputs of a campaign (its campaign.json) run "
                    "on its target, variant, bug, tree and patches unless the flags say.")
    p.add_argument("paths", nargs="+", metavar="PATH")
    p.add_argument("--target", help="target (default: guessed from the path)")
    builds.add_code_arguments(p)
    p.add_argument("--bug", help="bug variant (bug-...) on top of the variant")
    p.add_argument("--preset", default="dev",
                   help="build preset (default dev; asan for sanitizers)")
    engine.add_memory_model_argument(p)
    p.add_argument("--timeline", action="store_true",
                   help="concurrent: print each run's interleaving, a line per stretch of "
                        "steps one task ran in one op and how it ended (preempted, blocks, "
                        "op done), failing or not (MLF_SCHED_TIMELINE)")
    p.set_defaults(func=run)
