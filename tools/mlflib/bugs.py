# SPDX-License-Identifier: GPL-2.0
"""The bug zoo: zoo/<bug>.patch files and their headers (zoo/README.md).

A library module (see __init__.py). Each patch starts with a header of
"Field: value" lines (Bug, Summary, Expect, Engine, Memory-model,
Fixed-by, Origin, Variant), then free text, then the diff against src/. Everything in the
CLI that knows a bug variant (its target, the check that must catch it,
the variant it is built on) asks here.
"""
import os
import re

from . import common

ZOO = os.path.join(common.ROOT, "zoo")

FIELD = re.compile(r"^([A-Z][A-Za-z-]*): (.*)$")


class Bug:
    """One bug variant: its name, header fields and description."""

    def __init__(self, name, path):
        self.name = name
        self.path = path
        self.fields = {}        # field -> [values], in order
        self.text = []          # the free text before the diff
        self.files = []         # the files the diff touches (src/...)
        with open(path, encoding="utf-8") as f:
            in_diff = False
            for line in f:
                line = line.rstrip("\n")
                if line.startswith("diff "):
                    in_diff = True
                    self.files.append(line.split()[-1][2:])
                    continue
                if in_diff:
                    continue
                m = FIELD.match(line)
                if m and not self.text:
                    self.fields.setdefault(m.group(1), []).append(m.group(2).strip())
                elif line or self.text:
                    self.text.append(line)
        while self.text and not self.text[-1]:
            self.text.pop()

    def field(self, name, default=None):
        values = self.fields.get(name)
        return values[0] if values else default

    @property
    def summary(self):
        return self.field("Summary", "")

    @property
    def engine(self):
        return self.field("Engine", "sequential")

    @property
    def variant(self):
        """The variant it is built on by default (None: the tree's)."""
        return self.field("Variant")

    @property
    def expects(self):
        """[(target, check)] from its Expect: lines, the first the main one."""
        out = []
        for value in self.fields.get("Expect", []):
            parts = value.split()
            if len(parts) >= 2:
                out.append((parts[0], parts[1]))
        return out

    @property
    def target(self):
        """The target that must catch it (its first Expect: line)."""
        return self.expects[0][0] if self.expects else "memcg_lru"

    @property
    def check(self):
        """The check that target must report."""
        return self.expects[0][1] if self.expects else None

    @property
    def sanitizer(self):
        """The sanitizer it needs (Sanitizer: tsan), or None."""
        return self.field("Sanitizer")

    def expect_for(self, target):
        for t, check in self.expects:
            if t == target:
                return check
        return None


def catches(fired, expected):
    """Whether check @fired is what @expected ("a|b": either) names."""
    return bool(fired) and bool(expected) and fired in expected.split("|")


def bugs():
    """{name: Bug} of every zoo/bug-*.patch, sorted by name."""
    found = {}
    if os.path.isdir(ZOO):
        for name in sorted(os.listdir(ZOO)):
            if name.startswith("bug-") and name.endswith(".patch"):
                found[name[:-6]] = Bug(name[:-6], os.path.join(ZOO, name))
    return found


def get(name):
    """The Bug @name, or None."""
    return bugs().get(name)


def require(name):
    """The Bug @name; a one-line MlfError naming the known ones if none."""
    found = bugs()
    if name not in found:
        raise common.MlfError("unknown bug variant %r (have: %s)" % (name, ", ".join(found)))
    return found[name]
