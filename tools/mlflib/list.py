# SPDX-License-Identifier: GPL-2.0
"""mlf list: the variants and check names, read from the sources.

Reading them from CMakeLists.txt, src/mm/reclaim.cmake, zoo/ and src/ (not
from a table here) keeps the list from drifting when a variant, bug or
check is added.
"""
import os
import re

from . import bugs
from . import common
from . import variants

SRC = os.path.join(common.ROOT, "src")

# A check is named by the string literal handed to the failure constructors.
CHECK_NAME = re.compile(
    r"\b(?:mlf_failure_init\s*\([^,;]*,|mlf_fail_simple\s*\(|mlf_vm_warn\s*\()"
    r"\s*\"([a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*)\"")


def _source_files(top=SRC):
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames.sort()
        for name in sorted(filenames):
            if name.endswith((".c", ".h")):
                yield os.path.join(dirpath, name)


def check_names():
    """{check name: [files that report it]}, sorted by name."""
    checks = {}
    for path in _source_files():
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read()
        for name in CHECK_NAME.findall(text):
            files = checks.setdefault(name, [])
            rel = os.path.relpath(path, common.ROOT)
            if rel not in files:
                files.append(rel)
    return dict(sorted(checks.items()))


def bug_rows():
    """[(name, main expect "target check", summary)] of the zoo, by name."""
    rows = []
    for name, bug in bugs.bugs().items():
        expect = "%s %s" % bug.expects[0] if bug.expects else "-"
        rows.append((name, expect, bug.summary))
    return rows


def _print_table(rows):
    width = max((len(k) for k in rows), default=0)
    for name, files in rows.items():
        print("  %-*s  %s" % (width, name, ", ".join(files)))


def run(args, extra):
    if args.what == "variants":
        names, default = variants.correct()
        print("Correct variants (--variant):")
        for v in names:
            print("  %s%s" % (v, "  (default)" if v == default else ""))
        isos, iso_default = variants.iso()
        if isos:
            print("Isolation variants of the reclaim target (--variant):")
            for v in isos:
                print("  %s%s" % (v, "  (default)" if v == iso_default else ""))
        rows = bug_rows()
        print("Bug variants (--bug, zoo/<bug>.patch), each on top of the chosen variant;"
              " the target and check that must catch it, and what it is:")
        if not rows:
            print("  (none in zoo/)")
        w0 = max((len(r[0]) for r in rows), default=0)
        w1 = max((len(r[1]) for r in rows), default=0)
        for name, expect, summary in rows:
            print("  %-*s  %-*s  %s" % (w0, name, w1, expect, summary))
    else:
        checks = check_names()
        if not checks:
            raise common.MlfError("no check names found in src/")
        print("Check names reported by src/ (MLF FAILURE: check=NAME):")
        _print_table(checks)
    return 0


def register(subparsers):
    p = subparsers.add_parser(
        "list", help="list variants or check names",
        description="List the correct variants (CMakeLists.txt), the isolation variants "
                    "(src/mm/reclaim.cmake) and the bug variants with their Summary and "
                    "main Expect: line (zoo/<bug>.patch), or the check names src/ reports.")
    p.add_argument("what", choices=["variants", "checks"])
    p.set_defaults(func=run)
