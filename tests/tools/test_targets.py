#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every fact of the CLI about fuzz targets comes from fuzz/targets.json.

The table is swapped for made-up ones (targets._table) and the CLI must
follow: the default campaign is the "campaign": true targets in table order
(and, under --sanitizer tsan, those meant for it; without --sanitizer each
under every build it is meant for, --time split), which files are inputs
follows "inputs", a path's target is any target of the table, the traced
targets are those with a "trace", and `tools/mlf corpus` refuses a table
whose targets and its generators disagree. No module but targets.py may
spell a trace's magic line or the input-file suffixes. Run standalone:
python3 tests/tools/test_targets.py
"""
import copy
import io
import os
import re
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import common, corpus, fuzz, main, regressions, targets  # noqa: E402

PACKAGE = os.path.join(common.ROOT, "tools", "mlflib")


class Table(unittest.TestCase):
    def setUp(self):
        self.real = targets.table()
        self.table = copy.deepcopy(self.real)

    def tearDown(self):
        targets._table = self.real

    def use(self):
        targets._table = self.table

    def entry(self, name):
        return [t for t in self.table["targets"] if t["name"] == name][0]

    def campaign_of(self, *argv):
        """The targets `tools/mlf fuzz ARGV` would fuzz, in order (nothing runs)."""
        chosen = []

        self.runs = []

        def fake(target, sanitizer, seconds, args, extra):
            self.runs.append((target, sanitizer, seconds))
            if not chosen or chosen[-1] != target:
                chosen.append(target)
            return {"target": target, "build": sanitizer, "dir": "/nowhere",
                    "execs": 1, "seconds": 1, "corpus": 0, "cov": 0, "crashes": [],
                    "new": [], "groups": [], "rc": 0, "error": None}

        saved = fuzz.fuzz_one
        fuzz.fuzz_one = fake
        try:
            with redirect_stdout(io.StringIO()), redirect_stderr(io.StringIO()):
                self.assertEqual(main.main(["fuzz", "--time", "2"] + list(argv)), 0)
        finally:
            fuzz.fuzz_one = saved
        return chosen

    def test_default_campaign(self):
        self.assertEqual(self.campaign_of(), targets.campaign())
        self.table["targets"].reverse()
        self.entry("nulls_list")["campaign"] = False
        self.use()
        want = [t["name"] for t in self.table["targets"] if t["name"] != "nulls_list"]
        self.assertEqual(self.campaign_of(), want)
        self.assertEqual(self.campaign_of("--sanitizer", "tsan"), ["concurrent"])
        self.assertEqual(self.runs, [("concurrent", "tsan", 2)])

    def test_default_campaign_splits_between_builds(self):
        # each target under every build the table means it for, --time split
        self.campaign_of()
        for t in targets.campaign():
            meant = targets.get(t)["sanitizers"]
            mine = [(san, sec) for tt, san, sec in self.runs if tt == t]
            self.assertEqual([san for san, _ in mine], meant, t)
            self.assertEqual(sum(sec for _, sec in mine), 2, t)
        self.assertIn(("concurrent", "asan", 1), self.runs)
        self.assertIn(("concurrent", "tsan", 1), self.runs)
        self.campaign_of("--sanitizer", "asan")
        self.assertIn(("concurrent", "asan", 2), self.runs)
        self.assertNotIn("tsan", [san for _, san, _ in self.runs])

    def test_input_files(self):
        tmp = tempfile.mkdtemp(prefix="mlf-test-targets-")
        try:
            for name in ("a", "a.trace", "b.note", "TARGET", "README.md", ".hidden"):
                open(os.path.join(tmp, name), "w").close()
            names = lambda: sorted(os.path.basename(p) for p in targets.input_files(tmp))
            self.assertEqual(names(), ["a", "b.note"])
            self.table["inputs"]["skip_suffixes"].append(".note")
            self.use()
            self.assertEqual(names(), ["a"])
        finally:
            shutil.rmtree(tmp)

    def test_a_new_target_is_known_by_path(self):
        path = os.path.join(common.CORPUS_DIR, "xattr_lru", "seed-1")
        self.assertIsNone(regressions.guess_target(path))
        self.table["targets"].append(dict(self.entry("nulls_list"), name="xattr_lru"))
        self.use()
        self.assertEqual(regressions.guess_target(path), "xattr_lru")

    def test_traced_targets(self):
        self.assertEqual(targets.with_trace(), ["memcg_lru", "concurrent", "reclaim"])
        self.entry("reclaim")["trace"] = None
        self.use()
        self.assertEqual(targets.with_trace(), ["memcg_lru", "concurrent"])
        err = io.StringIO()
        with redirect_stderr(err):
            rc = main.main(["trace", "decode", "--target", "reclaim", "x"])
        self.assertEqual(rc, 2)
        self.assertIn("no trace for target 'reclaim' (have: memcg_lru, concurrent)", err.getvalue())

    def test_every_target_has_a_generator(self):
        corpus.check_generators()
        self.assertEqual(sorted(corpus.GENERATORS), sorted(targets.names()))
        made_up = copy.deepcopy(self.entry("nulls_list"))
        made_up["name"] = "xattr_lru"
        self.table["targets"].append(made_up)
        self.use()
        with self.assertRaises(common.MlfError) as e:
            corpus.check_generators()
        self.assertIn("no seeds generator for xattr_lru", str(e.exception))
        self.table = copy.deepcopy(self.real)
        self.table["targets"] = [t for t in self.table["targets"] if t["name"] != "reclaim"]
        self.use()
        with self.assertRaises(common.MlfError) as e:
            corpus.check_generators()
        self.assertIn("a generator for no target: reclaim", str(e.exception))


class Sources(unittest.TestCase):
    def test_no_copy_of_the_table(self):
        facts = [t["trace"] for t in targets.targets().values() if t.get("trace")]
        facts.append(", ".join('"%s"' % s for s in targets.table()["inputs"]["skip_suffixes"]))
        for fname in sorted(os.listdir(PACKAGE)):
            if not fname.endswith(".py") or fname == "targets.py":
                continue
            with open(os.path.join(PACKAGE, fname), encoding="utf-8") as f:
                text = f.read()
            for fact in facts:
                self.assertFalse(fact in text, "%s repeats %r of fuzz/targets.json" % (fname, fact))
            self.assertFalse(re.search(r"^(TRACE_MAGIC|SKIP_SUFFIXES|TRACE_TARGETS)\s*=", text,
                                       re.M), fname)


if __name__ == "__main__":
    unittest.main()
