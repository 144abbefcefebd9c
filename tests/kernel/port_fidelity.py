#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The port's memcg LRU is the kernel's text, but for the seed series' #ifdefs.

For each function of the memcg LRU that src/mm/vmscan.c ports, take the
port's text with the variant's CONFIG_LRU_GEN_* features resolved by
unifdef (v6.12: all off) and compare it with the same function of the
kernel tree (cut with kernel/extract.py's C-aware parser), line by line,
blank lines aside. For a p1-* variant the tree is 6.12 with that level of
the seed series applied (kernel/patch_tree.py, kernel/series/seed.json),
so the port's #ifdef'd patches are held to the series' own text (and the
recorded adaptations). Any other difference fails, with the diff: the port
must keep the kernel's code as it is (bugs are zoo/ patches, tracepoints
come from the shim, trace.h).

  port_fidelity.py --tree TREE [--variant v6.12]
"""
import argparse
import difflib
import os
import shutil
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "kernel"))
import extract  # noqa: E402

PORT = os.path.join(ROOT, "src", "mm", "vmscan.c")
FUNCTIONS = ("lru_gen_rotate_memcg", "lru_gen_online_memcg", "lru_gen_offline_memcg",
             "lru_gen_release_memcg", "lru_gen_soft_reclaim", "should_abort_scan",
             "shrink_one", "shrink_many", "lru_gen_init_pgdat", "set_initial_priority",
             "lru_gen_shrink_node")
# the variant's features, as src/mm/variant.h defines them
FEATURES = ("CONFIG_LRU_GEN_TAIL_CACHE", "CONFIG_LRU_GEN_YOUNG_SKIP",
            "CONFIG_LRU_GEN_RESCHED", "CONFIG_LRU_GEN_LOCKRAND")
VARIANTS = {
    "v6.12": (),
    "p1-3": ("CONFIG_LRU_GEN_TAIL_CACHE",),
    "p1-4": ("CONFIG_LRU_GEN_TAIL_CACHE", "CONFIG_LRU_GEN_YOUNG_SKIP"),
    "p1-5": ("CONFIG_LRU_GEN_TAIL_CACHE", "CONFIG_LRU_GEN_YOUNG_SKIP",
             "CONFIG_LRU_GEN_RESCHED"),
    "p1-5-lockrand": ("CONFIG_LRU_GEN_TAIL_CACHE", "CONFIG_LRU_GEN_YOUNG_SKIP",
                      "CONFIG_LRU_GEN_RESCHED", "CONFIG_LRU_GEN_LOCKRAND"),
}
# the series' helpers, where the variant has them
TAIL_CACHE_FUNCTIONS = ("lru_gen_add_memcg", "lru_gen_del_memcg")


def fail(msg):
    print("port_fidelity: FAIL: " + msg, flush=True)
    sys.exit(1)


def tree_vmscan(tree):
    if os.path.isdir(tree):
        with open(os.path.join(tree, extract.VMSCAN), encoding="utf-8",
                  errors="surrogateescape") as f:
            return f.read()
    with tarfile.open(tree) as tar:
        for member in tar:
            if member.name.endswith("/" + extract.VMSCAN):
                return tar.extractfile(member).read().decode("utf-8", "surrogateescape")
    fail("%s has no %s" % (tree, extract.VMSCAN))


def resolved_port(features_on):
    unifdef = shutil.which("unifdef")
    if not unifdef:
        fail("unifdef is not installed (tools/mlf setup installs it)")
    cmd = [unifdef] + ["-D" + f if f in features_on else "-U" + f for f in FEATURES]
    cmd.append(PORT)
    # unifdef exits 1 when it changed something, 2 on trouble
    proc = subprocess.run(cmd, capture_output=True, text=True)
    if proc.returncode not in (0, 1):
        fail("unifdef: " + proc.stderr.strip())
    return proc.stdout


def body(source, text, name):
    found = source.function(name)
    if not found:
        return None
    start, end, _ = found
    return [line.rstrip() for line in text[start:end].splitlines() if line.strip()]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tree", required=True)
    ap.add_argument("--variant", default="v6.12", choices=sorted(VARIANTS))
    args = ap.parse_args()
    kernel_text = tree_vmscan(args.tree)
    port_text = resolved_port(VARIANTS[args.variant])
    kernel = extract.Source(extract.VMSCAN, kernel_text)
    port = extract.Source("src/mm/vmscan.c", port_text)
    bad = 0
    names = FUNCTIONS
    if "CONFIG_LRU_GEN_TAIL_CACHE" in VARIANTS[args.variant]:
        names += TAIL_CACHE_FUNCTIONS
    for name in names:
        want, got = body(kernel, kernel_text, name), body(port, port_text, name)
        if want is None or got is None:
            fail("%s() is missing from the %s" % (name, "tree" if want is None else "port"))
        diff = list(difflib.unified_diff(want, got, "kernel/" + name, "port/" + name,
                                         lineterm="", n=1))
        if diff:
            bad += 1
            print("%s() differs from the kernel's:" % name)
            print("\n".join(diff))
        else:
            print("ok: %s() (%d lines)" % (name, len(want)))
    if bad:
        fail("%d of %d functions differ from the kernel's (variant %s)"
             % (bad, len(names), args.variant))
    print("port_fidelity: %d functions are the kernel's text (variant %s)"
          % (len(names), args.variant))


if __name__ == "__main__":
    main()
