#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One spelling and one meaning per flag; old spellings still work, with a note.

--runs was repeated campaigns in zoo and libFuzzer -runs in minimize;
--budget (zoo) was fuzz's --time; --tsan (kernel fuzz) was fuzz's
--sanitizer tsan. Here each old spelling parses to what its new one does,
with one deprecation line on stderr, the new spelling with none; `kernel
fuzz --tsan` is `fuzz --sanitizer tsan`; --seed-level is --variant on every
subcommand that builds; and zoo saves into corpus/regressions/ only with
--save. Run standalone: python3 tests/tools/test_flags.py
"""
import io
import os
import sys
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import kernel, main  # noqa: E402

# (old argv, new argv, the attribute both set, its value)
SPELLINGS = [
    (["zoo", "--budget", "7"], ["zoo", "--time", "7"], "time", 7),
    (["minimize", "F", "--runs", "9"], ["minimize", "F", "--byte-runs", "9"], "byte_runs", 9),
    (["zoo", "--no-save"], ["zoo"], "save", False),
]


def parse(argv):
    err = io.StringIO()
    with redirect_stderr(err):
        args, extra = main.build_parser().parse_known_args(argv)
    return args, extra, err.getvalue()


class Flags(unittest.TestCase):
    def test_old_spellings(self):
        for old, new, attr, value in SPELLINGS:
            with self.subTest(old=old):
                a, extra, err = parse(old)
                self.assertEqual(extra, [])
                self.assertEqual(getattr(a, attr), value)
                lines = err.strip().splitlines()
                self.assertEqual(len(lines), 1, err)
                self.assertIn("deprecated", lines[0])
                self.assertIn(old[-1] if old[-1].startswith("--") else old[-2], lines[0])
                b, extra, err = parse(new)
                self.assertEqual(getattr(b, attr), value)
                self.assertEqual(err, "")

    def test_zoo_saves_only_when_asked(self):
        self.assertFalse(parse(["zoo"])[0].save)
        self.assertTrue(parse(["zoo", "--save"])[0].save)

    def test_runs_means_campaigns(self):
        self.assertEqual(parse(["zoo", "--runs", "4"])[0].runs, 4)
        self.assertFalse(hasattr(parse(["minimize", "F"])[0], "runs"))

    def test_kernel_tsan_is_sanitizer(self):
        ran = []
        saved = kernel.subprocess.call
        kernel.subprocess.call = lambda argv: ran.append(argv[2:]) or 0
        try:
            with redirect_stderr(io.StringIO()) as err:
                rc = main.main(["kernel", "fuzz", "--tsan", "--time", "5"])
        finally:
            kernel.subprocess.call = saved
        self.assertEqual(rc, 0)
        self.assertEqual(ran, [["fuzz", "--sanitizer", "tsan", "--time", "5"]])
        self.assertIn("--tsan is deprecated", err.getvalue())

    def test_seed_level_is_variant(self):
        for cmd in (["fuzz"], ["replay", "F"], ["minimize", "F"], ["triage", "D"], ["cov"],
                    ["zoo"], ["explore"], ["stress"], ["build"], ["test"]):
            with self.subTest(cmd=cmd[0]):
                a = parse(cmd + ["--seed-level", "p1-3", "--tree", "T", "--patches", "P"])[0]
                self.assertEqual((a.variant, a.tree, a.patches), ("p1-3", "T", ["P"]))
                self.assertEqual(parse(cmd + ["--variant", "p1-4"])[0].variant, "p1-4")


if __name__ == "__main__":
    unittest.main()
