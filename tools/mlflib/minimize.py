# SPDX-License-Identifier: GPL-2.0
"""mlf minimize: shrink a failing input to a reproducer a person can read.

Two passes, each keeping the failure's signature (the check name and the
kind of the failing op, or the sanitizer report kind and top frame):
  1. byte level: libFuzzer's -minimize_crash (fuzz preset), kept only if the
     signature survives;
  2. op level (memcg_lru and reclaim traces): delta debugging over the
     trace's op lines, memcgs renumbered, then the smallest pool and the
     fewest nodes that still fail.
Writes FILE.min and FILE.min.trace next to the input; --save NAME files the
result under corpus/regressions/NAME/ (with an EXPECT file naming the check)
so that ctest replays it.
"""
import os
import re
import shutil
import subprocess
import tempfile

from . import common
from . import fuzz

REGRESSIONS = os.path.join(common.ROOT, "corpus", "regressions")
# the targets with a trace, and its magic first line (mlf-trace --target)
TRACE_MAGIC = {"memcg_lru": "# mlf trace v1", "reclaim": "# mlf reclaim trace v1"}

# not anchored: another thread's output may share the line ("MS: 0 MLF FAILURE")
MLF_FAILURE = re.compile(r"MLF FAILURE: check=(\S+)(?: op=(\d+))?")
MARKED_OP = re.compile(r"^> (\S+)", re.M)
NULLS_OP = re.compile(r"^#\d+ (\S+).*<-- current op", re.M)
SANITIZER = re.compile(r"^(?:==\d+==)?(?:ERROR|WARNING): (\w+Sanitizer): ([^\n]*)", re.M)
# ASan/UBSan: "#0 0x55d0 in func file:line"; TSan: "#0 func file:line (binary+0x..)".
# Only a symbol: an unsymbolized frame (an address, "<null>") would make the
# signature change from run to run.
FRAME = re.compile(r"^\s+#\d+ (?:0x[0-9a-f]+ in )?([A-Za-z_][\w:.~$]*)", re.M)


def sanitizer_kind(rest):
    """The report's kind, its words joined by dashes: "heap-use-after-free
    on address 0x..." -> heap-use-after-free, "attempting double-free on
    0x..." -> attempting-double-free, "double lock of a mutex (pid=1)" ->
    double-lock-of-a-mutex; TSan's "data race" is "race"."""
    phrase = re.split(r" on | at | \(|:| 0x", rest, 1)[0]
    kind = "-".join(re.findall(r"[\w-]+", phrase)) or "unknown"
    return "race" if kind == "data-race" else kind


# frames of the runtime, not of the code under test (kernel names such as
# __hlist_nulls_del are kept)
NOT_A_FRAME = ("__asan", "__tsan", "__ubsan", "__lsan", "__sanitizer", "__interceptor",
               "__libc", "__GI_", "__pthread", "mlf_fail", "abort", "raise")


def signature(text):
    """The failure's signature from a replay's stderr, or None if it passed.

    The first report wins: a sanitizer report followed by a check's (TSan
    reports a race, then its death path stalls and the watchdog names
    reader.terminates) is the sanitizer's finding."""
    m = MLF_FAILURE.search(text)
    s = SANITIZER.search(text)
    if m and not (s and s.start() < m.start()):
        op = MARKED_OP.search(text, m.end()) or NULLS_OP.search(text, m.end())
        return "%s/%s" % (m.group(1), op.group(1) if op else "-")
    if s:
        kind = sanitizer_kind(s.group(2))
        frames = [f for f in FRAME.findall(text, s.end()) if not f.startswith(NOT_A_FRAME)]
        return "%s/%s" % (kind, frames[0] if frames else "-")
    return None


# signatures that are not a check's: a sanitizer's report kind (dashed or
# upper case, e.g. heap-use-after-free, SEGV; TSan's data race is "race"),
# libFuzzer's deadly signal, and what triage files a crash that does not
# fail again under (triage.fallback_signature). A check's name never has a
# dash or a capital.
NOT_A_CHECK = re.compile(r"^(?:race|deadly|timeout|leak|slow|no-repro|[^/]*[-A-Z][^/]*)/")


def is_check_signature(sig):
    """Whether sig is an mlf check's (check/op kind), not a sanitizer's."""
    return bool(sig) and not NOT_A_CHECK.match(sig)


def check_of(sig):
    return sig.split("/", 1)[0] if sig else None


class Replayer:
    """Runs one input through <target>_replay of a variant/bug build."""

    def __init__(self, target, variant, bug, preset="dev"):
        self.target = target
        self.build = fuzz.ensure_built_quiet(preset, variant, bug,
                                             targets=[target + "_replay", "mlf-trace"])
        self.driver = fuzz.binary(self.build, target + "_replay")
        self.trace_tool = fuzz.binary(self.build, "mlf-trace")
        self.runs = 0

    def run(self, path, timeout=60):
        self.runs += 1
        try:
            proc = subprocess.run([self.driver, path], capture_output=True, text=True,
                                  errors="replace", timeout=timeout,
                                  env=common.sanitizer_env())
        except subprocess.TimeoutExpired:
            return "timeout/-", ""
        return signature(proc.stderr), proc.stderr

    def decode(self, path):
        proc = subprocess.run([self.trace_tool, "decode", "--target", self.target, path],
                              capture_output=True, text=True, check=True)
        return proc.stdout

    def encode(self, text, out):
        """text without its magic line gets it (the target's trace)."""
        magic = TRACE_MAGIC[self.target]
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
    """libFuzzer -minimize_crash; returns the path of the best input."""
    try:
        build = fuzz.ensure_built_quiet("fuzz", variant, bug, targets=[target])
    except common.MlfError as e:
        print("mlf minimize: no byte-level pass (%s)" % e)
        return path
    out = os.path.join(work, "bytes.min")
    cmd = [fuzz.binary(build, target), "-minimize_crash=1", "-runs=%d" % runs,
           "-exact_artifact_path=" + out, path]
    common.show(cmd)
    subprocess.run(cmd, capture_output=True, cwd=work)
    return out if os.path.exists(out) else path


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
    final = TRACE_MAGIC[rep.target] + "\n" + "\n".join(header + ops) + "\n"
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
    if target in TRACE_MAGIC:
        trace, best = op_minimize(rep, best, sig, work)
    return sig, best, trace, work


def save_regression(name, sig, best, trace, target):
    dest = os.path.join(REGRESSIONS, name)
    if os.path.exists(dest):
        raise common.MlfError("%s exists; not overwriting it" % os.path.relpath(dest))
    os.makedirs(dest)
    shutil.copyfile(best, os.path.join(dest, "repro"))
    if trace:
        with open(os.path.join(dest, "repro.trace"), "w", encoding="utf-8") as f:
            f.write(trace)
    with open(os.path.join(dest, "EXPECT"), "w", encoding="utf-8") as f:
        f.write(check_of(sig) + "\n")
    if target != "memcg_lru":
        with open(os.path.join(dest, "TARGET"), "w", encoding="utf-8") as f:
            f.write(target + "\n")
    return dest


def run(args, extra):
    if not os.path.isfile(args.file):
        raise common.MlfError("%s: no such file" % args.file)
    from . import replay
    target = args.target or replay.guess_target(args.file)
    if not target:
        raise common.MlfError("cannot tell the target of %s; use --target" % args.file)
    for out in (args.file + ".min", args.file + ".min.trace"):
        if os.path.exists(out):
            raise common.MlfError("%s exists; not overwriting it" % out)
    sig, best, trace, work = minimize(args.file, target, args.variant, args.bug, args.runs)
    shutil.copyfile(best, args.file + ".min")
    if trace:
        with open(args.file + ".min.trace", "w", encoding="utf-8") as f:
            f.write(trace)
    shutil.rmtree(work, ignore_errors=True)
    nops = len(split_trace(trace)[1]) if trace else None
    print("minimize: %s -> %s (%d bytes%s), signature %s" % (
        args.file, args.file + ".min", os.path.getsize(args.file + ".min"),
        ", %d ops" % nops if nops is not None else "", sig))
    if trace:
        print(trace, end="")
    if args.save:
        dest = save_regression(args.save, sig, args.file + ".min", trace, target)
        print("minimize: saved %s" % os.path.relpath(dest))
    return 0


def register(subparsers):
    p = subparsers.add_parser(
        "minimize", help="shrink a failing input, keeping its signature",
        description="Byte-level minimization (libFuzzer -minimize_crash), then op-level "
                    "delta debugging on the trace, keeping the same signature (check name "
                    "and failing op kind). Writes FILE.min and FILE.min.trace.")
    p.add_argument("file")
    p.add_argument("--target", help="fuzz target (default: guessed from the path)")
    p.add_argument("--variant", help="correct variant the input fails on")
    p.add_argument("--bug", help="bug variant the input fails on")
    p.add_argument("--runs", type=int, default=20000,
                   help="libFuzzer -minimize_crash runs (default 20000)")
    p.add_argument("--save", metavar="NAME",
                   help="also file it as corpus/regressions/NAME/ for ctest")
    p.set_defaults(func=run)
