# SPDX-License-Identifier: GPL-2.0
"""mlf zoo: prove that the harness catches every bug of the bug zoo.

For each bug variant (zoo/<bug>.patch) and each target its Expect: lines
name: build it, fuzz that target from an EMPTY corpus with one libFuzzer
worker, --runs times (different seeds), and record whether the check the
line expects fired, the seconds and execs to the first failure. A run that
fails with another check is not caught: it is reported with the check that
did fire; a data race is "race" only when both of its accesses are in the
code under test (one in the harness, the engine or libFuzzer fires
"harness"), and the table says the two lines of each. Then minimize the first catching run's reproducer for the main
target (the first Expect: line) and file it under corpus/regressions/<bug>/
(never over an existing one). Prints a table and, with --json, writes one
object per bug and target.

--historical: only the bugs that shipped upstream and were put back, those
whose Fixed-by: names the upstream commit by its hash (docs/historical.md
holds their table, and the fixes no variant puts back, with the reason),
with the engine that must catch each.
"""
import json
import os
import re
import shutil
import statistics
import subprocess
import time

from . import bugs
from . import builds
from . import common
from . import engine
from . import regressions
from . import shrink
from . import signatures
from . import targets


# Fixed-by: <upstream commit> ("<subject>"): a bug that shipped
UPSTREAM_FIX = re.compile(r"^([0-9a-f]{12,40})\b")


def upstream_fix(bug):
    """The upstream commit (abbreviated hash) that fixed @bug, or None for
    a bug of our own making or one a seed patch fixes."""
    m = UPSTREAM_FIX.match(bug.field("Fixed-by", ""))
    return m.group(1) if m else None


def historical(zoo):
    """The names of the historical bugs of @zoo ({name: Bug}), by name."""
    return [n for n, b in zoo.items() if upstream_fix(b)]


def preset_of(bug):
    """The libFuzzer build a bug is fuzzed in: ThreadSanitizer's for one
    that needs it (Sanitizer: tsan), ASan + UBSan's for the others."""
    return "fuzz-tsan" if bug.sanitizer == "tsan" else "fuzz"


def judge(sig, expected):
    """(caught, what fired) of a run whose first report is @sig. A data
    race is "race" only when both of its accesses are in the code under
    test (signatures.race_verdict()): one in the harness, the engine or
    libFuzzer fires "harness", and catches nothing."""
    fired = signatures.check_of(sig)
    return bugs.catches(fired, expected), fired


def one_run(binary, target, expected, out, budget, seed, extra):
    """Fuzz from an empty corpus; returns the run's record."""
    corpus = os.path.join(out, "corpus")
    os.makedirs(corpus, exist_ok=True)
    before = set(os.listdir(out))
    cmd = [binary] + engine.read_options(target) + [
        "-seed=%d" % seed, "-max_total_time=%d" % budget, "-print_final_stats=1",
        "-artifact_prefix=" + out + "/"] + extra + [corpus]
    start = time.monotonic()
    common.show(cmd)
    try:
        proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", cwd=out,
                              env=common.sanitizer_env())
    except OSError as e:
        raise common.MlfError("cannot run %s: %s" % (binary, e.strerror or e))
    seconds = time.monotonic() - start
    crashes = sorted(os.path.join(out, n) for n in set(os.listdir(out)) - before
                     if re.match(r"(crash|leak|timeout|oom)-", n))
    with open(os.path.join(out, "fuzz.log"), "w", encoding="utf-8") as f:
        f.write(proc.stderr)
    execs, _ = engine.libfuzzer_stats(proc.stderr)
    why = engine.not_run("libFuzzer", proc.returncode, proc.stderr, execs, bool(crashes))
    if why:
        raise common.MlfError("%s: %s" % (os.path.basename(binary), why))
    sig = msg = None
    if crashes:
        # a crash file without a report of its own: what libFuzzer saved it as
        sig = signatures.signature(proc.stderr) or signatures.fallback_signature(crashes[0])
        msg = signatures.message(proc.stderr)
    caught, fired = judge(sig, expected)
    return {"seed": seed, "caught": caught, "check": fired, "signature": sig,
            "message": msg, "seconds": round(seconds, 2), "execs": execs,
            "crash": crashes[0] if crashes else None}


def zoo_one(bug, target, args, extra):
    expected = bug.expect_for(target)
    preset = preset_of(bug)
    code = builds.Code.of(args)
    try:
        build = builds.ensure_built(preset, args.variant, bug.name, targets=[target], code=code)
    except common.MlfError as e:
        if code.is_default():
            raise
        # a zoo patch written against 6.12 may not apply to another tree
        print("mlf zoo: %s: %s" % (bug.name, e))
        return {"name": bug.name, "target": target, "expect": expected, "engine": bug.engine,
                "fixed_by": upstream_fix(bug), "caught": None, "caught_runs": 0,
                "other_checks": {}, "median_seconds": None, "median_execs": None,
                "max_seconds": None, "runs": [], "not_built": str(e)}
    binary = builds.binary(build, target)
    base = os.path.join(common.OUT_DIR, "zoo", bug.name, target)
    if os.path.isdir(base):
        # earlier zoo runs of this bug: keep their crash files, start afresh
        stamp = time.strftime("%Y%m%d-%H%M%S")
        os.rename(base, base + "-" + stamp)
    runs = []
    for k in range(args.runs):
        out = os.path.join(base, "run%d" % (k + 1))
        os.makedirs(out)
        runs.append(one_run(binary, target, expected, out, args.time, 1 + k, extra))
    caught = [r for r in runs if r["caught"]]
    others = {}
    for r in runs:
        if r["check"] and not r["caught"]:
            others[r["check"]] = others.get(r["check"], 0) + 1
    row = {
        "name": bug.name, "target": target, "expect": expected,
        "engine": bug.engine, "fixed_by": upstream_fix(bug),
        "caught": len(caught) == len(runs),
        "caught_runs": len(caught),
        # the checks that fired instead of the expected one, with their runs
        "other_checks": others,
        "median_seconds": statistics.median([r["seconds"] for r in caught]) if caught else None,
        "median_execs": statistics.median([r["execs"] for r in caught]) if caught else None,
        "max_seconds": max(r["seconds"] for r in caught) if caught else None,
        "mutator": engine.mutator(),
        "load": os.getloadavg()[0],
        "budget_seconds": args.time,
        "runs": runs,
    }
    if caught and args.save and target == bug.target:
        try:
            row["reproducer"] = save(bug, target, caught[0])
        except common.MlfError as e:
            # the table is still worth having: say why nothing was filed
            print("mlf zoo: not filing %s: %s" % (bug.name, e))
            row["reproducer"] = None
    return row


def save(bug, target, run):
    """File the catching run's crash as corpus/regressions/<bug>/, minimized
    (and its trace) in the build it was found in: the scheduler makes a
    concurrent failure, a race ThreadSanitizer reports included, replay
    every time (shrink.presets())."""
    dest = os.path.join(regressions.REGRESSIONS, bug.name)
    if os.path.exists(dest):
        print("mlf zoo: %s exists; keeping it" % os.path.relpath(dest))
        return os.path.relpath(dest, common.ROOT)
    sig, best, trace, work = shrink.minimize(run["crash"], target, None, bug.name)
    try:
        dest = regressions.save(bug.name, target, best, trace, check=signatures.check_of(sig))
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print("mlf zoo: saved %s (%s)" % (os.path.relpath(dest), sig))
    if trace:
        print(trace, end="")
    return os.path.relpath(dest, common.ROOT)


def print_table(rows, historical=False):
    """The table; with @historical, each bug's upstream fix and engine."""
    print("\nmutator: %s (MLF_MUTATOR), load average now %.1f"
          % (engine.mutator(), os.getloadavg()[0]))
    head = ("bug", "target", "caught", "expected check", "median s", "max s", "median execs",
            "instead")
    fmt = "%-26s %-11s %-8s %-22s %10s %8s %12s  %s"
    if historical:
        head = ("fixed by", "engine") + head
        fmt = "%-12s %-10s " + fmt
    print(fmt % head)
    for r in rows:
        cells = (r.get("fixed_by") or "-", r.get("engine") or "-") if historical else ()
        print(fmt % (cells + (
            r["name"], r["target"],
            "%d/%d" % (r["caught_runs"], len(r["runs"])) if r["runs"] else "n/a",
            r["expect"],
            "%.2f" % r["median_seconds"] if r["median_seconds"] is not None else "-",
            "%.2f" % r["max_seconds"] if r.get("max_seconds") is not None else "-",
            "%d" % r["median_execs"] if r["median_execs"] is not None else "-",
            ", ".join("%s x%d" % kv for kv in sorted(r["other_checks"].items())) or
            ("does not apply to this tree" if r.get("not_built") else "-"))))
    # where each data race was, caught or not: its two accesses' lines
    for r in rows:
        races = {}
        for run in r["runs"]:
            sig = run.get("signature") or ""
            if sig.startswith(("race", "harness/race:")) and run.get("message"):
                races[run["message"]] = races.get(run["message"], 0) + 1
        for msg, n in sorted(races.items(), key=lambda kv: -kv[1]):
            print("  %s: %s (%d run%s)" % (r["name"], msg, n, "" if n == 1 else "s"))


def run(args, extra):
    engine.set_mutator(args.mutator)
    engine.set_memory_model(args.memory_model)
    zoo = bugs.bugs()
    if args.historical and args.bugs:
        raise common.MlfError("--historical and --bugs: give one of them")
    if args.historical:
        names = historical(zoo)
        if not names:
            raise common.MlfError("no zoo/<bug>.patch names an upstream fix (Fixed-by: <hash>)")
    else:
        names = args.bugs.split(",") if args.bugs else list(zoo)
    chosen = [bugs.require(n) for n in names]
    for b in chosen:
        if not b.expects:
            raise common.MlfError("zoo/%s.patch has no Expect: line" % b.name)
        for t, _ in b.expects:
            if t not in targets.names():
                raise common.MlfError("zoo/%s.patch expects target %r (have: %s)"
                                      % (b.name, t, ", ".join(targets.names())))
    if args.json and os.path.exists(args.json):
        raise common.MlfError("%s exists; not overwriting it" % args.json)
    if args.json:
        # said now, not after the whole zoo has run
        common.check_path(args.json, "out", "--json")
    if args.runs < 1 or args.time < 1:
        raise common.MlfError("--runs and --time must be positive")
    code = builds.Code.of(args)
    code.check()
    if args.save and not code.is_default():
        raise common.MlfError("--save files reproducers of the default tree's bugs in "
                              "corpus/regressions/: not with --tree or --patches")
    engine.check_libfuzzer_args(extra, "tools/mlf zoo")
    rows = []
    for b in chosen:
        for t, _ in b.expects:
            rows.append(zoo_one(b, t, args, extra))
    print_table(rows, args.historical)
    if args.historical:
        print("mlf zoo: the upstream fixes and how each variant puts its bug back: docs/historical.md")
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
        print("mlf zoo: wrote %s" % args.json)
    # a bug whose patch does not apply to another tree is said, not failed
    return 0 if all(r["caught"] or r.get("not_built") for r in rows) else 1


def register(subparsers):
    p = subparsers.add_parser(
        "zoo", help="fuzz every bug variant from an empty corpus and report",
        description="For each bug variant (zoo/<bug>.patch) and target its Expect: lines "
                    "name: build it, fuzz the target from an empty corpus (one libFuzzer "
                    "worker) --runs times, report how many runs the expected check caught "
                    "(a run stopped by another check is not caught; the table names that "
                    "check) with the median seconds and execs; with --save, minimize the "
                    "first reproducer and file it as corpus/regressions/<bug>/. With --tree / "
                    "--patches, each bug's patch goes onto that code (one that does not "
                    "apply is said, as n/a). Unknown flags go to libFuzzer.")
    p.add_argument("--bugs", help="comma-separated bug variants (default: all)")
    builds.add_code_arguments(p, "the seed level the bugs are built on (default: each "
                                 "bug's Variant:, else the default)")
    p.add_argument("--historical", action="store_true",
                   help="only the bugs that shipped upstream (Fixed-by: <commit hash>), "
                        "with their fix and engine (docs/historical.md)")
    p.add_argument("--time", type=int, default=60,
                   help="seconds per run (default 60), as fuzz's --time")
    common.add_deprecated(p, "--budget", "--time", "time", type=int)
    p.add_argument("--runs", type=int, default=3, help="runs per bug (default 3)")
    p.add_argument("--json", help="write the results to this file")
    p.add_argument("--save", action="store_true",
                   help="minimize the first reproducer of a bug and file it as "
                        "corpus/regressions/<bug>/ (the tracked tree: opt-in)")
    common.add_deprecated(p, "--no-save", "the default (saving is opt-in: --save)", "save",
                          value=False)
    engine.add_mutator_argument(p)
    engine.add_memory_model_argument(p)
    p.set_defaults(func=run, passthrough=True)
