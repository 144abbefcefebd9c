# SPDX-License-Identifier: GPL-2.0
"""mlf minimize: shrink a failing input to a reproducer a person can read.

Byte level, then op level, keeping the signature (shrink.py does the work).
Writes FILE.min and FILE.min.trace next to the input; --save NAME files the
result under corpus/regressions/NAME/ so that ctest replays it
(regressions.save(): a bug-* NAME is a zoo bug's, whose patch names the
target and the check, so no TARGET or EXPECT file is written).
"""
import os
import shutil

from . import builds
from . import campaign
from . import common
from . import engine
from . import regressions
from . import shrink
from . import signatures
from . import targets


def run(args, extra):
    if not os.path.isfile(args.file):
        raise common.MlfError("%s: no such file" % args.file)
    if not os.access(args.file, os.R_OK):
        raise common.MlfError("%s: cannot read it" % args.file)
    # a campaign's crash file minimizes on the campaign's target, variant
    # and bug (its campaign.json), so `tools/mlf minimize CRASH` runs as
    # `tools/mlf fuzz --bug B` prints it
    meta = campaign.meta_of_paths([args.file])
    args.variant = args.variant or meta.get("variant")
    args.bug = args.bug or meta.get("bug")
    engine.set_memory_model(args.memory_model or meta.get("memory_model"))
    code = builds.Code.of(args, meta)
    code.check()
    target = (args.target or meta.get("target") or targets.trace_target_of_file(args.file)
              or regressions.guess_target(args.file))
    if not target:
        raise common.MlfError("cannot tell the target of %s; use --target" % args.file)
    if target not in targets.names():
        raise common.MlfError("unknown target %r (have: %s)"
                              % (target, ", ".join(targets.names())))
    for out in (args.file + ".min", args.file + ".min.trace"):
        if os.path.exists(out):
            raise common.MlfError("%s exists; not overwriting it" % out)
    if args.save:
        regressions.check_name(args.save, target)  # before the work, not after it
    # a readable trace minimizes as the input it spells, never as its text
    start, _, encoded = engine.encoded([args.file], target)
    work = None
    try:
        # a crash of a ThreadSanitizer campaign (DIR/<target>-tsan/) is
        # replayed and shrunk on the TSan build that found it
        sig, best, trace, work = shrink.minimize(start[0], target, args.variant, args.bug,
                                                 args.byte_runs, code=code,
                                                 sanitizer=meta.get("sanitizer"))
        finish(args, target, sig, best, trace)
    finally:
        for d in (work, encoded):
            if d:
                shutil.rmtree(d, ignore_errors=True)
    return 0


def finish(args, target, sig, best, trace):
    shutil.copyfile(best, args.file + ".min")
    if trace:
        with open(args.file + ".min.trace", "w", encoding="utf-8") as f:
            f.write(trace)
    print("minimize: %s -> %s (%d bytes%s), signature %s" % (
        args.file, args.file + ".min", os.path.getsize(args.file + ".min"),
        shrink.describe(trace), sig))
    if trace:
        print(trace, end="")
    if args.save:
        dest = regressions.save(args.save, target, args.file + ".min", trace,
                                check=signatures.check_of(sig))
        print("minimize: saved %s" % os.path.relpath(dest))


def register(subparsers):
    p = subparsers.add_parser(
        "minimize", help="shrink a failing input, keeping its signature",
        description="Byte-level minimization (libFuzzer -minimize_crash), then op-level "
                    "delta debugging on the trace, keeping the same signature (check name "
                    "and failing op kind). Writes FILE.min and FILE.min.trace. A campaign's "
                    "file minimizes on the campaign's target, variant, bug, tree and patches.")
    p.add_argument("file")
    p.add_argument("--target", help="fuzz target (default: guessed from the path)")
    builds.add_code_arguments(p)
    p.add_argument("--bug", help="bug variant the input fails on")
    p.add_argument("--byte-runs", type=int, default=20000,
                   help="the byte-level pass's libFuzzer -runs (default 20000)")
    common.add_deprecated(p, "--runs", "--byte-runs (--runs is the zoo's repeated campaigns)",
                          "byte_runs", type=int)
    p.add_argument("--save", metavar="NAME",
                   help="also file it as corpus/regressions/NAME/ for ctest (a bug-* NAME "
                        "must be a zoo bug whose patch expects this target and check; "
                        "another NAME gets a TARGET file unless the target is memcg_lru)")
    engine.add_memory_model_argument(p)
    p.set_defaults(func=run)
