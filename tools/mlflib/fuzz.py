# SPDX-License-Identifier: GPL-2.0
"""mlf fuzz: fuzzing campaigns with libFuzzer or AFL++, one per target.

Each target fuzzes from a working copy of corpus/<target> in
out/<target>/corpus (the repository's corpus is never written), keeps crash
files in out/<target>/crashes/ (libFuzzer names them by content hash) or
out/<target>/afl/ (AFL++), and ends with one summary line per target.
Also the helpers the replay, trace and corpus subcommands share.
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import threading

from . import common

FUZZ_DIR = os.path.join(common.ROOT, "fuzz")
CORPUS_DIR = os.path.join(common.ROOT, "corpus")
OUT_DIR = os.path.join(common.ROOT, "out")

SKIP_SUFFIXES = (".trace", ".md", ".txt", ".dict", ".options")


def targets():
    """The fuzz targets this tree has (nulls_list once its source exists)."""
    names = ["memcg_lru", "trace_parser"]
    if os.path.exists(os.path.join(FUZZ_DIR, "nulls_list.c")):
        names.append("nulls_list")
    return names


def is_input_name(name):
    """The rule of fuzz/README.md (and replay_main.c): which files are inputs."""
    return not (name.startswith(".") or name.startswith("README") or name in ("TARGET", "EXPECT")
                or name.endswith(SKIP_SUFFIXES))


def input_files(path):
    """Input files of a file or directory (recursive, name order)."""
    if os.path.isfile(path):
        return [path]
    found = []
    for name in sorted(os.listdir(path)):
        sub = os.path.join(path, name)
        if not is_input_name(name):
            continue
        if os.path.isdir(sub):
            found += input_files(sub)
        elif os.path.isfile(sub):
            found.append(sub)
    return found


def ensure_built(preset, variant=None, bug=None, targets=None):
    """build.ensure_built(), or (before that module exists) a plain cmake."""
    try:
        from . import build
    except ImportError:
        build = None
    if build is not None and hasattr(build, "ensure_built"):
        tree = common.build_dir(build.tree_name(preset, variant, bug))
        reconfigure_if_unknown(tree, targets or [])
        return build.ensure_built(preset, variant, bug, targets=targets)
    tree = common.build_dir("-".join([preset] + [x for x in (variant, bug) if x]))
    if not os.path.exists(os.path.join(tree, "CMakeCache.txt")):
        cmd = ["cmake", "--preset", preset, "-B", tree]
        if variant:
            cmd.append("-DMLF_VARIANT=" + variant)
        if bug:
            cmd.append("-DMLF_BUG=" + bug)
        common.run(cmd, cwd=common.ROOT)
    cmd = ["cmake", "--build", tree]
    for t in targets or []:
        cmd += ["--target", t]
    common.run(cmd, cwd=common.ROOT)
    return tree


def reconfigure_if_unknown(tree, names):
    """A tree configured before fuzz/ (or nulls_list.c) existed lacks targets."""
    for rules in ("build.ninja", "Makefile"):
        path = os.path.join(tree, rules)
        if os.path.exists(path):
            break
    else:
        return
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if any(not re.search(r"\b%s\b" % re.escape(n), text) for n in names):
        common.run(["cmake", tree], cwd=common.ROOT)


def ensure_built_quiet(*args, **kw):
    """ensure_built() with the build's chatter on stderr: our stdout is data."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        return ensure_built(*args, **kw)
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def binary(build, name):
    path = os.path.join(build, "fuzz", name)
    if not os.path.exists(path):
        raise common.MlfError("%s was not built in %s" % (name, os.path.relpath(build)))
    return path


def run_tee(cmd, cwd=None, env=None):
    """Run a command after printing it, showing its stderr and keeping it."""
    common.show(cmd, cwd)
    full_env = dict(os.environ)
    full_env.update(env or {})
    proc = subprocess.Popen([str(c) for c in cmd], cwd=cwd, env=full_env,
                            stderr=subprocess.PIPE, text=True, errors="replace")
    kept = []
    for line in proc.stderr:
        sys.stderr.write(line)
        kept.append(line)
    proc.wait()
    return proc.returncode, "".join(kept)


def read_options(target):
    """libFuzzer flags from fuzz/<target>.options ([libfuzzer] section)."""
    path = os.path.join(FUZZ_DIR, target + ".options")
    flags, section = [], None
    if not os.path.exists(path):
        return flags
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("["):
                section = line.strip("[]").strip()
            elif section == "libfuzzer" and "=" in line:
                key, value = (x.strip() for x in line.split("=", 1))
                if key == "dict":
                    value = os.path.join(FUZZ_DIR, value)
                flags.append("-%s=%s" % (key, value))
    return flags


def seed_working_corpus(target, work):
    """Copy the repository's seeds into the working corpus (never the reverse)."""
    os.makedirs(work, exist_ok=True)
    src = os.path.join(CORPUS_DIR, target)
    if not os.path.isdir(src):
        return
    for path in input_files(src):
        dst = os.path.join(work, os.path.basename(path))
        if not os.path.exists(dst):
            shutil.copyfile(path, dst)


def count_files(path):
    return len([n for n in os.listdir(path) if not n.startswith(".")]) \
        if os.path.isdir(path) else 0


def libfuzzer_stats(text):
    """Sum stat::number_of_executed_units / average_exec_per_sec over jobs."""
    execs = sum(int(x) for x in re.findall(r"stat::number_of_executed_units:\s*(\d+)", text))
    rate = sum(int(x) for x in re.findall(r"stat::average_exec_per_sec:\s*(\d+)", text))
    return execs, rate


def run_libfuzzer(target, build, args, extra):
    out = os.path.join(OUT_DIR, target)
    work, crashes = os.path.join(out, "corpus"), os.path.join(out, "crashes")
    seed_working_corpus(target, work)
    os.makedirs(crashes, exist_ok=True)
    before = set(os.listdir(crashes))
    cmd = [binary(build, target)] + read_options(target) + [
        "-max_total_time=%d" % args.time, "-print_final_stats=1",
        "-artifact_prefix=" + crashes + "/"]
    if args.jobs > 1:
        cmd += ["-jobs=%d" % args.jobs, "-workers=%d" % args.jobs]
    cmd += extra + [work]
    for log in glob.glob(os.path.join(out, "fuzz-*.log")):
        os.remove(log)
    rc, text = run_tee(cmd, cwd=out)
    for log in sorted(glob.glob(os.path.join(out, "fuzz-*.log"))):
        with open(log, encoding="utf-8", errors="replace") as f:
            text += f.read()
    execs, rate = libfuzzer_stats(text)
    new = sorted(set(os.listdir(crashes)) - before)
    return {"execs": execs, "rate": rate, "corpus": count_files(work),
            "crashes": [os.path.join(crashes, n) for n in new], "rc": rc}


def afl_stats(path):
    stats = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if ":" in line:
                    key, value = line.split(":", 1)
                    stats[key.strip()] = value.strip()
    return stats


def run_afl(target, build, args, extra):
    out = os.path.join(OUT_DIR, target)
    work, afl_out = os.path.join(out, "corpus"), os.path.join(out, "afl")
    seed_working_corpus(target, work)
    if not os.listdir(work):
        with open(os.path.join(work, "empty"), "wb") as f:
            f.write(b"\0\0\0")
    before = set(glob.glob(os.path.join(afl_out, "*", "crashes", "id:*")))
    env = {"AFL_SKIP_CPUFREQ": "1", "AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES": "1",
           "AFL_NO_UI": "1", "AFL_AUTORESUME": "1"}
    dict_path = os.path.join(FUZZ_DIR, target + ".dict")
    base = ["afl-fuzz", "-i", work, "-o", afl_out, "-V", str(args.time)]
    if os.path.exists(dict_path):
        base += ["-x", dict_path]
    tail = extra + ["--", binary(build, target)]
    secondaries = []
    for i in range(1, args.jobs):
        cmd = base + ["-S", "s%d" % i] + tail
        common.show(cmd)
        full_env = dict(os.environ, **env)
        secondaries.append(subprocess.Popen(cmd, env=full_env, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL))
    main = ["-M", "main"] if args.jobs > 1 else []
    rc = common.run(base + main + tail, env=env, check=False).returncode
    for proc in secondaries:
        proc.wait()
    execs = rate = queue = 0
    for stats_path in glob.glob(os.path.join(afl_out, "*", "fuzzer_stats")):
        stats = afl_stats(stats_path)
        execs += int(stats.get("execs_done", 0))
        rate += float(stats.get("execs_per_sec", 0))
        queue += int(stats.get("corpus_count", stats.get("paths_total", 0)))
    new = sorted(set(glob.glob(os.path.join(afl_out, "*", "crashes", "id:*"))) - before)
    return {"execs": execs, "rate": int(rate), "corpus": queue, "crashes": new, "rc": rc}


def run(args, extra):
    chosen = [args.target] if args.target else targets()
    if args.target and args.target not in targets():
        raise common.MlfError("unknown target %r (have: %s)" % (args.target, ", ".join(targets())))
    if args.time <= 0 or args.jobs <= 0:
        raise common.MlfError("--time and --jobs must be positive")
    preset = "fuzz" if args.engine == "libfuzzer" else "afl"
    build = ensure_built(preset, args.variant, args.bug, targets=chosen)
    results = {}
    for target in chosen:
        runner = run_libfuzzer if args.engine == "libfuzzer" else run_afl
        results[target] = runner(target, build, args, extra)
    failed = False
    for target in chosen:
        r = results[target]
        print("%s: execs=%d, exec/s=%d, corpus=%d, crashes=%d"
              % (target, r["execs"], r["rate"], r["corpus"], len(r["crashes"])))
        for path in r["crashes"]:
            print("  %s  (tools/mlf replay %s)" % (os.path.relpath(path), os.path.relpath(path)))
        failed |= bool(r["crashes"])
    return 1 if failed else 0


def register(subparsers):
    p = subparsers.add_parser(
        "fuzz", help="run fuzzing campaigns (libFuzzer or AFL++)",
        description="Fuzz each target (default: all) from a working copy of its corpus in "
                    "out/<target>/corpus; crashes go to out/<target>/crashes/ (libFuzzer) or "
                    "out/<target>/afl/ (AFL++). Unknown flags go to the engine.")
    p.add_argument("--target", help="one target (default: all of %s)" % ", ".join(targets()))
    p.add_argument("--engine", choices=["libfuzzer", "afl"], default="libfuzzer")
    p.add_argument("--time", type=int, default=60, help="seconds per target (default 60)")
    p.add_argument("--jobs", type=int, default=1, help="parallel fuzzing processes per target")
    p.add_argument("--variant", help="port variant (default %s)" % common.DEFAULT_VARIANT)
    p.add_argument("--bug", help="bug variant (bug-...) on top of the variant")
    p.set_defaults(func=run, passthrough=True)
