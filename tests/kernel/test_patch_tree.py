#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""kernel/patch_tree.py: what it applies, what it refuses, and the seed series.

On a small tree of its own (the files the cut reads): a plain diff applies
at an offset; an mbox of two patches applies in order; a mail thread's
quoted reply is no patch; a hunk that does not apply is one error line
naming the patch, the hunk and the first line that differs, and leaves
nothing; a patch with an adaptation (a file of its name in the series'
adaptations directory) is applied as that when it does not apply as it
is, and says so; a zoo patch's src/ diffs go to a copy of src/ and its
tree diffs are skipped there. With --tree, every level of the seed series
(kernel/series/seed/series) applies to the tree, with exactly the
adaptations --adapted names: Linux 6.12 takes 1/5 and 2/5 adapted,
kernel/trees/v2-base (the base v2 was posted on) none, kernel/trees/mm-new
2/5.

  test_patch_tree.py [--tree TREE [--adapted "[PATCH v2 1/5],..."]]
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
PATCH_TREE = os.path.join(ROOT, "kernel", "patch_tree.py")
SERIES = os.path.join(ROOT, "kernel", "series", "seed", "series")
TREE = None
ADAPTED = None

VMSCAN = "".join("line %d\n" % i for i in range(1, 41))

PLAIN = """--- a/mm/vmscan.c
+++ b/mm/vmscan.c
@@ -5,3 +5,3 @@
 line 10
-line 11
+line eleven
 line 12
"""

MBOX = """From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001
From: A <a@example.org>
Subject: [PATCH 1/2] one

---
--- a/mm/vmscan.c
+++ b/mm/vmscan.c
@@ -1,3 +1,3 @@
 line 1
-line 2
+line two
 line 3
--
2.47.0

From 89abcdef0123456789abcdef0123456789abcdef Mon Sep 17 00:00:00 2001
From: A <a@example.org>
Subject: [PATCH 2/2] two

---
--- a/mm/vmscan.c
+++ b/mm/vmscan.c
@@ -1,4 +1,5 @@
 line 1
 line two
+line two and a half
 line 3
 line 4
--
2.47.0
"""

THREAD = """[PATCH v1 1/1] mm: a change

[Someone]

Text.

---
diff --git a/mm/vmscan.c b/mm/vmscan.c
--- a/mm/vmscan.c
+++ b/mm/vmscan.c
@@ -20,3 +20,3 @@
 line 20
-line 21
+line twenty-one
 line 22
-- 
2.53.0

Re: [PATCH v1 1/1] mm: a change

[Reviewer]

> --- a/mm/vmscan.c
> +++ b/mm/vmscan.c
> @@ -20,3 +20,3 @@
>  line 20
> -line 21
"""

BAD = """--- a/mm/vmscan.c
+++ b/mm/vmscan.c
@@ -30,3 +30,3 @@
 line 30
-line 99
+line ninety-nine
 line 32
"""


class Small(unittest.TestCase):
    def setUp(self):
        self.work = tempfile.mkdtemp(prefix="mlf-patch-tree-")
        self.tree = os.path.join(self.work, "tree")
        for rel, text in (("mm/vmscan.c", VMSCAN), ("include/linux/mmzone.h", "mmzone\n"),
                          ("include/linux/list_nulls.h", "ln\n"), ("mm/memcontrol.c", "mc\n"),
                          ("include/linux/rculist_nulls.h", "rln\n")):
            os.makedirs(os.path.dirname(os.path.join(self.tree, rel)), exist_ok=True)
            with open(os.path.join(self.tree, rel), "w") as f:
                f.write(text)

    def tearDown(self):
        shutil.rmtree(self.work)

    def write(self, name, text):
        path = os.path.join(self.work, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def run_tool(self, *args):
        out = os.path.join(self.work, "out")
        proc = subprocess.run([sys.executable, PATCH_TREE, "--tree", self.tree, "--out", out]
                              + list(args), capture_output=True, text=True)
        return proc, out

    def vmscan(self, out):
        with open(os.path.join(out, "mm/vmscan.c")) as f:
            return f.read().splitlines()

    def test_plain_diff_at_an_offset(self):
        proc, out = self.run_tool(self.write("p.diff", PLAIN))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = self.vmscan(out)
        self.assertEqual(lines[10], "line eleven")
        self.assertEqual(len(lines), 40)

    def test_mbox_in_order_and_a_thread(self):
        proc, out = self.run_tool(self.write("s.mbox", MBOX), self.write("t.txt", THREAD))
        self.assertEqual(proc.returncode, 0, proc.stderr)
        lines = self.vmscan(out)
        self.assertEqual(lines[1:4], ["line two", "line two and a half", "line 3"])
        self.assertIn("line twenty-one", lines)
        self.assertIn("applied 3 patches", proc.stdout)

    def test_a_hunk_that_does_not_apply(self):
        proc, out = self.run_tool(self.write("p.diff", PLAIN), self.write("bad.diff", BAD))
        self.assertEqual(proc.returncode, 2)
        err = proc.stderr.strip().splitlines()
        self.assertEqual(len(err), 1, err)
        self.assertEqual(err[0], "mlf kernel: bad.diff: hunk #1 of mm/vmscan.c "
                                 "(@@ -30,3 +30,3 @@) does not apply: line 31 reads "
                                 "'line 31', the hunk expects 'line 99'")
        self.assertFalse(os.path.exists(os.path.join(out, "mm/vmscan.c")))

    def test_adaptation_when_needed(self):
        series = os.path.join(self.work, "series")
        os.makedirs(os.path.join(self.work, "adapted"))
        self.write("series", "adaptations adapted\nbad.diff\nlevel one\n")
        self.write("bad.diff", BAD)
        self.write("adapted/bad.diff", "Renumbered: line 99 is line 31 here.\n\n" +
                   BAD.replace("-line 99", "-line 31"))
        proc, out = self.run_tool("--series", series, "--level", "one")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertIn("adapted: bad.diff: Renumbered: line 99 is line 31 here.", proc.stdout)
        self.assertIn("line ninety-nine", self.vmscan(out))
        # a patch that applies as it is is not adapted
        self.write("series", "adaptations adapted\np.diff\nlevel one\n")
        self.write("p.diff", PLAIN)
        self.write("adapted/p.diff", "Never used.\n\n" + BAD)
        proc, out = self.run_tool("--series", series, "--level", "one")
        self.assertEqual(proc.returncode, 0, proc.stderr)
        self.assertNotIn("adapted", proc.stdout)
        self.assertIn("line eleven", self.vmscan(out))

    def test_src_diffs_to_a_copy_of_src(self):
        src = os.path.join(self.work, "src")
        os.makedirs(os.path.join(src, "mm"))
        with open(os.path.join(src, "mm", "a.c"), "w") as f:
            f.write("one\ntwo\nthree\n")
        bug = self.write("bug.patch", "Bug: x\n\ndiff --git a/src/mm/a.c b/src/mm/a.c\n"
                         "--- a/src/mm/a.c\n+++ b/src/mm/a.c\n@@ -1,3 +1,3 @@\n one\n-two\n"
                         "+TWO\n three\n" + PLAIN)
        out = os.path.join(self.work, "copy")
        proc = subprocess.run([sys.executable, PATCH_TREE, "--copy", src, "--out", out,
                               "--only", "src/", bug], capture_output=True, text=True)
        self.assertEqual(proc.returncode, 0, proc.stderr)
        with open(os.path.join(out, "mm", "a.c")) as f:
            self.assertEqual(f.read(), "one\nTWO\nthree\n")
        self.assertFalse(os.path.exists(os.path.join(out, "mm", "vmscan.c")))


class Seeds(unittest.TestCase):
    def test_levels(self):
        if not TREE:
            self.skipTest("no kernel tree")
        work = tempfile.mkdtemp(prefix="mlf-seed-levels-")
        try:
            for level, n in (("p1-3", 3), ("p1-4", 4), ("p1-5", 5), ("p1-5-lockrand", 6)):
                proc = subprocess.run([sys.executable, PATCH_TREE, "--tree", TREE,
                                       "--out", os.path.join(work, level), "--series", SERIES,
                                       "--level", level],
                                      capture_output=True, text=True)
                self.assertEqual(proc.returncode, 0, proc.stderr)
                self.assertIn("applied %d patches" % n, proc.stdout)
                adapted = [re.search(r"adapted: (\[PATCH[^\]]*\])", l).group(1)
                           for l in proc.stdout.splitlines() if "adapted:" in l]
                if ADAPTED is not None:
                    self.assertEqual(adapted, ADAPTED, proc.stdout)
        finally:
            shutil.rmtree(work)


if __name__ == "__main__":
    p = argparse.ArgumentParser()
    p.add_argument("--tree")
    p.add_argument("--adapted", help="the patches the tree must take adapted, "
                                     "comma-separated (\"\": none, every one as posted)")
    args, rest = p.parse_known_args()
    TREE = args.tree
    if args.adapted is not None:
        ADAPTED = [a for a in args.adapted.split(",") if a]
    unittest.main(argv=[sys.argv[0]] + rest, verbosity=2)
