# SPDX-License-Identifier: GPL-2.0
"""mlf bench isolation: seed 004's experiment in userspace (bench/isolation.c).

N reclaimer threads (default 64 and 192) fault and touch a working set three
times the limit of one small memcg whose swap is slow (a delay per freed
folio); iso-count (patch 1) and iso-throttle (patches 1-2) run one after
the other at each thread count, and a table shows, side by side: peak
isolated folios, throttle events, direct reclaim sweeps that found nothing,
OOM proxies, and work done. bench.py registers it (register_isolation).
"""
import json
import os

from . import common

VARIANTS = ("iso-count", "iso-throttle")
ROWS = (("peak isolated", "peak_isolated"), ("throttle events", "throttled"),
        ("empty reclaim sweeps", "empty_sweeps"), ("OOM proxy", "oom"),
        ("faults", "faults"), ("work (touches)", "touches"))


def _build():
    from . import build
    return build.ensure_built("release")


def _run(build_dir, iso, threads, seconds, extra):
    binary = os.path.join(build_dir, "bench", "bench_isolation_" + iso)
    if not os.path.exists(binary):
        raise common.MlfError("%s was not built (is bench/isolation.cmake included?)" % binary)
    cmd = [binary, "--threads", str(threads), "--time", str(seconds)] + list(extra)
    proc = common.run(cmd, capture_output=True, text=True)
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            return json.loads(line)
    raise common.MlfError("%s printed no result" % binary)


def print_table(results, threads_list):
    for threads in threads_list:
        print("\n%d reclaimers" % threads)
        print("%-22s %14s %14s" % ("", VARIANTS[0], VARIANTS[1]))
        for label, key in ROWS:
            print("%-22s %14s %14s" % (label, *(results[(iso, threads)][key] for iso in VARIANTS)))


def run(args, extra):
    threads_list = [int(t) for t in args.threads.split(",")]
    if args.time <= 0 or any(t < 1 for t in threads_list):
        raise common.MlfError("--time and --threads must be positive")
    build_dir = _build()
    results = {}
    for threads in threads_list:
        for iso in VARIANTS:
            results[(iso, threads)] = _run(build_dir, iso, threads, args.time, extra)
    print_table(results, threads_list)
    if args.json:
        if os.path.exists(args.json):
            raise common.MlfError("%s exists; not overwriting it" % args.json)
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(list(results.values()), f, indent=1)
        print("mlf bench: wrote %s" % args.json)
    return 0


def register_isolation(sub):
    p = sub.add_parser(
        "isolation", help="seed 004's isolation experiment: iso-count vs iso-throttle",
        description="N reclaimers on one small memcg with slow swap; reports peak isolated "
                    "folios, throttle events, empty reclaim sweeps, the OOM proxy and work "
                    "done for iso-count and iso-throttle. Unknown flags go to "
                    "bench_isolation (--limit, --wss, --delay-us).")
    p.add_argument("--time", type=float, default=10.0, help="seconds per run (default 10)")
    p.add_argument("--threads", default="64,192", help="reclaimer counts (default 64,192)")
    p.add_argument("--json", help="write the results to this file")
    p.set_defaults(func=run, passthrough=True)
