# SPDX-License-Identifier: GPL-2.0
"""mlf list: the variants and check names, read from the sources.

Reading them from CMakeLists.txt and src/ (not from a table here) keeps the
list from drifting when a variant, bug or check is added.
"""
import os
import re

from . import bugs
from . import common

SRC = os.path.join(common.ROOT, "src")
CMAKELISTS = os.path.join(common.ROOT, "CMakeLists.txt")

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


def _read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def correct_variants():
    """(variants, default) from CMakeLists.txt; common's copy if it cannot be read."""
    try:
        text = _read(CMAKELISTS)
    except OSError:
        return list(common.CORRECT_VARIANTS), common.DEFAULT_VARIANT
    m = re.search(r"set\(MLF_CORRECT_VARIANTS\s+([^)]*)\)", text)
    variants = m.group(1).split() if m else list(common.CORRECT_VARIANTS)
    m = re.search(r"set\(MLF_VARIANT\s+\"([^\"]+)\"", text)
    default = m.group(1) if m else common.DEFAULT_VARIANT
    return variants, default


RECLAIM_CMAKE = os.path.join(common.ROOT, "src", "mm", "reclaim.cmake")


def iso_variants():
    """(isolation variants of the reclaim port, default) from src/mm/reclaim.cmake.

    They pick the reclaim target's port (MLF_ISO); --variant takes them too,
    the memcg LRU port then being the default variant."""
    try:
        text = _read(RECLAIM_CMAKE)
    except OSError:
        return [], None
    m = re.search(r"set\(MLF_ISO_VARIANTS\s+([^)]*)\)", text)
    d = re.search(r"set\(MLF_ISO\s+\"([^\"]+)\"", text)
    return (m.group(1).split() if m else []), (d.group(1) if d else None)


def reclaim_bugs():
    """The bug variants of the reclaim target (zoo/<bug>.patch's Expect:),
    which the build puts on their Variant: (an isolation variant)."""
    return [name for name, bug in bugs.bugs().items() if bug.expect_for("reclaim")]


def bug_variants():
    """{bug name: [files its patch touches]}, sorted by name."""
    return {name: bug.files for name, bug in bugs.bugs().items()}


def check_names():
    """{check name: [files that report it]}, sorted by name."""
    checks = {}
    for path in _source_files():
        for name in CHECK_NAME.findall(_read(path)):
            files = checks.setdefault(name, [])
            rel = os.path.relpath(path, common.ROOT)
            if rel not in files:
                files.append(rel)
    return dict(sorted(checks.items()))


def _print_table(rows):
    width = max((len(k) for k in rows), default=0)
    for name, files in rows.items():
        print("  %-*s  %s" % (width, name, ", ".join(files)))


def run(args, extra):
    if args.what == "variants":
        variants, default = correct_variants()
        print("Correct variants (--variant):")
        for v in variants:
            print("  %s%s" % (v, "  (default)" if v == default else ""))
        isos, iso_default = iso_variants()
        if isos:
            print("Isolation variants of the reclaim target (--variant):")
            for v in isos:
                print("  %s%s" % (v, "  (default)" if v == iso_default else ""))
        bugs = bug_variants()
        print("Bug variants (--bug), each on top of the chosen variant:")
        if not bugs:
            print("  (none found in src/)")
        _print_table(bugs)
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
        description="List the correct and bug variants (from CMakeLists.txt and the "
                    "MLF_BUG_* macros in src/), or the check names src/ reports.")
    p.add_argument("what", choices=["variants", "checks"])
    p.set_defaults(func=run)
