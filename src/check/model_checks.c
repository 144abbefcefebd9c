// SPDX-License-Identifier: GPL-2.0
/*
 * The checks against what should have happened (checks.h): model.order,
 * the port's bins, seq and memcgs against the reference model's;
 * seg.semantics, where a rotation left its memcg; reclaim.progress, what a
 * walk left of the dead memcgs it met.
 */
#include "checks.h"
#include "check_parts.h"
#include "model_query.h"
#include "bin_scan.h"

/* by mlf_seg_kind() (mm/mmzone.h): the model's segs, and the tree's */
static const char *const seg_names[] = { "default", "head", "tail" };

static const char *seg_name(int seg)
{
	return seg >= 0 && seg < 3 ? seg_names[seg] : "?";
}

/* ---- seg.semantics ---- */

bool check_seg_semantics(const struct mlf_check_state *w,
			 const struct mlf_op *op, int nid, int rotate_op,
			 int gen_before, int seg_before,
			 unsigned long seq_before, struct mlf_failure *f)
{
	int id = op->memcg % w->pool_size;
	const struct mem_cgroup *memcg = w->slots[id].memcg;
	const struct lru_gen_folio *lrugen;
	const char *name;
	int gen, seg, bin = -1, b;
	int want_gen = gen_before, want_seg = MEMCG_LRU_HEAD;
	bool first, last, want_first = true;

	if (mlf_rotation_index(rotate_op) < 0) {
		mlf_failure_at(f, "seg.semantics", nid, MLF_NONE, MLF_NONE, id);
		mlf_failure_msg(f, "m%d: no such rotation %d", id, rotate_op);
		return false;
	}
	name = mlf_rotate_op_name(rotate_op);
	if (!memcg) {
		mlf_failure_at(f, "seg.semantics", nid, MLF_NONE, MLF_NONE, id);
		mlf_failure_msg(f, "m%d is gone after %s", id, name);
		return false;
	}
	lrugen = &get_lruvec((struct mem_cgroup *)memcg, nid)->lrugen;
	if (hlist_nulls_unhashed(&lrugen->list)) {
		mlf_failure_at(f, "seg.semantics", nid, MLF_NONE, MLF_NONE, id);
		mlf_failure_msg(f, "m%d is not linked on node %d after %s", id,
				nid, name);
		return false;
	}
	gen = lrugen->gen;
	seg = lrugen->seg;
	for (b = 0; b < MEMCG_NR_BINS && gen < MEMCG_NR_GENS; b++)
		if (lrugen->list.pprev ==
		    &w->nodes[nid].memcg_lru.fifo[gen][b].first)
			bin = b;
	first = bin >= 0;
	last = is_a_nulls(lrugen->list.next);

	switch (rotate_op) {
	case MEMCG_LRU_HEAD:
		break;
	case MEMCG_LRU_TAIL:
		want_seg = MEMCG_LRU_TAIL;
		want_first = false;
		break;
	case MEMCG_LRU_OLD:
		want_gen = mlf_check_gen(seq_before);
		want_seg = 0;
		break;
	case MEMCG_LRU_YOUNG:
		want_gen = mlf_check_gen(seq_before + 1);
		want_seg = 0;
		want_first = false;
#ifdef CONFIG_LRU_GEN_YOUNG_SKIP
		/* skipped: allowed only from young's default segment */
		if (gen == gen_before && seg == seg_before &&
		    gen_before == want_gen && seg_before == 0)
			return true;
#endif
		break;
	}

	if (gen == want_gen && seg == want_seg &&
	    (want_first ? first : last))
		return true;

	mlf_failure_at(f, "seg.semantics", nid, gen, bin >= 0 ? bin : MLF_NONE,
		       id);
	mlf_failure_msg(f,
		"after %s (before: gen %d seg %s, seq %lu) m%d is in gen %d seg %s, %s its bin; want gen %d seg %s, %s",
		name, gen_before, seg_name(mlf_seg_kind(seg_before)), seq_before, id, gen,
		seg_name(mlf_seg_kind(seg)),
		first && last ? "alone in" :
		first	      ? "first in" :
		last	      ? "last in" :
				"inside",
		want_gen, seg_name(mlf_seg_kind(want_seg)),
		want_first ? "first" : "last");
	return false;
}

/* ---- model.order ---- */

bool model_order_seq(const struct mlf_check_state *w, int nid,
		     struct mlf_failure *f)
{
	unsigned long seq = w->nodes[nid].memcg_lru.seq;

	if (seq == w->model.nodes[nid].seq)
		return true;
	mlf_failure_at(f, "model.order", nid, MLF_NONE, MLF_NONE, MLF_NONE);
	mlf_failure_msg(f, "seq is %lu, the model's %lu", seq,
			w->model.nodes[nid].seq);
	return false;
}

bool model_order_bin(const struct mlf_check_state *w, int nid, int gen, int bin,
		     struct mlf_failure *f)
{
	const struct mlf_model_bin *mb = &w->model.nodes[nid].bins[gen][bin];
	struct scan s;
	int i;

	scan_bin(w, nid, gen, bin, &s);
	if (s.end != SCAN_NULLS) {
		mlf_failure_at(f, "model.order", nid, gen, bin, MLF_NONE);
		mlf_failure_msg(f,
			"fifo[%d][%d] cannot be walked past entry %d (%s)",
			gen, bin, s.len,
			s.end == SCAN_CYCLE ? "a cycle" : "a stale pointer");
		return false;
	}
	for (i = 0; i < s.len || i < mb->len; i++) {
		int port = i < s.len ? w->slots[s.slots[i]].memcg->id : -1;
		int model = i < mb->len ? mb->ids[i] : -1;

		if (port == model)
			continue;
		mlf_failure_at(f, "model.order", nid, gen, bin,
			       port >= 0 ? port : model);
		if (port < 0)
			mlf_failure_msg(f,
				"fifo[%d][%d] position %d: the tree's bin ends (%d entries), the model has m%d",
				gen, bin, i, s.len, model);
		else if (model < 0)
			mlf_failure_msg(f,
				"fifo[%d][%d] position %d: the tree's code has m%d, the model's bin ends (%d entries)",
				gen, bin, i, port, mb->len);
		else
			mlf_failure_msg(f,
				"fifo[%d][%d] position %d: the tree's code has m%d, the model m%d",
				gen, bin, i, port, model);
		return false;
	}
	return true;
}

/* Existence, references, and where it is linked (gen / seg) on @nid. */
bool model_order_memcg(const struct mlf_check_state *w, int nid, int i,
		       struct mlf_failure *f)
{
	const struct mlf_model_memcg *mc = &w->model.memcgs[i];
	struct mem_cgroup *memcg = w->slots[i].memcg;
	const struct lru_gen_folio *lrugen;
	bool linked;
	long refs;

	if (!memcg != !mc->allocated) {
		mlf_failure_at(f, "model.order", nid, MLF_NONE, MLF_NONE, i);
		mlf_failure_msg(f, "m%d %s in the tree's code, %s in the model", i,
				memcg ? "exists" : "does not exist",
				mc->allocated ? "exists" : "does not exist");
		return false;
	}
	if (!memcg)
		return true;
	lrugen = slot_lrugen(w, i, nid);
	linked = !hlist_nulls_unhashed(&lrugen->list);
	refs = atomic_long_read(&memcg->refcnt);
	if (refs != mc->refs) {
		mlf_failure_at(f, "model.order", nid, MLF_NONE, MLF_NONE, i);
		mlf_failure_msg(f, "m%d holds %ld references, %ld in the model",
				i, refs, mc->refs);
		return false;
	}
	if (linked != mc->linked[nid]) {
		mlf_failure_at(f, "model.order", nid, MLF_NONE, MLF_NONE, i);
		mlf_failure_msg(f, "m%d is %s in the tree's code, %s in the model", i,
				linked ? "linked" : "unlinked",
				mc->linked[nid] ? "linked" : "unlinked");
		return false;
	}
	if (linked && (lrugen->gen != mc->gen[nid] ||
		       mlf_seg_kind(lrugen->seg) != mc->seg[nid])) {
		mlf_failure_at(f, "model.order", nid, lrugen->gen, MLF_NONE, i);
		mlf_failure_msg(f,
			"m%d has gen %d seg %s in the tree's code, gen %d seg %s in the model",
			i, lrugen->gen, seg_name(mlf_seg_kind(lrugen->seg)), mc->gen[nid],
			seg_name(mc->seg[nid]));
		return false;
	}
	return true;
}

bool check_model_order(const struct mlf_check_state *w, int nid,
		       struct mlf_failure *f)
{
	int gen, bin, i;

	map_prepare(w);
	if (!model_order_seq(w, nid, f))
		return false;
	for (gen = 0; gen < MEMCG_NR_GENS; gen++)
		for (bin = 0; bin < MEMCG_NR_BINS; bin++)
			if (!model_order_bin(w, nid, gen, bin, f))
				return false;
	/* the memcgs the port or the model has: the others agree (none) */
	for (i = next_memcg_slot(w, 0); i >= 0; i = next_memcg_slot(w, i + 1))
		if (!model_order_memcg(w, nid, i, f))
			return false;
	return true;
}

/* ---- reclaim.progress ---- */

bool check_reclaim_progress(const struct mlf_check_state *w, int nid,
			    int walk_gen, bool aborted, const int *failed,
			    int nr_failed, struct mlf_failure *f)
{
	int i;

	for (i = 0; i < nr_failed; i++) {
		int id = failed[i];
		struct mem_cgroup *memcg;

		if (id < 0 || id >= w->pool_size)
			continue;
		memcg = w->slots[id].memcg;
		/* released and gone since: nothing left to be linked */
		if (!memcg || memcg->id != id)
			continue;
		if (!hlist_nulls_unhashed(&slot_lrugen(w, id, nid)->list)) {
			mlf_failure_at(f, "reclaim.progress", nid,
				       slot_lrugen(w, id, nid)->gen, MLF_NONE,
				       id);
			mlf_failure_msg(f,
				"the walk found m%d dead (tryget failed) but left it linked in gen %d",
				id, slot_lrugen(w, id, nid)->gen);
			return false;
		}
	}
	if (aborted)
		return true;
	map_prepare(w);
	for_each_live_slot(w, i) {
		const struct lru_gen_folio *lrugen;

		if (w->slots[i].state != SLOT_DEAD || !w->slots[i].memcg)
			continue;
		lrugen = slot_lrugen(w, i, nid);
		if (hlist_nulls_unhashed(&lrugen->list) ||
		    lrugen->gen != walk_gen)
			continue;
		mlf_failure_at(f, "reclaim.progress", nid, walk_gen, MLF_NONE,
			       i);
		mlf_failure_msg(f,
			"a whole walk of gen %d left dead m%d linked in it",
			walk_gen, i);
		return false;
	}
	return true;
}
