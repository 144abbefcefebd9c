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
import os
import re
import shutil

from . import bugs
from . import builds
from . import campaign
from . import common
from . import engine
from . import regressions
from . import signatures
from . import targets


def signer_for(target, variant, bug, preset, cache_dir, signers, own=None, code=None):
    """A Signer for the binary given (a campaign's own copy) or built."""
    code = code or builds.Code()
    key = (target, variant, bug, preset, cache_dir, own, code.suffix(),
           os.environ.get("MLF_MEMORY_MODEL"))
    if key not in signers:
        if own:
            path = own
        else:
            name = target if preset in ("fuzz", "afl") else target + "_replay"
            path = builds.binary(builds.ensure_built_quiet(preset, variant, bug, targets=[name],
                                                           code=code), name)
        signers[key] = signatures.Signer(path, cache_dir)
    return signers[key]


def in_regressions(path):
    """Whether @path is corpus/regressions or a directory or file in it."""
    parts = os.path.abspath(path).split(os.sep)
    return "regressions" in parts[:-1] or (
        os.path.isdir(path) and parts[-1] == "regressions")


def plan(paths, args):
    """[(file, target, variant, bug, campaign dir or None, meta)] of the
    files to sign: a campaign's crash files (its campaign.json says the
    target, variant and bug), a regression directory's inputs (repro and
    the like, on the bug its name is, or its TARGET's target), and readable
    traces by their magic line. No file at all is a one-line MlfError: a
    triage of nothing is no evidence."""
    out, seen = [], set()
    for path in paths:
        common.check_path(path)
        found = []
        if in_regressions(path):
            for target, files in regressions.group(path, args.target):
                d = os.path.dirname(os.path.abspath(files[0])) if files else None
                name = os.path.basename(d) if d else ""
                bug = bugs.get(name).name if bugs.get(name) else None
                found += [(f, target or regressions.DEFAULT_TARGET, None, bug, None, {})
                          for f in files]
        else:
            for f in campaign.crash_files(path):
                camp = campaign.campaign_of(f)
                meta = campaign.read_meta(camp) if camp else {}
                target = (meta.get("target") or targets.trace_target_of_file(f)
                          or regressions.guess_target(f))
                found.append((f, target, meta.get("variant"), meta.get("bug"), camp, meta))
        for entry in found:
            if entry[0] not in seen:
                seen.add(entry[0])
                out.append(entry)
    if not out:
        raise common.MlfError("no crash files under %s (a campaign's crashes/, crash-* "
                              "files, or corpus/regressions/<name>/)" % " ".join(paths))
    return out


def run(args, extra):
    entries = plan(args.paths, args)
    signers, groups, norepro, works = {}, {}, [], []
    entries.sort(key=lambda e: (os.path.getmtime(e[0]), e[0]))
    try:
        for path, target, variant, bug, camp, meta in entries:
            target = args.target or target
            if not target:
                raise common.MlfError("cannot tell the target of %s; use --target" % path)
            variant = args.variant or variant
            bug = args.bug or bug
            # the campaign's memory model, unless --memory-model says
            os.environ["MLF_MEMORY_MODEL"] = (args.memory_model or meta.get("memory_model")
                                              or "lkmm")
            code = builds.Code.of(args, meta)
            own = None
            if camp and not (args.preset or args.variant or args.bug or args.rebuild or
                             args.tree or args.patches):
                # the binary the campaign ran (fuzz preset, its variant and bug)
                cand = os.path.join(camp, "build", "fuzz", target)
                own = cand if os.path.exists(cand) else None
            # a TSan campaign's race shows only in a TSan build
            preset = args.preset or ("fuzz-tsan" if meta.get("sanitizer") == "tsan" else "dev")
            signer = signer_for(target, variant, bug, preset, camp, signers, own, code)
            # a readable trace runs as the input it spells
            runs, _, work = engine.encoded([path], target)
            works.append(work)
            result = signer.sign(runs[0])
            if result is None:
                raise common.MlfError("%s: cannot read it" % path)
            sig, msg = result
            if sig == signatures.NO_REPRO:
                norepro.append((path, " ".join(filter(None, [bug or variant] + code.flags())),
                                msg))
                continue
            entry = groups.setdefault((target, signatures.failure_key(sig, args.by)),
                                      {"files": [], "msg": msg, "sigs": {}})
            entry["files"].append(path)
            entry["sigs"][sig] = entry["sigs"].get(sig, 0) + 1
    finally:
        for work in works:
            if work:
                shutil.rmtree(work, ignore_errors=True)
    for signer in signers.values():
        signer.save()
    width = max([len(s) for _, s in groups] + [20])
    for (target, key), g in groups.items():
        print("%-*s  %4d  %s  %s" % (width, key, len(g["files"]),
                                    common.shown_path(signatures.example(g["files"])),
                                    re.sub(r"\s+", " ", g["msg"])))
        where = signatures.where_line(key, g["sigs"])
        if where:
            # the signatures merged into this line: where the check fired
            print("%-*s        %s" % (width, "", where))
    for path, on, msg in norepro:
        # not a failure: the file ran clean on the build it was given
        print("%-*s  %4s  %s  on %s: %s" % (width, signatures.NO_REPRO, "-",
                                            common.shown_path(path),
                                            on or common.DEFAULT_VARIANT, msg))
    n = len(entries)
    print("triage: %d crash file%s, %d unique failure%s%s" % (
        n, "" if n == 1 else "s", len(groups), "" if len(groups) == 1 else "s",
        ", %d not reproduced" % len(norepro) if norepro else ""))
    return 0


def register(subparsers):
    p = subparsers.add_parser(
        "triage", help="group crash files by failure signature",
        description="Run every crash file under DIR... (campaign directories, crash "
                    "directories or files) once and print one line per unique failure: "
                    "signature (check/op kind, or sanitizer kind/top frame), count, its "
                    "smallest file, the check's message; files that do not fail are listed apart "
                    "(no-repro) and are no failure. A campaign's target, variant, bug, tree and "
                    "patches come from its campaign.json; a corpus/regressions/<name>/ directory's inputs "
                    "(repro, ...) run on bug <name> (a zoo bug) or its TARGET's target. No "
                    "crash file at all is an error.")
    p.add_argument("paths", nargs="+", metavar="DIR")
    p.add_argument("--target", help="target (default: the campaign's, or from the path)")
    builds.add_code_arguments(p, "the seed level (default: the campaign's)")
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
                        "--variant, --bug, --tree, --patches or --rebuild says otherwise")
    engine.add_memory_model_argument(p)
    p.set_defaults(func=run)
