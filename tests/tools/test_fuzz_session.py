#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""What `tools/mlf fuzz` says and keeps: resume, coverage, Ctrl-C, flags.

On a stand-in libFuzzer (a script; nothing is compiled):
- --resume does not copy the seeds into the corpus again (the merge had
  dropped some; a resume put them back: 420 files where it left 265);
- the summary's cov is the merged corpus's (the merge's "cov: N ft: M"),
  labelled so, beside the engine's own counters for the session;
- Ctrl-C prints an "interrupted" summary, merges what there is, removes
  tmp/ and exits 130;
- a flag libFuzzer does not know is warned about on the terminal, not only
  in logs/;
- --jobs 1 runs the engine in one process (no -fork=1, whose job restarts
  cost half the rate), started again with the time left after a crash,
  and the summary's exec/s is the engine's time, not the merge's;
- a merge that keeps no input leaves the corpus as it was: a note where
  every input failed in it (a bug variant's corpus of crashes), else a
  failure.
Run standalone: python3 tests/tools/test_fuzz_session.py
"""
import io
import os
import shutil
import signal
import stat
import sys
import tempfile
import threading
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import builds, common, main  # noqa: E402

FAKE = r'''#!/usr/bin/env python3
import os, shutil, signal, sys, time
args = sys.argv[1:]
err = sys.stderr
dirs = [a for a in args if not a.startswith("-")]
with open(os.environ["FAKE_RAN"], "a") as f:
    f.write("%d %s\n" % (len(os.listdir(dirs[-1])), " ".join(args)))
err.write("INFO: Seed: 1\n")
for a in args:
    if a.startswith("-bogus"):
        err.write("WARNING: unrecognized flag '%s'; use -help=1 to list all flags\n" % a)
if "-merge=1" in args and os.environ.get("FAKE_MODE", "").endswith("-merge-keeps-none"):
    # every input crashes the inner run (crash-resistant: status 0), or
    # (lost-) none does and still no file is kept
    if os.environ["FAKE_MODE"] == "crash-merge-keeps-none":
        for i in range(len(os.listdir(dirs[1]))):
            err.write("MERGE-OUTER: attempt %d\n==1== ERROR: libFuzzer: deadly signal\n" % (i + 1))
    else:
        err.write("MERGE-OUTER: attempt 1\n")
    err.write("MERGE-OUTER: 0 new files with 0 new features added; 0 new coverage edges\n")
    sys.exit(0)
if "-merge=1" in args:
    # keeps the first two inputs, as a merge that drops the rest
    for name in sorted(os.listdir(dirs[1]))[:2]:
        shutil.copyfile(os.path.join(dirs[1], name), os.path.join(dirs[0], name))
    err.write("#2\tDONE   cov: 312 ft: 900 exec/s: 0 rss: 30Mb\n")
    err.write("MERGE-OUTER: 2 new files with 900 new features added; 312 new coverage edges\n")
    if os.environ.get("FAKE_MODE") == "slow-merge":
        time.sleep(5)
    sys.exit(0)
if os.environ.get("FAKE_MODE") == "seed-crashes" and "-fork=1" not in args:
    # a seed fails before INITED, into a crash file that is already there
    prefix = [a for a in args if a.startswith("-artifact_prefix=")][0].split("=", 1)[1]
    open(prefix + "crash-0123", "wb").write(b"\1\2\3")
    err.write("MLF FAILURE: check=tail.cache op=3 node=0 gen=0 bin=4 memcg=m1\n  stale\n")
    err.write("==1== ERROR: libFuzzer: deadly signal\n")
    err.write("artifact_prefix='%s'; Test unit written to %scrash-0123\n" % (prefix, prefix))
    sys.exit(77)
if os.environ.get("FAKE_MODE") == "crash-once" and not os.path.exists(os.environ["FAKE_RAN"] + ".c"):
    open(os.environ["FAKE_RAN"] + ".c", "w").close()
    prefix = [a for a in args if a.startswith("-artifact_prefix=")][0].split("=", 1)[1]
    err.write("#10\tINITED cov: 5 ft: 5 corp: 3/3b exec/s: 0 rss: 30Mb\n")
    err.write("MLF FAILURE: check=tail.cache op=3 node=0 gen=0 bin=4 memcg=m1\n  stale\n> rotate m1\n")
    open(prefix + "crash-0123", "wb").write(b"\1\2\3")
    err.write("==1== ERROR: libFuzzer: deadly signal\n")
    err.write("artifact_prefix='%s'; Test unit written to %scrash-0123\n" % (prefix, prefix))
    err.write("stat::number_of_executed_units: 77\n")
    sys.exit(1)
tmp = os.environ.get("TMPDIR")
os.makedirs(os.path.join(tmp, "job1", "C1"), exist_ok=True)
open(os.path.join(tmp, "job1", "C1", "unit"), "wb").write(b"found by a job")
err.write("#1200: cov: 2454 ft: 2600 corp: 3 exec/s 1200 oom/timeout/crash: 0/0/0 "
          "time: 1s job: 1 dft_time: 0\n")
err.flush()
if os.environ.get("FAKE_MODE") == "slow":
    def stop(*_):
        err.write("==1== libFuzzer: run interrupted; exiting\n")
        sys.exit(0)
    signal.signal(signal.SIGINT, stop)
    open(os.environ["FAKE_RAN"] + ".running", "w").close()
    time.sleep(60)
err.write("#2400: cov: 2930 ft: 3000 corp: 3 exec/s 1200 oom/timeout/crash: 0/0/0 "
          "time: 2s job: 2 dft_time: 0\n")
sys.exit(0)
'''


class Session(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mlf-fuzz-session-")
        self.build = os.path.join(self.tmp, "build")
        os.makedirs(os.path.join(self.build, "fuzz"))
        path = os.path.join(self.build, "fuzz", "memcg_lru")
        with open(path, "w", encoding="utf-8") as f:
            f.write(FAKE)
        os.chmod(path, os.stat(path).st_mode | stat.S_IXUSR)
        self.ran = os.path.join(self.tmp, "ran")
        os.environ["FAKE_RAN"] = self.ran
        self.saved = builds.ensure_built
        builds.ensure_built = lambda *a, **k: self.build
        self.camp = os.path.join(self.tmp, "camp")

    def tearDown(self):
        builds.ensure_built = self.saved
        os.environ.pop("FAKE_MODE", None)
        shutil.rmtree(self.tmp)

    def fuzz(self, *more, mode="fuzz"):
        os.environ["FAKE_MODE"] = mode
        out, err = io.StringIO(), io.StringIO()
        with redirect_stdout(out), redirect_stderr(err):
            rc = main.main(["fuzz", "--target", "memcg_lru", "--time", "2", "--status", "0",
                            "--dir", self.camp] + list(more))
        return rc, out.getvalue(), err.getvalue()

    def started_with(self):
        """The corpus size each fuzzing (not merging) run started with."""
        with open(self.ran) as f:
            return [int(line.split()[0]) for line in f if "-merge=1" not in line]

    def test_resume_does_not_reseed(self):
        rc, out, err = self.fuzz()
        self.assertEqual(rc, 0, err)
        corpus = os.path.join(self.camp, "memcg_lru", "corpus")
        left = common.count_files(corpus)
        self.assertEqual(left, 2)
        rc, out, err = self.fuzz("--resume")
        self.assertEqual(rc, 0, err)
        self.assertEqual(self.started_with()[1], left, "the seeds were copied in again")

    def test_cov_is_the_merged_corpus(self):
        rc, out, err = self.fuzz()
        self.assertEqual(rc, 0, err)
        line = [line for line in out.splitlines() if line.startswith("memcg_lru (asan)")][0]
        self.assertIn("cov=312 ft=900 (the merged corpus's, comparable across runs)", line)
        self.assertIn("session cov=2930 ft=3000 (the engine's counters for this run only)",
                      line)

    def test_ctrl_c(self):
        # Ctrl-C once the engine runs (not after a fixed time: a loaded
        # machine may not have started it yet)
        done = threading.Event()

        def interrupt():
            while not done.is_set():
                if os.path.exists(self.ran + ".running"):
                    os.kill(os.getpid(), signal.SIGINT)
                    return
                done.wait(0.05)
        waiter = threading.Thread(target=interrupt)
        waiter.start()
        try:
            rc, out, err = self.fuzz("--time", "30", mode="slow")
        finally:
            done.set()
            waiter.join()
        self.assertEqual(rc, 130, out + err)
        self.assertIn("interrupted", out)
        line = [line for line in out.splitlines() if line.startswith("memcg_lru (asan)")][0]
        self.assertIn("cov=312", line)          # merged
        self.assertIn("interrupted after", line)
        self.assertFalse(os.path.exists(os.path.join(self.camp, "memcg_lru", "tmp")))
        # the job's unit the parent had not merged was kept for the merge
        with open(self.ran) as f:
            self.assertTrue(any("-merge=1" in line for line in f))

    def test_one_process_restarted_after_a_crash(self):
        rc, out, err = self.fuzz("--time", "5", mode="crash-once")
        self.assertEqual(rc, 1, err)  # a new crash
        with open(self.ran) as f:
            runs = [line.split()[1:] for line in f if "-merge=1" not in line]
        self.assertEqual(len(runs), 2, runs)
        for run in runs:
            self.assertFalse([a for a in run if a.startswith("-fork=")], run)
        # the second run has the time that was left
        t = [int(a.split("=")[1]) for run in runs for a in run
             if a.startswith("-max_total_time=")]
        self.assertEqual(t[0], 5)
        self.assertLessEqual(t[1], 5)
        line = [line for line in out.splitlines() if line.startswith("memcg_lru (asan)")][0]
        # both runs' execs: 77 before the crash, 2400 after
        self.assertIn("execs=2477,", line)
        self.assertIn("tail.cache", out)  # signed from the run's own output

    def test_a_seed_that_fails_hands_over_to_fork(self):
        crashes = os.path.join(self.camp, "memcg_lru", "crashes")
        os.makedirs(crashes)
        with open(os.path.join(crashes, "crash-0123"), "wb") as f:
            f.write(b"\1\2\3")
        rc, out, err = self.fuzz("--time", "4", mode="seed-crashes")
        self.assertEqual(rc, 0, out + err)  # no new crash file
        self.assertIn("an input of the corpus fails; the rest of the time under -fork=1", err)
        with open(self.ran) as f:
            runs = [line.split()[1:] for line in f if "-merge=1" not in line]
        self.assertEqual(len(runs), 2, runs)
        self.assertIn("-fork=1", runs[1])

    def test_rate_is_the_engines_time(self):
        rc, out, err = self.fuzz(mode="slow-merge")
        self.assertEqual(rc, 0, err)
        line = [line for line in out.splitlines() if line.startswith("memcg_lru (asan)")][0]
        rate = int(line.split("exec/s=")[1].split(",")[0])
        # 2400 execs: with the 5 s merge counted the rate would be under 480,
        # (only a stand-in run of 5 s, not a loaded machine's 1 s, could fail it)
        self.assertGreater(rate, 2400 / 5, line)

    def test_a_merge_that_keeps_no_input(self):
        corpus = os.path.join(self.camp, "memcg_lru", "corpus")
        rc, out, err = self.fuzz()
        self.assertEqual(rc, 0, err)
        kept = sorted(os.listdir(corpus))
        # every input crashes the merge's inner run: a note, the corpus kept
        rc, out, err = self.fuzz("--resume", mode="crash-merge-keeps-none")
        self.assertEqual(rc, 0, out + err)
        self.assertIn("the merge kept no input, as every one of them fails", err)
        self.assertEqual(sorted(os.listdir(corpus)), kept)
        # no input failed, yet none was kept: the merge failed
        rc, out, err = self.fuzz("--resume", mode="lost-merge-keeps-none")
        self.assertNotEqual(rc, 0, out + err)
        self.assertIn("the merge failed (status 0", out + err)
        self.assertEqual(sorted(os.listdir(corpus)), kept)

    def test_unknown_flag_warning_is_shown(self):
        rc, out, err = self.fuzz("-bogus=1")
        self.assertEqual(rc, 0, err)
        self.assertIn("WARNING: unrecognized flag '-bogus=1'", err)


if __name__ == "__main__":
    unittest.main()
