#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A readable trace given where an input is read runs as the input it spells.

`tools/mlf replay --target memcg_lru X.trace` used to hand the text to the
replay driver as raw bytes (ops that are not in the trace), and `tools/mlf
trace decode X.trace` printed the ops of those bytes. Here, on a shipped
reproducer's trace: decode prints the trace itself (the ops of the bytes
it encodes to, corpus/regressions/<bug>/repro), replay runs the encoded
bytes (never the .trace file) with one summary line, and a trace of
another target is refused in one line. Needs the dev build's mlf-trace and
memcg_lru_replay (built if missing). Run standalone:
python3 tests/tools/test_traces_as_inputs.py
"""
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
MLF = os.path.join(ROOT, "tools", "mlf")
REG = os.path.join(ROOT, "corpus", "regressions", "bug-stale-tail-on-del")


def mlf(*argv):
    proc = subprocess.run([sys.executable, MLF] + list(argv), capture_output=True, text=True,
                          cwd=ROOT, timeout=1200)
    return proc.returncode, proc.stdout, proc.stderr


def ops(text):
    return [line.strip() for line in text.splitlines()
            if line.strip() and not line.startswith("#")]


class TracesAsInputs(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="mlf-traces-test-")
        # out of the regression directory: nothing tells its target but the magic line
        self.trace = os.path.join(self.tmp, "X.min.trace")
        shutil.copyfile(os.path.join(REG, "repro.trace"), self.trace)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def test_decode_prints_the_trace(self):
        rc, out, err = mlf("trace", "decode", self.trace)
        self.assertEqual(rc, 0, err)
        rc2, want, err2 = mlf("trace", "decode", os.path.join(REG, "repro"))
        self.assertEqual(rc2, 0, err2)
        self.assertEqual(ops(out), ops(want))
        with open(self.trace) as f:
            self.assertEqual(ops(out)[1:], ops(f.read())[1:])

    def test_replay_runs_the_encoded_input(self):
        rc, out, err = mlf("replay", "--target", "memcg_lru", self.trace)
        self.assertEqual(rc, 0, out + err)
        driver = [line for line in err.splitlines() if "memcg_lru_replay" in line
                  and line.startswith("+ ")]
        self.assertTrue(driver, err)
        self.assertNotIn(".trace", driver[-1], "the trace's text ran as bytes: " + driver[-1])
        # one summary: not the driver's "replayed 1 inputs" beside it
        said = [line for line in out.splitlines() if line.startswith("replay")]
        self.assertEqual(said, ["replay: 1 input, 0 failed"], out)

    def test_another_targets_trace_is_refused(self):
        rc, out, err = mlf("replay", "--target", "reclaim", self.trace)
        self.assertEqual(rc, 2, out + err)
        self.assertIn("is a memcg_lru trace", err.strip().splitlines()[-1])


if __name__ == "__main__":
    unittest.main()
