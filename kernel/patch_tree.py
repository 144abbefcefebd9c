#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Apply a patch series to a copy of a kernel tree's files that the cut needs.

The copy (extract.copy_tree: mm/vmscan.c, include/linux/mmzone.h,
list_nulls.h, rculist_nulls.h) is patched in place, the way `git am` /
`patch -p1` would: every file diff of every patch, hunk by hunk, each
hunk's old lines (context and removals) found in the file at their line
or at the nearest offset (no fuzz: every context line must match, blank
context lines that a mailer stripped of their space included).

A patch file is an mbox (`git format-patch`, "From <sha> ..." lines), a
mail thread as the seeds are kept (messages starting with "[PATCH ...]";
"Re: ..." replies, whose diffs are quoted, are skipped), or a plain diff.
A hunk that does not apply is one error naming the patch and the hunk,
unless an adaptation recorded for it (--adaptations, a JSON list, or an
object whose "adaptations" is one: patch subject, file, hunk number, the
lines the hunk should read instead and why) rewrites it first; every adaptation used is printed, and one that is
never used is an error too. File diffs for files outside the cut's are
skipped with a note.

A series file (--series JSON --level L --seeds DIR) names the patches
instead: kernel/series/seed.json is the seed series, one level per port
variant (p1-3 ... p1-5-lockrand), with its adaptations.

usage: patch_tree.py --tree TREE --out DIR [--adaptations JSON] PATCH...
       patch_tree.py --tree TREE --out DIR --series JSON --level L --seeds DIR
Errors: one line on stderr, "mlf kernel: ...", exit status 2.
"""
import argparse
import json
import os
import re
import shutil
import sys

sys.path.insert(0, os.path.dirname(os.path.realpath(__file__)))
import extract  # noqa: E402

HUNK_RE = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@(.*)$")
SUBJECT_RE = re.compile(r"^(?:Subject: )?(\[PATCH[^\]]*\].*)$")


class PatchError(Exception):
    """One line for the user."""


class Hunk:
    def __init__(self, number, header, old_start, lines):
        self.number, self.header, self.old_start = number, header, old_start
        self.lines = lines      # (' ' | '-' | '+', text)

    def old(self):
        return [t for k, t in self.lines if k in " -"]

    def new(self):
        return [t for k, t in self.lines if k in " +"]


class FileDiff:
    def __init__(self, path):
        self.path, self.hunks = path, []


class Patch:
    def __init__(self, name, source):
        self.name, self.source, self.files = name, source, []


def _strip_path(p):
    p = p.strip().split("\t")[0]
    if p == "/dev/null":
        return None
    return p.split("/", 1)[1] if "/" in p else p


def parse_diffs(lines, name, source):
    """The file diffs in @lines (one patch's text)."""
    patch = Patch(name, source)
    i, n = 0, len(lines)
    cur = None
    while i < n:
        line = lines[i]
        if line.startswith("--- ") and i + 1 < n and lines[i + 1].startswith("+++ "):
            path = _strip_path(lines[i + 1][4:]) or _strip_path(line[4:])
            cur = FileDiff(path)
            patch.files.append(cur)
            i += 2
            continue
        m = HUNK_RE.match(line)
        if m and cur is not None:
            old_len = int(m.group(2)) if m.group(2) is not None else 1
            new_len = int(m.group(4)) if m.group(4) is not None else 1
            body, i = [], i + 1
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
                if kind in " -":
                    o += 1
                if kind in " +":
                    nw += 1
                body.append((kind, text))
                i += 1
            cur.hunks.append(Hunk(len(cur.hunks) + 1, line.strip(), int(m.group(1)), body))
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


def find(text_lines, old, near):
    """Index where @old occurs in @text_lines, nearest to @near; -1."""
    want = [_norm(l) for l in old]
    if not want:
        return near if 0 <= near <= len(text_lines) else -1
    hits = []
    first = want[0]
    for i in range(len(text_lines) - len(want) + 1):
        if _norm(text_lines[i]) == first and \
                all(_norm(text_lines[i + j]) == want[j] for j in range(1, len(want))):
            hits.append(i)
    if not hits:
        return -1
    return min(hits, key=lambda i: abs(i - near))


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


def load_adaptations(path):
    if not path:
        return []
    with open(path, encoding="utf-8") as f:
        table = json.load(f)
    if isinstance(table, dict):
        table = table["adaptations"]
    for a in table:
        a["used"] = False
    return table


def adaptation_for(adaptations, patch, fd, hunk):
    for a in adaptations:
        if a["patch"] in patch.name and a["file"] == fd.path and a["hunk"] == hunk.number:
            return a
    return None


def apply_series(tree_dir, patches, adaptations, log):
    """Apply @patches to the files under @tree_dir, in order."""
    for patch in patches:
        for fd in patch.files:
            path = os.path.join(tree_dir, fd.path) if fd.path else None
            if not path or not os.path.isfile(path):
                log("note: %s: %s is not a file the cut reads: skipped" % (patch.name, fd.path))
                continue
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                text = f.read().split("\n")
            offset = 0
            for hunk in fd.hunks:
                old, new = hunk.old(), hunk.new()
                at = find(text, old, hunk.old_start - 1 + offset)
                if at < 0:
                    a = adaptation_for(adaptations, patch, fd, hunk)
                    if not a:
                        line, got, want = first_difference(text, old,
                                                           hunk.old_start - 1 + offset)
                        raise PatchError("%s: hunk #%d of %s (%s) does not apply: line %d "
                                         "reads %r, the hunk expects %r"
                                         % (patch.name, hunk.number, fd.path, hunk.header,
                                            line, got, want))
                    old, new = a["old"], a["new"]
                    at = find(text, old, hunk.old_start - 1 + offset)
                    if at < 0:
                        raise PatchError("%s: hunk #%d of %s: its recorded adaptation does "
                                         "not apply either" % (patch.name, hunk.number, fd.path))
                    a["used"] = True
                    log("adapted: %s: hunk #%d of %s (%s): %s"
                        % (patch.name, hunk.number, fd.path, hunk.header, a["why"]))
                text[at:at + len(old)] = new
                offset = at - (hunk.old_start - 1) + len(new) - len(old)
            with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
                f.write("\n".join(text))
    unused = [a for a in adaptations if not a["used"]]
    if unused:
        a = unused[0]
        raise PatchError("the adaptation of hunk #%d of %s in %s was not needed: "
                         "the hunk applies as it is, or the patch is not in the series"
                         % (a["hunk"], a["file"], a["patch"]))


def series_patches(series, level, seeds):
    """The patches of @level of the series file @series, and its adaptations."""
    with open(series, encoding="utf-8") as f:
        s = json.load(f)
    if level not in s["levels"]:
        raise PatchError("%s: no level %s (it has %s)" % (series, level, ", ".join(s["levels"])))
    here = os.path.dirname(os.path.abspath(series))
    patches = []
    for where, name, subject in s["patches"][:s["levels"][level]]:
        path = os.path.join(seeds if where == "seeds" else here, name)
        if not os.path.isfile(path):
            raise PatchError("%s: no such patch file (the %s directory)" % (path, where))
        found = [p for p in split_patches(path) if subject in p.name]
        if len(found) != 1:
            raise PatchError("%s: %d patches named %s" % (path, len(found), subject))
        patches += found
    adapt = s.get("adaptations")
    return patches, os.path.join(here, adapt) if adapt else None


def make(tree, out, patch_files, adaptations_path=None, log=print, patches=None):
    """Copy @tree's cut files to @out and apply @patch_files (or
    @patches, already split) there."""
    patches = list(patches or [])
    for p in patch_files:
        if not os.path.isfile(p):
            raise PatchError("%s: no such patch file" % p)
        patches += split_patches(p)
    adaptations = load_adaptations(adaptations_path)
    # adaptations of patches not in this level are not expected to be used
    adaptations = [a for a in adaptations if any(a["patch"] in p.name for p in patches)]
    tmp = out + ".tmp"
    if os.path.isdir(tmp):
        shutil.rmtree(tmp)
    try:
        try:
            extract.copy_tree(tree, tmp, os.path.join(os.path.dirname(out) or ".", "tree-src"))
        except extract.CutError as e:
            raise PatchError(str(e))
        apply_series(tmp, patches, adaptations, log)
    except BaseException:
        # nothing half-made stays behind: not the copy, not an empty parent
        shutil.rmtree(tmp, ignore_errors=True)
        parent = os.path.dirname(os.path.abspath(out))
        if os.path.isdir(parent) and not os.listdir(parent):
            os.rmdir(parent)
        raise
    # replace @out only when something changed: the build keys on mtimes
    for rel in extract.TREE_FILES:
        src, dst = os.path.join(tmp, rel), os.path.join(out, rel)
        with open(src, encoding="utf-8", errors="surrogateescape") as f:
            new = f.read()
        try:
            with open(dst, encoding="utf-8", errors="surrogateescape") as f:
                if f.read() == new:
                    continue
        except OSError:
            pass
        os.makedirs(os.path.dirname(dst), exist_ok=True)
        with open(dst, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(new)
    shutil.rmtree(tmp)
    return patches


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", required=True, help="kernel tree directory or tarball")
    ap.add_argument("--out", required=True, help="the patched copy (a directory)")
    ap.add_argument("--adaptations", help="JSON list of recorded hunk adaptations, or an object "
                                          "whose \"adaptations\" is one")
    ap.add_argument("--quiet", action="store_true", help="print nothing but errors")
    ap.add_argument("--series", help="a series file (kernel/series/seed.json)")
    ap.add_argument("--level", help="the series' level to apply (p1-3, ...)")
    ap.add_argument("--seeds", help="where the series' seed files are")
    ap.add_argument("patches", nargs="*")
    args = ap.parse_args(argv)
    log = (lambda s: None) if args.quiet else (lambda s: print("mlf kernel: " + s))
    if not args.patches and not args.series:
        ap.error("no patches")
    try:
        pre = []
        adapt = args.adaptations
        if args.series:
            if not args.level or not args.seeds:
                raise PatchError("--series needs --level and --seeds")
            pre, adapt = series_patches(args.series, args.level, args.seeds)
        patches = make(args.tree, args.out, args.patches, adapt, log, pre)
    except (PatchError, OSError, ValueError) as e:
        print("mlf kernel: %s" % e, file=sys.stderr)
        return 2
    log("applied %d patches to %s" % (len(patches), args.out))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
