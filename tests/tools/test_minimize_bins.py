#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The minimizer writes bins in the trace's own terms.

A draw byte reads as byte % ceil (src/kernel/random.h), so an online with
draw=36 goes to bin 4, and the failure line says bin=4 while the minimized
trace said draw=36. Here a stand-in replayer (no binary runs; it prints
bin= for draws below 8 as mlf-trace does, and fails while some online
lands in bin 4) is minimized: the result says bin=4, and a draw that the
failure needs as it is (the reclaim target's 36, read with another ceil)
stays. Run standalone: python3 tests/tools/test_minimize_bins.py
"""
import os
import re
import shutil
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import shrink, targets  # noqa: E402

SIG = "tail.cache/rotate"


class FakeReplayer:
    target = "memcg_lru"

    def __init__(self, needs_raw=False):
        self.files = {}
        self.needs_raw = needs_raw

    def canonical(self, text):
        def fix(m):
            vals = [int(v) for v in m.group(2).split(",")]
            word = "bin" if all(v < 8 for v in vals) else "draw"
            return "%s%s=%s" % (word, "s" if "," in m.group(2) else "", m.group(2))
        return re.sub(r"\b(draws?|bins?)=([\d,]+)", fix, text)

    def decode(self, path):
        return self.files[path]

    def encode(self, text, out):
        assert isinstance(out, str) and os.path.isabs(out), "encode() into %r" % (out,)
        magic = targets.trace_magic(self.target)
        if not text.startswith(magic + "\n"):
            text = magic + "\n" + text
        self.files[out] = self.canonical(text)

    def run(self, path):
        text = self.files[path]
        lands = [int(m) % 8 for m in re.findall(r"^online m\d+ (?:bin|draw)=(\d+)", text, re.M)]
        raw = re.search(r"^online m\d+ draw=36$", text, re.M)
        ok = 4 in lands and (raw if self.needs_raw else True)
        return (SIG if ok else ""), ""


class Bins(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="mlf-bins-")

    def tearDown(self):
        shutil.rmtree(self.work)

    def minimize(self, rep):
        start = os.path.join(self.work, "start")
        rep.files[start] = "%s\nnodes 1 pool 4\nonline m2 draw=36\nonline m3 bin=1\n" \
            % targets.trace_magic("memcg_lru")
        text, _ = shrink.op_minimize(rep, start, SIG, self.work)
        return text

    def test_bin_in_the_failures_terms(self):
        text = self.minimize(FakeReplayer())
        self.assertIn("online m0 bin=4", text)
        self.assertNotIn("draw=36", text)

    def test_a_draw_the_failure_needs_stays(self):
        text = self.minimize(FakeReplayer(needs_raw=True))
        self.assertIn("draw=36", text)


if __name__ == "__main__":
    unittest.main()
