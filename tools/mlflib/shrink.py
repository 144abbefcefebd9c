# SPDX-License-Identifier: GPL-2.0
"""Shrinking a failing input to a reproducer a person can read.

Two passes, each keeping the failure's signature (signatures.py):
  1. byte level: libFuzzer's -minimize_crash (fuzz preset), kept only if the
     signature survives;
  2. op level (the targets with a trace, fuzz/targets.json): delta
     debugging over the trace's lines after the header (a concurrent
     trace's ops and schedule decisions together), memcgs renumbered,
     draws taken modulo the bin count where that keeps the failure (so
     the trace says bin=4, the failure line's term, not draw=36), then
     the smallest pool and the fewest nodes that still fail; for a
     concurrent trace also the fewest tasks (renumbered) and initial
     memcgs.
A bug that only ThreadSanitizer shows (Sanitizer: tsan) is minimized in the
fuzz-tsan build, replays and all. minimize() is what `tools/mlf minimize`
and `tools/mlf zoo` call. A library module (see __init__.py).
"""
import os
import re
import shutil
import subprocess
import tempfile

from . import bugs
from . import builds
from . import common
from . import signatures
from . import story
from . import targets

# the lines of a trace's header: 'nodes N pool P', then a concurrent
# trace's run line
HEADER_WORDS = ("nodes", "run")


class Replayer:
    """Runs one input through <target>_replay of a variant/bug build."""

    def __init__(self, target, variant, bug, preset="dev", code=None):
        self.target = target
        self.build = builds.ensure_built_quiet(preset, variant, bug,
                                               targets=[target + "_replay", "mlf-trace"],
                                               code=code)
        self.driver = builds.binary(self.build, target + "_replay")
        self.trace_tool = builds.binary(self.build, "mlf-trace")
        self.runs = 0

    def run(self, path, timeout=60, env=None):
        self.runs += 1
        try:
            proc = subprocess.run([self.driver, path], capture_output=True, text=True,
                                  errors="replace", timeout=timeout,
                                  env=common.sanitizer_env(dict(os.environ, **(env or {}))))
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


def byte_minimize(target, variant, bug, path, sig, work, runs, preset="fuzz", code=None):
    """libFuzzer -minimize_crash; returns the path of the best input. The
    pass is an extra: when libFuzzer cannot run it, one line says why and
    the op-level pass goes on from the input."""
    try:
        build = builds.ensure_built_quiet(preset, variant, bug, targets=[target], code=code)
    except common.MlfError as e:
        print("mlf minimize: no byte-level pass (%s)" % e)
        return path
    out = os.path.join(work, "bytes.min")
    # it runs in @work: a path relative to ours would name nothing there
    cmd = [builds.binary(build, target), "-minimize_crash=1", "-runs=%d" % runs,
           "-exact_artifact_path=" + out, os.path.abspath(path)]
    common.show(cmd)
    proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace", cwd=work,
                          env=common.sanitizer_env())
    if os.path.exists(out):
        return out
    if proc.returncode != 0:
        # status 0 without a file: nothing smaller fails; else it did not run
        print("mlf minimize: no byte-level pass (libFuzzer, status %d: %s)"
              % (proc.returncode, common.error_line(proc.stderr) or "no output"))
    return path


def presets(bug, sanitizer=None):
    """(replay preset, libFuzzer preset) to minimize a failure of @bug in:
    ThreadSanitizer's fuzz build for a bug only it shows, or for a crash
    of a campaign under @sanitizer "tsan" (a race in a user's patch), else
    dev and fuzz."""
    b = bugs.get(bug) if bug else None
    if sanitizer == "tsan" or (b is not None and b.sanitizer == "tsan"):
        return "fuzz-tsan", "fuzz-tsan"
    return "dev", "fuzz"


def split_trace(text):
    """(header lines, op lines) of a trace, comments and blank lines
    dropped; a concurrent trace's op lines include its decisions."""
    header, ops = [], []
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.split()[0] in HEADER_WORDS and not ops:
            header.append(line)
        else:
            ops.append(line)
    return header, ops


def describe(trace):
    """", 5 ops" (", 3 ops, 2 decisions" for a concurrent trace), or ""."""
    if not trace:
        return ""
    lines = split_trace(trace)[1]
    decisions = sum(1 for line in lines if line.split()[0] in ("switch", "change"))
    ops = len(lines) - decisions
    return ", %d op%s%s" % (ops, "" if ops == 1 else "s",
                            ", %d decision%s" % (decisions, "" if decisions == 1 else "s")
                            if decisions else "")


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


RUN_FIELD = re.compile(r"\b(writers|readers|initial)=(\d+)")
TASK = re.compile(r"\bt(\d+)\b")


def run_fields(line):
    """{writers, readers, initial: N} of a concurrent trace's run line."""
    return {k: int(v) for k, v in RUN_FIELD.findall(line)}


def with_fields(line, **fields):
    """The run line with some of its fields changed."""
    return RUN_FIELD.sub(lambda m: "%s=%d" % (m.group(1), fields.get(m.group(1),
                                                                     int(m.group(2)))), line)


def compact_tasks(run, ops):
    """(run line, op lines) with the tasks that have ops renumbered
    t0, t1, ... (writers, then readers) and the others gone; None when a
    decision switches to a task without ops (dropping it would change
    the schedule) or nothing would change."""
    f = run_fields(run)
    writers, readers = f.get("writers", 1), f.get("readers", 1)
    used = sorted({int(m) for op in ops for m in TASK.findall(op.split()[0])})
    targets_ = {int(m) for op in ops if op.startswith("switch")
                for m in TASK.findall(op)}
    if not targets_ <= set(used):
        return None
    w = [t for t in used if t < writers] or [0]
    r = [t for t in used if t >= writers] or [writers]
    if len(w) == writers and len(r) == readers:
        return None
    old = w + r
    rename = {t: i for i, t in enumerate(old)}
    # rcu's decisions: 'to=rcu' stays

    def fix(op):
        return TASK.sub(lambda m: "t%d" % rename[int(m.group(1))], op)
    return with_fields(run, writers=len(w), readers=len(r)), [fix(op) for op in ops]


def small_first(low, high):
    """Values from @low up to (not with) @high to try, smallest first: the
    first 16, then half of @high (a pool may be 2048)."""
    return sorted(v for v in set(range(low, min(high, low + 16))) | {high // 2}
                  if low <= v < high)


# the random draws of an op line (draw=, draws=, bin=, bins=); a draw byte
# reads as byte % ceil (src/kernel/random.h), so for a bin 36 is 4
DRAWS = re.compile(r"\b(draws?|bins?)=([\d,]+)")
NR_BINS = 8  # MEMCG_NR_BINS (src/mm/mmzone.h)


def small_draws(op):
    """@op with each draw of NR_BINS or more taken modulo NR_BINS (what it
    means as a bin: the trace then prints bin=, the failure line's own
    term), or None if it has none."""
    changed = []

    def fix(m):
        vals = [int(v) for v in m.group(2).split(",") if v]
        new = [v % NR_BINS if v >= NR_BINS else v for v in vals]
        if new != vals:
            changed.append(True)
        return "%s=%s" % (m.group(1), ",".join(str(v) for v in new))
    out = DRAWS.sub(fix, op)
    return out if changed else None


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
    # draws in the trace's own terms: bin=4 where the failure says bin=4,
    # not draw=36, wherever that keeps the failure
    for i, op in enumerate(ops):
        smaller = small_draws(op)
        if smaller and fails(ops[:i] + [smaller] + ops[i + 1:]):
            ops = ops[:i] + [smaller] + ops[i + 1:]
    # a concurrent trace: the fewest tasks and initial memcgs that still fail
    if len(header) > 1 and header[1].startswith("run "):
        compact = compact_tasks(header[1], ops)
        if compact and fails(compact[1], header[:1] + [compact[0]]):
            header, ops = header[:1] + [compact[0]], compact[1]
        initial = run_fields(header[1]).get("initial", 0)
        for k in small_first(0, initial):
            head = header[:1] + [with_fields(header[1], initial=k)]
            if fails(ops, head):
                header = head
                break
    # the smallest pool and fewest nodes that still fail
    m = re.match(r"nodes (\d+) pool (\d+)", header[0])
    if m:
        nodes, pool = int(m.group(1)), int(m.group(2))
        used = [int(x) for op in ops for x in re.findall(r"\bm(\d+)\b", op)]
        # a concurrent trace's initial memcgs are slots too
        used += [run_fields(h).get("initial", 0) - 1 for h in header[1:]]
        for p in small_first(max(used) + 1 if used else 1, pool):
            if fails(ops, ["nodes %d pool %d" % (nodes, p)] + header[1:]):
                pool = p
                break
        for k in range(1, nodes):
            if fails(ops, ["nodes %d pool %d" % (k, pool)] + header[1:]):
                nodes = k
                break
        header = ["nodes %d pool %d" % (nodes, pool)] + header[1:]
    final = targets.trace_magic(rep.target) + "\n" + "\n".join(header + ops) + "\n"
    out = os.path.join(work, "ops.min")
    rep.encode(final, out)
    if rep.run(out)[0] != sig:
        raise common.MlfError("the minimized trace lost the signature %s" % sig)
    return rep.decode(out), out


def minimize(path, target, variant=None, bug=None, runs=20000, code=None, sanitizer=None):
    """Returns (signature, minimized bytes path, trace text or None, work dir).
    @sanitizer "tsan": the failure is ThreadSanitizer's (its campaign's)."""
    code = code or builds.Code()
    replay_preset, fuzz_preset = presets(bug, sanitizer)
    rep = Replayer(target, variant, bug, replay_preset, code)
    sig, err = rep.run(path)
    if not sig:
        what = bug or variant or (code.default_variant() + " (the default variant)")
        if not code.is_default():
            what += " of " + " ".join(code.flags())
        raise common.MlfError("%s does not fail on %s" % (path, what))
    work = tempfile.mkdtemp(prefix="mlf-minimize-")
    try:
        best = byte_minimize(target, variant, bug, path, sig, work, runs, fuzz_preset, code)
        if best != path and rep.run(best)[0] != sig:
            best = path
        trace = None
        if targets.trace_magic(target):
            trace, best = op_minimize(rep, best, sig, work)
            # the trace opens with its story, as every reproducer's does
            # as a user replays it: the code, the seed level, the build
            command = " ".join(
                ["tools/mlf replay"] + (["--timeline"] if target == "concurrent" else []) +
                code.flags() + (["--seed-level", variant] if variant else []) +
                (["--bug", bug] if bug else []) +
                (["--preset", replay_preset] if replay_preset != "dev" else []) + ["FILE"])
            trace = story.annotate(trace, story.block(
                target, trace, rep.run(best, env=story.ENV)[1], None, command))
    except BaseException:
        # an error (or Ctrl-C) leaves no work directory behind
        shutil.rmtree(work, ignore_errors=True)
        raise
    return sig, best, trace, work
