#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""One spelling and one meaning per flag; old spellings still work, with a note.

--runs was repeated campaigns in zoo and libFuzzer -runs in minimize;
--budget (zoo) was fuzz's --time; --tsan (kernel fuzz) was fuzz's
--sanitizer tsan; --jobs N was -fork=N in fuzz and -jobs=N -workers=N in
kernel fuzz. Here each old spelling parses to what its new one does, with
one deprecation line on stderr, the new spelling with none; kernel fuzz
--jobs 2 runs libFuzzer -fork=2 (a stand-in engine: nothing runs); and
zoo saves into corpus/regressions/ only with --save. Run standalone:
python3 tests/tools/test_flags.py
"""
import io
import os
import sys
import tempfile
import shutil
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import engine, kernel, main  # noqa: E402

# (old argv, new argv, the attribute both set, its value)
SPELLINGS = [
    (["zoo", "--budget", "7"], ["zoo", "--time", "7"], "time", 7),
    (["minimize", "F", "--runs", "9"], ["minimize", "F", "--byte-runs", "9"], "byte_runs", 9),
    (["kernel", "fuzz", "--tsan"], ["kernel", "fuzz", "--sanitizer", "tsan"], "sanitizer",
     "tsan"),
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

    def test_kernel_jobs_is_fork(self):
        build = tempfile.mkdtemp(prefix="mlf-flags-")
        out = tempfile.mkdtemp(prefix="mlf-flags-out-")
        try:
            os.makedirs(os.path.join(build, "fuzz"))
            open(os.path.join(build, "fuzz", "memcg_lru_kernel"), "w").close()
            seen = []

            def run_tee(cmd, cwd=None, env=None, stdout=None):
                seen.append([str(c) for c in cmd])
                return 0, "#5000: cov: 10 ft: 20 corp: 3 exec/s 100 oom/timeout/crash: 0/0/0\n"
            saved = engine.run_tee
            engine.run_tee = run_tee
            try:
                args, _, _ = parse(["kernel", "fuzz", "--jobs", "2", "--dir", out])
                with redirect_stdout(io.StringIO()):
                    r = kernel.fuzz_one("memcg_lru", build, args, [], kernel.DEFAULT_TREE)
            finally:
                engine.run_tee = saved
            self.assertIn("-fork=2", seen[0])
            self.assertFalse([a for a in seen[0] if a.startswith(("-jobs=", "-workers="))])
            self.assertEqual(r["execs"], 5000)
        finally:
            shutil.rmtree(build)
            shutil.rmtree(out)


if __name__ == "__main__":
    unittest.main()
