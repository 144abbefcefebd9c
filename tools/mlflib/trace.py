# SPDX-License-Identifier: GPL-2.0
"""mlf trace: between fuzz inputs and their readable traces (wraps mlf-trace).

  tools/mlf trace decode FILE...            print each input's trace
  tools/mlf trace encode FILE.trace -o OUT  write its bytes (never over OUT
                                            unless --force)
  tools/mlf trace roundtrip PATH...         check decode/encode are inverse
  tools/mlf trace annotate DIR...           open each trace of a regression
                                            directory with its story (story.py)

--target says whose inputs they are (a target with a trace in
fuzz/targets.json); by default each input's is guessed from its path as
replay does (corpus/<target>/, a regression directory's zoo patch or TARGET
file), else memcg_lru, and mlf-trace is told it with --target. encode
tells a trace's target by its magic line.
"""
import os
import shutil
import sys

from . import builds
from . import common
from . import engine
from . import regressions
from . import story
from . import targets

DEFAULT = "memcg_lru"


_tool = None


def tool():
    """mlf-trace of the dev build, built once a process."""
    global _tool
    if _tool is None:
        build = builds.ensure_built_quiet("dev", targets=["mlf-trace"])
        _tool = builds.binary(build, "mlf-trace")
    return _tool


def check_traced(target):
    traced = targets.with_trace()
    if target not in traced:
        raise common.MlfError("no trace for target %r (have: %s)" % (target, ", ".join(traced)))


def target_of(args, path):
    """--target, else the target guessed from path (None for encode: the
    trace's magic line tells), else memcg_lru."""
    if args.target:
        check_traced(args.target)
        return args.target
    target = regressions.guess_target(path)
    if args.action == "encode":
        return target if target in targets.with_trace() else None
    if target and target not in targets.with_trace():
        raise common.MlfError("%s looks like a %s input (by its path), which has no "
                              "trace; say --target to read it as another target's"
                              % (path, target))
    return target or DEFAULT


def roundtrip_groups(paths):
    """{target: [paths]} for roundtrip: a path by its own target, and
    corpus/regressions as a whole split into its directories; the paths of
    targets without a trace come back under None."""
    out = {}
    for path in paths:
        if not os.path.exists(path):
            raise common.MlfError("%s: no such file or directory" % path)
        if os.path.isdir(path) and os.path.basename(os.path.abspath(path)) == "regressions":
            parts = [os.path.join(path, n) for n in sorted(os.listdir(path))
                     if targets.is_input_name(n)]
        else:
            parts = [path]
        if not any(targets.input_files(p) for p in parts):
            raise common.MlfError("%s holds no input (fuzz/README.md says which files are "
                                  "inputs)" % path)
        for part in parts:
            t = regressions.guess_target(part) or DEFAULT
            out.setdefault(t if t in targets.with_trace() else None, []).append(part)
    return out


def decode(args):
    """Each input by its own path's target (a corpus/memcg_lru and a
    corpus/reclaim file may come in one call); a readable trace given to
    decode is encoded first (its magic line tells its target), so what is
    printed is the trace of the input it spells, never its text read as
    bytes."""
    groups, works = [], []
    try:
        for path in args.files:
            if not os.path.exists(path):
                raise common.MlfError("%s: no such file or directory" % path)
            magic = targets.trace_target_of_file(path)
            target = (args.target if args.target else None) or magic or target_of(args, path)
            if args.target:
                check_traced(args.target)
            if magic:
                files, _, work = engine.encoded([path], target)
                works.append(work)
                path = files[0]
            if groups and groups[-1][0] == target:
                groups[-1][1].append(path)
            else:
                groups.append((target, [path]))
        rc = 0
        for target, paths in groups:
            sys.stdout.flush()
            rc |= common.run([tool(), "decode", "--target", target] + paths,
                             check=False).returncode
        return rc
    finally:
        for work in works:
            if work:
                shutil.rmtree(work, ignore_errors=True)


def annotate(args):
    for d in args.files:
        if not os.path.isdir(d) or not os.path.isdir(os.path.dirname(os.path.abspath(d))) or \
                os.path.basename(os.path.dirname(os.path.abspath(d))) != "regressions":
            raise common.MlfError("%s: not a directory of corpus/regressions" % d)
    for d in args.files:
        for twin in story.tell(d, args.preset or "dev"):
            print("trace: annotated %s" % os.path.relpath(twin))
    return 0


def run(args, extra):
    if args.action == "annotate":
        if args.target or args.output or args.force:
            raise common.MlfError("annotate takes directories only (the target is the "
                                  "directory's)")
        return annotate(args)
    if args.target:
        check_traced(args.target)
    for path in args.files:
        common.check_path(path, "file" if args.action != "roundtrip" else "any")
    if args.output:
        common.check_path(args.output, "out", "-o")
    if args.preset:
        raise common.MlfError("--preset is for annotate")
    if args.action != "encode" and (args.output or args.force):
        raise common.MlfError("-o and --force are for encode")
    if args.action == "roundtrip" and not args.target:
        rc, skipped = 0, []
        for target, paths in roundtrip_groups(args.files).items():
            if target is None:
                skipped += paths
                continue
            sys.stdout.flush()
            rc |= common.run([tool(), "roundtrip", "--target", target] + paths,
                             check=False).returncode
        if skipped:
            print("trace: skipped %s (targets without a trace)"
                  % ", ".join(os.path.relpath(p) for p in skipped))
        return rc
    if args.action == "decode":
        return decode(args)
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
        cmd = [tool(), args.action, "--target", target] + args.files
    sys.stdout.flush()
    # the tool's own one-line errors are the message; no second one
    return common.run(cmd, check=False).returncode


def register(subparsers):
    traced = "|".join(targets.with_trace())
    p = subparsers.add_parser(
        "trace", help="decode inputs to traces, encode traces to inputs",
        description="decode FILE...: print traces; encode FILE.trace -o OUT [--force]: "
                    "write bytes; roundtrip PATH...: check the codec on inputs; annotate "
                    "DIR...: open each trace of a corpus/regressions directory with what "
                    "it does and the run (for concurrent: the interleaving) that fails. "
                    "--target %s (default: guessed from the path)." % traced)
    p.add_argument("action", choices=["decode", "encode", "roundtrip", "annotate"])
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-o", "--output", help="encode: the bytes file to write")
    p.add_argument("--force", action="store_true", help="encode: overwrite OUT")
    p.add_argument("--preset", help="annotate: the build preset whose replay drivers run "
                                    "the inputs (default dev)")
    p.add_argument("--target", help="%s (default: guessed from each FILE's path, else "
                                    "memcg_lru; encode: else the trace's magic line)" % traced)
    p.set_defaults(func=run)
