# SPDX-License-Identifier: GPL-2.0
"""The Debian 12 packages the project builds and runs with, and installing them.

This is the one list of packages: `tools/mlf setup` (and so .ci/run) checks
it, and builds.ensure_built() calls ensure_setup() so that a fresh machine
needs no other step. A library module (see __init__.py).
"""
import os
import shutil
import subprocess
import sys

from . import common

# Debian package -> why the project needs it.
PACKAGES = {
    "cmake": "the build (3.25 for presets and workflows)",
    "ninja-build": "the generator the presets use",
    "gcc": "dev and release presets",
    "libc6-dev": "C headers and startup files",
    "clang": "asan, tsan, fuzz and coverage presets",
    "libclang-rt-14-dev": "clang's sanitizer, libFuzzer and profile runtimes",
    "llvm": "llvm-profdata and llvm-cov for the coverage preset",
    "clang-format": "the house style (.clang-format)",
    "liburcu-dev": "RCU under the shim (urcu-memb)",
    "pkg-config": "finds liburcu",
    "afl++": "the afl preset and AFL++ campaigns",
    "python3": "tools/mlf",
    "gnuplot-nox": "the PNG plots of bench and cov (pngcairo terminal)",
    "linux-source-6.12": "the kernel tree whose memcg LRU is the code under test",
    "patch": "the one patch applier (kernel/patch_tree.py): seed series, zoo, --patches",
}

# The version a package is tested with, where a newer one can change what
# the project tests: the kernel tree is the code under test, and Debian's
# stable updates change it (6.12.118 changed shrink_one() and
# should_abort_scan()). Installed as this version while the archive has it,
# else the newest, with a note; an installed other version is kept.
TESTED = {
    "linux-source-6.12": "6.12.118-1~deb12u1",
}

_checked = False


def missing():
    """Packages of PACKAGES that dpkg does not list as installed."""
    if not shutil.which("dpkg-query"):
        raise common.MlfError("dpkg-query not found: mlf setup knows Debian only; "
                              "install the equivalents of: " + " ".join(PACKAGES))
    # -W exits 1 when a package is unknown to dpkg; the output still lists the rest.
    proc = subprocess.run(
        ["dpkg-query", "-W", "-f=${Package} ${db:Status-Abbrev}\n"] + list(PACKAGES),
        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    installed = set()
    for line in proc.stdout.splitlines():
        fields = line.split()
        if len(fields) >= 2 and fields[1].startswith("ii"):
            installed.add(fields[0])
    return [p for p in PACKAGES if p not in installed]


def _lists_know(packages):
    """True if apt's package lists have an install candidate for each one."""
    proc = subprocess.run(["apt-cache", "policy"] + packages,
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    candidates = {}
    name = None
    for line in proc.stdout.splitlines():
        if line and not line[0].isspace() and line.endswith(":"):
            name = line[:-1]
        elif name and line.strip().startswith("Candidate:"):
            candidates[name] = line.split(":", 1)[1].strip()
    return all(candidates.get(p, "(none)") != "(none)" for p in packages)


def _archive_has(package, version):
    """True if apt's lists offer @version of @package."""
    proc = subprocess.run(["apt-cache", "madison", package],
                          stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    return any(f.split("|")[1].strip() == version
               for f in proc.stdout.splitlines() if f.count("|") >= 2)


def _pinned(packages):
    """The packages as apt-get arguments: pkg=version for the tested ones."""
    args = []
    for p in packages:
        version = TESTED.get(p)
        if version and _archive_has(p, version):
            args.append("%s=%s" % (p, version))
        else:
            if version:
                print("mlf: %s %s is not in the archive; installing the newest, which "
                      "the project was not tested with" % (p, version),
                      file=sys.stderr, flush=True)
            args.append(p)
    return args


def install(packages):
    """apt-get install the packages (root only), updating the lists if needed."""
    cmd = ["apt-get", "install", "-y", "--no-install-recommends"] + packages
    if os.geteuid() != 0:
        raise common.MlfError("missing packages: %s; as root run: %s"
                              % (" ".join(packages), " ".join(cmd)))
    print("mlf: installing " + " ".join(packages), file=sys.stderr, flush=True)
    env = {"DEBIAN_FRONTEND": "noninteractive"}
    if not _lists_know(packages):
        common.run(["apt-get", "update"], env=env)
    common.run(cmd[:4] + _pinned(packages), env=env)
    still = missing()
    if still:
        raise common.MlfError("still missing after apt-get install: " + " ".join(still))


def ensure_setup():
    """Install what is missing; quiet when everything is there. Once a process."""
    global _checked
    if _checked:
        return
    needed = missing()
    if needed:
        install(needed)
    _checked = True
