# SPDX-License-Identifier: GPL-2.0
"""mlf setup: install the Debian 12 packages the project builds and runs with
(the list is packages.py's)."""
from . import common
from . import packages


def run(args, extra):
    common.show(["dpkg-query", "-W"] + list(packages.PACKAGES))
    missing = packages.missing()
    if not missing:
        print("mlf setup: all %d packages are installed" % len(packages.PACKAGES))
        return 0
    for p in missing:
        print("mlf setup: missing %-20s %s" % (p, packages.PACKAGES[p]))
    packages.install(missing)
    print("mlf setup: installed " + " ".join(missing))
    return 0


def register(subparsers):
    p = subparsers.add_parser(
        "setup", help="install the Debian packages mlf needs",
        description="Check with dpkg-query for the Debian 12 packages mlf needs and "
                    "install the missing ones with apt-get (as root; otherwise print "
                    "the command to run).")
    p.set_defaults(func=run)
