# SPDX-License-Identifier: GPL-2.0
"""mlf cov: source-based coverage of a corpus, and a campaign's progress plot.

Coverage: the corpus (default: the shipped corpus/<target>; --dir: a
campaign's, of both its builds: DIR/<target>/corpus and, of a target the
TSan build fuzzes, DIR/<target>-tsan/corpus; --corpus: any directories) runs through <target>_replay of the
coverage preset (clang -fprofile-instr-generate -fcoverage-mapping), each
process writing a .profraw; llvm-profdata merges them and llvm-cov prints
line and branch coverage per file of the code under test (the kernel
tree's mm/vmscan.c and mm/memcontrol.c, the lines the cut compiles, and
its list headers: the build's copy of the tree at its variant, bug and
patches), of the models of src/mm and of the shim, src/kernel, and writes
an HTML report. --plot DIR draws DIR/<target>/stats.csv (coverage and corpus
size over time, written by `mlf fuzz`) to a PNG with gnuplot. --states
reports state coverage instead (states.py): which cells of (op kind, the
memcg's life stage, its generation against seq, segment, place in its bin)
the corpus met, of those the harness can meet, and why the others cannot;
its corpus is corpus/<target> alone unless --dir or --corpus say other.
"""
import csv
import glob
import json
import os
import re
import shutil
import subprocess

from . import builds
from . import common
from . import engine
from . import regressions
from . import states
from . import targets

SOURCES = ("src/mm", "src/kernel")
# the files of the tree the code under test is cut from, as the table names them
TREE = "the tree"


def tree_sources(build, variant, bug, code):
    """{path in the build: name in the tree} of the code under test's files:
    the build's copy of the tree (the cut's #line names it) and the cut's
    list headers (kernel/tree.py's manifest.json says where)."""
    try:
        with open(os.path.join(build, "kernel", "manifest.json"), encoding="utf-8") as f:
            m = json.load(f)
    except (OSError, ValueError):
        return {}, None, None
    entry = m["bugs"].get(bug) if bug else m["variants"].get(variant or code.default_variant())
    if not entry:
        return {}, None, None
    name = m["variants"].get(entry.get("variant"), entry).get("name") if bug else entry["name"]
    copy = entry.get("tree") or m["variants"][entry["variant"]]["tree"]
    cut = entry["cut"]
    files = {os.path.join(copy, "mm", "vmscan.c"): "mm/vmscan.c",
             os.path.join(copy, "mm", "memcontrol.c"): "mm/memcontrol.c"}
    for h in ("list_nulls.h", "rculist_nulls.h"):
        files[os.path.join(cut, "include", "linux", h)] = "include/linux/" + h
    return files, "%s%s" % (name, " + " + bug if bug else ""), cut


def llvm_tool(name):
    """llvm-<name> matching clang's major version (the .profraw format does)."""
    try:
        out = subprocess.run(["clang", "--version"], capture_output=True, text=True).stdout
        major = re.search(r"version (\d+)", out).group(1)
    except (OSError, AttributeError):
        major = None
    for cand in (["llvm-%s-%s" % (name, major)] if major else []) + ["llvm-" + name]:
        if shutil.which(cand):
            return cand
    raise common.MlfError("llvm-%s is missing (tools/mlf setup installs llvm)" % name)


def campaign_corpora(campaign, target):
    """A campaign's corpora of @target: its ASan (or AFL++) build's and its
    TSan build's (DIR/<target>-tsan/corpus), those it has."""
    return [d for d in (os.path.join(campaign, target, "corpus"),
                        os.path.join(campaign, target + "-tsan", "corpus"))
            if os.path.isdir(d)]


def corpus_dirs(target, args):
    if args.corpus:
        return args.corpus
    if args.dir:
        return campaign_corpora(args.dir, target)
    dirs = [os.path.join(common.CORPUS_DIR, target)]
    # reproducers replay clean on correct variants: they cover what they hit
    # (not the bug variants': they are the bug's, not the port's)
    for reg in sorted(glob.glob(os.path.join(regressions.REGRESSIONS, "*"))):
        named = regressions.dir_target(reg) or regressions.DEFAULT_TARGET
        if named == target and not os.path.basename(reg).startswith("bug-"):
            dirs.append(reg)
    return [d for d in dirs if os.path.isdir(d)]


def collect(build, chosen, args, raw):
    """Run every target's corpus with LLVM_PROFILE_FILE; returns the binaries run."""
    binaries = []
    for target in chosen:
        files = [f for d in corpus_dirs(target, args) for f in targets.input_files(d)]
        if not files:
            print("cov: %s: no inputs" % target)
            continue
        driver = builds.binary(build, target + "_replay")
        os.environ["LLVM_PROFILE_FILE"] = os.path.join(raw, target + "-%p.profraw")
        try:
            failed = engine.replay_files(driver, files)
        finally:
            del os.environ["LLVM_PROFILE_FILE"]
        print("cov: %s: %d inputs%s" % (target, len(files),
                                         ", %d failed" % len(failed) if failed else ""))
        binaries.append(driver)
    return binaries


def summary(llvm_cov, binaries, profdata, tree_files, cut_files):
    """{file: {"lines": (covered, count), "branches": (covered, count)}}; the
    tree's files are named "the tree/<its path>"."""
    cmd = [llvm_cov, "export", "-summary-only", "-instr-profile=" + profdata, binaries[0]]
    for b in binaries[1:]:
        cmd += ["-object", b]
    cmd += sorted(tree_files) + cut_files + [os.path.join(common.ROOT, s) for s in SOURCES]
    common.show(cmd)
    data = json.loads(subprocess.run(cmd, capture_output=True, text=True, check=True).stdout)
    files = {}
    for entry in data["data"]:
        for f in entry["files"]:
            s = f["summary"]
            name = f["filename"]
            name = TREE + "/" + tree_files[name] if name in tree_files else \
                os.path.relpath(name, common.ROOT)
            files[name] = {
                "lines": (s["lines"]["covered"], s["lines"]["count"]),
                "branches": (s["branches"]["covered"], s["branches"]["count"]),
                "functions": (s["functions"]["covered"], s["functions"]["count"])}
    return files


LINE_DIRECTIVE = re.compile(r'^#line (\d+) "([^"]+)"')
SHOW_LINE = re.compile(r"^\s*(\d+)\|\s*([0-9.]+[kMGTE]?)?\|")


def tree_lines(llvm_cov, binaries, profdata, cut_file):
    """{tree file: {its line: count}} of the executable lines of a cut file
    (mlf_tree_vmscan.c), by its #line directives: clang's coverage maps the
    cut's own lines, which name the tree's by those."""
    cmd = [llvm_cov, "show", "-instr-profile=" + profdata, binaries[0]]
    for b in binaries[1:]:
        cmd += ["-object", b]
    text = subprocess.run(cmd + [cut_file], capture_output=True, text=True).stdout
    counts = {}
    for line in text.splitlines():
        m = SHOW_LINE.match(line)
        if m and m.group(2):
            c = m.group(2)
            scale = {"k": 1e3, "M": 1e6, "G": 1e9, "T": 1e12, "E": 1e18}.get(c[-1], 1)
            counts[int(m.group(1))] = float(c.rstrip("kMGTE")) * scale
    out, where, at = {}, None, 0
    with open(cut_file, encoding="utf-8", errors="replace") as f:
        for n, line in enumerate(f, 1):
            m = LINE_DIRECTIVE.match(line)
            if m:
                at, where = int(m.group(1)), m.group(2)
                continue
            if where and n in counts:
                out.setdefault(where, {})[at] = counts[n]
            at += 1
    return out


def ranges(numbers):
    """'4231, 4240-4242' of sorted line numbers."""
    out, start, prev = [], None, None
    for n in numbers + [None]:
        if start is not None and (n is None or n != prev + 1):
            out.append("%d" % start if start == prev else "%d-%d" % (start, prev))
            start = None
        if n is not None and start is None:
            start = n
        prev = n
    return ", ".join(out)


def add_tree_rows(files, llvm_cov, binaries, profdata, tree_files, cut):
    """The rows of the tree's mm/vmscan.c and mm/memcontrol.c, in the tree's
    lines (the cut's, mapped), with the cut file's branches and functions;
    returns {tree file: [uncovered lines]}."""
    uncovered = {}
    for cut_name in ("mlf_tree_vmscan.c", "mlf_tree_memcg.c"):
        cut_file = os.path.join(cut, cut_name)
        key = os.path.relpath(cut_file, common.ROOT)
        summary_row = files.pop(key, None)
        for path, lines in tree_lines(llvm_cov, binaries, profdata, cut_file).items():
            name = tree_files.get(path)
            if not name:
                continue
            covered = sum(1 for c in lines.values() if c > 0)
            row = {"lines": (covered, len(lines)), "branches": (0, 0), "functions": (0, 0)}
            if summary_row:
                row["branches"], row["functions"] = summary_row["branches"], \
                    summary_row["functions"]
            files[TREE + "/" + name] = row
            uncovered[name] = sorted(n for n, c in lines.items() if c == 0)
    return uncovered


def pct(pair):
    return 100.0 * pair[0] / pair[1] if pair[1] else 100.0


def print_table(files, tree_name=None):
    if tree_name:
        print("the code under test: %s" % tree_name)
    print("%-40s %-19s %-19s %s" % ("file", "lines", "branches", "functions"))

    def row(name, s):
        print("%-40s %5d/%-5d %6.1f%% %5d/%-5d %6.1f%% %4d/%-3d %4.0f%%" % (
            name, s["lines"][0], s["lines"][1], pct(s["lines"]), s["branches"][0],
            s["branches"][1], pct(s["branches"]), s["functions"][0], s["functions"][1],
            pct(s["functions"])))

    for top in (TREE,) + SOURCES:
        mine = {n: s for n, s in files.items() if n.startswith(top + "/")}
        if not mine:
            continue
        for name in sorted(mine):
            row(name, mine[name])
        total = {k: tuple(sum(s[k][i] for s in mine.values()) for i in (0, 1))
                 for k in ("lines", "branches", "functions")}
        row(top + "/ (total)", total)
        print()


def run_cov(args):
    known = targets.names()
    if args.target and args.target not in known:
        raise common.MlfError("unknown target %r (have: %s)" % (args.target, ", ".join(known)))
    chosen = [args.target] if args.target else getattr(args, "dir_targets", None) or known
    profdata_tool, llvm_cov = llvm_tool("profdata"), llvm_tool("cov")
    code = builds.Code.of(args)
    build = builds.ensure_built("coverage", args.variant, args.bug,
                                targets=[t + "_replay" for t in chosen], code=code)
    tree_files, tree_name, cut = tree_sources(build, args.variant, args.bug, code)
    out = os.path.abspath(args.out)
    raw = os.path.join(out, "profraw")
    shutil.rmtree(raw, ignore_errors=True)
    os.makedirs(raw)
    binaries = collect(build, chosen, args, raw)
    if not binaries:
        raise common.MlfError("no inputs ran")
    profdata = os.path.join(out, "mlf.profdata")
    common.run([profdata_tool, "merge", "-sparse", "-o", profdata]
               + sorted(glob.glob(os.path.join(raw, "*.profraw"))))
    cut_files = [os.path.join(cut, n) for n in ("mlf_tree_vmscan.c", "mlf_tree_memcg.c")] \
        if cut else []
    files = summary(llvm_cov, binaries, profdata, tree_files, cut_files)
    uncovered = add_tree_rows(files, llvm_cov, binaries, profdata, tree_files, cut) \
        if cut else {}
    html = os.path.join(out, "html")
    shutil.rmtree(html, ignore_errors=True)
    cmd = [llvm_cov, "show", "-format=html", "-show-branches=count",
           "-show-line-counts-or-regions", "-output-dir=" + html,
           "-instr-profile=" + profdata, binaries[0]]
    for b in binaries[1:]:
        cmd += ["-object", b]
    common.run(cmd + cut_files + sorted(tree_files) +
               [os.path.join(common.ROOT, s) for s in SOURCES], stdout=subprocess.DEVNULL)
    print_table(files, tree_name)
    for name, lines in sorted(uncovered.items()):
        print("cov: the tree's %s: %s" % (name, "every line covered" if not lines else
                                            "lines not covered: " + ranges(lines)))
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as f:
        json.dump(files, f, indent=1, sort_keys=True)
    print("cov: HTML report %s" % os.path.relpath(os.path.join(html, "index.html")))
    return 0


def read_stats(path):
    rows = []
    with open(path, encoding="utf-8") as f:
        for r in csv.DictReader(f):
            try:
                rows.append({k: float(v) for k, v in r.items()})
            except (TypeError, ValueError):
                continue  # a row cut short by a kill
    return rows


def plot(campaign, png):
    """Coverage (ft, cov) and corpus size over time, one panel per target."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        raise common.MlfError("gnuplot is missing (tools/mlf setup installs gnuplot-nox)")
    stats = sorted(glob.glob(os.path.join(campaign, "*", "stats.csv")))
    if os.path.exists(os.path.join(campaign, "stats.csv")):
        stats = [os.path.join(campaign, "stats.csv")]
    stats = [(os.path.basename(os.path.dirname(p)), p) for p in stats if read_stats(p)]
    if not stats:
        raise common.MlfError("no stats.csv with rows under %s" % campaign)
    lines = ["set terminal pngcairo size 1000,%d font ',10'" % (380 * len(stats)),
             "set output '%s'" % png, "set datafile separator ','",
             "set multiplot layout %d,1" % len(stats), "set grid",
             "set key left top", "set xlabel 'minutes of fuzzing'",
             "set ylabel 'coverage (features, ft)'", "set y2label 'corpus entries'",
             "set ytics nomirror", "set y2tics", "set yrange [0:*]", "set y2range [0:*]"]
    for target, path in stats:
        rows = read_stats(path)
        last = rows[-1]
        lines += ["set title \"%s: %d execs, %d crash file%s, %d unique failure%s\" noenhanced"
                  % (target, last["execs"], last["crashes"], "" if last["crashes"] == 1 else "s",
                     last["unique"], "" if last["unique"] == 1 else "s"),
                  "plot '%s' using ($1/60):6 skip 1 with lines lw 2 title 'coverage (ft)', "
                  "'' using ($1/60):4 skip 1 axes x1y2 with lines lw 2 dt 2 "
                  "title 'corpus entries'" % path]
    lines.append("unset multiplot")
    common.run([gnuplot], input="\n".join(lines) + "\n", text=True)
    print("cov: plotted %s" % os.path.relpath(png))


def run_states(args):
    known = [t for t in targets.names() if states.has_states(t)]
    if args.target and args.target not in known:
        raise common.MlfError("no state coverage for target %r (have: %s)"
                              % (args.target, ", ".join(known)))
    chosen = [args.target] if args.target else [
        t for t in getattr(args, "dir_targets", None) or known if t in known]
    if not chosen:
        raise common.MlfError("no state coverage for the targets of --dir %s" % args.dir)
    build = builds.ensure_built(args.preset, args.variant, args.bug,
                                targets=[t + "_replay" for t in chosen],
                                code=builds.Code.of(args))
    findings = 0
    report = {}
    for target in chosen:
        if args.corpus:
            dirs = args.corpus
        elif args.dir:
            dirs = campaign_corpora(args.dir, target)
        else:
            dirs = [os.path.join(common.CORPUS_DIR, target)]
        files = [f for d in dirs if os.path.isdir(d) for f in targets.input_files(d)]
        if not files:
            raise common.MlfError("%s: no inputs in %s" % (target, ", ".join(dirs)))
        met, failed = states.collect(builds.binary(build, target + "_replay"), files,
                                     target)
        what = "%d inputs of %s%s" % (len(files), ", ".join(os.path.relpath(d) for d in dirs),
                                      ", %d failed" % len(failed) if failed else "")
        n, of, bad = states.print_table(target, met, what)
        findings += bad
        report[target] = {"met": n, "reachable": of, "cells": {" ".join(c): k
                                                              for c, k in met.items()}}
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(report, f, indent=1, sort_keys=True)
        print("cov: wrote %s" % args.json)
    return 1 if findings else 0


def check_args(args):
    """The paths given, checked before anything is built; with --dir and no
    --target, the targets are those the campaign directory has a corpus of."""
    if args.plot:
        common.check_path(args.plot, "dir", "--plot")
        return
    for d in args.corpus or []:
        common.check_path(d, "dir", "--corpus")
    if args.json:
        common.check_path(args.json, "out", "--json")
    if args.dir:
        common.check_path(args.dir, "dir", "--dir")
        if args.target:
            if not campaign_corpora(args.dir, args.target):
                raise common.MlfError("--dir %s: no %s corpus in it (DIR/%s/corpus or "
                                      "DIR/%s-tsan/corpus)" % (args.dir, args.target,
                                                               args.target, args.target))
        else:
            have = [t for t in targets.names() if campaign_corpora(args.dir, t)]
            if not have:
                raise common.MlfError("--dir %s: no campaign corpus in it (DIR/<target>/corpus "
                                      "or DIR/<target>-tsan/corpus)" % args.dir)
            args.dir_targets = have


def run(args, extra):
    check_args(args)
    if args.states:
        return run_states(args)
    if args.plot:
        png = os.path.abspath(args.png or os.path.join(args.plot, "progress.png"))
        plot(args.plot, png)
        return 0
    return run_cov(args)


def register(subparsers):
    p = subparsers.add_parser(
        "cov", help="source-based coverage of a corpus; plot a campaign",
        description="Run the corpus (default: the shipped one) through the coverage build's "
                    "replay drivers, merge the profiles (llvm-profdata) and report line and "
                    "branch coverage per file (llvm-cov) of the code under test (the tree's "
                    "mm/vmscan.c and mm/memcontrol.c, the lines the cut compiles; its list "
                    "headers), of src/mm and of src/kernel, with an HTML report. --plot DIR draws a campaign's coverage and corpus size over "
                    "time (DIR/<target>/stats.csv) to a PNG.")
    p.add_argument("--target", help="one target (default: all)")
    p.add_argument("--dir", help="use the corpus of this campaign directory")
    p.add_argument("--corpus", nargs="+", metavar="DIR", help="use these directories")
    builds.add_code_arguments(p)
    p.add_argument("--bug", help="bug variant")
    p.add_argument("--out", default=os.path.join(common.OUT_DIR, "cov"),
                   help="where the profiles and the HTML go (default out/cov)")
    p.add_argument("--plot", metavar="DIR", help="plot campaign DIR's stats.csv instead")
    p.add_argument("--png", help="the plot's file (default DIR/progress.png)")
    p.add_argument("--states", action="store_true",
                   help="state coverage instead: the cells the corpus met (memcg_lru, "
                        "reclaim; default corpus: corpus/<target>)")
    p.add_argument("--preset", default="dev",
                   help="--states: the build whose replay drivers run (default dev)")
    p.add_argument("--json", help="--states: write the cells met to this file")
    p.set_defaults(func=run)
