# SPDX-License-Identifier: GPL-2.0
"""The modules of tools/mlf, in two layers.

Library modules (LIBRARIES) hold what the subcommands share: the table of
fuzz targets, the bug zoo, variants, builds and binaries, running engines
and reading their output, signatures, campaign directories, regression
directories, minimization. A library has no register() and imports no
subcommand module. Every other module but main is a subcommand: it defines
register(subparsers) and imports library modules only. main.py registers
the subcommands and nothing else. tests/tools/test_layers.py checks all of
this, and that the imports have no cycle.

The libraries stay in this package, not in a subpackage of their own,
because the build runs tools/mlflib/targets.py as a script and
fuzz/oss_fuzz_build.sh imports mlflib.targets: their paths are not the
CLI's to move.
"""

LIBRARIES = (
    "bench_isolation",  # seed 004's isolation experiment (bench isolation)
    "bugs",             # zoo/<bug>.patch and their headers
    "builds",           # configure and build a preset; binaries in a build
    "campaign",         # a campaign directory, its crash signer and status line
    "common",           # paths, MlfError, running and printing a command
    "engine",           # running the engines; their options, figures, errors
    "packages",         # the Debian packages, installing the missing ones
    "regressions",      # corpus/regressions/<name>/: targets, filing one
    "seeds_concurrent",  # each target's seeds, as tools/mlf corpus writes them
    "seeds_memcg_lru",
    "seeds_nulls_list",
    "seeds_reclaim",
    "seeds_trace_parser",
    "shrink",           # minimizing a failing input (bytes, then ops)
    "signatures",       # naming a failure; signing crash files
    "story",            # the comment block a reproducer's trace opens with
    "states",           # state coverage: cells met, cells that can be, the table
    "targets",          # fuzz/targets.json: the one table of targets
    "variants",         # correct, isolation and bug variants; checking a choice
)
