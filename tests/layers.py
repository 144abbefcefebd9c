#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The layers of src/ and the one include style, as a test (ctest: layers).

src/ is four layers, each built on the ones before it and on nothing
after it:

    kernel/   the shim: kernel APIs in userspace
    mm/       what is modelled around the code under test (the code under
              test is the kernel tree's, cut into the build directory:
              its header, mlf_tree_gen.h, is the one include of src/ that
              is no file of src/)
    check/    the checks, the reference model, the ops they consume
    harness/  the drivers that apply ops and run the checks

and above them the targets (fuzz/, tests/, stress/, bench/, kernel/), which
may include any of them. A file of a layer that includes a header of a later
layer is an arrow going up: this test names each one. It also holds every
quoted include of src/ and of the targets to the one style: a header of
src/ by its path from src/ ("kernel/types.h"), or a header of the
including file's own directory by its name ("bin_scan.h"); never "../".

    tests/layers.py [ROOT]      check the tree at ROOT (default: this one)
    tests/layers.py --selftest  check that bad trees are caught
"""
import os
import re
import sys
import tempfile

LAYERS = ["kernel", "mm", "check", "harness"]
TARGET_DIRS = ["fuzz", "tests", "stress", "bench", "kernel"]
INCLUDE = re.compile(r'^[ \t]*#[ \t]*include[ \t]+"([^"]+)"', re.M)
# headers the build generates (kernel/extract.py), on every target's path
GENERATED = {"mlf_tree_gen.h"}
SOURCE = (".c", ".h")


def sources(top):
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in sorted(filenames):
            if name.endswith(SOURCE):
                yield os.path.join(dirpath, name)


def includes(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    for m in INCLUDE.finditer(text):
        yield text.count("\n", 0, m.start()) + 1, m.group(1)


def check_src(root):
    """Arrows going up, and includes src/ cannot resolve, in ROOT/src."""
    src = os.path.join(root, "src")
    problems = []
    for layer in LAYERS:
        rank = LAYERS.index(layer)
        for path in sources(os.path.join(src, layer)):
            rel = os.path.relpath(path, root)
            for line, name in includes(path):
                if name in GENERATED:
                    continue
                # as the compiler finds it: the file's own directory first
                # (where "../" climbs from), then the src/ root
                here = os.path.normpath(os.path.join(os.path.dirname(path), name))
                if not os.path.exists(here):
                    here = os.path.normpath(os.path.join(src, name))
                if not os.path.exists(here) or not here.startswith(src + os.sep):
                    problems.append("%s:%d: \"%s\" is no header of src/" % (rel, line, name))
                    continue
                top = os.path.relpath(here, src).split(os.sep, 1)[0]
                if top in LAYERS and LAYERS.index(top) > rank:
                    problems.append(
                        "%s:%d: %s/ includes \"%s\" of %s/, a later layer "
                        "(the order is %s)" % (rel, line, layer, name, top,
                                               " -> ".join(LAYERS)))
    return problems


def check_style(root):
    """Quoted includes that climb out of their directory ("../")."""
    problems = []
    for top in ["src"] + TARGET_DIRS:
        for path in sources(os.path.join(root, top)):
            rel = os.path.relpath(path, root)
            for line, name in includes(path):
                if name.startswith("../") or "/../" in name:
                    problems.append(
                        "%s:%d: \"%s\": include a header of src/ by its path "
                        "from src/, or one of the same directory by its name"
                        % (rel, line, name))
    return problems


def check(root):
    return check_src(root) + check_style(root)


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(text)


def selftest():
    """A good tree passes; each kind of bad include is caught."""
    good = {
        "src/kernel/types.h": "",
        "src/kernel/list.h": '#include "types.h"\n',
        "src/mm/vmscan.h": '#include "kernel/list.h"\n',
        "src/check/state.h": '#include "mm/vmscan.h"\n#include <stdio.h>\n',
        "src/check/checks.c": '#include "state.h"\n',
        "src/harness/world.h": '#include "check/state.h"\n',
        "fuzz/target.c": '#include "harness/world.h"\n#include "codec.h"\n',
        "fuzz/memcg_lru_codec.h": "",
    }
    bad = [
        ("src/check/checks.c", '#include "harness/world.h"\n', "a later layer"),
        ("src/mm/vmscan.h", '#include "check/state.h"\n', "a later layer"),
        ("src/kernel/list.h", '#include "mm/vmscan.h"\n', "a later layer"),
        ("src/kernel/list.h", '#include "harness/world.h"\n', "a later layer"),
        ("src/check/checks.c", '#include "../harness/world.h"\n', "by its path"),
        ("src/mm/vmscan.h", '#include "../kernel/list.h"\n', "by its path"),
        ("fuzz/target.c", '#include "../src/check/state.h"\n', "by its path"),
        ("src/check/checks.c", '#include "world.h"\n', "no header of src/"),
    ]
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        for rel, text in good.items():
            write(tmp, rel, text)
        got = check(tmp)
        if got:
            print("selftest: a good tree fails:\n  " + "\n  ".join(got))
            failed += 1
        for rel, text, want in bad:
            write(tmp, rel, good[rel] + text)
            got = check(tmp)
            if not any(rel in p and want in p for p in got):
                print("selftest: %s with %s is not caught (%r)" % (rel, text.strip(), got))
                failed += 1
            write(tmp, rel, good[rel])
    print("selftest: %d of %d cases %s" % (len(bad) + 1 - failed, len(bad) + 1,
                                          "pass" if not failed else "pass, others FAIL"))
    return failed == 0


def main(argv):
    if argv[1:] == ["--selftest"]:
        return 0 if selftest() else 1
    root = argv[1] if len(argv) > 1 else os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    problems = check(root)
    for p in problems:
        print(p)
    if problems:
        print("layers: %d problem%s" % (len(problems), "" if len(problems) == 1 else "s"))
        return 1
    print("layers: %s -> targets, no arrow going up; one include style"
          % " -> ".join("src/" + l for l in LAYERS))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
