# SPDX-License-Identifier: GPL-2.0
"""mlf zoo: prove that the harness catches every bug of the bug zoo.

For each bug variant: build it, fuzz the target that should catch it from an
EMPTY corpus with one libFuzzer worker, --runs times (different seeds), and
record whether it was caught, by which check, and the seconds and execs to
the first failure; then minimize the first reproducer and file it under
corpus/regressions/<bug>/ (never over an existing one). Prints a table and,
with --json, writes one object per bug.
"""
import json
import os
import re
import shutil
import statistics
import time

from . import common
from . import fuzz
from . import minimize

# bug -> (target, preset): the target whose checks the bug breaks
BUGS = {
    "bug-add-behind-interior": ("memcg_lru", "fuzz"),
    "bug-stale-tail-on-del": ("memcg_lru", "fuzz"),
    "bug-no-tail-on-empty-head": ("memcg_lru", "fuzz"),
    "bug-tail-on-head-insert": ("memcg_lru", "fuzz"),
    "bug-no-seq-advance": ("memcg_lru", "fuzz"),
    "bug-nr-memcgs-release": ("memcg_lru", "fuzz"),
    "bug-young-skip-any-seg": ("memcg_lru", "fuzz"),
    "bug-release-spin": ("memcg_lru", "fuzz"),
    "bug-lock-not-irqsafe": ("memcg_lru", "fuzz"),
    "bug-resched-under-rcu": ("memcg_lru", "fuzz"),
    "bug-no-nr-isolated": ("reclaim", "fuzz"),
    "bug-throttle-any-type": ("reclaim", "fuzz"),
    "bug-shadow-lru-size": ("reclaim", "fuzz"),
    # writers against RCU readers, under ThreadSanitizer
    "bug-free-no-grace": ("concurrent", "fuzz-tsan"),
    "bug-unlocked-rotate": ("concurrent", "fuzz-tsan"),
    "bug-plain-publish": ("concurrent", "fuzz-tsan"),
    "bug-unpinned-cursor": ("concurrent", "fuzz-tsan"),
}
# the same defect seen from the list primitives' own target
EXTRA_TARGETS = {
    "bug-add-behind-interior": ["nulls_list"],
}


def known_bugs():
    from . import list as mlflist
    return mlflist.bug_variants()


def one_run(binary, target, out, budget, seed, extra):
    """Fuzz from an empty corpus; returns the run's record."""
    corpus = os.path.join(out, "corpus")
    os.makedirs(corpus, exist_ok=True)
    before = set(os.listdir(out))
    cmd = [binary] + fuzz.read_options(target) + [
        "-seed=%d" % seed, "-max_total_time=%d" % budget, "-print_final_stats=1",
        "-artifact_prefix=" + out + "/"] + extra + [corpus]
    start = time.monotonic()
    common.show(cmd)
    import subprocess
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", cwd=out,
                          env=common.sanitizer_env())
    seconds = time.monotonic() - start
    crashes = sorted(os.path.join(out, n) for n in set(os.listdir(out)) - before
                     if re.match(r"(crash|leak|timeout|oom)-", n))
    with open(os.path.join(out, "fuzz.log"), "w", encoding="utf-8") as f:
        f.write(proc.stderr)
    execs, _ = fuzz.libfuzzer_stats(proc.stderr)
    sig = minimize.signature(proc.stderr)
    caught = bool(crashes) and sig is not None
    return {"seed": seed, "caught": caught, "check": minimize.check_of(sig) if caught else None,
            "signature": sig if caught else None, "seconds": round(seconds, 2),
            "execs": execs, "crash": crashes[0] if crashes else None}


def zoo_one(bug, target, preset, args, extra):
    build = fuzz.ensure_built(preset, None, bug, targets=[target])
    binary = fuzz.binary(build, target)
    base = os.path.join(fuzz.OUT_DIR, "zoo", bug, target)
    if os.path.isdir(base):
        # earlier zoo runs of this bug: keep their crash files, start afresh
        stamp = time.strftime("%Y%m%d-%H%M%S")
        os.rename(base, base + "-" + stamp)
    runs = []
    for k in range(args.runs):
        out = os.path.join(base, "run%d" % (k + 1))
        os.makedirs(out)
        runs.append(one_run(binary, target, out, args.budget, 1 + k, extra))
    caught = [r for r in runs if r["caught"]]
    checks = sorted(set(r["check"] for r in caught))
    row = {
        "name": bug, "target": target,
        "caught": len(caught) == len(runs),
        "caught_runs": len(caught),
        "check": checks[0] if len(checks) == 1 else ",".join(checks) or None,
        "median_seconds": statistics.median([r["seconds"] for r in caught]) if caught else None,
        "median_execs": statistics.median([r["execs"] for r in caught]) if caught else None,
        "budget_seconds": args.budget,
        "runs": runs,
    }
    if caught and args.save and target == BUGS[bug][0]:
        row["reproducer"] = save(bug, target, caught[0], preset)
    return row


def save_unminimized(bug, target, run):
    """A race does not replay every time: file the crash as found, marked
    FLAKY so that ctest replays it on the correct variants (where it must
    pass) but does not require the failure on the bug variant."""
    dest = os.path.join(minimize.REGRESSIONS, bug)
    os.makedirs(dest)
    shutil.copyfile(run["crash"], os.path.join(dest, "repro"))
    for name, text in (("EXPECT", run["check"]), ("TARGET", target),
                       ("FLAKY", "a concurrent failure: replays fail only some of the time")):
        with open(os.path.join(dest, name), "w", encoding="utf-8") as f:
            f.write(text + "\n")
    print("mlf zoo: saved %s (as found: %s)" % (os.path.relpath(dest), run["signature"]))
    return os.path.relpath(dest, common.ROOT)


def save(bug, target, run, preset):
    dest = os.path.join(minimize.REGRESSIONS, bug)
    if os.path.exists(dest):
        print("mlf zoo: %s exists; keeping it" % os.path.relpath(dest))
        return os.path.relpath(dest, common.ROOT)
    if preset != "fuzz":
        return save_unminimized(bug, target, run)
    sig, best, trace, work = minimize.minimize(run["crash"], target, None, bug)
    dest = minimize.save_regression(bug, sig, best, trace, target)
    shutil.rmtree(work, ignore_errors=True)
    print("mlf zoo: saved %s (%s)" % (os.path.relpath(dest), sig))
    if trace:
        print(trace, end="")
    return os.path.relpath(dest, common.ROOT)


def print_table(rows):
    print("\n%-26s %-11s %-8s %-22s %10s %12s" % (
        "bug", "target", "caught", "check", "median s", "median execs"))
    for r in rows:
        print("%-26s %-11s %-8s %-22s %10s %12s" % (
            r["name"], r["target"], "%d/%d" % (r["caught_runs"], len(r["runs"])),
            r["check"] or "-",
            "%.2f" % r["median_seconds"] if r["median_seconds"] is not None else "-",
            "%d" % r["median_execs"] if r["median_execs"] is not None else "-"))


def run(args, extra):
    bugs = args.bugs.split(",") if args.bugs else sorted(BUGS)
    known = known_bugs()
    for b in bugs:
        if b not in BUGS:
            raise common.MlfError("no zoo entry for %r (have: %s)" % (b, ", ".join(sorted(BUGS))))
        if b not in known:
            raise common.MlfError("%r is not a bug variant of the source" % b)
    if args.json and os.path.exists(args.json):
        raise common.MlfError("%s exists; not overwriting it" % args.json)
    if args.runs < 1 or args.budget < 1:
        raise common.MlfError("--runs and --budget must be positive")
    rows = []
    for b in bugs:
        target, preset = BUGS[b]
        for t in [target] + EXTRA_TARGETS.get(b, []):
            if t in fuzz.targets():
                rows.append(zoo_one(b, t, preset, args, extra))
    print_table(rows)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
        print("mlf zoo: wrote %s" % args.json)
    return 0 if all(r["caught"] for r in rows) else 1


def register(subparsers):
    p = subparsers.add_parser(
        "zoo", help="fuzz every bug variant from an empty corpus and report",
        description="For each bug variant: build it, fuzz its target from an empty corpus "
                    "(one libFuzzer worker) --runs times, report caught / check / median "
                    "seconds and execs, minimize the first reproducer and save it as "
                    "corpus/regressions/<bug>/. Unknown flags go to libFuzzer.")
    p.add_argument("--bugs", help="comma-separated bug variants (default: all)")
    p.add_argument("--budget", type=int, default=60, help="seconds per run (default 60)")
    p.add_argument("--runs", type=int, default=3, help="runs per bug (default 3)")
    p.add_argument("--json", help="write the results to this file")
    p.add_argument("--no-save", dest="save", action="store_false",
                   help="do not minimize and save reproducers")
    p.set_defaults(func=run, passthrough=True)
