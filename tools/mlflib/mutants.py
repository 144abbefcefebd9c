# SPDX-License-Identifier: GPL-2.0
"""mlf mutants: how many defects of our own making a campaign catches.

Each mutant of bench/mutants/<target>.txt is a one-line change of the
sources (the line it replaces must occur exactly once in its file). For
each: apply it to a copy of the tree (build/mutants/tree, built with the
fuzz preset in build/mutants/build, so that only the changed file is
recompiled), fuzz the target from an empty corpus with one libFuzzer
worker for --time seconds (seed 1, the target's options), and judge the
run: caught when its first report is a check of the harness or a
sanitizer's report on the code under test; a "harness" report, an
out-of-memory or a run that finds nothing is not. A timeout (a hang) is
counted apart. Prints a table and caught / total; --json writes the rows.
A mutant that does not build is reported and not counted.

The file's format: a line "@@ NAME FILE", then the line to replace
prefixed by "-" and its replacement prefixed by "+", as in a diff;
comments start with "#". FILE is a source of this repository (src/mm/...)
or of the kernel tree (mm/vmscan.c): a mutant of the code under test is a
one-line change of the tree's text at the build's variant, built as a
user's patch is (-DMLF_PATCHES, docs/kernel.md), a diff against that text
made in build/mutants/kernel by kernel/tree.py.
"""
import difflib
import json
import os
import shutil
import subprocess
import sys
import time

from . import builds
from . import common
from . import engine
from . import signatures
from . import variants

MUTANTS_DIR = os.path.join(common.ROOT, "bench", "mutants")
WORK = os.path.join(common.BUILD, "mutants")
# what a copy of the tree needs to configure and build a target
TREE_PARTS = ("CMakeLists.txt", "CMakePresets.json", "src", "fuzz", "kernel", "zoo",
              "tests", "bench", "stress", "explore", "litmus", "corpus", "tools",
              "sanitizers")
NOT_CAUGHT = ("harness", "oom", "out-of-memory", "no-repro")


def parse(path):
    """[{name, file, old, new}] of a mutants file, in order."""
    mutants, cur = [], None
    with open(path, encoding="utf-8") as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("@@ "):
                words = line[3:].split()
                if len(words) != 2:
                    raise common.MlfError("%s:%d: want '@@ NAME FILE'" % (path, n))
                cur = {"name": words[0], "file": words[1], "old": None, "new": None}
                mutants.append(cur)
            elif line.startswith("#") or not line.strip():
                continue
            elif cur is None:
                raise common.MlfError("%s:%d: a line before the first '@@'" % (path, n))
            elif line.startswith("-") and cur["old"] is None:
                cur["old"] = line[1:]
            elif line.startswith("+") and cur["new"] is None:
                cur["new"] = line[1:]
            else:
                raise common.MlfError("%s:%d: want one '-' line and one '+' line per mutant"
                                      % (path, n))
    names = set()
    for m in mutants:
        if m["old"] is None or m["new"] is None:
            raise common.MlfError("%s: mutant %s lacks its '-' or '+' line" % (path, m["name"]))
        if m["name"] in names:
            raise common.MlfError("%s: mutant %s twice" % (path, m["name"]))
        names.add(m["name"])
    return mutants


def of_tree(m):
    """Whether @m changes the kernel tree's text (not one of ours)."""
    return m["file"].split("/", 1)[0] not in TREE_PARTS


def tree_variant():
    """The variant the mutants' build has (MLF_VARIANT): the default one."""
    return variants.correct()[1]


def tree_text():
    """build/mutants/kernel/tree/<variant>/: the default tree with the seed
    series up to the variant (kernel/tree.py), which tree mutants change."""
    variant = tree_variant()
    out = os.path.join(WORK, "kernel")
    cmd = [sys.executable, os.path.join(common.ROOT, "kernel", "tree.py"), "--out", out,
           "--variants", variant, "--need", variant, "--quiet"]
    common.show(cmd)
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if proc.returncode:
        raise common.MlfError(common.error_line(proc.stderr) or "kernel/tree.py failed")
    return os.path.join(out, "tree", variant)


def tree_patch(m, lines):
    """The diff of the tree's file that makes mutant @m (its text: @lines)."""
    new = [m["new"] if line == m["old"] else line for line in lines]
    body = difflib.unified_diff([l + "\n" for l in lines], [l + "\n" for l in new],
                                "a/" + m["file"], "b/" + m["file"], n=3)
    path = os.path.join(WORK, "patches", m["name"] + ".diff")
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write("diff --git a/%s b/%s\n" % (m["file"], m["file"]))
        f.writelines(body)
    return path


def check_applies(m, root):
    """The source @m changes, or a one-line error if its line is not there once."""
    path = os.path.join(root, m["file"])
    if not os.path.isfile(path):
        raise common.MlfError("mutant %s: no file %s" % (m["name"], m["file"]))
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    n = lines.count(m["old"])
    if n != 1:
        raise common.MlfError("mutant %s: its line occurs %d times in %s, not once"
                              % (m["name"], n, m["file"]))
    return lines


def copy_tree():
    """build/mutants/tree: the sources as they are now. A file is copied
    only when its bytes differ, and then with a new modification time, so
    that the build there recompiles exactly what changed (a copy that kept
    the source's older time could leave an object of an earlier mutant)."""
    tree = os.path.join(WORK, "tree")
    for part in TREE_PARTS:
        src = os.path.join(common.ROOT, part)
        paths = [src] if os.path.isfile(src) else [
            os.path.join(d, n) for d, dirs, names in os.walk(src)
            if "__pycache__" not in d for n in names]
        for path in paths:
            dst = os.path.join(tree, os.path.relpath(path, common.ROOT))
            with open(path, "rb") as f:
                data = f.read()
            if common.write_if_changed(dst, data):
                shutil.copymode(path, dst)
    return tree


def build(tree, target, patch=""):
    """Configure (once, and again when @patch, a tree mutant's diff, is
    not the one configured) and build @target in build/mutants/build; the
    binary's path, or None with the first error."""
    out = os.path.join(WORK, "build")
    configured = builds.cache(out)
    if not configured or configured.get("MLF_PATCHES", "") != patch:
        cmd = ["cmake", "--preset", "fuzz", "-S", tree, "-B", out,
               "-DMLF_VARIANT=" + tree_variant(), "-DMLF_PATCHES=" + patch]
        common.show(cmd)
        proc = subprocess.run(cmd, cwd=tree, capture_output=True, text=True, errors="replace")
        if proc.returncode:
            return None, common.error_line(proc.stderr) or "configure failed"
    cmd = ["cmake", "--build", out, "--target", target]
    common.show(cmd)
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace")
    if proc.returncode:
        text = proc.stdout + proc.stderr
        errors = [line.strip() for line in text.splitlines() if " error: " in line]
        return None, (errors[0] if errors else common.error_line(text)) or "build failed"
    return os.path.join(out, "fuzz", target), None


def fuzz(binary, target, seconds, seed, name):
    """One campaign from an empty corpus: the run's record."""
    out = os.path.join(WORK, "runs", name)
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "corpus"))
    cmd = [binary] + engine.read_options(target) + [
        "-seed=%d" % seed, "-max_total_time=%d" % seconds, "-print_final_stats=1",
        "-artifact_prefix=" + out + "/", os.path.join(out, "corpus")]
    common.show(cmd)
    start = time.monotonic()
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", cwd=out,
                          env=common.sanitizer_env())
    seconds_run = time.monotonic() - start
    with open(os.path.join(out, "fuzz.log"), "w", encoding="utf-8") as f:
        f.write(proc.stderr)
    crashes = sorted(n for n in os.listdir(out)
                     if n.split("-", 1)[0] in ("crash", "leak", "timeout", "oom"))
    execs, _ = engine.libfuzzer_stats(proc.stderr)
    why = engine.not_run("libFuzzer", proc.returncode, proc.stderr, execs, bool(crashes))
    if why:
        raise common.MlfError("%s: %s" % (name, why))
    sig = None
    if crashes:
        sig = (signatures.signature(proc.stderr) or
               signatures.fallback_signature(os.path.join(out, crashes[0])))
    fired = signatures.check_of(sig)
    return {"check": fired, "signature": sig, "message": signatures.message(proc.stderr)
            if sig else None, "seconds": round(seconds_run, 2), "execs": execs,
            "caught": bool(fired) and fired not in NOT_CAUGHT and fired != "timeout",
            "hang": fired == "timeout"}


def run(args, extra):
    path = os.path.join(MUTANTS_DIR, args.target + ".txt")
    common.check_path(path, "file", "mutants of %s" % args.target)
    mutants = parse(path)
    if args.only:
        want = args.only.split(",")
        unknown = [n for n in want if n not in {m["name"] for m in mutants}]
        if unknown:
            raise common.MlfError("no mutant %s in %s" % (", ".join(unknown),
                                                         os.path.relpath(path)))
        mutants = [m for m in mutants if m["name"] in want]
    if args.json and os.path.exists(args.json):
        raise common.MlfError("%s exists; not overwriting it" % args.json)
    if args.json:
        common.check_path(args.json, "out", "--json")
    if args.time < 1:
        raise common.MlfError("--time must be positive")
    kernel = tree_text() if any(of_tree(m) for m in mutants) else None
    for m in mutants:
        check_applies(m, kernel if of_tree(m) else common.ROOT)
    if args.list:
        for m in mutants:
            print("%-28s %s" % (m["name"], m["file"]))
        return 0
    tree = copy_tree()
    rows = []
    # the tree's mutants last: each configures with its patch
    for m in sorted(mutants, key=of_tree):
        if of_tree(m):
            src, original = None, None
            patch = tree_patch(m, check_applies(m, kernel))
        else:
            lines = check_applies(m, tree)
            src, original, patch = os.path.join(tree, m["file"]), "\n".join(lines), ""
            with open(src, "w", encoding="utf-8") as f:
                f.write("\n".join(m["new"] if line == m["old"] else line for line in lines))
        try:
            binary, err = build(tree, args.target, patch)
            if binary:
                row = fuzz(binary, args.target, args.time, args.seed, m["name"])
            else:
                row = {"check": None, "caught": False, "hang": False, "error": err}
        finally:
            if src:
                with open(src, "w", encoding="utf-8") as f:
                    f.write(original)
        row.update(name=m["name"], file=m["file"])
        rows.append(row)
        print("mlf mutants: %s: %s" % (m["name"], "does not build: " + row["error"]
                                       if "error" in row else row["check"] or "survived"),
              flush=True)
    built = [r for r in rows if "error" not in r]
    caught = [r for r in built if r["caught"]]
    hangs = [r for r in built if r["hang"]]
    print("\n%-28s %-22s %9s %10s  %s" % ("mutant", "caught by", "seconds", "execs", "file"))
    for r in rows:
        what = ("does not build" if "error" in r else
                r["check"] if r["caught"] or r["hang"] else "-- survived --")
        print("%-28s %-22s %9s %10s  %s" % (
            r["name"], what, "%.1f" % r["seconds"] if "seconds" in r else "-",
            r.get("execs", "-"), r["file"]))
    print("mlf mutants: %s: caught %d / %d in %d s each (seed %d)%s%s"
          % (args.target, len(caught), len(built), args.time, args.seed,
             ", %d hung (libFuzzer's timeout)" % len(hangs) if hangs else "",
             ", %d did not build" % (len(rows) - len(built)) if len(rows) > len(built)
             else ""))
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(rows, f, indent=1)
    return 0


def register(subparsers):
    p = subparsers.add_parser(
        "mutants", help="fuzz one-line mutants of the code from an empty corpus: caught / total",
        description="For each mutant of bench/mutants/<target>.txt (a one-line change "
                    "of the sources): build the target with it (a copy of the tree in "
                    "build/mutants), fuzz from an empty corpus with one libFuzzer worker "
                    "for --time seconds, and report which check caught it; prints "
                    "caught / total.")
    p.add_argument("--target", default="reclaim",
                   help="the fuzz target whose mutants to run (default reclaim)")
    p.add_argument("--time", type=int, default=60, help="seconds per mutant (default 60)")
    p.add_argument("--seed", type=int, default=1, help="libFuzzer's -seed (default 1)")
    p.add_argument("--only", help="comma-separated mutant names (default: all)")
    p.add_argument("--list", action="store_true", help="list the mutants and check that "
                   "each applies; run none")
    p.add_argument("--json", help="write the rows to this file")
    p.set_defaults(func=run)
