#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The one patch applier: the seed series, the zoo and a user's --patches.

GNU patch applies every hunk (patch -p1 conventions, no fuzz: every
context line must match, at the hunk's line or at an offset). This file
only finds the patches in a file and says why one does not apply:

- A patch file is an mbox (`git format-patch`, "From <sha> ..." lines),
  a mail thread as the seeds keep it (messages starting "[PATCH ...]";
  "Re: ..." replies, whose diffs are quoted, are skipped), or a plain
  diff. Each of its patches is applied in turn.
- Only the diffs of files under the root that are there are applied: a
  kernel tree's copy holds the files the cut reads (kernel/extract.py), so
  a series' other files are skipped with a note; a zoo patch's src/ diffs
  go to a copy of src/ (--only src/), its tree diffs to the tree's copy.
- A hunk that does not apply stops everything with one line naming the
  patch, the hunk and the first line of the file that differs from it
  (where most of its leading lines match), e.g.
    bad.diff: hunk #1 of mm/vmscan.c (@@ -20,4 +20,4 @@) does not apply:
    line 22 reads 'line 22', the hunk expects 'line 22x'
  unless the patch has an adaptation that applies: a file of the same
  name in a directory of adaptations (kernel/series/seed/6.12/, ...),
  which is applied instead and printed ("adapted: ...", with the first
  paragraph of its text).
- Nothing half-made stays behind: the copy is made in DIR.tmp and
  renamed to DIR only when every patch applied.

usage: patch_tree.py --tree TREE --out DIR [--series FILE --level L] [PATCH...]
       patch_tree.py --copy SRC --out DIR --only src/ PATCH...
Errors: one line on stderr, "mlf kernel: ...", exit status 2.
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import extract  # noqa: E402

HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")
SUBJECT_RE = re.compile(r"^(?:Subject: )?(\[PATCH[^\]]*\].*)$")
GNU_PATCH = ["patch", "--batch", "--forward", "--fuzz=0", "--no-backup-if-mismatch",
             "--reject-file=-"]


class PatchError(Exception):
    """One line for the user."""


class Hunk:
    def __init__(self, number, header, old_start, lines):
        self.number, self.header, self.old_start = number, header, old_start
        self.lines = lines      # (' ' | '-' | '+', text)

    def old(self):
        return [t for k, t in self.lines if k in " -"]


class FileDiff:
    def __init__(self, path):
        self.path, self.hunks, self.text = path, [], []


class Patch:
    def __init__(self, name, source):
        self.name, self.source, self.files = name, source, []


def _strip_path(p):
    p = p.strip().split("\t")[0]
    if p == "/dev/null":
        return None
    return p.split("/", 1)[1] if "/" in p else p


def parse_diffs(lines, name, source):
    """The file diffs in @lines (one patch's text), each with its own text."""
    patch = Patch(name, source)
    i, n = 0, len(lines)
    cur = None
    while i < n:
        line = lines[i]
        if line.startswith("--- ") and i + 1 < n and lines[i + 1].startswith("+++ "):
            cur = FileDiff(_strip_path(lines[i + 1][4:]) or _strip_path(line[4:]))
            cur.text = [line, lines[i + 1]]
            patch.files.append(cur)
            i += 2
            continue
        m = HUNK_RE.match(line)
        if m and cur is not None:
            old_len = int(m.group(2)) if m.group(2) is not None else 1
            new_len = int(m.group(4)) if m.group(4) is not None else 1
            body, start, i = [], i, i + 1
            o = nw = 0
            while i < n and (o < old_len or nw < new_len):
                l = lines[i]
                if l.startswith("\\"):      # "\ No newline at end of file"
                    i += 1
                    continue
                kind, text = (l[0], l[1:]) if l else (" ", "")
                if kind not in " -+":
                    raise PatchError("%s: hunk #%d of %s (%s) ends early at %r"
                                     % (name, len(cur.hunks) + 1, cur.path,
                                        line.strip(), l[:40]))
                o += kind in " -"
                nw += kind in " +"
                body.append((kind, text))
                i += 1
            cur.hunks.append(Hunk(len(cur.hunks) + 1, line.strip(), int(m.group(1)), body))
            cur.text += lines[start:i]
            continue
        i += 1
    return patch


def split_patches(path):
    """The patches of one file: mbox messages, seed-thread messages, or
    the whole file as one plain diff."""
    with open(path, encoding="utf-8", errors="surrogateescape") as f:
        lines = f.read().split("\n")
    base = os.path.basename(path)
    starts = [i for i, l in enumerate(lines) if re.match(r"^From [0-9a-f]{7,40} ", l)]
    if not starts:
        starts = [i for i, l in enumerate(lines) if l.startswith("[PATCH") or l.startswith("Re: [PATCH")]
        # a thread repeats the cover's subject on its second line: keep one
        starts = [s for k, s in enumerate(starts) if k == 0 or lines[s] != lines[starts[k - 1]]
                  or s - starts[k - 1] > 2]
    if not starts:
        starts = [0]
    patches = []
    for k, s in enumerate(starts):
        e = starts[k + 1] if k + 1 < len(starts) else len(lines)
        msg = lines[s:e]
        if msg and msg[0].startswith("Re: "):
            continue
        subject = None
        for l in msg[:40]:
            m = SUBJECT_RE.match(l)
            if m:
                subject = m.group(1).strip()
                break
        name = "%s (%s)" % (subject, base) if subject else base
        patch = parse_diffs(msg, name, path)
        if patch.files:
            patches.append(patch)
    if not patches:
        raise PatchError("%s: no diff in it (neither an mbox, a patch mail nor a plain diff)" % path)
    return patches


def _norm(line):
    return line.rstrip()


def first_difference(text_lines, old, near):
    """Where a hunk that does not apply parts from the file, as patch and git
    am say it: (1-based line of the file, what it reads, what the hunk
    expects there) at the place that matches the most leading lines of
    @old (nearest to @near on a tie; @near itself when none matches)."""
    want = [_norm(l) for l in old]
    best, best_len = max(0, min(near, len(text_lines))), -1
    for i in range(len(text_lines)):
        k = 0
        while k < len(want) and i + k < len(text_lines) and _norm(text_lines[i + k]) == want[k]:
            k += 1
        if k > best_len or (k == best_len and abs(i - near) < abs(best - near)):
            best, best_len = i, k
    if best_len <= 0:
        best, best_len = max(0, min(near, len(text_lines))), 0
    k = min(best_len, len(want) - 1) if want else 0
    line = best + k
    got = _norm(text_lines[line]) if line < len(text_lines) else "(end of file)"
    return line + 1, got, want[k] if want else ""


def _local(fd, only):
    """The file @fd patches, relative to the root (None: not under @only)."""
    if not fd.path:
        return None
    if only:
        if not fd.path.startswith(only):
            return None
        return fd.path[len(only):]
    return fd.path


def selected(root, patch, only, log):
    """[(file diff, its path under @root)] that @patch has for @root."""
    out = []
    for fd in patch.files:
        rel = _local(fd, only)
        if rel is None:
            continue
        if not os.path.isfile(os.path.join(root, rel)):
            log("note: %s: %s is not a file the cut reads: skipped" % (patch.name, fd.path))
            continue
        out.append((fd, rel))
    return out


def gnu_patch(root, fd, rel, dry_run):
    """GNU patch of one file diff onto root/rel: (exit status, its output)."""
    with tempfile.NamedTemporaryFile("w", suffix=".diff", delete=False,
                                     encoding="utf-8", errors="surrogateescape") as f:
        f.write("\n".join(fd.text) + "\n")
        diff = f.name
    try:
        cmd = GNU_PATCH + (["--dry-run"] if dry_run else []) + [
            os.path.join(root, rel), "-i", diff]
        try:
            proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                  text=True, env=dict(os.environ, LC_ALL="C"))
        except OSError as e:
            raise PatchError("cannot run GNU patch: %s (tools/mlf setup installs it)"
                             % (e.strerror or e))
        return proc.returncode, proc.stdout
    finally:
        os.unlink(diff)


def why_not(root, patch, fd, rel, output):
    """The one line for a file diff that GNU patch refused."""
    m = re.search(r"Hunk #(\d+) FAILED", output)
    hunk = fd.hunks[int(m.group(1)) - 1] if m and int(m.group(1)) <= len(fd.hunks) else None
    if not hunk:
        what = (output.strip().splitlines() or ["GNU patch failed"])[-1]
        return "%s: %s does not apply: %s" % (patch.name, fd.path, what)
    with open(os.path.join(root, rel), encoding="utf-8", errors="surrogateescape") as f:
        text = f.read().split("\n")
    line, got, want = first_difference(text, hunk.old(), hunk.old_start - 1)
    return ("%s: hunk #%d of %s (%s) does not apply: line %d reads %r, the hunk expects %r"
            % (patch.name, hunk.number, fd.path, hunk.header, line, got, want))


def refusal(root, patch, only, log):
    """Why @patch does not apply to @root (dry run), or None if it does."""
    for fd, rel in selected(root, patch, only, lambda s: None):
        rc, out = gnu_patch(root, fd, rel, True)
        if rc != 0:
            return why_not(root, patch, fd, rel, out)
    return None


def apply_one(root, patch, only, log):
    for fd, rel in selected(root, patch, only, log):
        rc, out = gnu_patch(root, fd, rel, False)
        if rc != 0:
            raise PatchError(why_not(root, patch, fd, rel, out))


def adaptations_of(patch, adaptations):
    """The adaptations of @patch (a file of its name in each directory of
    @adaptations, in order)."""
    out = []
    for d in adaptations or []:
        path = os.path.join(d, os.path.basename(patch.source))
        if os.path.isfile(path):
            found = split_patches(path)
            if len(found) == 1:
                out.append(found[0])
    return out


def apply_patches(root, patches, only=None, adaptations=None, log=print):
    """Apply @patches to the files under @root, in order. A patch that does
    not apply is tried as each of its adaptations (@adaptations: the
    directories of them), the first that applies taken; else, the error."""
    for patch in patches:
        why = refusal(root, patch, only, log)
        if why:
            alt = next((a for a in adaptations_of(patch, adaptations)
                        if not refusal(root, a, only, log)), None)
            if not alt:
                raise PatchError(why)
            with open(alt.source, encoding="utf-8") as f:
                said = " ".join(f.read().split("\n\n", 1)[0].split())
            log("adapted: %s: %s" % (patch.name, said))
            patch = alt
        apply_one(root, patch, only, log)


def read_series(path, level=None):
    """The patch files of a series file (kernel/series/seed/series) up to
    the "level L" line naming @level (all of them: None), and where its
    adaptations are (the directories beside it that "adaptations D..."
    names, tried in order)."""
    here = os.path.dirname(os.path.abspath(path))
    files, levels, adapt = [], [], []
    for line in series_lines(path):
        words = line.split()
        if words[0] == "level" and len(words) == 2:
            levels.append(words[1])
            if words[1] == level:
                return files, adapt
        elif words[0] == "adaptations":
            adapt = [os.path.join(here, d) for d in words[1:]]
        else:
            files.append(os.path.join(here, line))
    if level is not None:
        raise PatchError("%s: no level %s (it has %s)" % (path, level, ", ".join(levels)))
    return files, adapt


def series_lines(path):
    """The lines of a series file (seed levels, tree recipes), stripped,
    without '#' comments and blank lines."""
    with open(path, encoding="utf-8") as f:
        lines = [line.split("#", 1)[0].strip() for line in f]
    return [line for line in lines if line]


def series_levels(path):
    """The level names of a series file, in order."""
    return [l.split()[1] for l in series_lines(path) if l.startswith("level ")]


def load(paths):
    """The patches of @paths, in order."""
    patches = []
    for p in paths:
        if not os.path.isfile(p):
            raise PatchError("%s: no such patch file" % p)
        patches += split_patches(p)
    return patches


def make(out, fill, steps, log=print):
    """Make @out: @fill(DIR) writes the files, then each (patches, only,
    adaptations) of @steps applies; built in @out.tmp, which replaces @out
    only when everything applied (a file whose text did not change keeps
    its mtime: the build keys on them). Nothing half-made stays behind."""
    tmp = out + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    try:
        fill(tmp)
        for patches, only, adaptations in steps:
            apply_patches(tmp, patches, only, adaptations, log)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        parent = os.path.dirname(os.path.abspath(out))
        if os.path.isdir(parent) and not os.listdir(parent):
            os.rmdir(parent)
        raise
    sync(tmp, out)
    shutil.rmtree(tmp)


def sync(src, dst):
    """Make @dst hold @src's files, rewriting only those that changed."""
    want = set()
    for top, dirs, files in os.walk(src):
        for name in files:
            rel = os.path.relpath(os.path.join(top, name), src)
            want.add(rel)
            with open(os.path.join(src, rel), "rb") as f:
                extract.write_if_changed(os.path.join(dst, rel), f.read())
    for top, dirs, files in os.walk(dst):
        for name in files:
            rel = os.path.relpath(os.path.join(top, name), dst)
            if rel not in want:
                os.unlink(os.path.join(dst, rel))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    src = ap.add_mutually_exclusive_group(required=True)
    src.add_argument("--tree", help="kernel tree (directory or tarball): copy the files the cut reads")
    src.add_argument("--copy", metavar="DIR", help="copy this directory (a src/) whole")
    ap.add_argument("--out", required=True, help="the patched copy (a directory)")
    ap.add_argument("--only", help="apply only the diffs of files under this prefix "
                                   "(src/), relative to it")
    ap.add_argument("--series", help="a series file (kernel/series/seed/series)")
    ap.add_argument("--level", help="the series' level to apply first (p1-3, ...)")
    ap.add_argument("--quiet", action="store_true", help="print nothing but errors")
    ap.add_argument("patches", nargs="*")
    args = ap.parse_args(argv)
    log = (lambda s: None) if args.quiet else (lambda s: print("mlf kernel: " + s))
    try:
        steps = []
        if args.series:
            files, adapt = read_series(args.series, args.level)
            steps.append((load(files), None, adapt))
        patches = load(args.patches)
        steps.append((patches, args.only, None))
        if args.tree:
            cache = os.path.join(os.path.dirname(os.path.abspath(args.out)), "tree-src")

            def fill(d):
                try:
                    extract.copy_tree(args.tree, d, cache)
                except extract.CutError as e:
                    raise PatchError(str(e))
        else:
            def fill(d):
                shutil.copytree(args.copy, d)
        make(args.out, fill, steps, log)
    except (PatchError, OSError, ValueError) as e:
        print("mlf kernel: %s" % e, file=sys.stderr)
        return 2
    log("applied %d patches to %s" % (sum(len(s[0]) for s in steps), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
