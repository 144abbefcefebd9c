# SPDX-License-Identifier: GPL-2.0
"""mlf list: the variants and check names, read from the sources.

Reading them from CMakeLists.txt, src/mm/reclaim.cmake, zoo/ and the C
sources (not from a table here) keeps the list from drifting when a
variant, bug or check is added.

A check is named by the string handed to a failure's constructor
(src/kernel/report.h: mlf_failure_init(), mlf_failure_at()), directly or
through a function that passes one of its parameters on (mlf_fail_simple(),
mlf_vm_warn(), stress_fail_conservation(), walk_checks.c's fail(), lin.c's
read_port(), rcu_model.c's check_gp_over(), ...): such functions are found
by following the parameter, to a fixed point. At each call the name is a
string literal of the argument (a ternary gives two), or, where the
argument is a variable, the literals assigned to it in the same function
(or file), or, where it is an element of an array, the literals of the
array's initializer. docs/checks.md defines every name found here;
tests/tools/test_checks_doc.py holds the two in step.
"""
import os
import re

from . import bugs
from . import common
from . import signatures
from . import variants

# where the C sources that report failures live (not tests/: they name
# checks to expect them)
SOURCE_DIRS = ("src", "fuzz", "kernel", "explore", "stress")

# the constructors of a failure and the argument (from 0) naming the check
CONSTRUCTORS = {"mlf_failure_init": 1, "mlf_failure_at": 1}

NAME = re.compile(r"[a-z][a-z0-9_]*(?:\.[a-z0-9_]+)*\Z")
IDENT = re.compile(r"[A-Za-z_]\w*\Z")
ELEMENT = re.compile(r"([A-Za-z_]\w*)\s*\[")
STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
KEYWORDS = {"if", "for", "while", "switch", "return", "sizeof", "typeof",
            "__typeof__", "defined", "__attribute__", "_Static_assert"}


def _source_files(roots):
    for top in roots:
        for dirpath, dirnames, filenames in os.walk(top):
            dirnames.sort()
            for name in sorted(filenames):
                if name.endswith((".c", ".h")):
                    yield os.path.join(dirpath, name)


def strip_c(text):
    """@text without comments and line continuations, string and character
    literals kept, every other character at its place (offsets hold)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("/*", i):
            end = text.find("*/", i + 2)
            end = n if end < 0 else end + 2
            out.append(re.sub(r"[^\n]", " ", text[i:end]))
            i = end
        elif text.startswith("//", i):
            end = text.find("\n", i)
            end = n if end < 0 else end
            out.append(" " * (end - i))
            i = end
        elif text.startswith("\\\n", i):
            out.append("  ")
            i += 2
        elif c in "\"'":
            j = i + 1
            while j < n and text[j] != c and text[j] != "\n":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _skip_literal(text, i):
    """The index after the string or character literal starting at @i."""
    q, j = text[i], i + 1
    while j < len(text) and text[j] != q:
        j += 2 if text[j] == "\\" else 1
    return j + 1


def call_args(text, open_paren):
    """([argument texts], index after the closing parenthesis) of the call
    whose "(" is at @open_paren."""
    args, depth, start, i = [], 0, open_paren + 1, open_paren
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = _skip_literal(text, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append(text[start:i].strip())
                return [a for a in args if a] if args != [""] else [], i + 1
        elif c == "," and depth == 1:
            args.append(text[start:i].strip())
            start = i + 1
        i += 1
    return args, len(text)


def _matching_brace(text, i):
    depth = 0
    while i < len(text):
        c = text[i]
        if c in "\"'":
            i = _skip_literal(text, i)
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        i += 1
    return len(text)


class CFile:
    """A C file's text (comments stripped), its function definitions and
    its calls."""

    def __init__(self, path, text):
        self.path = path
        self.text = strip_c(text)
        self.functions = []  # (name, [parameter names], static, body start, body end)
        self.calls = []      # (name, [argument texts], offset)
        for m in CALL.finditer(self.text):
            if m.group(1) in KEYWORDS:
                continue
            args, end = call_args(self.text, m.end() - 1)
            rest = self.text[end:end + 200].lstrip()
            line_start = self.text.rfind("\n", 0, m.start()) + 1
            before = self.text[line_start:m.start()]
            if rest.startswith("{") and not before.strip().startswith("#"):
                # a definition: its parameters' names, its body
                body = end + self.text[end:].index("{")
                params = [(re.findall(r"[A-Za-z_]\w*", a) or [None])[-1] for a in args]
                # static in a .c file: its name is the file's alone
                head = self.text[max(0, line_start - 200):m.start()]
                static = path.endswith(".c") and re.search(
                    r"\bstatic\b", re.split(r"[;}]", head)[-1]) is not None
                self.functions.append((m.group(1), params, static, body,
                                       _matching_brace(self.text, body)))
            else:
                self.calls.append((m.group(1), args, m.start()))

    def function_at(self, offset):
        for f in self.functions:
            if f[3] <= offset < f[4]:
                return f
        return None


def _literals(expr):
    return [s for s in STRING.findall(expr) if NAME.match(s)]


def _assigned(text, var):
    """The check-name literals assigned to @var in @text (x = ...; and
    initializers, x[] = { ... })."""
    found = []
    for m in re.finditer(r"\b%s\s*(?:\[[^\]]*\]\s*)*=(?!=)" % re.escape(var), text):
        end = m.end()
        rhs = text[end:]
        if rhs.lstrip().startswith("{"):
            start = end + rhs.index("{")
            found += _literals(text[start:_matching_brace(text, start)])
        else:
            found += _literals(rhs.split(";", 1)[0])
    return found


def _reporters(files):
    """{(file or None, function): {argument index}}: the constructors and
    every function that hands one of its parameters on to a reporter as
    the check (a static function's entry is its file's)."""
    rep = {(None, name): {k} for name, k in CONSTRUCTORS.items()}

    def indexes(f, name):
        return rep.get((f.path, name), set()) | rep.get((None, name), set())

    changed = True
    while changed:
        changed = False
        for f in files:
            for name, params, static, start, end in f.functions:
                key = (f.path if static else None, name)
                for callee, args, at in f.calls:
                    if not start <= at < end:
                        continue
                    for k in indexes(f, callee):
                        if k < len(args) and args[k] in params:
                            i = params.index(args[k])
                            if i not in rep.setdefault(key, set()):
                                rep[key].add(i)
                                changed = True
    return rep


def check_names(roots=None, root=None):
    """{check name: [files that report it]}, sorted by name, of the C
    sources under @roots (default: SOURCE_DIRS of the repository); paths
    relative to @root."""
    root = root or common.ROOT
    roots = roots or [os.path.join(root, d) for d in SOURCE_DIRS]
    files = []
    for path in _source_files(roots):
        with open(path, encoding="utf-8", errors="replace") as fh:
            files.append(CFile(path, fh.read()))
    rep = _reporters(files)
    checks = {}
    for f in files:
        for callee, args, at in f.calls:
            for k in rep.get((f.path, callee), set()) | rep.get((None, callee), set()):
                if k >= len(args):
                    continue
                arg = args[k]
                names = _literals(arg)
                fn = f.function_at(at)
                scope = f.text[fn[3]:fn[4]] if fn else f.text
                if IDENT.match(arg) and not (fn and arg in fn[1]):
                    names += _assigned(scope, arg) or _assigned(f.text, arg)
                elif ELEMENT.match(arg):
                    names += _assigned(f.text, ELEMENT.match(arg).group(1))
                for name in names:
                    where = checks.setdefault(name, [])
                    rel = os.path.relpath(f.path, root)
                    if rel not in where:
                        where.append(rel)
    return dict(sorted(checks.items()))


def sanitizer_names():
    """{name: who reports it} of the failures a sanitizer names, not a
    check: ThreadSanitizer's data race (signatures.py calls it race)."""
    return {signatures.sanitizer_kind("data race"):
            ["ThreadSanitizer's data race report (tools/mlflib/signatures.py)"]}


def bug_rows():
    """[(name, main expect "target check", summary)] of the zoo, by name."""
    rows = []
    for name, bug in bugs.bugs().items():
        expect = "%s %s" % bug.expects[0] if bug.expects else "-"
        rows.append((name, expect, bug.summary))
    return rows


def _print_table(rows, width):
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
            raise common.MlfError("no check names found in %s" % ", ".join(SOURCE_DIRS))
        others = sanitizer_names()
        width = max(len(k) for k in list(checks) + list(others))
        print("Check names reported by the sources (MLF FAILURE: check=NAME), "
              "defined in docs/checks.md:")
        _print_table(checks, width)
        print("Named by a sanitizer's report, not by an MLF FAILURE line:")
        _print_table(others, width)
    return 0


def register(subparsers):
    p = subparsers.add_parser(
        "list", help="list variants or check names",
        description="List the correct variants (CMakeLists.txt), the isolation variants "
                    "(src/mm/reclaim.cmake) and the bug variants with their Summary and "
                    "main Expect: line (zoo/<bug>.patch), or the check names the C "
                    "sources report, with the files that report each (docs/checks.md "
                    "defines them).")
    p.add_argument("what", choices=["variants", "checks"])
    p.set_defaults(func=run)
