#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The CLI knows bug variants from zoo/<bug>.patch and nowhere else.

- variants.check(): an unknown bug is one line naming the known ones; a bug
  of the reclaim target refuses an isolation variant other than its own.
- tools/mlf zoo: a run is caught only when the check of the patch's
  Expect: line fires; a run stopped by another check is not caught and is
  reported with that check (a fake libFuzzer stands in for the build); a
  data race catches "race" only in the code under test (TSan's reports of
  tests/tools/tsan_reports: the port's catches, the harness's and one on
  libFuzzer's counters fire "harness").
- regression directories: a bug-* directory's target and check come from
  its patch (with no TARGET or EXPECT file: checked on a copy of
  corpus/regressions without them), others' from a TARGET file, else
  memcg_lru; corpus/regressions as a whole is split by directory.
- filing a reproducer: a bug-* directory gets no TARGET or EXPECT file and
  must match its patch, another name gets TARGET unless memcg_lru, nothing
  is ever overwritten.
- `tools/mlf list variants` prints each bug's main Expect: and Summary.
- the zoo's ctests' judge (tests/tools/judge.py): the first report, as
  tools/mlf zoo judges it, and a race only after the first input.
- historical bugs: a Fixed-by: that starts with an upstream commit hash
  makes one; tools/mlf zoo --historical runs exactly those, each with an
  Engine:, and docs/historical.md has a row for each of their commits.
Run standalone: python3 tests/tools/test_zoo.py
"""
import io
import os
import shutil
import stat
import sys
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import bugs, common, main, regressions, variants, zoo  # noqa: E402

ZOO = bugs.bugs()


class Variants(unittest.TestCase):
    def test_unknown_bug_names_the_known_ones(self):
        with self.assertRaises(common.MlfError) as e:
            variants.check(None, "bug-nope")
        msg = str(e.exception)
        self.assertNotIn("\n", msg)
        for name in ZOO:
            self.assertIn(name, msg)

    def test_reclaim_bug_keeps_its_isolation_variant(self):
        reclaim = [b for b in ZOO.values() if b.expect_for("reclaim")]
        self.assertTrue(reclaim)
        isos, default = variants.iso()
        for b in reclaim:
            own = b.variant or default
            variants.check(None, b.name)
            variants.check(own, b.name)
            for other in isos:
                if other != own:
                    with self.assertRaises(common.MlfError) as e:
                        variants.check(other, b.name)
                    self.assertIn("drop --variant", str(e.exception))
        # a memcg_lru bug takes any variant
        variants.check("iso-count", "bug-stale-tail-on-del")
        variants.check("p1-3", "bug-stale-tail-on-del")


FAKE = r'''#!/usr/bin/env python3
import os, sys
check = os.environ["FAKE_CHECK"]
prefix = [a for a in sys.argv if a.startswith("-artifact_prefix=")][0].split("=", 1)[1]
if os.environ.get("FAKE_REPORT"):
    # a sanitizer's report in place of the check's
    sys.stderr.write("INFO: Seed: 1\n" + open(os.environ["FAKE_REPORT"]).read() +
                     "stat::number_of_executed_units: 321\n")
else:
    sys.stderr.write("INFO: Seed: 1\nMLF FAILURE: check=%s op=2 node=0\n  what was found\n"
                     "> rotate m1 n0 OLD bin=3\n==9== ERROR: libFuzzer: deadly signal\n"
                     "stat::number_of_executed_units: 321\n" % check)
open(prefix + "crash-abcdef", "wb").write(b"\0\1")
sys.exit(1)
'''


class ZooRuns(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mlf-test-zoo-")
        self.binary = os.path.join(self.tmp, "memcg_lru")
        with open(self.binary, "w", encoding="utf-8") as f:
            f.write(FAKE)
        os.chmod(self.binary, os.stat(self.binary).st_mode | stat.S_IXUSR)

    def tearDown(self):
        os.environ.pop("FAKE_CHECK", None)
        os.environ.pop("FAKE_REPORT", None)
        shutil.rmtree(self.tmp)

    def one(self, fired, expected, k):
        os.environ["FAKE_CHECK"] = fired
        out = os.path.join(self.tmp, "run%d" % k)
        os.makedirs(out)
        with redirect_stderr(io.StringIO()):
            return zoo.one_run(self.binary, "memcg_lru", expected, out, 5, 1, [])

    def test_the_expected_check_is_caught(self):
        bug = ZOO["bug-stale-tail-on-del"]
        r = self.one("tail.cache", bug.expect_for("memcg_lru"), 1)
        self.assertTrue(r["caught"])
        self.assertEqual((r["check"], r["execs"]), ("tail.cache", 321))

    def test_another_check_is_not_caught(self):
        bug = ZOO["bug-stale-tail-on-del"]
        r = self.one("seq.advance", bug.expect_for("memcg_lru"), 2)
        self.assertFalse(r["caught"])
        self.assertEqual(r["check"], "seq.advance")
        self.assertEqual(r["signature"], "seq.advance/rotate")

    def test_the_table_says_what_fired_instead(self):
        row = {"name": "bug-stale-tail-on-del", "target": "memcg_lru", "expect": "tail.cache",
               "caught_runs": 1, "runs": [{}, {}, {}], "other_checks": {"seq.advance": 2},
               "median_seconds": 0.5, "median_execs": 100}
        out = io.StringIO()
        with redirect_stdout(out):
            zoo.print_table([row])
        line = out.getvalue().strip().splitlines()[-1]
        self.assertIn("1/3", line)
        self.assertIn("tail.cache", line)
        self.assertIn("seq.advance x2", line)

    def test_a_race_catches_only_in_the_code_under_test(self):
        reports = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tsan_reports")
        bug = ZOO["bug-publish-before-init"]
        expected = bug.expect_for("concurrent")
        self.assertEqual(expected, "race")
        for k, (name, caught, fired) in enumerate((
                ("port-publish-before-init.txt", True, "race"),
                ("harness.txt", False, "harness"),
                ("counters.txt", False, "harness"))):
            os.environ["FAKE_REPORT"] = os.path.join(reports, name)
            r = self.one("-", expected, 10 + k)
            self.assertEqual((r["caught"], r["check"]), (caught, fired), name)
        # the table names the two lines of the race
        row = {"name": bug.name, "target": "concurrent", "expect": expected, "caught_runs": 0,
               "runs": [r], "other_checks": {"harness": 1}, "median_seconds": None,
               "median_execs": None}
        out = io.StringIO()
        with redirect_stdout(out):
            zoo.print_table([row])
        self.assertIn("harness x1", out.getvalue())
        self.assertIn("src/kernel/sanitizer.h:56 (mlf_tsan_ignore_begin, harness)", out.getvalue())

    def test_preset_follows_the_sanitizer(self):
        for b in ZOO.values():
            self.assertEqual(zoo.preset_of(b),
                             "fuzz-tsan" if b.field("Sanitizer") == "tsan" else "fuzz", b.name)

    def test_either_of_two_expected_checks_catches(self):
        self.assertTrue(bugs.catches("vm.warn", "rcu.stale|vm.warn"))
        self.assertTrue(bugs.catches("rcu.stale", "rcu.stale|vm.warn"))
        self.assertFalse(bugs.catches("rcu.uaf", "rcu.stale|vm.warn"))
        self.assertFalse(bugs.catches("rcu", "rcu.stale|vm.warn"))
        self.assertFalse(bugs.catches(None, "rcu.stale"))


class CtestJudge(unittest.TestCase):
    """tests/tools/judge.py, what zoo/<bug>/empty-corpus and
    regression/<bug>/caught run: zoo.judge() on the first report, and for
    a race more than one input."""

    def setUp(self):
        sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
        import judge
        self.judge = judge
        reports = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tsan_reports")
        with open(os.path.join(reports, "port-publish-before-init.txt"), encoding="utf-8") as f:
            self.port = f.read()
        with open(os.path.join(reports, "counters.txt"), encoding="utf-8") as f:
            self.counters = f.read()

    def test_a_race_on_the_first_input_fails(self):
        stats = "stat::number_of_executed_units: %d\n"
        ok, why = self.judge.verdict(self.port + stats % 1, "race", 2)
        self.assertFalse(ok)
        self.assertIn("caught in 1 input", why)
        ok, why = self.judge.verdict(self.port + stats % 156, "race", 2)
        self.assertTrue(ok, why)
        self.assertIn("zoo/bug-publish-before-init/src/mm/vmscan.c:168", why)
        # no figure at all: not proven
        self.assertFalse(self.judge.verdict(self.port, "race", 2)[0])

    def test_a_harness_race_never_catches(self):
        for n in (1, 500):
            ok, why = self.judge.verdict(
                self.counters + "stat::number_of_executed_units: %d\n" % n, "race", 2)
            self.assertFalse(ok)
            self.assertIn("harness fired, not race", why)

    def test_a_check_is_judged_by_the_first_report(self):
        text = ("MLF FAILURE: check=lin.final node=0\n  what\n" + self.port)
        self.assertTrue(self.judge.verdict(text, "race|lin.final")[0])
        self.assertFalse(self.judge.verdict(text, "race")[0])
        self.assertFalse(self.judge.verdict("Done 10 runs\n", "race")[0])


class Historical(unittest.TestCase):
    def test_upstream_fix_is_a_leading_hash(self):
        self.assertEqual(zoo.upstream_fix(ZOO["bug-release-spin"]), "6867c7a33206")
        self.assertEqual(zoo.upstream_fix(ZOO["bug-lock-not-irqsafe"]), "814bc1de03ea")
        # a seed patch, and a bug of our own making, did not ship
        self.assertIsNone(zoo.upstream_fix(ZOO["bug-shadow-lru-size"]))
        self.assertIsNone(zoo.upstream_fix(ZOO["bug-stale-tail-on-del"]))

    def test_historical_bugs_say_their_engine_and_are_documented(self):
        names = zoo.historical(ZOO)
        self.assertIn("bug-release-spin", names)
        with open(os.path.join(common.ROOT, "docs", "historical.md"), encoding="utf-8") as f:
            doc = f.read()
        for n in names:
            bug = ZOO[n]
            self.assertIn(bug.field("Engine"), ("sequential", "scheduled"), n)
            self.assertNotIn("Origin", bug.fields, n)
            self.assertIn(zoo.upstream_fix(bug), doc, n)
            self.assertIn(n, doc, n)

    def test_historical_runs_exactly_those(self):
        seen = []

        def fake_zoo_one(bug, target, args, extra):
            seen.append(bug.name)
            return {"name": bug.name, "target": target, "expect": bug.expect_for(target),
                    "engine": bug.engine, "fixed_by": zoo.upstream_fix(bug), "caught": True,
                    "caught_runs": 1, "runs": [{}], "other_checks": {},
                    "median_seconds": 1.0, "median_execs": 10}
        saved = zoo.zoo_one
        zoo.zoo_one = fake_zoo_one
        try:
            out = io.StringIO()
            with redirect_stdout(out):
                self.assertEqual(main.main(["zoo", "--historical", "--runs", "1"]), 0)
        finally:
            zoo.zoo_one = saved
        self.assertEqual(sorted(set(seen)), sorted(zoo.historical(ZOO)))
        table = out.getvalue()
        self.assertIn("fixed by", table)
        self.assertIn("6867c7a33206", table)
        self.assertIn("docs/historical.md", table)

    def test_historical_and_bugs_is_one_error_line(self):
        err = io.StringIO()
        with redirect_stderr(err):
            rc = main.main(["zoo", "--historical", "--bugs", "bug-release-spin"])
        self.assertNotEqual(rc, 0)
        lines = [x for x in err.getvalue().splitlines() if x.strip()]
        self.assertEqual(len(lines), 1, err.getvalue())
        self.assertIn("--historical", lines[0])


class Regressions(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mlf-test-regressions-")
        self.saved = regressions.REGRESSIONS
        # a copy of the shipped directories without their TARGET / EXPECT files
        self.copy = os.path.join(self.tmp, "corpus", "regressions")
        shutil.copytree(self.saved, self.copy)
        for d in os.listdir(self.copy):
            for marker in ("TARGET", "EXPECT"):
                if d.startswith("bug-") and os.path.exists(os.path.join(self.copy, d, marker)):
                    os.remove(os.path.join(self.copy, d, marker))

    def tearDown(self):
        regressions.REGRESSIONS = self.saved
        shutil.rmtree(self.tmp)

    def test_every_bug_directory_is_its_patches(self):
        for d in sorted(os.listdir(self.copy)):
            if not d.startswith("bug-"):
                continue
            self.assertIn(d, ZOO, "corpus/regressions/%s has no zoo/%s.patch" % (d, d))
            path = os.path.join(self.copy, d)
            self.assertEqual(regressions.dir_target(path), ZOO[d].target, d)
            self.assertEqual(regressions.guess_target(os.path.join(path, "repro")),
                             ZOO[d].target, d)

    def test_shipped_directories_have_no_expect_file(self):
        for d in sorted(os.listdir(self.saved)):
            self.assertFalse(os.path.exists(os.path.join(self.saved, d, "EXPECT")),
                             "corpus/regressions/%s/EXPECT: the patch says the check" % d)

    def test_shipped_target_files_agree_with_the_patches(self):
        # while mlf-trace and kernel/CMakeLists.txt still read them
        for d in sorted(os.listdir(self.saved)):
            marker = os.path.join(self.saved, d, "TARGET")
            if d in ZOO and os.path.exists(marker):
                with open(marker, encoding="utf-8") as f:
                    self.assertEqual(f.read().strip(), ZOO[d].target, d)

    def test_other_directories_by_target_file(self):
        other = os.path.join(self.copy, "found-by-hand")
        os.makedirs(other)
        open(os.path.join(other, "repro"), "wb").close()
        self.assertEqual(regressions.guess_target(os.path.join(other, "repro")), "memcg_lru")
        with open(os.path.join(other, "TARGET"), "w", encoding="utf-8") as f:
            f.write("reclaim\n")
        self.assertEqual(regressions.guess_target(os.path.join(other, "repro")), "reclaim")

    def test_regressions_as_a_whole(self):
        groups = regressions.group(self.copy)
        by_dir = {}
        for target, files in groups:
            for f in files:
                by_dir.setdefault(os.path.basename(os.path.dirname(f)), set()).add(target)
        for d, found in by_dir.items():
            self.assertEqual(len(found), 1, d)
            if d in ZOO:
                self.assertEqual(found, {ZOO[d].target}, d)
        self.assertIn("reclaim", {t for t, _ in groups})
        for _, files in groups:
            for f in files:
                self.assertNotIn(os.path.basename(f), ("FLAKY", "repro.trace"))

    def save(self, name, target, check, trace=None):
        regressions.REGRESSIONS = os.path.join(self.tmp, "filed")
        best = os.path.join(self.tmp, "best")
        with open(best, "wb") as f:
            f.write(b"\1\2")
        return regressions.save(name, target, best, trace, check=check)

    def test_filing_a_bug_reproducer(self):
        dest = self.save("bug-no-nr-isolated", "reclaim", "isolated.exact", "trace\n")
        self.assertEqual(sorted(os.listdir(dest)), ["repro", "repro.trace"])
        with self.assertRaises(common.MlfError) as e:
            self.save("bug-no-nr-isolated", "reclaim", "isolated.exact")
        self.assertIn("not overwriting", str(e.exception))
        with open(os.path.join(dest, "repro"), "rb") as f:
            self.assertEqual(f.read(), b"\1\2")

    def test_filing_refuses_what_the_patch_does_not_say(self):
        for name, target, check, why in (
                ("bug-stale-tail-on-del", "memcg_lru", "seq.advance", "expects tail.cache"),
                ("bug-stale-tail-on-del", "reclaim", "tail.cache", "is a memcg_lru input"),
                ("bug-nope", "memcg_lru", "tail.cache", "no zoo/bug-nope.patch")):
            with self.assertRaises(common.MlfError) as e:
                self.save(name, target, check)
            self.assertIn(why, str(e.exception))
            self.assertFalse(os.path.exists(os.path.join(regressions.REGRESSIONS, name)))

    def test_filing_another_name(self):
        dest = self.save("stale-after-offline", "reclaim", "isolated.exact")
        with open(os.path.join(dest, "TARGET"), encoding="utf-8") as f:
            self.assertEqual(f.read(), "reclaim\n")
        dest = self.save("found-by-hand", "memcg_lru", "tail.cache")
        self.assertEqual(os.listdir(dest), ["repro"])


class ListVariants(unittest.TestCase):
    def test_summary_and_main_expect(self):
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(main.main(["list", "variants"]), 0)
        lines = out.getvalue().splitlines()
        for name, bug in ZOO.items():
            line = [x for x in lines if x.split()[:1] == [name]]
            self.assertEqual(len(line), 1, name)
            target, check = bug.expects[0]
            self.assertIn("%s %s" % (target, check), line[0])
            self.assertTrue(bug.summary and bug.summary in line[0], line[0])


if __name__ == "__main__":
    unittest.main()
