# SPDX-License-Identifier: GPL-2.0
"""mlf triage: group crash files by failure signature, one line per failure.

A campaign keeps every crash file; many are the same bug reached by other
inputs. Each file is run once (through the copy of the fuzz binary the
campaign ran, so sanitizer reports show too; elsewhere through the replay
driver of the variant and bug given, as minimize does) and keyed by
minimize.signature(): the check name and the failing op kind, or the
sanitizer report kind and top frame. Signatures are cached per campaign in
<target>/signatures.json, keyed by the file's content, so the status line
of `mlf fuzz` and later triage runs replay each crash only once.
"""
import hashlib
import json
import os
import re
import subprocess
import threading
import time

from . import common
from . import fuzz
from . import minimize

NO_REPRO = "no-repro/-"


def message(text):
    """The check's message (the line after MLF FAILURE), or the sanitizer's."""
    lines = text.splitlines()
    for i, line in enumerate(lines):
        if line.startswith("MLF FAILURE:"):
            rest = lines[i + 1].strip() if i + 1 < len(lines) else ""
            return rest or line
    m = minimize.SANITIZER.search(text)
    if m:
        return text[m.start():].splitlines()[0].split("==: ", 1)[-1].strip()
    return ""


def fallback_signature(path):
    """What a file that does not fail when run again was saved as."""
    kind = os.path.basename(path).split("-", 1)[0]
    # "oom" is also a check's name (slab.c): libFuzzer's oom file is out-of-memory
    kind = {"oom": "out-of-memory"}.get(kind, kind)
    return "%s/-" % kind if kind in ("timeout", "out-of-memory", "leak", "slow") else NO_REPRO


class Signer:
    """Signatures of crash files by running them through one binary, cached."""

    def __init__(self, binary, cache_dir=None, timeout=25):
        self.binary, self.timeout = binary, timeout
        with open(binary, "rb") as f:
            # the cache key: a rebuilt binary at the same path may differ
            self.build_id = "%s@%s" % (binary, hashlib.sha1(f.read()).hexdigest()[:16])
        self.cache_path = os.path.join(cache_dir, "signatures.json") if cache_dir else None
        self.sigs, self.others = {}, {}
        self.keys = {}  # path -> content key: a crash file never changes
        self.saved = 0.0
        self.lock = threading.Lock()
        if self.cache_path:
            try:
                with open(self.cache_path, encoding="utf-8") as f:
                    cached = json.load(f)
                # another build may sign differently (sanitizers, variant)
                self.others = {b: v for b, v in cached.get("binaries", {}).items()
                               if b != self.build_id}
                self.sigs = cached.get("binaries", {}).get(self.build_id, {})
            except (OSError, ValueError):
                pass

    def save(self, force=True):
        """Write the cache; with force=False at most every few seconds (it is
        rewritten whole, and a campaign may have thousands of crash files)."""
        if not self.cache_path or (not force and time.monotonic() - self.saved < 5):
            return
        self.saved = time.monotonic()
        tmp = self.cache_path + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            with self.lock:
                binaries = dict(self.others, **{self.build_id: dict(self.sigs)})
            json.dump({"binaries": binaries}, f, indent=0, sort_keys=True)
        os.replace(tmp, self.cache_path)

    def run(self, path):
        """(signature, message) of one run of path."""
        cmd = [self.binary, "-timeout=%d" % self.timeout, "-rss_limit_mb=4096", path]
        # the campaign's own sanitizer options (TSan's suppressions among
        # them: without them a TSan build reports libFuzzer's counters)
        env = common.sanitizer_env(dict(os.environ, ASAN_OPTIONS="abort_on_error=1:detect_leaks=0"))
        try:
            proc = subprocess.run(cmd, capture_output=True, text=True, errors="replace",
                                  timeout=self.timeout * 2 + 10, env=env)
        except subprocess.TimeoutExpired:
            return "timeout/-", "no result within %d s" % (self.timeout * 2 + 10)
        sig = minimize.signature(proc.stderr)
        if proc.returncode != 0 and not sig and "ALARM: working on the last Unit" in proc.stderr:
            return "timeout/-", "libFuzzer timeout (%d s)" % self.timeout
        if not sig:
            return fallback_signature(path), "does not fail when run again (status %d)" \
                % proc.returncode
        return sig, message(proc.stderr)

    def key(self, path):
        if path not in self.keys:
            try:
                with open(path, "rb") as f:
                    self.keys[path] = hashlib.sha1(f.read()).hexdigest()
            except OSError:
                return None
        return self.keys[path]

    def record(self, path, sig, msg):
        """A signature learnt elsewhere (the engine's own log of the crash)."""
        key = self.key(path)
        if key:
            with self.lock:
                self.sigs.setdefault(key, [sig, msg])

    def peek(self, path):
        """The cached signature of path, or None: never runs anything."""
        key = self.key(path)
        with self.lock:
            hit = self.sigs.get(key) if key else None
        return tuple(hit) if hit else None

    def sign(self, path):
        hit = self.peek(path)
        if hit or not self.key(path):
            return hit
        result = self.run(path)
        with self.lock:
            self.sigs[self.key(path)] = list(result)
        self.save(force=False)
        return result

    def unique(self, files):
        """(unique failures, files not signed yet), without running anything;
        failures are told apart as triage's default does (by check)."""
        sigs = [self.peek(p) for p in files]
        return len({failure_key(s[0]) for s in sigs if s}), sum(1 for s in sigs if not s)

    def groups(self, files, by="check"):
        """[(failure, [files], message, {signature: count})] in the order each
        failure was first met; failures told apart as failure_key() says."""
        found = {}
        for path in files:
            s = self.sign(path)
            if s:
                g = found.setdefault(failure_key(s[0], by), ([], s[1], {}))
                g[0].append(path)
                g[2][s[0]] = g[2].get(s[0], 0) + 1
        return [(key, paths, msg, sigs) for key, (paths, msg, sigs) in found.items()]


def where_line(key, sigs):
    """Under a merged line: the op kinds (signatures) it stands for, or None."""
    if len(sigs) == 1 and key in sigs:
        return None
    return "at " + ", ".join("%s %d" % (s.split("/", 1)[-1] if s != key else s, n)
                             for s, n in sorted(sigs.items(), key=lambda i: -i[1]))


def failure_key(sig, by="check"):
    """What tells two failures apart. By check: one defect is one line
    although the op that meets it differs from input to input (a stale
    tail[][] is met by whichever op deletes next: rotate, offline, release,
    soft or reclaim). A sanitizer report keeps its kind and top frame."""
    if by == "signature" or not sig or not minimize.is_check_signature(sig):
        return sig
    return minimize.check_of(sig)


def crash_files(path):
    """Crash files under path: libFuzzer artifacts, mlf's afl-* copies and
    AFL++'s crashes/id:* (corpus, queue and log directories are skipped)."""
    if os.path.isfile(path):
        return [path]
    found = []
    for top, dirs, files in os.walk(path):
        dirs[:] = sorted(d for d in dirs if not d.startswith(("corpus", "logs", "tmp", "queue", "build",
                                                               "hangs", ".")))
        in_afl = os.path.basename(top) == "crashes" and os.path.basename(
            os.path.dirname(os.path.dirname(top))) == "afl"
        for name in sorted(files):
            if in_afl and name.startswith("id:"):
                found.append(os.path.join(top, name))
            elif not in_afl and fuzz.ARTIFACT.match(name) and not name.endswith(
                    (".min", ".trace", ".part", ".tmp")):
                found.append(os.path.join(top, name))
    return found


def campaign_of(path):
    """The campaign target directory holding path (campaign.json), or None."""
    d = os.path.dirname(os.path.abspath(path))
    for _ in range(4):
        if os.path.exists(os.path.join(d, "campaign.json")):
            return d
        d = os.path.dirname(d)
    return None


def signer_for(target, variant, bug, preset, cache_dir, signers, own=None):
    """A Signer for the binary given (a campaign's own copy) or built."""
    key = (target, variant, bug, preset, cache_dir, own)
    if key not in signers:
        if own:
            path = own
        else:
            name = target if preset in ("fuzz", "afl") else target + "_replay"
            path = fuzz.binary(fuzz.ensure_built_quiet(preset, variant, bug, targets=[name]),
                               name)
        signers[key] = Signer(path, cache_dir)
    return signers[key]


def run(args, extra):
    from . import replay
    files = []
    for path in args.paths:
        if not os.path.exists(path):
            raise common.MlfError("%s: no such file or directory" % path)
        files += [f for f in crash_files(path) if f not in files]
    signers, groups = {}, {}
    files.sort(key=lambda p: (os.path.getmtime(p), p))
    for path in files:
        camp = campaign_of(path)
        meta = {}
        if camp:
            with open(os.path.join(camp, "campaign.json"), encoding="utf-8") as f:
                meta = json.load(f)
        target = args.target or meta.get("target") or replay.guess_target(path)
        if not target:
            raise common.MlfError("cannot tell the target of %s; use --target" % path)
        variant = args.variant or meta.get("variant")
        bug = args.bug or meta.get("bug")
        own = None
        if camp and not (args.preset or args.variant or args.bug or args.rebuild):
            # the binary the campaign ran (fuzz preset, its variant and bug)
            cand = os.path.join(camp, "build", "fuzz", target)
            own = cand if os.path.exists(cand) else None
        signer = signer_for(target, variant, bug, args.preset or "dev", camp, signers, own)
        sig, msg = signer.sign(path)
        entry = groups.setdefault((target, failure_key(sig, args.by)),
                                  {"files": [], "msg": msg, "sigs": {}})
        entry["files"].append(path)
        entry["sigs"][sig] = entry["sigs"].get(sig, 0) + 1
    for signer in signers.values():
        signer.save()
    width = max([len(s) for _, s in groups] + [20])
    for (target, key), g in groups.items():
        print("%-*s  %4d  %s  %s" % (width, key, len(g["files"]), os.path.relpath(g["files"][0]),
                                    re.sub(r"\s+", " ", g["msg"])))
        where = where_line(key, g["sigs"])
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
                        "uses; the default) or fuzz (libFuzzer with ASan+UBSan). A campaign's "
                        "files run through the copy of the binary it ran, unless --preset, "
                        "--variant, --bug or --rebuild says otherwise")
    p.set_defaults(func=run)
