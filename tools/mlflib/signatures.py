# SPDX-License-Identifier: GPL-2.0
"""How the CLI names a failure: signatures, and signing crash files.

A failure's signature is the check name and the kind of the failing op
(tail.cache/rotate), or the sanitizer report's kind and top frame
(heap-use-after-free/lru_gen_rotate_memcg; a leak by the allocator's
caller; UBSan's by its error and function, signed-integer-overflow/
lru_gen_rotate_memcg). A data race names both of its accesses, in name
order, so that it does not depend on which access TSan saw first, and
is the code under test's only when both accesses are
(race/hlist_nulls_add_head_rcu+shrink_many); a race with an access in
the harness, the engine or libFuzzer is a harness failure
(harness/race:mlf_tsan_ignore_begin+task_fn), one with a stack TSan
could not restore race-unresolved/... (race_verdict() says how frames
are classified). Signer runs crash
files through one binary and caches their signatures by content; triage
groups signatures into one line per failure (failure_key, where_line). A
library module (see __init__.py).
"""
import hashlib
import json
import os
import re
import subprocess
import threading
import time

from . import common

NO_REPRO = "no-repro/-"
# part of the signature cache's key: a cache written by a version that
# named failures otherwise (one side of a race) is not read
FORMAT = 3

# not anchored: another thread's output may share the line ("MS: 0 MLF FAILURE")
MLF_FAILURE = re.compile(r"MLF FAILURE: check=(\S+)(?: op=(\d+))?")
# the marked op line; a concurrent trace's begins with its task (t1 rotate ...)
MARKED_OP = re.compile(r"^> (?:t\d+ )?(\S+)", re.M)
NULLS_OP = re.compile(r"^#\d+ (\S+).*<-- current op", re.M)
SANITIZER = re.compile(r"^(?:==\d+==)?(?:ERROR|WARNING): (\w+Sanitizer): ([^\n]*)", re.M)
# ASan/UBSan: "#0 0x55d0 in func file:line"; TSan: "#0 func file:line (binary+0x..)".
# Only a symbol: an unsymbolized frame (an address, "<null>") would make the
# signature change from run to run.
FRAME = re.compile(r"^\s+#\d+ (?:0x[0-9a-f]+ in )?([A-Za-z_][\w:.~$]*)", re.M)
# a TSan report's sections: "  Write of size 8 at 0x... by thread T4:",
# "  Previous atomic read of size 8 ...", "  Location is heap block ...:"
TSAN_SECTION = re.compile(r"^  (\S[^\n]*):$", re.M)
TSAN_END = re.compile(r"^(?:SUMMARY: |={10,})", re.M)
# UBSan: "src/mm/vmscan.c:40:9: runtime error: signed integer overflow: ..."
UBSAN = re.compile(r"^(?:\S*/)?([^/\s:]+):\d+:\d+: runtime error: ([^\n]*)", re.M)

# frames of the runtime, not of the code under test (kernel names such as
# __hlist_nulls_del are kept)
NOT_A_FRAME = ("__asan", "__tsan", "__ubsan", "__lsan", "__sanitizer", "__interceptor",
               "__libc", "__GI_", "__pthread", "mlf_fail", "abort", "raise")

# signatures that are not a check's: a sanitizer's report kind (dashed or
# upper case, e.g. heap-use-after-free, SEGV; TSan's data race is "race"),
# libFuzzer's deadly signal, and what triage files a crash that does not
# fail again under (fallback_signature). A check's name never has a dash or
# a capital.
NOT_A_CHECK = re.compile(r"^(?:race|deadly|timeout|leak|slow|no-repro|[^/]*[-A-Z][^/]*)/")


def sanitizer_kind(rest):
    """The report's kind, its words joined by dashes: "heap-use-after-free
    on address 0x..." -> heap-use-after-free, "attempting double-free on
    0x..." -> attempting-double-free, "double lock of a mutex (pid=1)" ->
    double-lock-of-a-mutex; TSan's "data race" is "race"."""
    phrase = re.split(r" on | at | \(|:| 0x", rest, 1)[0]
    kind = "-".join(re.findall(r"[\w-]+", phrase)) or "unknown"
    return "race" if kind == "data-race" else kind


# where a leak was allocated is the allocator's caller, not the allocator
ALLOCATORS = ("malloc", "calloc", "realloc", "aligned_alloc", "posix_memalign",
              "memalign", "strdup", "operator new")


def top_frame(text, start=0, end=None, skip=()):
    """The first frame of text[start:end] that is the code under test's, or None."""
    for f in FRAME.findall(text[start:end] if end is not None else text[start:]):
        if not f.startswith(NOT_A_FRAME) and f not in skip:
            return f
    return None


def ubsan_kind(rest):
    """UBSan's error, its words joined by dashes, without the values and
    types that vary: "signed integer overflow: 1 + 2 cannot..." ->
    signed-integer-overflow, "member access within null pointer of type
    'struct x'" -> member-access-within-null-pointer."""
    phrase = re.split(r":| of type|'| 0x|\d", rest, 1)[0]
    return "-".join(re.findall(r"[\w-]+", phrase)) or "undefined-behavior"


# ---- ThreadSanitizer: whose code a race is in ----
#
# A race is the code under test's when both of its accesses are. An
# access is the code whose frame is innermost in its stack, after the
# runtime's own frames (TSan's entry points and interceptors: memcpy,
# free, ... are called by the code that made the access):
# - under test: a kernel tree's code (its mm/*.c, include/linux/*.h: the
#   cut's #line names them), the models below it (src/mm/), and the shim's
#   files that stand for a kernel API (UNDER_TEST_SHIM); an inlined
#   primitive reports as its own frame (hlist_nulls_add_head_rcu in
#   rculist_nulls.h), so a primitive called from the code under test is
#   its.
# - the harness: the rest of src/kernel/ (the scheduler and the engine:
#   schedule.c, fiber.c, explore.c, rcu_model.c, report.c, task.c,
#   trace.c, sanitizer.h, ...), src/check/, src/harness/, fuzz/, the
#   kernel tree's glue, and code with no source file (libFuzzer,
#   compiler-rt, libc).
# - a frame without a line (the compiler merged the instruction of several
#   lines and kept none; its file is then not where the function is): by
#   the file that defines its function, looked up in the sources.
UNDER_TEST_SHIM = frozenset((
    "bitops.h", "blkdev.h", "bug.h", "compiler.h", "irqflags.h", "kernel.h", "list.h",
    "list_nulls.h", "nodemask.h", "poison.h", "random.h", "rcu.c", "rcu_head.h",
    "rculist_nulls.h", "rcupdate.h", "sched.h", "slab.c", "slab.h", "spinlock.c",
    "spinlock.h", "types.h"))
# the runtime's frames with no source file that stand for their caller
INTERCEPTED = frozenset(ALLOCATORS + (
    "free", "cfree", "reallocarray", "valloc", "pvalloc", "memcpy", "memmove", "memset",
    "memcmp", "bcmp", "strlen", "strnlen", "strcpy", "strncpy", "strcmp", "strncmp",
    "strchr", "strrchr", "strstr"))
# "    #0 func file:line:col (module+0x1a2b) (BuildId: 3c4d)"; func may
# hold spaces (a C++ signature), file is "<null>" when unknown
TSAN_FRAME = re.compile(r"^\s+#(\d+) (.+) (\S+) \([^()\s]+\+0x[0-9a-f]+\)"
                        r"(?: \(BuildId: [0-9a-f]+\))?[ \t]*$", re.M)
FILE_LINE = re.compile(r"^(.+?)(?::(\d+)(?::\d+)?)?$")
OUR_TREE = re.compile(r"(?:^|/)src/(mm|kernel|check|harness)/([^/]+)$")
KERNEL_TREE = re.compile(r"(?:^|/)(?:mm/[^/]+\.[ch]|include/linux/[^/]+\.h)$")
TSAN_LOCATION = re.compile(r"^  Location is (global '[^']+'|heap block|stack of)", re.M)
# a kernel-style definition: at the start of a line, NAME( ... ) then {
DEFINITION = re.compile(r"^(?![#\s])[A-Za-z_][\w \t*]*?\b([A-Za-z_]\w*)\([^;{}]*\)[^;{}()]*\{",
                        re.M)
_DEFINITIONS = {}


def layer(path):
    """"test" (the code under test), "harness" or None (no source file) for
    a frame's file."""
    if not path or path == "<null>":
        return None
    m = OUR_TREE.search(path)
    if m:
        if m.group(1) == "mm" or (m.group(1) == "kernel" and m.group(2) in UNDER_TEST_SHIM):
            return "test"
        return "harness"
    return "test" if KERNEL_TREE.search(path) else "harness"


def shown(path):
    """A frame's file as the report's reader finds it: from src/, a bug's
    patched copy of src/ (build/<tree>/zoo/<bug>/src/) from zoo/<bug>/, a
    kernel tree's from mm/ or include/."""
    m = OUR_TREE.search(path)
    if m:
        bug = re.search(r"(?:^|/)zoo/(bug-[^/]+)/$", path[:m.start() + 1])
        return "%ssrc/%s/%s" % (("zoo/%s/" % bug.group(1)) if bug else "",
                                m.group(1), m.group(2))
    m = KERNEL_TREE.search(path)
    if m:
        return m.group(0).lstrip("/")
    return os.path.relpath(path, common.ROOT) if path.startswith(common.ROOT + "/") else path


# the code under test's functions: the tree's, as the vendored cut of the
# default tree has them (kernel/vendored/, which names each file of the tree)
VENDORED = {"mlf_tree_vmscan.c": "mm/vmscan.c", "mlf_tree_memcg.c": "mm/memcontrol.c"}


def definitions(root):
    """{function: {file}} of the functions defined in the sources under
    @root (a src/ tree: mm, kernel, check, harness), in fuzz/, and, for
    the kernel tree's code, in the vendored cut (as the tree's file: its
    mm/vmscan.c)."""
    if root not in _DEFINITIONS:
        found = {}
        dirs = [os.path.join(root, d) for d in ("mm", "kernel", "check", "harness")]
        vendored = os.path.join(common.ROOT, "kernel", "vendored")
        for d in dirs + [common.FUZZ_DIR, vendored]:
            for name in sorted(os.listdir(d)) if os.path.isdir(d) else []:
                if not name.endswith((".c", ".h")):
                    continue
                path = os.path.join(d, name)
                shown_as = VENDORED.get(name) if d == vendored else path
                if not shown_as:
                    continue
                with open(path, encoding="utf-8", errors="replace") as f:
                    for fn in DEFINITION.findall(f.read()):
                        found.setdefault(fn, set()).add(shown_as)
        _DEFINITIONS[root] = found
    return _DEFINITIONS[root]


def lineless_layer(func, path):
    """(layer, file) of a frame that has no line: its function's, by the
    file that defines it in the report's own tree (a bug's copy of src/)
    or else the repository's; (None, None) when no file or several of
    different layers do."""
    m = OUR_TREE.search(path)
    tree = path[:m.start()] + ("/" if m.group(0).startswith("/") else "") + "src" if m else ""
    root = tree if tree and os.path.isdir(tree) else os.path.join(common.ROOT, "src")
    defs = definitions(root).get(func, set())
    if path in defs:
        return layer(path), path
    layers = {layer(d) for d in defs}
    if len(layers) != 1:
        return None, None
    defined = sorted(defs)[0]
    if tree and root != tree and defined.startswith(root + "/"):
        # the report's tree is not on this machine: the same file in it
        defined = tree + defined[len(root):]
    return layers.pop(), defined


# the weak memory model's access on behalf of a marked access
# (src/kernel/wmm.c): its frames stand for the caller's, as a libc
# interceptor's do
MODEL_ACCESS = ("mem_read", "mem_write")


def access_side(text, start, stop):
    """Whose one access of a race report is (text[start:stop], its stack):
    {"layer": test / harness / None (no stack), "func", "where"}."""
    in_model = False
    for m in TSAN_FRAME.finditer(text, start, stop):
        func = m.group(2).split("(", 1)[0].strip()
        path, line = FILE_LINE.match(m.group(3)).groups()
        if func.startswith(NOT_A_FRAME) or func in INTERCEPTED or func == "<null>":
            # the runtime's, with its source file or without
            continue
        if path.endswith("/wmm.c") and (func in MODEL_ACCESS or in_model):
            in_model = True
            continue
        if path == "<null>":
            return {"layer": "harness", "func": func, "where": "no source (%s)" % func}
        if line and line != "0":
            return {"layer": layer(path), "func": func,
                    "where": "%s:%s" % (shown(path), line)}
        kind, defined = lineless_layer(func, path)
        return {"layer": kind, "func": func,
                "where": "%s, no line" % shown(defined or path)}
    return {"layer": None, "func": "-", "where": "no stack"}


def race_sides(text, start):
    """The two accesses of a TSan race report (the one TSan caught and the
    "Previous" one) as access_side() gives them, sorted by function; one
    when the report has no previous access."""
    end = TSAN_END.search(text, start)
    end = end.start() if end else len(text)
    sections = list(TSAN_SECTION.finditer(text, start, end))
    sides = []
    for i, sec in enumerate(sections):
        if i > 0 and not sec.group(1).startswith("Previous"):
            continue
        stop = sections[i + 1].start() if i + 1 < len(sections) else end
        sides.append(access_side(text, sec.end(), stop))
        if len(sides) == 2:
            break
    return sorted(sides, key=lambda a: (a["func"], a["where"]))


def race_verdict(text, start):
    """(signature, message) of the TSan race report after text[start]:
    race/... when both accesses are the code under test's, harness/race:...
    when one is the harness's, the engine's or libFuzzer's, race-unresolved/
    ... when a stack is missing (TSan could not restore it, or the report
    has one access); the message names each access's file:line."""
    sides = race_sides(text, start)
    if not sides:
        # no access sections at all (a report cut short)
        return ("race-unresolved/" + (top_frame(text, start) or "-"),
                "data race whose report names no access")
    names = "+".join(a["func"] for a in sides)
    end = TSAN_END.search(text, start)
    loc = TSAN_LOCATION.search(text, start, end.start() if end else len(text))
    on = " on %s" % loc.group(1).replace("stack of", "a stack") if loc else ""
    lines = " and ".join("%s (%s%s)" % (a["where"], a["func"], "" if a["layer"] == "test" else
                                        ", " + (a["layer"] or "unknown"))
                         for a in sides)
    layers = [a["layer"] for a in sides]
    if len(sides) == 2 and layers == ["test", "test"]:
        return "race/" + names, "data race in the code under test%s: %s" % (on, lines)
    if "harness" in layers:
        return ("harness/race:" + names,
                "data race in the harness, not the code under test%s: %s" % (on, lines))
    return ("race-unresolved/" + names,
            "data race with an access TSan gave no stack for%s: %s" % (on, lines))


def signature(text):
    """The failure's signature from a run's stderr, or None if it passed.

    The first report wins: a sanitizer report followed by a check's (TSan
    reports a race, then its death path stalls and the watchdog names
    reader.terminates) is the sanitizer's finding."""
    m = MLF_FAILURE.search(text)
    s = SANITIZER.search(text)
    u = UBSAN.search(text)
    if u and not any(r and r.start() < u.start() for r in (m, s)):
        # its stack (UBSAN_OPTIONS=print_stacktrace=1) names the function;
        # without one, the file: line numbers move with every edit
        return "%s/%s" % (ubsan_kind(u.group(2)), top_frame(text, u.end()) or u.group(1))
    if m and not (s and s.start() < m.start()):
        op = MARKED_OP.search(text, m.end()) or NULLS_OP.search(text, m.end())
        return "%s/%s" % (m.group(1), op.group(1) if op else "-")
    if s:
        kind = sanitizer_kind(s.group(2))
        if kind == "race" and s.group(1) == "ThreadSanitizer":
            return race_verdict(text, s.end())[0]
        skip = ALLOCATORS if s.group(1) == "LeakSanitizer" else ()
        return "%s/%s" % (kind, top_frame(text, s.end(), skip=skip) or "-")
    return None


def is_check_signature(sig):
    """Whether sig is an mlf check's (check/op kind), not a sanitizer's."""
    return bool(sig) and not NOT_A_CHECK.match(sig)


def check_of(sig):
    """The check (or sanitizer kind) of a signature: what EXPECT / Expect: name."""
    return sig.split("/", 1)[0] if sig else None


def message(text):
    """The first report's message: a check's (the line after MLF FAILURE),
    a race's accesses (race_verdict()), or the sanitizer's line."""
    m = SANITIZER.search(text)
    f = re.search(r"^MLF FAILURE:.*$", text, re.M)
    if f and not (m and m.start() < f.start()):
        rest = text[f.end() + 1:].split("\n", 1)[0].strip()
        return rest or f.group(0)
    if m:
        if m.group(1) == "ThreadSanitizer" and sanitizer_kind(m.group(2)) == "race":
            return race_verdict(text, m.end())[1]
        return text[m.start():].splitlines()[0].split("==: ", 1)[-1].strip()
    return ""


def fallback_signature(path):
    """What a file that does not fail when run again was saved as."""
    kind = os.path.basename(path).split("-", 1)[0]
    # "oom" is also a check's name (slab.c): libFuzzer's oom file is out-of-memory
    kind = {"oom": "out-of-memory"}.get(kind, kind)
    return "%s/-" % kind if kind in ("timeout", "out-of-memory", "leak", "slow") else NO_REPRO


def example(files):
    """The file a line about a failure names: its smallest (the quickest to
    minimize), the oldest of those; fuzz's summary and triage name the same."""
    def key(p):
        try:
            return (os.path.getsize(p), os.path.getmtime(p), p)
        except OSError:
            return (float("inf"), 0, p)
    return min(files, key=key)


def failure_key(sig, by="check"):
    """What tells two failures apart. By check: one defect is one line
    although the op that meets it differs from input to input (a stale
    tail[][] is met by whichever op deletes next: rotate, offline, release,
    soft or reclaim). A sanitizer report keeps its kind and top frame, a
    race (harness/race:... too) both of its accesses."""
    if by == "signature" or not sig or not is_check_signature(sig) or sig.startswith(
            "harness/race:"):
        # a harness race is a sanitizer report: kept apart by its accesses
        return sig
    return check_of(sig)


def where_line(key, sigs):
    """Under a merged line: the op kinds (signatures) it stands for, or None."""
    if len(sigs) == 1 and key in sigs:
        return None
    return "at " + ", ".join("%s %d" % (s.split("/", 1)[-1] if s != key else s, n)
                             for s, n in sorted(sigs.items(), key=lambda i: -i[1]))


class Signer:
    """Signatures of crash files by running them through one binary, cached
    in DIR/signatures.json by content (a campaign's, when cache_dir is given)."""

    def __init__(self, binary, cache_dir=None, timeout=25):
        self.binary, self.timeout = binary, timeout
        with open(binary, "rb") as f:
            # the cache key: a rebuilt binary at the same path may differ
            self.build_id = "%s@%s#%d" % (binary, hashlib.sha1(f.read()).hexdigest()[:16],
                                          FORMAT)
        # the scheduled engine signs under the memory model it runs
        if os.environ.get("MLF_MEMORY_MODEL", "lkmm") != "lkmm":
            self.build_id += "+" + os.environ["MLF_MEMORY_MODEL"]
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
        except OSError as e:
            raise common.MlfError("cannot run %s: %s" % (self.binary, e.strerror or e))
        sig = signature(proc.stderr)
        if proc.returncode != 0 and not sig and "ALARM: working on the last Unit" in proc.stderr:
            return "timeout/-", "libFuzzer timeout (%d s)" % self.timeout
        if not sig:
            why = "does not fail when run again (status %d)" % proc.returncode
            if proc.returncode != 0:
                # it stopped without a report: say what the binary said
                why += ": " + common.error_line(proc.stderr)
            return fallback_signature(path), why
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
