#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Every reproducer's trace opens with its story (tools/mlflib/story.py).

Each corpus/regressions/*/<input>.trace must open, after its magic line,
with comment lines: what the input is for, then what the engine sees
(for the concurrent target the run's interleaving, a line per stretch one
task ran in one op) and what the check then sees, as `tools/mlf trace
annotate` writes them. The block is comment lines only: annotate() keeps
every other line, and the story is made from a replay driver's output (a
captured one here: no binary runs). Whether each trace still encodes to
its input is ctest trace/roundtrip/regressions/<name>'s to say. Run
standalone: python3 tests/tools/test_stories.py
"""
import glob
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import common, story, targets  # noqa: E402

REGRESSIONS = os.path.join(common.ROOT, "corpus", "regressions")

# a concurrent replay driver's failure with MLF_SCHED_TIMELINE (cut down)
OUTPUT = """MLF FAILURE: check=rcu.stale op=2
  READ_ONCE at step 40 on 0x55d0c0ffee00, inside a 40-byte object freed at step 38
in shrink_many() at mm/vmscan.c:4925 of Linux 6.12.118
  timeline of 40 steps, a span per stretch one task ran in one op:
  span 2-17        t0   op 0  online m0 bin=0                    | op done at rcu_assign_pointer in do_online()
  span 18-30       t1   op 2  reclaim n0 target=0                | preempted at rcu_read_unlock in shrink_many()
  span 31-37       t0   op 1  release m0                         | op done at call_rcu in css_release()
  span 38-38       rcu  op -  (grace periods, callbacks)         | blocks at atomic in mem_cgroup_free()
  span 39-40       t1   op 2  reclaim n0 target=0                | <- the run ends here at READ_ONCE in shrink_many()
"""
TRACE = (targets.trace_magic("concurrent") + "\n# an old comment\nnodes 1 pool 1\n"
         "run writers=1 readers=1 initial=0 policy=input seed=0\n"
         "t0 online m0 bin=0\nt0 release m0\nt1 reclaim n0 target=0\n")


class Corpus(unittest.TestCase):
    def test_every_reproducer_trace_tells_its_story(self):
        traces = sorted(glob.glob(os.path.join(REGRESSIONS, "*", "*.trace")))
        self.assertGreater(len(traces), 30)
        lacking = []
        for path in traces:
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if not story.has_block(text):
                lacking.append(os.path.relpath(path, common.ROOT))
        self.assertEqual(lacking, [], "traces without the opening story (tools/mlf trace "
                                      "annotate DIR writes it)")

    def test_a_bug_reproducer_tells_a_failure(self):
        # a bug-* directory's input fails on its bug variant (ctest
        # regression/<bug>/caught): its story must not say the run is clean
        for path in sorted(glob.glob(os.path.join(REGRESSIONS, "bug-*", "*.trace"))):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            self.assertNotIn("# The check then sees: nothing", text, path)

    def test_concurrent_reproducers_show_their_interleaving(self):
        for path in sorted(glob.glob(os.path.join(REGRESSIONS, "*", "*.trace"))):
            with open(path, encoding="utf-8") as f:
                text = f.read()
            if text.startswith(targets.trace_magic("concurrent") + "\n"):
                self.assertIn("# The timeline, a line per stretch one task ran in one op:",
                              text, path)


class Block(unittest.TestCase):
    def test_block_from_a_failing_run(self):
        lines = story.block("concurrent", TRACE, OUTPUT, ["What it is for."], "tools/mlf x")
        text = "\n".join(lines)
        self.assertTrue(all(line.startswith("#") for line in lines))
        self.assertEqual(lines[0], "# What it is for.")
        self.assertIn("# What the engine sees (tools/mlf x):", lines)
        self.assertIn("18-30      t1   2   reclaim n0 target=0", text)
        self.assertIn("preempted at rcu_read_unlock in shrink_many()", text)
        # the turns, told: who runs what, where the preemption falls
        self.assertIn("#   2. t1 runs reclaim n0 target=0, and is preempted in it at", text)
        self.assertIn("#   4. rcu runs its grace periods and callbacks, and blocks at atomic in", text)
        self.assertIn("#   5. t1 goes on with reclaim n0 target=0, and fails in it at READ_ONCE",
                      text)
        self.assertIn("fails here at READ_ONCE in shrink_many()", text)
        self.assertIn("The check then sees: rcu.stale at op 2 in shrink_many(): READ_ONCE", text)
        # no address of one run in a story
        self.assertNotIn("0x55d0c0ffee00", text)

    def test_annotate_keeps_everything_but_the_opening_comments(self):
        lines = story.block("concurrent", TRACE, OUTPUT, None, "tools/mlf x")
        out = story.annotate(TRACE, lines)
        self.assertTrue(out.startswith(targets.trace_magic("concurrent") + "\n# A concurrent "
                                       "input that fails rcu.stale at op 2."))
        self.assertNotIn("an old comment", out)
        self.assertEqual([l for l in out.splitlines() if not l.startswith("#")],
                         [l for l in TRACE.splitlines() if not l.startswith("#")])
        self.assertTrue(story.has_block(out))
        self.assertFalse(story.has_block(TRACE))
        # again: the same text, not a second block
        self.assertEqual(story.annotate(out, lines), out)

    def test_sequential_story_names_the_failing_op(self):
        trace = targets.trace_magic("memcg_lru") + "\nnodes 1 pool 2\nonline m0 bin=0\n" \
            "online m1 bin=0\noffline m1 bins=0\n"
        out = "MLF FAILURE: check=seg.semantics op=2 node=0 memcg=m1\n  m1 is not first\n"
        lines = story.block("memcg_lru", trace, out, None, "tools/mlf x")
        self.assertIn("#   ops 0-1 run clean: online m0 bin=0; online m1 bin=0", lines)
        self.assertIn("#   op 2, offline m1 bins=0, fails", lines)
        prose = " ".join(line[2:] for line in lines)
        self.assertIn("seg.semantics at op 2 (node=0 memcg=m1): m1 is not first", prose)


if __name__ == "__main__":
    unittest.main()
