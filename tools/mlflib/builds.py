# SPDX-License-Identifier: GPL-2.0
"""Builds: configure (when needed) and build one preset of CMakePresets.json.

ensure_built() is what a subcommand calls before it runs a binary: the
default variant builds in build/<preset>, another variant or a bug variant in
build/<preset>-<variant>[-<bug>], so switching variants never rebuilds a
tree; binary() finds a program in a build. A library module (see
__init__.py).
"""
import json
import os
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


def tree_name(preset, variant=None, bug=None):
    """build/ subdirectory for this preset, variant and bug."""
    _, default = variants.correct()
    parts = [preset]
    if variant is not None and variant != default:
        parts.append(variant)
    if bug is not None:
        parts.append(bug)
    return "-".join(parts)


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
    _, default = variants.correct()
    fields = resolved(preset, load_presets()["configurePresets"])
    wanted = {
        "preset": preset,
        "generator": fields.get("generator"),
        "cacheVariables": fields["cacheVariables"],
        "MLF_VARIANT": variant or default,
        "MLF_BUG": bug or "",
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
    for key in ("MLF_VARIANT", "MLF_BUG", "MLF_ISO"):
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
    variants.check(variant, bug)
    packages.ensure_setup()
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
