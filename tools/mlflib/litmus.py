# SPDX-License-Identifier: GPL-2.0
"""mlf litmus: the kernel's C litmus tests, run on the scheduled engine.

Reads .litmus files in the kernel's C litmus format (tools/memory-model/
litmus-tests/ and Documentation/litmus-tests/ of a kernel tree; --kernel-suite
unpacks the 47 of the Linux 6.12 tree from the Debian source that tools/mlf
setup installs), translates each to C over the shim's primitives
(litmus/litmus.h), builds it with the driver (litmus/litmus.c) and explores
every schedule and every choice of the weak memory model, without bounds.
Prints per test the verdict of its Result: header, the one observed and
whether they agree, then "litmus: N of M agree with the LKMM". A test the
translation cannot express gets its reason on its line and counts as not
agreeing. Exits 1 when a test disagrees that --expect-differ does not name.
"""
import os
import re
import shutil
import subprocess
import tarfile
import tempfile

from . import builds
from . import common

KERNEL_SOURCE = "/usr/src/linux-source-6.12.tar.xz"
SUITE_DIRS = ("tools/memory-model/litmus-tests/", "Documentation/litmus-tests/")

# the primitives the shim gives a litmus test (litmus/litmus.h)
KNOWN_CALLS = {
    "READ_ONCE", "WRITE_ONCE", "smp_load_acquire", "smp_store_release", "smp_mb",
    "smp_rmb", "smp_wmb", "smp_mb__before_atomic", "smp_mb__after_atomic",
    "smp_mb__after_spinlock", "rcu_read_lock", "rcu_read_unlock", "rcu_dereference",
    "rcu_assign_pointer", "synchronize_rcu", "spin_lock", "spin_unlock",
    "spin_is_locked", "cmpxchg", "xchg", "atomic_read", "atomic_set", "atomic_inc",
    "atomic_dec", "atomic_add", "atomic_inc_return", "atomic_dec_return",
    "atomic_add_return", "atomic_add_unless", "if", "while", "for", "return", "sizeof",
}


class Unsupported(Exception):
    """The translation cannot express the test: its reason."""


def strip_comments(text):
    # (* ... *), not the (*x of READ_ONCE(*x)
    return re.sub(r"\(\*(?=\s).*?\*\)", " ", text, flags=re.S)


def parse(text, path):
    """{name, result, globals: {var: (ctype, init)}, procs: [(params, body)],
    filter, cond, quantifier, locations}"""
    m = re.match(r"\s*C\s+(\S+)", text)
    if not m:
        raise Unsupported("not a C litmus test (no 'C name' line)")
    name = m.group(1)
    r = re.search(r"Result:\s*(\w+)", text)
    result = r.group(1) if r else None
    body = re.sub(r"//[^\n]*", "", strip_comments(text[m.end():]))
    # the initial state: the first {...}
    i = body.index("{")
    j = body.index("}", i)
    init = body[i + 1:j]
    rest = body[j + 1:]
    test = {"name": name, "result": result, "globals": {}, "procs": [], "path": path}
    # processes: P<n>(params) { body } with balanced braces
    pos = 0
    procs = {}
    for pm in re.finditer(r"\bP(\d+)\s*\(([^)]*)\)\s*\{", rest):
        if pm.start() < pos:
            continue
        depth, k = 1, pm.end()
        while depth and k < len(rest):
            depth += {"{": 1, "}": -1}.get(rest[k], 0)
            k += 1
        if depth:
            raise Unsupported("P%s's braces do not balance" % pm.group(1))
        # a // comment after the parameters was not a (* *) one
        code = rest[pm.end():k - 1]
        procs[int(pm.group(1))] = (pm.group(2), code)
        pos = k
    tail = rest[pos:]
    if not procs or sorted(procs) != list(range(len(procs))):
        raise Unsupported("processes are not P0..Pn")
    for n in range(len(procs)):
        params, code = procs[n]
        code = re.sub(r"//[^\n]*", "", code)
        test["procs"].append((params, code))
        for param in filter(None, (p.strip() for p in params.split(","))):
            pm = re.match(r"(.*?)\*\s*(\w+)$", param)
            if not pm:
                raise Unsupported("parameter %r is not a pointer" % param)
            test["globals"].setdefault(pm.group(2), [pm.group(1).strip(), None])
    for item in filter(None, (s.strip() for s in init.split(";"))):
        lhs, _, rhs = item.partition("=")
        lhs, rhs = lhs.strip(), rhs.strip() or None
        if ":" in lhs:
            raise Unsupported("a register's initial value (%s)" % item)
        lm = re.match(r"(.*?)(\w+)$", lhs)
        ctype, var = lm.group(1).strip(), lm.group(2)
        g = test["globals"].setdefault(var, [ctype or "int", None])
        if ctype:
            g[0] = ctype
        g[1] = rhs
    for var, (ctype, val) in list(test["globals"].items()):
        # p=y: y is a location of its own, an int, as herd takes it
        if val and re.fullmatch(r"&?[A-Za-z_]\w*", val) and val.lstrip("&") not in test["globals"] \
                and not val.startswith("ATOMIC_INIT"):
            test["globals"][val.lstrip("&")] = ["int", None]
    tm = re.search(r"\b(exists|forall|~\s*exists)\b(.*)", tail, re.S)
    if not tm:
        raise Unsupported("no exists / forall clause")
    test["quantifier"] = re.sub(r"\s", "", tm.group(1))
    test["cond"] = tm.group(2).strip()
    fm = re.search(r"\bfilter\b(.*?)(?=\b(?:exists|forall|~\s*exists|locations)\b)", tail, re.S)
    test["filter"] = fm.group(1).strip() if fm else None
    lm = re.search(r"\blocations\s*\[(.*?)\]", tail, re.S)
    test["locations"] = [s.strip() for s in lm.group(1).split(";") if s.strip()] if lm else []
    for _, code in test["procs"]:
        for call in re.findall(r"\b([A-Za-z_]\w*)\s*\(", code):
            if call not in KNOWN_CALLS:
                raise Unsupported("%s() is not in the shim" % call)
    return test


def _registers(code):
    """{register: ctype} of a process's top-level declarations."""
    regs = {}
    for m in re.finditer(r"^\s*(int\s*\*|int|long|atomic_t\s*\*)\s*(\w+)\s*(=|;)", code, re.M):
        regs[m.group(2)] = m.group(1).replace(" ", "")
    return regs


def _value(tok, test):
    if re.fullmatch(r"-?\d+", tok):
        return "(long)%s" % tok
    if tok in test["globals"]:
        return "(long)(uintptr_t)&%s" % _cname(tok)
    raise Unsupported("value %r is neither a number nor a location" % tok)


def _cname(var):
    return "lit_" + var


def _location(var, test):
    ctype = test["globals"][var][0]
    if ctype == "atomic_t":
        return "(long)%s.counter" % _cname(var)
    if ctype.endswith("*"):
        return "(long)(uintptr_t)%s" % _cname(var)
    return "(long)%s" % _cname(var)


def _term(test, regs_of, ref):
    m = re.fullmatch(r"(\d+):(\w+)", ref)
    if m:
        n, reg = int(m.group(1)), m.group(2)
        if n >= len(test["procs"]) or reg not in regs_of[n]:
            raise Unsupported("%s is no register of P%d" % (ref, n))
        return "lit_P%d_%s" % (n, reg)
    if ref in test["globals"]:
        return _location(ref, test)
    raise Unsupported("%s is neither a register nor a location" % ref)


def _condition(expr, test, regs_of):
    if expr is None:
        return "true"
    expr = expr.strip()

    def eq(m):
        lhs = _term(test, regs_of, m.group(1))
        return "(%s %s %s)" % (lhs, "!=" if m.group(2) == "!=" else "==",
                               _value(m.group(3), test))
    out = re.sub(r"((?:\d+:)?\w+)\s*(!=|=)\s*(&?-?\w+)", eq, expr)
    out = out.replace("/\\", "&&").replace("\\/", "||").replace("~", "!")
    if re.search(r"[^\w\s()&|!=<>.:-]", out.replace("(long)", "").replace("(uintptr_t)", "")):
        raise Unsupported("condition %r" % expr)
    return out.replace("true", "1").replace("false", "0") if out else "1"


def translate(test):
    """The C of @test over litmus/litmus.h."""
    g = test["globals"]
    out = ["// SPDX-License-Identifier: GPL-2.0",
           "/* %s, translated by tools/mlf litmus from %s */"
           % (test["name"], os.path.basename(test["path"])),
           '#include "litmus.h"', ""]
    for var, (ctype, _) in sorted(g.items()):
        out.append("static %s %s;" % (ctype, _cname(var)))
    regs_of = [_registers(code) for _, code in test["procs"]]
    for n, regs in enumerate(regs_of):
        for reg in sorted(regs):
            out.append("static long lit_P%d_%s;" % (n, reg))
    out += ["", "static void init(void)", "{"]
    for var, (ctype, val) in sorted(g.items()):
        c = _cname(var)
        if ctype == "spinlock_t":
            out.append("\tspin_lock_init(&%s);" % c)
            continue
        if val is None:
            out.append("\tmemset(&%s, 0, sizeof(%s));" % (c, c))
        elif re.fullmatch(r"ATOMIC_INIT\((-?\d+)\)", val):
            out.append("\t%s.counter = %s;" % (c, val[12:-1]))
        elif re.fullmatch(r"-?\d+", val):
            if ctype == "atomic_t":
                out.append("\t%s.counter = %s;" % (c, val))
            else:
                out.append("\t%s = %s;" % (c, val))
        elif val.lstrip("&") in g:
            out.append("\t%s = &%s;" % (c, _cname(val.lstrip("&"))))
        else:
            raise Unsupported("initial value %r of %s" % (val, var))
    for n, regs in enumerate(regs_of):
        for reg in sorted(regs):
            out.append("\tlit_P%d_%s = 0;" % (n, reg))
    out += ["}", ""]
    for n, (params, code) in enumerate(test["procs"]):
        # registers start at 0, as herd's do
        code = re.sub(r"^(\s*(?:int\s*\*|int|long)\s*\w+)\s*;", r"\1 = 0;", code, flags=re.M)
        saves = "".join("\tlit_P%d_%s = (long)(uintptr_t)(%s);\n" % (n, r, r)
                        for r in sorted(regs_of[n]))
        out += ["static void P%d(%s)" % (n, params), "{", code.rstrip(), saves + "}", ""]
    out += ["static void proc(int i)", "{", "\tswitch (i) {"]
    for n, (params, _) in enumerate(test["procs"]):
        args = ", ".join("&" + _cname(re.match(r".*?(\w+)$", p.strip()).group(1))
                         for p in params.split(",") if p.strip())
        out.append("\tcase %d:\n\t\tP%d(%s);\n\t\tbreak;" % (n, n, args))
    out += ["\t}", "}", ""]
    cond = _condition(test["cond"], test, regs_of)
    filt = _condition(test["filter"], test, regs_of)
    out += ["static bool filter(void)", "{", "\treturn %s;" % filt, "}", "",
            "static bool cond(void)", "{", "\treturn %s;" % cond, "}", ""]
    shown = []
    for n, regs in enumerate(regs_of):
        shown += ["%d:%s" % (n, r) for r in sorted(regs)]
    shown += [v for v, (t, _) in sorted(g.items()) if t != "spinlock_t"]
    fmt = " ".join("%s=%%ld" % s for s in shown)
    vals = ", ".join(_term(test, regs_of, s) for s in shown)
    out += ["static void show(char *buf, size_t size)", "{",
            '\tsnprintf(buf, size, "%s"%s);' % (fmt, ", " + vals if vals else ""), "}", ""]
    out += ["const struct litmus_test litmus_test = {",
            '\t.name = "%s",' % test["name"],
            "\t.nr_procs = %d," % len(test["procs"]),
            "\t.init = init,", "\t.proc = proc,", "\t.filter = filter,",
            "\t.cond = cond,", "\t.show = show,", "};", ""]
    return "\n".join(out)


def verdict(test, executions, filtered, hits):
    """What the exploration observed, in the Result: header's words."""
    if filtered == 0:
        return "DEADLOCK" if test["filter"] else "Never"
    q = test["quantifier"]
    if q == "forall":
        return "Always" if hits == filtered else ("Sometimes" if hits else "Never")
    if q == "~exists":
        return "Sometimes" if hits < filtered else "Never"
    return ("Always" if hits == filtered else "Sometimes") if hits else "Never"


def agrees(expected, observed):
    # herd's "Sometimes" covers a condition that holds in every execution
    return expected == observed or (expected == "Sometimes" and observed == "Always")


def kernel_suite(dest):
    """Unpack the 6.12 tree's litmus tests into @dest; the .litmus paths."""
    if not os.path.exists(KERNEL_SOURCE):
        raise common.MlfError("%s is missing: run tools/mlf setup" % KERNEL_SOURCE)
    found = []
    with tarfile.open(KERNEL_SOURCE) as tar:
        for member in tar:
            name = member.name.split("/", 1)[-1]
            if member.isfile() and name.endswith(".litmus") and name.startswith(SUITE_DIRS):
                path = os.path.join(dest, name)
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with tar.extractfile(member) as src, open(path, "wb") as out:
                    shutil.copyfileobj(src, out)
                found.append(path)
    return sorted(found)


def collect(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            for root, _, names in os.walk(p):
                files += [os.path.join(root, n) for n in names if n.endswith(".litmus")]
        elif os.path.isfile(p):
            files.append(p)
        else:
            raise common.MlfError("%s: no such file or directory" % p)
    return sorted(files)


def _compiler(build):
    cache = os.path.join(build, "CMakeCache.txt")
    with open(cache, encoding="utf-8") as f:
        m = re.search(r"^CMAKE_C_COMPILER:\w+=(.*)$", f.read(), re.M)
    return m.group(1) if m else "cc"


def _urcu_libs():
    try:
        out = subprocess.run(["pkg-config", "--libs", "liburcu-memb"], check=True,
                             capture_output=True, text=True).stdout.split()
    except (OSError, subprocess.CalledProcessError):
        raise common.MlfError("pkg-config cannot find liburcu-memb: run tools/mlf setup")
    return out


def run_one(path, build, work, args, extra):
    """(expected, observed, note) of one test."""
    with open(path, encoding="utf-8", errors="replace") as f:
        text = f.read()
    try:
        test = parse(text, path)
        c = translate(test)
    except (Unsupported, ValueError) as e:
        return None, None, "cannot express: %s" % e
    src = os.path.join(work, re.sub(r"[^\w.+-]", "_", test["name"]) + ".c")
    exe = src[:-2]
    with open(src, "w", encoding="utf-8") as f:
        f.write(c)
    cc = [_compiler(build), "-std=gnu11", "-O1", "-g", "-w",
          "-I", os.path.join(common.ROOT, "src"), "-I", os.path.join(common.ROOT, "litmus"),
          src, os.path.join(build, "litmus", "libmlf_litmus.a"),
          os.path.join(build, "libmlf_kernel.a")] + _urcu_libs() + ["-lpthread", "-o", exe]
    proc = subprocess.run(cc, capture_output=True, text=True)
    if proc.returncode:
        first = common.error_line(proc.stderr) or "the compiler failed"
        return test["result"], None, "cannot express: the translation does not compile: %s" % first
    cmd = [exe, "--memory-model", args.memory_model, "--promises", str(args.promises)] + list(extra)
    if args.verbose:
        common.show(cmd)
    proc = subprocess.run(cmd, capture_output=True, text=True)
    m = re.search(r"litmus-result .*executions=(\d+) filtered=(\d+) cond=(\d+)", proc.stdout)
    if proc.returncode or not m:
        why = common.error_line(proc.stderr) or common.error_line(proc.stdout) or \
            "exit status %d" % proc.returncode
        return test["result"], None, "the run failed: %s" % why
    executions, filtered, hits = (int(x) for x in m.groups())
    if args.verbose:
        print(proc.stdout, end="")
    observed = verdict(test, executions, filtered, hits)
    return test["result"], observed, "%d executions, %d satisfy" % (executions, hits)


def run(args, extra):
    if args.promises < 0:
        raise common.MlfError("--promises %d: not 0 or more" % args.promises)
    if args.build:
        build = os.path.abspath(args.build)
        if not os.path.exists(os.path.join(build, "litmus", "libmlf_litmus.a")):
            raise common.MlfError("%s has no litmus/libmlf_litmus.a: not a build of this tree"
                                  % args.build)
    else:
        build = builds.ensure_built(args.preset, targets=["mlf_litmus", "mlf_kernel"])
    work = tempfile.mkdtemp(prefix="mlf-litmus-")
    try:
        paths = list(args.paths)
        if args.kernel_suite:
            paths.append(os.path.join(work, "suite"))
            kernel_suite(paths[-1])
        files = collect(paths)
        if not files:
            raise common.MlfError("no .litmus files in %s" % " ".join(paths))
        expect_differ = set(args.expect_differ or [])
        agree = unexpected = 0
        for path in files:
            expected, observed, note = run_one(path, build, work, args, extra)
            name = os.path.splitext(os.path.basename(path))[0]
            ok = expected is not None and observed is not None and agrees(expected, observed)
            agree += ok
            mark = "agrees" if ok else "DIFFERS"
            if not ok and name in expect_differ:
                mark = "differs (expected)"
            elif not ok:
                unexpected += 1
            print("%-62s %-9s %-9s %s (%s)" % (name, expected or "-", observed or "-",
                                                mark, note), flush=True)
        print("litmus: %d of %d agree with the LKMM (memory model %s)"
              % (agree, len(files), args.memory_model))
        return 1 if unexpected else 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


def register(subparsers):
    p = subparsers.add_parser(
        "litmus", help="the kernel's C litmus tests on the scheduled engine",
        description="Translate .litmus files in the kernel's C litmus format to C over "
                    "the shim, explore every schedule and every choice of the memory "
                    "model of each, and compare the outcome with its Result: header. "
                    "Prints a line per test and 'litmus: N of M agree with the LKMM'.")
    p.add_argument("paths", nargs="*", metavar="FILE|DIR", help=".litmus files or directories")
    p.add_argument("--kernel-suite", action="store_true",
                   help="the 47 tests of the Linux 6.12 tree (from %s)" % KERNEL_SOURCE)
    p.add_argument("--memory-model", choices=("lkmm", "sc"), default="lkmm",
                   help="the engine's memory model (default lkmm; sc: every load reads "
                        "the newest store)")
    p.add_argument("--promises", type=int,
                   default=2, metavar="N",
                   help="promises (load buffering) a run may make under lkmm (default 2; 0: "
                        "a load reads only stores that have run)")
    p.add_argument("--expect-differ", action="append", metavar="TEST",
                   help="a test whose disagreement is known (repeatable): not a failure")
    p.add_argument("--verbose", action="store_true", help="print each test's final states")
    p.add_argument("--preset", default="dev", help="build preset (default dev)")
    p.add_argument("--build", metavar="DIR",
                   help="an existing build directory instead of --preset's (ctest's)")
    p.set_defaults(func=run, passthrough=True)
