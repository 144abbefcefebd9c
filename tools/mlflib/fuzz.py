# SPDX-License-Identifier: GPL-2.0
"""mlf fuzz: fuzzing campaigns with libFuzzer or AFL++, one per target.

A campaign directory (--dir, default out/) holds, per target and build
(<target>/ under ASan + UBSan or AFL++, <target>-tsan/ under TSan):
  <target>/corpus      the working corpus (seeded from corpus/<target>; the
                       repository's corpus is never written)
  <target>/crashes     every crash, timeout and oom file (never deleted)
  <target>/failing-seeds  corpus files that failed as the corpus loaded,
                       moved out of it so the run goes on in one process
  <target>/logs        the engine's output, one file per run
  <target>/stats.csv   a row every few seconds: the status line's figures
  <target>/campaign.json  engine, variant and bug, for --resume and triage
Both engines write corpus entries and crashes as files as they go, so a
campaign killed at any point loses neither; --resume goes on from the
directory. The end-of-run merge (libFuzzer -merge=1 / afl-cmin) writes a
new directory and swaps it in only once it is complete. Without
--sanitizer a libFuzzer campaign runs each target under every build
fuzz/targets.json means it for, its --time split evenly between them
(concurrent: half under ASan + UBSan, then half under TSan). One
summary line per
target and build at the end, with what each found; an engine that did
not start or ran nothing fails the command with its own error line. The
directory and the status line are campaign.py's.
"""
import argparse
import collections
import glob
import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import time

from . import builds
from . import campaign
from . import common
from . import engine
from . import signatures
from . import targets
from . import variants

ENGINES = {"libfuzzer": "libFuzzer", "afl": "afl-fuzz"}


class Said:
    """What an engine said, kept small: its error lines and its last lines
    (for common.error_line() when it did not run)."""

    def __init__(self, keep=40):
        self.errors = []
        self.tail = collections.deque(maxlen=keep)

    def add(self, line):
        if common.ERROR_LINE.match(common.ANSI.sub("", line)) and len(self.errors) < 10:
            self.errors.append(line)
        self.tail.append(line)

    def text(self):
        return "".join(self.errors) + "".join(self.tail)


# what libFuzzer says of a flag it does not know; shown, not only logged
FLAG_WARNING = re.compile(r"^WARNING: unrecognized flag")


def stop_engine(procs, grace=10):
    """Ctrl-C: the engines had the terminal's SIGINT too (or, when only we
    did, get it now); wait @grace seconds for them to write what they have,
    then kill."""
    for p in procs:
        if p.poll() is None:
            try:
                p.send_signal(signal.SIGINT)
            except OSError:
                pass
    deadline = time.monotonic() + grace
    for p in procs:
        try:
            p.wait(max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            p.kill()
            p.wait()


# a libFuzzer run in one process (no -fork) stops at its first crash; a
# crash later than this many restarts hands the rest of the time to
# -fork=1, which goes on past crashes by itself. A seed that fails while
# the corpus loads is set aside (set_aside()) and the run starts again
# without it, up to MAX_SET_ASIDE seeds: under -fork=1 every job would
# load it again and fail on it, and fuzz at a few inputs a second.
MAX_RESTARTS = 20
MAX_SET_ASIDE = 200
INITED = re.compile(r"^#\d+\s+INITED\b")
FINAL_EXECS = re.compile(r"^stat::number_of_executed_units:\s*(\d+)", re.M)


def run_libfuzzer(camp, build, args, extra, status, seconds):
    """The campaign under libFuzzer for @seconds; returns (status, what it
    said, whether Ctrl-C stopped it). --jobs 1 runs the engine in one process
    (the in-process rate: -fork=1 restarts a job every few seconds, and each
    restart loads the corpus again), started again after a crash, timeout or
    oom with the time left; --jobs N runs -fork=N."""
    binary_path = builds.binary(build, camp.target)
    os.makedirs(camp.tmp, exist_ok=True)
    base = [binary_path] + engine.read_options(camp.target)
    log = os.path.join(camp.logs, time.strftime("fuzz-%Y%m%d-%H%M%S.log"))
    env = common.sanitizer_env()
    env["TMPDIR"] = camp.tmp  # the -fork jobs' corpora: salvaged after a kill
    said, warned = Said(), set()
    end = time.monotonic() + seconds
    fork = args.jobs > 1
    restarts, set_apart, rc, interrupted = 0, 0, 0, False
    with open(log, "w", encoding="utf-8") as logf:
        status.thread.start()
        while True:
            left = int(round(end - time.monotonic()))
            if left < 1:
                break
            if fork:
                cmd = base + ["-fork=%d" % args.jobs, "-ignore_crashes=1", "-ignore_timeouts=1",
                              "-ignore_ooms=1"]
            else:
                cmd = base + ["-print_final_stats=1"]
            cmd += ["-max_total_time=%d" % left, "-artifact_prefix=" + camp.crashes + "/"]
            cmd += extra + [camp.corpus]
            before = set(campaign.artifacts(camp.crashes))
            rc, text, interrupted, inited = run_engine_once(cmd, camp, env, logf, args, status,
                                                            said, warned, binary_path)
            if interrupted or fork:
                break
            new = [p for p in campaign.artifacts(camp.crashes) if p not in before]
            # a crash file it wrote again (the same input, named by content)
            # is a crash too
            wrote = campaign.UNIT_WRITTEN.search(text)
            if rc == 0 or not (new or wrote):
                break  # its time is up, or it stopped for a reason of its own
            sign_from_output(status.signer, new, text)
            m = FINAL_EXECS.findall(text)
            status.next_run(int(m[-1]) if m else None)
            # the crash is a finding, not the engine's failure: if the time
            # is up before the next start, the campaign ended well
            rc = 0
            if not inited and set_apart < MAX_SET_ASIDE and \
                    set_aside(camp, new or [wrote.group(1)]):
                set_apart += 1
                continue
            restarts += 1
            if not inited or restarts >= MAX_RESTARTS:
                # a seed that fails, or failures everywhere: -fork=1 goes on past them
                fork = True
                print("%s: %s; the rest of the time under -fork=1" % (
                    camp.name, "an input of the corpus fails" if not inited else
                    "%d restarts after failures" % restarts), file=sys.stderr, flush=True)
    status.stop.set()
    status.thread.join()
    # the jobs' units the parent had not merged yet go to the corpus; tmp/ goes
    camp.salvage_fork_units()
    shutil.rmtree(camp.tmp, ignore_errors=True)
    return rc, said.text(), interrupted


def set_aside(camp, new):
    """A seed failed as the corpus loaded: its crash file is @new's. Move the
    corpus files with its bytes to DIR/failing-seeds/ (kept, never lost; a
    campaign resumed after the fix may take them back) so the next start
    loads the corpus without them. False if none is found."""
    if len(new) != 1 or not os.path.isfile(new[0]):
        return False
    with open(new[0], "rb") as f:
        failing = f.read()
    moved = []
    aside = os.path.join(camp.dir, "failing-seeds")
    for name in sorted(os.listdir(camp.corpus)):
        path = os.path.join(camp.corpus, name)
        if os.path.isfile(path) and os.path.getsize(path) == len(failing):
            with open(path, "rb") as f:
                if f.read() != failing:
                    continue
            os.makedirs(aside, exist_ok=True)
            dst = os.path.join(aside, name)
            if os.path.exists(dst):
                dst += time.strftime(".%Y%m%d-%H%M%S")
            os.replace(path, dst)
            moved.append(name)
    if moved:
        print("%s: the seed %s fails (%s); set aside in %s, the run starts again without it"
              % (camp.name, ", ".join(moved), common.shown_path(new[0]),
                 common.shown_path(aside)), file=sys.stderr, flush=True)
    return bool(moved)


def sign_from_output(signer, new, text):
    """A one-process run's crash report is in its own output: sign the crash
    file it wrote from it (no second run)."""
    m = campaign.UNIT_WRITTEN.findall(text)
    sig = signatures.signature(text)
    if not sig:
        return
    for path in new:
        if any(os.path.abspath(w) == os.path.abspath(path) for w in m):
            signer.record(path, sig, signatures.message(text))


def run_engine_once(cmd, camp, env, logf, args, status, said, warned, binary_path):
    """One engine process: its output to the log, the status line and
    @said; returns (exit status, its output, whether Ctrl-C stopped it,
    whether it got past loading the corpus)."""
    common.show(cmd, camp.dir)
    try:
        proc = subprocess.Popen([str(c) for c in cmd], cwd=camp.dir, env=env,
                                stdout=logf, stderr=subprocess.PIPE, text=True,
                                errors="replace")
    except OSError as e:
        raise common.MlfError("cannot run %s: %s" % (binary_path, e.strerror or e))
    mine = collections.deque(maxlen=4000)
    inited, interrupted = False, False
    try:
        for line in proc.stderr:
            logf.write(line)
            said.add(line)
            mine.append(line)
            inited = inited or bool(INITED.match(line))
            status.libfuzzer_line(line)
            if args.verbose:
                sys.stderr.write(line)
            elif FLAG_WARNING.match(line) and line not in warned:
                warned.add(line)
                sys.stderr.write(line)
                sys.stderr.flush()
    except KeyboardInterrupt:
        interrupted = True
        stop_engine([proc])
        try:
            rest = proc.stderr.read()
        except (OSError, ValueError):
            rest = ""
        logf.write(rest)
        for line in rest.splitlines(True):
            said.add(line)
            mine.append(line)
            status.libfuzzer_line(line)
    rc = proc.wait()
    return rc, "".join(mine), interrupted, inited


def merge_libfuzzer(camp, build):
    """-merge=1 into corpus.merging, then swap it in (see Campaign.recover);
    returns (why it failed, the corpus left as it was, or None; the merged
    corpus's coverage, the PCs its inputs reach: a figure that compares
    across runs, or None)."""
    merging = camp.corpus + ".merging"
    shutil.rmtree(merging, ignore_errors=True)
    os.makedirs(merging)
    cmd = [builds.binary(build, camp.target)] + [f for f in engine.read_options(camp.target)
                                          if not f.startswith("-dict=")] + [
        "-merge=1", "-artifact_prefix=" + camp.crashes + "/", merging, camp.corpus]
    log = os.path.join(camp.logs, time.strftime("merge-%Y%m%d-%H%M%S.log"))
    common.show(cmd, camp.dir)
    with open(log, "w", encoding="utf-8") as logf:
        rc = subprocess.run([str(c) for c in cmd], cwd=camp.dir, env=common.sanitizer_env(),
                            stdout=logf, stderr=logf).returncode
    if rc != 0 or (common.count_files(camp.corpus) and not common.count_files(merging)):
        shutil.rmtree(merging, ignore_errors=True)
        with open(log, encoding="utf-8", errors="replace") as f:
            text = f.read()
        if rc == 0 and every_input_failed(text):
            # a bug variant's corpus can be all crashes: not the merge's failure
            print("%s: the merge kept no input, as every one of them fails (see %s); corpus "
                  "left as it was" % (camp.name, os.path.relpath(log)), file=sys.stderr, flush=True)
            return None, None
        why = common.error_line(text)
        return "the merge failed (status %d%s, see %s); corpus left as it was" % (
            rc, ": " + why if why else "", os.path.relpath(log)), None
    camp.swap_in(merging)
    with open(log, encoding="utf-8", errors="replace") as f:
        return None, merged_cov(f.read())


def every_input_failed(text):
    """Whether a -merge=1 log that kept no file says why: its crash-resistant
    outer process restarted the inner one (which an input that crashes,
    times out or runs out of memory kills), and an input that does not fail
    would have been kept, as the first one run has features."""
    attempts = [int(n) for n in re.findall(r"MERGE-OUTER: attempt (\d+)", text)]
    return (max(attempts, default=0) > 1
            and re.search(r"MERGE-OUTER: 0 new files with", text) is not None)


def merged_cov(text):
    """(PCs, features) the merged corpus reaches, from a -merge=1 log: its
    last "cov: N ft: M" (the inner run over every input), or None."""
    found = re.findall(r"\bcov: (\d+) ft: (\d+)", text)
    return tuple(int(x) for x in found[-1]) if found else None


def collect_afl_crashes(camp):
    """Copy AFL++'s crash files into crashes/ (afl-<instance>-<id>)."""
    for path in glob.glob(os.path.join(camp.afl, "*", "crashes", "id:*")):
        inst = os.path.basename(os.path.dirname(os.path.dirname(path)))
        ident = os.path.basename(path).split(",", 1)[0].replace("id:", "")
        dst = os.path.join(camp.crashes, "afl-%s-%s" % (inst, ident))
        if not os.path.exists(dst):
            shutil.copyfile(path, dst + ".part")
            os.replace(dst + ".part", dst)


def run_afl(camp, build, args, extra, status, seconds):
    """The campaign under AFL++ (one -M, JOBS-1 -S) for @seconds; returns
    (status, what the instances said)."""
    if not os.listdir(camp.corpus):
        with open(os.path.join(camp.corpus, "empty"), "wb") as f:
            f.write(b"\0\0\0")
    # afl-fuzz sets its own sanitizer options and refuses others
    env = dict(os.environ, AFL_SKIP_CPUFREQ="1", AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES="1",
               AFL_NO_UI="1", AFL_AUTORESUME="1", AFL_ALLOW_TMP="1")
    # the structure-aware mutator, beside AFL++'s own (fuzz/mutator_afl.c)
    library = os.path.join(build, "fuzz", "lib%s_afl_mutator.so" % camp.target)
    if engine.mutator() == "ops" and os.path.exists(library):
        env["AFL_CUSTOM_MUTATOR_LIBRARY"] = library
    dict_path = os.path.join(common.FUZZ_DIR, camp.target + ".dict")
    base = ["afl-fuzz", "-i", camp.corpus, "-o", camp.afl, "-V", str(seconds)]
    if os.path.exists(dict_path):
        base += ["-x", dict_path]
    tail = extra + ["--", builds.binary(build, camp.target)]
    names = ["main"] + ["s%d" % i for i in range(1, args.jobs)]
    procs, logs = [], []
    for name in names:
        cmd = base + (["-M" if name == "main" else "-S", name] if args.jobs > 1 else []) + tail
        common.show(cmd, camp.dir)
        logs.append(os.path.join(camp.logs, "afl-%s-%s.log"
                                 % (name, time.strftime("%Y%m%d-%H%M%S"))))
        with open(logs[-1], "w") as log:
            try:
                procs.append(subprocess.Popen([str(c) for c in cmd], cwd=camp.dir, env=env,
                                              stdout=log, stderr=subprocess.STDOUT))
            except OSError as e:
                for p in procs:
                    p.kill()
                raise common.MlfError("cannot run afl-fuzz: %s" % (e.strerror or e))

    def poll():
        status.afl_update()
        collect_afl_crashes(camp)

    status.poll = poll
    status.thread.start()
    interrupted = False
    try:
        rcs = [p.wait() for p in procs]
    except KeyboardInterrupt:
        interrupted = True
        stop_engine(procs)
        rcs = [p.wait() for p in procs]
    status.stop.set()
    status.thread.join()
    poll()
    said = Said()
    for log in logs:
        with open(log, encoding="utf-8", errors="replace") as f:
            for line in f:
                said.add(line)
    return max(rcs), said.text(), interrupted


def merge_afl(camp, build):
    """afl-cmin over the corpus and every instance's queue, then swap it in;
    returns (why it failed, the corpus left as it was, or None; None: afl-cmin
    gives no coverage figure)."""
    staging, merging = camp.corpus + ".staging", camp.corpus + ".merging"
    for d in (staging, merging):
        shutil.rmtree(d, ignore_errors=True)
    os.makedirs(staging)
    for path in targets.input_files(camp.corpus) + glob.glob(os.path.join(camp.afl, "*", "queue", "id:*")):
        with open(path, "rb") as f:
            data = f.read()
        with open(os.path.join(staging, hashlib.sha1(data).hexdigest()), "wb") as f:
            f.write(data)
    cmd = ["afl-cmin", "-i", staging, "-o", merging, "--", builds.binary(build, camp.target)]
    log = os.path.join(camp.logs, time.strftime("merge-%Y%m%d-%H%M%S.log"))
    common.show(cmd, camp.dir)
    with open(log, "w", encoding="utf-8") as logf:
        env = dict(os.environ, AFL_SKIP_CPUFREQ="1", AFL_ALLOW_TMP="1")
        try:
            rc = subprocess.run(cmd, cwd=camp.dir, env=env, stdout=logf,
                                stderr=logf).returncode
        except OSError as e:
            rc = 127
            logf.write("error: cannot run afl-cmin: %s\n" % (e.strerror or e))
    shutil.rmtree(staging, ignore_errors=True)
    if rc != 0 or not common.count_files(merging):
        shutil.rmtree(merging, ignore_errors=True)
        with open(log, encoding="utf-8", errors="replace") as f:
            why = common.error_line(f.read())
        return "afl-cmin failed (status %d%s, see %s); corpus left as it was" % (
            rc, ": " + why if why else "", os.path.relpath(log)), None
    camp.swap_in(merging)
    return None, None


def prepare(camp, args, sanitizer):
    """Check --resume against the directory, recover it, write campaign.json."""
    meta = camp.load_meta()
    code = builds.Code.of(args)
    if args.resume:
        if not meta:
            raise common.MlfError("%s is no campaign to resume (no campaign.json)"
                                  % os.path.relpath(camp.dir))
        for key in ("variant", "bug"):
            mine = getattr(args, key)
            if mine is not None and mine != meta.get(key):
                raise common.MlfError("%s was fuzzed with %s=%s, not %s"
                                      % (os.path.relpath(camp.dir), key, meta.get(key), mine))
        theirs = builds.Code.of(argparse.Namespace(), meta)
        if not code.is_default() and code.meta() != theirs.meta():
            raise common.MlfError("%s was fuzzed on %s, not %s"
                                  % (os.path.relpath(camp.dir),
                                     " ".join(theirs.flags()) or "the default tree",
                                     " ".join(code.flags())))
        args.tree, args.patches = theirs.tree, theirs.patches
        if sanitizer and meta.get("sanitizer") not in (None, sanitizer):
            # its crash files are signed by that build's binary
            raise common.MlfError("%s was fuzzed under %s, not %s"
                                  % (os.path.relpath(camp.dir), meta["sanitizer"], sanitizer))
        args.variant, args.bug = meta.get("variant"), meta.get("bug")
        model = meta.get("memory_model", "lkmm")
        if args.memory_model and args.memory_model != model:
            raise common.MlfError("%s was fuzzed with --memory-model %s, not %s"
                                  % (os.path.relpath(camp.dir), model, args.memory_model))
        engine.set_memory_model(model)
        if not args.engine_given:
            args.engine = meta.get("engine", args.engine)
    elif args.dir_given and camp.exists() and meta:
        raise common.MlfError("%s holds a campaign; use --resume to go on with it"
                              % os.path.relpath(camp.dir))
    elif meta and (meta.get("variant"), meta.get("bug"), meta.get("tree"),
                   meta.get("patches") or []) != (args.variant, args.bug, code.tree,
                                                  code.patches):
        # out/ is shared by one-off runs: keep the corpus, the stats start over
        if os.path.exists(camp.stats):
            os.rename(camp.stats, camp.stats + time.strftime(".%Y%m%d-%H%M%S"))
    for d in (camp.dir, camp.crashes, camp.logs):
        os.makedirs(d, exist_ok=True)
    camp.recover()
    # seeds go in once: a resumed campaign's merge may have dropped them,
    # and copying them back would undo it
    if not args.resume or not common.count_files(camp.corpus):
        targets.seed_working_corpus(camp.target, camp.corpus)
    runs = meta.get("runs", 0) + 1
    camp.save_meta(dict(code.meta(), target=camp.target, engine=args.engine,
                        sanitizer=sanitizer, variant=args.variant, bug=args.bug,
                        memory_model=engine.memory_model(), runs=runs,
                        started=meta.get("started") or time.strftime("%Y-%m-%dT%H:%M:%S")))


def snapshot_binary(camp, build):
    """Run a copy of the target: other commands (minimize, zoo, a ctest) may
    rebuild the tree's binary while a campaign runs, and a campaign must not
    change code under its corpus half-way. Returns the copy's "build" dir."""
    own = os.path.join(camp.dir, "build")
    dst = os.path.join(own, "fuzz", camp.target)
    os.makedirs(os.path.dirname(dst), exist_ok=True)
    shutil.copy2(builds.binary(build, camp.target), dst + ".part")
    os.replace(dst + ".part", dst)
    return own


def fuzz_one(target, sanitizer, seconds, args, extra):
    """@target's campaign under @sanitizer's libFuzzer build (None: AFL++)
    for @seconds."""
    camp = campaign.Campaign(args.dir, target, sanitizer)
    prepare(camp, args, sanitizer)
    if args.engine == "libfuzzer":
        preset = "fuzz-tsan" if sanitizer == "tsan" else "fuzz"
    else:
        preset = "afl"
    build = snapshot_binary(camp, builds.ensure_built(preset, args.variant, args.bug,
                                                      targets=[target],
                                                      code=builds.Code.of(args)))
    signer = signatures.Signer(builds.binary(build, target), camp.dir)
    crash_signer = campaign.CrashSigner(camp, signer)
    status = campaign.Status(camp, args.status, signer, quiet=args.status <= 0)
    if args.status <= 0:
        status.every = 5  # the stats still go to stats.csv
    crashes_before = set(campaign.artifacts(camp.crashes))
    runner, merger = ((run_libfuzzer, merge_libfuzzer) if args.engine == "libfuzzer"
                      else (run_afl, merge_afl))
    crash_signer.thread.start()
    try:
        rc, said, interrupted = runner(camp, build, args, extra, status, seconds)
    finally:
        # the engine's time: not the merge's, nor the signing of crash files
        engine_seconds = time.monotonic() - status.start
        crash_signer.finish()
    if interrupted:
        print("%s: interrupted; merging what there is (Ctrl-C again stops the merge, "
              "which keeps the corpus as it was)" % camp.name, file=sys.stderr, flush=True)
    final = status.tick(status.poll)
    crashes = campaign.artifacts(camp.crashes)
    new = [p for p in crashes if p not in crashes_before]
    execs = final["execs"] - status.execs0
    error = None
    if not interrupted:
        error = engine.not_run(ENGINES[args.engine], rc, said, execs, bool(new))
    merged_cov = None
    if args.merge and not error and common.count_files(camp.corpus):
        error, merged_cov = merger(camp, build)
        final["corpus"] = common.count_files(camp.corpus)
    return {"target": target, "build": sanitizer or args.engine, "dir": camp.dir,
            "execs": execs, "seconds": engine_seconds,
            "corpus": final["corpus"], "cov": final["cov"], "ft": final["ft"],
            "merged_cov": merged_cov, "crashes": crashes, "new": new,
            "groups": signer.groups(crashes), "rc": rc, "error": error,
            "interrupted": interrupted}


def check_target(target, sanitizer):
    known = targets.names()
    if target not in known:
        raise common.MlfError("unknown target %r (have: %s)" % (target, ", ".join(known)))
    meant = targets.get(target).get("sanitizers", [])
    if sanitizer not in meant:
        raise common.MlfError("%s is not fuzzed under %s (fuzz/targets.json: %s)"
                              % (target, sanitizer, ", ".join(meant) or "none"))


def plan(chosen, args):
    """[(target, sanitizer, seconds)]: the campaigns of the command, in
    order. A libFuzzer campaign runs under --sanitizer's build, else under
    every build fuzz/targets.json means the target for (with --resume,
    those its campaign directories hold), --time split evenly between them;
    an AFL++ campaign has one build (sanitizer None)."""
    runs = []
    for target in chosen:
        if engine_of(target, args) != "libfuzzer":
            runs.append((target, None, args.time))
            continue
        if args.sanitizer:
            builds_ = [args.sanitizer]
        else:
            builds_ = targets.get(target).get("sanitizers") or ["asan"]
            if args.resume:
                builds_ = [s for s in builds_
                           if campaign.Campaign(args.dir, target, s).load_meta()] or builds_[:1]
        share, rest = divmod(args.time, len(builds_))
        if not share:
            raise common.MlfError("--time %d cannot be split between %s's %s builds; give at "
                                  "least %d, or one --sanitizer" % (
                                      args.time, target, " and ".join(builds_), len(builds_)))
        for i, san in enumerate(builds_):
            runs.append((target, san, share + (1 if i < rest else 0)))
    return runs


def engine_of(target, args):
    """The engine a target's campaign will run: --engine, else (--resume)
    its campaign.json's, else libFuzzer."""
    if args.engine:
        return args.engine
    if args.resume:
        return campaign.Campaign(args.dir, target).load_meta().get("engine", "libfuzzer")
    return "libfuzzer"


def run(args, extra):
    engine.set_mutator(args.mutator)
    engine.set_memory_model(args.memory_model)
    if args.target:
        if args.sanitizer:
            check_target(args.target, args.sanitizer)
        elif args.target not in targets.names():
            raise common.MlfError("unknown target %r (have: %s)"
                                  % (args.target, ", ".join(targets.names())))
        chosen = [args.target]
    else:
        chosen = [t for t in targets.campaign()
                  if not args.sanitizer or t in targets.for_sanitizer(args.sanitizer)]
    if args.time <= 0 or args.jobs <= 0:
        raise common.MlfError("--time and --jobs must be positive")
    args.dir_given = args.dir is not None
    if args.dir and (os.path.exists(args.dir) or args.resume):
        common.check_path(args.dir, "dir", "--dir")
    args.dir = os.path.abspath(args.dir or common.OUT_DIR)
    # before any campaign directory is made: a wrong flag leaves nothing
    # behind that a second, right command would take for a campaign
    if not args.resume:
        variants.check(args.variant, args.bug)
        builds.Code.of(args).check()
    if any(engine_of(t, args) == "libfuzzer" for t in chosen):
        engine.check_libfuzzer_args(extra, "tools/mlf fuzz")
    runs = plan(chosen, args)
    args.engine_given = args.engine is not None
    args.engine = args.engine or "libfuzzer"
    results = []
    for target, sanitizer, seconds in runs:
        r = fuzz_one(target, sanitizer, seconds, args, extra)
        results.append(r)
        if r["error"] or r.get("interrupted"):
            break
    failed, error = False, None
    interrupted = any(r.get("interrupted") for r in results)
    if interrupted:
        done = len(results) - 1
        print("interrupted: %d of %d campaign%s ran to the end; the summary of what ran"
              % (done, len(runs), "" if len(runs) == 1 else "s"))
    for r in results:
        rate = r["execs"] / r["seconds"] if r["seconds"] > 0 else 0
        label = "%s (%s)" % (r["target"], r["build"])
        cov = ("cov=%d ft=%d (the merged corpus's, comparable across runs)" % r["merged_cov"]
               if r.get("merged_cov") is not None else "cov=- (no merge)")
        print("%s: execs=%d, exec/s=%d, corpus=%d, %s, session cov=%d ft=%d (the engine's "
              "counters for this run only), crashes=%d (%d new), unique failures=%d%s"
              % (label, r["execs"], rate, r["corpus"], cov, r["cov"], r.get("ft", 0),
                 len(r["crashes"]), len(r["new"]), len(r["groups"]),
                 " (interrupted after %d s)" % r["seconds"] if r.get("interrupted") else ""))
        # the hint names the code under test as the user gave it (the
        # campaign's campaign.json has it too)
        flags = " ".join(builds.Code.of(args).flags() +
                         (["--seed-level", args.variant] if args.variant else []))
        for key, files, msg, sigs in r["groups"]:
            shown = common.shown_path(signatures.example(files))
            print("  %-40s x%-4d %s  (tools/mlf minimize %s%s)"
                  % (key, len(files), shown, flags + " " if flags else "", shown))
            where = signatures.where_line(key, sigs)
            if where:
                print("  %-40s %s" % ("", where))
            if key.startswith(("race", "harness/race:")):
                # a race's two accesses, and whether both are the port's
                print("  %-40s %s" % ("", msg))
        failed |= bool(r["new"])
        error = error or (r["error"] and "%s: %s" % (label, r["error"]))
    if error:
        raise common.MlfError(error)
    if interrupted:
        return 130
    return 1 if failed else 0


def register(subparsers):
    p = subparsers.add_parser(
        "fuzz", help="run fuzzing campaigns (libFuzzer or AFL++)",
        description="Fuzz each target (default: the campaign targets of fuzz/targets.json) "
                    "in a campaign directory (--dir, default out/): DIR/<target>/corpus "
                    "(seeded from corpus/<target>), crashes/, logs/, stats.csv. Without "
                    "--sanitizer a libFuzzer campaign runs each target under every build "
                    "fuzz/targets.json means it for, --time split between them (concurrent: "
                    "ASan, then TSan in DIR/concurrent-tsan). A status "
                    "line every few seconds; at the end the corpus is merged (-merge=1 / "
                    "afl-cmin) and one summary line per target and build is printed, with "
                    "what each found; an engine that "
                    "did not start or ran nothing fails the command with its own error "
                    "line. Killing a campaign loses no corpus entry and no crash; --resume "
                    "goes on. Unknown flags go to the engine.")
    p.add_argument("--target", help="one target (default: the campaign's, fuzz/targets.json: %s)"
                   % ", ".join(targets.campaign()))
    p.add_argument("--engine", choices=["libfuzzer", "afl"],
                   help="libfuzzer (default; -fork=JOBS) or afl (one -M, JOBS-1 -S)")
    p.add_argument("--time", type=int, default=60,
                   help="seconds per target (default 60), split between its builds")
    p.add_argument("--jobs", type=int, default=1, help="parallel fuzzing processes per target")
    p.add_argument("--dir", help="campaign directory (default out/)")
    p.add_argument("--resume", action="store_true",
                   help="go on with the campaign in --dir (its variant, bug and engine)")
    p.add_argument("--status", type=float, default=5, metavar="SECONDS",
                   help="status line interval (default 5; 0: no status lines)")
    p.add_argument("--no-merge", dest="merge", action="store_false",
                   help="skip the corpus merge at the end")
    p.add_argument("--verbose", action="store_true", help="also show the engine's output")
    builds.add_code_arguments(p)
    p.add_argument("--bug", help="bug variant (bug-...) on top of the variant")
    p.add_argument("--sanitizer", choices=["asan", "tsan"],
                   help="libFuzzer build: asan (ASan+UBSan, preset fuzz) or tsan "
                        "(ThreadSanitizer, preset fuzz-tsan: the targets fuzz/targets.json "
                        "means for it, %s; in DIR/<target>-tsan). Default: every build "
                        "fuzz/targets.json means the target for, --time split evenly "
                        "between them" % ", ".join(targets.for_sanitizer("tsan")))
    engine.add_mutator_argument(p)
    engine.add_memory_model_argument(p)
    p.set_defaults(func=run, passthrough=True)
