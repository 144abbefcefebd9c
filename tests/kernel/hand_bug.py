#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""A bug from the zoo, hand-applied to a copy of a kernel tree, is caught.

Copies the files the cut needs from the tree (directory or tarball) into
WORK/tree and applies one bug by editing the tree's own text (each edit
must match exactly once, else the test fails loudly):

  nr-memcgs-release  (default) drops 'pgdat->memcg_lru.nr_memcgs[gen]--;'
                     from lru_gen_release_memcg() (bug-nr-memcgs-release)
  unlocked-rotate    drops the lock from lru_gen_rotate_memcg()
                     (bug-unlocked-rotate; needs --mlf-fuzz: the concurrent
                     target under ThreadSanitizer must report the race)

then either

  (default)   configures WORK/build with that tree, builds
              memcg_lru_kernel_replay and replays corpus/memcg_lru, or
  --mlf-fuzz  runs `tools/mlf kernel --tree WORK/tree fuzz` for N seconds,

and passes only if the first report names the bug (its "expect").
"""
import argparse
import os
import re
import shutil
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "kernel"))
sys.path.insert(0, os.path.join(ROOT, "tools"))
import extract  # noqa: E402
from mlflib import signatures  # noqa: E402

# name -> function edited, [(statement, what replaces it)], what must
# report it, and how tools/mlf kernel fuzz runs
BUGS = {
    # the zoo's check for bug-nr-memcgs-release, and seq.advance, which
    # fires first when the lost decrement is the one that should have
    # emptied the old generation (so seq stays put)
    "nr-memcgs-release": {
        "function": "lru_gen_release_memcg",
        "edits": [(r"\n[ \t]*pgdat->memcg_lru\.nr_memcgs\[gen\]--;[ \t]*(?=\n)",
                   "\n\t\t/* hand-applied bug: nr_memcgs[gen]-- dropped */")],
        "expect": ("nr_memcgs", "seq.advance"),
        "fuzz": ["--target", "memcg_lru"],
    },
    # rotations race with each other and with shrink_many's: TSan's report
    "unlocked-rotate": {
        "function": "lru_gen_rotate_memcg",
        "edits": [(r"\n\tspin_lock_irqsave\(&pgdat->memcg_lru\.lock, flags\);",
                   "\n\t(void)flags; /* hand-applied bug: no lock */"),
                  (r"\n\tspin_unlock_irqrestore\(&pgdat->memcg_lru\.lock, flags\);",
                   "\n\t/* hand-applied bug: no unlock */")],
        "expect": ("race",),
        "fuzz": ["--target", "concurrent", "--sanitizer", "tsan"],
    },
}


def fail(msg):
    print("hand_bug: FAIL: " + msg, flush=True)
    sys.exit(1)


def run(cmd, **kw):
    print("+ " + " ".join(cmd), flush=True)
    return subprocess.run(cmd, **kw)


def apply_bug(tree, bug):
    path = os.path.join(tree, extract.VMSCAN)
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        text = f.read()
    found = extract.Source(extract.VMSCAN, text).function(bug["function"])
    if not found:
        fail("%s: no %s() to edit" % (path, bug["function"]))
    start, end, _ = found
    body = text[start:end]
    for pattern, replacement in bug["edits"]:
        body, n = re.subn(pattern, replacement, body)
        if n != 1:
            fail("%s: %r matches %d times in %s(), want 1"
                 % (path, pattern, n, bug["function"]))
    with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
        f.write(text[:start] + body + text[end:])
    print("hand_bug: edited %s() in %s" % (bug["function"], path), flush=True)


def caught(text, bug):
    """The first report must name the bug: a check, or a sanitizer's kind
    (signatures.signature(): a data race is "race" only when both of its
    accesses are in the code under test, the tree's code or the shim's
    primitives; one in the harness or libFuzzer is "harness")."""
    sig = signatures.signature(text)
    if not sig:
        fail("the run failed without an MLF FAILURE or sanitizer report")
    name = signatures.check_of(sig)
    if name not in bug["expect"]:
        fail("caught by %s (%s: %s), expected one of %s"
             % (name, sig, signatures.message(text), ", ".join(bug["expect"])))
    print("hand_bug: caught by %s, as expected: %s" % (name, signatures.message(text)),
          flush=True)


def via_cmake(args, tree):
    build = os.path.join(args.work, "build")
    cmd = ["cmake", "-S", ROOT, "-B", build, "-DMLF_KERNEL_TREE=" + tree,
           "-DCMAKE_C_COMPILER=" + args.cc, "-DMLF_SANITIZE=" + args.sanitize,
           "-DCMAKE_C_FLAGS=" + args.cflags]
    if args.generator:
        cmd += ["-G", args.generator]
    if run(cmd, stdout=subprocess.DEVNULL).returncode:
        fail("configuring the bugged tree failed")
    if run(["cmake", "--build", build, "--target", "memcg_lru_kernel_replay"],
           stdout=subprocess.DEVNULL).returncode:
        fail("building the bugged tree failed")
    replay = os.path.join(build, "fuzz", "memcg_lru_kernel_replay")
    proc = run([replay, os.path.join(ROOT, "corpus", "memcg_lru")],
               stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(proc.stdout[-3000:])
    if proc.returncode == 0:
        fail("the corpus replays clean on the bugged tree")
    caught(proc.stdout, BUGS[args.bug])


def via_mlf(args, tree):
    # the test's own scratch campaign, new each run: crash files are named by
    # content, so a second run's crash on the same seed would not count as new
    camp = os.path.join(args.work, "campaign")
    shutil.rmtree(camp, ignore_errors=True)
    cmd = [os.path.join(ROOT, "tools", "mlf"), "kernel", "--tree", tree, "fuzz",
           "--time", str(args.mlf_fuzz), "--dir", camp] + BUGS[args.bug]["fuzz"]
    proc = run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    sys.stdout.write(proc.stdout[-3000:])
    if proc.returncode != 1 or not re.search(r"crashes=[1-9]", proc.stdout):
        fail("tools/mlf kernel fuzz did not report a crash (status %d)" % proc.returncode)
    caught(proc.stdout, BUGS[args.bug])


def main():
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tree", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("--cc", default="cc")
    p.add_argument("--generator", default="")
    p.add_argument("--sanitize", default="")
    p.add_argument("--cflags", default="")
    p.add_argument("--mlf-fuzz", type=int, metavar="SECONDS",
                   help="fuzz with tools/mlf kernel instead of replaying the corpus")
    p.add_argument("--bug", choices=sorted(BUGS), default="nr-memcgs-release",
                   help="which bug to apply (default nr-memcgs-release)")
    args = p.parse_args()
    if args.bug == "unlocked-rotate" and not args.mlf_fuzz:
        p.error("--bug unlocked-rotate needs --mlf-fuzz (a race shows only under TSan)")
    args.work = os.path.abspath(args.work)
    tree = os.path.join(args.work, "tree")
    os.makedirs(args.work, exist_ok=True)
    if extract.main(["--tree", args.tree, "--out", os.path.join(args.work, "cut"),
                     "--copy-to", tree]):
        fail("cannot copy the tree")
    apply_bug(tree, BUGS[args.bug])
    if args.mlf_fuzz:
        via_mlf(args, tree)
    else:
        via_cmake(args, tree)
    return 0


if __name__ == "__main__":
    sys.exit(main())
