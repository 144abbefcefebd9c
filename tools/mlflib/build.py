# SPDX-License-Identifier: GPL-2.0
"""mlf build: configure (when needed) and build one preset of CMakePresets.json.

ensure_built() is what other subcommands call before they run a binary: the
default variant builds in build/<preset>, another variant or a bug variant in
build/<preset>-<variant>[-<bug>], so switching variants never rebuilds a tree.
"""
import json
import os

from . import common
from . import list as mlflist
from .setup import ensure_setup

PRESETS_FILE = os.path.join(common.ROOT, "CMakePresets.json")
STAMP = "mlf-configure.json"


def _load_presets():
    with open(PRESETS_FILE, encoding="utf-8") as f:
        return json.load(f)


def configure_presets():
    """{name: preset} of the visible configure presets."""
    return {p["name"]: p for p in _load_presets().get("configurePresets", [])
            if not p.get("hidden")}


def _resolved(name, presets):
    """The preset with its inherited fields merged in (inner values win)."""
    by_name = {p["name"]: p for p in presets}
    p = by_name[name]
    merged = {"cacheVariables": {}}
    parents = p.get("inherits", [])
    for parent in [parents] if isinstance(parents, str) else parents:
        base = _resolved(parent, presets)
        merged.update({k: v for k, v in base.items() if k != "cacheVariables"})
        merged["cacheVariables"].update(base["cacheVariables"])
    merged.update({k: v for k, v in p.items() if k != "cacheVariables"})
    merged["cacheVariables"].update(p.get("cacheVariables", {}))
    return merged


def check_preset(preset):
    names = configure_presets()
    if preset not in names:
        raise common.MlfError("unknown preset %r (have: %s)" % (preset, ", ".join(names)))


def check_variant(variant, bug):
    variants, _ = mlflist.correct_variants()
    variants = variants + mlflist.iso_variants()[0]
    if variant is not None and variant not in variants:
        raise common.MlfError("unknown variant %r (have: %s)" % (variant, ", ".join(variants)))
    if bug is not None:
        bugs = mlflist.bug_variants()
        if bug not in bugs:
            raise common.MlfError("unknown bug variant %r (have: %s)" % (bug, ", ".join(bugs)))
        isos, iso_default = mlflist.iso_variants()
        if variant in isos and variant != iso_default and bug in mlflist.reclaim_bugs():
            raise common.MlfError("%s is built on %s (src/mm/reclaim.cmake), not %s: "
                                  "drop --variant" % (bug, iso_default, variant))


def tree_name(preset, variant=None, bug=None):
    """build/ subdirectory for this preset, variant and bug."""
    _, default = mlflist.correct_variants()
    parts = [preset]
    if variant is not None and variant != default:
        parts.append(variant)
    if bug is not None:
        parts.append(bug)
    return "-".join(parts)


def _cache(build):
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
    new <dir>/CMakeLists.txt, src/harness/concurrent.c, a corpus folder), so
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


def _wanted(preset, variant, bug):
    """What the tree must have been configured with: compared to the stamp."""
    _, default = mlflist.correct_variants()
    resolved = _resolved(preset, _load_presets()["configurePresets"])
    wanted = {
        "preset": preset,
        "generator": resolved.get("generator"),
        "cacheVariables": resolved["cacheVariables"],
        "MLF_VARIANT": variant or default,
        "MLF_BUG": bug or "",
        "inputs": optional_inputs(),
    }
    if variant in mlflist.iso_variants()[0]:
        # an isolation variant picks the reclaim port; the memcg LRU port
        # stays the default variant
        wanted["MLF_VARIANT"], wanted["MLF_ISO"] = default, variant
    return wanted


def needs_configure(build, wanted):
    """(why the tree must be (re)configured, whether from scratch), or (None, False)."""
    cache = _cache(build)
    if not cache:
        return "not configured", False
    if wanted["generator"] and cache.get("CMAKE_GENERATOR") != wanted["generator"]:
        return "generator is %r" % cache.get("CMAKE_GENERATOR"), True
    for key in ("MLF_VARIANT", "MLF_BUG", "MLF_ISO"):
        if key in wanted and cache.get(key, "") != wanted[key]:
            return "%s is %r, want %r" % (key, cache.get(key, ""), wanted[key]), False
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


def configure(preset, build, wanted, fresh):
    cmd = ["cmake", "--preset", preset, "-B", build,
           "-DMLF_VARIANT=" + wanted["MLF_VARIANT"], "-DMLF_BUG=" + wanted["MLF_BUG"]]
    if "MLF_ISO" in wanted:
        cmd.append("-DMLF_ISO=" + wanted["MLF_ISO"])
    if fresh:
        # A cache from another compiler or generator cannot be updated in place.
        cmd.append("--fresh")
    common.run(cmd, cwd=common.ROOT)
    with open(os.path.join(build, STAMP), "w", encoding="utf-8") as f:
        json.dump(wanted, f, indent=1, sort_keys=True)


def ensure_built(preset, variant=None, bug=None, targets=None):
    """Configure if needed, then build; returns the build directory."""
    check_preset(preset)
    check_variant(variant, bug)
    ensure_setup()
    build = common.build_dir(tree_name(preset, variant, bug))
    wanted = _wanted(preset, variant, bug)
    why, fresh = needs_configure(build, wanted)
    if why:
        print("mlf: configuring %s (%s)" % (os.path.relpath(build, common.ROOT), why),
              flush=True)
        configure(preset, build, wanted, fresh)
    cmd = ["cmake", "--build", build]
    for t in targets or []:
        cmd += ["--target", t]
    common.run(cmd, cwd=common.ROOT)
    return build


def run(args, extra):
    build = ensure_built(args.preset, args.variant, args.bug)
    print("mlf build: %s is up to date" % os.path.relpath(build, common.ROOT))
    return 0


def register(subparsers):
    p = subparsers.add_parser(
        "build", help="configure and build a preset",
        description="Configure (when the tree is new or its options changed) and build "
                    "one preset of CMakePresets.json in build/<preset>, or in "
                    "build/<preset>-<variant>[-<bug>] for another variant or a bug variant.")
    p.add_argument("--preset", default="dev",
                   help="configure preset (default dev; see cmake --list-presets)")
    p.add_argument("--variant", help="correct variant (tools/mlf list variants)")
    p.add_argument("--bug", help="bug variant built on top of the variant, e.g. "
                                 "bug-no-seq-advance")
    p.set_defaults(func=run)
