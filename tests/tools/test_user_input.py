#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""No subcommand answers a path the user got wrong with a Python traceback.

Every subcommand that takes a path is given a missing one, a regular file
where a directory is expected (a directory where a file is), and an
unreadable one (mode 000; when run as root, the command runs as nobody so
that the mode holds). Each must exit non-zero with one line that names
the path, and no traceback. Nothing here builds: each case fails before a
build is needed. Run standalone: python3 tests/tools/test_user_input.py
"""
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MLF = os.path.join(ROOT, "tools", "mlf")

# (argv with P for the path, what P should be: "dir" or "file")
CASES = [
    (["replay", "P"], "file"),
    (["trace", "decode", "P"], "file"),
    (["trace", "encode", "P", "-o", "OUT"], "file"),
    (["trace", "roundtrip", "P"], "file"),
    (["minimize", "P"], "file"),
    (["triage", "P"], "dir"),
    (["fuzz", "--resume", "--dir", "P", "--time", "1"], "dir"),
    (["cov", "--dir", "P"], "dir"),
    (["cov", "--corpus", "P"], "dir"),
    (["cov", "--plot", "P"], "dir"),
    (["kernel", "--tree", "P", "test"], "dir"),
    (["kernel", "--patches", "P", "test"], "file"),
    (["kernel", "replay", "P"], "file"),
    (["zoo", "--json", "P/x.json", "--bugs", "bug-stale-tail-on-del"], "dir"),
]


def as_nobody():
    os.setgid(65534)
    os.setuid(65534)


class UserInput(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mlf-user-input-")
        os.chmod(self.tmp, 0o755)
        self.file = os.path.join(self.tmp, "a-file")
        with open(self.file, "w") as f:
            f.write("not a directory\n")
        self.dir = os.path.join(self.tmp, "a-dir")
        os.mkdir(self.dir)
        self.locked = os.path.join(self.tmp, "locked")
        os.mkdir(self.locked)
        with open(os.path.join(self.locked, "crash-1"), "wb") as f:
            f.write(b"\1\2\3")
        self.locked_file = os.path.join(self.tmp, "locked-file")
        with open(self.locked_file, "wb") as f:
            f.write(b"\1\2\3")
        os.chmod(self.locked, 0)
        os.chmod(self.locked_file, 0)

    def tearDown(self):
        os.chmod(self.locked, 0o755)
        subprocess.run(["rm", "-rf", self.tmp])

    def mlf(self, argv):
        env = dict(os.environ, HOME=self.tmp, PYTHONDONTWRITEBYTECODE="1")
        python = sys.executable
        # root's interpreter may live where nobody cannot reach it
        python = "/usr/bin/python3" if os.geteuid() == 0 else python
        proc = subprocess.run([python, MLF] + argv, capture_output=True, text=True,
                              env=env, cwd=self.tmp, timeout=120,
                              preexec_fn=as_nobody if os.geteuid() == 0 else None)
        return proc.returncode, proc.stdout + proc.stderr

    def check(self, argv, path):
        argv = [os.path.join(self.tmp, "out") if a == "OUT" else a.replace("P", path)
                for a in argv]
        rc, out = self.mlf(argv)
        what = "tools/mlf %s" % " ".join(argv)
        self.assertNotIn("Traceback", out, what)
        self.assertNotEqual(rc, 0, "%s exited 0:\n%s" % (what, out))
        lines = [line for line in out.splitlines() if line.startswith("mlf")]
        self.assertTrue(lines, "%s said no mlf line:\n%s" % (what, out))
        self.assertIn(os.path.basename(path.split("/x.json")[0]), lines[-1],
                      "%s: the line does not name the path:\n%s" % (what, out))

    def test_missing(self):
        for argv, _ in CASES:
            with self.subTest(argv=argv):
                self.check(argv, os.path.join(self.tmp, "missing"))

    def test_wrong_kind(self):
        for argv, kind in CASES:
            with self.subTest(argv=argv):
                self.check(argv, self.file if kind == "dir" else self.dir)

    def test_cov_dir_without_target(self):
        # a campaign of one target: cov takes that one (it died with a
        # FileNotFoundError for the targets the campaign does not have)
        sys.path.insert(0, os.path.join(ROOT, "tools"))
        from mlflib import cov, main
        camp = os.path.join(self.tmp, "camp")
        os.makedirs(os.path.join(camp, "memcg_lru", "corpus"))
        args = main.build_parser().parse_args(["cov", "--dir", camp])
        cov.check_args(args)
        self.assertEqual(args.dir_targets, ["memcg_lru"])
        self.assertEqual(cov.corpus_dirs("memcg_lru", args),
                         [os.path.join(camp, "memcg_lru", "corpus")])

    def test_cov_dir_reads_the_tsan_builds_corpus(self):
        # a campaign's concurrent target has two corpora, one per build:
        # cov covers both (it read DIR/concurrent/corpus alone), and a
        # campaign of the TSan build only is a campaign of the target
        sys.path.insert(0, os.path.join(ROOT, "tools"))
        from mlflib import cov, main
        camp = os.path.join(self.tmp, "camp2")
        os.makedirs(os.path.join(camp, "concurrent-tsan", "corpus"))
        args = main.build_parser().parse_args(["cov", "--dir", camp])
        cov.check_args(args)
        self.assertEqual(args.dir_targets, ["concurrent"])
        os.makedirs(os.path.join(camp, "concurrent", "corpus"))
        self.assertEqual(cov.corpus_dirs("concurrent", args),
                         [os.path.join(camp, "concurrent", "corpus"),
                          os.path.join(camp, "concurrent-tsan", "corpus")])

    def test_unreadable(self):
        for argv, kind in CASES:
            with self.subTest(argv=argv):
                self.check(argv, self.locked if kind == "dir" else self.locked_file)


if __name__ == "__main__":
    unittest.main()
