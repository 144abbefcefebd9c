# SPDX-License-Identifier: GPL-2.0
"""corpus/regressions/<name>/: whose inputs a directory holds, and filing one.

A regression directory's target is its TARGET file's; a directory named
after a bug of the zoo (bug-*) is that bug's main target (the first Expect:
line of zoo/<bug>.patch, which also names the check its reproducer must
fail with); any other is memcg_lru's. guess_target() extends that to any
path (corpus/<target>/, a campaign's <target>/ directory), and group()
splits paths into per-target lists of inputs, so that tools given
corpus/regressions as a whole run each directory's inputs through the right
target. A library module (see __init__.py).
"""
import os
import shutil

from . import bugs
from . import common
from . import targets

REGRESSIONS = os.path.join(common.CORPUS_DIR, "regressions")
DEFAULT_TARGET = "memcg_lru"
FLAKY_TEXT = "a concurrent failure: replays fail only some of the time"


def _marker(d, name):
    try:
        with open(os.path.join(d, name), encoding="utf-8") as f:
            return f.read().strip() or None
    except OSError:
        return None


def dir_target(d):
    """The target whose inputs directory @d holds by its own say: a bug-*
    directory's zoo patch, else its TARGET file, else None."""
    bug = bugs.get(os.path.basename(os.path.normpath(d)))
    if bug is not None:
        return bug.target
    return _marker(d, "TARGET")


def guess_target(path):
    """The target of an input file or directory, by where it is: a
    regression directory's (dir_target(), else memcg_lru), corpus/<target>,
    out/<target> or any <target> directory on the way; None if nothing says."""
    known = targets.names()
    parts = os.path.abspath(path).split(os.sep)
    for i, part in enumerate(parts[:-1]):
        if part in ("corpus", "out") and parts[i + 1] in known:
            return parts[i + 1]
        if part == "regressions":
            return dir_target(os.sep.join(parts[:i + 2])) or DEFAULT_TARGET
    # a file directly in a directory with its own say (a TARGET file)
    d = path if os.path.isdir(path) else os.path.dirname(os.path.abspath(path))
    own = dir_target(d)
    if own:
        return own
    for part in reversed(parts):
        if part in known:
            return part
    return None


def group(path, target=None):
    """[(target, [input files])] of @path: with @target, all of them its;
    corpus/regressions as a whole, each directory by its own target; else
    guess_target()'s (None where nothing tells)."""
    if target or not os.path.isdir(path) or os.path.basename(
            os.path.abspath(path)) != "regressions":
        return [(target or guess_target(path), targets.input_files(path))]
    out = []
    loose = [os.path.join(path, n) for n in sorted(os.listdir(path))
             if targets.is_input_name(n) and os.path.isfile(os.path.join(path, n))]
    if loose:
        out.append((DEFAULT_TARGET, loose))
    for n in sorted(os.listdir(path)):
        d = os.path.join(path, n)
        if targets.is_input_name(n) and os.path.isdir(d):
            out.append((dir_target(d) or DEFAULT_TARGET, targets.input_files(d)))
    return out


def check_name(name, target, check=None):
    """A one-line MlfError unless a @target reproducer (failing with @check,
    when given) may be filed as corpus/regressions/@name/: it must not be
    there yet, and a bug-* name must be a zoo bug whose patch names that
    target and check (its main Expect: line)."""
    dest = os.path.join(REGRESSIONS, name)
    if os.path.exists(dest):
        raise common.MlfError("%s exists; not overwriting it" % os.path.relpath(dest))
    if not name.startswith("bug-"):
        return
    bug = bugs.get(name)
    if bug is None:
        raise common.MlfError("no zoo/%s.patch: a bug-* directory holds a bug variant's "
                              "reproducer (tools/mlf list variants)" % name)
    if target != bug.target:
        raise common.MlfError("%s's reproducer is a %s input (zoo/%s.patch), not %s"
                              % (name, bug.target, name, target))
    if check is not None and not bugs.catches(check, bug.check):
        raise common.MlfError("the input fails with %s, but zoo/%s.patch expects %s: "
                              "not filing it as %s" % (check, name, bug.check, name))


def save(name, target, best, trace=None, flaky=False, check=None):
    """File a reproducer as corpus/regressions/@name/ (repro, repro.trace,
    FLAKY when @flaky) after check_name(); returns the directory. A bug-*
    directory gets no TARGET or EXPECT file: its patch says both. Another
    gets a TARGET file when @target is not memcg_lru."""
    check_name(name, target, check)
    dest = os.path.join(REGRESSIONS, name)
    os.makedirs(dest)
    shutil.copyfile(best, os.path.join(dest, "repro"))
    files = {}
    if trace:
        files["repro.trace"] = trace
    if flaky:
        files["FLAKY"] = FLAKY_TEXT + "\n"
    if not name.startswith("bug-") and target != DEFAULT_TARGET:
        files["TARGET"] = target + "\n"
    for fname, text in files.items():
        with open(os.path.join(dest, fname), "w", encoding="utf-8") as f:
            f.write(text)
    return dest
