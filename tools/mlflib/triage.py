# SPDX-License-Identifier: GPL-2.0
"""mlf triage: group crash files by failure signature, one line per failure.

A campaign keeps every crash file; many are the same bug reached by other
inputs. Each file is run once (through the copy of the fuzz binary the
campaign ran, so sanitizer reports show too; elsewhere through the replay
driver of the variant and bug given, as minimize does) and keyed by
signatures.signature(): the check name and the failing op kind, or the
sanitizer report kind and top frame (a race: both accesses' frames, and
whether both are in the code under test: race/..., or the harness's:
harness/race:...; its line names the two accesses' file:line).
Signatures are cached per campaign in
<target>/signatures.json, keyed by the file's content, so the status line
of `mlf fuzz` and later triage runs replay each crash only once.
"""
import json
import os
import re

from . import builds
from . import campaign
from . import common
from . import regressions
from . import signatures


def signer_for(target, variant, bug, preset, cache_dir, signers, own=None):
    """A Signer for the binary given (a campaign's own copy) or built."""
    key = (target, variant, bug, preset, cache_dir, own)
    if key not in signers:
        if own:
            path = own
        else:
            name = target if preset in ("fuzz", "afl") else target + "_replay"
            path = builds.binary(builds.ensure_built_quiet(preset, variant, bug, targets=[name]),
                                 name)
        signers[key] = signatures.Signer(path, cache_dir)
    return signers[key]


def run(args, extra):
    files = []
    for path in args.paths:
        if not os.path.exists(path):
            raise common.MlfError("%s: no such file or directory" % path)
        files += [f for f in campaign.crash_files(path) if f not in files]
    signers, groups = {}, {}
    files.sort(key=lambda p: (os.path.getmtime(p), p))
    for path in files:
        camp = campaign.campaign_of(path)
        meta = {}
        if camp:
            with open(os.path.join(camp, "campaign.json"), encoding="utf-8") as f:
                meta = json.load(f)
        target = args.target or meta.get("target") or regressions.guess_target(path)
        if not target:
            raise common.MlfError("cannot tell the target of %s; use --target" % path)
        variant = args.variant or meta.get("variant")
        bug = args.bug or meta.get("bug")
        own = None
        if camp and not (args.preset or args.variant or args.bug or args.rebuild):
            # the binary the campaign ran (fuzz preset, its variant and bug)
            cand = os.path.join(camp, "build", "fuzz", target)
            own = cand if os.path.exists(cand) else None
        # a TSan campaign's race shows only in a TSan build
        preset = args.preset or ("fuzz-tsan" if meta.get("sanitizer") == "tsan" else "dev")
        signer = signer_for(target, variant, bug, preset, camp, signers, own)
        sig, msg = signer.sign(path)
        entry = groups.setdefault((target, signatures.failure_key(sig, args.by)),
                                  {"files": [], "msg": msg, "sigs": {}})
        entry["files"].append(path)
        entry["sigs"][sig] = entry["sigs"].get(sig, 0) + 1
    for signer in signers.values():
        signer.save()
    width = max([len(s) for _, s in groups] + [20])
    for (target, key), g in groups.items():
        print("%-*s  %4d  %s  %s" % (width, key, len(g["files"]), os.path.relpath(g["files"][0]),
                                    re.sub(r"\s+", " ", g["msg"])))
        where = signatures.where_line(key, g["sigs"])
        if where:
            # the signatures merged into this line: where the check fired
            print("%-*s        %s" % (width, "", where))
    print("triage: %d crash file%s, %d unique failure%s" % (
        len(files), "" if len(files) == 1 else "s", len(groups), "" if len(groups) == 1 else "s"))
    return 0


def register(subparsers):
    p = subparsers.add_parser(
        "triage", help="group crash files by failure signature",
        description="Run every crash file under DIR... (campaign directories, crash "
                    "directories or files) once and print one line per unique failure: "
                    "signature (check/op kind, or sanitizer kind/top frame), count, first "
                    "file, the check's message. A campaign's target, variant and bug come "
                    "from its campaign.json.")
    p.add_argument("paths", nargs="+", metavar="DIR")
    p.add_argument("--target", help="target (default: the campaign's, or from the path)")
    p.add_argument("--variant", help="variant (default: the campaign's)")
    p.add_argument("--bug", help="bug variant (default: the campaign's)")
    p.add_argument("--rebuild", action="store_true",
                   help="run a campaign's files through the current build, not the copy "
                        "of the binary the campaign ran")
    p.add_argument("--by", choices=["check", "signature"], default="check",
                   help="group a check's failures into one line, with the op kinds it "
                        "fired at listed under it (check; the default), or one line per "
                        "check/op kind signature (signature). Sanitizer reports are "
                        "always told apart by kind and top frame")
    p.add_argument("--preset",
                   help="build that runs the files: dev (the replay driver, as minimize "
                        "uses; the default, or fuzz-tsan's for a TSan campaign) or fuzz "
                        "(libFuzzer with ASan+UBSan). A campaign's "
                        "files run through the copy of the binary it ran, unless --preset, "
                        "--variant, --bug or --rebuild says otherwise")
    p.set_defaults(func=run)
