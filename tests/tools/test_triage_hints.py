#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Triage of corpus/regressions, and the hints `tools/mlf fuzz --bug B` prints.

`tools/mlf triage corpus/regressions/*` used to print "0 crash files, 0
unique failures" and exit 0 (the files are named repro), and */repro ran
on the default variant and counted no-repro as a failure. Here (no binary
runs: the signer is a stand-in that says which build it was asked for):
a regression directory's inputs are triaged on the bug its name is (or
its TARGET's target); no crash file at all is an error; a file that does
not fail is listed apart and is no failure. The hint `tools/mlf minimize
CRASH` of a `--bug B` campaign runs on B, and so do replay and triage of
its crash files, from its campaign.json; and so do they on the campaign's
code under test (its --tree and --patches, as campaign.json records
them), where `tools/mlf kernel fuzz` campaigns used to say no-repro. Run
standalone: python3 tests/tools/test_triage_hints.py
"""
import argparse
import io
import json
import os
import shutil
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import builds, common, main, replay, shrink, signatures, triage  # noqa: E402

REGRESSIONS = os.path.join(common.ROOT, "corpus", "regressions")


class FakeSigner:
    """Fails with the bug's expected check when built with a bug, else does not fail."""

    def __init__(self, target, variant, bug):
        self.target, self.variant, self.bug = target, variant, bug

    def sign(self, path):
        if self.bug:
            return "list.links/del", "found by %s" % self.bug
        return signatures.NO_REPRO, "does not fail when run again (status 0)"

    def save(self):
        pass


class Triage(unittest.TestCase):
    def setUp(self):
        self.asked = []
        self.saved = triage.signer_for

        def signer_for(target, variant, bug, preset, cache_dir, signers, own=None, code=None):
            self.asked.append((target, variant, bug))
            return FakeSigner(target, variant, bug)
        triage.signer_for = signer_for

    def tearDown(self):
        triage.signer_for = self.saved

    def triage(self, *paths):
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            rc = main.main(["triage"] + list(paths))
        return rc, out.getvalue(), err.getvalue()

    def test_regression_dirs_on_their_bugs(self):
        dirs = [os.path.join(REGRESSIONS, n) for n in
                ("bug-stale-tail-on-del", "bug-no-nr-isolated", "walk-gen-in-transit")]
        rc, out, err = self.triage(*dirs)
        self.assertEqual(rc, 0, err)
        self.assertIn(("memcg_lru", None, "bug-stale-tail-on-del"), self.asked)
        self.assertIn(("reclaim", None, "bug-no-nr-isolated"), self.asked)
        self.assertIn(("concurrent", None, None), self.asked)
        last = out.strip().splitlines()[-1]
        # 1 + 1 repro, 3 walk-gen inputs that pass on the correct variant
        self.assertEqual(last, "triage: 5 crash files, 2 unique failures, 3 not reproduced",
                         out)

    def test_repro_files_by_name(self):
        rc, out, err = self.triage(os.path.join(REGRESSIONS, "bug-stale-tail-on-del", "repro"))
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.asked, [("memcg_lru", None, "bug-stale-tail-on-del")])
        self.assertIn("1 crash file, 1 unique failure", out)

    def test_no_crash_files_is_an_error(self):
        empty = tempfile.mkdtemp(prefix="mlf-triage-")
        try:
            rc, out, err = self.triage(empty)
        finally:
            shutil.rmtree(empty)
        self.assertEqual(rc, 2, out)
        self.assertEqual(len(err.strip().splitlines()), 1, err)
        self.assertIn("no crash files", err)


class Hints(unittest.TestCase):
    """A --bug campaign's crash file: minimize, replay and triage run on its bug."""

    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="mlf-hints-")
        self.camp = os.path.join(self.dir, "memcg_lru")
        os.makedirs(os.path.join(self.camp, "crashes"))
        # the campaign's code under test: a user's tree and patch
        self.tree = os.path.join(self.dir, "tree")
        os.makedirs(os.path.join(self.tree, "mm"))
        open(os.path.join(self.tree, "mm", "vmscan.c"), "w").close()
        self.patch = os.path.join(self.dir, "my.patch")
        open(self.patch, "w").close()
        with open(os.path.join(self.camp, "campaign.json"), "w") as f:
            json.dump({"target": "memcg_lru", "engine": "libfuzzer", "sanitizer": "asan",
                       "variant": None, "bug": "bug-stale-tail-on-del", "tree": self.tree,
                       "patches": [self.patch]}, f)
        self.crash = os.path.join(self.camp, "crashes", "crash-0123")
        shutil.copyfile(os.path.join(REGRESSIONS, "bug-stale-tail-on-del", "repro"),
                        self.crash)

    def tearDown(self):
        shutil.rmtree(self.dir)

    def test_minimize_as_printed(self):
        seen = {}

        def minimize(path, target, variant=None, bug=None, runs=20000, code=None,
                     sanitizer=None):
            seen.update(target=target, variant=variant, bug=bug,
                        code=(code.tree, code.patches))
            seen["presets"] = shrink.presets(bug, sanitizer)
            raise common.MlfError("stopped here by the test")
        saved = shrink.minimize
        shrink.minimize = minimize
        try:
            err = io.StringIO()
            with redirect_stderr(err), redirect_stdout(io.StringIO()):
                rc = main.main(["minimize", self.crash])
        finally:
            shrink.minimize = saved
        self.assertEqual(rc, 2)
        self.assertEqual(seen, {"target": "memcg_lru", "variant": None,
                                "bug": "bug-stale-tail-on-del",
                                "code": (self.tree, [self.patch]),
                                "presets": ("dev", "fuzz")}, err.getvalue())

    def test_minimize_a_tsan_campaigns_crash_on_tsan(self):
        """A race only ThreadSanitizer shows, in a user's patch (no zoo bug
        says so): the campaign's sanitizer picks the build."""
        with open(os.path.join(self.camp, "campaign.json")) as f:
            meta = json.load(f)
        meta.update(sanitizer="tsan", bug=None)
        with open(os.path.join(self.camp, "campaign.json"), "w") as f:
            json.dump(meta, f)
        seen = {}

        def minimize(path, target, variant=None, bug=None, runs=20000, code=None,
                     sanitizer=None):
            seen["presets"] = shrink.presets(bug, sanitizer)
            raise common.MlfError("stopped here by the test")
        saved = shrink.minimize
        shrink.minimize = minimize
        try:
            with redirect_stderr(io.StringIO()), redirect_stdout(io.StringIO()):
                main.main(["minimize", self.crash])
        finally:
            shrink.minimize = saved
        self.assertEqual(seen.get("presets"), ("fuzz-tsan", "fuzz-tsan"))

    def test_replay_as_printed(self):
        seen = {}

        def ensure_built(preset, variant=None, bug=None, targets=None, code=None):
            seen.update(variant=variant, bug=bug, code=(code.tree, code.patches))
            raise common.MlfError("stopped here by the test")
        saved = builds.ensure_built
        builds.ensure_built = ensure_built
        try:
            with redirect_stderr(io.StringIO()), redirect_stdout(io.StringIO()):
                rc = main.main(["replay", self.crash])
        finally:
            builds.ensure_built = saved
        self.assertEqual(rc, 2)
        self.assertEqual(seen, {"variant": None, "bug": "bug-stale-tail-on-del",
                                "code": (self.tree, [self.patch])})

    def test_triage_as_printed(self):
        entries = triage.plan([self.camp], argparse.Namespace(target=None))
        self.assertEqual([(e[1], e[3]) for e in entries],
                         [("memcg_lru", "bug-stale-tail-on-del")])
        code = builds.Code.of(argparse.Namespace(tree=None, patches=None), entries[0][5])
        self.assertEqual((code.tree, code.patches), (self.tree, [self.patch]))


if __name__ == "__main__":
    unittest.main()
