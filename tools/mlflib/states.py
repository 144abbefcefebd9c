# SPDX-License-Identifier: GPL-2.0
"""State coverage (src/harness/states.h): the cells a run's ops met, which
cells can be met at all and why the others cannot, and the table.

A cell is (kind, stage, gen, seg, pos, len, depth, dying): the memcg an op
acts on, as the op finds it (a reclaim walk: each memcg it visits). The
reclaim build notes two cells per memcg, one per family: its place on the
memcg LRU (depth and dying folded to 1 and 0) and its place in the tree
(kind "tree:<op>", no gen, seg, pos or len). The
replay driver writes the cells it met when MLF_STATES names a file, one
line per cell: "<target> <kind> <stage> <gen> <seg> <pos> <len> <depth>
<dying> <count>". reachable() lists every cell of a target with None, or
the reason the harness can never meet it: these rules are the claim that
the table's denominator is right, and a cell met that a rule excludes is
reported as a finding of its own.
"""
import collections
import itertools
import os
import tempfile

from . import engine

STAGES = ("online", "offline-ref", "dying", "gone")
GENS = ("old", "young", "third")
SEGS = ("default", "head", "tail")
# position in the bin with the bin's length class: the pairs that exist
PLACES = (("only", "1"), ("head", "2"), ("tail", "2"),
          ("head", "3+"), ("interior", "3+"), ("tail", "3+"))
DEPTHS = ("1", "2", "3+")
DYINGS = ("0", "1", "2+")

LIVE = ("online", "offline-ref")
WITH_MEMCG = ("online", "offline-ref", "dying")

# kind -> (stages it applies to, why not the others)
MEMCG_LRU_KINDS = collections.OrderedDict([
    ("online", (("gone",), "online applies to an empty slot")),
    ("offline", (("online",), "offline applies to an online memcg")),
    ("css_offline", (("online",), "css_offline applies to an online memcg")),
    ("get", (LIVE, "get takes a reference to a memcg that still has one")),
    ("put", (LIVE, "put drops a reference the harness holds; a dying memcg has none")),
    ("release", (("dying",), "release is css_released, after the last reference")),
    ("rotate-HEAD", (LIVE, "the harness rotates a memcg it holds a reference to")),
    ("rotate-TAIL", (LIVE, "the harness rotates a memcg it holds a reference to")),
    ("rotate-OLD", (LIVE, "the harness rotates a memcg it holds a reference to")),
    ("rotate-YOUNG", (LIVE, "the harness rotates a memcg it holds a reference to")),
    ("soft", (LIVE, "soft reclaim rotates a memcg the harness holds a reference to")),
    ("set", (WITH_MEMCG, "set needs a memcg")),
    ("reclaim", (LIVE, "shrink_one() runs only after a successful tryget")),
])

RECLAIM_KINDS = collections.OrderedDict([
    ("online", (("gone",), "online applies to an empty slot")),
    ("offline", (("online",), "offline applies to an online memcg")),
    ("release", (("dying",), "release is css_released, after the last reference")),
    ("add", (LIVE, "a folio is charged to a memcg with a reference: online, or offline "
                   "through remote charging (set_active_memcg())")),
    ("refault", (LIVE, "a folio is charged to a memcg with a reference: online, or offline "
                       "through remote charging (set_active_memcg())")),
    ("touch", (LIVE, "a charged folio holds its memcg's css: it is not dying")),
    ("wbdone", (WITH_MEMCG, "wbdone needs a memcg")),
    ("age", (WITH_MEMCG, "age needs a memcg")),
    ("protect", (("online",), "memory.min and memory.low are files of an online cgroup "
                             "(rmdir removes them, css_offline clears both): reclaim_world.c "
                             "protects an online memcg only")),
    ("swappiness", (WITH_MEMCG, "swappiness needs a memcg")),
    ("reclaim", (LIVE, "shrink_one() runs only after a successful tryget")),
    ("park", (LIVE, "an eviction starts on a memcg with a reference")),
    ("unpark", (LIVE, "a parked eviction holds its memcg's css")),
    ("shadow", (WITH_MEMCG, "shadow needs a memcg")),
    ("soft", (LIVE, "soft reclaim rotates a memcg the harness holds a reference to")),
    ("slab", (("online",), "kmem objects are charged to an online memcg")),
    ("free", (LIVE, "each charged folio holds its memcg's css: a dying memcg has none to "
                    "free")),
])

KINDS = {"memcg_lru": MEMCG_LRU_KINDS, "reclaim": RECLAIM_KINDS}

THIRD = ("seq.valid_gens: the third generation is empty whenever an op begins, "
         "and a walk visits only the generation it walks")
WALK_OLD = "a walk visits the generation it walks: the old one (shrink_many)"
LINKED_LIVE = ("a memcg is linked on every node from online until it is dead: only "
               "css_released, or a walk whose tryget failed, unlinks it")
FLAT = {
    "memcg_lru": "memcg_lru's memcgs have no parent (the flat world of world.c); the "
                 "kernel's deeper hierarchies are the reclaim build's",
    "reclaim": "a memcg's place on the memcg LRU is noted with its depth and dying "
               "ancestors folded; its place in the tree is a tree: cell of its own",
}
TREE_NO_LRU = "a tree: cell says where the memcg is in the tree, not on the memcg LRU"
ONLINE_UNDER_DYING = ("an online memcg has no offline ancestor: rmdir refuses a cgroup "
                      "with an online child (reclaim_world.c's offline)")
TOO_SHALLOW = "a memcg at depth d has d - 1 ancestors below the root"
STALE_NO_HEAD = ("a walk meets the young generation only when the runs of others= left it "
                 "stale, and then only memcgs that they or it rotated there since: YOUNG "
                 "and TAIL, never HEAD (soft reclaim, an op of its own, is the only HEAD)")


TREE = "tree:"


def cells(target):
    """Every cell of @target's kinds, consistent by definition (a memcg on
    no list has no gen, seg or place; position and length pair up; a
    tree: cell has none of them)."""
    for kind in KINDS[target]:
        for stage, depth, dying in itertools.product(STAGES, DEPTHS, DYINGS):
            if stage == "gone":
                if (depth, dying) == ("1", "0"):
                    yield (kind, stage, "-", "-", "-", "-", depth, dying)
                continue
            yield (kind, stage, "-", "-", "-", "-", depth, dying)
            for gen, seg, (pos, ln) in itertools.product(GENS, SEGS, PLACES):
                yield (kind, stage, gen, seg, pos, ln, depth, dying)
    if target != "reclaim":
        return
    for kind in KINDS[target]:
        for stage, depth, dying in itertools.product(STAGES, DEPTHS, DYINGS):
            if stage == "gone" and (depth, dying) != ("1", "0"):
                continue
            yield (TREE + kind, stage, "-", "-", "-", "-", depth, dying)


def why_not(target, cell):
    """None if the harness can meet @cell, else the reason it cannot."""
    kind, stage, gen, seg, pos, ln, depth, dying = cell
    if kind.startswith(TREE):
        stages, why = KINDS[target][kind[len(TREE):]]
        if stage not in stages:
            return why
        if stage == "online" and dying != "0":
            return ONLINE_UNDER_DYING
        if DYINGS.index(dying) > DEPTHS.index(depth):
            return TOO_SHALLOW
        return None
    stages, why = KINDS[target][kind]
    if stage not in stages:
        return why
    if (depth, dying) != ("1", "0"):
        return FLAT[target]
    if gen == "third":
        return THIRD
    if gen == "-" and stage in LIVE:
        return LINKED_LIVE
    # a reclaim walk whose seq two advances left behind walks the young
    # generation (reclaim_world.c's others= runs while a walk yields)
    if kind == "reclaim" and gen not in ("old", "-") and target == "memcg_lru":
        return WALK_OLD
    if kind == "reclaim" and gen == "young" and seg == "head":
        return STALE_NO_HEAD
    return None


def reachable(target):
    """{cell: None or the reason it cannot be met}, in table order."""
    return collections.OrderedDict((c, why_not(target, c)) for c in cells(target))


def read_dump(path, target):
    """{cell: count} of a dump file (lines of other targets are skipped)."""
    met = collections.Counter()
    if not os.path.exists(path):
        return met
    with open(path, encoding="utf-8") as f:
        for line in f:
            w = line.split()
            if len(w) != 10 or w[0] != target:
                continue
            met[tuple(w[1:9])] += int(w[9])
    return met


def collect(driver, files, target):
    """Run @files through @driver with MLF_STATES; returns (met, failed)."""
    with tempfile.TemporaryDirectory() as tmp:
        dump = os.path.join(tmp, "states")
        env = dict(os.environ, MLF_STATES=dump)
        old = os.environ.copy()
        os.environ.update(env)
        try:
            failed = engine.replay_files(driver, files)
        finally:
            os.environ.clear()
            os.environ.update(old)
        return read_dump(dump, target), failed


def summarize(target, met):
    """Per kind: (met, reachable, missed cells); the unreachable cells by
    reason; the cells met that a rule says cannot be (findings)."""
    table = reachable(target)
    per_kind = collections.OrderedDict((k, [0, 0, []]) for k in KINDS[target])
    if target == "reclaim":
        per_kind.update((TREE + k, [0, 0, []]) for k in KINDS[target])
    reasons = collections.Counter()
    impossible = []
    for cell, why in table.items():
        row = per_kind[cell[0]]
        if why is None:
            row[1] += 1
            if met.get(cell):
                row[0] += 1
            else:
                row[2].append(cell)
        else:
            reasons[why] += 1
            if met.get(cell):
                impossible.append((cell, why))
    unknown = [c for c in met if c not in table]
    return per_kind, reasons, impossible, unknown


def fmt_cell(cell):
    kind, stage, gen, seg, pos, ln, depth, dying = cell
    if kind.startswith(TREE):
        return "%s/depth %s, %s dying above" % (stage, depth, dying)
    if gen == "-":
        return "%s/unlinked" % stage
    s = "%s/%s/%s/%s-of-%s" % (stage, gen, seg, pos, ln)
    if (depth, dying) != ("1", "0"):
        s += "/depth %s, %s dying above" % (depth, dying)
    return s


def print_table(target, met, what, show_missed=12):
    per_kind, reasons, impossible, unknown = summarize(target, met)
    total_met = sum(r[0] for r in per_kind.values())
    total = sum(r[1] for r in per_kind.values())
    print("\nstate coverage of %s (%s): %d of %d reachable cells"
          % (target, what, total_met, total))
    print("%-14s %9s %9s  %s" % ("kind", "met", "reachable", "missed"))
    for kind, (n, of, missed) in per_kind.items():
        shown = ", ".join(fmt_cell(c) for c in missed[:show_missed])
        if len(missed) > show_missed:
            shown += ", ... %d more" % (len(missed) - show_missed)
        print("%-14s %9d %9d  %s" % (kind, n, of, shown or "-"))
    print("cells that cannot be met, by reason:")
    for why, n in reasons.most_common():
        print("  %5d  %s" % (n, why))
    for cell, why in impossible:
        print("FINDING: met %s %s, which cannot be: %s" % (cell[0], fmt_cell(cell), why))
    for cell in unknown:
        print("FINDING: met %s, a cell of no known kind" % " ".join(cell))
    return total_met, total, len(impossible) + len(unknown)


def has_states(target):
    return target in KINDS
