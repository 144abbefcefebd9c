# SPDX-License-Identifier: GPL-2.0
"""Paths, the user-facing error, and running and printing commands.

A library module (see __init__.py): every other module may import it, it
imports none of them.
"""
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
BUILD = os.path.join(ROOT, "build")
FUZZ_DIR = os.path.join(ROOT, "fuzz")
CORPUS_DIR = os.path.join(ROOT, "corpus")
OUT_DIR = os.path.join(ROOT, "out")

# what CMakeLists.txt says when it cannot be read (variants.correct())
CORRECT_VARIANTS = ["v6.12", "p1-3", "p1-4", "p1-5", "p1-5-lockrand"]
DEFAULT_VARIANT = "p1-5-lockrand"


class MlfError(Exception):
    """A user-facing error: printed as one line, exit status 2."""


def deprecated(old, new):
    """The one line an old spelling of a flag gets: it still works."""
    print("mlf: %s is deprecated; it means %s" % (old, new), file=sys.stderr, flush=True)


def add_deprecated(parser, old, new, dest, value=None, **kw):
    """Accept the old spelling @old of flag @new: it sets @dest (to @value
    for a flag without an argument, else to its argument) and prints
    deprecated()'s one line. Hidden from --help."""
    import argparse

    class Deprecated(argparse.Action):
        def __call__(self, parser_, namespace, values, option_string=None):
            deprecated(option_string, new)
            setattr(namespace, self.dest, value if value is not None else values)
    if value is not None:
        kw["nargs"] = 0
    parser.add_argument(old, dest=dest, action=Deprecated, help=argparse.SUPPRESS, **kw)


def check_path(path, kind="any", what=""):
    """A one-line MlfError unless @path is there, of @kind ("file", "dir",
    "any") and readable (a directory: listable), or for kind "out" a file
    whose directory is there and writable. Called before any work, so a
    mistyped path costs no build."""
    label = "%s%s" % (what + " " if what else "", path)
    if kind == "out":
        parent = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(parent):
            raise MlfError("%s: %s is not a directory" % (label, parent))
        if not os.access(parent, os.W_OK | os.X_OK):
            raise MlfError("%s: cannot write in %s" % (label, parent))
        if os.path.isdir(path):
            raise MlfError("%s: is a directory" % label)
        return
    if not os.path.exists(path):
        raise MlfError("%s: no such file or directory" % label)
    if kind == "file" and os.path.isdir(path):
        raise MlfError("%s: is a directory, not a file" % label)
    if kind == "dir" and not os.path.isdir(path):
        raise MlfError("%s: not a directory" % label)
    mode = os.R_OK | (os.X_OK if os.path.isdir(path) else 0)
    if not os.access(path, mode):
        raise MlfError("%s: permission denied" % label)


def shown_path(path):
    """@path as a person types it here: relative when under the current
    directory, else absolute (never ../../..)."""
    rel = os.path.relpath(path)
    return path if rel.startswith("..") else rel


def show(cmd, cwd=None):
    """Print a command the way a person would type it."""
    text = " ".join(shlex.quote(str(c)) for c in cmd)
    if cwd and os.path.abspath(cwd) != os.getcwd():
        text = "(cd %s && %s)" % (shlex.quote(os.path.relpath(cwd)), text)
    print("+ " + text, file=sys.stderr, flush=True)


# the line a program says why it stopped with: libFuzzer's "ERROR: ...",
# afl-fuzz's "[-] PROGRAM ABORT : ...", a sanitizer's or a tool's "error:"
ERROR_LINE = re.compile(r"^\s*(?:==\d+==\s*)?(?:ERROR|FATAL|error|fatal|"
                        r"\[-\] (?:PROGRAM ABORT|SYSTEM ERROR))\b.*$", re.M)
ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")


def error_line(text):
    """The line of @text (a program's output) that says what went wrong: its
    first error line, else its last non-empty line, else ""."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    text = ANSI.sub("", text or "")
    m = ERROR_LINE.search(text)
    if m:
        return re.sub(r"\s+", " ", m.group(0)).strip()
    lines = [line.strip() for line in text.splitlines() if line.strip()]
    return lines[-1] if lines else ""


def run(cmd, cwd=None, env=None, check=True, **kw):
    """Run a command after printing it; raise MlfError if it fails and check
    (with the command's own error line when its stderr was captured)."""
    show(cmd, cwd)
    full_env = None
    if env:
        full_env = dict(os.environ)
        full_env.update(env)
    try:
        proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=full_env, **kw)
    except OSError as e:
        raise MlfError("cannot run %s: %s" % (cmd[0], e.strerror or e))
    if check and proc.returncode != 0:
        why = error_line(proc.stderr) if isinstance(proc.stderr, (str, bytes)) else ""
        raise MlfError("command failed with status %d: %s%s"
                       % (proc.returncode, cmd[0], ": " + why if why else ""))
    return proc


def build_dir(preset):
    return os.path.join(BUILD, preset)


def write_if_changed(path, data):
    """Write @data (str or bytes) to @path unless it holds it already, by
    way of path.part so no reader sees half a file; whether it wrote."""
    binary = isinstance(data, bytes)
    try:
        with open(path, "rb" if binary else "r") as f:
            if f.read() == data:
                return False
    except OSError:
        pass
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path + ".part", "wb" if binary else "w") as f:
        f.write(data)
    os.replace(path + ".part", path)
    return True


def count_files(path):
    """The entries of a directory that are not hidden (0 if it is missing)."""
    return len([n for n in os.listdir(path) if not n.startswith(".")]) \
        if os.path.isdir(path) else 0


def sanitizer_env(base=None):
    """The environment engines and drivers run in: the sanitizers' options
    as CI uses them (halt on the first report, TSan's suppressions, no
    malloc in TSan's signal handler so libFuzzer's crash handler cannot
    hang). Options already set by the user win."""
    env = dict(os.environ if base is None else base)
    supp = os.path.join(ROOT, "sanitizers", "tsan.supp")
    env.setdefault("ASAN_OPTIONS", "abort_on_error=1:symbolize=1")
    env.setdefault("UBSAN_OPTIONS", "halt_on_error=1:print_stacktrace=1")
    env.setdefault("TSAN_OPTIONS", "halt_on_error=1:history_size=7:report_signal_unsafe=0:"
                   "suppressions=" + supp)
    return env
