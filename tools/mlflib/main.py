# SPDX-License-Identifier: GPL-2.0
"""Argument parsing and dispatch for tools/mlf.

A subcommand module defines register(subparsers) -> adds its parser and sets
parser.set_defaults(func=run) where run(args, extra) returns an exit code;
`extra` holds the flags mlf did not recognise, for the engine. The library
modules (mlflib.LIBRARIES) are not subcommands and are not registered.
"""
import argparse
import importlib
import pkgutil
import sys

import mlflib

from . import common


def build_parser():
    parser = argparse.ArgumentParser(
        prog="tools/mlf",
        description="mlf: fuzzing and concurrency testing of the MGLRU memcg LRU",
    )
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in subcommands():
        importlib.import_module("mlflib." + name).register(sub)
    return parser


def subcommands():
    """The subcommand modules: every module of the package but main and the
    libraries, by name."""
    return sorted(m.name for m in pkgutil.iter_modules(mlflib.__path__)
                  if m.name != "main" and m.name not in mlflib.LIBRARIES)


def main(argv):
    parser = build_parser()
    args, extra = parser.parse_known_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    if extra and not getattr(args, "passthrough", False):
        print("mlf %s: unknown argument%s: %s" % (args.command, "s" if len(extra) > 1 else "",
                                                 " ".join(extra)), file=sys.stderr)
        return 2
    try:
        return args.func(args, extra) or 0
    except common.MlfError as e:
        print("mlf %s: %s" % (args.command, e), file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        # the reader went away (| head): not an error of ours
        sys.stderr.close()
        return 0
    except OSError as e:
        # a path the user gave that is missing, not a directory, unreadable:
        # one line, as an MlfError would say it
        what = e.filename if e.filename is not None else ""
        print("mlf %s: %s%s" % (args.command, "%s: " % what if what else "",
                                e.strerror or e), file=sys.stderr)
        return 2
