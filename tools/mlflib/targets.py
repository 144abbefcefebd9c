# SPDX-License-Identifier: GPL-2.0
"""The fuzz targets and the input-file rules, from fuzz/targets.json.

The one table of targets (fuzz/README.md says what each field means):
fuzz/CMakeLists.txt builds from it, header() writes the C side's copy
(mlf_targets.h: trace magic lines, which files are inputs), and the CLI's
modules ask here (a target's trace, sanitizers, whether the
default campaign fuzzes it; which files of a directory are inputs). A
library module (see __init__.py); it imports nothing of mlflib, since the
build runs it as a script.
"""
import json
import os
import shutil
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
TABLE = os.path.join(ROOT, "fuzz", "targets.json")

_table = None


def table():
    """The parsed fuzz/targets.json (read once)."""
    global _table
    if _table is None:
        with open(TABLE, encoding="utf-8") as f:
            _table = json.load(f)
    return _table


def targets():
    """{name: entry} in the table's order."""
    return {t["name"]: t for t in table()["targets"]}


def names():
    """Every target, in the table's order."""
    return list(targets())


def campaign():
    """The targets of the default `tools/mlf fuzz` campaign ("campaign": true)."""
    return [n for n, t in targets().items() if t.get("campaign")]


def for_sanitizer(sanitizer):
    """The targets meant for a libFuzzer build with @sanitizer (asan, tsan)."""
    return [n for n, t in targets().items() if sanitizer in t.get("sanitizers", [])]


def get(name):
    """The entry of target @name, or None."""
    return targets().get(name)


def trace_magic(name):
    """The magic first line of @name's readable trace, or None."""
    entry = get(name)
    return entry.get("trace") if entry else None


def traced():
    """{magic line: target} of the targets with a readable trace."""
    return {t["trace"]: n for n, t in targets().items() if t.get("trace")}


def with_trace():
    """The targets with a readable trace (mlf-trace --target), in table order."""
    return [n for n, t in targets().items() if t.get("trace")]


def trace_target_of_file(path):
    """The target whose trace magic line @path starts with (a readable
    trace, not an input's bytes), or None; None too for what cannot be read."""
    try:
        with open(path, "rb") as f:
            first = f.readline(256)
    except OSError:
        return None
    line = first.rstrip(b"\r\n").decode("utf-8", "replace").strip()
    return traced().get(line)


def is_input_name(name):
    """Whether a file of a corpus or regression directory is an input."""
    rules = table()["inputs"]
    return not (name.startswith(tuple(rules["skip_prefixes"]))
                or name in rules["markers"]
                or name.endswith(tuple(rules["skip_suffixes"])))


def input_files(path):
    """Input files of a file or directory (recursive, name order)."""
    if os.path.isfile(path):
        return [path]
    found = []
    for name in sorted(os.listdir(path)):
        sub = os.path.join(path, name)
        if not is_input_name(name):
            continue
        if os.path.isdir(sub):
            found += input_files(sub)
        elif os.path.isfile(sub):
            found.append(sub)
    return found


def seed_working_corpus(target, work):
    """Copy corpus/@target's inputs into the working corpus @work (never
    the reverse; a file already there is kept)."""
    os.makedirs(work, exist_ok=True)
    src = os.path.join(ROOT, "corpus", target)
    if not os.path.isdir(src):
        return
    for path in input_files(src):
        dst = os.path.join(work, os.path.basename(path))
        if not os.path.exists(dst):
            shutil.copyfile(path, dst)


def _c_string(s):
    return '"' + s.replace("\\", "\\\\").replace('"', '\\"') + '"'


def header():
    """mlf_targets.h: the table's facts the C side needs."""
    rules = table()["inputs"]
    lines = [
        "/* SPDX-License-Identifier: GPL-2.0 */",
        "/* Generated from fuzz/targets.json by tools/mlflib/targets.py: do not edit. */",
        "#ifndef _MLF_TARGETS_H",
        "#define _MLF_TARGETS_H",
        "",
    ]
    traced = [(name, t["trace"]) for name, t in targets().items() if t.get("trace")]
    for name, magic in traced:
        lines.append("#define MLF_TRACE_MAGIC_%s %s" % (name.upper(), _c_string(magic)))
    # every traced target and its magic line, for the parsers (trace_lex.c)
    lines.append("#define MLF_TRACE_MAGIC_LIST(X) %s" % " ".join(
        "X(%s, %s)" % (_c_string(name), _c_string(magic)) for name, magic in traced))
    lines.append("")
    for key, macro in (("skip_prefixes", "MLF_INPUT_SKIP_PREFIXES"),
                       ("skip_suffixes", "MLF_INPUT_SKIP_SUFFIXES"),
                       ("markers", "MLF_INPUT_MARKERS")):
        lines.append("#define %s %s" % (macro, ", ".join(_c_string(s) for s in rules[key])))
    lines += ["", "#endif", ""]
    return "\n".join(lines)


def write_header(path):
    """Write header() to @path unless it already holds exactly that."""
    text = header()
    try:
        with open(path, encoding="utf-8") as f:
            if f.read() == text:
                return
    except OSError:
        pass
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    tmp = path + ".tmp"
    with open(tmp, "w", encoding="utf-8") as f:
        f.write(text)
    os.replace(tmp, path)


if __name__ == "__main__":
    # python3 tools/mlflib/targets.py --header OUT (the build, oss_fuzz_build.sh)
    if len(sys.argv) != 3 or sys.argv[1] != "--header":
        print("usage: targets.py --header OUT", file=sys.stderr)
        sys.exit(2)
    write_header(sys.argv[2])
