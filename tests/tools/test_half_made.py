#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Nothing half-made stays behind after an error, and a hunk's error says where.

A hunk that does not apply used to name the hunk but not the line that
differs, and left build/kernel-patched/<hash>.tmp/ behind; a bad --tree
left an empty build directory. Here, on a small tree of its own: the
error names the first line of the file that differs from the hunk and
what the hunk expects there, and no .tmp copy stays; `tools/mlf build
--tree T` of a tree the cut cannot take fails with its one line and
leaves no build directory (the build root is a scratch directory: cmake
configures and stops there, nothing is compiled); a minimization that
fails leaves no work directory. Run standalone:
python3 tests/tools/test_half_made.py
"""
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import common, main, packages, shrink  # noqa: E402

PATCH_TREE = os.path.join(common.ROOT, "kernel", "patch_tree.py")
VMSCAN = "".join("line %d\n" % i for i in range(1, 41))
BAD = """--- a/mm/vmscan.c
+++ b/mm/vmscan.c
@@ -20,4 +20,4 @@
 line 20
 line 21
-line 22x
+line twenty-two
 line 23
"""


class HalfMade(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="mlf-half-made-")
        self.tree = os.path.join(self.work, "tree")
        for rel, text in (("mm/vmscan.c", VMSCAN), ("include/linux/mmzone.h", "mmzone\n"),
                          ("include/linux/list_nulls.h", "ln\n"), ("mm/memcontrol.c", "mc\n"),
                          ("include/linux/rculist_nulls.h", "rln\n")):
            os.makedirs(os.path.dirname(os.path.join(self.tree, rel)), exist_ok=True)
            with open(os.path.join(self.tree, rel), "w") as f:
                f.write(text)

    def tearDown(self):
        shutil.rmtree(self.work)

    def test_hunk_names_the_line_and_leaves_nothing(self):
        patch = os.path.join(self.work, "bad.diff")
        with open(patch, "w") as f:
            f.write(BAD)
        out = os.path.join(self.work, "patched", "abc123")
        proc = subprocess.run([sys.executable, PATCH_TREE, "--tree", self.tree, "--out", out,
                               patch], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 2)
        err = proc.stderr.strip().splitlines()
        self.assertEqual(err, ["mlf kernel: bad.diff: hunk #1 of mm/vmscan.c (@@ -20,4 +20,4 @@) "
                               "does not apply: line 22 reads 'line 22', the hunk expects "
                               "'line 22x'"])
        self.assertFalse(os.path.exists(out + ".tmp"), "the .tmp copy stayed")
        self.assertFalse(os.path.exists(out))

    def test_failed_minimize_leaves_no_work_dir(self):
        class Rep:
            def __init__(self, *a, **k):
                pass

            def run(self, path):
                return "tail.cache/rotate", ""

        def op_minimize(*a):
            raise common.MlfError("the minimized trace lost the signature")
        saved = (shrink.Replayer, shrink.byte_minimize, shrink.op_minimize, tempfile.tempdir)
        shrink.Replayer, shrink.op_minimize = Rep, op_minimize
        shrink.byte_minimize = lambda target, variant, bug, path, *a: path
        tempfile.tempdir = os.path.join(self.work, "scratch")
        os.mkdir(tempfile.tempdir)
        try:
            with self.assertRaises(common.MlfError):
                shrink.minimize(os.path.join(self.tree, "mm/vmscan.c"), "memcg_lru")
            self.assertEqual(os.listdir(tempfile.tempdir), [])
        finally:
            shrink.Replayer, shrink.byte_minimize, shrink.op_minimize, tempfile.tempdir = saved

    def test_bad_tree_leaves_no_build_dir(self):
        # a kernel tree's layout, but not the files the cut reads
        bad = os.path.join(self.work, "bad-tree")
        os.makedirs(os.path.join(bad, "mm"))
        with open(os.path.join(bad, "mm", "vmscan.c"), "w") as f:
            f.write("/* no memcg LRU here */\n")
        build_root = os.path.join(self.work, "build")
        os.mkdir(build_root)
        saved = common.BUILD, packages.ensure_setup
        common.BUILD, packages.ensure_setup = build_root, lambda *a, **k: None
        try:
            out, err = io.StringIO(), io.StringIO()
            with redirect_stdout(out), redirect_stderr(err):
                rc = main.main(["build", "--tree", bad])
        finally:
            common.BUILD, packages.ensure_setup = saved
        self.assertEqual(rc, 2, err.getvalue())
        last = err.getvalue().strip().splitlines()[-1]
        self.assertEqual(last, "mlf build: %s: no include/linux/mmzone.h (is it a kernel "
                               "tree?)" % bad)
        self.assertEqual(os.listdir(build_root), [], "a build directory stayed behind")


if __name__ == "__main__":
    unittest.main()
