# SPDX-License-Identifier: GPL-2.0
"""mlf kernel: the old spelling of --tree / --patches / --seed-level.

Every build runs a kernel tree's own code now (kernel/tree.cmake), and
every subcommand that builds takes the same --tree, --patches and
--seed-level. `tools/mlf kernel [--tree T] [--seed-level L] [--patches F]...
CMD ARGS...` is `tools/mlf CMD --tree T --seed-level L --patches F...
ARGS...`: the same code path, said once on stderr.
"""
import os
import subprocess
import sys

from . import common

# what the kernel build had that the one build does not
RETIRED = ("kernel_diff",)


def run(args, extra):
    rest = list(args.rest or [])
    if not rest:
        raise common.MlfError("say what to do: fuzz, replay, test (or any subcommand)")
    cmd, rest = rest[0], rest[1:]
    code = []
    if args.tree:
        code += ["--tree", args.tree]
    for p in args.patches or []:
        code += ["--patches", p]
    if args.seed_level:
        code += ["--seed-level", args.seed_level]
    out = []
    i = 0
    while i < len(rest):
        a = rest[i]
        value = rest[i + 1] if a == "--target" and i + 1 < len(rest) else None
        if a.startswith("--target="):
            value = a.split("=", 1)[1]
        if value is not None:
            if value.startswith(RETIRED):
                raise common.MlfError("--target %s: kernel_diff is retired (docs/kernel.md): "
                                      "every target runs the tree's code" % value)
            if value.startswith("concurrent-"):
                # concurrent-<level>: the concurrent target on that level
                level = value[len("concurrent-"):]
                if args.seed_level and args.seed_level != level:
                    raise common.MlfError("--seed-level %s and --target %s name two levels"
                                          % (args.seed_level, value))
                if not args.seed_level:
                    code += ["--seed-level", level]
                value = "concurrent"
            out += ["--target", value]
            i += 1 if a.startswith("--target=") else 2
            continue
        if a == "--tsan":
            common.deprecated("--tsan", "--sanitizer tsan")
            out += ["--sanitizer", "tsan"]
            i += 1
            continue
        if a == "--empty-corpus":
            raise common.MlfError("--empty-corpus: tools/mlf zoo fuzzes from an empty corpus; "
                                  "tools/mlf fuzz starts from the seeds")
        out.append(a)
        i += 1
    argv = [cmd] + code + out
    common.deprecated("kernel " + cmd, "tools/mlf " + " ".join(argv))
    sys.stdout.flush()
    return subprocess.call([sys.executable, os.path.join(common.ROOT, "tools", "mlf")] + argv)


def register(subparsers):
    p = subparsers.add_parser(
        "kernel", help="old spelling: tools/mlf CMD --tree T --patches F --seed-level L",
        description="The old spelling of the flags every subcommand takes: `tools/mlf "
                    "kernel [--tree T] [--seed-level L] [--patches F]... CMD ARGS...` runs "
                    "`tools/mlf CMD --tree T --seed-level L --patches F... ARGS...`.")
    p.add_argument("--tree", help="kernel tree, tarball or tree recipe")
    p.add_argument("--patches", action="append", metavar="FILE", help="your patches")
    p.add_argument("--seed-level", help="the seed series up to this level")
    p.add_argument("rest", nargs="...", help="the subcommand and its arguments")
    p.set_defaults(func=run, passthrough=True)
