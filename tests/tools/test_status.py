#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The status line of `tools/mlf fuzz` tells the truth about exec/s.

libFuzzer -fork reports (a "#N: cov: ..." line) when a job ends, which is
rarer than the status line: the line used to show "exec/s 0" at every tick
without a new report. Fed fake engine reports on a fake clock, the status
line must show the rate over the last interval in which the engine
reported, say how old that is, and say when the engine has not reported
yet; stats.csv must carry the same rate. AFL++'s fuzzer_stats (rewritten
now and then) must behave the same. Run standalone:
python3 tests/tools/test_status.py
"""
import csv
import io
import os
import shutil
import sys
import tempfile
import time
import unittest
from contextlib import redirect_stdout

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import campaign  # noqa: E402


class Clock:
    def __init__(self):
        self.now = 1000.0

    def __call__(self):
        return self.now


class NoCrashes:
    def unique(self, files):
        return 0, 0


def fork_line(execs):
    # what libFuzzer 14 -fork prints when a job ends
    return ("#%d: cov: 412 ft: 1536 corp: 97 exec/s %d oom/timeout/crash: 0/0/0 "
            "time: 9s job: 3 dft_time: 0\n" % (execs, execs // 9))


class Status(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.mkdtemp(prefix="mlf-test-status-")
        self.camp = campaign.Campaign(self.dir, "trace_parser")
        os.makedirs(self.camp.crashes)
        os.makedirs(self.camp.corpus)
        self.clock = Clock()

    def tearDown(self):
        shutil.rmtree(self.dir)

    def status(self):
        return campaign.Status(self.camp, 5, NoCrashes(), clock=self.clock)

    def tick(self, status, at):
        self.clock.now = 1000.0 + at
        out = io.StringIO()
        with redirect_stdout(out):
            row = status.tick(status.poll)
        return row, out.getvalue().strip()

    def stats_rates(self):
        with open(self.camp.stats, encoding="utf-8") as f:
            return [float(r["exec_per_s"]) for r in csv.DictReader(f)]

    def test_rate_between_reports(self):
        s = self.status()
        row, line = self.tick(s, 2)
        self.assertIn("no report from the engine yet", line)
        self.assertIn("exec/s -", line)
        self.assertEqual(row["exec_per_s"], 0)
        # reports every 10 s, status every 5 s: every other tick has none
        lines = []
        for report_at, tick_at, execs in ((4, 5, 400), (None, 10, None), (14, 15, 1400),
                                          (None, 20, None), (24, 25, 2400)):
            if report_at is not None:
                s.libfuzzer_line(fork_line(execs), when=1000.0 + report_at)
            lines.append(self.tick(s, tick_at)[1])
        for line in lines:
            self.assertIn("exec/s 100", line, line)
            self.assertNotIn("exec/s 0 ", line, line)
        self.assertIn("execs 400", lines[1])
        self.assertIn("(reported 6 s ago)", lines[1])
        self.assertNotIn("ago", lines[2])
        self.assertEqual(self.stats_rates(), [0, 100, 100, 100, 100, 100])

    def test_rate_changes_with_the_engine(self):
        s = self.status()
        s.libfuzzer_line(fork_line(1000), when=1001.0)
        self.assertIn("exec/s 1000", self.tick(s, 5)[1])
        # two jobs end between two ticks: the interval both cover
        s.libfuzzer_line(fork_line(2000), when=1003.0)
        s.libfuzzer_line(fork_line(5000), when=1009.0)
        self.assertIn("exec/s 500", self.tick(s, 10)[1])

    def test_a_resumed_campaign_goes_on_from_its_stats(self):
        with open(self.camp.stats, "w", encoding="utf-8") as f:
            f.write(",".join(campaign.STATS_FIELDS) + "\n60.0,50000,80,97,412,1536,0,0\n")
        s = self.status()
        row, line = self.tick(s, 1)
        self.assertIn("execs 50000", line)
        self.assertIn("no report from the engine yet", line)
        s.libfuzzer_line(fork_line(300), when=1003.0)
        row, line = self.tick(s, 5)
        self.assertEqual(row["execs"], 50300)
        self.assertIn("exec/s 100", line)

    def test_afl_stats_rewritten_now_and_then(self):
        s = self.status()
        inst = os.path.join(self.camp.afl, "main")
        os.makedirs(inst)

        def write(execs, ago):
            with open(os.path.join(inst, "fuzzer_stats"), "w", encoding="utf-8") as f:
                f.write("last_update       : %d\nexecs_done        : %d\n"
                        "edges_found       : 77\ncorpus_count      : 12\n"
                        % (int(time.time() - ago), execs))

        self.assertIn("no report from the engine yet", self.tick(s, 1)[1])
        write(3000, 0)
        s.poll = s.afl_update
        self.assertIn("exec/s", self.tick(s, 3)[1])
        first = s.rate
        self.assertGreater(first, 0)
        # the same file again: no new report, the rate stays
        line = self.tick(s, 8)[1]
        self.assertEqual(s.rate, first)
        self.assertNotIn("exec/s 0 ", line)


if __name__ == "__main__":
    unittest.main()
