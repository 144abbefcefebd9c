# SPDX-License-Identifier: GPL-2.0
"""A reproducer's story: the comment block its trace opens with.

As tools/testing/radix-tree/regression1.c opens with the interleaving it
reproduces, each corpus/regressions/*/<input>.trace opens (after its magic
line) with '#' lines: what the input is for (its README's lead and its
Fixed by: or Origin: line; a line made from the failure), then what the
engine saw when it ran it, taken from the replay driver's own output and
not written by hand: for a sequential target the ops up to the failing
one; for the concurrent target the run turn by turn (who runs what, where
it is preempted, blocks or fails) and its timeline (MLF_SCHED_TIMELINE: a
line per stretch of steps one task ran in one op); then what the check
saw. Comment lines encode to nothing, so the block never changes the
input. block() makes it, annotate() puts it in a trace, tell() writes it
into a regression directory's traces (tools/mlf trace annotate), and
has_block() is what ctest tools/stories asks of every reproducer.
"""
import filecmp
import os
import re
import subprocess
import tempfile
import textwrap

from . import bugs
from . import builds
from . import common
from . import regressions
from . import signatures
from . import targets

# the replay driver's environment for a run whose story is told
ENV = {"MLF_SCHED_TIMELINE": "1", "MLF_SCHED_STEPS": "1", "MLF_SCHED_SHOW": "0"}
# the line under which the engine's part begins
SAW = "# What the engine sees"
WIDTH = 76
# timeline lines kept: the first few and the last ones (the failure)
HEAD_SPANS, TAIL_SPANS = 4, 24
# sequential ops named before the failing one
OPS_SHOWN = 6
# turns told in sentences: the last ones
TURNS = 12


def wrap(text, indent=""):
    return ["#" + (" " + l if l else "") for l in
            textwrap.wrap(text, WIDTH - 2, initial_indent=indent,
                          subsequent_indent=indent, break_on_hyphens=False)]


def _race(out):
    """A ThreadSanitizer data race in @out as _failure() says a failure:
    its check is race, its op the one the last timeline span was in."""
    if "WARNING: ThreadSanitizer: data race" not in out:
        return None
    sig = signatures.signature(out)
    access = re.findall(r"^  ((?:Previous )?(?:Atomic )?(?:read|write) of size \d+) at ",
                        out, re.M | re.I)
    spans = _timeline(out)
    op = spans[-1][2] if spans else "-"
    what = " against ".join(a[0].lower() + a[1:] for a in access[:2])
    return ("race", op, "", "ThreadSanitizer reports a data race (%s)%s" % (
        sig, ": " + what if what else ""), None)


def _failure(out):
    """(check, op, where-words, message, function) of a failure in @out, or None."""
    if "MLF FAILURE: " not in out:
        return _race(out)
    m = re.search(r"^MLF FAILURE: check=(\S+)(?: op=(\d+))?([^\n]*)\n(?:  ([^\n]*)\n)?", out,
                  re.M)
    if not m:
        return None
    fn = re.search(r"^in (\S+\(\)) at ", out, re.M)
    # addresses differ from run to run: the story names none
    msg = re.sub(r"0x[0-9a-f]+", "an address", m.group(4) or "")
    return m.group(1), m.group(2) or "-", m.group(3).strip(), msg, fn.group(1) if fn else None


def _at(op):
    return "outside an op" if op == "-" else "at op " + op


def _ops(trace):
    """The op lines of @trace (no magic, comment, header or run line)."""
    out = []
    for line in trace.splitlines():
        if not line or line.startswith("#") or re.match(r"(nodes|run|switch|change|weak) ", line):
            continue
        out.append(line)
    return out


def _timeline(out):
    """The timeline's span lines, as (steps, task, op text, end)."""
    spans = []
    for m in re.finditer(r"^  span (\S+) +(\S+) +op (\S+) +(.*?) +\| (.*)$", out, re.M):
        spans.append(m.groups())
    return spans


def summary(readme):
    """The person-written part: a README's opening prose (what the bug or
    the false alarm is) and its "Fixed by:" or "Origin:", as plain sentences. Its account of the input
    stays in the README: the engine's part below tells the run as it is."""
    out = []
    for p in re.split(r"\n\s*\n", readme):
        p = p.strip()
        if p and not p.startswith(("<!--", "#", "-", "```")):
            out.append(p)
            break
    # where it comes from, as regression1.c's "Upstream commit:"
    m = re.search(r"^- ((?:Fixed by|Origin): .*?)(?=\n- |\n\n|\Z)", readme, re.M | re.S)
    if m:
        out.append(m.group(1))
    return [" ".join(p.split()).replace("`", "") for p in out]


def _end(end, fail):
    """How a span ended, as the tail of a sentence."""
    m = re.match(r"(op done|preempted|blocks|its ops done|<- the run ends here) at (.*)$", end)
    if not m:
        return ""
    how, where = m.groups()
    if how == "preempted":
        return ", and is preempted in it at " + where
    if how == "blocks":
        return ", and blocks in it at " + where
    if how == "its ops done":
        return ", and is done"
    if how.startswith("<-"):
        return (", and fails in it at " if fail else ", and the run ends in it at ") + where
    return ""


def turns(spans, fail):
    """The run turn by turn: one sentence per stretch of spans of one task,
    what it runs and how the turn ends (where the preemption falls)."""
    out, begun = [], set()
    i = 0
    while i < len(spans):
        j = i
        while j + 1 < len(spans) and spans[j + 1][1] == spans[i][1]:
            j += 1
        task = spans[i][1]
        if task == "rcu":
            said = "runs its grace periods and callbacks"
        else:
            said = ""
            for k, (steps, _, op, what, end) in enumerate(spans[i:j + 1]):
                if (task, op) in begun:
                    said += "goes on with " + what
                else:
                    said += ("runs " if not k else "") + what
                said += "; " if i + k < j else ""
                begun.add((task, op))
        a, b = spans[i][0].split("-")[0], spans[j][0].split("-")[-1]
        end = _end(spans[j][4], fail)
        out.append("%s %s%s (%s)." % (task, said, end.replace(" in it", "") if task == "rcu" else end,
                                      "step " + a if a == b else "steps %s-%s" % (a, b)))
        i = j + 1
    return out


def block(target, trace, out, about, command):
    """The comment block (lines, '#' each) of @trace, whose run by
    @command printed @out; @about: the person-written paragraphs (a list),
    or None for a line made from the failure."""
    fail = _failure(out)
    lines = []
    for p in about or []:
        lines += wrap(p)
    if fail:
        lines += wrap("A %s input that fails %s %s%s." % (
            target, fail[0], _at(fail[1]), " (%s)" % fail[2] if fail[2] else ""))
    else:
        lines += wrap("A %s input that replays clean." % target)
    lines.append("#")
    lines.append("%s (%s):" % (SAW, command))
    spans = _timeline(out)
    if spans:
        # a failure outside an op (the checks after the run) is no task's
        in_op = fail if fail and fail[1] != "-" else None
        told = turns(spans, in_op)
        if fail and not in_op:
            told.append("Then, after the last step, the run fails.")
        first = max(0, len(told) - TURNS)
        if first:
            lines.append("#   1.-%d. (%d earlier turns: the command above prints them)"
                         % (first, first))
        for k, sentence in enumerate(told[first:], first + 1):
            if sentence.startswith("Then "):
                lines += wrap(sentence, "     ")
                continue
            lines += ["# " + l for l in textwrap.wrap(
                sentence, WIDTH - 2, initial_indent="%3d. " % k, subsequent_indent="     ",
                break_on_hyphens=False)]
        lines.append("#")
        lines.append("# The timeline, a line per stretch one task ran in one op:")
        lines.append("#   steps      task op  what                               | how it ended")
        shown = spans
        if len(spans) > HEAD_SPANS + TAIL_SPANS:
            shown = spans[:HEAD_SPANS] + [None] + spans[-TAIL_SPANS:]
        for sp in shown:
            if sp is None:
                lines.append("#   ... %d stretches ..." % (len(spans) - HEAD_SPANS - TAIL_SPANS))
                continue
            steps, task, op, what, end = sp
            end = end.replace("<- the run ends here", "fails here" if in_op else "the run ends")
            lines.append(("#   %-10s %-4s %-3s %-34s | %s" % (steps, task, op, what, end)).rstrip())
    elif fail and fail[1] not in ("-",):
        ops = _ops(trace)
        at = int(fail[1])
        first = max(0, at - OPS_SHOWN)
        if at > 0:
            lines.append("#   %s run%s clean: %s" % (
                "ops 0-%d" % (at - 1) if at > 1 else "op 0", "" if at > 1 else "s",
                "; ".join(ops[first:at]) if first == 0 else
                "...; " + "; ".join(ops[first:at])))
        if at < len(ops):
            lines.append("#   op %d, %s, fails" % (at, ops[at]))
    lines.append("#")
    if fail:
        lines += wrap("The check then sees: %s %s%s%s: %s" % (
            fail[0], _at(fail[1]), " (%s)" % fail[2] if fail[2] else "",
            " in " + fail[4] if fail[4] else "", fail[3]))
    else:
        lines += wrap("The check then sees: nothing; the run is clean.")
    return lines


def _split(text):
    """(magic line or None, the leading comment lines, the rest) of a trace."""
    lines = text.splitlines(True)
    magic = None
    if lines and lines[0].rstrip("\n") in [targets.trace_magic(t) for t in targets.with_trace()]:
        magic = lines.pop(0)
    i = 0
    while i < len(lines) and lines[i].startswith("#"):
        i += 1
    return magic, lines[:i], "".join(lines[i:])


def annotate(text, lines):
    """@text with its opening comment block replaced by @lines."""
    magic, _, rest = _split(text)
    return (magic or "") + "".join(l + "\n" for l in lines) + rest


def has_block(text):
    """Whether @text opens with a story: a comment line of what the input is
    for, then the engine's part."""
    _, comments, _ = _split(text)
    saw = [i for i, l in enumerate(comments) if l.startswith(SAW)]
    return bool(saw) and saw[0] > 0 and any(l.startswith("# The check then sees:")
                                            for l in comments[saw[0]:])


def tell(d, preset="dev"):
    """Write the story into each trace twin of regression directory @d
    (corpus/regressions/<name>/), replaying its input on the build it
    fails on (a bug-* directory's bug driver, else the default variant's);
    returns the traces it changed. Refuses (one-line MlfError) a story
    whose trace would encode to other bytes than the input's."""
    name = os.path.basename(os.path.normpath(d))
    target = regressions.dir_target(d) or regressions.DEFAULT_TARGET
    if target not in targets.with_trace():
        raise common.MlfError("%s: target %s has no trace to tell a story in" % (d, target))
    bug = name if bugs.get(name) is not None else None
    driver = target + "_replay" + ("_" + bug if bug else "")
    build = builds.ensure_built_quiet(preset, targets=[driver, "mlf-trace"])
    driver, tool = builds.binary(build, driver), builds.binary(build, "mlf-trace")
    readme = None
    if os.path.exists(os.path.join(d, "README.md")):
        with open(os.path.join(d, "README.md"), encoding="utf-8") as f:
            readme = f.read()
    changed = []
    for inp in targets.input_files(d):
        twin = inp + ".trace"
        if not os.path.exists(twin):
            continue
        about = summary(readme) if readme else None
        with open(twin, encoding="utf-8") as f:
            text = f.read()
        proc = subprocess.run([driver, inp], capture_output=True, text=True,
                              errors="replace", env=common.sanitizer_env(dict(os.environ, **ENV)))
        command = "tools/mlf replay%s%s%s %s" % (
            " --timeline" if target == "concurrent" else "",
            " --preset tsan" if "tsan" in preset else "",
            " --bug " + bug if bug else "", os.path.relpath(d, common.ROOT))
        new = annotate(text, block(target, text, proc.stderr, about, command))
        with tempfile.TemporaryDirectory() as tmp:
            with open(os.path.join(tmp, "t.trace"), "w", encoding="utf-8") as f:
                f.write(new)
            subprocess.run([tool, "encode", "--target", target, os.path.join(tmp, "t.trace"),
                            "-o", os.path.join(tmp, "t")], check=True, capture_output=True)
            if not filecmp.cmp(os.path.join(tmp, "t"), inp, shallow=False):
                raise common.MlfError("%s: its story would change the input it encodes; "
                                      "not writing it" % os.path.relpath(twin))
        if new != text:
            with open(twin, "w", encoding="utf-8") as f:
                f.write(new)
            changed.append(twin)
    return changed

