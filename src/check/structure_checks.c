// SPDX-License-Identifier: GPL-2.0
/*
 * The structure checks of docs/checks.md (checks.h): list.links,
 * list.membership, tail.cache, nr_memcgs and seq.*, each over the bins of
 * one node as walk.c walks them, and check_structure(), all of them in the
 * order that names the most direct cause.
 */
#include "checks.h"
#include "check_parts.h"
#include "bin_scan.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---- list.links ---- */

bool list_links_bin(const struct mlf_check_state *w, int nid, int gen, int bin,
		    struct mlf_failure *f)
{
	const struct hlist_nulls_head *head =
		&w->nodes[nid].memcg_lru.fifo[gen][bin];
	struct hlist_nulls_node *const *want = &head->first;
	int prev = -1, k;
	struct scan s;

	scan_bin(w, nid, gen, bin, &s);
	for (k = 0; k < s.len; k++) {
		const struct hlist_nulls_node *pos =
			&slot_lrugen(w, s.slots[k], nid)->list;
		int slot = s.slots[k];

		if (pos->pprev != want) {
			mlf_failure_at(f, "list.links", nid, gen, bin, slot);
			if (prev < 0)
				mlf_failure_msg(f,
					"fifo[%d][%d]: entry 0 (m%d)'s pprev points at %p instead of the head's first (%p)",
					gen, bin, slot, (void *)pos->pprev,
					(void *)want);
			else
				mlf_failure_msg(f,
					"fifo[%d][%d]: entry %d (m%d)'s pprev points at %p instead of m%d's next (%p)",
					gen, bin, k, slot, (void *)pos->pprev,
					prev, (void *)want);
			return false;
		}
		want = &pos->next;
		prev = slot;
	}
	if (s.end == SCAN_CYCLE) {
		mlf_failure_at(f, "list.links", nid, gen, bin, MLF_NONE);
		mlf_failure_msg(f,
			"fifo[%d][%d]: no nulls marker after %d entries: the list has a cycle",
			gen, bin, s.len);
		return false;
	}
	/* list.membership reports what it cannot vouch for */
	if (s.end == SCAN_UNKNOWN || s.end_value == (unsigned long)gen)
		return true;
	mlf_failure_at(f, "list.links", nid, gen, bin,
		       prev < 0 ? MLF_NONE : prev);
	if (prev < 0)
		mlf_failure_msg(f,
			"fifo[%d][%d]: the empty head holds nulls value %lu instead of its generation %d",
			gen, bin, s.end_value, gen);
	else
		mlf_failure_msg(f,
			"fifo[%d][%d]: ends after m%d on nulls value %lu instead of its generation %d",
			gen, bin, prev, s.end_value, gen);
	return false;
}

bool check_list_links(const struct mlf_check_state *w, int nid,
		      struct mlf_failure *f)
{
	int gen, bin;

	map_prepare(w);
	for (gen = 0; gen < MEMCG_NR_GENS; gen++)
		for (bin = 0; bin < MEMCG_NR_BINS; bin++)
			if (!list_links_bin(w, nid, gen, bin, f))
				return false;
	return true;
}

/* ---- list.membership ---- */

static struct {
	int *count, *gen, *bin;
	int cap;
} where;

bool check_list_membership(const struct mlf_check_state *w, int nid,
			   struct mlf_failure *f)
{
	int gen, bin, i;
	struct scan s;

	map_prepare(w);
	if (w->pool_size > where.cap) {
		int cap = where.cap;

		where.count = grow(where.count, &cap, w->pool_size, sizeof(int));
		where.gen = realloc(where.gen, cap * sizeof(int));
		where.bin = realloc(where.bin, cap * sizeof(int));
		if (!where.gen || !where.bin)
			abort();
		where.cap = cap;
	}
	/* the walks meet live slots only (map_lookup vouches for each) */
	for_each_live_slot(w, i)
		where.count[i] = 0;

	for (gen = 0; gen < MEMCG_NR_GENS; gen++) {
		for (bin = 0; bin < MEMCG_NR_BINS; bin++) {
			scan_bin(w, nid, gen, bin, &s);
			for (i = 0; i < s.len; i++) {
				int slot = s.slots[i];

				if (where.count[slot]++) {
					mlf_failure_at(f, "list.membership",
						       nid, gen, bin, slot);
					mlf_failure_msg(f,
						"m%d is in fifo[%d][%d] (entry %d) and already in fifo[%d][%d]",
						slot, gen, bin, i,
						where.gen[slot],
						where.bin[slot]);
					return false;
				}
				where.gen[slot] = gen;
				where.bin[slot] = bin;
			}
			if (s.end == SCAN_UNKNOWN) {
				mlf_failure_at(f, "list.membership", nid, gen,
					       bin, MLF_NONE);
				mlf_failure_msg(f,
					"fifo[%d][%d]: entry %d is %p, the lrugen of no live memcg on node %d (stale or freed pointer)",
					gen, bin, s.len, (void *)s.bad, nid);
				return false;
			}
		}
	}

	for_each_live_slot(w, i) {
		const struct mlf_slot *slot = &w->slots[i];
		const struct lru_gen_folio *lrugen;
		bool hashed;

		if (!slot->memcg)
			continue;
		lrugen = slot_lrugen(w, i, nid);
		hashed = !hlist_nulls_unhashed(&lrugen->list);
		if (!where.count[i]) {
			if (slot->state != SLOT_DEAD) {
				mlf_failure_at(f, "list.membership", nid,
					       MLF_NONE, MLF_NONE, i);
				mlf_failure_msg(f,
					"m%d is %s but in no bin of node %d",
					i, mlf_slot_state_name(slot->state),
					nid);
				return false;
			}
			if (hashed) {
				mlf_failure_at(f, "list.membership", nid,
					       lrugen->gen, MLF_NONE, i);
				mlf_failure_msg(f,
					"m%d is in no bin of node %d but hashed (pprev %p)",
					i, nid, (void *)lrugen->list.pprev);
				return false;
			}
			continue;
		}
		gen = where.gen[i];
		bin = where.bin[i];
		if (!hashed) {
			mlf_failure_at(f, "list.membership", nid, gen, bin, i);
			mlf_failure_msg(f,
				"m%d sits in fifo[%d][%d] but is unhashed (pprev NULL)",
				i, gen, bin);
			return false;
		}
		if (lrugen->gen != gen) {
			mlf_failure_at(f, "list.membership", nid, gen, bin, i);
			mlf_failure_msg(f,
				"m%d sits in fifo[%d][%d] but its lrugen.gen is %d",
				i, gen, bin, lrugen->gen);
			return false;
		}
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
		if (lrugen->bin != bin) {
			mlf_failure_at(f, "list.membership", nid, gen, bin, i);
			mlf_failure_msg(f,
				"m%d sits in fifo[%d][%d] but its lrugen.bin is %d",
				i, gen, bin, lrugen->bin);
			return false;
		}
#endif
	}
	return true;
}

/* ---- tail.cache ---- */

#ifdef CONFIG_LRU_GEN_TAIL_CACHE
bool tail_cache_bin(const struct mlf_check_state *w, int nid, int gen, int bin,
		    struct mlf_failure *f)
{
	const struct hlist_nulls_node *tail =
		w->nodes[nid].memcg_lru.tail[gen][bin];
	const struct hlist_nulls_node *last;
	int tail_slot, last_slot;
	char what[48];
	struct scan s;

	scan_bin(w, nid, gen, bin, &s);
	/* the list checks report a bin that cannot be walked */
	if (s.end != SCAN_NULLS)
		return true;
	last_slot = s.len ? s.slots[s.len - 1] : -1;
	last = s.len ? &slot_lrugen(w, last_slot, nid)->list : NULL;
	if (tail == last)
		return true;
	tail_slot = tail ? map_lookup(w, nid, tail) : -1;
	if (tail_slot >= 0)
		snprintf(what, sizeof(what), "m%d", tail_slot);
	else
		snprintf(what, sizeof(what), "no live lrugen of node %d", nid);
	mlf_failure_at(f, "tail.cache", nid, gen, bin,
		       tail_slot >= 0 ? tail_slot : last_slot);
	if (!tail)
		mlf_failure_msg(f,
			"tail[%d][%d] is NULL but the bin holds %d entries (last m%d)",
			gen, bin, s.len, last_slot);
	else if (!last)
		mlf_failure_msg(f,
			"tail[%d][%d] points at %p (%s) but the bin is empty",
			gen, bin, (void *)tail, what);
	else
		mlf_failure_msg(f,
			"tail[%d][%d] points at %p (%s) instead of the last entry m%d (%p)",
			gen, bin, (void *)tail, what, last_slot, (void *)last);
	return false;
}
#else
bool tail_cache_bin(const struct mlf_check_state *w, int nid, int gen, int bin,
		    struct mlf_failure *f)
{
	return true;
}
#endif

bool check_tail_cache(const struct mlf_check_state *w, int nid,
		      struct mlf_failure *f)
{
	int gen, bin;

	map_prepare(w);
	for (gen = 0; gen < MEMCG_NR_GENS; gen++)
		for (bin = 0; bin < MEMCG_NR_BINS; bin++)
			if (!tail_cache_bin(w, nid, gen, bin, f))
				return false;
	return true;
}

/* ---- nr_memcgs ---- */

bool check_nr_memcgs(const struct mlf_check_state *w, int nid,
		     struct mlf_failure *f)
{
	const struct lru_gen_memcg *lru = &w->nodes[nid].memcg_lru;
	int gen, bin;
	struct scan s;

	map_prepare(w);
	for (gen = 0; gen < MEMCG_NR_GENS; gen++) {
		unsigned long n = 0;
		bool whole = true;

		for (bin = 0; bin < MEMCG_NR_BINS; bin++) {
			scan_bin(w, nid, gen, bin, &s);
			whole &= s.end == SCAN_NULLS;
			n += s.len;
		}
		/* a count over a broken list would blame the wrong thing */
		if (!whole)
			continue;
		if (lru->nr_memcgs[gen] != n) {
			mlf_failure_at(f, "nr_memcgs", nid, gen, MLF_NONE,
				       MLF_NONE);
			mlf_failure_msg(f,
				"nr_memcgs[%d] is %lu but its bins hold %lu entries",
				gen, lru->nr_memcgs[gen], n);
			return false;
		}
	}
	return true;
}

/* ---- seq.* ---- */

bool check_seq_monotonic(const struct mlf_check_state *w, int nid,
			 struct mlf_failure *f)
{
	unsigned long seq = w->nodes[nid].memcg_lru.seq;

	if (seq >= w->seq_before[nid])
		return true;
	mlf_failure_at(f, "seq.monotonic", nid, MLF_NONE, MLF_NONE, MLF_NONE);
	mlf_failure_msg(f, "seq went down from %lu to %lu", w->seq_before[nid],
			seq);
	return false;
}

bool check_seq_valid_gens(const struct mlf_check_state *w, int nid,
			  struct mlf_failure *f)
{
	unsigned long seq = w->nodes[nid].memcg_lru.seq;
	int old = mlf_check_gen(seq), young = mlf_check_gen(seq + 1);
	int gen, slot = -1, bin = -1;

	map_prepare(w);
	/* with three generations, (seq + 2) % 3 */
	for (gen = 0; gen < MEMCG_NR_GENS; gen++) {
		if (gen == old || gen == young)
			continue;
		bin = first_entry(w, nid, gen, &slot);
		if (bin >= 0)
			break;
	}
	if (bin < 0)
		return true;
	mlf_failure_at(f, "seq.valid_gens", nid, gen, bin,
		       slot >= 0 ? slot : MLF_NONE);
	mlf_failure_msg(f,
		"seq %lu: generation %d is neither old nor young but fifo[%d][%d] holds %s%d",
		seq, gen, gen, bin, slot >= 0 ? "m" : "an unknown entry ", slot);
	return false;
}

bool check_seq_old_nonempty(const struct mlf_check_state *w, int nid,
			    struct mlf_failure *f)
{
	unsigned long seq = w->nodes[nid].memcg_lru.seq;
	int old = mlf_check_gen(seq), young = mlf_check_gen(seq + 1);
	int slot = -1, bin;

	map_prepare(w);
	if (!gen_empty(w, nid, old))
		return true;
	bin = first_entry(w, nid, young, &slot);
	if (bin < 0)
		return true;
	mlf_failure_at(f, "seq.old_nonempty", nid, young, bin,
		       slot >= 0 ? slot : MLF_NONE);
	mlf_failure_msg(f,
		"seq %lu: the old generation %d is empty but the young one %d is not (fifo[%d][%d] holds %s%d)",
		seq, old, young, young, bin, slot >= 0 ? "m" : "an unknown entry ",
		slot);
	return false;
}

/*
 * A reclaim walk on one node releases the dead memcgs it meets on every
 * node, so on the other nodes one op may empty the old generation, then
 * the young one: seq moves twice there.
 */
static bool released_elsewhere(const struct mlf_check_state *w, int nid)
{
	return w->cur_op_kind == MLF_OP_RECLAIM && w->cur_op_node != nid;
}

static bool node_empty(const struct mlf_check_state *w, int nid)
{
	int gen;

	for (gen = 0; gen < MEMCG_NR_GENS; gen++)
		if (!gen_empty(w, nid, gen))
			return false;
	return true;
}

bool check_seq_advance(const struct mlf_check_state *w, int nid,
		       struct mlf_failure *f)
{
	unsigned long before = w->seq_before[nid];
	unsigned long after = w->nodes[nid].memcg_lru.seq;
	unsigned long count_before = w->old_count_before[nid];
	int old_before = mlf_check_gen(before);
	bool emptied = gen_empty(w, nid, old_before);

	map_prepare(w);
	/* twice: old emptied, then young (now old); nothing can be left */
	if (after == before + 2 && released_elsewhere(w, nid) &&
	    node_empty(w, nid))
		return true;
	if (after != before && after != before + 1) {
		mlf_failure_at(f, "seq.advance", nid, old_before, MLF_NONE,
			       MLF_NONE);
		mlf_failure_msg(f,
			"seq went from %lu to %lu in one op: it moves by at most one",
			before, after);
		return false;
	}
	if (after == before && count_before && emptied) {
		mlf_failure_at(f, "seq.advance", nid, old_before, MLF_NONE,
			       MLF_NONE);
		mlf_failure_msg(f,
			"the op emptied the old generation %d (%lu entries before, 0 now) but seq stayed at %lu",
			old_before, count_before, after);
		return false;
	}
	if (after == before + 1 && !emptied) {
		mlf_failure_at(f, "seq.advance", nid, old_before, MLF_NONE,
			       MLF_NONE);
		mlf_failure_msg(f,
			"seq advanced from %lu to %lu but the old generation %d still holds %d entries",
			before, after, old_before,
			count_gen_scanned(w, nid, old_before));
		return false;
	}
	return true;
}

/* ---- all of the structure ---- */

bool check_structure(const struct mlf_check_state *w, int nid,
		     struct mlf_failure *f)
{
	/*
	 * The others would follow the pointers that list.links found bad.
	 * tail.cache before list.membership: a stale cached tail links the
	 * next memcg behind an unlinked node, so the memcg is "in no bin" as
	 * a consequence; name the cause.
	 */
	return check_list_links(w, nid, f) && check_tail_cache(w, nid, f) &&
	       check_list_membership(w, nid, f) && check_nr_memcgs(w, nid, f) &&
	       check_seq_valid_gens(w, nid, f) &&
	       check_seq_old_nonempty(w, nid, f);
}
