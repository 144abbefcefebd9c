// SPDX-License-Identifier: GPL-2.0
/*
 * The sequential driver's observers (world_observers.h), in the order they
 * run: state coverage, the map of live lrugens, the bins an op touched,
 * seg.semantics, reclaim.progress and the checks after every op. Which
 * checks, when:
 *
 *   every op, every node   seq.monotonic, seq.advance, check_node_quick()
 *                          (model seq, nr_memcgs against the model,
 *                          seq.valid_gens, seq.old_nonempty): O(bins)
 *   every op               check_bin() on the model's bins of the op's memcg
 *                          before and after the op, check_memcg() on it
 *                          (src/check/per_op_checks.c argues why that is
 *                          enough)
 *   full check             when full_checks is set; while at most
 *                          full_check_small lrugens are linked (cheap then);
 *                          after a reclaim walk (O(n) anyway); every
 *                          full_check_interval applied ops; world_finish()
 *
 * The map of live lrugens that lets a check vouch for a pointer
 * (check/lrugen_map.h) is kept up to date here, O(nodes) per online and
 * release, instead of being rebuilt per check.
 */
#include "world_observers.h"

#include <string.h>

#include "check/checks.h"
#include "check/fast_checks.h"
#include "check/model_query.h"

#include "states.h"

/* ---- state coverage (states.h) ---- */

/* rotate is split by its rotation: these kinds follow the op kinds */
#define KIND_ROTATE_BASE 24

static int state_kind(const struct mlf_op *op)
{
	if (op->kind == MLF_OP_ROTATE)
		return KIND_ROTATE_BASE + mlf_rotation_index(op->rotate_op);
	return op->kind;
}

void world_states_attach(unsigned char *feedback, size_t size)
{
	static const char *names[ST_NR_KINDS];
	static const char *const rotate_names[] = {
		"rotate-HEAD", "rotate-TAIL", "rotate-OLD", "rotate-YOUNG",
	};
	int k;

	for (k = 0; k < MLF_OP_NR && k < KIND_ROTATE_BASE; k++)
		if (k != MLF_OP_ROTATE)
			names[k] = mlf_op_kind_name(k);
	for (k = 0; k < 4; k++)
		names[KIND_ROTATE_BASE + k] = rotate_names[k];
	mlf_states_attach("memcg_lru", names, ST_NR_KINDS, feedback, size);
}

/*
 * The cells of an op's memcg before it applies: on its node, or on each.
 * A reclaim walk's are the memcgs it visits (states_walk()).
 */
static void states_before(struct mlf_world *w, struct world_op *o)
{
	const struct mlf_op *op = o->op;
	struct mlf_state_cell c;
	int nid;

	if (!mlf_states || op->kind == MLF_OP_RECLAIM)
		return;
	for (nid = 0; nid < w->cs.nr_nodes; nid++) {
		if ((op->kind == MLF_OP_ROTATE || op->kind == MLF_OP_SOFT) &&
		    nid != op->node)
			continue;
		mlf_state_cell_of(&w->cs, op->memcg, nid, state_kind(op), &c);
		mlf_state_note(&c);
		/* no memcg yet: one cell, not one per node */
		if (c.stage == ST_GONE)
			break;
	}
}

/* A reclaim walk's cells: each memcg it visits, as it finds it. */
static void states_walk(struct mlf_world *w, struct world_op *o,
			enum mlf_walk_event event, void *obj)
{
	struct lruvec *lruvec = obj;
	struct mlf_state_cell c;
	int slot;

	(void)o;
	if (event != MLF_WALK_VISIT || !mlf_states)
		return;
	slot = lruvec_memcg(lruvec)->id;
	if (slot < 0 || slot >= w->cs.pool_size)
		return;
	mlf_state_cell_of(&w->cs, slot, lruvec->pgdat->node_id, MLF_OP_RECLAIM,
			  &c);
	mlf_state_note(&c);
}

/* ---- the map of live lrugens ---- */

int world_lrugen_lookup(const struct mlf_world *w,
			const struct hlist_nulls_node *p, int *nid)
{
	return mlf_lrugen_map_lookup(&w->cs.map, p, nid);
}

void world_map_memcg(struct mlf_world *w, int slot, bool add)
{
	struct mem_cgroup *memcg = w->cs.slots[slot].memcg;

	if (!w->cs.map_kept)
		return;
	if (add)
		mlf_lrugen_map_add_memcg(&w->cs.map, memcg, slot,
					 w->cs.nr_nodes);
	else
		mlf_lrugen_map_del_memcg(&w->cs.map, memcg, slot,
					 w->cs.nr_nodes);
}

/* from the release on, a pointer to it in a bin is a stale one */
static void map_before(struct mlf_world *w, struct world_op *o)
{
	if (o->op->kind == MLF_OP_RELEASE)
		world_map_memcg(w, o->op->memcg, false);
}

static void map_after(struct mlf_world *w, struct world_op *o)
{
	if (o->op->kind == MLF_OP_ONLINE)
		world_map_memcg(w, o->op->memcg, true);
}

/* ---- the bins an op touched ---- */

/*
 * Note the model's bins of memcg @id on @nid (every node: MLF_NONE), and
 * its position there: called before an op (where it leaves a seam) and
 * after it (where it landed).
 */
static void touch_bins(struct mlf_world *w, int id, int only)
{
	struct mlf_touched *t = &w->touched;
	int nid, gen, bin, k;

	for (nid = 0; nid < w->cs.nr_nodes; nid++) {
		if ((only != MLF_NONE && nid != only) ||
		    !model_where(&w->cs.model, id, nid, &gen, &bin))
			continue;
		k = gen * MEMCG_NR_BINS + bin;
		t->bins[nid] |= 1u << k;
		if (t->nr_seams[nid] < MLF_TOUCHED_SEAMS) {
			t->seams[nid][t->nr_seams[nid]].bin = k;
			t->seams[nid][t->nr_seams[nid]].at =
				model_index(&w->cs.model, id, nid);
		}
		t->nr_seams[nid]++;
	}
}

/*
 * Where an op moves its memcg, before or after it: on its node (rotate,
 * soft) or on each (*@nodes MLF_NONE); an online has no bins before it, a
 * release none after it.
 */
static bool moves(const struct mlf_op *op, bool after, int *nodes)
{
	*nodes = MLF_NONE;
	switch (op->kind) {
	case MLF_OP_ONLINE:
		return after;
	case MLF_OP_RELEASE:
		return !after;
	case MLF_OP_CSS_OFFLINE:
	case MLF_OP_OFFLINE:
		return true;
	case MLF_OP_ROTATE:
	case MLF_OP_SOFT:
		*nodes = op->node;
		return true;
	default:
		return false;
	}
}

static void touched_before(struct mlf_world *w, struct world_op *o)
{
	const struct mlf_op *op = o->op;
	int nodes;

	memset(w->touched.full_node, 0, sizeof(w->touched.full_node));
	memset(w->touched.bins, 0, sizeof(w->touched.bins));
	memset(w->touched.nr_seams, 0, sizeof(w->touched.nr_seams));
	w->touched.memcg = op->memcg;
	w->touched.nr_released = 0;
	/* the walk may touch any bin of its node, and release anywhere */
	if (op->kind == MLF_OP_RECLAIM)
		w->touched.full_node[op->node] = true;
	else if (moves(op, false, &nodes))
		touch_bins(w, op->memcg, nodes);
}

/* a memcg the walk released: where the model has it still */
static void touched_walk(struct mlf_world *w, struct world_op *o,
			 enum mlf_walk_event event, void *obj)
{
	struct mlf_touched *t = &w->touched;
	int id;

	(void)o;
	if (event != MLF_WALK_TRYGET_FAILED || t->nr_released >= w->cs.pool_size)
		return;
	id = ((struct mem_cgroup *)obj)->id;
	t->released[t->nr_released++] = id;
	touch_bins(w, id, MLF_NONE);
}

static void touched_after(struct mlf_world *w, struct world_op *o)
{
	int nodes;

	if (moves(o->op, true, &nodes))
		touch_bins(w, o->op->memcg, nodes);
}

/* ---- seg.semantics: an op's rotation of its memcg ---- */

static void fail_if(bool ok, struct mlf_failure *f)
{
	if (!ok)
		mlf_fail(f);
}

/*
 * Which rotation the op makes and where the model has its memcg before:
 * seg.semantics's "before", from the model (the port's own fields agreed
 * with it after the last op, but the expected place must not be the
 * port's to give)
 */
static void rotation_before(struct mlf_world *w, struct world_op *o)
{
	const struct mlf_op *op = o->op;
	const struct mlf_model_memcg *mc = &w->cs.model.memcgs[op->memcg];
	int nid;

	o->rotates = true;
	o->rotate_node = op->node;
	switch (op->kind) {
#ifdef MLF_TREE_HAS_OFFLINE_OLD
	case MLF_OP_OFFLINE:
		/* the callback, unless css_offline ran it */
		if (w->cs.slots[op->memcg].css_offlined) {
			o->rotates = false;
			return;
		}
		/* fall through */
	case MLF_OP_CSS_OFFLINE:
		o->rotate_op = MEMCG_LRU_OLD;
		o->rotate_node = MLF_NONE;
		break;
#endif
	case MLF_OP_ROTATE:
		o->rotate_op = op->rotate_op;
		break;
	case MLF_OP_SOFT:
		o->rotate_op = MEMCG_LRU_HEAD;
		o->rotates = mc->seg[op->node] != MEMCG_LRU_HEAD;
		break;
	default:
		o->rotates = false;
		return;
	}
	for (nid = 0; nid < w->cs.nr_nodes; nid++) {
		o->before[nid].gen = mc->gen[nid];
		o->before[nid].seg = mc->seg[nid];
	}
}

static void rotation_after(struct mlf_world *w, struct world_op *o)
{
	struct mlf_failure *f = mlf_failure_scratch();
	int nid;

	if (!o->rotates)
		return;
	for (nid = 0; nid < w->cs.nr_nodes; nid++) {
		if (o->rotate_node != MLF_NONE && nid != o->rotate_node)
			continue;
		fail_if(check_seg_semantics(&w->cs, o->op, nid, o->rotate_op,
					    o->before[nid].gen,
					    o->before[nid].seg,
					    w->cs.seq_before[nid], f),
			f);
	}
}

/* ---- reclaim.progress: what a walk must have done ---- */

static void progress_after(struct mlf_world *w, struct world_op *o)
{
	struct mlf_failure *f = mlf_failure_scratch();
	int nid = o->op->node;

	if (!o->walk)
		return;
	fail_if(check_reclaim_progress(
			&w->cs, nid, mlf_check_gen(w->cs.seq_before[nid]),
			o->aborted, o->walk->failed, o->walk->nr_failed, f),
		f);
}

/* ---- the checks after every op ---- */

void world_check_all(struct mlf_world *w)
{
	struct mlf_failure *f = mlf_failure_scratch();
	int nid;

	if (fast_world_full(&w->cs))
		return;
	for (nid = 0; nid < w->cs.nr_nodes; nid++)
		fail_if(check_node_full(&w->cs, nid, f), f);
}

static void check_touched(struct mlf_world *w)
{
	const struct mlf_touched *t = &w->touched;
	struct mlf_failure *f = mlf_failure_scratch();
	int nid, i, k;

	w->touched_check_runs++;
	for (nid = 0; nid < w->cs.nr_nodes; nid++) {
		if (t->full_node[nid]) {
			/* the model's view of it after seq.advance */
			fail_if(check_structure(&w->cs, nid, f), f);
			continue;
		}
		for (k = 0; k < MEMCG_NR_GENS * MEMCG_NR_BINS; k++)
			if (t->bins[nid] & (1u << k))
				fail_if(check_bin(&w->cs, nid,
						  k / MEMCG_NR_BINS,
						  k % MEMCG_NR_BINS, f),
					f);
		if (t->memcg != MLF_NONE)
			fail_if(check_memcg(&w->cs, nid, t->memcg, f), f);
		for (i = 0; i < t->nr_released; i++)
			fail_if(check_memcg(&w->cs, nid, t->released[i], f), f);
	}
}

void world_check_touched(struct mlf_world *w)
{
	check_touched(w);
}

/*
 * A bin this short is compared whole (cheap, and stronger than the seams);
 * a longer one at its ends and seams only.
 */
#define WHOLE_BIN_MAX 8

/* check_touched()'s checks would pass (fast_checks.h). */
static bool fast_touched(const struct mlf_world *w)
{
	const struct mlf_touched *t = &w->touched;
	struct mlf_failure *f = mlf_failure_scratch();
	int nid, i, k;

	for (nid = 0; nid < w->cs.nr_nodes; nid++) {
		if (t->full_node[nid]) {
			if (!fast_node_full(&w->cs, nid))
				return false;
			continue;
		}
		for (k = 0; k < MEMCG_NR_GENS * MEMCG_NR_BINS; k++) {
			int gen = k / MEMCG_NR_BINS, bin = k % MEMCG_NR_BINS;

			if (!(t->bins[nid] & (1u << k)))
				continue;
			if (t->nr_seams[nid] > MLF_TOUCHED_SEAMS ||
			    w->cs.model.nodes[nid].bins[gen][bin].len <=
				    WHOLE_BIN_MAX) {
				if (!fast_bin_exact(&w->cs, nid, gen, bin))
					return false;
				continue;
			}
			for (i = 0; i < t->nr_seams[nid]; i++)
				if (t->seams[nid][i].bin == k &&
				    !fast_bin_local(&w->cs, nid, gen, bin,
						    t->seams[nid][i].at))
					return false;
		}
		if (t->memcg != MLF_NONE &&
		    !check_memcg(&w->cs, nid, t->memcg, f))
			return false;
		for (i = 0; i < t->nr_released; i++)
			if (!check_memcg(&w->cs, nid, t->released[i], f))
				return false;
	}
	return true;
}

/*
 * check_after_op()'s checks would pass: see there. A full check covers
 * the touched bins and memcgs and check_node_quick()'s counts and seq.
 */
static bool fast_after_op(const struct mlf_world *w, bool full)
{
	struct mlf_failure *f = mlf_failure_scratch();
	int nid;

	for (nid = 0; nid < w->cs.nr_nodes; nid++)
		if (!check_seq_monotonic(&w->cs, nid, f) ||
		    !check_seq_advance(&w->cs, nid, f))
			return false;
	if (full)
		return fast_world_full(&w->cs);
	for (nid = 0; nid < w->cs.nr_nodes; nid++)
		if (!check_node_quick(&w->cs, nid, f))
			return false;
	return fast_touched(w);
}

static bool full_check_due(const struct mlf_world *w)
{
	if (w->full_checks)
		return true;
	if (w->full_check_interval &&
	    w->ops_applied % w->full_check_interval == 0)
		return true;
	return w->full_check_small &&
	       model_nr_linked(&w->cs.model) <= w->full_check_small;
}

static void check_after_op(struct mlf_world *w, struct world_op *o)
{
	bool full = full_check_due(w);
	struct mlf_failure *f = mlf_failure_scratch();
	int nid;

	(void)o;
	/*
	 * Everything below in one pass against the model, naming nothing
	 * (fast_checks.h): a full check covers the touched bins and memcgs.
	 * Only when it finds something do the checks run one by one, to
	 * report it as they always have.
	 */
	if (fast_after_op(w, full)) {
		w->touched_check_runs++;
		w->full_check_runs += full;
		w->checked_in_full = full;
		return;
	}

	/*
	 * Most direct cause first, so that one defect gets one check name
	 * whatever op reaches it: the counts and the touched bins' lists and
	 * tails before seq (a corrupted bin or a lost count also moves seq
	 * wrongly), seq before the comparisons with the model (a seq that did
	 * not move makes every later comparison differ).
	 */
	for (nid = 0; nid < w->cs.nr_nodes; nid++) {
		fail_if(check_seq_monotonic(&w->cs, nid, f), f);
		fail_if(check_nr_memcgs_model(&w->cs, nid, f), f);
	}
	check_touched(w);
	for (nid = 0; nid < w->cs.nr_nodes; nid++) {
		fail_if(check_seq_advance(&w->cs, nid, f), f);
		fail_if(check_node_quick(&w->cs, nid, f), f);
		if (w->touched.full_node[nid])
			fail_if(check_model_order(&w->cs, nid, f), f);
	}
	if (full) {
		w->full_check_runs++;
		world_check_all(w);
		w->checked_in_full = true;
	}
}

/*
 * The map before the checks that read it; the op's own checks
 * (seg.semantics, reclaim.progress) before the general ones, as the most
 * direct cause of what they would find.
 */
const struct world_observer world_observers[] = {
	{ "states", states_before, states_walk, NULL },
	{ "lrugen map", map_before, NULL, map_after },
	{ "touched bins", touched_before, touched_walk, touched_after },
	{ "seg.semantics", rotation_before, NULL, rotation_after },
	{ "reclaim.progress", NULL, NULL, progress_after },
	{ "checks after an op", NULL, NULL, check_after_op },
};
const int world_nr_observers = ARRAY_SIZE(world_observers);
