# SPDX-License-Identifier: GPL-2.0
"""mlf explore: the schedules of a small scenario, up to a preemption bound.

Runs explore/mlf_explore_* (explore/explore.c): a depth-first enumeration of
the schedules of the scheduled engine on the scenarios of explore/scenarios.c
(two writers and a reader in one bin), every check on each schedule, under
the weak memory model (--weak-bound: the most loads that read an older store
in one schedule) or --memory-model sc. By
default with the sound reduction (a run is cut where its Mazurkiewicz trace
was met before: docs/explore.md); --complete runs every schedule within the
bound, --heuristic the state hashing that may miss schedules. Prints, per
scenario, the schedules explored, choice points, distinct states, runs cut,
final states, failures and the time; a failure prints its report and the
schedule that --replay runs again. Exits 1 on a failure.

The variants with the cached tail run the tree's hlist_nulls_add_behind_rcu()
as seed 000's patch 1/5 posted it: the review question, docs/explore.md.
"""
import argparse
import os

from . import builds
from . import common
from . import engine
from . import variants

def _target(args, code):
    """(binary name, variant, bug) of the build for the arguments: the
    default tree's variants each have their mlf_explore_<variant>; a bug,
    another tree or a user's patches are a build of their own, whose
    mlf_explore runs them."""
    if args.bug or not code.is_default():
        return "mlf_explore", args.variant, args.bug
    variant = args.variant or code.default_variant()
    variants.check(variant, None)
    if variant in variants.iso()[0]:
        raise common.MlfError("%s is an isolation variant of the reclaim target; explore "
                              "runs the memcg LRU" % variant)
    return "mlf_explore_" + variant, None, None


def run(args, extra):
    if args.bound < 0 or args.bound > 20:
        raise common.MlfError("--bound must be 0..20")
    if args.weak_bound is not None and not 0 <= args.weak_bound <= 15:
        raise common.MlfError("--weak-bound must be 0..15")
    if args.weak_bound is not None and args.memory_model == "sc":
        raise common.MlfError("--weak-bound is the weak memory model's: not with "
                              "--memory-model sc")
    if args.promises is not None and not 0 <= args.promises <= 4:
        raise common.MlfError("--promises must be 0..4")
    if args.promises and args.memory_model == "sc":
        raise common.MlfError("--promises is the weak memory model's: not with "
                              "--memory-model sc")
    if args.promises and args.pct:
        raise common.MlfError("--promises goes with the enumeration, not --pct")
    if args.no_hash:
        common.deprecated("--no-hash", "--complete")
        if args.mode == "heuristic":
            raise common.MlfError("--no-hash and --heuristic do not go together")
        args.mode = "complete"
    if args.pct is not None and args.pct < 1:
        raise common.MlfError("--pct needs a number of runs, 1 or more")
    if args.depth < 1 or args.depth > 256:
        raise common.MlfError("--depth must be 1..256")
    if args.pct and (args.keep_going or args.replay is not None or args.mode != "reduced"):
        raise common.MlfError("--pct samples schedules: it goes with neither --keep-going, "
                              "--replay, --complete nor --heuristic")
    if not args.pct and (args.seed is not None or args.steps):
        raise common.MlfError("--seed and --steps are --pct's")
    if args.keep_going and (args.replay is not None or args.expect):
        raise common.MlfError("--keep-going goes with neither --replay nor --expect")
    if args.as_posted:
        common.deprecated("--as-posted", "nothing more: the variants with the cached tail run "
                          "the posted hlist_nulls_add_behind_rcu()")
    code = builds.Code.of(args)
    code.check()
    name, variant, bug = _target(args, code)
    build = builds.ensure_built(args.preset, variant, bug, targets=[name], code=code)
    binary = os.path.join(build, "explore", name)
    if not os.path.exists(binary):
        raise common.MlfError("%s was not built (is explore/CMakeLists.txt there?)" % binary)
    if args.list:
        common.run([binary, "--list"], capture_output=False)
        return 0
    if args.replay is not None and len(args.scenario or []) != 1:
        raise common.MlfError("--replay needs one --scenario")
    failed = 0
    for scenario in args.scenario or [None]:
        cmd = [binary] + (["--scenario", scenario] if scenario else [])
        cmd += ["--bound", args.bound]
        if args.memory_model:
            cmd += ["--memory-model", args.memory_model]
        if args.weak_bound is not None:
            cmd += ["--weak-bound", args.weak_bound]
        if args.promises:
            cmd += ["--promises", args.promises]
        if args.mode != "reduced":
            cmd.append("--" + args.mode)
        if args.keep_going:
            cmd.append("--keep-going")
        if args.pct:
            cmd += ["--pct", args.pct, "--depth", args.depth]
            if args.seed is not None:
                cmd += ["--seed", args.seed]
            if args.steps:
                cmd += ["--steps", args.steps]
        if args.replay is not None:
            cmd += ["--replay", args.replay]
        if args.expect:
            cmd += ["--expect", args.expect]
        cmd += list(extra)
        proc = common.run(cmd, env=common.sanitizer_env(), check=False,
                          capture_output=False)
        if proc.returncode == 2:
            return 2
        if proc.returncode != 0:
            failed += 1
        elif args.expect:
            return 0
    return 1 if failed else 0


def register(subparsers):
    p = subparsers.add_parser(
        "explore", help="the schedules of small scenarios, up to a preemption bound",
        description="Explore the schedules of small scenarios (2 writers and a reader "
                    "in one bin) on the scheduled engine, depth-first up to a preemption "
                    "bound and, under the weak memory model (the default), a bound on the "
                    "loads that read an older store than the newest, with every check on "
                    "each. The default reduction is sound: it "
                    "cuts a run only where its trace (the steps so far, ordered by what "
                    "depends on what) was met before, so it reaches every state, final "
                    "state and failure --complete reaches (docs/explore.md says under "
                    "which premises). --heuristic hashes a part of the state instead: "
                    "faster, and it may miss schedules. Prints schedules, choice points, "
                    "distinct states, pruned runs, final states, failures and the time "
                    "per scenario; a failure prints the schedule to --replay. Exits 1 on "
                    "a failure.")
    p.add_argument("--scenario", action="append",
                   help="scenario to explore (repeatable; default: every one; --list)")
    p.add_argument("--list", action="store_true", help="list the scenarios")
    p.add_argument("--bound", type=int, default=2,
                   help="most preemptions in a schedule (default 2)")
    p.add_argument("--weak-bound", type=int,
                   help="most weak choices in a schedule: loads that read an older store "
                        "than the newest, stores placed before a newer one (default 1)")
    p.add_argument("--promises", type=int, metavar="N",
                   help="promises (load buffering) a run may make under lkmm, each a weak "
                        "choice (default 0; each run then in a child process, a run with "
                        "a broken promise discarded: docs/weak-memory.md)")
    engine.add_memory_model_argument(p, env=False)
    mode = p.add_mutually_exclusive_group()
    mode.add_argument("--complete", dest="mode", action="store_const", const="complete",
                      help="every schedule within the bound, nothing cut")
    mode.add_argument("--heuristic", dest="mode", action="store_const", const="heuristic",
                      help="state hashing, a heuristic: faster, may miss schedules")
    p.set_defaults(mode="reduced")
    p.add_argument("--no-hash", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--keep-going", action="store_true",
                   help="go on past failures (each run in a child process) and list the "
                        "checks that failed: for comparing the modes")
    p.add_argument("--pct", type=int, metavar="RUNS",
                   help="sample RUNS schedules under PCT as published instead (Burckhardt "
                        "et al.): a bug of depth D is found with probability >= "
                        "1/(n k^(D-1)) per run; prints that bound")
    p.add_argument("--depth", type=int, default=2, help="--pct: the bug depth D (default 2)")
    p.add_argument("--seed", type=int, help="--pct: the first run's seed (default 1)")
    p.add_argument("--steps", type=int,
                   help="--pct: k, the steps the change points are drawn over (default: "
                        "the length of a run with none)")
    p.add_argument("--replay", metavar="SCHEDULE",
                   help="run one schedule (as a failure prints it) of one --scenario")
    p.add_argument("--expect", metavar="CHECK",
                   help="succeed when CHECK fails (a bug variant's), fail otherwise")
    builds.add_code_arguments(p)
    p.add_argument("--bug", help="bug variant built on top of the variant")
    p.add_argument("--as-posted", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--preset", default="dev", help="build preset (default dev)")
    p.set_defaults(func=run, passthrough=True)
