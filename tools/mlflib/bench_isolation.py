# SPDX-License-Identifier: GPL-2.0
"""Seed 004's isolation experiment in userspace (bench/isolation.c), for
`tools/mlf bench isolation`.

N reclaimer threads (default 64 and 192) fault and touch a working set three
times the limit of one small memcg whose swap is slow (a delay per freed
folio); iso-count (patch 1) and iso-throttle (patches 1-2) run one after
the other at each thread count, and a table shows, side by side: peak
isolated folios, throttle events, direct reclaim sweeps that found nothing,
OOM proxies, and work done. A library module (see __init__.py): bench.py
is the subcommand.
"""
import json
import os

from . import builds
from . import common

VARIANTS = ("iso-count", "iso-throttle")
ROWS = (("peak isolated", "peak_isolated"), ("throttle events", "throttled"),
        ("empty reclaim sweeps", "empty_sweeps"), ("OOM proxy", "oom"),
        ("faults", "faults"), ("work (touches)", "touches"))


def _build():
    return builds.ensure_built("release")


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


def measure(threads_list, seconds, extra):
    """{(variant, threads): result} of every variant at every thread count."""
    if seconds <= 0 or any(t < 1 for t in threads_list):
        raise common.MlfError("--time and --threads must be positive")
    build_dir = _build()
    results = {}
    for threads in threads_list:
        for iso in VARIANTS:
            results[(iso, threads)] = _run(build_dir, iso, threads, seconds, extra)
    return results
