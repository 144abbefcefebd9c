# SPDX-License-Identifier: GPL-2.0
"""Helpers shared by the subcommands: paths, running and printing commands."""
import os
import shlex
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
BUILD = os.path.join(ROOT, "build")

CORRECT_VARIANTS = ["v6.12", "p1-3", "p1-4", "p1-5", "p1-5-lockrand"]
DEFAULT_VARIANT = "p1-5-lockrand"


class MlfError(Exception):
    """A user-facing error: printed as one line, exit status 2."""


def show(cmd, cwd=None):
    """Print a command the way a person would type it."""
    text = " ".join(shlex.quote(str(c)) for c in cmd)
    if cwd and os.path.abspath(cwd) != os.getcwd():
        text = "(cd %s && %s)" % (shlex.quote(os.path.relpath(cwd)), text)
    print("+ " + text, file=sys.stderr, flush=True)


def run(cmd, cwd=None, env=None, check=True, **kw):
    """Run a command after printing it; raise MlfError if it fails and check."""
    show(cmd, cwd)
    full_env = None
    if env:
        full_env = dict(os.environ)
        full_env.update(env)
    proc = subprocess.run([str(c) for c in cmd], cwd=cwd, env=full_env, **kw)
    if check and proc.returncode != 0:
        raise MlfError("command failed with status %d: %s" % (proc.returncode, cmd[0]))
    return proc


def build_dir(preset):
    return os.path.join(BUILD, preset)


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
