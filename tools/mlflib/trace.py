# SPDX-License-Identifier: GPL-2.0
"""mlf trace: between fuzz inputs and their readable traces (wraps mlf-trace).

  tools/mlf trace decode FILE...            print each input's trace
  tools/mlf trace encode FILE.trace -o OUT  write its bytes (never over OUT
                                            unless --force)
  tools/mlf trace roundtrip PATH...         check decode/encode are inverse

--target memcg_lru|reclaim says whose inputs they are; by default each
input's is guessed from its path (corpus/<target>/, a TARGET file beside
it), else memcg_lru. encode tells a trace's target by its magic line.
"""
import os
import sys

from . import common
from . import fuzz


def tool():
    build = fuzz.ensure_built_quiet("dev", targets=["mlf-trace"])
    return fuzz.binary(build, "mlf-trace")


# the targets whose inputs have a trace (mlf-trace --target)
TRACE_TARGETS = ("memcg_lru", "reclaim")


def target_of(args, path):
    """--target, else the target guessed from path, else None."""
    from . import replay
    target = args.target
    if not target:
        target = replay.guess_target(path)
        if target not in TRACE_TARGETS and args.action == "encode":
            target = None   # a trace says what it is by its magic line
        elif target and target not in TRACE_TARGETS:
            raise common.MlfError("%s looks like a %s input (by its path), which has no "
                                  "trace; say --target to read it as another target's"
                                  % (path, target))
    if target and target not in TRACE_TARGETS:
        raise common.MlfError("no trace for target %r (have: %s)"
                              % (target, ", ".join(TRACE_TARGETS)))
    return target


def run(args, extra):
    if args.action == "decode" and not args.target:
        # each input by its own path: a corpus/memcg_lru and a corpus/reclaim
        # file may come in one call
        groups = []
        for path in args.files:
            target = target_of(args, path) or "memcg_lru"
            if groups and groups[-1][0] == target:
                groups[-1][1].append(path)
            else:
                groups.append((target, [path]))
        if args.output or args.force:
            raise common.MlfError("-o and --force are for encode")
        rc = 0
        for target, paths in groups:
            sys.stdout.flush()
            rc |= common.run([tool(), "decode", "--target", target] + paths,
                             check=False).returncode
        return rc
    if args.action == "roundtrip" and not args.target:
        if args.output or args.force:
            raise common.MlfError("-o and --force are for encode")
        sys.stdout.flush()
        # mlf-trace tells each path's target (TARGET files, corpus/<target>)
        return common.run([tool(), "roundtrip"] + args.files, check=False).returncode
    target = target_of(args, args.files[0])
    if args.action == "encode":
        if len(args.files) != 1 or not args.output:
            raise common.MlfError("usage: tools/mlf trace encode FILE.trace -o OUT [--force]")
        if os.path.exists(args.output) and not args.force:
            raise common.MlfError("%s exists; not overwriting it (use --force)" % args.output)
        cmd = [tool(), "encode", args.files[0], "-o", args.output]
        if args.force:
            cmd.append("--force")
        # without a target the trace's first line tells
        if target:
            cmd += ["--target", target]
    else:
        if args.output or args.force:
            raise common.MlfError("-o and --force are for encode")
        cmd = [tool(), args.action, "--target", target or "memcg_lru"] + args.files
    sys.stdout.flush()
    # the tool's own one-line errors are the message; no second one
    return common.run(cmd, check=False).returncode


def register(subparsers):
    p = subparsers.add_parser(
        "trace", help="decode inputs to traces, encode traces to inputs",
        description="decode FILE...: print traces; encode FILE.trace -o OUT [--force]: "
                    "write bytes; roundtrip PATH...: check the codec on inputs. "
                    "--target memcg_lru|reclaim (default: guessed from the path).")
    p.add_argument("action", choices=["decode", "encode", "roundtrip"])
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-o", "--output", help="encode: the bytes file to write")
    p.add_argument("--force", action="store_true", help="encode: overwrite OUT")
    p.add_argument("--target", help="memcg_lru or reclaim (default: guessed from each "
                                    "FILE's path, else memcg_lru; encode: else the "
                                    "trace's magic line)")
    p.set_defaults(func=run)
