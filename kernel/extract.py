#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Cut the memcg LRU out of a kernel tree, for the build directory only.

A C-aware cutter (comments, string and char literals, preprocessor lines,
brace matching), so that a tree whose patches add helpers or fields still
cuts right. From the tree (a directory or a tarball) it takes:

  mm/vmscan.c            everything between the "memcg LRU" and "the
                         eviction" banners (its enums go to the header),
                         should_abort_scan(), shrink_one() (what they call
                         below comes from the shim), shrink_many(), for
                         the reclaim target set_initial_priority(),
                         lru_gen_age_node(), lru_gen_shrink_node(); the
                         memcg part of
                         lru_gen_init_pgdat(), get_memcg_gen/bin
  include/linux/mmzone.h MEMCG_NR_GENS, MEMCG_NR_BINS, struct lru_gen_memcg,
                         the memcg LRU members of struct lru_gen_folio
  include/linux/list_nulls.h, rculist_nulls.h  as they are
  mm/memcontrol.c        mem_cgroup_css_offline() and
                         mem_cgroup_css_released(), the callbacks of the
                         memcg life cycle that reach the memcg LRU (what
                         they call elsewhere comes from the shim)

and writes into OUT: include/linux/{list_nulls,rculist_nulls}.h,
mlf_tree_gen.h (structures, constants, enums, feature macros),
mlf_tree_vmscan.c (the code, with #line directives into the tree's files)
and mlf_tree_memcg.c (the callbacks).
With --check CC it compiles the result against the shim and turns the
first error into one line naming what the shim lacks.

Errors are one line on stderr, "mlf kernel: ...", exit status 2.
"""
import argparse
import json
import os
import re
import subprocess
import sys
import tarfile

ROOT = os.path.dirname(os.path.dirname(os.path.realpath(__file__)))

VMSCAN = "mm/vmscan.c"
MMZONE = "include/linux/mmzone.h"
LIST_NULLS = "include/linux/list_nulls.h"
RCULIST_NULLS = "include/linux/rculist_nulls.h"
MEMCONTROL = "mm/memcontrol.c"
TREE_FILES = (VMSCAN, MMZONE, LIST_NULLS, RCULIST_NULLS, MEMCONTROL)
# read when the tree has it: the kernel's version, for the reports
MAKEFILE = "Makefile"
# the walk's callees and the eviction's entry, cut by name from vmscan.c
WALK_CALLEES = ("should_abort_scan", "shrink_one")
# a node's reclaim, for the reclaim target (MLF_EVICTION), where the tree
# has them (kswapd's pass over the memcg tree, lru_gen_age_node(), then
# lru_gen_shrink_node()): what they call below the memcg LRU is the
# eviction model's (src/mm/eviction.h) and the memcg tree's
# (src/mm/memcontrol.c)
NODE_RECLAIM = ("set_initial_priority", "lru_gen_age_node", "lru_gen_shrink_node")
# the memcg life cycle's callbacks that reach the memcg LRU (mm/memcontrol.c)
MEMCG_CALLBACKS = ("mem_cgroup_css_offline", "mem_cgroup_css_released")

# struct lru_gen_folio members the memcg LRU uses (bin: the seed series)
LRUGEN_MEMBERS = ("gen", "seg", "bin", "list")
TYPE_WORDS = {"int", "unsigned", "signed", "long", "short", "char", "bool",
              "u8", "u16", "u32", "u64", "s8", "s16", "s32", "s64", "size_t",
              "struct", "enum", "union", "const", "volatile", "static"}


class CutError(Exception):
    """One line for the user."""


# ---- tokens ----

class Tok:
    __slots__ = ("kind", "text", "start", "end", "line")

    def __init__(self, kind, text, start, end, line):
        self.kind, self.text, self.start, self.end, self.line = kind, text, start, end, line

    def __repr__(self):
        return "Tok(%s, %r, line %d)" % (self.kind, self.text, self.line)


_TOKEN_RE = re.compile(r"""
    (?P<comment>/\*.*?\*/|//[^\n]*)
  | (?P<string>"(?:\\.|[^"\\\n])*")
  | (?P<char>'(?:\\.|[^'\\\n])*')
  | (?P<ident>[A-Za-z_][A-Za-z0-9_]*)
  | (?P<number>\.?[0-9](?:[eEpP][+-]|[A-Za-z0-9_.])*)
  | (?P<punct>->|\+\+|--|<<=|>>=|<<|>>|<=|>=|==|!=|&&|\|\||[-+*/%&|^!=<>]=|\.\.\.|[^\s])
  | (?P<space>\s+)
""", re.S | re.X)

_PP_RE = re.compile(r"[ \t]*#(?:[^\n\\/]|\\.|\\\n|/\*.*?\*/|/(?![*/]))*", re.S)


def write_if_changed(path, data):
    """Write @data (text, kernel bytes kept as they are, or bytes) to
    @path by way of path.part, unless it holds it already: an unchanged
    file keeps its mtime and the build does not run again. Whether it
    wrote. (The kernel scripts' copy of tools/mlflib/common.py's: they run
    from CMake on their own.)"""
    binary = isinstance(data, bytes)
    kw = {} if binary else {"encoding": "utf-8", "errors": "surrogateescape"}
    try:
        with open(path, "rb" if binary else "r", **kw) as f:
            if f.read() == data:
                return False
    except OSError:
        pass
    os.makedirs(os.path.dirname(path) or ".", exist_ok=True)
    with open(path + ".part", "wb" if binary else "w", **kw) as f:
        f.write(data)
    os.replace(path + ".part", path)
    return True


def tokenize(src):
    """Tokens of C source: comment, string, char, ident, number, punct, pp.

    A preprocessor line (with its continuations and comments) is one token.
    """
    toks, pos, line, at_line_start = [], 0, 1, True
    n = len(src)
    while pos < n:
        if at_line_start:
            m = _PP_RE.match(src, pos)
            if m and src[m.start():m.end()].lstrip().startswith("#"):
                text = m.group(0)
                lead = len(text) - len(text.lstrip())
                toks.append(Tok("pp", text.strip(), pos + lead, m.end(), line))
                line += text.count("\n")
                pos = m.end()
                continue
        m = _TOKEN_RE.match(src, pos)
        if not m:
            raise CutError("cannot tokenize near line %d" % line)
        kind = m.lastgroup
        text = m.group(0)
        if kind == "comment" and text.startswith("/*") and not text.endswith("*/"):
            raise CutError("unterminated comment at line %d" % line)
        if kind != "space":
            toks.append(Tok(kind, text, pos, m.end(), line))
            at_line_start = False
        if "\n" in text:
            at_line_start = kind in ("space", "comment") and \
                text[text.rindex("\n") + 1:].strip() == ""
        line += text.count("\n")
        pos = m.end()
    return toks


def code(toks):
    """The tokens the compiler sees (no comments, no preprocessor lines)."""
    return [t for t in toks if t.kind not in ("comment", "pp")]


def match_close(toks, i):
    """Index of the token closing the bracket at toks[i] (code tokens only)."""
    pairs = {"(": ")", "{": "}", "[": "]"}
    open_, close = toks[i].text, pairs[toks[i].text]
    depth = 0
    for j in range(i, len(toks)):
        if toks[j].kind != "punct":
            continue
        if toks[j].text == open_:
            depth += 1
        elif toks[j].text == close:
            depth -= 1
            if depth == 0:
                return j
    raise CutError("unbalanced %r at line %d" % (open_, toks[i].line))


def depths(toks):
    """Brace depth before each token (preprocessor lines do not count)."""
    out, d = [], 0
    for t in toks:
        out.append(d)
        if t.kind == "punct":
            if t.text == "{":
                d += 1
            elif t.text == "}":
                d -= 1
    return out


# ---- the cuts ----

class Source:
    """A file of the tree, tokenized; @where is how #line names it."""

    def __init__(self, rel, text, where=None):
        self.rel, self.text = rel, text
        self.where = where or rel
        self.toks = tokenize(text)
        self.depth = depths(self.toks)

    def line_of(self, offset):
        return self.text.count("\n", 0, offset) + 1

    def chunk(self, start, end):
        """Text [start, end) with a #line directive pointing into the tree."""
        return '#line %d "%s"\n%s\n' % (self.line_of(start), self.where, self.text[start:end])

    def banner(self, title):
        """Index of the banner comment whose text is @title."""
        for i, t in enumerate(self.toks):
            if t.kind == "comment" and self.depth[i] == 0:
                body = re.sub(r"[/*\s]+", " ", t.text).strip()
                if body == title:
                    return i
        raise CutError('%s: no "%s" banner' % (self.rel, title))

    def decl_start(self, i):
        """Start offset of the top-level declaration whose name is toks[i]."""
        j = i - 1
        while j >= 0:
            t = self.toks[j]
            if t.kind in ("comment", "pp"):
                return t.end
            if t.kind == "punct" and ((t.text == ";" and self.depth[j] == 0) or
                                      (t.text == "}" and self.depth[j] == 1)):
                return t.end
            j -= 1
        return 0

    def function(self, name, lo=0, hi=None):
        """(start, end, token range) of the definition of function @name."""
        hi = len(self.toks) if hi is None else hi
        for i in range(lo, hi):
            t = self.toks[i]
            if t.kind != "ident" or t.text != name or self.depth[i] != 0:
                continue
            j = self._next_code(i)
            if j is None or self.toks[j].text != "(":
                continue
            k = self._next_code(match_close(self.toks, j))
            if k is None or self.toks[k].text != "{":
                continue    # a prototype
            end = match_close(self.toks, k)
            return self.decl_start(i), self.toks[end].end, (i, k, end)
        return None

    def struct(self, name):
        """(start, end, open index, close index) of 'struct @name { ... };'."""
        for i, t in enumerate(self.toks):
            if t.text != "struct" or self.depth[i] != 0:
                continue
            j = self._next_code(i)
            if j is None or self.toks[j].text != name:
                continue
            k = self._next_code(j)
            if k is None or self.toks[k].text != "{":
                continue
            close = match_close(self.toks, k)
            semi = self._next_code(close)
            if semi is None or self.toks[semi].text != ";":
                raise CutError("%s: struct %s does not end with ';'" % (self.rel, name))
            return t.start, self.toks[semi].end, k, close
        raise CutError("%s: no struct %s" % (self.rel, name))

    def define(self, name):
        """The '#define @name' line, after a #line directive to it."""
        for t in self.toks:
            if t.kind == "pp" and re.match(r"#\s*define\s+%s\b" % re.escape(name), t.text):
                return '#line %d "%s"\n%s' % (t.line, self.where, t.text)
        raise CutError("%s: no #define %s" % (self.rel, name))

    def _next_code(self, i):
        for j in range(i + 1, len(self.toks)):
            if self.toks[j].kind not in ("comment", "pp"):
                return j
        return None


def members(src, open_, close):
    """[(name, text start, text end)] of the members of a struct body.

    A member ends at a ';' outside parentheses and nested braces; its name
    is the last identifier before array bounds, a bit-field width or the
    ';' (so "unsigned long nr_memcgs[MEMCG_NR_GENS]" is nr_memcgs).
    """
    out, start, nest, name, named = [], src.toks[open_].end, 0, None, False
    for i in range(open_ + 1, close):
        t = src.toks[i]
        if t.kind in ("pp", "comment"):
            continue
        if t.kind == "punct" and t.text in "([{":
            if nest == 0 and t.text == "[":
                named = True
            nest += 1
        elif t.kind == "punct" and t.text in ")]}":
            nest -= 1
        elif t.kind == "punct" and t.text == ":" and nest == 0:
            named = True
        elif t.kind == "punct" and t.text == ";" and nest == 0:
            out.append((name, start, t.end))
            start, name, named = t.end, None, False
        elif t.kind == "ident" and nest == 0 and not named:
            name = t.text
    return out


def region(vm):
    """Token range and text offsets of the memcg LRU section of vmscan.c."""
    first = vm.banner("memcg LRU")
    last = vm.banner("the eviction")
    if last < first:
        raise CutError('%s: the "the eviction" banner comes before "memcg LRU"' % vm.rel)
    return first + 1, last, vm.toks[first].end, vm.toks[last].start


def cut_enums(vm, lo, hi):
    """The top-level enum definitions in toks[lo:hi]: [(start, end)]."""
    out = []
    i = lo
    while i < hi:
        t = vm.toks[i]
        if t.kind == "ident" and t.text == "enum" and vm.depth[i] == 0:
            j = vm._next_code(i)
            if j is not None and vm.toks[j].kind == "ident":
                j = vm._next_code(j)
            if j is not None and vm.toks[j].text == "{":
                close = match_close(vm.toks, j)
                semi = vm._next_code(close)
                if semi is not None and vm.toks[semi].text == ";":
                    out.append((t.start, vm.toks[semi].end))
                    i = semi
        i += 1
    return out


def blank_out(text, start, end, spans):
    """text[start:end] with @spans replaced by as many newlines (same lines)."""
    parts, pos = [], start
    for s, e in spans:
        parts.append(text[pos:s])
        parts.append("\n" * text.count("\n", s, e))
        pos = e
    parts.append(text[pos:end])
    return "".join(parts)


def statements(src, open_, close):
    """Top-level statements of a function body: [(start, end, tokens)].

    Preprocessor lines are statements of their own; comments belong to
    nothing. A statement ends at a ';' or at the '}' of a compound that
    is not followed by 'else'.
    """
    out, cur, nest = [], [], 0
    for i in range(open_ + 1, close):
        t = src.toks[i]
        if t.kind == "comment":
            continue
        if t.kind == "pp" and nest == 0 and not cur:
            out.append((t.start, t.end, [t]))
            continue
        cur.append(t)
        if t.kind != "punct":
            continue
        if t.text in "({[":
            nest += 1
        elif t.text in ")}]":
            nest -= 1
            if t.text == "}" and nest == 0:
                j = src._next_code(i)
                if j is None or src.toks[j].text != "else":
                    out.append((cur[0].start, t.end, cur))
                    cur = []
        elif t.text == ";" and nest == 0:
            out.append((cur[0].start, t.end, cur))
            cur = []
    return out


def declared_names(toks):
    """Names a declaration statement declares (followed by , ; = or [)."""
    names, nest = set(), 0
    for a, b in zip(toks, toks[1:]):
        if a.kind == "punct" and a.text in "({":
            nest += 1
        elif a.kind == "punct" and a.text in ")}":
            nest -= 1
        if nest == 0 and a.kind == "ident" and b.kind == "punct" and b.text in (",", ";", "=", "["):
            names.add(a.text)
    return names


def memcg_part(vm, name, must_touch="memcg_lru"):
    """Function @name reduced to its statements on @must_touch (and the
    declarations those use): the memcg part of lru_gen_init_pgdat()."""
    found = vm.function(name)
    if not found:
        raise CutError("%s: no %s()" % (vm.rel, name))
    start, end, (_, open_, close) = found
    stmts = statements(vm, open_, close)
    kept, used = [], set()
    for s, e, toks in stmts:
        if any(t.kind == "ident" and t.text == must_touch for t in toks):
            kept.append((s, e))
            used |= {t.text for t in toks if t.kind == "ident"}
    if not kept:
        raise CutError("%s: %s() has no statement on %s" % (vm.rel, name, must_touch))
    result = []
    for s, e, toks in stmts:
        if toks[0].kind == "pp":
            result.append((s, e))
        elif (s, e) in kept:
            result.append((s, e))
        elif toks[0].text in TYPE_WORDS and declared_names(toks) & used:
            result.append((s, e))
    head = vm.text[start:vm.toks[open_].end]
    body = "".join(vm.chunk(s, e) for s, e in sorted(result))
    return '#line %d "%s"\n%s\n%s}\n' % (vm.line_of(start), vm.where, head, body)


# ---- features: what the tree's code does, for the model and the checks ----

def _paren_tokens(src, i):
    close = match_close(src.toks, i)
    return [t for t in src.toks[i:close + 1] if t.kind not in ("comment", "pp")], close


def features(vm, mz, rotate, shrink, memcg_members, lrugen_members):
    """CONFIG_LRU_GEN_* the tree's code has (docs/kernel.md explains each).

    TAIL_CACHE  struct lru_gen_memcg has tail[][] and lru_gen_folio has bin
    YOUNG_SKIP  lru_gen_rotate_memcg() has an 'if' on MEMCG_LRU_YOUNG and
                old == new whose statement is a goto or a return
    LOCKRAND    its first get_random_u32_below() comes after its first
                spin_lock*()
    RESCHED     shrink_many() calls cond_resched*()
    """
    feats = {}
    if "tail" in memcg_members and "bin" in lrugen_members:
        feats["CONFIG_LRU_GEN_TAIL_CACHE"] = "struct lru_gen_memcg has tail[][], lru_gen_folio has bin"
    _, _, (_, ropen, rclose) = rotate
    body = [(i, vm.toks[i]) for i in range(ropen, rclose) if vm.toks[i].kind not in ("comment", "pp")]
    for n, (i, t) in enumerate(body):
        if t.text != "if" or n + 1 >= len(body) or body[n + 1][1].text != "(":
            continue
        cond, close = _paren_tokens(vm, body[n + 1][0])
        words = " ".join(x.text for x in cond)
        nxt = vm._next_code(close)
        if "MEMCG_LRU_YOUNG" in words and re.search(r"\bold == new\b|\bnew == old\b", words) \
                and nxt is not None and vm.toks[nxt].text in ("goto", "return"):
            feats["CONFIG_LRU_GEN_YOUNG_SKIP"] = "lru_gen_rotate_memcg() skips YOUNG (line %d)" % t.line
            break
    rand = [i for i, t in body if t.text == "get_random_u32_below"]
    lock = [i for i, t in body if t.text.startswith("spin_lock")]
    if rand and lock and rand[0] > lock[0]:
        feats["CONFIG_LRU_GEN_LOCKRAND"] = "lru_gen_rotate_memcg() draws the bin inside the lock"
    _, _, (_, sopen, sclose) = shrink
    if any(vm.toks[i].text.startswith("cond_resched") for i in range(sopen, sclose)):
        feats["CONFIG_LRU_GEN_RESCHED"] = "shrink_many() has cond_resched points"
    return feats


def has(vm, mcs, enums, lo, hi):
    """The names the harness asks the tree for: each MEMCG_LRU_* enumerator,
    SOFT_RECLAIM (lru_gen_soft_reclaim(), gone in d5d1712c5928) and
    OFFLINE_OLD (the css_offline callback moves the memcg to the old
    generation: it calls lru_gen_offline_memcg(), which rotates with
    MEMCG_LRU_OLD)."""
    out = []
    for es, ee in enums:
        text = vm.text[es:ee]
        out += re.findall(r"\b(MEMCG_LRU_[A-Z]+)\b", text)
    if vm.function("lru_gen_soft_reclaim", lo, hi):
        out.append("SOFT_RECLAIM")
    offline = vm.function("lru_gen_offline_memcg", lo, hi)
    callback = mcs.function("mem_cgroup_css_offline")
    if offline and callback and "MEMCG_LRU_OLD" in vm.text[offline[0]:offline[1]] and \
            re.search(r"\blru_gen_offline_memcg\s*\(", mcs.text[callback[0]:callback[1]]):
        out.append("OFFLINE_OLD")
    return out


# ---- generation ----

def top_functions(src, lo, hi):
    """[(name, line)] of the functions defined at the top level of toks[lo:hi]."""
    out, i = [], lo
    while i < hi:
        t = src.toks[i]
        if t.kind == "ident" and src.depth[i] == 0:
            j = src._next_code(i)
            if j is not None and src.toks[j].text == "(":
                k = src._next_code(match_close(src.toks, j))
                if k is not None and src.toks[k].text == "{":
                    out.append((t.text, t.line))
                    i = match_close(src.toks, k)
        i += 1
    return out


def version(texts):
    """"Linux 6.12.118" from the tree's Makefile, or None."""
    text = texts.get(MAKEFILE) or ""
    v = dict(re.findall(r"^(VERSION|PATCHLEVEL|SUBLEVEL) = (\d+)$", text, re.M))
    if len(v) != 3:
        return None
    return "Linux %s.%s.%s" % (v["VERSION"], v["PATCHLEVEL"], v["SUBLEVEL"])


_SOURCES = {}
GENERATED = "/* Generated by kernel/extract.py from a kernel tree: do not edit. */"


def source(rel, text, where):
    """Source(rel, text, where), tokenized once per process for each text."""
    key = (rel, text, where)
    if key not in _SOURCES:
        _SOURCES[key] = Source(rel, text, where)
    return _SOURCES[key]


def generate(texts, out, where=None, name=None):
    """Cut the tree's files (@texts: rel -> text) into @out. #line names
    the tree's files as @where/<rel> (default: <rel>); @name says what the
    tree is, for the reports (MLF_TREE_NAME)."""
    def at(rel):
        return os.path.join(where, rel) if where else rel
    vm = source(VMSCAN, texts[VMSCAN], at(VMSCAN))
    mz = source(MMZONE, texts[MMZONE], at(MMZONE))

    lo, hi, start, end = region(vm)
    rotate = vm.function("lru_gen_rotate_memcg", lo, hi)
    if not rotate:
        raise CutError("%s: no lru_gen_rotate_memcg() in the memcg LRU section" % vm.rel)
    shrink = vm.function("shrink_many")
    if not shrink:
        raise CutError("%s: no shrink_many()" % vm.rel)
    # the walk's callees above the eviction, the tree's own (what they call
    # below is the shim's: src/mm/shrink_one.h), and a node's reclaim
    cut = {}
    for fn in WALK_CALLEES + NODE_RECLAIM:
        found = vm.function(fn)
        if found:
            cut[fn] = found
        elif fn in WALK_CALLEES:
            raise CutError("%s: no %s()" % (vm.rel, fn))
    enums = cut_enums(vm, lo, hi)
    if not enums:
        raise CutError("%s: no enum (MEMCG_LRU_*) in the memcg LRU section" % vm.rel)

    gens_def, bins_def = mz.define("MEMCG_NR_GENS"), mz.define("MEMCG_NR_BINS")
    s, e, mo, mc = mz.struct("lru_gen_memcg")
    memcg_members = [m[0] for m in members(mz, mo, mc)]
    memcg_struct = mz.chunk(s, e)
    fs, _, fo, fc = mz.struct("lru_gen_folio")
    lrugen = members(mz, fo, fc)
    lrugen_members = [m[0] for m in lrugen]
    for need in ("gen", "seg", "list"):
        if need not in lrugen_members:
            raise CutError("%s: struct lru_gen_folio has no '%s' member" % (mz.rel, need))
    reduced = "".join(mz.chunk(ms, me) for n, ms, me in lrugen if n in LRUGEN_MEMBERS)
    feats = features(vm, mz, rotate, shrink, memcg_members, lrugen_members)

    mcs = source(MEMCONTROL, texts[MEMCONTROL], at(MEMCONTROL))
    callbacks = []
    for fn in MEMCG_CALLBACKS:
        found = mcs.function(fn)
        if not found:
            raise CutError("%s: no %s()" % (mcs.rel, fn))
        callbacks.append((fn, found))

    # where each function of the code under test is in the tree, for the
    # reports: the memcg LRU section's, the walk's, the callbacks
    # (the line of the function's name, as top_functions() gives it: a
    # definition's start, decl_start(), begins after the previous '}')
    where_fns = top_functions(vm, lo, hi)
    where_fns += [(fn, vm.toks[f[2][0]].line) for fn, f in sorted(cut.items())]
    where_fns.append(("shrink_many", vm.toks[shrink[2][0]].line))
    where_fns = [(fn, VMSCAN, line) for fn, line in where_fns]
    where_fns += [(fn, MEMCONTROL, mcs.toks[f[2][0]].line) for fn, f in callbacks]

    hdr = ["/* SPDX-License-Identifier: GPL-2.0 */", GENERATED,
           "#ifndef _MLF_TREE_GEN_H", "#define _MLF_TREE_GEN_H", ""]
    for fname, why in sorted(feats.items()):
        hdr.append("/* %s */\n#define %s 1" % (why, fname))
    hdr += ["", "/* what the tree has that another tree may not (src/mm/mmzone.h) */"]
    hdr += ["#define MLF_TREE_HAS_%s 1" % n for n in has(vm, mcs, enums, lo, hi)]
    hdr += ["", "/* what the tree is, and where its functions are, for the reports */",
            "#define MLF_TREE_NAME %s" % json.dumps(name or version(texts) or "a kernel tree"),
            "#define MLF_TREE_FUNCTIONS(X) \\"]
    hdr += ['\tX(%s, "%s", %d) \\' % w for w in where_fns]
    hdr += ["", ""]
    hdr += [gens_def, bins_def, "", vm.define("get_memcg_gen"), vm.define("get_memcg_bin"), ""]
    hdr.append("/* the memcg LRU members of the tree's struct lru_gen_folio, and what the")
    hdr.append("   models below the code under test add (src/mm/mmzone.h) */")
    hdr.append('#line %d "%s"' % (mz.line_of(fs), mz.where))
    hdr.append("struct lru_gen_folio {\n" + reduced + "\tMLF_LRU_GEN_FOLIO_MODEL\n};\n")
    hdr.append(memcg_struct)
    for es, ee in enums:
        hdr.append(vm.chunk(es, ee))
    hdr += ["#endif", ""]

    c = ["// SPDX-License-Identifier: GPL-2.0", GENERATED,
         '#include "tree_vmscan_before.h"', "",
         "/* the memcg LRU section */",
         '#line %d "%s"' % (vm.line_of(start), vm.where),
         blank_out(vm.text, start, end, enums),
         "/* should_abort_scan() and shrink_one() */"] + \
        [vm.chunk(cut[fn][0], cut[fn][1]) for fn in WALK_CALLEES] + \
        ['#include "tree_shrink_one_hook.h"',
         "/* shrink_many() */", vm.chunk(shrink[0], shrink[1]),
         "/* a node's reclaim, for the reclaim target */", "#ifdef MLF_EVICTION"] + \
        [vm.chunk(cut[fn][0], cut[fn][1]) for fn in NODE_RECLAIM if fn in cut] + \
        ["#endif /* MLF_EVICTION */",
         "/* the memcg part of lru_gen_init_pgdat() */",
         memcg_part(vm, "lru_gen_init_pgdat"),
         '#include "tree_vmscan_after.h"', ""]

    memcg = ["// SPDX-License-Identifier: GPL-2.0", GENERATED,
             '#include "tree_memcg_before.h"', ""]
    for fn in MEMCG_CALLBACKS:
        memcg.append("#define %s tree_%s" % (fn, fn))
    for fn, found in callbacks:
        memcg.append(mcs.chunk(found[0], found[1]))
    for fn in MEMCG_CALLBACKS:
        memcg.append("#undef %s" % fn)
    memcg += ['#include "tree_memcg_after.h"', ""]

    os.makedirs(os.path.join(out, "include", "linux"), exist_ok=True)
    files = {
        "mlf_tree_memcg.c": "\n".join(memcg),
        "mlf_tree_gen.h": "\n".join(hdr),
        "mlf_tree_vmscan.c": "\n".join(c),
        "include/linux/list_nulls.h": texts[LIST_NULLS],
        "include/linux/rculist_nulls.h": texts[RCULIST_NULLS],
        "features.json": json.dumps(feats, indent=1, sort_keys=True) + "\n",
    }
    for rel, text in files.items():
        write_if_changed(os.path.join(out, rel), text)
    return feats


# ---- the tree: a directory or a tarball ----

def read_tree(tree, cache):
    """{rel: text} of TREE_FILES, from a directory or (cached) a tarball."""
    if os.path.isdir(tree):
        texts = {}
        for rel in TREE_FILES + (MAKEFILE,):
            path = os.path.join(tree, rel)
            if not os.path.isfile(path):
                if rel == MAKEFILE:
                    continue
                raise CutError("%s: no %s (is it a kernel tree?)" % (tree, rel))
            with open(path, encoding="utf-8", errors="surrogateescape") as f:
                texts[rel] = f.read()
        return texts
    if not os.path.isfile(tree):
        raise CutError("%s: no such tree or tarball" % tree)
    st = os.stat(tree)
    stamp = {"tarball": os.path.abspath(tree), "size": st.st_size, "mtime": st.st_mtime,
             "files": list(TREE_FILES + (MAKEFILE,))}
    stamp_path = os.path.join(cache, "stamp.json")
    try:
        with open(stamp_path, encoding="utf-8") as f:
            if json.load(f) == stamp:
                return read_tree(cache, cache)
    except (OSError, ValueError):
        pass
    try:
        tar = tarfile.open(tree)
    except (tarfile.TarError, OSError) as e:
        raise CutError("%s: not a tarball (%s)" % (tree, e))
    want, found = set(TREE_FILES + (MAKEFILE,)), {}
    with tar:
        for member in tar:
            rel = member.name.split("/", 1)[-1] if "/" in member.name else member.name
            if rel in want and member.isfile():
                found[rel] = tar.extractfile(member).read()
                want.discard(rel)
                if not want:
                    break
    want.discard(MAKEFILE)
    if want:
        raise CutError("%s: no %s in the tarball" % (tree, sorted(want)[0]))
    for rel, data in found.items():
        path = os.path.join(cache, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
    with open(stamp_path, "w", encoding="utf-8") as f:
        json.dump(stamp, f)
    return read_tree(cache, cache)


def copy_tree(tree, dest, cache):
    """Copy the files the cut needs into @dest (a tree of its own)."""
    texts = read_tree(tree, cache)
    for rel, text in texts.items():
        path = os.path.join(dest, rel)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)


# ---- compile check: name what the shim lacks ----

_MISSING = [
    (r"implicit declaration of function '([^']+)'", "'%s'"),
    (r"call to undeclared function '([^']+)'", "'%s'"),
    (r"unknown type name '([^']+)'", "the type '%s'"),
    (r"'([^']+)' undeclared", "'%s'"),
    (r"use of undeclared identifier '([^']+)'", "'%s'"),
    (r"fatal error: '?([^':]+\.h)'?(?::| file not found)", "<%s>"),
    (r"has no member named '([^']+)'", "the member '%s'"),
    (r"no member named '([^']+)' in '([^']+)'", "the member '%s'"),
    (r"storage size of '([^']+)' isn't known", "the definition of '%s'"),
    (r"incomplete type '([^']+)'", "the definition of '%s'"),
]


def compile_flags(out):
    return ["-std=gnu11", "-I", os.path.join(out, "include"), "-I", out,
            "-I", os.path.join(ROOT, "kernel", "include"), "-I", os.path.join(ROOT, "kernel"),
            "-I", os.path.join(ROOT, "src"),
            "-include", os.path.join(ROOT, "kernel", "mlf_tree.h")]


def check(cc, out):
    """Compile the cut against the shim; raise CutError naming what is missing."""
    for src in ("mlf_tree_vmscan.c", "mlf_tree_memcg.c"):
        check_one(cc, out, src)


def check_one(cc, out, src):
    cmd = [cc, "-fsyntax-only", "-Wall", "-Werror=implicit-function-declaration",
           "-Wno-unused-parameter"] + compile_flags(out) + [os.path.join(out, src)]
    # LC_ALL=C: plain quotes in the messages the patterns below read
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          env=dict(os.environ, LC_ALL="C"))
    if proc.returncode == 0:
        return
    errors = [l for l in proc.stdout.splitlines() if "error" in l]
    for line in errors:
        for pattern, what in _MISSING:
            m = re.search(pattern, line)
            if m:
                where = line.split(": ", 1)[0]
                raise CutError("the tree's code needs %s, which the shim lacks (%s)"
                               % (what % m.group(1), os.path.relpath(where, out)
                                  if where.startswith("/") else where))
    first = errors[0] if errors else proc.stdout.strip().splitlines()[-1]
    raise CutError("the tree's code does not compile against the shim: " + first.strip())


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--tree", required=True, help="kernel tree directory or tarball")
    p.add_argument("--out", required=True, help="where to write (the build directory)")
    p.add_argument("--check", metavar="CC", help="compile the cut with CC")
    p.add_argument("--copy-to", metavar="DIR",
                   help="only copy the tree's files the cut needs into DIR")
    args = p.parse_args(argv)
    cache = os.path.join(args.out, "tree-src")
    try:
        if args.copy_to:
            copy_tree(args.tree, args.copy_to, cache)
            return 0
        feats = generate(read_tree(args.tree, cache), args.out)
        if args.check:
            check(args.check, args.out)
    except CutError as e:
        print("mlf kernel: %s" % e, file=sys.stderr)
        return 2
    print("mlf kernel: cut %s: %s" % (args.tree, ", ".join(sorted(feats)) or "no seed feature"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
