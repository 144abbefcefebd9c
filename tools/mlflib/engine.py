# SPDX-License-Identifier: GPL-2.0
"""Running the engines (libFuzzer, AFL++, the replay drivers) and reading
what they say: their options and figures, and whether they ran at all.

An engine that does not start (a flag it refuses, a corpus directory that
is not there) or runs nothing must fail the command with the engine's own
error line, not end in a summary of zero executions: check_libfuzzer_args()
refuses what libFuzzer would not start with before anything is run, and
not_run() tells, from the exit status, the output and the figures, whether
a run did any work. A library module (see __init__.py).
"""
import os
import re
import subprocess
import sys
import tempfile

from . import builds
from . import common
from . import targets


def run_tee(cmd, cwd=None, env=None, stdout=None):
    """Run a command after printing it, showing its stderr and keeping it
    (@stdout: where its stdout goes, the terminal by default)."""
    common.show(cmd, cwd)
    full_env = common.sanitizer_env()
    full_env.update(env or {})
    try:
        proc = subprocess.Popen([str(c) for c in cmd], cwd=cwd, env=full_env, stdout=stdout,
                                stderr=subprocess.PIPE, text=True, errors="replace")
    except OSError as e:
        raise common.MlfError("cannot run %s: %s" % (cmd[0], e.strerror or e))
    kept = []
    for line in proc.stderr:
        sys.stderr.write(line)
        kept.append(line)
    proc.wait()
    return proc.returncode, "".join(kept)


def read_options(target):
    """libFuzzer flags from fuzz/<target>.options ([libfuzzer] section)."""
    path = os.path.join(common.FUZZ_DIR, target + ".options")
    flags, section = [], None
    if not os.path.exists(path):
        return flags
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("["):
                section = line.strip("[]").strip()
            elif section == "libfuzzer" and "=" in line:
                key, value = (x.strip() for x in line.split("=", 1))
                if key == "dict":
                    value = os.path.join(common.FUZZ_DIR, value)
                flags.append("-%s=%s" % (key, value))
    return flags


def libfuzzer_stats(text):
    """Sum stat::number_of_executed_units / average_exec_per_sec over jobs."""
    execs = sum(int(x) for x in re.findall(r"stat::number_of_executed_units:\s*(\d+)", text))
    rate = sum(int(x) for x in re.findall(r"stat::average_exec_per_sec:\s*(\d+)", text))
    return execs, rate


def fork_execs(text):
    """The inputs run by a libFuzzer -fork=N campaign: its last status line's
    count ("#123: cov: ..."), 0 if it printed none."""
    found = re.findall(r"^#(\d+): cov:", text, re.M)
    return int(found[-1]) if found else 0


def afl_stats(path):
    """AFL++'s fuzzer_stats file as {key: value} ({} if it is not there)."""
    stats = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8", errors="replace") as f:
            for line in f:
                if ":" in line:
                    key, value = line.split(":", 1)
                    stats[key.strip()] = value.strip()
    return stats


def check_libfuzzer_args(extra, command):
    """A one-line MlfError for flags passed through to libFuzzer that it
    would not start with: libFuzzer ignores "--name" and takes any other
    word for a corpus directory, which must exist (ERROR: The required
    directory "p1-3" does not exist)."""
    for arg in extra:
        if arg.startswith("--"):
            raise common.MlfError("%s is not an option of %s (flags for libFuzzer are "
                                  "-name=value)" % (arg.split("=", 1)[0], command))
        if not arg.startswith("-") and not os.path.exists(arg):
            raise common.MlfError("%s: no such corpus directory (%s passes words that are "
                                  "not its own to libFuzzer as corpus directories)"
                                  % (arg, command))


def not_run(engine, rc, text, execs, found):
    """Why a fuzzing run did no work, or None if it did.

    @rc is the engine's exit status, @text its output, @execs the inputs it
    ran, @found whether it left a crash (or timeout, oom) file: an engine
    that found something did run, whatever its status. Otherwise a non-zero
    status, or no input run, means it did not fuzz: the reason is the
    engine's own error line."""
    if found:
        return None
    line = common.error_line(text)
    if rc:
        return "%s stopped with status %d%s" % (engine, rc, ": " + line if line else "")
    if not execs:
        return "%s ran no input%s" % (engine, " (its last words: %s)" % line if line else "")
    return None


def replay_files(driver, files):
    """Run every file through a replay driver; after a failure go on with
    the files after it. Returns the failed files. The driver's own count
    ("replayed N inputs") is not shown: the caller prints the one summary."""
    failed, rest = [], list(files)
    while rest:
        sys.stdout.flush()
        rc, err = run_tee([driver] + rest, stdout=subprocess.DEVNULL)
        if rc == 0:
            break
        m = re.findall(r"^replay: the failing input is (.*)$", err, re.M)
        if not m or m[-1] not in rest:
            # the driver stopped before naming an input: say what it said
            why = common.error_line(err)
            failed.append(rest[0] if len(rest) == 1 else "(unknown input, status %d%s)"
                          % (rc, ": " + why if why else ""))
            break
        failed.append(m[-1])
        rest = rest[rest.index(m[-1]) + 1:]
    return failed


# ---- readable traces given where inputs are read ----

def encoded(files, target=None, work=None):
    """@files with each readable trace (a file that starts with a trace magic
    line) replaced by its input's bytes, encoded by mlf-trace into @work (a
    new temporary directory when None); returns (files, work or None). A
    trace of another target than @target is a one-line MlfError: its text
    is never run as bytes."""
    out, shown, tool = [], {}, None
    for path in files:
        magic_target = targets.trace_target_of_file(path)
        if magic_target is None:
            out.append(path)
            continue
        if target and magic_target != target:
            raise common.MlfError("%s is a %s trace (its magic line), not a %s input"
                                  % (path, magic_target, target))
        if work is None:
            work = tempfile.mkdtemp(prefix="mlf-traces-")
        if tool is None:
            tool = builds.binary(builds.ensure_built_quiet("dev", targets=["mlf-trace"]),
                                 "mlf-trace")
        dst = os.path.join(work, "%d-%s" % (len(out), os.path.basename(path)))
        if dst.endswith(".trace"):
            dst = dst[:-len(".trace")]
        proc = common.run([tool, "encode", path, "-o", dst], check=False,
                          capture_output=True, text=True, errors="replace")
        if proc.returncode != 0:
            raise common.MlfError("%s: %s" % (path, common.error_line(proc.stderr)
                                              or "mlf-trace encode failed"))
        out.append(dst)
        shown[dst] = path
    return out, shown, work


# ---- the structure-aware mutator (fuzz/mutator.h) ----

MUTATORS = ("ops", "bytes")


def mutator():
    """The mutator engines run with: MLF_MUTATOR, "ops" when unset."""
    return os.environ.get("MLF_MUTATOR") or "ops"


def set_mutator(name):
    """Run the engines of this command with @name (None: leave it)."""
    if name:
        os.environ["MLF_MUTATOR"] = name


def add_mutator_argument(parser):
    parser.add_argument(
        "--mutator", choices=MUTATORS,
        help="ops: the structure-aware mutator of the targets that have one (fuzz/mutator.h; "
             "the default); bytes: the engine's own byte mutations. Sets MLF_MUTATOR, which "
             "the targets read")


# ---- the memory model of the scheduled engine (kernel/wmm.h) ----

MEMORY_MODELS = ("lkmm", "sc")


def memory_model():
    """The memory model the concurrent target runs under: MLF_MEMORY_MODEL,
    "lkmm" when unset."""
    return os.environ.get("MLF_MEMORY_MODEL") or "lkmm"


def set_memory_model(name):
    """Run the scheduled engine of this command under @name (None: leave
    it): MLF_MEMORY_MODEL, which the concurrent target reads."""
    if name:
        os.environ["MLF_MEMORY_MODEL"] = name


def add_memory_model_argument(parser, env=True):
    parser.add_argument(
        "--memory-model", choices=MEMORY_MODELS,
        help="the scheduled engine's memory model: lkmm, the weak one after the Linux "
             "kernel memory model, whose choices (which store a load reads) the input or "
             "the exploration makes (the default); sc: sequential consistency, every load "
             "the newest store (docs/weak-memory.md)%s"
             % (". Sets MLF_MEMORY_MODEL, which the concurrent target reads" if env else ""))
