# SPDX-License-Identifier: GPL-2.0
"""mlf kernel: fuzz, replay and test a kernel tree's own memcg LRU code.

`tools/mlf kernel [--tree DIR_OR_TARBALL] fuzz|replay|test ...` builds the
kernel configuration (kernel/CMakeLists.txt: the tree's code cut into the
build directory and compiled against the shim) in build/kernel-<preset>
(another tree: build/kernel-<preset>-<hash of its path>),
then runs the same engines as `tools/mlf fuzz` / `replay` on it:

  memcg_lru   the sequential target, every check and the model
  concurrent  writers and readers at once (--tsan: under ThreadSanitizer)
  kernel_diff the port's v6.12 and the tree's code on the same input

kernel_diff-<level> (p1-3, p1-4, p1-5, p1-5-lockrand) runs the port's
<level> variant against the tree with that level of the seed series
applied (kernel/series/seed.json), built beside kernel_diff.

--patches FILE (repeatable) applies a series (an mbox, patch mails or
plain diffs, in order, git am / patch -p1 conventions) to a copy of the tree's files the
cut reads (kernel/patch_tree.py), and runs everything on that copy: "does
my series break the memcg LRU?" before posting it. A hunk that does not
apply is one error naming the patch and the hunk.

The default tree is Debian's linux-source-6.12 tarball (tools/mlf setup).
"""
import hashlib
import os
import shutil
import subprocess
import sys
import time

from . import builds
from . import common
from . import engine
from . import packages
from . import regressions
from . import targets

DEFAULT_TREE = "/usr/src/linux-source-6.12.tar.xz"
EXTRACT = os.path.join(common.ROOT, "kernel", "extract.py")
PATCH_TREE = os.path.join(common.ROOT, "kernel", "patch_tree.py")
# the seed series' levels, one kernel_diff-<level> each (kernel/CMakeLists.txt)
SERIES_LEVELS = ("p1-3", "p1-4", "p1-5", "p1-5-lockrand")
# tools/mlf's name for a target -> (binary, seeds and options from)
TARGETS = {
    "memcg_lru": ("memcg_lru_kernel", "memcg_lru"),
    "concurrent": ("concurrent_kernel", "concurrent"),
    "kernel_diff": ("kernel_diff", "memcg_lru"),
}
TARGETS.update({"kernel_diff-" + level: ("kernel_diff-" + level, "memcg_lru")
                for level in SERIES_LEVELS})
TARGETS.update({"concurrent-" + level: ("concurrent_kernel-" + level, "concurrent")
                for level in SERIES_LEVELS})


def tree_path(args):
    tree = os.path.abspath(args.tree or DEFAULT_TREE)
    if not os.path.exists(tree):
        if args.tree:
            raise common.MlfError("%s: no such tree or tarball" % args.tree)
        raise common.MlfError("no kernel tree at %s: install Debian's linux-source-6.12 "
                              "(tools/mlf setup) or pass --tree" % DEFAULT_TREE)
    common.check_path(tree, "any", "--tree")
    if os.path.isfile(tree) and not tree.endswith((".tar", ".tar.xz", ".tar.gz", ".tgz",
                                                   ".tar.bz2")):
        raise common.MlfError("--tree %s: neither a directory nor a tarball" % args.tree)
    return tree


SEED_SERIES = os.path.join(common.ROOT, "kernel", "series", "seed.json")
SEEDS = os.path.join(os.path.dirname(common.ROOT), "shared", "seeds")


def patched_tree(tree, patches, level=None):
    """A copy of @tree's cut files with the seed series up to @level (if
    given, with its recorded adaptations) and then @patches applied, in
    the build directory (one per tree and series contents); its path."""
    h = hashlib.sha1((tree + "\0" + (level or "")).encode())
    for p in patches:
        common.check_path(p, "file", "--patches")
        with open(p, "rb") as f:
            h.update(f.read())
    out = os.path.join(common.build_dir("kernel-patched"), h.hexdigest()[:12])
    cmd = [sys.executable, PATCH_TREE, "--tree", tree, "--out", out]
    if level:
        cmd += ["--series", SEED_SERIES, "--level", level, "--seeds", SEEDS]
    cmd += [os.path.abspath(p) for p in patches]
    common.show(cmd)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    print(proc.stdout.strip(), file=sys.stderr, flush=True)
    if proc.returncode:
        lines = proc.stderr.strip().splitlines() or ["applying the patches failed"]
        raise common.MlfError(lines[-1].replace("mlf kernel: ", "", 1))
    return out


def tree_suffix(tree):
    """'' for the default tree, else '-<hash of its path>': build and out
    directories per tree, so campaigns on two trees may overlap."""
    return "" if tree == DEFAULT_TREE else "-" + hashlib.sha1(tree.encode()).hexdigest()[:8]


def precheck(tree, preset, build):
    """Cut and compile-check the tree first: one line if the shim cannot carry it."""
    cmd = [sys.executable, EXTRACT, "--tree", tree, "--out", os.path.join(build, "kernel", "tree"),
           "--check", builds.preset_compiler(preset)]
    common.show(cmd)
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if proc.returncode:
        lines = proc.stderr.strip().splitlines() or ["the cut failed"]
        raise common.MlfError(lines[-1].replace("mlf kernel: ", "", 1))
    print(proc.stdout.strip(), file=sys.stderr, flush=True)


def ensure_kernel_built(tree, preset, sanitize=None, targets=None):
    """Configure build/kernel-<preset>[-<sanitize>] for @tree if needed; build @targets."""
    builds.check_preset(preset)
    packages.ensure_setup()
    name = "kernel-" + preset + ("-" + sanitize if sanitize else "") + tree_suffix(tree)
    build = common.build_dir(name)
    made = not os.path.exists(build)
    os.makedirs(build, exist_ok=True)
    cache = builds.cache(build)
    wanted = {"MLF_KERNEL_TREE": tree}
    if sanitize:
        wanted["MLF_SANITIZE"] = sanitize
    if not cache or any(cache.get(k) != v for k, v in wanted.items()):
        try:
            precheck(tree, preset, build)
            cmd = ["cmake", "--preset", preset, "-B", build] + \
                  ["-D%s=%s" % kv for kv in sorted(wanted.items())]
            common.run(cmd, cwd=common.ROOT)
        except BaseException:
            # a tree the shim cannot carry leaves no build directory behind
            if made:
                shutil.rmtree(build, ignore_errors=True)
            raise
    cmd = ["cmake", "--build", build]
    for t in targets or []:
        cmd += ["--target", t]
    common.run(cmd, cwd=common.ROOT)
    return build


def fuzz_one(target, build, args, extra, tree):
    """A libFuzzer campaign on the tree's build, in out/kernel[-<hash>]/<target>/
    (or DIR/<target>/ with --dir)."""
    binary, seeds = TARGETS[target]
    top = os.path.abspath(args.dir) if args.dir else \
        os.path.join(common.OUT_DIR, "kernel" + tree_suffix(tree))
    out = os.path.join(top, target)
    work, crashes = os.path.join(out, "corpus"), os.path.join(out, "crashes")
    if args.empty_corpus:
        os.makedirs(work, exist_ok=True)
    else:
        targets.seed_working_corpus(seeds, work)
    os.makedirs(crashes, exist_ok=True)
    before = set(os.listdir(crashes))
    cmd = [builds.binary(build, binary)] + engine.read_options(seeds) + [
        "-max_total_time=%d" % args.time, "-print_final_stats=1",
        "-artifact_prefix=" + crashes + "/"]
    if args.jobs > 1:
        # as tools/mlf fuzz --jobs: libFuzzer's fork mode
        cmd += ["-fork=%d" % args.jobs]
    # run_tee sets the sanitizers' options (common.sanitizer_env)
    start = time.time()
    rc, text = engine.run_tee(cmd + extra + [work], cwd=out)
    execs, rate = engine.libfuzzer_stats(text)
    if args.jobs > 1 and not execs:
        # fork mode's parent prints no final stats: its last status line's count
        execs = engine.fork_execs(text)
        rate = int(execs / max(time.time() - start, 1e-9))
    new = sorted(set(os.listdir(crashes)) - before)
    return {"execs": execs, "rate": rate, "corpus": common.count_files(work),
            "crashes": [os.path.join(crashes, n) for n in new], "rc": rc,
            "error": engine.not_run("libFuzzer", rc, text, execs, bool(new))}


def check_fuzz_args(args, extra):
    """One line for what would make the engine not run, before anything is built."""
    if args.time <= 0 or args.jobs <= 0:
        raise common.MlfError("--time and --jobs must be positive")
    for flag in ("--variant", "--bug"):
        if any(a == flag or a.startswith(flag + "=") for a in extra):
            raise common.MlfError("%s is not supported: kernel fuzz runs the tree's own code "
                                  "(--tree picks it), not a variant of the port" % flag)
    engine.check_libfuzzer_args(extra, "tools/mlf kernel fuzz")


def run_fuzz(args, extra, tree):
    chosen = [args.target] if args.target else ["memcg_lru", "kernel_diff"]
    check_fuzz_args(args, extra)
    build = ensure_kernel_built(tree, "fuzz", "thread" if args.sanitizer == "tsan" else None,
                                [TARGETS[t][0] for t in chosen])
    failed, error = False, None
    for target in chosen:
        r = fuzz_one(target, build, args, extra, tree)
        print("%s (kernel tree): execs=%d, exec/s=%d, corpus=%d, crashes=%d"
              % (target, r["execs"], r["rate"], r["corpus"], len(r["crashes"])))
        for path in r["crashes"]:
            print("  %s  (tools/mlf kernel --tree %s replay --target %s %s)"
                  % (os.path.relpath(path), tree, target, os.path.relpath(path)))
        failed |= bool(r["crashes"])
        if r["error"]:
            error = "%s: %s" % (target, r["error"])
            break
    if error:
        raise common.MlfError(error)
    return 1 if failed else 0


def run_replay(args, extra, tree):
    groups, skipped = {}, {}
    for path in args.paths:
        common.check_path(path)
        found = 0
        for target, files in regressions.group(path, args.target):
            target = target or "memcg_lru"
            if target not in TARGETS:
                # the kernel build has no such target (reclaim, nulls_list)
                skipped[target] = skipped.get(target, 0) + len(files)
                continue
            groups.setdefault(target, []).extend(files)
            found += len(files)
        if not found:
            raise common.MlfError("%s holds no input of the kernel build's targets (%s)"
                                  % (path, ", ".join(sorted(TARGETS))))
    for target, n in sorted(skipped.items()):
        print("replay (kernel tree): skipping %d %s input%s (no such target in the "
              "kernel build)" % (n, target, "" if n == 1 else "s"))
    drivers = {t: TARGETS[t][0] + "_replay" for t in groups}
    build = ensure_kernel_built(tree, args.preset, None, sorted(drivers.values()))
    total, failed = 0, []
    for target, files in groups.items():
        if files:
            total += len(files)
            failed += engine.replay_files(builds.binary(build, drivers[target]), files)
    print("replay (kernel tree): %d input%s, %d failed"
          % (total, "" if total == 1 else "s", len(failed)))
    for path in failed:
        print("  FAILED %s" % path)
    return 1 if failed else 0


def run_test(args, extra, tree):
    build = ensure_kernel_built(tree, args.preset)
    cmd = ["ctest", "--test-dir", build, "-R", "^kernel/", "--output-on-failure",
           "-j2"] + list(extra)
    return common.run(cmd, cwd=common.ROOT, check=False).returncode


def run(args, extra):
    if not getattr(args, "kernel_func", None):
        raise common.MlfError("say what to do: fuzz, replay or test")
    if extra and args.kernel_func is not run_fuzz and args.kernel_func is not run_test:
        raise common.MlfError("unknown arguments: " + " ".join(extra))
    if args.kernel_func is run_fuzz:
        check_fuzz_args(args, extra)  # a wrong flag is said first, tree or no tree
    for p in args.patches or []:
        common.check_path(p, "file", "--patches")
    for p in getattr(args, "paths", None) or []:
        common.check_path(p)
    if getattr(args, "dir", None) and os.path.exists(args.dir):
        common.check_path(args.dir, "dir", "--dir")
    tree = tree_path(args)
    target = getattr(args, "target", None)
    if target and target.endswith(SERIES_LEVELS) and \
            (tree != DEFAULT_TREE or args.patches or args.seed_level):
        raise common.MlfError("--target %s is built for the default tree only (the seed "
                              "series applied to it); for another tree or a patched copy, "
                              "use --seed-level and a target without the level" % target)
    if args.patches or args.seed_level:
        tree = patched_tree(tree, args.patches or [], args.seed_level)
    return args.kernel_func(args, extra, tree)


def register(subparsers):
    p = subparsers.add_parser(
        "kernel", help="fuzz / replay / test a kernel tree's own memcg LRU code",
        description="Cut the memcg LRU out of a kernel tree (directory or tarball; default "
                    "%s) into the build directory, compile it against the shim in place of "
                    "the port, and run the fuzz targets, replays or tests on it." % DEFAULT_TREE)
    p.add_argument("--tree", help="kernel tree or tarball (default %s)" % DEFAULT_TREE)
    p.add_argument("--patches", action="append", metavar="FILE",
                   help="apply this patch file (an mbox of a whole series, patch mails or a "
                        "plain diff) to a copy of the tree first, and run on that copy; "
                        "repeat for more files, applied in order")
    p.add_argument("--seed-level", choices=SERIES_LEVELS,
                   help="apply the seed series up to this level first (kernel/series/seed.json, "
                        "with its recorded adaptations); --patches go on top")
    p.set_defaults(func=run, passthrough=True)
    sub = p.add_subparsers(dest="kernel_command", metavar="fuzz|replay|test")

    f = sub.add_parser("fuzz", help="libFuzzer campaigns on the tree's code",
                       description="Fuzz the tree's code (default: memcg_lru, then kernel_diff) "
                                   "from a copy of the target's corpus in out/kernel/<target>/ (or --dir); "
                                   "unknown flags go to libFuzzer.")
    f.add_argument("--target", choices=sorted(TARGETS))
    f.add_argument("--time", type=int, default=60, help="seconds per target (default 60)")
    f.add_argument("--jobs", type=int, default=1,
                   help="parallel fuzzing processes (libFuzzer -fork=N), as fuzz's --jobs")
    f.add_argument("--sanitizer", choices=["asan", "tsan"], default="asan",
                   help="asan (ASan+UBSan, the default) or tsan (ThreadSanitizer, for "
                        "concurrent), as fuzz's --sanitizer")
    common.add_deprecated(f, "--tsan", "--sanitizer tsan", "sanitizer", value="tsan")
    f.add_argument("--dir", help="campaign directory: corpus and crashes in DIR/<target>/ "
                                 "(default out/kernel[-<hash of the tree>]/); a second run "
                                 "goes on from its corpus, and keeps every crash file")
    f.add_argument("--empty-corpus", action="store_true",
                   help="start from an empty corpus, not the target's seeds")
    f.set_defaults(kernel_func=run_fuzz)

    r = sub.add_parser("replay", help="replay inputs on the tree's code")
    r.add_argument("paths", nargs="+", metavar="PATH")
    r.add_argument("--target", choices=sorted(TARGETS),
                   help="target (default: guessed from the path, else memcg_lru; inputs of "
                        "targets the kernel build lacks are skipped)")
    r.add_argument("--preset", default="dev", help="build preset (default dev)")
    r.set_defaults(kernel_func=run_replay)

    t = sub.add_parser("test", help="the kernel tests (ctest -R ^kernel/) on the tree")
    t.add_argument("--preset", default="dev", help="build preset (default dev)")
    t.set_defaults(kernel_func=run_test)
