#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Unit tests of how tools/mlf names a failure: signatures.signature() on
the reports the harness and the sanitizers print (a data race by both of
its accesses, whichever TSan saw first), and triage's grouping of
signatures into one line per failure (failure_key, where_line).

A data race is the code under test's (race/...) only when both of its
accesses are: fed the reports clang 14's TSan printed here
(tests/tools/tsan_reports/: two races of zoo bugs in the port, one of the
harness alone, one on libFuzzer's counters) and spliced ones (one access
in the port, the other in the harness or libFuzzer).
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
    #1 reader_main /m/src/harness/stress.c:300:3 (concurrent+0x11a2f1)

  Location is heap block of size 64 at 0x7b0c00001200 allocated by main thread:
    #0 calloc <null> (concurrent+0x1)
    #1 mem_cgroup_alloc /m/src/mm/memcontrol.c:40:9 (concurrent+0x2)

  Thread T2 (tid=4245, running) created by main thread at:
    #0 pthread_create <null> (concurrent+0x3)
    #1 mlf_threads_start /m/src/harness/stress.c:100:9 (concurrent+0x4)

SUMMARY: ThreadSanitizer: data race /m/src/kernel/list_nulls.h:80:2 in hlist_nulls_add_head_rcu
==================
"""
RACE_READER_SECOND = """==================
WARNING: ThreadSanitizer: data race (pid=4243)
  Read of size 8 at 0x7b0c00001230 by thread T1 (mutexes: write M7):
    #0 shrink_many /m/src/mm/vmscan.c:4896:4 (concurrent+0x11a2f1)
    #1 reader_main /m/src/harness/stress.c:300:3 (concurrent+0x11a2f1)

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
            "    #1 reader_main /m/src/harness/stress.c:300:3 (concurrent+0x11a2f1)\n",
            "    [failed to restore the stack]\n")
        # not shown to be the port's, nor the harness's: no catch either way
        sig = signatures.signature(lost)
        self.assertEqual(sig, "race-unresolved/-+hlist_nulls_add_head_rcu")
        self.assertNotEqual(signatures.check_of(sig), "race")

    def test_a_race_is_a_race_to_triage(self):
        sig = signatures.signature(RACE_READER_SECOND)
        self.assertFalse(signatures.is_check_signature(sig))
        self.assertEqual(signatures.check_of(sig), "race")
        self.assertEqual(signatures.failure_key(sig), sig)

    def test_other_sanitizer_reports_keep_one_frame(self):
        self.assertEqual(signatures.signature(ASAN_REPORT),
                         "heap-use-after-free/__hlist_nulls_next")


REPORTS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "tsan_reports")


def report(name):
    with open(os.path.join(REPORTS, name), encoding="utf-8") as f:
        return f.read()


def section(text, head):
    """The lines of the report's section that begins with @head ("  Write",
    "  Previous"), up to the blank line after it."""
    start = text.index("\n" + head) + 1
    return text[start:text.index("\n\n", start) + 1]


class RaceWhere(unittest.TestCase):
    """Whose code a race is in, on reports TSan printed."""

    def test_a_race_in_the_port_is_a_race(self):
        text = report("port-publish-before-init.txt")
        sig = signatures.signature(text)
        self.assertEqual(sig, "race/lru_gen_online_memcg+shrink_many")
        self.assertEqual(signatures.check_of(sig), "race")
        msg = signatures.message(text)
        # the two lines, each access's first frame in the code under test
        self.assertIn("src/mm/vmscan.c:168 (lru_gen_online_memcg)", msg)
        self.assertIn("src/mm/vmscan.c:340 (shrink_many)", msg)
        self.assertIn("in the code under test", msg)

    def test_an_inlined_primitive_is_the_ports(self):
        # hlist_nulls_add_head_rcu() (rculist_nulls.h, inlined into
        # lru_gen_add_memcg) publishes; shrink_many's read has no line, its
        # file the scheduler's header: found by where shrink_many is defined
        text = report("port-plain-publish.txt")
        self.assertIn("shrink_many /work/wt-tsan/build/fuzz-tsan/zoo/bug-plain-publish/src/"
                      "kernel/schedule.h (", text)
        self.assertEqual(signatures.signature(text), "race/hlist_nulls_add_head_rcu+shrink_many")
        msg = signatures.message(text)
        # the bug's patched copy of src/ is named as such: its lines are not src/'s
        self.assertIn("zoo/bug-plain-publish/src/kernel/rculist_nulls.h:74 "
                      "(hlist_nulls_add_head_rcu)", msg)
        self.assertIn("mm/vmscan.c, no line (shrink_many)", msg)

    def test_a_race_of_the_harness_is_a_harness_failure(self):
        text = report("harness.txt")
        sig = signatures.signature(text)
        self.assertEqual(sig, "harness/race:task_fn+task_fn")
        self.assertEqual(signatures.check_of(sig), "harness")
        self.assertIn("src/harness/sched_engine.c:346 (task_fn, harness)",
                      signatures.message(text))

    def test_libfuzzers_counters_are_no_catch(self):
        # the report that made every race bug "caught" at the first input
        text = report("counters.txt")
        self.assertIn("Location is global '__stop___libfuzzer_extra_counters'", text)
        sig = signatures.signature(text)
        self.assertEqual(sig, "harness/race:mlf_tsan_ignore_begin+mlf_tsan_ignore_begin")
        self.assertEqual(signatures.check_of(sig), "harness")
        self.assertIn("src/kernel/sanitizer.h:56", signatures.message(text))

    def test_both_accesses_must_be_the_ports(self):
        port = report("port-publish-before-init.txt")
        harness = section(report("harness.txt"), "  Previous write")
        # the port's read against a write of the harness's
        mixed = port.replace(section(port, "  Previous write"), harness)
        self.assertNotEqual(mixed, port)
        self.assertEqual(signatures.signature(mixed), "harness/race:shrink_many+task_fn")
        # against an access of libFuzzer's own code (no source file)
        fuzzer = ("  Previous write of size 1 at 0x7b0c00005b20 by thread T2:\n"
                  "    #0 fuzzer::Fuzzer::ExecuteCallback(unsigned char const*, unsigned long) "
                  "<null> (concurrent+0x522f3) (BuildId: 43a2)\n")
        mixed = port.replace(section(port, "  Previous write"), fuzzer)
        sig = signatures.signature(mixed)
        self.assertEqual(sig, "harness/race:fuzzer::Fuzzer::ExecuteCallback+shrink_many")
        self.assertEqual(signatures.check_of(sig), "harness")

    def test_runtime_frames_stand_for_their_caller(self):
        # free() called by kfree() (slab.c, a primitive), from the port
        port = report("port-publish-before-init.txt")
        freed = ("  Previous write of size 8 at 0x7b0c00005b20 by thread T2:\n"
                 "    #0 free <null> (concurrent+0x98867) (BuildId: 43a2)\n"
                 "    #1 kfree /work/src/kernel/slab.c:30:2 (concurrent+0x144a5d)\n"
                 "    #2 css_release /work/src/mm/memcontrol.c:60:2 (concurrent+0x12cfd7)\n")
        mixed = port.replace(section(port, "  Previous write"), freed)
        self.assertEqual(signatures.signature(mixed), "race/kfree+shrink_many")
        # a runtime built with line tables: its frames still stand aside
        rt = freed.replace("#0 free <null>", "#0 free /build/llvm-14/compiler-rt/lib/tsan/rtl/"
                           "tsan_interceptors_posix.cpp:711:3")
        self.assertNotEqual(rt, freed)
        mixed = port.replace(section(port, "  Previous write"), rt)
        self.assertEqual(signatures.signature(mixed), "race/kfree+shrink_many")

    def test_the_models_access_stands_for_its_caller(self):
        # under the weak memory model READ_ONCE() reads memory in wmm.c
        port = report("port-publish-before-init.txt")
        model = ("  Atomic read of size 1 at 0x7b0c00005b20 by thread T3:\n"
                 "    #0 mem_read /work/src/kernel/wmm.c:275:10 (concurrent+0x161a0e)\n"
                 "    #1 loc_of /work/src/kernel/wmm.c:339:8 (concurrent+0x16020d)\n"
                 "    #2 mlf_wmm_load /work/src/kernel/wmm.c:500:11 (concurrent+0x15fe47)\n"
                 "    #3 shrink_many /work/src/mm/vmscan.c:342:14 (concurrent+0x136f78)\n")
        first = port[port.index("  Atomic read of size"):port.index("  Previous write")]
        mixed = port.replace(first, model + "\n")
        self.assertNotEqual(mixed, port)
        self.assertEqual(signatures.signature(mixed), "race/lru_gen_online_memcg+shrink_many")
        self.assertIn("src/mm/vmscan.c:342 (shrink_many)", signatures.message(mixed))
        # the model's own code is the harness's all the same
        own = model.replace("#0 mem_read", "#0 join").replace("#1 loc_of", "#1 mlf_wmm_load")
        mixed = port.replace(first, own + "\n")
        self.assertTrue(signatures.signature(mixed).startswith("harness/race:"))

    def test_layers(self):
        for path, want in (("/w/src/mm/vmscan.c", "test"),
                           ("/w/build/fuzz-tsan/zoo/bug-x/src/kernel/rculist_nulls.h", "test"),
                           ("/w/src/kernel/spinlock.c", "test"),
                           ("/w/src/kernel/schedule.c", "harness"),
                           ("/w/src/kernel/rcu_model.c", "harness"),
                           ("/w/src/kernel/sanitizer.h", "harness"),
                           ("/w/src/check/lin.c", "harness"),
                           ("/w/src/harness/sched_engine.c", "harness"),
                           ("/w/fuzz/concurrent.c", "harness"),
                           ("/tree/mm/vmscan.c", "test"),
                           ("/w/kernel/include/linux/rcupdate.h", "test"),
                           ("/w/kernel/tree_glue.c", "harness"),
                           ("<null>", None)):
            self.assertEqual(signatures.layer(path), want, path)

    def test_shim_files_named_as_primitives_exist(self):
        kernel = os.path.join(signatures.common.ROOT, "src", "kernel")
        for name in signatures.UNDER_TEST_SHIM:
            self.assertTrue(os.path.exists(os.path.join(kernel, name)), name)

    def test_a_harness_race_keeps_its_own_triage_line(self):
        a, b = "harness/race:task_fn+task_fn", "harness/race:mlf_tsan_ignore_begin+task_fn"
        self.assertNotEqual(signatures.failure_key(a), signatures.failure_key(b))
        self.assertEqual(signatures.failure_key("harness/online"), "harness")


class Signature(unittest.TestCase):
    def test_check_and_marked_op(self):
        self.assertEqual(signatures.signature(MLF_REPORT), "tail.cache/reclaim")

    def test_asan_kind_and_top_frame(self):
        self.assertEqual(signatures.signature(ASAN_REPORT),
                         "heap-use-after-free/__hlist_nulls_next")

    def test_first_report_wins(self):
        # the report TSan's death path cut short has one access: unresolved
        self.assertEqual(signatures.signature(TSAN_THEN_WATCHDOG),
                         "race-unresolved/lru_gen_rotate_memcg")

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
                "    #0 <null> <null> (x+0x1)\n"
                "    #1 lru_gen_rotate_memcg /m/src/mm/vmscan.c:1 (x+0x2)\n")
        self.assertEqual(signatures.signature(tsan), "race-unresolved/lru_gen_rotate_memcg")

    def test_clean_run(self):
        self.assertIsNone(signatures.signature("INFO: Seed: 1\nDone 10 runs in 0 second(s)\n"))


class Example(unittest.TestCase):
    def test_the_smallest_then_the_oldest(self):
        # fuzz's summary and triage name one file per failure: the same one
        import tempfile
        with tempfile.TemporaryDirectory() as d:
            paths = []
            for name, size, age in (("crash-a", 30, 300), ("crash-b", 10, 100),
                                    ("crash-c", 10, 200), ("crash-d", 50, 400)):
                p = os.path.join(d, name)
                with open(p, "wb") as f:
                    f.write(b"x" * size)
                os.utime(p, (1000 - age, 1000 - age))
                paths.append(p)
            self.assertEqual(signatures.example(paths), paths[2])
            self.assertEqual(signatures.example(paths[:2]), paths[1])


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
