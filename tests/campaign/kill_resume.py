#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Killing a campaign loses nothing: SIGKILL it, resume it, compare.

Starts `tools/mlf fuzz` on a bug variant (so crashes appear) in its own
process group, SIGKILLs the whole group mid-run, snapshots every corpus and
crash file (name and content), resumes with --resume and checks each one is
still there. Then fakes a kill in the middle of the end-of-run merge's swap
(the old corpus moved aside, a half-written merged directory) and checks
that a resume restores the old corpus whole. Finally a resume with the merge
must keep every crash file.
Usage: kill_resume.py [--bug BUG] [--keep]
"""
import argparse
import hashlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
MLF = os.path.join(ROOT, "tools", "mlf")
TARGET = "memcg_lru"


def snapshot(d):
    """{relative path: sha1} of the corpus and crash files. A corpus file a
    run set aside (a seed that fails as the corpus loads, moved to
    failing-seeds/ and kept) counts as the corpus file it was."""
    found = {}
    for sub in ("failing-seeds", "corpus", "crashes"):
        top = os.path.join(d, TARGET, sub)
        for name in os.listdir(top) if os.path.isdir(top) else []:
            with open(os.path.join(top, name), "rb") as f:
                key = ("corpus" if sub == "failing-seeds" else sub) + "/" + name
                found[key] = hashlib.sha1(f.read()).hexdigest()
    return found


def count(d, sub):
    top = os.path.join(d, TARGET, sub)
    return len(os.listdir(top)) if os.path.isdir(top) else 0


def mlf(args, log):
    print("+ tools/mlf " + " ".join(args), flush=True)
    with open(log, "ab") as f:
        start = f.tell()
        rc = subprocess.run([MLF] + args, stdout=f, stderr=subprocess.STDOUT).returncode
    with open(log, "rb") as f:
        f.seek(start)
        if b"Traceback (most recent call last)" in f.read():
            # a crash of mlf itself exits 1 too, like a campaign with crashes
            fail("tools/mlf %s raised an exception" % " ".join(args), log)
    return rc


def lost(before, after):
    return sorted(k for k, v in before.items() if after.get(k) != v)


def fail(msg, log):
    print("FAIL: " + msg)
    with open(log, encoding="utf-8", errors="replace") as f:
        print("---- last lines of the log ----\n" + "".join(f.readlines()[-30:]))
    sys.exit(1)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bug", default="bug-stale-tail-on-del")
    ap.add_argument("--keep", action="store_true", help="keep the campaign directory")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="mlf-kill-resume-")
    camp, log = os.path.join(work, "camp"), os.path.join(work, "log")

    # 1. a campaign, killed with SIGKILL (every process of it) once it has
    # found corpus entries and crashes
    cmd = [MLF, "fuzz", "--target", TARGET, "--bug", args.bug, "--jobs", "2",
           "--time", "600", "--status", "2", "--dir", camp]
    print("+ " + " ".join(cmd[1:]), flush=True)
    with open(log, "ab") as f:
        proc = subprocess.Popen(cmd, stdout=f, stderr=subprocess.STDOUT, start_new_session=True)
    deadline, fuzzing_since = time.monotonic() + 300, None
    while time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.5)
        if fuzzing_since is None and os.path.isdir(os.path.join(camp, TARGET, "tmp")):
            fuzzing_since = time.monotonic()
        if fuzzing_since and time.monotonic() - fuzzing_since > 12 and count(camp, "crashes") >= 3:
            break
    if proc.poll() is not None:
        fail("the campaign ended by itself (status %d)" % proc.returncode, log)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    time.sleep(0.5)  # let the killed processes go
    before = snapshot(camp)
    ncorpus = sum(1 for k in before if k.startswith("corpus/"))
    ncrash = len(before) - ncorpus
    print("killed: %d corpus entries, %d crash files" % (ncorpus, ncrash))
    if ncorpus == 0 or ncrash == 0:
        fail("nothing to lose: the test proves nothing", log)

    # 2. resume without the merge: everything from before is there
    if mlf(["fuzz", "--target", TARGET, "--resume", "--dir", camp, "--time", "6",
            "--jobs", "2", "--status", "2", "--no-merge"], log) not in (0, 1):
        fail("the resume failed", log)
    after = snapshot(camp)
    missing = lost(before, after)
    if missing:
        fail("lost after --resume: %s" % ", ".join(missing[:10]), log)
    print("resumed: %d files, none lost" % len(after))

    # 3. a kill in the middle of the merge's swap: corpus moved aside, the
    # merged directory half written; the resume must bring the corpus back
    base = os.path.join(camp, TARGET)
    before = snapshot(camp)
    os.rename(os.path.join(base, "corpus"), os.path.join(base, "corpus.premerge"))
    os.makedirs(os.path.join(base, "corpus.merging"))
    with open(os.path.join(base, "corpus.merging", "half"), "wb") as f:
        f.write(b"\1")
    if mlf(["fuzz", "--target", TARGET, "--resume", "--dir", camp, "--time", "3",
            "--status", "0", "--no-merge"], log) not in (0, 1):
        fail("the resume after a half-done merge failed", log)
    missing = lost(before, snapshot(camp))
    if missing or os.path.exists(os.path.join(base, "corpus.merging")):
        fail("a half-done merge lost %s" % ", ".join(missing[:10]), log)
    print("half-done merge: corpus restored whole")

    # 4. the merge itself may shrink the corpus but never touches a crash
    crashes = {k: v for k, v in snapshot(camp).items() if k.startswith("crashes/")}
    if mlf(["fuzz", "--target", TARGET, "--resume", "--dir", camp, "--time", "3",
            "--status", "0"], log) not in (0, 1):
        fail("the resume with merge failed", log)
    after = snapshot(camp)
    missing = lost(crashes, after)
    if missing or count(camp, "corpus") == 0:
        fail("the merge lost crashes (%s) or emptied the corpus" % ", ".join(missing[:10]), log)
    print("merge: %d corpus entries, all %d crash files kept" % (count(camp, "corpus"),
                                                                 len(crashes)))
    if not args.keep:
        shutil.rmtree(work)
    print("PASS")


if __name__ == "__main__":
    main()
