# SPDX-License-Identifier: GPL-2.0
"""The variants a build may be asked for, read from the sources.

The correct variants of the memcg LRU port come from CMakeLists.txt, the
isolation variants of the reclaim port from src/mm/reclaim.cmake, the bug
variants from zoo/ (bugs.py). Reading them there, not from a table here,
keeps the CLI from drifting when one is added. A library module (see
__init__.py).
"""
import os
import re

from . import bugs
from . import common

CMAKELISTS = os.path.join(common.ROOT, "CMakeLists.txt")
RECLAIM_CMAKE = os.path.join(common.ROOT, "src", "mm", "reclaim.cmake")


def _read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


def correct():
    """(variants, default) from CMakeLists.txt; common's copy if it cannot be read."""
    try:
        text = _read(CMAKELISTS)
    except OSError:
        return list(common.CORRECT_VARIANTS), common.DEFAULT_VARIANT
    m = re.search(r"set\(MLF_ALL_VARIANTS\s+([^)]*)\)", text)
    variants = m.group(1).split() if m else list(common.CORRECT_VARIANTS)
    m = re.search(r"set\(MLF_VARIANT\s+\"([^\"]+)\"", text)
    default = m.group(1) if m else common.DEFAULT_VARIANT
    return variants, default


def iso():
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


def check(variant, bug):
    """One-line MlfError unless --variant @variant and --bug @bug make a build.

    A bug of the reclaim target (an "Expect: reclaim ..." line) is built on
    its Variant: (or the default isolation variant); another isolation
    variant is refused rather than silently ignored."""
    names, _ = correct()
    isos, iso_default = iso()
    if variant is not None and variant not in names + isos:
        raise common.MlfError("unknown variant %r (have: %s)" % (variant, ", ".join(names + isos)))
    if bug is None:
        return
    b = bugs.require(bug)
    own = b.variant or iso_default
    if b.expect_for("reclaim") and variant in isos and variant != own:
        raise common.MlfError("%s is built on %s (zoo/%s.patch), not %s: drop --variant"
                              % (bug, own, bug, variant))
