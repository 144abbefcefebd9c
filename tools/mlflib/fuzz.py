# SPDX-License-Identifier: GPL-2.0
"""mlf fuzz: fuzzing campaigns with libFuzzer or AFL++, one per target.

A campaign directory (--dir, default out/) holds, per target:
  <target>/corpus      the working corpus (seeded from corpus/<target>; the
                       repository's corpus is never written)
  <target>/crashes     every crash, timeout and oom file (never deleted)
  <target>/logs        the engine's output, one file per run
  <target>/stats.csv   a row every few seconds: the status line's figures
  <target>/campaign.json  engine, variant and bug, for --resume and triage
Both engines write corpus entries and crashes as files as they go, so a
campaign killed at any point loses neither; --resume goes on from the
directory. The end-of-run merge (libFuzzer -merge=1 / afl-cmin) writes a
new directory and swaps it in only once it is complete. One summary line
per target at the end. Also the helpers the replay, trace and corpus
subcommands share.
"""
import csv
import glob
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import threading
import time

from . import common

FUZZ_DIR = os.path.join(common.ROOT, "fuzz")
CORPUS_DIR = os.path.join(common.ROOT, "corpus")
OUT_DIR = os.path.join(common.ROOT, "out")

SKIP_SUFFIXES = (".trace", ".md", ".txt", ".dict", ".options")


def targets():
    """The fuzz targets: fuzz/<name>.c files that define the libFuzzer entry
    point and that fuzz/CMakeLists.txt or a fuzz/*.cmake it includes builds
    (mlf_fuzz_target(<name> ...))."""
    rules = ""
    for name in sorted(os.listdir(FUZZ_DIR)) if os.path.isdir(FUZZ_DIR) else []:
        if name == "CMakeLists.txt" or name.endswith(".cmake"):
            with open(os.path.join(FUZZ_DIR, name), encoding="utf-8") as f:
                rules += f.read()
    built = set(re.findall(r"^\s*mlf_fuzz_target\((\w+)", rules, re.M))
    names = []
    for path in sorted(glob.glob(os.path.join(FUZZ_DIR, "*.c"))):
        name = os.path.basename(path)[:-2]
        if name not in built:
            continue
        with open(path, encoding="utf-8", errors="replace") as f:
            if "LLVMFuzzerTestOneInput" in f.read():
                names.append(name)
    # the historical order first: the README's first command lists them so
    first = [n for n in ("memcg_lru", "trace_parser", "nulls_list") if n in names]
    return first + [n for n in names if n not in first]


def is_input_name(name):
    """The rule of fuzz/README.md (and replay_main.c): which files are inputs."""
    return not (name.startswith(".") or name.startswith("README") or name in ("TARGET", "EXPECT", "FLAKY")
                or name.endswith(SKIP_SUFFIXES))


def input_files(path):
    """Input files of a file or directory (recursive, name order)."""
    if os.path.isfile(path):
        return [path]
    found = []
    for name in sorted(os.listdir(path)):
        sub = os.path.join(path, name)
        if not is_input_name(name):
            continue
        if os.path.isdir(sub):
            found += input_files(sub)
        elif os.path.isfile(sub):
            found.append(sub)
    return found


def ensure_built(preset, variant=None, bug=None, targets=None):
    """build.ensure_built(), or (before that module exists) a plain cmake."""
    try:
        from . import build
    except ImportError:
        build = None
    if build is not None and hasattr(build, "ensure_built"):
        tree = common.build_dir(build.tree_name(preset, variant, bug))
        reconfigure_if_unknown(tree, targets or [])
        return build.ensure_built(preset, variant, bug, targets=targets)
    tree = common.build_dir("-".join([preset] + [x for x in (variant, bug) if x]))
    if not os.path.exists(os.path.join(tree, "CMakeCache.txt")):
        cmd = ["cmake", "--preset", preset, "-B", tree]
        if variant:
            cmd.append("-DMLF_VARIANT=" + variant)
        if bug:
            cmd.append("-DMLF_BUG=" + bug)
        common.run(cmd, cwd=common.ROOT)
    cmd = ["cmake", "--build", tree]
    for t in targets or []:
        cmd += ["--target", t]
    common.run(cmd, cwd=common.ROOT)
    return tree


def reconfigure_if_unknown(tree, names):
    """A tree configured before fuzz/ (or nulls_list.c) existed lacks targets."""
    for rules in ("build.ninja", "Makefile"):
        path = os.path.join(tree, rules)
        if os.path.exists(path):
            break
    else:
        return
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    if any(not re.search(r"\b%s\b" % re.escape(n), text) for n in names):
        common.run(["cmake", tree], cwd=common.ROOT)


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
    path = os.path.join(build, "fuzz", name)
    if not os.path.exists(path):
        raise common.MlfError("%s was not built in %s" % (name, os.path.relpath(build)))
    return path


def run_tee(cmd, cwd=None, env=None):
    """Run a command after printing it, showing its stderr and keeping it."""
    common.show(cmd, cwd)
    full_env = common.sanitizer_env()
    full_env.update(env or {})
    proc = subprocess.Popen([str(c) for c in cmd], cwd=cwd, env=full_env,
                            stderr=subprocess.PIPE, text=True, errors="replace")
    kept = []
    for line in proc.stderr:
        sys.stderr.write(line)
        kept.append(line)
    proc.wait()
    return proc.returncode, "".join(kept)


def read_options(target):
    """libFuzzer flags from fuzz/<target>.options ([libfuzzer] section)."""
    path = os.path.join(FUZZ_DIR, target + ".options")
    flags, section = [], None
    if not os.path.exists(path):
        return flags
    with open(path, encoding="utf-8") as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if line.startswith("["):
                section = line.strip("[]").strip()
            elif section == "libfuzzer" and "=" in line:
                key, value = (x.strip() for x in line.split("=", 1))
                if key == "dict":
                    value = os.path.join(FUZZ_DIR, value)
                flags.append("-%s=%s" % (key, value))
    return flags


def seed_working_corpus(target, work):
    """Copy the repository's seeds into the working corpus (never the reverse)."""
    os.makedirs(work, exist_ok=True)
    src = os.path.join(CORPUS_DIR, target)
    if not os.path.isdir(src):
        return
    for path in input_files(src):
        dst = os.path.join(work, os.path.basename(path))
        if not os.path.exists(dst):
            shutil.copyfile(path, dst)


def count_files(path):
    return len([n for n in os.listdir(path) if not n.startswith(".")]) \
        if os.path.isdir(path) else 0


def libfuzzer_stats(text):
    """Sum stat::number_of_executed_units / average_exec_per_sec over jobs."""
    execs = sum(int(x) for x in re.findall(r"stat::number_of_executed_units:\s*(\d+)", text))
    rate = sum(int(x) for x in re.findall(r"stat::average_exec_per_sec:\s*(\d+)", text))
    return execs, rate


def afl_stats(path):
    stats = {}
    if os.path.exists(path):
        with open(path, encoding="utf-8") as f:
            for line in f:
                if ":" in line:
                    key, value = line.split(":", 1)
                    stats[key.strip()] = value.strip()
    return stats


# ---- campaigns ----

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


class Campaign:
    """One target's campaign directory (see the module comment)."""

    def __init__(self, root, target):
        self.target = target
        self.dir = os.path.join(root, target)
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
    log explained is run again (triage.Signer) once it is a few seconds old.
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
            from . import minimize, triage
            m = UNIT_WRITTEN.search(text)
            if m and os.path.exists(m.group(1)):
                sig = minimize.signature(text)
                if sig:
                    self.signer.record(m.group(1), sig, triage.message(text))
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
    """Prints a status line every few seconds and appends it to stats.csv."""

    def __init__(self, camp, every, signer, quiet=False):
        self.camp, self.every, self.signer, self.quiet = camp, every, signer, quiet
        base = camp.last_stats()
        self.t0, self.execs0 = base["time"], base["execs"]
        self.execs, self.cov, self.ft = base["execs"], base["cov"], base["ft"]
        self.start = time.monotonic()
        self.last_t, self.last_execs, self.rate = 0.0, self.execs, 0
        self.queue = None  # AFL++'s corpus (its queues), where it has one
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.poll = None  # the engine's stats reader, where it has one (AFL++)
        self.thread = threading.Thread(target=self.loop, daemon=True)

    def libfuzzer_line(self, line):
        m = LF_STATUS.match(line)
        if m:
            with self.lock:
                self.execs = self.execs0 + int(m.group(1))
                self.cov, self.ft = int(m.group(2)), int(m.group(3))

    def afl_update(self):
        execs = cov = queue = 0
        for path in glob.glob(os.path.join(self.camp.afl, "*", "fuzzer_stats")):
            st = afl_stats(path)
            execs += int(st.get("execs_done", 0))
            cov = max(cov, int(st.get("edges_found", 0)))
            queue = max(queue, int(st.get("corpus_count", st.get("paths_total", 0))))
        with self.lock:
            self.execs, self.cov, self.ft = self.execs0 + execs, cov, cov
            self.queue = queue or None

    def row(self):
        now = time.monotonic() - self.start
        with self.lock:
            execs, cov, ft = self.execs, self.cov, self.ft
        if now - self.last_t >= 1:  # a last tick just after one: keep its rate
            self.rate = (execs - self.last_execs) / (now - self.last_t)
            self.last_t, self.last_execs = now, execs
        rate = self.rate
        crashes = artifacts(self.camp.crashes)
        unique, unsigned = self.signer.unique(crashes)
        return {"time": self.t0 + now, "execs": execs, "exec_per_s": rate,
                "corpus": self.queue or count_files(self.camp.corpus), "cov": cov, "ft": ft,
                "crashes": len(crashes), "unique": unique, "unsigned": unsigned}

    def tick(self, poll=None):
        if poll:
            poll()
        r = self.row()
        self.camp.append_stats(r)
        if not self.quiet:
            t = int(r["time"])
            print("%s %d:%02d:%02d  execs %d  exec/s %d  corpus %d  cov %d  ft %d  "
                  "crashes %d  unique %d%s" % (
                      self.camp.target, t // 3600, t // 60 % 60, t % 60, r["execs"],
                      r["exec_per_s"], r["corpus"], r["cov"], r["ft"], r["crashes"],
                      r["unique"], " (%d not yet run)" % r["unsigned"] if r["unsigned"] else ""),
                  flush=True)
        return r

    def loop(self):
        while not self.stop.wait(self.every):
            self.tick(self.poll)


def engine_env():
    return common.sanitizer_env()


def run_libfuzzer(camp, build, args, extra, status):
    binary_path = binary(build, camp.target)
    os.makedirs(camp.tmp, exist_ok=True)
    cmd = [binary_path] + read_options(camp.target) + [
        "-fork=%d" % args.jobs, "-ignore_crashes=1", "-ignore_timeouts=1", "-ignore_ooms=1",
        "-max_total_time=%d" % args.time, "-artifact_prefix=" + camp.crashes + "/"]
    cmd += extra + [camp.corpus]
    log = os.path.join(camp.logs, time.strftime("fuzz-%Y%m%d-%H%M%S.log"))
    common.show(cmd, camp.dir)
    env = engine_env()
    env["TMPDIR"] = camp.tmp  # the -fork jobs' corpora: salvaged after a kill
    with open(log, "w", encoding="utf-8") as logf:
        proc = subprocess.Popen([str(c) for c in cmd], cwd=camp.dir, env=env,
                                stdout=logf, stderr=subprocess.PIPE, text=True,
                                errors="replace")
        status.thread.start()
        for line in proc.stderr:
            logf.write(line)
            status.libfuzzer_line(line)
            if args.verbose:
                sys.stderr.write(line)
        rc = proc.wait()
    status.stop.set()
    status.thread.join()
    shutil.rmtree(camp.tmp, ignore_errors=True)
    return rc


def merge_libfuzzer(camp, build):
    """-merge=1 into corpus.merging, then swap it in (see Campaign.recover)."""
    merging = camp.corpus + ".merging"
    shutil.rmtree(merging, ignore_errors=True)
    os.makedirs(merging)
    cmd = [binary(build, camp.target)] + [f for f in read_options(camp.target)
                                          if not f.startswith("-dict=")] + [
        "-merge=1", "-artifact_prefix=" + camp.crashes + "/", merging, camp.corpus]
    log = os.path.join(camp.logs, time.strftime("merge-%Y%m%d-%H%M%S.log"))
    common.show(cmd, camp.dir)
    with open(log, "w", encoding="utf-8") as logf:
        rc = subprocess.run([str(c) for c in cmd], cwd=camp.dir, env=engine_env(),
                            stdout=logf, stderr=logf).returncode
    if rc != 0 or (count_files(camp.corpus) and not count_files(merging)):
        shutil.rmtree(merging, ignore_errors=True)
        print("%s: merge failed (status %d, see %s); corpus left as it was"
              % (camp.target, rc, os.path.relpath(log)))
        return
    camp.swap_in(merging)


def collect_afl_crashes(camp):
    """Copy AFL++'s crash files into crashes/ (afl-<instance>-<id>)."""
    for path in glob.glob(os.path.join(camp.afl, "*", "crashes", "id:*")):
        inst = os.path.basename(os.path.dirname(os.path.dirname(path)))
        ident = os.path.basename(path).split(",", 1)[0].replace("id:", "")
        dst = os.path.join(camp.crashes, "afl-%s-%s" % (inst, ident))
        if not os.path.exists(dst):
            shutil.copyfile(path, dst + ".part")
            os.replace(dst + ".part", dst)


def run_afl(camp, build, args, extra, status):
    if not os.listdir(camp.corpus):
        with open(os.path.join(camp.corpus, "empty"), "wb") as f:
            f.write(b"\0\0\0")
    # afl-fuzz sets its own sanitizer options and refuses others
    env = dict(os.environ, AFL_SKIP_CPUFREQ="1", AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1",
               AFL_NO_UI="1", AFL_AUTORESUME="1", AFL_ALLOW_TMP="1")
    dict_path = os.path.join(FUZZ_DIR, camp.target + ".dict")
    base = ["afl-fuzz", "-i", camp.corpus, "-o", camp.afl, "-V", str(args.time)]
    if os.path.exists(dict_path):
        base += ["-x", dict_path]
    tail = extra + ["--", binary(build, camp.target)]
    names = ["main"] + ["s%d" % i for i in range(1, args.jobs)]
    procs = []
    for name in names:
        cmd = base + (["-M" if name == "main" else "-S", name] if args.jobs > 1 else []) + tail
        common.show(cmd, camp.dir)
        log = open(os.path.join(camp.logs, "afl-%s-%s.log"
                                % (name, time.strftime("%Y%m%d-%H%M%S"))), "w")
        procs.append(subprocess.Popen([str(c) for c in cmd], cwd=camp.dir, env=env,
                                      stdout=log, stderr=subprocess.STDOUT))
        log.close()

    def poll():
        status.afl_update()
        collect_afl_crashes(camp)

    status.poll = poll
    status.thread.start()
    rcs = [p.wait() for p in procs]
    status.stop.set()
    status.thread.join()
    poll()
    return max(rcs)


def merge_afl(camp, build):
    """afl-cmin over the corpus and every instance's queue, then swap it in."""
    staging, merging = camp.corpus + ".staging", camp.corpus + ".merging"
    for d in (staging, merging):
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs(staging)
    for path in input_files(camp.corpus) + glob.glob(os.path.join(camp.afl, "*", "queue", "id:*")):
        with open(path, "rb") as f:
            data = f.read()
        with open(os.path.join(staging, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    cmd = ["afl-cmin", "-i", staging, "-o", merging, "--", binary(build, camp.target)]
    log = os.path.join(camp.logs, time.strftime("merge-%Y%m%d-%H%M%S.log"))
    common.show(cmd, camp.dir)
    with open(log, "w", encoding="utf-8") as logf:
        env = dict(os.environ, AFL_SKIP_CPUFREQ="1", AFL_ALLOW_TMP="1")
        rc = subprocess.run(cmd, cwd=camp.dir, env=env, stdout=logf, stderr=logf).returncode
    shutil.rmtree(staging, ignore_errors=True)
    if rc != 0 or not count_files(merging):
        shutil.rmtree(merging, ignore_errors=True)
        print("%s: afl-cmin failed (status %d, see %s); corpus left as it was"
              % (camp.target, rc, os.path.relpath(log)))
        return
    camp.swap_in(merging)


def prepare(camp, args):
    """Check --resume against the directory, recover it, write campaign.json."""
    meta = camp.load_meta()
    if args.resume:
        if not meta:
            raise common.MlfError("%s is no campaign to resume (no campaign.json)"
                                  % os.path.relpath(camp.dir))
        for key in ("variant", "bug"):
            mine = getattr(args, key)
            if mine is not None and mine != meta.get(key):
                raise common.MlfError("%s was fuzzed with %s=%s, not %s"
                                      % (os.path.relpath(camp.dir), key, meta.get(key), mine))
        args.variant, args.bug = meta.get("variant"), meta.get("bug")
        args.sanitizer = meta.get("sanitizer", args.sanitizer)
        if not args.engine_given:
            args.engine = meta.get("engine", args.engine)
    elif args.dir_given and camp.exists() and meta:
        raise common.MlfError("%s holds a campaign; use --resume to go on with it"
                              % os.path.relpath(camp.dir))
    elif meta and (meta.get("variant"), meta.get("bug")) != (args.variant, args.bug):
        # out/ is shared by one-off runs: keep the corpus, the stats start over
        if os.path.exists(camp.stats):
            os.rename(camp.stats, camp.stats + time.strftime(".%Y%m%d-%H%M%S"))
    for d in (camp.dir, camp.crashes, camp.logs):
        os.makedirs(d, exist_ok=True)
    camp.recover()
    seed_working_corpus(camp.target, camp.corpus)
    runs = meta.get("runs", 0) + 1
    camp.save_meta({"target": camp.target, "engine": args.engine,
                    "sanitizer": args.sanitizer, "variant": args.variant,
                    "bug": args.bug, "runs": runs, "started": meta.get("started") or
                    time.strftime("%Y-%m-%dT%H:%M:%S")})


def snapshot_binary(camp, build):
    """Run a copy of the target: other commands (minimize, zoo, a ctest) may
    rebuild the tree's binary while a campaign runs, and a campaign must not
    change code under its corpus half-way. Returns the copy's "build" dir."""
    own = os.path.join(camp.dir, "build")
    dst = os.path.join(own, "fuzz", camp.target)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copy2(binary(build, camp.target), dst + ".part")
    os.replace(dst + ".part", dst)
    return own


def fuzz_one(target, args, extra):
    camp = Campaign(args.dir, target)
    prepare(camp, args)
    if args.engine == "libfuzzer":
        preset = "fuzz-tsan" if args.sanitizer == "tsan" else "fuzz"
    else:
        preset = "afl"
    build = snapshot_binary(camp, ensure_built(preset, args.variant, args.bug,
                                               targets=[target]))
    from . import triage
    signer = triage.Signer(binary(build, target), camp.dir)
    crash_signer = CrashSigner(camp, signer)
    status = Status(camp, args.status, signer, quiet=args.status <= 0)
    if args.status <= 0:
        status.every = 5  # the stats still go to stats.csv
    crashes_before = set(artifacts(camp.crashes))
    runner, merger = ((run_libfuzzer, merge_libfuzzer) if args.engine == "libfuzzer"
                      else (run_afl, merge_afl))
    crash_signer.thread.start()
    try:
        rc = runner(camp, build, args, extra, status)
    finally:
        crash_signer.finish()
    final = status.tick(status.poll)
    if args.merge:
        merger(camp, build)
        final["corpus"] = count_files(camp.corpus)
    crashes = artifacts(camp.crashes)
    return {"execs": final["execs"] - status.execs0,
            "seconds": time.monotonic() - status.start, "corpus": final["corpus"],
            "cov": final["cov"], "crashes": crashes,
            "new": [p for p in crashes if p not in crashes_before],
            "groups": signer.groups(crashes), "rc": rc}


def run(args, extra):
    known = targets()
    chosen = [args.target] if args.target else known
    if args.target and args.target not in known:
        raise common.MlfError("unknown target %r (have: %s)" % (args.target, ", ".join(known)))
    if args.time <= 0 or args.jobs <= 0:
        raise common.MlfError("--time and --jobs must be positive")
    from . import triage  # not at the top: triage imports this module
    if not args.resume:
        # before any campaign directory is made: a wrong flag leaves nothing
        # behind that a second, right command would take for a campaign
        from . import build
        build.check_variant(args.variant, args.bug)
    args.dir_given = args.dir is not None
    args.engine_given = args.engine is not None
    args.engine = args.engine or "libfuzzer"
    args.dir = os.path.abspath(args.dir or OUT_DIR)
    results = {}
    for target in chosen:
        results[target] = fuzz_one(target, args, extra)
    failed = False
    for target in chosen:
        r = results[target]
        rate = r["execs"] / r["seconds"] if r["seconds"] > 0 else 0
        print("%s: execs=%d, exec/s=%d, corpus=%d, cov=%d, crashes=%d (%d new), "
              "unique failures=%d" % (target, r["execs"], rate, r["corpus"], r["cov"],
                                      len(r["crashes"]), len(r["new"]), len(r["groups"])))
        for key, files, msg, sigs in r["groups"]:
            print("  %-40s x%-4d %s  (tools/mlf minimize %s)"
                  % (key, len(files), os.path.relpath(files[0]), os.path.relpath(files[0])))
            where = triage.where_line(key, sigs)
            if where:
                print("  %-40s %s" % ("", where))
        failed |= bool(r["new"])
    return 1 if failed else 0


def register(subparsers):
    p = subparsers.add_parser(
        "fuzz", help="run fuzzing campaigns (libFuzzer or AFL++)",
        description="Fuzz each target (default: all) in a campaign directory (--dir, default "
                    "out/): DIR/<target>/corpus (seeded from corpus/<target>), crashes/, "
                    "logs/, stats.csv. A status line every few seconds; at the end the "
                    "corpus is merged (-merge=1 / afl-cmin) and one summary line per "
                    "target is printed. Killing a campaign loses no corpus entry and no "
                    "crash; --resume goes on. Unknown flags go to the engine.")
    p.add_argument("--target", help="one target (default: all of %s)" % ", ".join(targets()))
    p.add_argument("--engine", choices=["libfuzzer", "afl"],
                   help="libfuzzer (default; -fork=JOBS) or afl (one -M, JOBS-1 -S)")
    p.add_argument("--time", type=int, default=60, help="seconds per target (default 60)")
    p.add_argument("--jobs", type=int, default=1, help="parallel fuzzing processes per target")
    p.add_argument("--dir", help="campaign directory (default out/)")
    p.add_argument("--resume", action="store_true",
                   help="go on with the campaign in --dir (its variant, bug and engine)")
    p.add_argument("--status", type=float, default=5, metavar="SECONDS",
                   help="status line interval (default 5; 0: no status lines)")
    p.add_argument("--no-merge", dest="merge", action="store_false",
                   help="skip the corpus merge at the end")
    p.add_argument("--verbose", action="store_true", help="also show the engine's output")
    p.add_argument("--variant", help="port variant (default %s)" % common.DEFAULT_VARIANT)
    p.add_argument("--bug", help="bug variant (bug-...) on top of the variant")
    p.add_argument("--sanitizer", choices=["asan", "tsan"], default="asan",
                   help="libFuzzer build: asan (ASan+UBSan, preset fuzz; default) or tsan "
                        "(ThreadSanitizer, preset fuzz-tsan: the concurrent target)")
    p.set_defaults(func=run, passthrough=True)
