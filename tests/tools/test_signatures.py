#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of how tools/mlf names a failure: signatures.signature() on
the reports the harness and the sanitizers print (a data race by both of
its accesses, whichever TSan saw first), and triage's grouping of
signatures into one line per failure (failure_key, where_line).
Run standalone: python3 tests/tools/test_signatures.py"""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "tools"))
from mlflib import signatures  # noqa: E402

MLF_REPORT = """INFO: Seed: 1
MLF FAILURE: check=tail.cache op=1 node=0 gen=0 bin=2 memcg=0
  tail[0][2] points at 0x6040 (m0) but the bin is empty
trace around op 1 (of 2):
  nodes 1 pool 1
  online m0 bin=2
> reclaim n0 target=0
"""

ASAN_REPORT = """==12==ERROR: AddressSanitizer: heap-use-after-free on address 0x6040 at pc 0x55
READ of size 8 at 0x6040 thread T2
    #0 0x55d0 in __hlist_nulls_next /work/main/src/kernel/list_nulls.h:40:9
    #1 0x55d1 in shrink_many /work/main/src/mm/vmscan.c:4400:3
"""

# TSan's report, then its death path stalls and the harness's watchdog
# reports on the same line as libFuzzer's "MS: 0"
TSAN_THEN_WATCHDOG = """==================
WARNING: ThreadSanitizer: data race (pid=7881)
  Write of size 8 at 0x561ef5d3c790 by thread T4:
    #0 lru_gen_rotate_memcg /tree/mm/vmscan.c:4224:33 (concurrent_kernel+0x1196b4)
    #1 shrink_many /tree/mm/vmscan.c:4896:4 (concurrent_kernel+0x11a2f1)
SUMMARY: ThreadSanitizer: data race /tree/mm/vmscan.c:4224:33 in lru_gen_rotate_memcg
==================
MS: 0 MLF FAILURE: check=reader.terminates
  threads still running after 20 s: 0 (writer) 1 (writer) 2 (reader)
==7881== ERROR: libFuzzer: deadly signal
    #9 abort <null> (concurrent_kernel+0x9965a)
"""


# one race between a reader (shrink_many) and a writer
# (hlist_nulls_add_head_rcu), as TSan reports it when the writer's access
# comes second, then when the reader's does
RACE_WRITER_SECOND = """==================
WARNING: ThreadSanitizer: data race (pid=4242)
  Write of size 8 at 0x7b0c00001230 by thread T2:
    #0 __tsan_atomic64_store <null> (concurrent+0x9a1)
    #1 hlist_nulls_add_head_rcu /m/src/kernel/list_nulls.h:80:2 (concurrent+0x1196b4)
    #2 lru_gen_rotate_memcg /m/src/mm/vmscan.c:4224:33 (concurrent+0x1196b4)

  Previous read of size 8 at 0x7b0c00001230 by thread T1:
    #0 shrink_many /m/src/mm/vmscan.c:4896:4 (concurrent+0x11a2f1)
    #1 reader_main /m/src/harness/concurrent.c:300:3 (concurrent+0x11a2f1)

  Location is heap block of size 64 at 0x7b0c00001200 allocated by main thread:
    #0 calloc <null> (concurrent+0x1)
    #1 mem_cgroup_alloc /m/src/mm/memcontrol.c:40:9 (concurrent+0x2)

  Thread T2 (tid=4245, running) created by main thread at:
    #0 pthread_create <null> (concurrent+0x3)
    #1 mlf_threads_start /m/src/harness/concurrent.c:100:9 (concurrent+0x4)

SUMMARY: ThreadSanitizer: data race /m/src/kernel/list_nulls.h:80:2 in hlist_nulls_add_head_rcu
==================
"""
RACE_READER_SECOND = """==================
WARNING: ThreadSanitizer: data race (pid=4243)
  Read of size 8 at 0x7b0c00001230 by thread T1 (mutexes: write M7):
    #0 shrink_many /m/src/mm/vmscan.c:4896:4 (concurrent+0x11a2f1)
    #1 reader_main /m/src/harness/concurrent.c:300:3 (concurrent+0x11a2f1)

  Previous atomic write of size 8 at 0x7b0c00001230 by thread T2:
    #0 __tsan_atomic64_store <null> (concurrent+0x9a1)
    #1 hlist_nulls_add_head_rcu /m/src/kernel/list_nulls.h:80:2 (concurrent+0x1196b4)

  Mutex M7 (0x7b0c00000010) created at:
    #0 pthread_mutex_init <null> (concurrent+0x5)
    #1 spin_lock_init /m/src/kernel/spinlock.c:20:2 (concurrent+0x6)

SUMMARY: ThreadSanitizer: data race /m/src/mm/vmscan.c:4896:4 in shrink_many
==================
"""


class Race(unittest.TestCase):
    def test_both_sides_in_a_fixed_order(self):
        want = "race/hlist_nulls_add_head_rcu+shrink_many"
        self.assertEqual(signatures.signature(RACE_WRITER_SECOND), want)
        self.assertEqual(signatures.signature(RACE_READER_SECOND), want)

    def test_one_side_unknown(self):
        lost = RACE_WRITER_SECOND.replace(
            "    #0 shrink_many /m/src/mm/vmscan.c:4896:4 (concurrent+0x11a2f1)\n"
            "    #1 reader_main /m/src/harness/concurrent.c:300:3 (concurrent+0x11a2f1)\n",
            "    [failed to restore the stack]\n")
        self.assertEqual(signatures.signature(lost), "race/-+hlist_nulls_add_head_rcu")

    def test_a_race_is_a_race_to_triage(self):
        sig = signatures.signature(RACE_READER_SECOND)
        self.assertFalse(signatures.is_check_signature(sig))
        self.assertEqual(signatures.check_of(sig), "race")
        self.assertEqual(signatures.failure_key(sig), sig)

    def test_other_sanitizer_reports_keep_one_frame(self):
        self.assertEqual(signatures.signature(ASAN_REPORT),
                         "heap-use-after-free/__hlist_nulls_next")


class Signature(unittest.TestCase):
    def test_check_and_marked_op(self):
        self.assertEqual(signatures.signature(MLF_REPORT), "tail.cache/reclaim")

    def test_asan_kind_and_top_frame(self):
        self.assertEqual(signatures.signature(ASAN_REPORT),
                         "heap-use-after-free/__hlist_nulls_next")

    def test_first_report_wins(self):
        self.assertEqual(signatures.signature(TSAN_THEN_WATCHDOG), "race/lru_gen_rotate_memcg")

    def test_check_before_sanitizer(self):
        self.assertEqual(signatures.signature(MLF_REPORT + ASAN_REPORT), "tail.cache/reclaim")

    def test_multi_word_kinds(self):
        double_free = ("==1==ERROR: AddressSanitizer: attempting double-free on 0x6020 in thread T0:\n"
                       "    #0 0x55d0 in free\n    #1 0x55d1 in kfree /work/main/src/kernel/slab.c:30\n")
        self.assertEqual(signatures.signature(double_free), "attempting-double-free/free")
        lock = ("WARNING: ThreadSanitizer: double lock of a mutex (pid=9)\n"
                "    #0 pthread_mutex_lock <null> (x+0x1)\n"
                "    #1 spin_lock /work/main/src/kernel/spinlock.c:40:2 (x+0x2)\n")
        self.assertEqual(signatures.signature(lock), "double-lock-of-a-mutex/pthread_mutex_lock")
        leak = ("==1==ERROR: LeakSanitizer: detected memory leaks\n\n"
                "Direct leak of 8 byte(s) in 1 object(s) allocated from:\n"
                "    #0 0x55d0 in malloc\n    #1 0x55d1 in kzalloc\n")
        # the allocator's caller: every leak's top frame is malloc
        self.assertEqual(signatures.signature(leak), "detected-memory-leaks/kzalloc")
        for sig in ("attempting-double-free/free", "double-lock-of-a-mutex/pthread_mutex_lock",
                    "detected-memory-leaks/kzalloc"):
            self.assertFalse(signatures.is_check_signature(sig), sig)

    def test_ubsan_error_and_function(self):
        with_stack = ("/work/main/src/mm/vmscan.c:4224:33: runtime error: signed integer "
                      "overflow: 2147483647 + 1 cannot be represented in type 'int'\n"
                      "    #0 0x55d0 in lru_gen_rotate_memcg /work/main/src/mm/vmscan.c:4224:33\n"
                      "    #1 0x55d1 in shrink_many /work/main/src/mm/vmscan.c:4400:3\n"
                      "SUMMARY: UndefinedBehaviorSanitizer: undefined-behavior\n")
        self.assertEqual(signatures.signature(with_stack),
                         "signed-integer-overflow/lru_gen_rotate_memcg")
        self.assertFalse(signatures.is_check_signature(signatures.signature(with_stack)))
        bare = ("src/kernel/list_nulls.h:40:9: runtime error: member access within null "
                "pointer of type 'struct hlist_nulls_node'\n")
        self.assertEqual(signatures.signature(bare),
                         "member-access-within-null-pointer/list_nulls.h")
        # a check's report before it is the finding
        self.assertEqual(signatures.signature(MLF_REPORT + bare), "tail.cache/reclaim")

    def test_unsymbolized_frames_are_skipped(self):
        text = ("==1==ERROR: AddressSanitizer: SEGV on unknown address 0x000000000000\n"
                "    #0 0x55d0c1a2b3c4  (/x/memcg_lru+0x1234)\n"
                "    #1 0x55d0c1a2b3c5 in shrink_many /work/main/src/mm/vmscan.c:4400:3\n")
        self.assertEqual(signatures.signature(text), "SEGV/shrink_many")
        tsan = ("WARNING: ThreadSanitizer: data race (pid=1)\n"
                "    #0 <null> <null> (x+0x1)\n    #1 lru_gen_rotate_memcg /m/vmscan.c:1 (x+0x2)\n")
        self.assertEqual(signatures.signature(tsan), "race/lru_gen_rotate_memcg")

    def test_clean_run(self):
        self.assertIsNone(signatures.signature("INFO: Seed: 1\nDone 10 runs in 0 second(s)\n"))


class Grouping(unittest.TestCase):
    def test_check_signatures_merge_by_check(self):
        for sig in ("tail.cache/rotate", "tail.cache/offline", "tail.cache/reclaim"):
            self.assertTrue(signatures.is_check_signature(sig))
            self.assertEqual(signatures.failure_key(sig), "tail.cache")
        self.assertEqual(signatures.failure_key("tail.cache/rotate", "signature"),
                         "tail.cache/rotate")

    def test_sanitizer_signatures_stay_apart(self):
        for sig in ("race/lru_gen_rotate_memcg", "heap-use-after-free/shrink_many",
                    "SEGV/shrink_many", "deadly/-", "timeout/-", "no-repro/-"):
            self.assertFalse(signatures.is_check_signature(sig), sig)
            self.assertEqual(signatures.failure_key(sig), sig)

    def test_libfuzzer_oom_file_is_not_the_oom_check(self):
        sig = signatures.fallback_signature("/camp/memcg_lru/crashes/oom-0123abcd")
        self.assertEqual(sig, "out-of-memory/-")
        self.assertFalse(signatures.is_check_signature(sig))
        self.assertTrue(signatures.is_check_signature("oom/reclaim"))

    def test_where_line_lists_op_kinds_by_count(self):
        self.assertEqual(signatures.where_line("tail.cache", {"tail.cache/rotate": 2,
                                                          "tail.cache/reclaim": 5}),
                         "at reclaim 5, rotate 2")
        self.assertIsNone(signatures.where_line("race/x", {"race/x": 3}))


if __name__ == "__main__":
    unittest.main()
