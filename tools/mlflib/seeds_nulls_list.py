# SPDX-License-Identifier: GPL-2.0
"""The nulls_list target's seeds (tools/mlf corpus): one small scenario per
primitive (and per review case: add_behind behind the tail and behind an
interior node, replace of head / interior / tail, a deleting _safe walk, a
reader whose entry moves), so that replaying the corpus is the target's
unit test. The byte format is the one fuzz/nulls_list.c decodes (the
target has no trace). files(): {name: its bytes}.
"""
import random

KINDS = ["add_head_rcu", "add_tail_rcu", "add_behind", "add_head", "del_rcu",
         "del_init_rcu", "del", "replace_rcu", "replace_init_rcu", "add_fake",
         "walk", "walk_rcu", "walk_safe", "walk_rcu_move", "query"]
OPERANDS = [2, 2, 2, 2, 1, 1, 1, 2, 2, 1, 1, 1, 3, 4, 2]
SAFE_DEL = {"del_rcu": 0, "del_init_rcu": 1, "del": 2}


def encode(lists, nodes, ops):
    """ops: (kind, operand, ...) tuples; missing operands are 0."""
    assert 1 <= lists <= 4 and 1 <= nodes <= 32
    out = bytearray([(lists - 1) | ((nodes - 1) << 2)])
    for kind, *args in ops:
        k = KINDS.index(kind)
        args = [SAFE_DEL.get(a, a) if isinstance(a, str) else a for a in args]
        args += [0] * (OPERANDS[k] - len(args))
        assert len(args) == OPERANDS[k], (kind, args)
        out.append(k)
        out.extend(a & 0xff for a in args)
    return bytes(out)


def fill(kind, lst, ids):
    return [(kind, i, lst) for i in ids]


def seeds():
    s = {}
    s["add_head_rcu"] = (2, 4, fill("add_head_rcu", 0, [0, 1]) + [
        ("add_head_rcu", 2, 1), ("walk", 0), ("walk_rcu", 0), ("walk", 1),
        ("query", 0, 0), ("query", 1, 0), ("query", 3, 1)])
    s["add_tail_rcu"] = (1, 3, fill("add_tail_rcu", 0, [0, 1, 2]) + [
        ("walk", 0), ("walk_rcu", 0), ("query", 2, 0), ("query", 0, 0)])
    s["add_head_plain"] = (2, 3, fill("add_head", 1, [0, 1, 2]) + [
        ("walk", 1), ("walk_rcu", 1), ("query", 0, 1)])
    s["add_behind_tail"] = (1, 4, fill("add_tail_rcu", 0, [0, 1]) + [
        ("add_behind", 2, 1), ("add_behind", 3, 2), ("walk", 0),
        ("walk_rcu", 0), ("del_rcu", 3), ("walk", 0)])
    # the review concern: interior insertion, then the successor's deletion
    s["add_behind_interior"] = (1, 4, fill("add_tail_rcu", 0, [0, 1, 2]) + [
        ("add_behind", 3, 0), ("walk", 0), ("walk_rcu", 0), ("del_rcu", 1),
        ("walk", 0), ("del_rcu", 3), ("walk_rcu", 0)])
    s["add_behind_head_only"] = (2, 3, [
        ("add_head_rcu", 0, 1), ("add_behind", 1, 0), ("add_behind", 2, 0),
        ("walk_rcu", 1), ("del_init_rcu", 2), ("walk", 1)])
    s["del_rcu_positions"] = (1, 5, fill("add_tail_rcu", 0, range(5)) + [
        ("del_rcu", 2), ("walk", 0), ("del_rcu", 0), ("walk", 0),
        ("del_rcu", 4), ("walk", 0), ("del_rcu", 1), ("del_rcu", 3),
        ("query", 0, 0), ("walk", 0),
        # re-adding a deleted entry, as rotation does
        ("add_head_rcu", 0, 0), ("add_tail_rcu", 2, 0), ("walk_rcu", 0)])
    s["del_init_rcu"] = (2, 4, [
        ("del_init_rcu", 3), ("query", 3, 0),
        ("add_head_rcu", 0, 1), ("add_head_rcu", 1, 1),
        ("del_init_rcu", 0), ("del_init_rcu", 0), ("query", 0, 1),
        ("walk", 1), ("del_init_rcu", 1), ("query", 1, 1), ("walk_rcu", 1)])
    s["del_plain"] = (1, 3, fill("add_head", 0, [0, 1, 2]) + [
        ("del", 1), ("walk", 0), ("del", 2), ("del", 0), ("query", 0, 0),
        ("walk", 0), ("add_head", 1, 0), ("walk", 0)])
    s["replace_rcu_positions"] = (2, 7, fill("add_tail_rcu", 0, [0, 1, 2]) + [
        ("replace_rcu", 0, 3), ("walk", 0), ("replace_rcu", 1, 4),
        ("walk", 0), ("replace_rcu", 2, 5), ("walk_rcu", 0),
        ("query", 0, 0), ("add_head_rcu", 0, 1), ("replace_rcu", 0, 6),
        ("walk", 1)])
    s["replace_init_rcu_positions"] = (1, 6, fill("add_tail_rcu", 0,
                                                  [0, 1, 2]) + [
        ("replace_init_rcu", 0, 3), ("replace_init_rcu", 1, 4),
        ("replace_init_rcu", 2, 5), ("walk", 0), ("query", 0, 0),
        ("query", 1, 0), ("replace_init_rcu", 4, 1), ("walk_rcu", 0),
        ("del_init_rcu", 4)])
    s["add_fake"] = (1, 4, [
        ("add_fake", 0), ("query", 0, 0), ("del", 0), ("add_fake", 1),
        ("del_init_rcu", 1), ("add_fake", 2), ("del_rcu", 2),
        ("add_fake", 3), ("add_head_rcu", 3, 0), ("walk", 0),
        ("replace_rcu", 3, 0), ("walk", 0)])
    s["walk_safe_delete"] = (1, 8, fill("add_tail_rcu", 0, range(8)) + [
        ("walk_safe", 0, 0b01010101, "del_rcu"), ("walk", 0),
        ("walk_safe", 0, 0b00000010, "del"), ("walk", 0),
        ("walk_safe", 0, 0xff, "del_init_rcu"), ("walk", 0),
        ("walk_safe", 0, 0xff, "del_rcu"), ("query", 0, 0)])
    s["walk_safe_keep"] = (2, 3, fill("add_head_rcu", 1, [0, 1, 2]) + [
        ("walk_safe", 1, 0, "del_rcu"), ("walk_safe", 0, 0xff, "del"),
        ("walk", 1)])
    s["walk_rcu_move"] = (2, 6, fill("add_tail_rcu", 0, range(4)) +
                          fill("add_tail_rcu", 1, [4, 5]) + [
        ("walk_rcu_move", 0, 1, 1, 0), ("walk", 0), ("walk", 1),
        ("walk_rcu_move", 0, 0, 1, 1), ("walk_rcu_move", 1, 3, 1, 0),
        ("walk_rcu_move", 1, 1, 1, 1), ("walk_rcu_move", 1, 9, 0, 0),
        ("walk_rcu_move", 0, 0, 0, 1)])
    s["empty_lists"] = (4, 2, [("walk", 0), ("walk_rcu", 1),
                                ("walk_safe", 2, 0xff, "del"),
                                ("walk_rcu_move", 3, 0, 0, 0)] +
                        [("query", 0, l) for l in range(4)])
    # precondition misses: each is skipped, none is an error
    s["skipped_preconditions"] = (1, 3, [
        ("del_rcu", 0), ("del", 0), ("replace_rcu", 0, 1),
        ("add_behind", 0, 1), ("add_head_rcu", 0, 0), ("add_head_rcu", 0, 0),
        ("add_tail_rcu", 0, 0), ("add_behind", 0, 0), ("add_fake", 0),
        ("replace_rcu", 0, 0), ("add_head_rcu", 1, 0),
        ("replace_init_rcu", 0, 1), ("del_rcu", 1), ("del_init_rcu", 1),
        ("del", 1), ("walk", 0)])

    rng = random.Random(20241129)
    ops = []
    for _ in range(200):
        # half of the ops add, so that the lists fill up
        k = rng.randrange(len(KINDS)) if rng.randrange(2) else rng.randrange(4)
        ops.append((KINDS[k], *[rng.randrange(256)
                                for _ in range(OPERANDS[k])]))
    s["mixed_4x32"] = (4, 32, ops)
    return s


def files():
    return {name: encode(lists, nodes, ops)
            for name, (lists, nodes, ops) in sorted(seeds().items())}
