# SPDX-License-Identifier: GPL-2.0
"""A campaign directory (DIR/<target>/) and what watches it while it runs.

Campaign: the layout (corpus/, crashes/, logs/, stats.csv, campaign.json),
recovery after a kill, the merge's swap. CrashSigner: the signature of each
crash file, mostly from the engine's own logs. Status: the status line and
stats.csv, whose exec/s is the rate over the last interval in which the
engine reported (libFuzzer in one process at a new unit or a power of two
of inputs, -fork when a job ends, AFL++ when it
rewrites fuzzer_stats: a tick between two reports has no new figures, and
is not a rate of 0). Also the crash files of a campaign or any directory
(crash_files) and the campaign a file belongs to. A library module (see
__init__.py).
"""
import csv
import glob
import hashlib
import json
import os
import re
import shutil
import threading
import time

from . import common
from . import engine
from . import signatures

STATS_FIELDS = ["time", "execs", "exec_per_s", "corpus", "cov", "ft", "crashes", "unique"]
UNIT_WRITTEN = re.compile(r"Test unit written to (\S+)")
ARTIFACT = re.compile(r"^(crash|leak|timeout|oom|slow-unit)-|^afl-")
# libFuzzer -fork status: "#123: cov: 45 ft: 67 corp: 8 exec/s 9 ..."; plain
# mode: "#123\tNEW    cov: 45 ft: 67 corp: 8/90b ..."
LF_STATUS = re.compile(r"^#(\d+):?\s.*?cov: (\d+) ft: (\d+) corp: (\d+)")


def artifacts(crashes):
    """Crash, timeout, oom and leak files of a crashes directory, oldest first."""
    if not os.path.isdir(crashes):
        return []
    found = [os.path.join(crashes, n) for n in os.listdir(crashes) if ARTIFACT.match(n)]
    return sorted(found, key=lambda p: (os.path.getmtime(p), p))


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
            elif not in_afl and ARTIFACT.match(name) and not name.endswith(
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


def read_meta(camp):
    """A campaign directory's campaign.json as a dict ({} if unreadable)."""
    try:
        with open(os.path.join(camp, "campaign.json"), encoding="utf-8") as f:
            meta = json.load(f)
    except (OSError, ValueError):
        return {}
    return meta if isinstance(meta, dict) else {}


def meta_of_paths(paths):
    """The campaign.json of the one campaign all @paths are in (a path may
    be the campaign directory itself), else {}: minimize, replay and triage
    take the target, variant and bug from it, so that the hints `tools/mlf
    fuzz --bug B` prints run as printed."""
    camps = set()
    for path in paths:
        if os.path.isdir(path) and os.path.exists(os.path.join(path, "campaign.json")):
            camps.add(os.path.abspath(path))
        else:
            camps.add(campaign_of(path))
    if len(camps) != 1 or None in camps:
        return {}
    return read_meta(camps.pop())


def campaign_name(target, sanitizer=None):
    """The directory of @target's campaign under @sanitizer's libFuzzer
    build: DIR/<target>/ (ASan + UBSan, and AFL++), DIR/<target>-tsan/
    (ThreadSanitizer). One directory per build: its crash files are signed
    by its own binary."""
    return target + "-tsan" if sanitizer == "tsan" else target


class Campaign:
    """One target's campaign directory under one build, DIR/<target>/ or
    DIR/<target>-tsan/ (docs/campaigns.md)."""

    def __init__(self, root, target, sanitizer=None):
        self.target = target
        self.name = campaign_name(target, sanitizer)
        self.dir = os.path.join(root, self.name)
        self.corpus = os.path.join(self.dir, "corpus")
        self.crashes = os.path.join(self.dir, "crashes")
        self.logs = os.path.join(self.dir, "logs")
        self.tmp = os.path.join(self.dir, "tmp")
        self.afl = os.path.join(self.dir, "afl")
        self.stats = os.path.join(self.dir, "stats.csv")
        self.meta = os.path.join(self.dir, "campaign.json")

    def exists(self):
        return os.path.exists(self.meta) or os.path.isdir(self.corpus)

    def load_meta(self):
        try:
            with open(self.meta, encoding="utf-8") as f:
                return json.load(f)
        except (OSError, ValueError):
            return {}

    def save_meta(self, meta):
        tmp = self.meta + ".tmp"
        with open(tmp, "w", encoding="utf-8") as f:
            json.dump(meta, f, indent=1, sort_keys=True)
        os.replace(tmp, self.meta)

    def last_stats(self):
        """The last stats.csv row (numbers), or zeros: a resume goes on from it."""
        row = dict.fromkeys(STATS_FIELDS, 0)
        try:
            with open(self.stats, encoding="utf-8") as f:
                rows = list(csv.DictReader(f))
        except OSError:
            return row
        for r in reversed(rows):
            try:
                return {k: float(r[k]) for k in STATS_FIELDS}
            except (KeyError, TypeError, ValueError):
                continue  # a row cut short by a kill
        return row

    def append_stats(self, row):
        new = not os.path.exists(self.stats)
        with open(self.stats, "a", encoding="utf-8") as f:
            if new:
                f.write(",".join(STATS_FIELDS) + "\n")
            f.write(",".join(("%.1f" % row[k]) if k == "time" else "%d" % row[k]
                             for k in STATS_FIELDS) + "\n")

    def recover(self):
        """Undo what a kill during a merge left behind; never drops an entry.

        The merge writes corpus.merging and then swaps: corpus -> corpus.premerge,
        corpus.merging -> corpus, remove corpus.premerge. Whatever step a kill
        interrupted, the old corpus (complete) or the new one (complete) stays.
        """
        merging, premerge = self.corpus + ".merging", self.corpus + ".premerge"
        if os.path.isdir(premerge):
            if os.path.isdir(self.corpus):
                shutil.rmtree(premerge)
            else:
                os.rename(premerge, self.corpus)
        if os.path.isdir(merging):
            shutil.rmtree(merging)
        self.salvage_fork_units()

    def salvage_fork_units(self):
        """Units a killed libFuzzer -fork job found but its parent had not yet
        merged sit in tmp/*/C*/: keep them (by content name) in the corpus."""
        if not os.path.isdir(self.tmp):
            return
        os.makedirs(self.corpus, exist_ok=True)
        have = set(os.listdir(self.corpus))
        for path in glob.glob(os.path.join(self.tmp, "*", "C*", "*")):
            if not os.path.isfile(path):
                continue
            with open(path, "rb") as f:
                data = f.read()
            name = hashlib.sha1(data).hexdigest()
            if name not in have:
                with open(os.path.join(self.corpus, name + ".part"), "wb") as f:
                    f.write(data)
                os.replace(os.path.join(self.corpus, name + ".part"),
                           os.path.join(self.corpus, name))
                have.add(name)
        shutil.rmtree(self.tmp, ignore_errors=True)

    def swap_in(self, merged):
        """Make the complete merged directory the corpus (see recover())."""
        premerge = self.corpus + ".premerge"
        os.rename(self.corpus, premerge)
        os.rename(merged, self.corpus)
        shutil.rmtree(premerge)


class CrashSigner:
    """Learns each crash file's signature while the campaign runs.

    libFuzzer -fork runs each job with its log in TMPDIR and deletes the log
    when the job ends; its parent keeps only the "ERROR:" lines. Hard links
    made while a job runs keep the whole log (the check, the failing op, the
    file the crash went to), so most crashes are signed for free; a file no
    log explained is run again (signatures.Signer) once it is a few seconds old.
    """

    def __init__(self, camp, signer):
        self.camp, self.signer = camp, signer
        self.jobs = os.path.join(camp.logs, "jobs")
        self.linked = set()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def current_logs(self):
        """{link name: path} of the running jobs' logs."""
        found = {}
        for path in glob.glob(os.path.join(self.camp.tmp, "*", "*.log")):
            parent = os.path.basename(os.path.dirname(path)).rsplit(".", 1)[0]
            found["%s-%s" % (parent[-12:], os.path.basename(path))] = path
        return found

    def link_logs(self, current):
        os.makedirs(self.jobs, exist_ok=True)
        for name, path in current.items():
            if name in self.linked:
                continue
            try:
                os.link(path, os.path.join(self.jobs, name))
            except FileExistsError:
                pass
            except OSError:
                continue
        self.linked = set(current)

    def read_logs(self, live):
        """Sign the crashes of finished jobs' logs, then drop those logs."""
        for name in os.listdir(self.jobs) if os.path.isdir(self.jobs) else []:
            path = os.path.join(self.jobs, name)
            if name in live:
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                text = f.read()
            m = UNIT_WRITTEN.search(text)
            if m and os.path.exists(m.group(1)):
                sig = signatures.signature(text)
                if sig:
                    self.signer.record(m.group(1), sig, signatures.message(text))
            os.remove(path)

    def sign_leftovers(self, min_age):
        now = time.time()
        for path in artifacts(self.camp.crashes):
            if self.stop.is_set() and min_age:
                return
            if now - os.path.getmtime(path) >= min_age:
                self.signer.sign(path)

    def loop(self):
        last = 0.0
        while not self.stop.wait(0.05):
            current = self.current_logs()
            self.link_logs(current)
            if time.monotonic() - last >= 2:
                self.read_logs(set(current))
                self.signer.save()
                self.sign_leftovers(10)
                last = time.monotonic()

    def finish(self):
        self.stop.set()
        self.thread.join()
        self.read_logs(set())
        self.signer.save()
        self.sign_leftovers(0)


class Status:
    """Prints a status line every few seconds and appends it to stats.csv.

    The engine's figures arrive as reports (report(): a libFuzzer status
    line, AFL++'s fuzzer_stats); each row's exec/s is the rate over the
    interval its new reports cover, and a row with no new report keeps the
    last such rate and says how old it is. Before the first report the line
    says so instead of a rate (stats.csv: 0). @clock is for tests."""

    def __init__(self, camp, every, signer, quiet=False, clock=time.monotonic):
        self.camp, self.every, self.signer, self.quiet = camp, every, signer, quiet
        self.clock = clock
        base = camp.last_stats()
        self.t0, self.execs0 = base["time"], base["execs"]
        self.run_base = 0  # the execs of this session's engine runs before the current one
        self.execs, self.cov, self.ft = base["execs"], base["cov"], base["ft"]
        self.start = clock()
        self.reports = 0            # the engine's reports so far
        self.reported_at = None     # when the latest came (clock)
        self.since = (self.start, self.execs)  # what the next rate is measured from
        self.rate = None            # exec/s over the last interval with reports
        self.queue = None  # AFL++'s corpus (its queues), where it has one
        self.afl_seen = None        # AFL++'s last_update stamps, to tell a new report
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.poll = None  # the engine's stats reader, where it has one (AFL++)
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def report(self, execs, cov, ft, when=None):
        """The engine's figures: @execs since this run started."""
        with self.lock:
            self.execs = self.execs0 + self.run_base + execs
            self.cov, self.ft = cov, ft
            self.reported_at = self.clock() if when is None else when
            self.reports += 1

    def next_run(self, execs_done=None):
        """A new engine process starts counting from 0: what the ones before
        it ran (@execs_done, their final stats; else the last report) stays."""
        with self.lock:
            if execs_done is not None:
                self.execs = self.execs0 + self.run_base + execs_done
            self.run_base = self.execs - self.execs0

    def libfuzzer_line(self, line, when=None):
        m = LF_STATUS.match(line)
        if m:
            self.report(int(m.group(1)), int(m.group(2)), int(m.group(3)), when)

    def afl_update(self):
        execs = cov = queue = 0
        stamps = []
        for path in sorted(glob.glob(os.path.join(self.camp.afl, "*", "fuzzer_stats"))):
            st = engine.afl_stats(path)
            execs += int(st.get("execs_done", 0))
            cov = max(cov, int(st.get("edges_found", 0)))
            queue = max(queue, int(st.get("corpus_count", st.get("paths_total", 0))))
            stamps.append(int(st.get("last_update", 0) or 0))
        with self.lock:
            self.queue = queue or None
        if stamps and stamps != self.afl_seen:
            # a new report; AFL++ stamps it with the wall clock
            self.afl_seen = stamps
            age = max(0.0, time.time() - max(stamps)) if max(stamps) else 0.0
            self.report(execs, cov, cov, self.clock() - age)

    def row(self):
        now = self.clock()
        with self.lock:
            execs, cov, ft, at = self.execs, self.cov, self.ft, self.reported_at
        if at is not None and at > self.since[0]:
            self.rate = (execs - self.since[1]) / (at - self.since[0])
            self.since = (at, execs)
        crashes = artifacts(self.camp.crashes)
        unique, unsigned = self.signer.unique(crashes)
        return {"time": self.t0 + now - self.start, "execs": execs,
                "exec_per_s": self.rate or 0, "reported": self.rate is not None,
                "age": now - at if at is not None else None,
                "corpus": self.queue or common.count_files(self.camp.corpus), "cov": cov,
                "ft": ft, "crashes": len(crashes), "unique": unique, "unsigned": unsigned}

    def line(self, r):
        """The status line of row @r."""
        t = int(r["time"])
        if not r["reported"]:
            rate = "exec/s -  (no report from the engine yet)"
        elif r["age"] is not None and r["age"] >= max(self.every, 1) + 0.5:
            rate = "exec/s %d (reported %d s ago)" % (r["exec_per_s"], r["age"])
        else:
            rate = "exec/s %d" % r["exec_per_s"]
        return ("%s %d:%02d:%02d  execs %d  %s  corpus %d  session cov %d  ft %d  crashes %d  "
                "unique %d%s"
                % (self.camp.name, t // 3600, t // 60 % 60, t % 60, r["execs"], rate,
                   r["corpus"], r["cov"], r["ft"], r["crashes"], r["unique"],
                   " (%d not yet run)" % r["unsigned"] if r["unsigned"] else ""))

    def tick(self, poll=None):
        if poll:
            poll()
        r = self.row()
        self.camp.append_stats(r)
        if not self.quiet:
            print(self.line(r), flush=True)
        return r

    def loop(self):
        while not self.stop.wait(self.every):
            self.tick(self.poll)
