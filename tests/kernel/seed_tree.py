#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Make a copy of a Linux 6.12 tree with the seed series (1-5) hand-applied.

The seed patches (../shared/seeds/000) are against a later kernel; this
applies their substance to 6.12's text: hlist_nulls_add_behind_rcu(),
lru_gen_{add,del}_memcg() with a cached tail per bin (tail[][] and
lrugen->bin), the YOUNG skip, and the cond_resched points in shrink_many().
Each edit must match exactly once. Used by test_extract.py to show that the
cutter takes added helpers and fields and detects the features.

usage: seed_tree.py TREE DEST
"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.realpath(__file__)))), "kernel"))
import extract  # noqa: E402

ADD_BEHIND = """
static inline void hlist_nulls_add_behind_rcu(struct hlist_nulls_node *n,
					      struct hlist_nulls_node *last)
{
	WRITE_ONCE(n->next, last->next);
	WRITE_ONCE(n->pprev, &last->next);
	rcu_assign_pointer(hlist_nulls_next_rcu(last), n);
}

/**
 * hlist_nulls_add_tail_rcu"""

HELPERS = """
static void lru_gen_add_memcg(struct lru_gen_memcg *memcg_lru,
			      struct lru_gen_folio *lrugen,
			      int gen, int bin, bool at_head)
{
	struct hlist_nulls_head *head = &memcg_lru->fifo[gen][bin];
	struct hlist_nulls_node *last = memcg_lru->tail[gen][bin];

	lockdep_assert_held(&memcg_lru->lock);

	lrugen->bin = bin;

	if (at_head || !last)
		hlist_nulls_add_head_rcu(&lrugen->list, head);
	else
		hlist_nulls_add_behind_rcu(&lrugen->list, last);

	if (!at_head || !last)
		memcg_lru->tail[gen][bin] = &lrugen->list;
}

static void lru_gen_del_memcg(struct lru_gen_memcg *memcg_lru,
			      struct lru_gen_folio *lrugen,
			      int gen)
{
	const int bin = lrugen->bin;
	struct hlist_nulls_head *head = &memcg_lru->fifo[gen][bin];

	lockdep_assert_held(&memcg_lru->lock);

	/* pprev points to head->first for the only entry, otherwise prev->next. */
	if (memcg_lru->tail[gen][bin] == &lrugen->list)
		memcg_lru->tail[gen][bin] = lrugen->list.pprev == &head->first
			? NULL
			: container_of(lrugen->list.pprev, struct hlist_nulls_node, next);

	/* Keep next intact for readers that still hold this entry. "}{" */
	hlist_nulls_del_init_rcu(&lrugen->list);
}

static void lru_gen_rotate_memcg"""

EDITS = {
    extract.RCULIST_NULLS: [("\n/**\n * hlist_nulls_add_tail_rcu", ADD_BEHIND)],
    extract.MMZONE: [
        ("\t/* the list segment this lru_gen_folio belongs to */\n\tu8 seg;\n",
         "\t/* the list segment this lru_gen_folio belongs to */\n\tu8 seg;\n"
         "\t/* the memcg bin, protected by memcg_lru.lock */\n\tu8 bin;\n"),
        ("\tstruct hlist_nulls_head\tfifo[MEMCG_NR_GENS][MEMCG_NR_BINS];\n",
         "\tstruct hlist_nulls_head\tfifo[MEMCG_NR_GENS][MEMCG_NR_BINS];\n"
         "\t/* last entry in each bin, or NULL if empty */\n"
         "\tstruct hlist_nulls_node *tail[MEMCG_NR_GENS][MEMCG_NR_BINS];\n"),
    ],
    extract.VMSCAN: [
        ("\nstatic void lru_gen_rotate_memcg", HELPERS),
        ("\tWRITE_ONCE(lruvec->lrugen.seg, seg);\n\tWRITE_ONCE(lruvec->lrugen.gen, new);\n\n"
         "\thlist_nulls_del_rcu(&lruvec->lrugen.list);\n\n"
         "\tif (op == MEMCG_LRU_HEAD || op == MEMCG_LRU_OLD)\n"
         "\t\thlist_nulls_add_head_rcu(&lruvec->lrugen.list, &pgdat->memcg_lru.fifo[new][bin]);\n"
         "\telse\n"
         "\t\thlist_nulls_add_tail_rcu(&lruvec->lrugen.list, &pgdat->memcg_lru.fifo[new][bin]);\n",
         "\tif (op == MEMCG_LRU_YOUNG && old == new && lruvec->lrugen.seg == seg)\n"
         "\t\t/* already young and default: reshuffling cannot help */\n"
         "\t\tgoto unlock;\n\n"
         "\tWRITE_ONCE(lruvec->lrugen.seg, seg);\n\tWRITE_ONCE(lruvec->lrugen.gen, new);\n\n"
         "\tlru_gen_del_memcg(&pgdat->memcg_lru, &lruvec->lrugen, old);\n"
         "\tlru_gen_add_memcg(&pgdat->memcg_lru, &lruvec->lrugen, new, bin,\n"
         "\t\t\t  op == MEMCG_LRU_HEAD || op == MEMCG_LRU_OLD);\n"),
        ("\t\tWRITE_ONCE(pgdat->memcg_lru.seq, pgdat->memcg_lru.seq + 1);\n\n"
         "\tspin_unlock_irqrestore",
         "\t\tWRITE_ONCE(pgdat->memcg_lru.seq, pgdat->memcg_lru.seq + 1);\n"
         "unlock:\n\tspin_unlock_irqrestore"),
        ("\t\thlist_nulls_add_tail_rcu(&lruvec->lrugen.list, &pgdat->memcg_lru.fifo[gen][bin]);\n",
         "\t\tlru_gen_add_memcg(&pgdat->memcg_lru, &lruvec->lrugen, gen, bin, false);\n"),
        ("\t\thlist_nulls_del_init_rcu(&lruvec->lrugen.list);\n\t\tpgdat->memcg_lru.nr_memcgs[gen]--;",
         "\t\tlru_gen_del_memcg(&pgdat->memcg_lru, &lruvec->lrugen, gen);\n"
         "\t\tpgdat->memcg_lru.nr_memcgs[gen]--;"),
        ("restart:\n\top = 0;\n",
         "restart:\n\t/* Yield between bins/retries that contain only skipped entries. */\n"
         "\tcond_resched_tasks_rcu_qs();\n\n\top = 0;\n"),
        ("\t\top = shrink_one(lruvec, sc);\n\n\t\trcu_read_lock();\n",
         "\t\top = shrink_one(lruvec, sc);\n\n\t\tcond_resched_tasks_rcu_qs();\n\n"
         "\t\trcu_read_lock();\n"),
        ("\t\tfor (j = 0; j < MEMCG_NR_BINS; j++)\n"
         "\t\t\tINIT_HLIST_NULLS_HEAD(&pgdat->memcg_lru.fifo[i][j], i);\n",
         "\t\tfor (j = 0; j < MEMCG_NR_BINS; j++) {\n"
         "\t\t\tINIT_HLIST_NULLS_HEAD(&pgdat->memcg_lru.fifo[i][j], i);\n"
         "\t\t\tpgdat->memcg_lru.tail[i][j] = NULL;\n\t\t}\n"),
    ],
}


def make(tree, dest, cache):
    extract.copy_tree(tree, dest, cache)
    for rel, edits in EDITS.items():
        path = os.path.join(dest, rel)
        with open(path, encoding="utf-8", errors="surrogateescape") as f:
            text = f.read()
        for old, new in edits:
            if text.count(old) != 1:
                raise SystemExit("seed_tree: %s: an edit matches %d times: %r"
                                 % (rel, text.count(old), old[:60]))
            text = text.replace(old, new)
        with open(path, "w", encoding="utf-8", errors="surrogateescape") as f:
            f.write(text)


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__.strip().splitlines()[-1])
    make(sys.argv[1], sys.argv[2], os.path.join(sys.argv[2], ".cache"))
