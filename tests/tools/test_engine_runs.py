#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A campaign that never ran does not exit 0.

`tools/mlf kernel fuzz --variant p1-3 --target kernel_diff --time 5` used to
pass `--variant p1-3` to libFuzzer, which refused to start, and print
execs=0 with status 0. Here a fake libFuzzer (a script standing in for the
built binary; nothing is compiled) refuses to start, or starts and runs
nothing, or fuzzes: `tools/mlf fuzz` (on the default tree and on a user's
--tree / --patches) and the zoo must fail the first two with the engine's
own error line and exit status 2, keep the campaign's files, and pass the
third; a crash on a user's code is a finding whose hint names --tree and
--patches, as campaign.json records them; flags libFuzzer would not start
with are refused before anything runs; `tools/mlf kernel` is the same
command with the flags moved; and a replay of paths holding no input
fails too. Run standalone: python3 tests/tools/test_engine_runs.py
"""
import io
import json
import os
import shutil
import stat
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import builds, common, engine, kernel, main, zoo  # noqa: E402

REFUSAL = 'ERROR: The required directory "p1-3" does not exist'

# the fake engine: FAKE_LIBFUZZER says how it behaves, FAKE_LIBFUZZER_RAN
# is a file it touches when it is started at all
FAKE = r'''#!/usr/bin/env python3
import os, shutil, sys
open(os.environ["FAKE_LIBFUZZER_RAN"], "a").write(" ".join(sys.argv[1:]) + "\n")
mode = os.environ.get("FAKE_LIBFUZZER", "fuzz")
args = sys.argv[1:]
err = sys.stderr
err.write("INFO: Seed: 1\nINFO: Loaded 1 modules (900 inline 8-bit counters)\n")
if mode == "refuse":
    err.write("INFO: libFuzzer ignores flags that start with '--'\n")
    err.write('ERROR: The required directory "p1-3" does not exist\n')
    sys.exit(1)
if mode == "idle":
    err.write("INFO: -fork=1: fuzzing in separate process(s)\nINFO: exiting: 0 time: 1s\n")
    sys.exit(0)
if "-merge=1" in args:
    dirs = [a for a in args if not a.startswith("-")]
    for name in os.listdir(dirs[1]):
        shutil.copyfile(os.path.join(dirs[1], name), os.path.join(dirs[0], name))
    sys.exit(0)
if mode == "other-check":
    prefix = [a for a in args if a.startswith("-artifact_prefix=")][0].split("=", 1)[1]
    err.write("MLF FAILURE: check=seq.advance op=3 node=0\n  seq stayed at 4\n> release m1\n")
    open(prefix + "crash-0123", "wb").write(b"\1\2\3")
    err.write("==1== ERROR: libFuzzer: deadly signal\nstat::number_of_executed_units: 77\n")
    sys.exit(1)
if mode == "seed-fails" and "-fork=1" not in args:
    # the shipped seed "lifecycle" fails while the corpus loads
    corpus = [a for a in args if not a.startswith("-")][-1]
    seed = os.path.join(corpus, "lifecycle")
    if os.path.exists(seed):
        prefix = [a for a in args if a.startswith("-artifact_prefix=")][0].split("=", 1)[1]
        shutil.copyfile(seed, prefix + "crash-5eed")
        err.write("MLF FAILURE: check=seq.advance op=3 node=0\n  seq stayed at 4\n")
        err.write("==1== ERROR: libFuzzer: deadly signal\n")
        err.write("Test unit written to %scrash-5eed\n" % prefix)
        sys.exit(1)
for n in (1200, 2400):
    err.write("#%d: cov: 41 ft: 52 corp: 3 exec/s 1200 oom/timeout/crash: 0/0/0 "
              "time: 1s job: 1 dft_time: 0\n" % n)
err.write("stat::number_of_executed_units: 2400\nstat::average_exec_per_sec: 1200\n")
sys.exit(0)
'''


class FakeEngine(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mlf-test-engine-")
        self.build = os.path.join(self.tmp, "build")
        os.makedirs(os.path.join(self.build, "fuzz"))
        for name in ("memcg_lru", "concurrent"):
            path = os.path.join(self.build, "fuzz", name)
            with open(path, "w", encoding="utf-8") as f:
                f.write(FAKE)
            os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        self.ran = os.path.join(self.tmp, "ran")
        os.environ["FAKE_LIBFUZZER_RAN"] = self.ran
        self.saved = builds.ensure_built
        builds.ensure_built = lambda *a, **k: self.build
        # a user's tree (a kernel tree's layout is all its check needs) and patch
        self.tree = os.path.join(self.tmp, "tree")
        os.makedirs(os.path.join(self.tree, "mm"))
        open(os.path.join(self.tree, "mm", "vmscan.c"), "w").close()
        self.patch = os.path.join(self.tmp, "my.patch")
        open(self.patch, "w").close()

    def tearDown(self):
        builds.ensure_built = self.saved
        os.environ.pop("FAKE_LIBFUZZER", None)
        shutil.rmtree(self.tmp)

    def mlf(self, mode, *argv):
        """(exit status, stdout, stderr) of tools/mlf ARGV, in this process."""
        os.environ["FAKE_LIBFUZZER"] = mode
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            rc = main.main(list(argv))
        return rc, out.getvalue(), err.getvalue()

    def last_line(self, text):
        return [line for line in text.splitlines() if line.strip()][-1]

    def fuzz(self, mode, *more):
        camp = os.path.join(self.tmp, "camp")
        return self.mlf(mode, "fuzz", "--target", "memcg_lru", "--time", "2", "--status", "0",
                        "--dir", camp, *more), camp

    # tools/mlf fuzz

    def test_fuzz_engine_refuses(self):
        (rc, out, err), camp = self.fuzz("refuse")
        self.assertEqual(rc, 2)
        line = self.last_line(err)
        self.assertTrue(line.startswith("mlf fuzz: memcg_lru (asan): libFuzzer stopped with status 1"),
                        line)
        self.assertIn(REFUSAL, line)
        # nothing lost: the working corpus was seeded and is still there
        self.assertTrue(os.listdir(os.path.join(camp, "memcg_lru", "corpus")))

    def test_fuzz_engine_runs_nothing(self):
        (rc, out, err), _ = self.fuzz("idle")
        self.assertEqual(rc, 2)
        self.assertIn("libFuzzer ran no input", self.last_line(err))

    def test_fuzz_engine_fuzzes(self):
        (rc, out, err), camp = self.fuzz("fuzz")
        self.assertEqual(rc, 0, err)
        self.assertIn("memcg_lru (asan): execs=2400,", out)

    def test_fuzz_concurrent_under_both_builds(self):
        # no --sanitizer: the concurrent target's time split between its
        # ASan and its TSan build, each in its own directory; the summary
        # names each build
        camp = os.path.join(self.tmp, "camp")
        rc, out, err = self.mlf("fuzz", "fuzz", "--target", "concurrent", "--time", "4",
                                "--status", "0", "--dir", camp)
        self.assertEqual(rc, 0, err)
        self.assertIn("concurrent (asan): execs=2400,", out)
        self.assertIn("concurrent (tsan): execs=2400,", out)
        with open(self.ran, encoding="utf-8") as f:
            runs = [line.split() for line in f if "-merge=1" not in line]
        self.assertEqual(len(runs), 2, runs)
        asan, tsan = runs
        self.assertIn("-max_total_time=2", asan)
        self.assertIn("-max_total_time=2", tsan)
        self.assertEqual(asan[-1], os.path.join(camp, "concurrent", "corpus"))
        self.assertEqual(tsan[-1], os.path.join(camp, "concurrent-tsan", "corpus"))
        for d, san in (("concurrent", "asan"), ("concurrent-tsan", "tsan")):
            with open(os.path.join(camp, d, "campaign.json"), encoding="utf-8") as f:
                self.assertEqual(json.load(f)["sanitizer"], san)
        # one build when --sanitizer says which, the whole --time
        os.remove(self.ran)
        rc, out, err = self.mlf("fuzz", "fuzz", "--target", "concurrent", "--time", "4",
                                "--status", "0", "--dir", os.path.join(self.tmp, "c2"),
                                "--sanitizer", "tsan")
        self.assertEqual(rc, 0, err)
        self.assertNotIn("(asan)", out)
        with open(self.ran, encoding="utf-8") as f:
            self.assertIn("-max_total_time=4", f.readline().split())
        # a --time too short to split is one error line, before anything runs
        rc, out, err = self.mlf("fuzz", "fuzz", "--target", "concurrent", "--time", "1",
                                "--status", "0", "--dir", os.path.join(self.tmp, "c3"))
        self.assertEqual(rc, 2)
        self.assertIn("cannot be split", self.last_line(err))
        self.assertFalse(os.path.exists(os.path.join(self.tmp, "c3")))

    def test_fuzz_sets_a_failing_seed_aside(self):
        # a seed that fails as the corpus loads is moved out of the corpus,
        # kept, and the run goes on in one process (under -fork=1 every job
        # loaded it again and failed on it, at a few inputs a second)
        (rc, out, err), camp = self.fuzz("seed-fails")
        self.assertEqual(rc, 1, err)
        aside = os.path.join(camp, "memcg_lru", "failing-seeds", "lifecycle")
        with open(aside, "rb") as a, open(os.path.join(common.CORPUS_DIR, "memcg_lru",
                                                       "lifecycle"), "rb") as b:
            self.assertEqual(a.read(), b.read())
        self.assertFalse(os.path.exists(os.path.join(camp, "memcg_lru", "corpus", "lifecycle")))
        self.assertIn("the seed lifecycle fails", err)
        with open(self.ran) as f:
            runs = [line for line in f if "-merge=1" not in line]
        self.assertEqual(len(runs), 2, runs)
        self.assertFalse([line for line in runs if "-fork=" in line], runs)

    def test_fuzz_wrong_flags_start_nothing(self):
        for flags in (["--jbos", "2"], ["p1-3"]):
            (rc, out, err), camp = self.fuzz("fuzz", *flags)
            self.assertEqual(rc, 2, flags)
            self.assertEqual(len(err.strip().splitlines()), 1, err)
            self.assertFalse(os.path.exists(self.ran), "the engine was started")
            self.assertFalse(os.path.exists(camp), "a campaign directory was made")

    # tools/mlf fuzz on a user's code

    def on_tree(self, mode, *more):
        camp = os.path.join(self.tmp, "kcamp")
        return self.mlf(mode, "fuzz", "--tree", self.tree, "--patches", self.patch,
                        "--target", "memcg_lru", "--time", "5", "--status", "0",
                        "--dir", camp, *more), camp

    def test_tree_fuzz_engine_refuses(self):
        (rc, out, err), _ = self.on_tree("refuse")
        self.assertEqual(rc, 2)
        self.assertIn("memcg_lru (asan): libFuzzer stopped with status 1: " + REFUSAL,
                      self.last_line(err))

    def test_tree_fuzz_engine_runs_nothing(self):
        (rc, out, err), _ = self.on_tree("idle")
        self.assertEqual(rc, 2)
        self.assertIn("libFuzzer ran no input", self.last_line(err))

    def test_tree_fuzz_crash_is_a_finding_and_its_hint_names_the_code(self):
        (rc, out, err), camp = self.on_tree("other-check", "--seed-level", "p1-5")
        self.assertEqual(rc, 1, err)
        hint = [l for l in out.splitlines() if "tools/mlf minimize" in l]
        self.assertEqual(len(hint), 1, out)
        self.assertIn("--tree %s --patches %s --seed-level p1-5 " % (
            common.shown_path(self.tree), common.shown_path(self.patch)), hint[0])
        self.assertNotIn("build/", hint[0])
        with open(os.path.join(camp, "memcg_lru", "campaign.json")) as f:
            meta = json.load(f)
        self.assertEqual((meta["tree"], meta["patches"], meta["variant"]),
                         (self.tree, [self.patch], "p1-5"))

    def test_tree_fuzz_fuzzes(self):
        (rc, out, err), _ = self.on_tree("fuzz")
        self.assertEqual(rc, 0, err)
        self.assertIn("memcg_lru (asan): execs=2400", out)

    def test_kernel_is_the_same_command(self):
        ran = []
        saved = kernel.subprocess.call
        kernel.subprocess.call = lambda argv: ran.append(argv[2:]) or 0
        try:
            rc, out, err = self.mlf("fuzz", "kernel", "--tree", self.tree, "--patches",
                                    self.patch, "fuzz", "--target", "concurrent-p1-5",
                                    "--time", "3")
        finally:
            kernel.subprocess.call = saved
        self.assertEqual(rc, 0, err)
        self.assertEqual(ran, [["fuzz", "--tree", self.tree, "--patches", self.patch,
                                "--seed-level", "p1-5", "--target", "concurrent", "--time",
                                "3"]])
        rc, out, err = self.mlf("fuzz", "kernel", "fuzz", "--target", "kernel_diff")
        self.assertEqual(rc, 2)
        self.assertIn("kernel_diff is retired", err)

    # tools/mlf zoo's runs

    def test_zoo_run_engine_refuses(self):
        os.environ["FAKE_LIBFUZZER"] = "refuse"
        out = os.path.join(self.tmp, "zoo-run")
        os.makedirs(out)
        with redirect_stderr(io.StringIO()):
            with self.assertRaises(common.MlfError) as e:
                zoo.one_run(os.path.join(self.build, "fuzz", "memcg_lru"), "memcg_lru",
                            "tail.cache", out, 5, 1, [])
        self.assertIn(REFUSAL, str(e.exception))

    # tools/mlf replay

    def test_replay_of_nothing_fails(self):
        empty = os.path.join(self.tmp, "empty")
        os.makedirs(empty)
        with open(os.path.join(empty, "README.md"), "w", encoding="utf-8") as f:
            f.write("not an input\n")
        rc, out, err = self.mlf("fuzz", "replay", "--target", "memcg_lru", empty)
        self.assertEqual(rc, 2)
        self.assertIn("holds no input", err)


class Unit(unittest.TestCase):
    def test_not_run(self):
        self.assertIsNone(engine.not_run("libFuzzer", 0, "", 10, False))
        self.assertIsNone(engine.not_run("libFuzzer", 1, "==1==ERROR: AddressSanitizer", 0, True))
        self.assertEqual(engine.not_run("libFuzzer", 1, "INFO: x\n" + REFUSAL + "\n", 0, False),
                         "libFuzzer stopped with status 1: " + REFUSAL)
        self.assertIn("ran no input", engine.not_run("afl-fuzz", 0, "done\n", 0, False))
        afl = "\x1b[1;91m[-] PROGRAM ABORT : \x1b[0mNo instrumentation detected\n" \
              "         Location : check_binary(), src/afl-fuzz-init.c:2893\n"
        self.assertEqual(engine.not_run("afl-fuzz", 1, afl, 0, False),
                         "afl-fuzz stopped with status 1: [-] PROGRAM ABORT : "
                         "No instrumentation detected")

    def test_libfuzzer_args(self):
        engine.check_libfuzzer_args(["-runs=10", "-dict=x", tempfile.gettempdir()], "t")
        for bad in (["--variant", "p1-3"], ["p1-3"], ["--bug=bug-x"]):
            with self.assertRaises(common.MlfError):
                engine.check_libfuzzer_args(bad, "t")


if __name__ == "__main__":
    unittest.main()
