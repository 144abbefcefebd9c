#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""sanitizers/tsan.supp and sanitizers/README.md say the same thing.

Every suppression in tsan.supp has a comment above it with a "Hides:" part
(what the entry hides) and a "Cannot hide a port bug:" part (why that cannot
hide a bug of the port); README.md says how many entries there are and has
a row for each, and no row for an entry that is not there; no entry is
keyed to a symbol whose place depends on the link layout. The checks run
on the shipped files and on broken copies, so that they can fail. Run
standalone: python3 tests/tools/test_tsan_supp.py
"""
import os
import re
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SUPP = os.path.join(ROOT, "sanitizers", "tsan.supp")
README = os.path.join(ROOT, "sanitizers", "README.md")
NUMBERS = {"no": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}


def entries(text):
    """[(entry, the comment block right above it)] of a suppressions file."""
    found, block = [], []
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("#"):
            block.append(line.lstrip("#").strip())
        elif line:
            found.append((line, " ".join(block)))
            block = []
        else:
            block = []
    return found


def problems(supp, readme):
    out = []
    listed = entries(supp)
    for entry, comment in listed:
        if not re.search(r"\bHides: \S", comment):
            out.append("%s: no 'Hides:' saying what it hides" % entry)
        if not re.search(r"\bCannot hide a port bug: \S", comment):
            out.append("%s: no 'Cannot hide a port bug:' saying why" % entry)
    m = re.search(r"`tsan\.supp` has (\w+) entr", readme)
    if not m:
        out.append("README.md does not say how many entries tsan.supp has")
    else:
        said = NUMBERS.get(m.group(1), int(m.group(1)) if m.group(1).isdigit() else None)
        if said != len(listed):
            out.append("README.md says %s entries, tsan.supp has %d" % (m.group(1), len(listed)))
    table = re.search(r"^\| Entry \| Hides \|.*?(?=^\s*$)", readme, re.M | re.S)
    if not table:
        out.append("README.md has no table of the entries (| Entry | Hides | ...)")
    rows = re.findall(r"^\| `([^`]+)` \|", table.group(0) if table else "", re.M)
    for entry, _ in listed:
        if entry not in rows:
            out.append("README.md has no row for %s" % entry)
    for row in rows:
        if row not in [e for e, _ in listed]:
            out.append("README.md has a row for %s, which tsan.supp does not have" % row)
    return out


def layout_keyed(supp):
    """Entries keyed to a symbol the linker makes or places (__TMC_END__,
    __start_<section>, __stop_<section>)."""
    return [e for e, _ in entries(supp)
            if re.search(r"__TMC_END__|__(?:start|stop)_\w", e)]


def read(path):
    with open(path, encoding="utf-8") as f:
        return f.read()


class TsanSupp(unittest.TestCase):
    def test_shipped_files(self):
        self.assertEqual(problems(read(SUPP), read(README)), [])
        self.assertGreaterEqual(len(entries(read(SUPP))), 1)

    def test_an_entry_without_its_why(self):
        supp = read(SUPP) + "\n# Hides: something\nrace:shrink_many\n"
        found = problems(supp, read(README))
        self.assertIn("race:shrink_many: no 'Cannot hide a port bug:' saying why", found)
        self.assertTrue(any("tsan.supp has" in p for p in found), found)
        self.assertIn("README.md has no row for race:shrink_many", found)

    def test_a_stale_count(self):
        readme = re.sub(r"`tsan\.supp` has \w+ entr", "`tsan.supp` has six entr", read(README))
        self.assertTrue(any("says six entries" in p for p in problems(read(SUPP), readme)))

    def test_no_entry_is_keyed_to_the_link_layout(self):
        # libFuzzer's counters have no symbol: TSan names them after the one
        # the linker put before their section, so such an entry stops
        # matching when the layout changes (fuzz/tsan_counters.c instead)
        self.assertEqual(layout_keyed(read(SUPP)), [])
        self.assertEqual(layout_keyed(read(SUPP) + "\n# Hides: x\nrace:__TMC_END__\n"),
                         ["race:__TMC_END__"])
        self.assertEqual(layout_keyed("race:__stop___libfuzzer_extra_counters\n"),
                         ["race:__stop___libfuzzer_extra_counters"])


if __name__ == "__main__":
    unittest.main()
