# SPDX-License-Identifier: GPL-2.0
"""Shrinking a failing input to a reproducer a person can read.

Two passes, each keeping the failure's signature (signatures.py):
  1. byte level: libFuzzer's -minimize_crash (fuzz preset), kept only if the
     signature survives;
  2. op level (the targets with a trace, fuzz/targets.json): delta
     debugging over the trace's op lines, memcgs renumbered, then the
     smallest pool and the fewest nodes that still fail.
minimize() is what `tools/mlf minimize` and `tools/mlf zoo` call. A library
module (see __init__.py).
"""
import os
import re
import subprocess
import tempfile

from . import builds
from . import common
from . import signatures
from . import targets


class Replayer:
    """Runs one input through <target>_replay of a variant/bug build."""

    def __init__(self, target, variant, bug, preset="dev"):
        self.target = target
        self.build = builds.ensure_built_quiet(preset, variant, bug,
                                               targets=[target + "_replay", "mlf-trace"])
        self.driver = builds.binary(self.build, target + "_replay")
        self.trace_tool = builds.binary(self.build, "mlf-trace")
        self.runs = 0

    def run(self, path, timeout=60):
        self.runs += 1
        try:
            proc = subprocess.run([self.driver, path], capture_output=True, text=True,
                                  errors="replace", timeout=timeout,
                                  env=common.sanitizer_env())
        except subprocess.TimeoutExpired:
            return "timeout/-", ""
        return signatures.signature(proc.stderr), proc.stderr

    def decode(self, path):
        proc = subprocess.run([self.trace_tool, "decode", "--target", self.target, path],
                              capture_output=True, text=True, check=True)
        return proc.stdout

    def encode(self, text, out):
        """text without its magic line gets it (the target's trace)."""
        magic = targets.trace_magic(self.target)
        if not text.startswith(magic + "\n"):
            text = magic + "\n" + text
        with tempfile.NamedTemporaryFile("w", suffix=".trace", delete=False) as f:
            f.write(text)
        try:
            if os.path.exists(out):
                os.remove(out)
            subprocess.run([self.trace_tool, "encode", "--target", self.target, f.name,
                            "-o", out], capture_output=True, check=True)
        finally:
            os.remove(f.name)


def byte_minimize(target, variant, bug, path, sig, work, runs):
    """libFuzzer -minimize_crash; returns the path of the best input. The
    pass is an extra: when libFuzzer cannot run it, one line says why and
    the op-level pass goes on from the input."""
    try:
        build = builds.ensure_built_quiet("fuzz", variant, bug, targets=[target])
    except common.MlfError as e:
        print("mlf minimize: no byte-level pass (%s)" % e)
        return path
    out = os.path.join(work, "bytes.min")
    cmd = [builds.binary(build, target), "-minimize_crash=1", "-runs=%d" % runs,
           "-exact_artifact_path=" + out, path]
    common.show(cmd)
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", cwd=work)
    if os.path.exists(out):
        return out
    if proc.returncode != 0:
        # status 0 without a file: nothing smaller fails; else it did not run
        print("mlf minimize: no byte-level pass (libFuzzer, status %d: %s)"
              % (proc.returncode, common.error_line(proc.stderr) or "no output"))
    return path


def split_trace(text):
    """(header lines, op lines) of a trace, comments and blank lines dropped."""
    header, ops = [], []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("nodes ") and not header and not ops:
            header.append(line)
        else:
            ops.append(line)
    return header, ops


def ddmin(items, fails):
    """Zeller's ddmin: a 1-minimal subsequence of items for which fails() holds."""
    n = 2
    while len(items) >= 2:
        chunk = max(1, len(items) // n)
        reduced = False
        for start in range(0, len(items), chunk):
            complement = items[:start] + items[start + chunk:]
            if complement and fails(complement):
                items, n, reduced = complement, max(n - 1, 2), True
                break
        if not reduced:
            if n >= len(items):
                break
            n = min(len(items), n * 2)
    return items


def op_minimize(rep, path, sig, work):
    """Delta debugging over a trace (rep.target's); returns (trace text, bytes path)."""
    text = rep.decode(path)
    header, ops = split_trace(text)
    if not header:
        return text, path
    cand = os.path.join(work, "cand")

    def fails(candidate_ops, head=None):
        try:
            rep.encode("\n".join((head or header) + candidate_ops) + "\n", cand)
        except subprocess.CalledProcessError:
            return False  # e.g. an op names a node the smaller header lacks
        return rep.run(cand)[0] == sig

    ops = ddmin(ops, fails)
    # memcgs renumbered m0, m1, ... in order of appearance, if it still fails
    ids = []
    for op in ops:
        for x in re.findall(r"\bm(\d+)\b", op):
            if x not in ids:
                ids.append(x)
    renamed = [re.sub(r"\bm(\d+)\b", lambda mm: "m%d" % ids.index(mm.group(1)), op)
               for op in ops]
    if renamed != ops and fails(renamed):
        ops = renamed
    # the smallest pool and fewest nodes that still fail
    m = re.match(r"nodes (\d+) pool (\d+)", header[0])
    if m:
        nodes, pool = int(m.group(1)), int(m.group(2))
        used = [int(x) for op in ops for x in re.findall(r"\bm(\d+)\b", op)]
        for p in sorted(set([max(used) + 1 if used else 1, pool])):
            if p < pool and fails(ops, ["nodes %d pool %d" % (nodes, p)]):
                pool = p
                break
        for k in range(1, nodes):
            if fails(ops, ["nodes %d pool %d" % (k, pool)]):
                nodes = k
                break
        header = ["nodes %d pool %d" % (nodes, pool)]
    final = targets.trace_magic(rep.target) + "\n" + "\n".join(header + ops) + "\n"
    out = os.path.join(work, "ops.min")
    rep.encode(final, out)
    if rep.run(out)[0] != sig:
        raise common.MlfError("the minimized trace lost the signature %s" % sig)
    return rep.decode(out), out


def minimize(path, target, variant=None, bug=None, runs=20000):
    """Returns (signature, minimized bytes path, trace text or None, work dir)."""
    rep = Replayer(target, variant, bug)
    sig, err = rep.run(path)
    if not sig:
        raise common.MlfError("%s does not fail on %s" % (path, bug or variant or "the default variant"))
    work = tempfile.mkdtemp(prefix="mlf-minimize-")
    best = byte_minimize(target, variant, bug, path, sig, work, runs)
    if best != path and rep.run(best)[0] != sig:
        best = path
    trace = None
    if targets.trace_magic(target):
        trace, best = op_minimize(rep, best, sig, work)
    return sig, best, trace, work
