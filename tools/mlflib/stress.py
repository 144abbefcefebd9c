# SPDX-License-Identifier: GPL-2.0
"""mlf stress: long concurrent runs of the stress binary (stress/stress.c).

Builds the preset (dev by default; tsan for a ThreadSanitizer run), runs
mlf_stress for the variant or bug variant with readers, writers, memcgs,
nodes and a duration, prints its one-line summary and exits non-zero if
the run reported a failure (a check, a sanitizer report, or a crash).
"""
import os
import signal

from . import builds
from . import common
from . import variants

SUMMARY_PREFIX = "mlf stress:"


def _binary(build, variant, bug, code):
    # the build's target is the bug variant (or the build's variant); the
    # default tree's build has one per variant too
    if bug or variant is None or not code.is_default():
        return os.path.join(build, "stress", "mlf_stress")
    return os.path.join(build, "stress", "mlf_stress_" + variant)


def run(args, extra):
    for name in ("readers", "writers", "memcgs", "nodes"):
        if getattr(args, name) < (0 if name in ("readers", "writers") else 1):
            raise common.MlfError("--%s must be positive" % name)
    if args.readers + args.writers < 1:
        raise common.MlfError("need at least one reader or writer")
    if args.time <= 0:
        raise common.MlfError("--time must be positive")
    if args.variant in variants.iso()[0]:
        raise common.MlfError("%s is an isolation variant of the reclaim target; stress runs "
                              "the memcg LRU (its variants: tools/mlf list variants)"
                              % args.variant)
    code = builds.Code.of(args)
    build = builds.ensure_built(args.preset, args.variant, args.bug, code=code)
    binary = _binary(build, args.variant, args.bug, code)
    if not os.path.exists(binary):
        raise common.MlfError("%s was not built (is stress/CMakeLists.txt there?)" % binary)
    cmd = [binary, "--readers", args.readers, "--writers", args.writers,
           "--memcgs", args.memcgs, "--nodes", args.nodes, "--time", args.time]
    cmd += list(extra)
    proc = common.run(cmd, env=common.sanitizer_env(), check=False,
                      capture_output=False, stdout=-1, text=True)
    summary = [line for line in proc.stdout.splitlines() if line.startswith(SUMMARY_PREFIX)]
    for line in proc.stdout.splitlines():
        if not line.startswith(SUMMARY_PREFIX):
            print(line)
    rc = proc.returncode
    if summary:
        print(summary[-1])
    else:
        why = ("killed by %s" % signal.Signals(-rc).name if rc < 0
               else "exit status %d%s" % (rc, " (ThreadSanitizer report)" if rc == 66 else ""))
        print("%s variant=%s bug=%s failures=1 (%s, no summary: see the report above)"
              % (SUMMARY_PREFIX, args.variant or "default", args.bug or "none", why))
    if rc != 0:
        return 1
    return 0


def register(subparsers):
    p = subparsers.add_parser(
        "stress", help="long concurrent runs: readers against writers",
        description="Run the stress binary: R readers walk the memcg LRU (shrink_many) "
                    "while W writers online, offline, release, rotate and soft-reclaim "
                    "N memcgs, with every structure check after each round. Prints a "
                    "one-line summary; exits 1 on a failure. Unknown flags (--round, "
                    "--seed, --yield N, --no-pool) go to the binary.")
    p.add_argument("--readers", type=int, default=4)
    p.add_argument("--writers", type=int, default=4)
    p.add_argument("--memcgs", type=int, default=1500)
    p.add_argument("--nodes", type=int, default=1)
    p.add_argument("--time", type=float, default=60.0, help="seconds (default 60)")
    builds.add_code_arguments(p)
    p.add_argument("--bug", help="bug variant built on top of the variant")
    p.add_argument("--preset", default="dev",
                   help="build preset: dev (default), release, tsan, asan")
    p.set_defaults(func=run, passthrough=True)
