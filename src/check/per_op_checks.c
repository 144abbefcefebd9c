// SPDX-License-Identifier: GPL-2.0
/*
 * The per-op checks (checks.h) and the full check of a node they stand in
 * for between full checks.
 *
 * Full checks walk every bin of a node: O(entries + pool). world.c runs
 * them after every op only while the world is small, and otherwise every
 * full_check_interval ops, after every reclaim walk (O(n) like the walk)
 * and at the end of an input. After every other op it runs the per-op
 * checks: check_node_quick() on every node, check_bin() on the bins the op
 * touched and check_memcg() on the memcg it touched. Why that leaves no
 * hole for a bug in an op to slip through until the next full check:
 *
 * Induction: before the op every check held, so every bin equals the
 * model's and every link is right. An op on memcg m writes (a) m's own
 * fields and links; (b) the links of m's old neighbours, which sit in m's
 * bin before the op (the model's source bin: checked); (c) the links of
 * m's new neighbours and the head or tail[] of the bin the port put m in;
 * (d) nr_memcgs[] and seq (checked against the model on every node, O(24)).
 * For (a) and (c): the model's destination bin is walked (links, tail,
 * exact contents and order). If the port put m anywhere else - another bin,
 * behind a stale cached tail that now sits in another bin, behind an
 * interior node - then either m is missing from (or misplaced in) the
 * destination bin (model.order), or the bin's pprev chain is broken at the
 * neighbour it was linked behind or before (list.links), or m's own pprev /
 * next do not point back at it (check_memcg: list.links), or they point at
 * no live lrugen (list.membership). A tail[] left stale in the source or
 * destination bin is tail.cache there. A reclaim walk may touch any bin of
 * its node and release memcgs everywhere: it gets a full check.
 *
 * What escapes the argument is a write with no trace on m, its bins or its
 * neighbours (e.g. a foreign entry's next made to point at m while m's own
 * links stay right): the scheduled and final full checks catch it, later.
 */
#include "checks.h"
#include "check_parts.h"
#include "model_query.h"
#include "bin_scan.h"

/* ---- what one op touched ---- */

bool check_nr_memcgs_model(const struct mlf_check_state *w, int nid,
			   struct mlf_failure *f)
{
	const struct lru_gen_memcg *lru = &w->nodes[nid].memcg_lru;
	int gen;

	for (gen = 0; gen < MEMCG_NR_GENS; gen++) {
		unsigned long n = model_gen_count(&w->model, nid, gen);

		if (lru->nr_memcgs[gen] == n)
			continue;
		mlf_failure_at(f, "nr_memcgs", nid, gen, MLF_NONE, MLF_NONE);
		mlf_failure_msg(f,
			"nr_memcgs[%d] is %lu but the model's gen %d holds %lu entries",
			gen, lru->nr_memcgs[gen], gen, n);
		return false;
	}
	return true;
}

bool check_node_quick(const struct mlf_check_state *w, int nid,
		      struct mlf_failure *f)
{
	return model_order_seq(w, nid, f) && check_nr_memcgs_model(w, nid, f) &&
	       check_seq_valid_gens(w, nid, f) &&
	       check_seq_old_nonempty(w, nid, f);
}

/* A pointer in the bin that is no live lrugen of the node. */
static bool membership_bin(const struct mlf_check_state *w, int nid, int gen,
			   int bin, struct mlf_failure *f)
{
	struct scan s;

	scan_bin(w, nid, gen, bin, &s);
	if (s.end != SCAN_UNKNOWN)
		return true;
	mlf_failure_at(f, "list.membership", nid, gen, bin, MLF_NONE);
	mlf_failure_msg(f,
		"fifo[%d][%d]: entry %d is %p, the lrugen of no live memcg on node %d (stale or freed pointer)",
		gen, bin, s.len, (void *)s.bad, nid);
	return false;
}

bool check_bin(const struct mlf_check_state *w, int nid, int gen, int bin,
	       struct mlf_failure *f)
{
	bool ok;

	map_prepare(w);
	bin_view_open(w, nid, gen, bin);
	ok = list_links_bin(w, nid, gen, bin, f) &&
	     membership_bin(w, nid, gen, bin, f) &&
	     tail_cache_bin(w, nid, gen, bin, f) &&
	     model_order_bin(w, nid, gen, bin, f);
	bin_view_close();
	return ok;
}

/* The bin whose head's first @pprev is, as gen * MEMCG_NR_BINS + bin, or -1. */
static int head_of(const struct mlf_check_state *w, int nid,
		   struct hlist_nulls_node *const *pprev)
{
	const struct lru_gen_memcg *lru = &w->nodes[nid].memcg_lru;
	int gen, bin;

	for (gen = 0; gen < MEMCG_NR_GENS; gen++)
		for (bin = 0; bin < MEMCG_NR_BINS; bin++)
			if (pprev == &lru->fifo[gen][bin].first)
				return gen * MEMCG_NR_BINS + bin;
	return -1;
}

bool check_memcg(const struct mlf_check_state *w, int nid, int i,
		 struct mlf_failure *f)
{
	const struct lru_gen_folio *lrugen;
	struct hlist_nulls_node *const *pprev;
	const struct hlist_nulls_node *next;
	int head, prev = -1, after;

	map_prepare(w);
	if (i < 0 || i >= w->pool_size)
		return true;
	if (!model_order_memcg(w, nid, i, f))
		return false;
	if (!w->slots[i].memcg)
		return true;
	lrugen = slot_lrugen(w, i, nid);
	if (hlist_nulls_unhashed(&lrugen->list))
		return true;

	/* backwards: a head's first, or the next of a live lrugen */
	pprev = lrugen->list.pprev;
	head = head_of(w, nid, pprev);
	if (head < 0) {
		prev = map_lookup(w, nid,
				  container_of(pprev, struct hlist_nulls_node,
					       next));
		if (prev < 0) {
			mlf_failure_at(f, "list.membership", nid, lrugen->gen,
				       MLF_NONE, i);
			mlf_failure_msg(f,
				"m%d's pprev %p is no bin head's first and no live lrugen's next on node %d",
				i, (void *)pprev, nid);
			return false;
		}
	}
	if (*pprev != &lrugen->list) {
		mlf_failure_at(f, "list.links", nid, lrugen->gen, MLF_NONE, i);
		if (prev >= 0)
			mlf_failure_msg(f,
				"m%d's pprev is m%d's next, which points at %p, not at m%d",
				i, prev, (void *)*pprev, i);
		else
			mlf_failure_msg(f,
				"m%d's pprev is fifo[%d][%d]'s first, which points at %p, not at m%d",
				i, head / MEMCG_NR_BINS, head % MEMCG_NR_BINS,
				(void *)*pprev, i);
		return false;
	}
	if (head >= 0 && head / MEMCG_NR_BINS != lrugen->gen) {
		mlf_failure_at(f, "list.membership", nid, head / MEMCG_NR_BINS,
			       head % MEMCG_NR_BINS, i);
		mlf_failure_msg(f,
			"m%d heads fifo[%d][%d] but its lrugen.gen is %d", i,
			head / MEMCG_NR_BINS, head % MEMCG_NR_BINS, lrugen->gen);
		return false;
	}
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
	if (lrugen->bin != w->model.memcgs[i].bin[nid] ||
	    (head >= 0 && head % MEMCG_NR_BINS != lrugen->bin)) {
		mlf_failure_at(f, "list.membership", nid, lrugen->gen,
			       lrugen->bin, i);
		mlf_failure_msg(f,
			"m%d's lrugen.bin is %d; it sits in bin %d in the model%s",
			i, lrugen->bin, w->model.memcgs[i].bin[nid],
			head >= 0 ? " and heads a bin of another number" : "");
		return false;
	}
#endif

	/* forwards: a live lrugen that points back, or the gen's nulls */
	next = lrugen->list.next;
	if (is_a_nulls(next)) {
		if (get_nulls_value(next) == lrugen->gen)
			return true;
		mlf_failure_at(f, "list.membership", nid, lrugen->gen, MLF_NONE,
			       i);
		mlf_failure_msg(f,
			"m%d ends a list on nulls value %lu but its lrugen.gen is %d",
			i, get_nulls_value(next), lrugen->gen);
		return false;
	}
	after = map_lookup(w, nid, next);
	if (after < 0) {
		mlf_failure_at(f, "list.membership", nid, lrugen->gen, MLF_NONE,
			       i);
		mlf_failure_msg(f,
			"m%d's next %p is the lrugen of no live memcg on node %d",
			i, (void *)next, nid);
		return false;
	}
	if (next->pprev != &lrugen->list.next) {
		mlf_failure_at(f, "list.links", nid, lrugen->gen, MLF_NONE,
			       after);
		mlf_failure_msg(f,
			"m%d follows m%d but its pprev points at %p instead of m%d's next (%p)",
			after, i, (void *)next->pprev, i,
			(void *)&lrugen->list.next);
		return false;
	}
	return true;
}

/* ---- all of a node ---- */

bool check_node_full(const struct mlf_check_state *w, int nid,
		     struct mlf_failure *f)
{
	bool ok;

	map_prepare(w);
	view_open(w, nid);
	ok = check_structure(w, nid, f) && check_model_order(w, nid, f);
	view_close();
	return ok;
}
