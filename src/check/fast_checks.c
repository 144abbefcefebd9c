// SPDX-License-Identifier: GPL-2.0
/*
 * The fast predicates of fast_checks.h. Each condition below is one the
 * checks of structure_checks.c, model_checks.c or per_op_checks.c hold the
 * port to, restated against the model so that it needs no walk through the
 * map: the model says which memcg must sit at each position, so the port's
 * pointer there must be that memcg's lrugen, and a pointer that is not is
 * a failure whatever it points at (the checks then find out what).
 */
#include "fast_checks.h"

#include <string.h>

#include "model_query.h"
#include "bin_scan.h"

static inline const struct lru_gen_folio *lrugen_of(const struct mlf_check_state *w,
					     int id, int nid)
{
	struct mem_cgroup *memcg;

	if (id < 0 || id >= w->pool_size)
		return NULL;
	/* the map of a driver that keeps it knows the live slots' lrugens */
	if (w->map_kept)
		return mlf_lrugen_map_lrugen(&w->map, id, nid);
	memcg = w->slots[id].memcg;
	return memcg ? &get_lruvec(memcg, nid)->lrugen : NULL;
}

/* The nulls marker that ends a list of @gen (read with no walk probe). */
static const struct hlist_nulls_node *nulls_of(int gen)
{
	return (const struct hlist_nulls_node *)NULLS_MARKER(gen);
}

/*
 * Entries @from..@to - 1 of the model's bin @mb (fifo[@gen][@bin] of @nid):
 * the port has each memcg's lrugen there, linked both ways to its
 * neighbours (the head, the next entry or the nulls of @gen), with the
 * model's gen, bin and seg. One pass, each lrugen looked up once.
 */
static bool entries_ok(const struct mlf_check_state *w, int nid, int gen,
		       int bin, const struct mlf_model_bin *mb, int from,
		       int to)
{
	const struct mlf_model_memcg *memcgs = w->model.memcgs;
	struct hlist_nulls_node *const *want;
	const struct lru_gen_folio *cur;
	int k;

	if (from >= to)
		return true;
	if (from == 0) {
		want = &w->nodes[nid].memcg_lru.fifo[gen][bin].first;
	} else {
		const struct lru_gen_folio *prev =
			lrugen_of(w, mb->ids[from - 1], nid);

		if (!prev)
			return false;
		want = &prev->list.next;
	}
	cur = lrugen_of(w, mb->ids[from], nid);
	for (k = from; k < to; k++) {
		const struct lru_gen_folio *after = NULL;
		const struct hlist_nulls_node *pos;

		if (!cur)
			return false;
		pos = &cur->list;
		if (pos->pprev != want || *want != pos)
			return false;
		if (k < mb->len - 1) {
			after = lrugen_of(w, mb->ids[k + 1], nid);
			if (!after || pos->next != &after->list)
				return false;
		} else if (pos->next != nulls_of(gen)) {
			return false;
		}
		/* the tree's seg as the model names it (mm-new has no HEAD) */
		if (cur->gen != gen ||
		    mlf_seg_kind(cur->seg) != memcgs[mb->ids[k]].seg[nid])
			return false;
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
		if (cur->bin != bin)
			return false;
#endif
		want = &pos->next;
		cur = after;
	}
	return true;
}

/*
 * An empty bin's head and cached tail; else the cached tail against the
 * model's last entry (the entries' links are entries_ok()'s).
 */
static bool tail_ok(const struct mlf_check_state *w, int nid, int gen, int bin,
		    const struct mlf_model_bin *mb)
{
	const struct lru_gen_memcg *lru = &w->nodes[nid].memcg_lru;
	const struct lru_gen_folio *last;

	if (!mb->len) {
		if (lru->fifo[gen][bin].first != nulls_of(gen))
			return false;
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
		if (lru->tail[gen][bin])
			return false;
#endif
		return true;
	}
	last = lrugen_of(w, mb->ids[mb->len - 1], nid);
	if (!last)
		return false;
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
	if (lru->tail[gen][bin] != &last->list)
		return false;
#endif
	return true;
}

bool fast_bin_exact(const struct mlf_check_state *w, int nid, int gen,
		    int bin)
{
	const struct mlf_model_bin *mb = &w->model.nodes[nid].bins[gen][bin];

	return tail_ok(w, nid, gen, bin, mb) &&
	       entries_ok(w, nid, gen, bin, mb, 0, mb->len);
}

bool fast_bin_local(const struct mlf_check_state *w, int nid, int gen,
		    int bin, int at)
{
	const struct mlf_model_bin *mb = &w->model.nodes[nid].bins[gen][bin];
	int len = mb->len;

	/* the head and the tail entries, then the ones around @at */
	if (!tail_ok(w, nid, gen, bin, mb) ||
	    !entries_ok(w, nid, gen, bin, mb, 0, min(len, 1)) ||
	    !entries_ok(w, nid, gen, bin, mb, max(len - 1, 1), len))
		return false;
	return at < 0 || entries_ok(w, nid, gen, bin, mb, max(at - 1, 1),
				    min(at + 2, len - 1));
}

/*
 * seq.valid_gens and seq.old_nonempty on the entries of each generation:
 * a generation neither old nor young (with three, (seq + 2) % 3) is empty,
 * and the old one is empty only if the young one is
 */
static bool gens_ok(const unsigned long *count, unsigned long seq)
{
	int old = mlf_check_gen(seq), young = mlf_check_gen(seq + 1), gen;

	for (gen = 0; gen < MEMCG_NR_GENS; gen++)
		if (gen != old && gen != young && count[gen])
			return false;
	return count[old] || !count[young];
}

/*
 * The bins of @nid against the model's (list.links, tail.cache,
 * model.order's bins, nr_memcgs, seq.valid_gens, seq.old_nonempty): the
 * number of entries they hold, or -1.
 */
static long fast_bins(const struct mlf_check_state *w, int nid)
{
	const struct lru_gen_memcg *lru = &w->nodes[nid].memcg_lru;
	const struct mlf_model_node *node = &w->model.nodes[nid];
	unsigned long count[MEMCG_NR_GENS], seq = lru->seq;
	long entries;
	int gen, bin;

	if (seq != node->seq)
		return -1;
	for (gen = 0; gen < MEMCG_NR_GENS; gen++) {
		count[gen] = 0;
		for (bin = 0; bin < MEMCG_NR_BINS; bin++) {
			const struct mlf_model_bin *mb = &node->bins[gen][bin];

			/* most bins are empty: their head and tail, inline */
			if (!mb->len) {
				if (lru->fifo[gen][bin].first != nulls_of(gen))
					return -1;
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
				if (lru->tail[gen][bin])
					return -1;
#endif
				continue;
			}
			if (!fast_bin_exact(w, nid, gen, bin))
				return -1;
			count[gen] += mb->len;
		}
		if (lru->nr_memcgs[gen] != count[gen])
			return -1;
	}
	/*
	 * seq.valid_gens and seq.old_nonempty, on the port's bins (the
	 * model's, as just checked)
	 */
	if (!gens_ok(count, seq))
		return -1;
	for (gen = 0, entries = 0; gen < MEMCG_NR_GENS; gen++)
		entries += count[gen];
	return entries;
}

/*
 * list.membership and model.order's memcgs on the nodes whose bins held
 * @entries[nid]: each memcg of the port or the model is in both, with the
 * model's references, linked where the model has it linked (and then in a
 * bin just checked to be the model's), else dead and unhashed; and the
 * bins hold nothing else. One pass over the memcgs for every node.
 */
static bool fast_memcgs(const struct mlf_check_state *w, int from, int to,
			const long *entries)
{
	long linked[MAX_NUMNODES] = { 0 };
	int nid, i;

	for (i = next_memcg_slot(w, 0); i >= 0; i = next_memcg_slot(w, i + 1)) {
		const struct mlf_model_memcg *mc = &w->model.memcgs[i];
		struct mem_cgroup *memcg = w->slots[i].memcg;

		if (!memcg != !mc->allocated)
			return false;
		if (!memcg)
			continue;
		if (atomic_long_read(&memcg->refcnt) != mc->refs)
			return false;
		for (nid = from; nid < to; nid++) {
			bool hashed =
				!hlist_nulls_unhashed(&lrugen_of(w, i, nid)->list);

			if (hashed != mc->linked[nid])
				return false;
			if (hashed)
				linked[nid]++;
			else if (w->slots[i].state != SLOT_DEAD)
				return false;
		}
	}
	for (nid = from; nid < to; nid++)
		if (linked[nid] != entries[nid])
			return false;
	return true;
}

bool fast_node_full(const struct mlf_check_state *w, int nid)
{
	long entries[MAX_NUMNODES];

	map_prepare(w);
	entries[nid] = fast_bins(w, nid);
	return entries[nid] >= 0 && fast_memcgs(w, nid, nid + 1, entries);
}

bool fast_world_full(const struct mlf_check_state *w)
{
	long entries[MAX_NUMNODES];
	int nid;

	map_prepare(w);
	for (nid = 0; nid < w->nr_nodes; nid++) {
		entries[nid] = fast_bins(w, nid);
		if (entries[nid] < 0)
			return false;
	}
	return fast_memcgs(w, 0, w->nr_nodes, entries);
}

bool fast_structure(const struct mlf_check_state *w, int nid)
{
	static unsigned int *stamp, now;
	static int cap;
	const struct lru_gen_memcg *lru = &w->nodes[nid].memcg_lru;
	unsigned long count[MEMCG_NR_GENS], seq = lru->seq;
	int gen, bin, i;

	if (!w->map_kept)
		return false;
	if (w->pool_size > cap) {
		stamp = grow(stamp, &cap, w->pool_size, sizeof(*stamp));
		memset(stamp, 0, cap * sizeof(*stamp));
		now = 0;
	}
	/* a fresh mark for this call: a slot met twice is in two places */
	if (!++now) {
		memset(stamp, 0, cap * sizeof(*stamp));
		now = 1;
	}
	for (gen = 0; gen < MEMCG_NR_GENS; gen++) {
		count[gen] = 0;
		for (bin = 0; bin < MEMCG_NR_BINS; bin++) {
			const struct hlist_nulls_head *head = &lru->fifo[gen][bin];
			struct hlist_nulls_node *const *want = &head->first;
			const struct hlist_nulls_node *pos = head->first;
			const struct hlist_nulls_node *last = NULL;

			while (!is_a_nulls(pos)) {
				const struct lru_gen_folio *lrugen;
				int slot = map_lookup(w, nid, pos);

				/* unknown, met twice, or more than the pool */
				if (slot < 0 || stamp[slot] == now)
					return false;
				stamp[slot] = now;
				lrugen = container_of(pos, struct lru_gen_folio, list);
				if (pos->pprev != want || lrugen->gen != gen)
					return false;
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
				if (lrugen->bin != bin)
					return false;
#endif
				want = &pos->next;
				last = pos;
				pos = pos->next;
				count[gen]++;
			}
			if (pos != nulls_of(gen))
				return false;
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
			if (lru->tail[gen][bin] != last)
				return false;
#endif
			(void)last;
		}
		if (lru->nr_memcgs[gen] != count[gen])
			return false;
	}
	if (!gens_ok(count, seq))
		return false;
	/* a live memcg in no bin: dead (tryget fails) and unhashed */
	for_each_live_slot(w, i) {
		if (stamp[i] == now)
			continue;
		if (w->slots[i].state != SLOT_DEAD ||
		    !hlist_nulls_unhashed(&get_lruvec(w->slots[i].memcg, nid)->lrugen.list))
			return false;
	}
	return true;
}
