#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""The code under test of a build: a kernel tree, its patches, and the cut.

At configure time (kernel/CMakeLists.txt), in one process, into OUT:

  base/          the tree's files the cut reads (kernel/extract.py): from a
                 tarball, a kernel tree, or a tree recipe (a directory
                 whose "series" file names a base tree and patches on it,
                 as kernel/trees/mm-new/ does)
  tree/<V>/      per variant V: base + the seed series up to V
                 (kernel/series/seed/series; v6.12: none) + the user's
                 patches (--patches)
  tree/<bug>/    per zoo bug with diffs of the tree's files: its variant's
                 copy + those diffs (its src/ diffs are the build's:
                 kernel/patch_tree.py --only src/)
  cut/<name>/    each copy cut (kernel/extract.py), #line naming the copy
  manifest.cmake what is there, for CMake; manifest.json, for tools/mlf

Every patch goes through kernel/patch_tree.py (GNU patch). With --strict
(the default tree, no user patches) everything must apply; otherwise a
variant or a bug that does not apply is left out with its one-line reason
(and --need V must be there). Outputs that did not change keep their
mtimes, and a copy or cut whose inputs did not change is not redone.

Errors: one line on stderr, "mlf kernel: ...", exit status 2.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
import extract  # noqa: E402
import patch_tree  # noqa: E402

SERIES = os.path.join(HERE, "series", "seed", "series")
DEFAULT_TREE = "/usr/src/linux-source-6.12.tar.xz"
BASE_LEVEL = "v6.12"    # the variant with no seed patch: the tree as it is
DEFAULT_VARIANT = "p1-5-lockrand"   # the zoo's patches are against its text


class TreeError(Exception):
    """One line for the user."""


def digest(*parts):
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode("utf-8", "surrogateescape"))
        h.update(b"\0")
    return h.hexdigest()


def file_digest(path):
    with open(path, "rb") as f:
        return digest(f.read())


def read_recipe(path):
    """(base tree, [patch files]) of a tree recipe's series file."""
    here = os.path.dirname(os.path.abspath(path))
    base, patches = None, []
    for line in patch_tree.series_lines(path):
        words = line.split()
        if words[0] == "base" and len(words) == 2:
            base = DEFAULT_TREE if words[1] == "default" else \
                os.path.normpath(os.path.join(here, words[1]))
        else:
            patches.append(os.path.join(here, line))
    if not base:
        raise TreeError("%s: no 'base TREE' line" % path)
    return base, patches


def is_recipe(tree):
    return os.path.isdir(tree) and os.path.isfile(os.path.join(tree, "series")) and \
        not os.path.isfile(os.path.join(tree, extract.VMSCAN))


class Tree:
    """What is made from one tree into @out."""

    def __init__(self, tree, out, log, cache=None):
        self.tree, self.out, self.log = os.path.abspath(tree), out, log
        self.cache = cache or os.path.join(out, "tree-src")
        self.inputs = []        # files whose change must redo the configure

    def stamp_ok(self, path, key):
        """Whether @path was made from inputs of digest @key."""
        try:
            with open(path + ".stamp", encoding="utf-8") as f:
                return f.read() == key and os.path.isdir(path)
        except OSError:
            return False

    def stamp(self, path, key):
        with open(path + ".stamp", "w", encoding="utf-8") as f:
            f.write(key)

    @staticmethod
    def dir_key(d):
        parts = []
        for top, dirs, files in os.walk(d):
            dirs.sort()
            for name in sorted(files):
                p = os.path.join(top, name)
                with open(p, "rb") as f:
                    parts += [os.path.relpath(p, d), f.read()]
        return digest(*parts)

    # ---- the base ----

    def base(self):
        """base/: the tree's files (a recipe's base with its patches)."""
        out = os.path.join(self.out, "base")
        patches, src = [], self.tree
        if is_recipe(self.tree):
            recipe = os.path.join(self.tree, "series")
            src, patches = read_recipe(recipe)
            self.inputs.append(recipe)
            if is_recipe(src):
                raise TreeError("%s: a recipe's base must be a tree or a tarball" % recipe)
        if os.path.isdir(src):
            self.inputs += [os.path.join(src, r) for r in extract.TREE_FILES]
        else:
            self.inputs.append(src)
        self.inputs += patches
        st = os.stat(src)
        key = digest("base", os.path.abspath(src), st.st_size, st.st_mtime,
                     *[file_digest(p) for p in patches])
        if not self.stamp_ok(out, key):
            def fill(d):
                try:
                    extract.copy_tree(src, d, self.cache)
                except extract.CutError as e:
                    raise TreeError(str(e))
            try:
                patch_tree.make(out, fill, [(patch_tree.load(patches), None, None)], self.log)
            except patch_tree.PatchError as e:
                raise TreeError(str(e))
            self.stamp(out, key)
        return out

    # ---- copies: a variant, a bug ----

    def copy(self, name, start, steps):
        """tree/<name>/: @start's files with @steps applied (patch_tree.make)."""
        out = os.path.join(self.out, "tree", name)
        key = digest("copy", self.dir_key(start),
                     *[digest(*[file_digest(p.source) for p in patches], only,
                              *[self.dir_key(d) for d in alt or []])
                       for patches, only, alt in steps])
        if not self.stamp_ok(out, key):
            def fill(d):
                patch_tree.sync(start, d)
            patch_tree.make(out, fill, steps, self.log)
            self.stamp(out, key)
        return out

    def cut(self, name, copy, label, check_cc=None):
        """cut/<name>/: @copy cut, #line into it; compile-checked with @check_cc."""
        out = os.path.join(self.out, "cut", name)
        extractor = file_digest(os.path.join(HERE, "extract.py"))
        key = digest("cut", self.dir_key(copy), extractor, label, check_cc or "")
        if self.stamp_ok(out, key):
            with open(os.path.join(out, "features.json"), encoding="utf-8") as f:
                return json.load(f)
        try:
            feats = extract.generate(extract.read_tree(copy, self.cache), out,
                                     where=os.path.abspath(copy), name=label)
            if check_cc:
                extract.check(check_cc, out)
        except extract.CutError as e:
            raise TreeError(str(e))
        self.stamp(out, key)
        return feats


# ---- the zoo: which bug on which variant, and its diffs ----

def zoo_bugs(zoo):
    """{bug: header fields} of zoo/bug-*.patch."""
    bugs = {}
    for name in sorted(os.listdir(zoo)) if zoo and os.path.isdir(zoo) else []:
        if not (name.startswith("bug-") and name.endswith(".patch")):
            continue
        fields = {}
        with open(os.path.join(zoo, name), encoding="utf-8") as f:
            for line in f:
                if line.startswith("diff ") or line.startswith("--- "):
                    break
                m = re.match(r"^([A-Z][A-Za-z-]*): (.*)$", line)
                if m and m.group(1) not in fields:
                    fields[m.group(1)] = m.group(2).strip()
        bugs[name[:-len(".patch")]] = fields
    return bugs


def tree_diffs(patches):
    """The patches reduced to their diffs of the tree's files (not src/)."""
    out = []
    for p in patches:
        q = patch_tree.Patch(p.name, p.source)
        q.files = [fd for fd in p.files if fd.path and not fd.path.startswith("src/")]
        if q.files:
            out.append(q)
    return out


def describe(tree, patches):
    """How the reports name the tree: its version and where it is from."""
    what = os.path.basename(tree.rstrip("/"))
    if patches:
        what += " + " + ", ".join(os.path.basename(p) for p in patches)
    return what


def make(args, log):
    t = Tree(args.tree, args.out, log, args.cache)
    base = t.base()
    version = extract.version(extract.read_tree(base, t.cache)) or "a kernel tree"
    user = patch_tree.load(args.patches)
    t.inputs += args.patches + [SERIES, os.path.join(HERE, "extract.py"),
                                os.path.join(HERE, "patch_tree.py"), os.path.abspath(__file__)]
    levels = patch_tree.series_levels(SERIES)
    manifest = {"tree": t.tree, "patches": args.patches, "version": version,
                "variants": {}, "bugs": {}, "left_out": {}}
    for v in args.variants:
        steps = []
        if v != BASE_LEVEL:
            if v not in levels:
                raise TreeError("no variant %s (the seed series has %s, and %s)"
                                % (v, ", ".join(levels), BASE_LEVEL))
            files, adapt = patch_tree.read_series(SERIES, v)
            t.inputs += files
            steps.append((patch_tree.load(files), None, adapt))
            for d in adapt:
                t.inputs += [os.path.join(d, n) for n in sorted(os.listdir(d))]
        steps.append((user, None, None))
        label = "%s (%s)%s%s" % (version, os.path.basename(t.tree.rstrip("/")),
                                 "" if v == BASE_LEVEL else " + " + v,
                                 "".join(" + " + os.path.basename(p) for p in args.patches))
        try:
            copy = t.copy(v, base, steps)
            feats = t.cut(v, copy, label, args.check)
        except (TreeError, patch_tree.PatchError) as e:
            if args.strict or v == args.need:
                raise TreeError("%s: %s" % (v, e))
            manifest["left_out"][v] = str(e)
            log("left out: %s: %s" % (v, e))
            continue
        manifest["variants"][v] = {"tree": copy, "cut": os.path.join(t.out, "cut", v),
                                   "features": sorted(feats), "name": label}
    for bug, fields in zoo_bugs(args.zoo).items():
        path = os.path.join(args.zoo, bug + ".patch")
        t.inputs.append(path)
        # its Variant:, else the level the zoo's patches are written
        # against (the default variant), else the build's
        level = next((v for v in (fields.get("Variant"), DEFAULT_VARIANT, args.need)
                      if v in manifest["variants"]), args.need)
        entry = {"variant": level, "src": False, "tree": None, "cut": None}
        if level not in manifest["variants"]:
            manifest["left_out"][bug] = "its variant %s is not built" % level
            continue
        try:
            patches = patch_tree.load([path])
            entry["src"] = any(fd.path and fd.path.startswith("src/")
                               for p in patches for fd in p.files)
            mine = tree_diffs(patches)
            if mine:
                v = manifest["variants"][level]
                copy = t.copy(bug, v["tree"], [(mine, None, None)])
                t.cut(bug, copy, "%s + %s" % (v["name"], bug))
                entry["tree"], entry["cut"] = copy, os.path.join(t.out, "cut", bug)
            else:
                entry["cut"] = manifest["variants"][level]["cut"]
        except (TreeError, patch_tree.PatchError) as e:
            if args.strict:
                raise TreeError(str(e))
            # said in manifest.json; the summary line counts them
            manifest["left_out"][bug] = str(e)
            continue
        manifest["bugs"][bug] = entry
    manifest["inputs"] = sorted(set(os.path.abspath(p) for p in t.inputs))
    write_manifest(t.out, manifest)
    return manifest


def cmake_quote(s):
    return '"%s"' % s.replace("\\", "\\\\").replace('"', '\\"').replace("$", "\\$")


def write_manifest(out, m):
    lines = ["# Generated by kernel/tree.py: do not edit."]
    lines.append("set(MLF_TREE_VARIANTS %s)" % " ".join(m["variants"]))
    lines.append("set(MLF_TREE_BUGS %s)" % " ".join(m["bugs"]))
    lines.append("set(MLF_TREE_VERSION %s)" % cmake_quote(m["version"]))
    for v, e in m["variants"].items():
        lines.append("set(MLF_TREE_CUT_%s %s)" % (v, cmake_quote(e["cut"])))
        lines.append("set(MLF_TREE_COPY_%s %s)" % (v, cmake_quote(e["tree"])))
    for b, e in m["bugs"].items():
        lines.append("set(MLF_TREE_BUG_VARIANT_%s %s)" % (b, e["variant"]))
        lines.append("set(MLF_TREE_BUG_CUT_%s %s)" % (b, cmake_quote(e["cut"])))
        lines.append("set(MLF_TREE_BUG_SRC_%s %s)" % (b, "ON" if e["src"] else "OFF"))
    for what, why in m["left_out"].items():
        lines.append("list(APPEND MLF_TREE_LEFT_OUT %s)" % cmake_quote("%s: %s" % (what, why)))
    lines.append("set(MLF_TREE_INPUTS %s)" % " ".join(cmake_quote(p) for p in m["inputs"]))
    for name, text in (("manifest.cmake", "\n".join(lines) + "\n"),
                       ("manifest.json", json.dumps(m, indent=1, sort_keys=True) + "\n")):
        extract.write_if_changed(os.path.join(out, name), text)


# ---- the vendored cut: the ClusterFuzzLite / OSS-Fuzz build's code under test ----

VENDOR_FILES = ("mlf_tree_vmscan.c", "mlf_tree_memcg.c", "mlf_tree_gen.h",
                "include/linux/list_nulls.h", "include/linux/rculist_nulls.h")


def package_version(package="linux-source-6.12"):
    try:
        proc = subprocess.run(["dpkg-query", "-W", "-f=${Version}", package],
                              stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    except OSError:
        return None
    return proc.stdout.strip() or None


def vendor(args, log):
    """The cut of the default tree at --need, #line naming the tree's
    files by their paths in it, with its provenance: into a scratch
    directory under --out; returns (that directory, the provenance)."""
    if os.path.abspath(args.tree) != DEFAULT_TREE or args.patches:
        raise TreeError("the vendored cut is of the default tree (%s) as it is" % DEFAULT_TREE)
    args.variants, args.zoo, args.check = [args.need], None, None
    m = make(args, log)
    v = m["variants"][args.need]
    out = os.path.join(args.out, "vendor")
    copy = v["tree"]
    extract.generate(extract.read_tree(copy, copy), out,
                     name="%s (Debian linux-source-6.12 %s) + %s"
                     % (m["version"], package_version() or "?", args.need))
    files, _ = patch_tree.read_series(SERIES, args.need)
    provenance = {
        "about": "The cut of the default kernel tree that the ClusterFuzzLite / OSS-Fuzz "
                 "build compiles (fuzz/oss_fuzz_build.sh), made by `python3 kernel/tree.py "
                 "--vendor kernel/vendored --out DIR`; ctest kernel/vendored makes it again "
                 "from the installed tree and compares.",
        "package": "linux-source-6.12",
        "version": package_version(),
        "tarball": DEFAULT_TREE,
        "sha256": hashlib.sha256(open(DEFAULT_TREE, "rb").read()).hexdigest(),
        "kernel": m["version"],
        "variant": args.need,
        "series": {os.path.basename(f): file_digest(f) for f in files},
        "cutter": file_digest(os.path.join(HERE, "extract.py")),
    }
    return out, provenance


def vendor_write(dest, out, provenance):
    for rel in VENDOR_FILES:
        os.makedirs(os.path.dirname(os.path.join(dest, rel)), exist_ok=True)
        shutil.copyfile(os.path.join(out, rel), os.path.join(dest, rel))
    with open(os.path.join(dest, "PROVENANCE.json"), "w", encoding="utf-8") as f:
        json.dump(provenance, f, indent=1, sort_keys=True)
        f.write("\n")


def vendor_check(dest, out, provenance):
    """The names of what differs between @dest and a cut made now."""
    differ = []
    for rel in VENDOR_FILES:
        try:
            with open(os.path.join(dest, rel), "rb") as a, open(os.path.join(out, rel), "rb") as b:
                if a.read() != b.read():
                    differ.append(rel)
        except OSError:
            differ.append(rel)
    try:
        with open(os.path.join(dest, "PROVENANCE.json"), encoding="utf-8") as f:
            old = json.load(f)
    except (OSError, ValueError):
        old = {}
    differ += ["PROVENANCE.json: %s" % k for k in sorted(provenance) if old.get(k) != provenance[k]]
    return differ


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--tree", default=DEFAULT_TREE,
                    help="kernel tree, tarball or tree recipe (default %s)" % DEFAULT_TREE)
    ap.add_argument("--out", required=True, help="where to write (<build>/kernel)")
    ap.add_argument("--variants", default=",".join([BASE_LEVEL] + patch_tree.series_levels(SERIES)),
                    help="comma-separated variants to make (default: every level)")
    ap.add_argument("--need", help="the variant that must apply (the build's MLF_VARIANT)")
    ap.add_argument("--patches", action="append", default=[], metavar="FILE",
                    help="the user's patches, on every variant (repeatable, in order)")
    ap.add_argument("--zoo", help="the zoo directory (its bug-*.patch on their variants)")
    ap.add_argument("--check", metavar="CC", help="compile-check each variant's cut with CC")
    ap.add_argument("--strict", action="store_true",
                    help="everything must apply (the default tree, no user patches)")
    ap.add_argument("--quiet", action="store_true", help="print only what is left out")
    ap.add_argument("--cache", help="where a tarball's files are kept (default OUT/tree-src)")
    ap.add_argument("--vendor", metavar="DIR",
                    help="write the default tree's cut at --need (default p1-5-lockrand) and its "
                         "provenance into DIR (kernel/vendored), for the builds with no tree")
    ap.add_argument("--vendor-check", metavar="DIR",
                    help="make that cut again and fail, naming what differs, unless DIR holds it")
    args = ap.parse_args(argv)
    args.variants = [v for v in args.variants.split(",") if v]
    args.patches = [os.path.abspath(p) for p in args.patches]
    args.need = args.need or "p1-5-lockrand"
    if args.need not in args.variants:
        args.variants.append(args.need)
    log = (lambda s: None) if args.quiet else (lambda s: print("mlf kernel: " + s))
    left = (lambda s: print("mlf kernel: " + s)) if args.quiet else log
    try:
        os.makedirs(args.out, exist_ok=True)
        if args.vendor or args.vendor_check:
            out, provenance = vendor(args, lambda s: None)
            if args.vendor:
                vendor_write(args.vendor, out, provenance)
                print("mlf kernel: wrote %s (%s)" % (args.vendor, ", ".join(VENDOR_FILES)))
                return 0
            differ = vendor_check(args.vendor_check, out, provenance)
            if differ:
                print("mlf kernel: %s is not the cut of %s at %s any more: %s; make it again "
                      "with python3 kernel/tree.py --vendor %s --out DIR"
                      % (args.vendor_check, DEFAULT_TREE, args.need, ", ".join(differ),
                         args.vendor_check), file=sys.stderr)
                return 1
            print("mlf kernel: %s is the cut of %s (%s) at %s" % (
                args.vendor_check, DEFAULT_TREE, provenance["version"], args.need))
            return 0
        m = make(args, lambda s: (left if s.startswith("left out") else log)(s))
    except (TreeError, patch_tree.PatchError, OSError) as e:
        print("mlf kernel: %s" % e, file=sys.stderr)
        return 2
    left = [b for b in m["left_out"] if b.startswith("bug-")]
    print("mlf kernel: %s: %s; %d zoo bug%s%s" % (
        describe(m["tree"], m["patches"]),
        ", ".join("%s (%s)" % (v, ", ".join(f.replace("CONFIG_LRU_GEN_", "") for f in e["features"])
                              or "no seed feature") for v, e in m["variants"].items()),
        len(m["bugs"]), "" if len(m["bugs"]) == 1 else "s",
        " (%d left out: their patches do not apply here; %s/manifest.json says why)"
        % (len(left), args.out) if left else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
