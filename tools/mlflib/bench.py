# SPDX-License-Identifier: GPL-2.0
"""mlf bench: benchmarks that print figures.

  rotation  the seed series' memory.reclaim benchmark (bench/rotation.c and
            bench/visit.c), built against several kernel-API layers and run
            interleaved: where a visit's nanoseconds go, one reclaimer,
            several workers on a fixed amount of work, what per-visit work
            and contention do to the ratio, and the sweep over memcg counts
            (gnuplot PNG); the old seed-style table is the `seed` section.
  fuzz      exec/s of each fuzz target in each engine and sanitizer build,
            measured by running the same fixed corpus (the shipped seeds,
            repeated) through each binary, so that runs compare.
  isolation seed 004's isolation experiment, iso-count against iso-throttle
            (bench_isolation.py).
"""
import csv
import json
import os
import re
import resource
import shutil
import statistics
import subprocess
import tempfile
import time

from . import bench_isolation
from . import builds
from . import common
from . import engine
from . import targets
from . import variants

SEED_TABLE = {  # the cover letter of seed 000: requests/s, mean ms, max ms
    "v6.12": (4.56, 1739.85, 4083.55),
    "p1-3": (43.42, 183.53, 393.15),
    "p1-4": (59.22, 134.03, 393.44),
    "p1-5": (57.80, 137.63, 412.72),
}
SEED_MACHINE = "seed 000: 8 workers on a 12-core Xeon 5118, kernel 6.18"

# kernel-API layer -> (binary prefix, what it is); bench/CMakeLists.txt builds them
LAYERS = {
    "checked": ("bench_rotation_", "the shim as the tests use it: lockdep, probes, "
                "liburcu, pthread mutex (release preset)"),
    "fast": ("bench_rotation_fast_", "the bench shim (-DMLF_SHIM_BENCH, "
             "src/kernel/bench_fast.h)"),
    "stats": ("bench_rotation_stats_", "the bench shim + TSC lock statistics: every "
              "wait, one hold in --stats-period timed (-DMLF_SHIM_BENCH_STATS)"),
    "work": ("bench_rotation_work_", "the bench shim + --visit-work busy wait in "
             "shrink_one (-DMLF_SHIM_BENCH_WORK)"),
    "floor": ("bench_rotation_floor_", "no shim at all (bench/floor/kernel.h)"),
}
# breakdown columns: (label, layer, --stats-period)
VISIT_COLUMNS = [("checked", "checked", 1), ("fast", "fast", 1), ("stats/1", "stats", 1),
                 ("stats/16", "stats", 16), ("floor", "floor", 1)]
SECTIONS = ["breakdown", "one", "workers", "gap", "sweep", "seed"]
REPORT = ["breakdown", "one", "workers", "gap", "sweep"]
SWEEP_COUNTS = "100,200,500,1000,1500,2000,5000,10000"
PASSES_PER_REQUEST = 13  # priorities 12..0


def _variants(text):
    names = [v for v in text.split(",") if v]
    known, _ = variants.correct()
    for v in names:
        if v not in known:
            raise common.MlfError("unknown variant %r (have: %s)" % (v, ", ".join(known)))
    return names


def _ints(text, what):
    try:
        values = [int(c) for c in text.split(",") if c]
    except ValueError:
        raise common.MlfError("%s wants numbers like 100,300,1000: %r" % (what, text))
    if not values or min(values) < 0:
        raise common.MlfError("%s wants non-negative numbers: %r" % (what, text))
    return values


def _counts(text):
    counts = _ints(text, "--sweep")
    if min(counts) < 1:
        raise common.MlfError("--sweep wants positive memcg counts: %r" % text)
    return counts


def _build(preset="release"):
    return builds.ensure_built(preset)


def _json_line(proc, binary):
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line)
    raise common.MlfError("%s printed no result" % binary)


def _run_one(build_dir, variant, memcgs, workers, seconds, retries, extra):
    """The seed section's run: the checked shim, time-based, unpinned."""
    binary = os.path.join(build_dir, "bench", "bench_rotation_" + variant)
    cmd = [binary, "--memcgs", memcgs, "--workers", workers, "--time", seconds,
           "--retries", retries] + list(extra)
    return _json_line(common.run(cmd, capture_output=True, text=True), binary)


def _rotation(build_dir, layer, variant, memcgs, workers, retries, time_s=None,
              passes=None, work_ns=None, stats_period=None, extra=()):
    """One pinned run of bench_rotation_<layer>_<variant>; its JSON."""
    binary = os.path.join(build_dir, "bench", LAYERS[layer][0] + variant)
    cmd = [binary, "--memcgs", memcgs, "--workers", workers, "--retries", retries, "--pin"]
    cmd += ["--passes", passes] if passes else ["--time", "%.3f" % time_s]
    if work_ns is not None:
        cmd += ["--visit-work", work_ns]
    if stats_period is not None:
        cmd += ["--stats-period", stats_period]
    return _json_line(common.run(cmd + list(extra), capture_output=True, text=True),
                      binary)


def _interleaved(configs, rounds, run):
    """{config: [result per round]}; each round runs every config once, the
    order reversed every other round so that no config always goes first."""
    per = {c: [] for c in configs}
    for r in range(rounds):
        for c in (configs if r % 2 == 0 else configs[::-1]):
            per[c].append(run(c))
    return per


def _spread(values, fmt="%.1f"):
    """median [min-max] of per-round values."""
    values = [v for v in values if v is not None]
    if not values:
        return "-"
    med = statistics.median(values)
    if len(values) == 1:
        return fmt % med
    return (fmt + " [" + fmt + "-" + fmt + "]") % (med, min(values), max(values))


def _ratios(per, base_key, key, field, invert=False):
    """Per-round ratios of field between key and base_key (same round)."""
    out = []
    for a, b in zip(per[key], per[base_key]):
        x, y = a[field], b[field]
        if invert:
            x, y = y, x
        out.append(x / y if y else None)
    return out


def _header(text):
    print("\n" + text)
    print("-" * min(len(text), 100))


# ---------------------------------------------------------------- breakdown

PIECES = [
    ("lock", "spin_lock_irqsave + spin_unlock_irqrestore"),
    ("lockdep", "lockdep_assert_held x2 (del, add)"),
    ("warn", "VM_WARN_ON_ONCE (rotate)"),
    ("draw", "get_random_u32_below"),
    ("rcu", "rcu_read_unlock + rcu_read_lock"),
    ("ref", "mem_cgroup_tryget + mem_cgroup_put"),
    ("trace", "trace_mlf_walk (shrink_one)"),
]


def _line_transfer(build_dir):
    """What moving a cache line between the first two CPUs costs now: the
    hypervisor may place them close or far apart, and it changes."""
    binary = os.path.join(build_dir, "bench", "bench_visit_fast_p1-3")
    cmd = [binary, "--line-transfer", "--repeat", 3]
    return _json_line(common.run(cmd, capture_output=True, text=True), binary)


def _callgrind_ir(binary, memcgs, passes):
    """(instructions, {function: instructions}, visits) of one callgrind run."""
    out = "/tmp/mlf-callgrind.%d.out" % os.getpid()
    cmd = ["valgrind", "--tool=callgrind", "--callgrind-out-file=" + out, binary,
           "--memcgs", memcgs, "--workers", 1, "--passes", passes, "--no-lock-stats"]
    proc = common.run(cmd, capture_output=True, text=True)
    visits = _json_line(proc, binary)["visits"]
    ann = common.run(["callgrind_annotate", "--auto=no", "--tree=none", "--inclusive=no",
                      "--threshold=100", out],
                     capture_output=True, text=True).stdout
    os.unlink(out)
    total, funcs = 0, {}
    for line in ann.splitlines():
        m = re.match(r"\s*([\d,]+)\s+(?:\([ \d.]+%\)\s+)?(.*)$", line)
        if not m:
            continue
        n, what = int(m.group(1).replace(",", "")), m.group(2).strip()
        if what.startswith("PROGRAM TOTALS"):
            total = n
        elif ":" in what:
            where, func = what.split(" [")[0].rsplit(":", 1)
            key = "%s:%s" % (os.path.basename(where), func)
            funcs[key] = funcs.get(key, 0) + n
    return total, funcs, visits


def run_breakdown(build_dir, args):
    rounds = args.rounds or 3
    memcgs = args.memcgs_list[0] if args.memcgs_list else 1500
    configs = [(col, v) for v in ("p1-3", "v6.12") for col in VISIT_COLUMNS]
    labels = [col[0] for col in VISIT_COLUMNS]

    def run(c):
        (_, layer, period), v = c
        binary = os.path.join(build_dir, "bench", "bench_visit_%s_%s" % (layer, v))
        cmd = [binary, "--memcgs", memcgs, "--time", "0.3", "--repeat", 3,
               "--stats-period", period]
        return _json_line(common.run(cmd, capture_output=True, text=True), binary)

    per = _interleaved(configs + ["line"], rounds,
                       lambda c: _line_transfer(build_dir) if c == "line" else run(c))
    transfers = [r["line_transfer_ns"] for r in per.pop("line")]
    med = {(c[0], v): {k: statistics.median(r[k] for r in rows) for k in rows[0]
                       if isinstance(rows[0][k], (int, float))}
           for (c, v), rows in per.items()}
    _header("Where a visit's nanoseconds go: one reclaimer, %d memcgs (bench_visit_*; "
            "each piece alone in a loop, best of 3, median of %d interleaved rounds)"
            % (memcgs, rounds))
    print("%-46s" % "ns per call" + "".join("%10s" % c for c in labels))
    for key, what in PIECES:
        print("%-46s" % what + "".join("%10.2f" % med[(c, "p1-3")].get(key, 0)
                                      for c in labels))
    sums = {c: sum(med[(c, "p1-3")].get(k, 0) for k, _ in PIECES) for c in labels}
    print("%-46s" % "sum of the pieces" + "".join("%10.2f" % sums[c] for c in labels))
    print("%-46s" % "the rest (list moves, shrink_one, the walk)"
          + "".join("%10.2f" % (med[(c, "p1-3")]["visit"] - sums[c]) for c in labels))
    for v in ("p1-3", "v6.12"):
        print("%-46s" % ("whole visit, %s (ns)" % v)
              + "".join("%10.2f" % med[(c, v)]["visit"] for c in labels))
    print("%-46s" % "v6.12 / p1-3 per visit"
          + "".join("%9.1fx" % (med[(c, "v6.12")]["visit"] / med[(c, "p1-3")]["visit"])
                    for c in labels))
    print("%-46s" % "p1-3 visit / floor's"
          + "".join("%9.2fx" % (med[(c, "p1-3")]["visit"] / med[("floor", "p1-3")]["visit"])
                    for c in labels))
    print("not in a p1-3 visit, for reference:")
    print("%-46s" % "  cond_resched_tasks_rcu_qs (p1-5 and later)"
          + "".join("%10.2f" % med[(c, "p1-3")].get("resched", 0) for c in labels))
    print("%-46s" % "  the checked lock with its statistics on"
          + "%10.2f" % med[("checked", "p1-3")].get("lock_stats", 0))
    if None not in transfers:
        print("%-46s%s" % ("  a cache line moved between two CPUs",
                           _spread(transfers, "%.1f")))
    for label, layer, period in VISIT_COLUMNS:
        print("  %-9s %s%s" % (label, LAYERS[layer][1],
                               ", period %d" % period if layer == "stats" else ""))

    if args.no_callgrind or not shutil.which("valgrind"):
        print("\n(callgrind skipped%s)" % ("" if args.no_callgrind else ": valgrind is missing"))
        return per
    _header("Instructions per visit (valgrind --tool=callgrind; two runs of 13 and 39 "
            "passes, differenced: setup cancels), p1-3, %d memcgs" % memcgs)
    top = {}
    for layer in ("checked", "fast", "stats", "floor"):
        binary = os.path.join(build_dir, "bench", LAYERS[layer][0] + "p1-3")
        t1, f1, v1 = _callgrind_ir(binary, memcgs, 13)
        t2, f2, v2 = _callgrind_ir(binary, memcgs, 39)
        dv = v2 - v1
        print("%-10s %8.1f instructions per visit%s" % (
            layer, (t2 - t1) / dv, " (every hold timed)" if layer == "stats" else ""))
        top[layer] = sorted(((f2.get(k, 0) - f1.get(k, 0)) / dv, k)
                            for k in set(f1) | set(f2))[::-1]
    for layer in ("checked", "fast", "floor"):
        print("\n%s: instructions per visit by function (file:function, inlined code "
              "under its header)" % layer)
        for ir, k in top[layer]:
            if ir >= 1.0:
                print("  %8.1f  %s" % (ir, k))
    return per


# ---------------------------------------------------------------- one reclaimer

def run_one(build_dir, args, variants):
    rounds = args.rounds or 5
    per_run = (args.time or 5.0) / rounds
    layers = ["checked", "fast", "floor"]
    rows = []
    for n in args.memcgs_list or [1500, 10000]:
        configs = [(layer, v) for layer in layers for v in variants]
        per = _interleaved(configs, rounds, lambda c: _rotation(
            build_dir, c[0], c[1], n, 1, args.retries, time_s=per_run))
        _header("One reclaimer, %d memcgs: %d interleaved rounds of %.2f s per binary; "
                "median [min-max] over rounds" % (n, rounds, per_run))
        print("(checked runs as the old table did, with its clock_gettime() lock "
              "statistics on)")
        print("%-8s %-14s %26s %15s %26s %24s" % (
            "layer", "variant", "requests/s", "visits/request", "ns per visit",
            "vs v6.12 (same layer)"))
        for layer, v in configs:
            rs = per[(layer, v)]
            ratio = (_spread(_ratios(per, (layer, "v6.12"), (layer, v), "requests_per_s"),
                             "%.1fx") if "v6.12" in variants else "-")
            print("%-8s %-14s %26s %15.0f %26s %24s" % (
                layer, v, _spread([r["requests_per_s"] for r in rs], "%.2f"),
                statistics.median(r["visits_per_request"] for r in rs),
                _spread([r["ns_per_visit"] for r in rs], "%.2f"), ratio))
            rows += rs
        for v in variants:
            print("%s per visit, fast / floor: %s; checked / floor: %s" % (
                v, _spread(_ratios(per, ("floor", v), ("fast", v), "ns_per_visit"), "%.2fx"),
                _spread(_ratios(per, ("floor", v), ("checked", v), "ns_per_visit"),
                        "%.2fx")))
    return rows


# ---------------------------------------------------------------- workers

def _fixed_passes(args, memcgs):
    return args.requests * PASSES_PER_REQUEST * args.retries


def run_workers(build_dir, args, variants):
    rounds = args.rounds or 5
    rows = []
    ncpu = len(os.sched_getaffinity(0))
    for n in args.memcgs_list or [1500]:
        for w in args.workers_list or [1, 2, 8]:
            passes = _fixed_passes(args, n)
            configs = [(layer, v) for layer in ("fast", "stats") for v in variants]
            if w > 1:
                configs.append("line")
            per = _interleaved(configs, rounds, lambda c: _line_transfer(build_dir)
                               if c == "line" else _rotation(
                build_dir, c[0], c[1], n, w, args.retries, passes=passes,
                stats_period=args.stats_period if c[0] == "stats" else None))
            transfers = [r["line_transfer_ns"] for r in per.pop("line", [])]
            how = ("pinned one per core" if w <= ncpu else
                   "pinned round-robin, %d per core: OVERSUBSCRIBED, a waiter can spin "
                   "while the holder is preempted" % -(-w // ncpu))
            _header("%d worker%s on %d CPUs (%s), %d memcgs, fixed work per run: %d "
                    "requests' worth = %d passes = %d visits; %d interleaved rounds, "
                    "median [min-max]" % (w, "s" if w > 1 else "", ncpu, how, n,
                                          args.requests, passes, passes * n, rounds))
            print("fast build:")
            print("%-14s %22s %24s %24s %14s %22s %22s" % (
                "variant", "seconds", "visits/s (M)", "vs v6.12 (visits/s)",
                "visits/req", "requests/s", "vs v6.12 (requests/s)"))
            for v in variants:
                rs = per[("fast", v)]
                has = "v6.12" in variants
                print("%-14s %22s %24s %24s %14.0f %22s %22s" % (
                    v, _spread([r["seconds"] for r in rs], "%.3f"),
                    _spread([r["visits_per_s"] / 1e6 for r in rs], "%.2f"),
                    _spread(_ratios(per, ("fast", "v6.12"), ("fast", v), "visits_per_s"),
                            "%.1fx") if has else "-",
                    statistics.median(r["visits_per_request"] for r in rs),
                    _spread([r["requests_per_s"] for r in rs], "%.1f"),
                    _spread(_ratios(per, ("fast", "v6.12"), ("fast", v), "requests_per_s"),
                            "%.1fx") if has else "-"))
            print("stats build (the lock's hold and wait from the TSC: every wait, one "
                  "hold in %d timed; wait share: of the workers' time):" % args.stats_period)
            print("%-14s %24s %18s %12s %22s %16s %14s %22s %10s" % (
                "variant", "visits/s (M)", "hold mean (ns)", "max (us)",
                "wait share", "contended", "max wait (us)", "vs v6.12 (visits/s)",
                "rot/visit"))
            for v in variants:
                rs = per[("stats", v)]
                print("%-14s %24s %18s %12s %22s %15.1f%% %14.0f %22s %10.3f" % (
                    v, _spread([r["visits_per_s"] / 1e6 for r in rs], "%.2f"),
                    _spread([r["lock_mean_hold_us"] * 1e3 for r in rs], "%.1f"),
                    "%.0f" % max(r["lock_max_hold_us"] for r in rs),
                    _spread([r["lock_wait_share"] * 100 for r in rs], "%.1f%%"),
                    100 * statistics.median(r["lock_contended"] / r["rotations"]
                                            if r["rotations"] else 0 for r in rs),
                    max(r["lock_max_wait_us"] for r in rs),
                    _spread(_ratios(per, ("stats", "v6.12"), ("stats", v), "visits_per_s"),
                            "%.1fx") if "v6.12" in variants else "-",
                    statistics.median(r["rotations"] / r["visits"] for r in rs)))
            print("(rot/visit: lock acquisitions, one per lru_gen_rotate_memcg() call, per "
                  "visit; p1-4 and later take the lock for a YOUNG rotation they skip)")
            if transfers and None not in transfers:
                print("a cache line moved between the two CPUs, measured each round: %s ns"
                      % ", ".join("%.0f" % t for t in transfers))
            seed = [v for v in variants if v in SEED_TABLE]
            if "v6.12" in seed:
                print("beside it, %s (requests/s, requests of unknown size):" % SEED_MACHINE)
                for v in seed:
                    rps = SEED_TABLE[v][0]
                    print("%-14s %10.2f requests/s %8.2fx" % (v, rps,
                                                               rps / SEED_TABLE["v6.12"][0]))
            for rs in per.values():
                rows += rs
    return rows


# ---------------------------------------------------------------- gap

def run_gap(build_dir, args, variants):
    rounds = args.rounds or 3
    n = (args.memcgs_list or [1500])[0]
    works = args.visit_work_list
    workers = [w for w in (args.workers_list or [1, 2]) if w <= len(os.sched_getaffinity(0))]
    vs = [v for v in variants if v in ("v6.12", "p1-3", "p1-4")] or variants
    passes = args.gap_requests * PASSES_PER_REQUEST * args.retries
    rows = []
    configs = [(w, work, v) for w in workers for work in works for v in vs]
    per = _interleaved(configs, rounds, lambda c: _rotation(
        build_dir, "work", c[2], n, c[0], args.retries, passes=passes, work_ns=c[1]))
    _header("Per-visit work outside the lock (work build: --visit-work NS of busy wait in "
            "each shrink_one), %d memcgs, fixed work %d requests' worth per run, pinned, "
            "%d interleaved rounds, median [min-max]" % (n, args.gap_requests, rounds))
    print("%-8s %-8s %-8s %22s %22s %20s %16s" % (
        "workers", "work ns", "variant", "ns per visit (wall)", "vs v6.12 (visits/s)",
        "vs v6.12 (req/s)", "visits/req"))
    for w, work, v in configs:
        rs = per[(w, work, v)]
        base = (w, work, "v6.12")
        print("%-8d %-8d %-8s %22s %22s %20s %16.0f" % (
            w, work, v, _spread([r["ns_per_visit"] for r in rs], "%.1f"),
            _spread(_ratios(per, base, (w, work, v), "visits_per_s"), "%.1fx")
            if base in per else "-",
            _spread(_ratios(per, base, (w, work, v), "requests_per_s"), "%.1fx")
            if base in per else "-",
            statistics.median(r["visits_per_request"] for r in rs)))
        rows += rs
    return rows


# ---------------------------------------------------------------- sweep

def plot_sweep(table, lines, png, title):
    """table: {(layer, variant): {memcgs: ns per visit}}; lines: [(layer, variant)]."""
    gnuplot = shutil.which("gnuplot")
    if not gnuplot:
        raise common.MlfError("gnuplot is missing (tools/mlf setup installs gnuplot-nox)")
    data = png[:-4] + ".dat" if png.endswith(".png") else png + ".dat"
    with open(data, "w", encoding="utf-8") as f:
        f.write("# SPDX-License-Identifier: GPL-2.0\n")
        f.write("# %s\n# memcgs  ns-per-rotation (median of the rounds)\n" % title)
        for layer, v in lines:
            f.write("# %s %s\n" % (layer, v))
            for n in sorted(table[(layer, v)]):
                f.write("%d %.4f\n" % (n, table[(layer, v)][n]))
            f.write("\n\n")
    plots = []
    for i, (layer, v) in enumerate(lines):
        style = "dashtype 2 lw 1.5" if layer == "floor" else "lw 2"
        plots.append("'%s' index %d with linespoints %s title '%s (%s)'"
                     % (data, i, style, v, "no shim" if layer == "floor" else "bench shim"))
    counts = sorted({n for t in table.values() for n in t})
    anchor = table.get(("fast", "v6.12"), {})
    if anchor:
        n0 = max(anchor)
        plots.append("%g * x / %d with lines dashtype 3 lc rgb 'gray40' "
                     "title 'O(bin length): proportional to memcgs'" % (anchor[n0], n0))
    flat = table.get(("fast", "p1-3"), {})
    if flat:
        plots.append("%g with lines dashtype 3 lc rgb 'gray60' "
                     "title 'O(1): constant'" % flat[min(flat)])
    script = "\n".join([
        "set terminal pngcairo size 1000,650 font ',11'",
        "set output '%s'" % png,
        "set title '%s'" % title,
        "set logscale xy",
        "set xrange [%g:%g]" % (counts[0] * 0.8, counts[-1] * 1.25),
        "set xlabel 'memcgs on the node (each bin holds about memcgs / 8 per generation)'",
        "set ylabel 'ns per rotation (one visit: shrink\\_one + rotation)'",
        "set grid",
        "set key top left box opaque",
        "plot " + ", ".join(plots),
    ])
    common.run([gnuplot], input=script, text=True)
    print("mlf bench: plotted %s (data in %s)" % (png, data))


def run_sweep(build_dir, args, variants):
    rounds = args.rounds or 3
    per_run = (args.time or 1.5) / rounds
    counts = _counts(args.sweep or SWEEP_COUNTS)
    lines = [("fast", v) for v in variants]
    lines += [("floor", v) for v in variants if v in ("v6.12", "p1-3")]
    rows, table = [], {c: {} for c in lines}
    spread = {}
    for n in counts:
        per = _interleaved(lines, rounds, lambda c: _rotation(
            build_dir, c[0], c[1], n, 1, args.retries, time_s=per_run))
        for c, rs in per.items():
            table[c][n] = statistics.median(r["ns_per_visit"] for r in rs)
            spread[(c, n)] = _spread([r["ns_per_visit"] for r in rs], "%.1f")
            rows += rs
    _header("Sweep: ns per rotation (one visit) against memcg count, one reclaimer, "
            "%d interleaved rounds of %.2f s; median [min-max]" % (rounds, per_run))
    print("%-22s" % "memcgs" + "".join("%24d" % n for n in counts))
    for c in lines:
        print("%-22s" % ("%s %s" % c) + "".join("%24s" % spread[(c, n)] for n in counts))
    if ("fast", "v6.12") in table and ("fast", "p1-3") in table:
        print("%-22s" % "v6.12 / p1-3 (fast)" + "".join(
            "%23.1fx" % (table[("fast", "v6.12")][n] / table[("fast", "p1-3")][n])
            for n in counts))
    png = args.plot or os.path.join(common.BUILD, "bench", "rotation-sweep.png")
    os.makedirs(os.path.dirname(os.path.abspath(png)), exist_ok=True)
    plot_sweep(table, lines, png, "One reclaimer: cost of a rotation against memcg count "
               "(log-log)")
    return rows


# ---------------------------------------------------------------- seed (the old table)

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
    print("\n%d memcgs, %d workers, %s lock (checked shim, unpinned, time-based):"
          % (memcgs, workers, lock))
    print("%-15s %12s %13s %13s %9s %13s %11s %11s %10s %10s" % (
        "", "Requests/sec", "Mean latency", "Max latency", "vs v6.12",
        "Rotations/s", "Lock hold", "max hold", "Lock wait", "visits/req"))
    for v, r in results.items():
        ratio = ("%8.2fx" % (r["requests_per_s"] / base["requests_per_s"])
                 if base and base["requests_per_s"] else "%9s" % "-")
        print("%-15s %12.2f %10.2f ms %10.2f ms %s %13.0f %8.3f us %8.0f us %8.2f s %10.0f" % (
            v, r["requests_per_s"], r["mean_latency_ms"], r["max_latency_ms"], ratio,
            r["rotations_per_s"], r["lock_mean_hold_us"], r["lock_max_hold_us"],
            r["lock_wait_s"], r.get("visits_per_request", 0)))
    seed = [v for v in results if v in SEED_TABLE]
    if base and "v6.12" in seed:
        print("\n%s:" % SEED_MACHINE)
        for v in seed:
            rps, mean, mx = SEED_TABLE[v]
            print("%-15s %12.2f %10.2f ms %10.2f ms %8.2fx" % (
                v, rps, mean, mx, rps / SEED_TABLE["v6.12"][0]))


def run_seed(args, variants, extra):
    locks = ["mutex", "spin"] if args.lock == "both" else [args.lock]
    rows = []
    for lock in locks:
        build_dir = _build("release-spin" if lock == "spin" else "release")
        for n in args.memcgs_list or [1500]:
            for w in args.workers_list or [8]:
                results = measure(build_dir, variants, n, w, args.time or 30.0,
                                  args.rounds or 3, args.retries, extra)
                print_table(results, n, w, lock)
                rows += list(results.values())
    return rows


# ---------------------------------------------------------------- rotation

CSV_FIELDS = ["section", "shim", "variant", "lock", "memcgs", "workers", "pinned", "mode",
              "visit_work_ns", "seconds", "requests", "passes", "visits", "requests_per_s",
              "visits_per_s", "ns_per_visit", "visits_per_request", "mean_latency_ms",
              "max_latency_ms", "rotations", "lock_contended", "lock_mean_hold_us",
              "lock_max_hold_us", "lock_wait_s", "lock_max_wait_us", "lock_wait_share"]


def write_csv(path, rows):
    if os.path.exists(path):
        raise common.MlfError("%s exists; not overwriting it" % path)
    with open(path, "w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=CSV_FIELDS, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            w.writerow(r)
    print("mlf bench: wrote %s" % path)


def _load_note(section):
    """Other processes share the CPUs: say how busy the machine was."""
    print("(%s: load average %.2f %.2f %.2f at its end, on %d CPUs)"
          % ((section,) + os.getloadavg() + (os.cpu_count(),)))


def run_rotation(args, extra):
    variants = _variants(args.variants)
    # the old invocations: --lock (the seed table) or --sweep alone
    sections = args.sections or (["seed"] if args.lock else
                                 ["sweep"] if args.sweep else REPORT)
    args.lock = args.lock or "mutex"
    for s in sections:
        if s not in SECTIONS:
            raise common.MlfError("unknown section %r (have: %s)" % (s, ", ".join(SECTIONS)))
    args.memcgs_list = _ints(args.memcgs, "--memcgs") if args.memcgs else None
    args.workers_list = _ints(args.workers, "--workers") if args.workers else None
    args.visit_work_list = _ints(args.visit_work, "--visit-work")
    if extra and sections != ["seed"]:
        raise common.MlfError("unknown arguments %s (only the seed section passes flags "
                              "to bench_rotation)" % " ".join(extra))
    if args.csv and os.path.exists(args.csv):
        raise common.MlfError("%s exists; not overwriting it" % args.csv)
    started = time.monotonic()
    rows = []
    build_dir = None
    for s in sections:
        if s != "seed" and build_dir is None:
            build_dir = _build()
        if s == "breakdown":
            run_breakdown(build_dir, args)
            _load_note(s)
            continue
        if s == "seed":
            got = run_seed(args, variants, extra)
        else:
            got = {"one": run_one, "workers": run_workers, "gap": run_gap,
                   "sweep": run_sweep}[s](build_dir, args, variants)
        for r in got:
            r["section"] = s
        rows += got
        _load_note(s)
    if args.csv:
        write_csv(args.csv, rows)
    print("\nmlf bench rotation: %s in %.0f s" % (" ".join(sections),
                                                 time.monotonic() - started))
    return 0


# ---------------------------------------------------------------- fuzz

# build kind -> (preset, binary name pattern, what it is)
FUZZ_BUILDS = [
    ("libfuzzer+asan", "fuzz", "{t}", "libFuzzer binary, ASan+UBSan"),
    ("libfuzzer+tsan", "fuzz-tsan", "{t}", "libFuzzer binary, TSan (%s)"
     % ", ".join(targets.for_sanitizer("tsan"))),
    ("afl", "afl", "{t}", "afl-clang-fast -fsanitize=fuzzer (AFL++ driver)"),
    ("replay-gcc", "dev", "{t}_replay", "replay driver, gcc -O1"),
    ("replay-asan", "asan", "{t}_replay", "replay driver, clang ASan+UBSan"),
    ("replay-tsan", "tsan", "{t}_replay", "replay driver, clang TSan"),
]


def _corpus_files(target, repeat):
    files = targets.input_files(os.path.join(common.CORPUS_DIR, target))
    return files * repeat


def _children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_empty_bench(chosen, seconds, extra):
    """Each target's libFuzzer + ASan/UBSan build from an empty corpus for
    @seconds, one worker: execs per second of wall time and of CPU time
    (the machine is shared: the second is what the load does not change
    much), with the load average around the run."""
    build = builds.ensure_built_quiet("fuzz", targets=chosen)
    rows = []
    for t in chosen:
        path = os.path.join(build, "fuzz", t)
        with tempfile.TemporaryDirectory() as tmp:
            corpus = os.path.join(tmp, "corpus")
            os.makedirs(corpus)
            cmd = [path] + engine.read_options(t) + [
                "-seed=1", "-max_total_time=%d" % seconds, "-print_final_stats=1",
                "-artifact_prefix=" + tmp + "/"] + list(extra) + [corpus]
            common.show(cmd)
            load = os.getloadavg()[0]
            cpu, start = _children_cpu(), time.monotonic()
            proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                                  env=common.sanitizer_env(), cwd=tmp)
            wall, cpu = time.monotonic() - start, _children_cpu() - cpu
            execs, _ = engine.libfuzzer_stats(proc.stderr)
            lim = re.findall(r"lim: (\d+)", proc.stderr)
            rows.append((t, execs, wall, cpu, lim[-1] if lim else "-",
                         load, os.getloadavg()[0], proc.returncode))
    print("\nfrom an empty corpus, %d s, one worker, libFuzzer + ASan/UBSan, mutator %s:"
          % (seconds, engine.mutator()))
    print("%-14s %10s %10s %12s %8s %12s" % ("target", "execs", "execs/s", "execs/cpu-s",
                                             "len lim", "load"))
    failed = 0
    for t, execs, wall, cpu, lim, l0, l1, rc in rows:
        print("%-14s %10d %10.0f %12.0f %8s %5.1f-%-5.1f%s" % (
            t, execs, execs / wall if wall else 0, execs / cpu if cpu else 0, lim, l0, l1,
            "" if rc == 0 else "  (exit %d: a failure, see the target)" % rc))
        failed |= rc != 0
    return 1 if failed else 0


def run_fuzz_bench(args, extra):
    engine.set_mutator(args.mutator)
    chosen = args.targets.split(",") if args.targets else targets.names()
    for t in chosen:
        if t not in targets.names():
            raise common.MlfError("unknown target %r (have: %s)"
                                  % (t, ", ".join(targets.names())))
    models = (args.memory_model or engine.memory_model()).split(",")
    for m in models:
        if m not in engine.MEMORY_MODELS:
            raise common.MlfError("--memory-model %s: not %s" % (m, " or ".join(
                engine.MEMORY_MODELS)))
    if args.empty:
        if len(models) > 1:
            raise common.MlfError("--empty measures one --memory-model at a time")
        engine.set_memory_model(models[0])
        return run_empty_bench(chosen, args.empty, extra)
    kinds = [b[0] for b in FUZZ_BUILDS if not args.builds or b[0] in args.builds.split(",")]
    table, failed, cpu_rate = {}, [], {}
    load = os.getloadavg()[0]
    for kind, preset, pattern, _ in [b for b in FUZZ_BUILDS if b[0] in kinds]:
        mine = [t for t in chosen if preset != "fuzz-tsan"
                or t in targets.for_sanitizer("tsan")]
        names = [pattern.format(t=t) for t in mine]
        try:
            build = builds.ensure_built_quiet(preset, targets=names)
        except common.MlfError as e:
            print("mlf bench fuzz: skipping %s (%s)" % (kind, e))
            continue
        for t, name in zip(mine, names):
            files = _corpus_files(t, args.repeat)
            path = os.path.join(build, "fuzz", name)
            if not files or not os.path.exists(path):
                continue
            # each memory model in turn, the same binary (the sequential
            # targets have none: they run once)
            for m in models if t == "concurrent" else models[:1]:
                col = kind if len(models) == 1 else "%s %s" % (kind, m)
                cmd = [path] + files + list(extra)
                env = common.sanitizer_env(dict(os.environ, AFL_NO_UI="1",
                                                MLF_MEMORY_MODEL=m))
                common.show([path, "<%d inputs: corpus/%s x%d>" % (len(files), t,
                                                                  args.repeat)])
                cpu, start = _children_cpu(), time.monotonic()
                proc = subprocess.run(cmd, capture_output=True, env=env)
                secs, cpu = time.monotonic() - start, _children_cpu() - cpu
                table[(t, col)] = (len(files) / secs if proc.returncode == 0 else None, secs)
                cpu_rate[(t, col)] = (len(files) / cpu if proc.returncode == 0 and cpu
                                      else None)
                if proc.returncode != 0:
                    # a figure of "-" alone would hide that the binary did not run
                    failed.append("%s %s: status %d: %s" % (
                        t, col, proc.returncode,
                        common.error_line(proc.stderr) or "no output"))
    if len(models) > 1:
        kinds = ["%s %s" % (k, m) for k in kinds for m in models]
    print("\ninputs/s replaying the shipped corpus (x%d) through each build, per second "
          "of wall time / of CPU time (load average %.1f before, %.1f after):"
          % (args.repeat, load, os.getloadavg()[0]))
    width = max([20] + [len(k) + 2 for k in kinds])
    print("%-14s" % "target" + "".join("%*s" % (width, k) for k in kinds))
    for t in chosen:
        row = "%-14s" % t
        for k in kinds:
            rate = table.get((t, k), (None, 0))[0]
            cpu = cpu_rate.get((t, k))
            row += "%*s" % (width, "%.0f / %.0f" % (rate, cpu) if rate and cpu else "-")
        print(row)
    for kind, _, _, what in FUZZ_BUILDS:
        if any(k.split(" ")[0] == kind for k in kinds):
            print("  %-16s %s" % (kind, what))
    if len(models) > 1:
        print("  (lkmm, sc: the concurrent target's memory model, MLF_MEMORY_MODEL)")
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


ROTATION_HELP = """\
Sections (default: breakdown one workers gap sweep, the figures of
bench/README.md; seed is the old table):
  breakdown  where a visit's nanoseconds go: each kernel API a visit calls,
             timed alone per layer (bench_visit_*), and instructions per
             visit from callgrind
  one        one reclaimer, --memcgs (default 1500,10000): checked shim,
             bench shim and floor, every variant, time-based
  workers    --workers (default 1,2,8) on a fixed amount of work
             (--requests), bench shim, and its lock statistics build
             (--stats-period)
  gap        --visit-work ns (default 0,100,300,1000) of work per visit
             outside the lock, at 1 and 2 workers: what it does to the ratio
  sweep      one reclaimer, ns per rotation for --sweep counts; PNG
  seed       the old table: checked shim, --lock mutex|spin|both, 8 workers,
             unpinned, --time seconds per variant (flags it does not know go
             to bench_rotation)
Layers: checked = the shim the tests use; fast = the bench shim
(src/kernel/bench_fast.h); stats = fast + TSC lock statistics; work = fast
+ --visit-work; floor = no shim (bench/floor/kernel.h). Workers are pinned
one per CPU; more workers than CPUs is reported as oversubscribed. Each
section ends with the load average: other processes share the CPUs."""


def register(subparsers):
    import argparse
    p = subparsers.add_parser("bench", help="benchmarks that print figures")
    sub = p.add_subparsers(dest="bench", metavar="BENCH")
    r = sub.add_parser(
        "rotation", help="the seed's memory.reclaim rotation benchmark",
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="N memcgs on one node; workers issue memory.reclaim-like requests "
                    "(shrink_many at priorities 12..0, nothing reclaimable) back to back. "
                    "Builds, variants and layers run interleaved in one invocation; "
                    "every figure is the median over rounds with its [min-max].",
        epilog=ROTATION_HELP)
    r.add_argument("sections", nargs="*", metavar="SECTION",
                   help="breakdown, one, workers, gap, sweep, seed (default: all but seed)")
    r.add_argument("--memcgs", help="memcg counts, e.g. 1500,10000 (per section defaults)")
    r.add_argument("--workers", help="worker counts, e.g. 1,2,8 (per section defaults)")
    r.add_argument("--time", type=float,
                   help="time-based sections: seconds per binary, split over --rounds "
                        "(one: 5, sweep: 1.5, seed: 30)")
    r.add_argument("--rounds", type=int,
                   help="interleaved rounds (one, workers: 5; breakdown, gap, sweep, seed: 3)")
    r.add_argument("--requests", type=int, default=200,
                   help="workers: fixed work per run, in one reclaimer's requests "
                        "(13 passes over every memcg each; default 200)")
    r.add_argument("--gap-requests", type=int, default=50,
                   help="gap: fixed work per run, in requests (default 50)")
    r.add_argument("--visit-work", default="0,100,300,1000",
                   help="gap: ns of work per visit outside the lock (default 0,100,300,1000)")
    r.add_argument("--stats-period", type=int, default=16,
                   help="workers: time one lock hold in N in the stats build "
                        "(default 16; 1 times every one; waits are always timed)")
    r.add_argument("--retries", type=int, default=1,
                   help="try_to_free_mem_cgroup_pages calls per request (kernel: 17)")
    r.add_argument("--variants", default=",".join(common.CORRECT_VARIANTS),
                   help="comma-separated (default: all five; gap takes v6.12, p1-3 "
                        "and p1-4 of them)")
    r.add_argument("--lock", choices=["mutex", "spin", "both"],
                   help="seed: spinlock_t as a sleeping mutex (default) or a spinning "
                        "lock; alone, selects the seed section")
    r.add_argument("--sweep", help="sweep: memcg counts (default %s); alone, selects "
                                   "the sweep section" % SWEEP_COUNTS)
    r.add_argument("--plot", help="sweep: PNG (default build/bench/rotation-sweep.png)")
    r.add_argument("--no-callgrind", action="store_true",
                   help="breakdown: skip the callgrind instruction counts")
    r.add_argument("--csv", help="write one row per run to this file")
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
    f.add_argument("--empty", type=int, metavar="SECONDS",
                   help="instead: fuzz each target's libFuzzer build from an empty corpus "
                        "for SECONDS (one worker) and report execs/s")
    engine.add_mutator_argument(f)
    f.add_argument("--memory-model", metavar="MODEL[,MODEL]",
                   help="the concurrent target's memory model, lkmm or sc, or both "
                        "(lkmm,sc: each in turn, a column each; default lkmm)")
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
