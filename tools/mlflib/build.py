# SPDX-License-Identifier: GPL-2.0
"""mlf build: configure (when needed) and build one preset (builds.py)."""
import os

from . import builds
from . import common


def run(args, extra):
    build = builds.ensure_built(args.preset, args.variant, args.bug, code=builds.Code.of(args))
    print("mlf build: %s is up to date" % os.path.relpath(build, common.ROOT))
    return 0


def register(subparsers):
    p = subparsers.add_parser(
        "build", help="configure and build a preset",
        description="Configure (when the tree is new or its options changed) and build "
                    "one preset of CMakePresets.json in build/<preset>, or in "
                    "build/<preset>-<variant>[-<bug>] for another variant or a bug variant, "
                    "and build/<preset>[...]-tree-<hash> for another tree or your patches.")
    p.add_argument("--preset", default="dev",
                   help="configure preset (default dev; see cmake --list-presets)")
    builds.add_code_arguments(p)
    p.add_argument("--bug", help="bug variant built on top of the variant, e.g. "
                                 "bug-no-seq-advance")
    p.set_defaults(func=run)
