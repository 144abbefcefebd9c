# SPDX-License-Identifier: GPL-2.0
"""Builds: configure (when needed) and build one preset of CMakePresets.json.

ensure_built() is what a subcommand calls before it runs a binary: the
default variant builds in build/<preset>, another variant or a bug variant in
build/<preset>-<variant>[-<bug>], so switching variants never rebuilds a
tree; another kernel tree or a user's patches (the code under test: Code,
the same --tree / --patches / --seed-level on every subcommand) in
build/<preset>[...]-tree-<hash of them>. binary() finds a program in a
build. A library module (see __init__.py).
"""
import hashlib
import json
import os
import shutil
import subprocess
import sys

from . import common
from . import packages
from . import variants

PRESETS_FILE = os.path.join(common.ROOT, "CMakePresets.json")
STAMP = "mlf-configure.json"


def load_presets():
    with open(PRESETS_FILE, encoding="utf-8") as f:
        return json.load(f)


def configure_presets():
    """{name: preset} of the visible configure presets."""
    return {p["name"]: p for p in load_presets().get("configurePresets", [])
            if not p.get("hidden")}


def resolved(name, presets):
    """The preset with its inherited fields merged in (inner values win)."""
    by_name = {p["name"]: p for p in presets}
    p = by_name[name]
    merged = {"cacheVariables": {}}
    parents = p.get("inherits", [])
    for parent in [parents] if isinstance(parents, str) else parents:
        base = resolved(parent, presets)
        merged.update({k: v for k, v in base.items() if k != "cacheVariables"})
        merged["cacheVariables"].update(base["cacheVariables"])
    merged.update({k: v for k, v in p.items() if k != "cacheVariables"})
    merged["cacheVariables"].update(p.get("cacheVariables", {}))
    return merged


def preset_compiler(preset):
    """The C compiler @preset configures with."""
    fields = resolved(preset, load_presets()["configurePresets"])
    return fields["cacheVariables"].get("CMAKE_C_COMPILER", "cc")


def check_preset(preset):
    names = configure_presets()
    if preset not in names:
        raise common.MlfError("unknown preset %r (have: %s)" % (preset, ", ".join(names)))


DEFAULT_TREE = "/usr/src/linux-source-6.12.tar.xz"
TARBALLS = (".tar", ".tar.xz", ".tar.gz", ".tgz", ".tar.bz2")


class Code:
    """The code under test: a kernel tree (tarball, kernel tree or tree
    recipe; None: the default, Debian's linux-source-6.12) and a user's
    patches on it, absolute paths (kernel/tree.cmake applies them)."""

    def __init__(self, tree=None, patches=None):
        self.tree = os.path.abspath(tree) if tree else None
        if self.tree == DEFAULT_TREE:
            self.tree = None
        self.patches = [os.path.abspath(p) for p in patches or []]

    def is_default(self):
        return not self.tree and not self.patches

    def default_variant(self):
        """A user's patches are written against the tree as it is: v6.12."""
        return "v6.12" if self.patches else variants.correct()[1]

    def suffix(self):
        if self.is_default():
            return ""
        key = "\0".join([self.tree or DEFAULT_TREE] + self.patches)
        return "-tree-" + hashlib.sha1(key.encode()).hexdigest()[:8]

    def flags(self, rel=True):
        """The command-line flags that name this code (for hints)."""
        def show(p):
            return common.shown_path(p) if rel else p
        out = []
        if self.tree:
            out += ["--tree", show(self.tree)]
        for p in self.patches:
            out += ["--patches", show(p)]
        return out

    def meta(self):
        """For campaign.json."""
        return {"tree": self.tree, "patches": self.patches}

    @classmethod
    def of(cls, args, meta=None):
        """The code --tree / --patches name, else @meta's (a campaign's)."""
        meta = meta or {}
        tree = getattr(args, "tree", None) or meta.get("tree")
        patches = getattr(args, "patches", None) or meta.get("patches") or []
        return cls(tree, patches)

    def check(self):
        """One line and exit status 2 for a tree or a patch that is not there."""
        if self.tree:
            common.check_path(self.tree, "any", "--tree")
            if os.path.isfile(self.tree) and not self.tree.endswith(TARBALLS):
                raise common.MlfError("--tree %s: neither a directory nor a tarball"
                                      % os.path.relpath(self.tree))
            if os.path.isdir(self.tree) and not any(
                    os.path.exists(os.path.join(self.tree, f)) for f in ("mm/vmscan.c", "series")):
                raise common.MlfError("--tree %s: neither a kernel tree (mm/vmscan.c) nor a "
                                      "tree recipe (series)" % os.path.relpath(self.tree))
        elif not os.path.exists(DEFAULT_TREE):
            raise common.MlfError("no kernel tree at %s: install Debian's linux-source-6.12 "
                                  "(tools/mlf setup) or pass --tree" % DEFAULT_TREE)
        for p in self.patches:
            common.check_path(p, "file", "--patches")


def add_code_arguments(parser, variant_help=None):
    """--tree, --patches and --variant / --seed-level: the code under test,
    the same on every subcommand that builds."""
    names, default = variants.correct()
    parser.add_argument("--tree", help="kernel tree whose memcg LRU is the code under test: "
                                       "a tarball, a kernel tree or a tree recipe (default %s)"
                                       % DEFAULT_TREE)
    parser.add_argument("--patches", action="append", metavar="FILE",
                        help="your patches (an mbox, patch mails or a plain diff), applied to "
                             "the tree at the seed level (default then v6.12, the tree as it "
                             "is); repeat for more files, applied in order")
    parser.add_argument("--variant", "--seed-level", dest="variant", metavar="LEVEL",
                        help=variant_help or "the seed series applied up to LEVEL (%s; v6.12: "
                        "none; default %s)" % (", ".join(names), default))


def tree_name(preset, variant=None, bug=None, code=None):
    """build/ subdirectory for this preset, variant, bug and code under test."""
    code = code or Code()
    default = code.default_variant()
    parts = [preset]
    if variant is not None and variant != default:
        parts.append(variant)
    if bug is not None:
        parts.append(bug)
    return "-".join(parts) + code.suffix()


def cache(build):
    """Selected entries of an existing CMakeCache.txt ({} if none)."""
    values = {}
    try:
        with open(os.path.join(build, "CMakeCache.txt"), encoding="utf-8") as f:
            for line in f:
                if line.startswith(("//", "#")) or "=" not in line:
                    continue
                key, value = line.rstrip("\n").split("=", 1)
                values[key.split(":", 1)[0]] = value
    except OSError:
        pass
    return values


def optional_inputs():
    """Files and folders the CMake code tests with if(EXISTS) / IS_DIRECTORY.

    CMake does not notice when such a file appears (a new tests/test_*.c, a
    new <dir>/CMakeLists.txt, src/harness/stress.c, a corpus folder), so
    mlf reconfigures then. Any CMakeLists.txt, and the .c files of the
    folders next to one, are taken to be such files.
    """
    found = []
    for dirpath, dirnames, filenames in os.walk(common.ROOT):
        rel = os.path.relpath(dirpath, common.ROOT)
        dirnames[:] = sorted(d for d in dirnames
                             if not d.startswith(".") and not (rel == "." and d == "build"))
        if rel == "corpus":
            found += ["corpus/" + d for d in dirnames]
            dirnames[:] = []
            continue
        watched = "CMakeLists.txt" in filenames or rel.startswith("src")
        for name in sorted(filenames):
            if name == "CMakeLists.txt" or (watched and name.endswith(".c")):
                found.append(os.path.normpath(os.path.join(rel, name)))
    return found


def _wanted(preset, variant, bug, code):
    """What the tree must have been configured with: compared to the stamp."""
    default = code.default_variant()
    fields = resolved(preset, load_presets()["configurePresets"])
    wanted = {
        "preset": preset,
        "generator": fields.get("generator"),
        "cacheVariables": fields["cacheVariables"],
        "MLF_VARIANT": variant or default,
        "MLF_BUG": bug or "",
        "MLF_KERNEL_TREE": code.tree or DEFAULT_TREE,
        "MLF_PATCHES": ";".join(code.patches),
        "inputs": optional_inputs(),
    }
    if variant in variants.iso()[0]:
        # an isolation variant picks the reclaim port; the memcg LRU port
        # stays the default variant
        wanted["MLF_VARIANT"], wanted["MLF_ISO"] = default, variant
    return wanted


def needs_configure(build, wanted):
    """(why the tree must be (re)configured, whether from scratch), or (None, False)."""
    entries = cache(build)
    if not entries:
        return "not configured", False
    if wanted["generator"] and entries.get("CMAKE_GENERATOR") != wanted["generator"]:
        return "generator is %r" % entries.get("CMAKE_GENERATOR"), True
    for key in ("MLF_VARIANT", "MLF_BUG", "MLF_ISO", "MLF_KERNEL_TREE", "MLF_PATCHES"):
        if key in wanted and entries.get(key, "") != wanted[key]:
            return "%s is %r, want %r" % (key, entries.get(key, ""), wanted[key]), False
    try:
        with open(os.path.join(build, STAMP), encoding="utf-8") as f:
            stamp = json.load(f)
    except (OSError, ValueError):
        return "configured outside mlf", True
    if stamp.get("cacheVariables") != wanted["cacheVariables"]:
        # the compiler or its flags may have changed: start from a new cache
        return "preset %s changed" % wanted["preset"], True
    if stamp != wanted:
        return "files CMake tests for changed", False
    return None, False


def cmake_error(text):
    """The one line of an mlf FATAL_ERROR in cmake's output (kernel/tree.py's
    "mlf kernel: ..." for a tree or a patch, CMakeLists.txt's "mlf: ..."),
    which cmake indents and wraps: its indented lines, joined."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.strip().startswith("mlf"):
            said = [line.strip()]
            for more in lines[i + 1:]:
                if not more.strip() or not more.startswith(" "):
                    break
                said.append(more.strip())
            return " ".join(said).replace("mlf kernel: ", "", 1)
    return None


def configure(preset, build, wanted, fresh):
    cmd = ["cmake", "--preset", preset, "-B", build,
           "-DMLF_VARIANT=" + wanted["MLF_VARIANT"], "-DMLF_BUG=" + wanted["MLF_BUG"],
           "-DMLF_KERNEL_TREE=" + wanted["MLF_KERNEL_TREE"],
           "-DMLF_PATCHES=" + wanted["MLF_PATCHES"]]
    if "MLF_ISO" in wanted:
        cmd.append("-DMLF_ISO=" + wanted["MLF_ISO"])
    if fresh:
        # A cache from another compiler or generator cannot be updated in place.
        cmd.append("--fresh")
    proc = common.run(cmd, cwd=common.ROOT, check=False, stderr=subprocess.PIPE, text=True)
    sys.stderr.write(proc.stderr)
    if proc.returncode:
        raise common.MlfError(cmake_error(proc.stderr) or
                              "cmake failed with status %d" % proc.returncode)
    with open(os.path.join(build, STAMP), "w", encoding="utf-8") as f:
        json.dump(wanted, f, indent=1, sort_keys=True)


def ensure_built(preset, variant=None, bug=None, targets=None, code=None):
    """Configure if needed, then build; returns the build directory."""
    code = code or Code()
    check_preset(preset)
    variants.check(variant, bug)
    code.check()
    packages.ensure_setup()
    build = common.build_dir(tree_name(preset, variant, bug, code))
    wanted = _wanted(preset, variant, bug, code)
    why, fresh = needs_configure(build, wanted)
    if why:
        print("mlf: configuring %s (%s)" % (os.path.relpath(build, common.ROOT), why),
              flush=True)
        made = not os.path.exists(os.path.join(build, "CMakeCache.txt"))
        try:
            configure(preset, build, wanted, fresh)
        except BaseException:
            # a tree or a patch the build cannot take leaves no build behind
            if made and not code.is_default():
                shutil.rmtree(build, ignore_errors=True)
            raise
    cmd = ["cmake", "--build", build]
    for t in targets or []:
        cmd += ["--target", t]
    common.run(cmd, cwd=common.ROOT)
    return build


def ensure_built_quiet(*args, **kw):
    """ensure_built() with the build's chatter on stderr: our stdout is data."""
    sys.stdout.flush()
    saved = os.dup(1)
    try:
        os.dup2(2, 1)
        return ensure_built(*args, **kw)
    finally:
        sys.stdout.flush()
        os.dup2(saved, 1)
        os.close(saved)


def binary(build, name):
    """The program @name (a fuzz target, a replay driver, mlf-trace) of @build."""
    path = os.path.join(build, "fuzz", name)
    if not os.path.exists(path):
        raise common.MlfError("%s was not built in %s" % (name, os.path.relpath(build)))
    return path
