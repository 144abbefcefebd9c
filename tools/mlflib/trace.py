# SPDX-License-Identifier: GPL-2.0
"""mlf trace: between fuzz inputs and their readable traces (wraps mlf-trace).

  tools/mlf trace decode FILE...            print each input's trace
  tools/mlf trace encode FILE.trace -o OUT  write its bytes (never over OUT
                                            unless --force)
  tools/mlf trace roundtrip PATH...         check decode/encode are inverse
"""
import os
import sys

from . import common
from . import fuzz


def tool():
    build = fuzz.ensure_built_quiet("dev", targets=["mlf-trace"])
    return fuzz.binary(build, "mlf-trace")


def run(args, extra):
    if args.action == "encode":
        if len(args.files) != 1 or not args.output:
            raise common.MlfError("usage: tools/mlf trace encode FILE.trace -o OUT [--force]")
        if os.path.exists(args.output) and not args.force:
            raise common.MlfError("%s exists; not overwriting it (use --force)" % args.output)
        cmd = [tool(), "encode", args.files[0], "-o", args.output]
        if args.force:
            cmd.append("--force")
    else:
        if args.output or args.force:
            raise common.MlfError("-o and --force are for encode")
        cmd = [tool(), args.action] + args.files
    sys.stdout.flush()
    # the tool's own one-line errors are the message; no second one
    return common.run(cmd, check=False).returncode


def register(subparsers):
    p = subparsers.add_parser(
        "trace", help="decode inputs to traces, encode traces to inputs",
        description="decode FILE...: print traces; encode FILE.trace -o OUT [--force]: "
                    "write bytes; roundtrip PATH...: check the codec on inputs.")
    p.add_argument("action", choices=["decode", "encode", "roundtrip"])
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("-o", "--output", help="encode: the bytes file to write")
    p.add_argument("--force", action="store_true", help="encode: overwrite OUT")
    p.set_defaults(func=run)
