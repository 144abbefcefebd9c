#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""fuzz_run.py --work W [--seeds DIR] [--quiet-progress] -- BIN ARGS...:
a libFuzzer run as ctest's fuzz-smoke/ and campaign/tsan/ tests make it,
as tools/mlf fuzz does: W/corpus and W/crashes made afresh, the seed
inputs of DIR copied in (files only: no .trace twins, READMEs or dot
files), then BIN ARGS -artifact_prefix=W/crashes/ W/corpus, its output
passed on (without libFuzzer's "#N" progress lines with --quiet-progress)
and its exit status returned.
"""
import argparse
import os
import shutil
import subprocess
import sys


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--work", required=True)
    ap.add_argument("--seeds")
    ap.add_argument("--quiet-progress", action="store_true")
    ap.add_argument("command", nargs="+")
    args = ap.parse_args()
    corpus = os.path.join(args.work, "corpus")
    crashes = os.path.join(args.work, "crashes")
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(corpus)
    os.makedirs(crashes)
    if args.seeds and os.path.isdir(args.seeds):
        for name in sorted(os.listdir(args.seeds)):
            path = os.path.join(args.seeds, name)
            if (os.path.isfile(path) and not name.endswith(".trace")
                    and not name.startswith(".") and not name.startswith("README")):
                shutil.copy(path, corpus)
    cmd = args.command + ["-artifact_prefix=%s/" % crashes, corpus]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    for line in proc.stdout:
        if args.quiet_progress and line[:1] == b"#" and line[1:2].isdigit():
            continue
        sys.stdout.buffer.write(line)
    sys.stdout.flush()
    return proc.wait()


if __name__ == "__main__":
    sys.exit(main())
