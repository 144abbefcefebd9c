#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Prefix every global symbol a static library defines (and its uses).

kernel_diff links the port's v6.12 library and the tree's library into one
binary; both define lru_gen_*, world_*, check_*, model_*, node_data, ...
Renaming the tree side's definitions, and its own references to them, with
objcopy --redefine-syms leaves the shim (mlf_kernel, shared by both sides
and not in the library) untouched.

usage: rename_syms.py NM OBJCOPY PREFIX IN.a OUT.a
"""
import os
import subprocess
import sys


def defined_globals(nm, lib):
    out = subprocess.run([nm, "--defined-only", "-g", lib], check=True,
                         stdout=subprocess.PIPE, text=True).stdout
    names = set()
    for line in out.splitlines():
        fields = line.split()
        if len(fields) == 3 and fields[1] != "U":
            names.add(fields[2])
    return sorted(names)


def main(argv):
    if len(argv) != 5:
        print(__doc__.strip().splitlines()[-1], file=sys.stderr)
        return 2
    nm, objcopy, prefix, lib, out = argv
    names = defined_globals(nm, lib)
    if not names:
        print("rename_syms: %s defines no global symbol" % lib, file=sys.stderr)
        return 1
    table = out + ".syms"
    with open(table, "w", encoding="utf-8") as f:
        for name in names:
            f.write("%s %s%s\n" % (name, prefix, name))
    tmp = out + ".tmp"
    subprocess.run([objcopy, "--redefine-syms=" + table, lib, tmp], check=True)
    os.replace(tmp, out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
