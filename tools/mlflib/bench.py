# SPDX-License-Identifier: GPL-2.0
"""mlf bench: benchmarks that print figures.

  rotation  the seed series' memory.reclaim benchmark (bench/rotation.c), all
            variants interleaved in one invocation, laid out like the seed's
            table; --sweep draws throughput against memcg count (gnuplot).
  fuzz      exec/s of each fuzz target in each engine and sanitizer build,
            measured by running the same fixed corpus (the shipped seeds,
            repeated) through each binary, so that runs compare.
  isolation seed 004's isolation experiment, iso-count against iso-throttle
            (bench_isolation.py).
"""
import csv
import json
import os
import shutil
import subprocess
import time

from . import bench_isolation
from . import builds
from . import common
from . import targets
from . import variants

SEED_TABLE = {  # the cover letter of seed 000: requests/s, mean ms, max ms
    "v6.12": (4.56, 1739.85, 4083.55),
    "p1-3": (43.42, 183.53, 393.15),
    "p1-4": (59.22, 134.03, 393.44),
    "p1-5": (57.80, 137.63, 412.72),
}


def _variants(text):
    names = [v for v in text.split(",") if v]
    known, _ = variants.correct()
    for v in names:
        if v not in known:
            raise common.MlfError("unknown variant %r (have: %s)" % (v, ", ".join(known)))
    return names


def _counts(text):
    try:
        counts = [int(c) for c in text.split(",") if c]
    except ValueError:
        raise common.MlfError("--sweep wants memcg counts like 100,300,1000: %r" % text)
    if not counts or min(counts) < 1:
        raise common.MlfError("--sweep wants positive memcg counts: %r" % text)
    return counts


def _build(lock):
    preset = "release-spin" if lock == "spin" else "release"
    return builds.ensure_built(preset)


def _run_one(build_dir, variant, memcgs, workers, seconds, retries, extra):
    binary = os.path.join(build_dir, "bench", "bench_rotation_" + variant)
    cmd = [binary, "--memcgs", memcgs, "--workers", workers, "--time", seconds,
           "--retries", retries] + list(extra)
    proc = common.run(cmd, capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line)
    raise common.MlfError("%s printed no result" % binary)


def _merge(rows):
    """Sum interleaved rounds of one variant into one result."""
    total = dict(rows[0])
    secs = sum(r["seconds"] for r in rows)
    reqs = sum(r["requests"] for r in rows)
    rots = sum(r["rotations"] for r in rows)
    total.update(
        seconds=secs, requests=reqs, rotations=rots,
        requests_per_s=reqs / secs if secs else 0.0,
        rotations_per_s=rots / secs if secs else 0.0,
        mean_latency_ms=(sum(r["mean_latency_ms"] * r["requests"] for r in rows) / reqs
                         if reqs else 0.0),
        max_latency_ms=max(r["max_latency_ms"] for r in rows),
        lock_mean_hold_us=(sum(r["lock_mean_hold_us"] * r["rotations"] for r in rows) / rots
                           if rots else 0.0),
        lock_max_hold_us=max(r["lock_max_hold_us"] for r in rows),
        lock_wait_s=sum(r["lock_wait_s"] for r in rows),
    )
    return total


def measure(build_dir, variants, memcgs, workers, seconds, rounds, retries, extra):
    """Run every variant `rounds` times, interleaved; {variant: merged result}."""
    per = {v: [] for v in variants}
    for _ in range(rounds):
        for v in variants:
            per[v].append(_run_one(build_dir, v, memcgs, workers,
                                   "%.3f" % (seconds / rounds), retries, extra))
    return {v: _merge(rows) for v, rows in per.items()}


def print_table(results, memcgs, workers, lock):
    base = results.get("v6.12")
    print("\n%d memcgs, %d workers, %s lock:" % (memcgs, workers, lock))
    print("%-15s %12s %13s %13s %9s %13s %11s %11s %10s" % (
        "", "Requests/sec", "Mean latency", "Max latency", "vs v6.12",
        "Rotations/s", "Lock hold", "max hold", "Lock wait"))
    for v, r in results.items():
        ratio = ("%8.2fx" % (r["requests_per_s"] / base["requests_per_s"])
                 if base and base["requests_per_s"] else "%9s" % "-")
        print("%-15s %12.2f %10.2f ms %10.2f ms %s %13.0f %8.3f us %8.0f us %8.2f s" % (
            v, r["requests_per_s"], r["mean_latency_ms"], r["max_latency_ms"], ratio,
            r["rotations_per_s"], r["lock_mean_hold_us"], r["lock_max_hold_us"],
            r["lock_wait_s"]))
    seed = [v for v in results if v in SEED_TABLE]
    if base and "v6.12" in seed:
        print("\nseed 000 (12-core Xeon, kernel 6.18):")
        for v in seed:
            rps, mean, mx = SEED_TABLE[v]
            print("%-15s %12.2f %10.2f ms %10.2f ms %8.2fx" % (
                v, rps, mean, mx, rps / SEED_TABLE["v6.12"][0]))


def write_csv(path, rows):
    if os.path.exists(path):
        raise common.MlfError("%s exists; not overwriting it" % path)
    fields = ["variant", "lock", "memcgs", "workers", "requests_per_s", "mean_latency_ms",
              "max_latency_ms", "rotations_per_s", "lock_mean_hold_us", "lock_max_hold_us",
              "lock_wait_s", "requests", "seconds"]
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    print("mlf bench: wrote %s" % path)


def plot_sweep(rows, variants, png, lock):
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        raise common.MlfError("gnuplot is missing (tools/mlf setup installs gnuplot-nox)")
    data = png[:-4] + ".dat" if png.endswith(".png") else png + ".dat"
    with open(data, "w", encoding="utf-8") as f:
        for i, v in enumerate(variants):
            f.write("# %s\n" % v)
            for r in rows:
                if r["variant"] == v:
                    f.write("%d %.4f\n" % (r["memcgs"], r["requests_per_s"]))
            f.write("\n\n")
    script = "\n".join([
        "set terminal pngcairo size 900,600 font ',11'",
        "set output '%s'" % png,
        "set title 'memory.reclaim requests/s against memcg count (%s lock, %d workers)'"
        % (lock, rows[0]["workers"]),
        "set logscale xy",
        "set xlabel 'memcgs on the node'",
        "set ylabel 'requests/s'",
        "set grid",
        "set key outside right",
        "plot " + ", ".join("'%s' index %d with linespoints lw 2 title '%s'" % (data, i, v)
                            for i, v in enumerate(variants)),
    ])
    common.run([gnuplot], input=script, text=True)
    print("mlf bench: plotted %s (data in %s)" % (png, data))


def run_rotation(args, extra):
    variants = _variants(args.variants)
    locks = ["mutex", "spin"] if args.lock == "both" else [args.lock]
    counts = _counts(args.sweep) if args.sweep else [args.memcgs]
    all_rows = []
    for lock in locks:
        build_dir = _build(lock)
        for n in counts:
            results = measure(build_dir, variants, n, args.workers, args.time, args.rounds,
                              args.retries, extra)
            print_table(results, n, args.workers, lock)
            all_rows += list(results.values())
        if args.sweep:
            png = args.plot or os.path.join(common.ROOT, "bench", "rotation-sweep-%s.png" % lock)
            plot_sweep([r for r in all_rows if r["lock"] == lock], variants, png, lock)
    if args.csv:
        write_csv(args.csv, all_rows)
    return 0


# build kind -> (preset, binary name pattern, what it is)
FUZZ_BUILDS = [
    ("libfuzzer+asan", "fuzz", "{t}", "libFuzzer binary, ASan+UBSan"),
    ("afl", "afl", "{t}", "afl-clang-fast -fsanitize=fuzzer (AFL++ driver)"),
    ("replay-gcc", "dev", "{t}_replay", "replay driver, gcc -O1"),
    ("replay-asan", "asan", "{t}_replay", "replay driver, clang ASan+UBSan"),
    ("replay-tsan", "tsan", "{t}_replay", "replay driver, clang TSan"),
]


def _corpus_files(target, repeat):
    files = targets.input_files(os.path.join(common.CORPUS_DIR, target))
    return files * repeat


def run_fuzz_bench(args, extra):
    chosen = args.targets.split(",") if args.targets else targets.names()
    for t in chosen:
        if t not in targets.names():
            raise common.MlfError("unknown target %r (have: %s)"
                                  % (t, ", ".join(targets.names())))
    kinds = [b[0] for b in FUZZ_BUILDS if not args.builds or b[0] in args.builds.split(",")]
    table, failed = {}, []
    for kind, preset, pattern, _ in [b for b in FUZZ_BUILDS if b[0] in kinds]:
        names = [pattern.format(t=t) for t in chosen]
        try:
            build = builds.ensure_built_quiet(preset, targets=names)
        except common.MlfError as e:
            print("mlf bench fuzz: skipping %s (%s)" % (kind, e))
            continue
        for t, name in zip(chosen, names):
            files = _corpus_files(t, args.repeat)
            path = os.path.join(build, "fuzz", name)
            if not files or not os.path.exists(path):
                continue
            cmd = [path] + files + list(extra)
            env = dict(os.environ, AFL_NO_UI="1")
            common.show([path, "<%d inputs: corpus/%s x%d>" % (len(files), t, args.repeat)])
            start = time.monotonic()
            proc = subprocess.run(cmd, capture_output=True, env=env)
            secs = time.monotonic() - start
            table[(t, kind)] = (len(files) / secs if proc.returncode == 0 else None, secs)
            if proc.returncode != 0:
                # a figure of "-" alone would hide that the binary did not run
                failed.append("%s %s: status %d: %s" % (
                    t, kind, proc.returncode, common.error_line(proc.stderr) or "no output"))
    print("\ninputs/s replaying the shipped corpus (x%d) through each build:" % args.repeat)
    print("%-14s" % "target" + "".join("%16s" % k for k in kinds))
    for t in chosen:
        row = "%-14s" % t
        for k in kinds:
            rate = table.get((t, k), (None, 0))[0]
            row += "%16s" % ("%.0f" % rate if rate else "-")
        print(row)
    for kind, _, _, what in FUZZ_BUILDS:
        if kind in kinds:
            print("  %-16s %s" % (kind, what))
    for line in failed:
        print("mlf bench fuzz: failed: %s" % line)
    return 1 if failed else 0


def run_isolation(args, extra):
    try:
        threads_list = [int(t) for t in args.threads.split(",")]
    except ValueError:
        raise common.MlfError("--threads wants counts like 64,192: %r" % args.threads)
    if args.json and os.path.exists(args.json):
        raise common.MlfError("%s exists; not overwriting it" % args.json)
    results = bench_isolation.measure(threads_list, args.time, extra)
    bench_isolation.print_table(results, threads_list)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(list(results.values()), f, indent=1)
        print("mlf bench: wrote %s" % args.json)
    return 0


def register(subparsers):
    p = subparsers.add_parser("bench", help="benchmarks that print figures")
    sub = p.add_subparsers(dest="bench", metavar="BENCH")
    r = sub.add_parser(
        "rotation", help="the seed's memory.reclaim rotation benchmark",
        description="N memcgs on one node; W workers issue memory.reclaim-like requests "
                    "(shrink_many at priorities 12..0, nothing reclaimable) back to back. "
                    "All variants run interleaved in one invocation. Unknown flags go to "
                    "bench_rotation.")
    r.add_argument("--memcgs", type=int, default=1500)
    r.add_argument("--workers", type=int, default=8)
    r.add_argument("--time", type=float, default=30.0,
                   help="seconds per variant, split over --rounds (default 30)")
    r.add_argument("--rounds", type=int, default=3,
                   help="interleaved rounds per variant (default 3)")
    r.add_argument("--retries", type=int, default=1,
                   help="try_to_free_mem_cgroup_pages calls per request (kernel: 17)")
    r.add_argument("--variants", default=",".join(common.CORRECT_VARIANTS))
    r.add_argument("--lock", choices=["mutex", "spin", "both"], default="mutex",
                   help="spinlock_t as a sleeping mutex or a spinning lock")
    r.add_argument("--sweep", help="memcg counts, e.g. 100,300,1000,1500,3000,10000")
    r.add_argument("--plot", help="PNG for --sweep (default bench/rotation-sweep-LOCK.png)")
    r.add_argument("--csv", help="write one row per variant (and count) to this file")
    r.set_defaults(func=run_rotation, passthrough=True)
    f = sub.add_parser(
        "fuzz", help="exec/s of each target per engine and sanitizer build",
        description="Runs the same fixed corpus (corpus/<target>, repeated) through each "
                    "target's libFuzzer, AFL++ and replay builds and prints inputs/s.")
    f.add_argument("--targets", help="comma-separated targets (default: all)")
    f.add_argument("--builds", help="comma-separated build kinds (default: all of "
                   + ", ".join(b[0] for b in FUZZ_BUILDS) + ")")
    f.add_argument("--repeat", type=int, default=20,
                   help="times the corpus is run through each binary (default 20)")
    f.set_defaults(func=run_fuzz_bench, passthrough=True)
    i = sub.add_parser(
        "isolation", help="seed 004's isolation experiment: iso-count vs iso-throttle",
        description="N reclaimers on one small memcg with slow swap; reports peak isolated "
                    "folios, throttle events, empty reclaim sweeps, the OOM proxy and work "
                    "done for iso-count and iso-throttle. Unknown flags go to "
                    "bench_isolation (--limit, --wss, --delay-us).")
    i.add_argument("--time", type=float, default=10.0, help="seconds per run (default 10)")
    i.add_argument("--threads", default="64,192", help="reclaimer counts (default 64,192)")
    i.add_argument("--json", help="write the results to this file")
    i.set_defaults(func=run_isolation, passthrough=True)
    p.set_defaults(func=lambda args, extra: p.print_help() or 2)
