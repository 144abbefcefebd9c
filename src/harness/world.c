// SPDX-License-Identifier: GPL-2.0
/*
 * The sequential driver: applies ops to the port and the model, keeps each
 * memcg slot's life cycle honest (an op that does not apply is skipped), and
 * runs the checks after every op. Which checks, when:
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
#include "world.h"

#include <stdlib.h>
#include <string.h>

#include "check/checks.h"
#include "check/fast_checks.h"
#include "check/model_query.h"

#include "states.h"

static struct mlf_model_features variant_features(void)
{
	struct mlf_model_features features = { 0 };

#ifdef CONFIG_LRU_GEN_YOUNG_SKIP
	features.young_skip = true;
#endif
#ifdef CONFIG_LRU_GEN_LOCKRAND
	features.lockrand = true;
#endif
#ifdef MLF_TREE_HAS_OFFLINE_OLD
	features.offline_old = true;
#endif
	return features;
}

/* ---- the map of live lrugens ---- */

int world_lrugen_lookup(const struct mlf_world *w,
			const struct hlist_nulls_node *p, int *nid)
{
	return mlf_lrugen_map_lookup(&w->cs.map, p, nid);
}

static void map_memcg(struct mlf_world *w, int slot, bool add)
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

/* MLF_CHECKS: "full", "touched", or a full check interval. */
static void checks_from_env(struct mlf_world *w)
{
	const char *env = getenv("MLF_CHECKS");
	char *end;
	unsigned long n;

	if (!env || !*env)
		return;
	if (!strcmp(env, "full")) {
		w->full_checks = true;
		return;
	}
	if (!strcmp(env, "touched")) {
		w->full_check_interval = 0;
		w->full_check_small = 0;
		w->final_check = false;
		return;
	}
	n = strtoul(env, &end, 0);
	if (!*end)
		w->full_check_interval = n;
}

/*
 * The slots of the last world destroyed (all empty again) and its array
 * for released memcgs, for the next world: a fuzzer makes one per input,
 * and an input that names a pool of 2048 and onlines three should cost
 * three memcgs, not an allocation of fresh pages for 2048 (ASan's
 * quarantine never hands freed memory straight back).
 */
static struct {
	struct mlf_slot *slots;
	int *released;
	int cap;
} spare;

static void take_storage(struct mlf_world *w)
{
	int pool_size = w->cs.pool_size;

	w->storage_cap = pool_size;
	if (spare.slots && spare.cap >= pool_size) {
		w->cs.slots = spare.slots;
		w->touched.released = spare.released;
		w->storage_cap = spare.cap;
		memset(&spare, 0, sizeof(spare));
		return;
	}
	w->cs.slots = calloc(pool_size, sizeof(*w->cs.slots));
	w->touched.released = calloc(pool_size, sizeof(*w->touched.released));
	if (!w->cs.slots || !w->touched.released)
		abort();
}

/* Every slot is empty again (world_destroy() saw to it): keep the bigger. */
static void keep_storage(struct mlf_world *w)
{
	if (spare.slots && spare.cap >= w->storage_cap) {
		free(w->cs.slots);
		free(w->touched.released);
	} else {
		free(spare.slots);
		free(spare.released);
		spare.slots = w->cs.slots;
		spare.released = w->touched.released;
		spare.cap = w->storage_cap;
	}
	w->cs.slots = NULL;
	w->touched.released = NULL;
}

void world_init(struct mlf_world *w, int nr_nodes, int pool_size)
{
	int nid;

	memset(w, 0, sizeof(*w));
	if (nr_nodes < 1)
		nr_nodes = 1;
	if (nr_nodes > MAX_NUMNODES)
		nr_nodes = MAX_NUMNODES;
	if (pool_size < 1)
		pool_size = 1;
	if (pool_size > MLF_MAX_POOL)
		pool_size = MLF_MAX_POOL;
	w->cs.nr_nodes = nr_nodes;
	w->cs.pool_size = pool_size;
	w->full_checks = false;
	w->full_check_interval = MLF_FULL_CHECK_INTERVAL;
	w->full_check_small = MLF_FULL_CHECK_SMALL;
	w->final_check = true;
	checks_from_env(w);
	w->touched.memcg = MLF_NONE;
	/* one thread: frees run at rcu_barrier(), after a grace period */
	mlf_rcu_defer_callbacks(true);
	nr_node_ids = nr_nodes;
	for (nid = 0; nid < nr_nodes; nid++) {
		w->cs.nodes[nid].node_id = nid;
		lru_gen_init_pgdat(&w->cs.nodes[nid]);
		node_data[nid] = &w->cs.nodes[nid];
	}
	take_storage(w);
	mlf_lrugen_map_init(&w->cs.map, pool_size);
	model_init(&w->cs.model, nr_nodes, pool_size, variant_features());
}

void world_finish(struct mlf_world *w)
{
	if (w->finished)
		return;
	w->finished = true;
	mlf_current_op = MLF_NONE;
	/*
	 * Not again if the last op ended in a full check: it passed, on
	 * this same state (a small world checks in full after every op)
	 */
	if (w->final_check && w->cs.map_kept && !w->checked_in_full)
		world_check_all(w);
}

/* The first slot >= @from that may hold a memcg, or -1. */
static int next_slot(const struct mlf_world *w, int from)
{
	if (w->cs.map_kept)
		return mlf_lrugen_map_next_live(&w->cs.map, from);
	return from < w->cs.pool_size ? from : -1;
}

void world_destroy(struct mlf_world *w)
{
	int i;

	world_finish(w);
	mlf_current_op = MLF_NONE;
	/* the memcgs the map has, or every slot where the driver keeps none */
	for (i = next_slot(w, 0); i >= 0; i = next_slot(w, i + 1)) {
		struct mlf_slot *slot = &w->cs.slots[i];

		if (slot->state == SLOT_EMPTY) {
			memset(slot, 0, sizeof(*slot));
			continue;
		}
		if (slot->state == SLOT_ONLINE) {
			if (slot->css_offlined)
				css_clear_online(slot->memcg);
			else
				css_offline(slot->memcg);
			slot->css_offlined = false;
			mem_cgroup_put(slot->memcg);
		}
		while (slot->refs-- > 0)
			mem_cgroup_put(slot->memcg);
		map_memcg(w, i, false);
		css_release(slot->memcg);
		slot->memcg = NULL;
		slot->state = SLOT_EMPTY;
		slot->refs = 0;
	}
	/* wait for every css_free, so the next run starts from nothing */
	rcu_barrier();
	keep_storage(w);
	mlf_lrugen_map_destroy(&w->cs.map);
	model_destroy(&w->cs.model);
	lockdep_reset();
}

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

/* The cells of an op's memcg before it applies: on its node, or on each. */
static void note_op(const struct mlf_world *w, const struct mlf_op *op)
{
	struct mlf_state_cell c;
	int nid;

	if (!mlf_states)
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
static void note_visit(const struct mlf_world *w, void *obj)
{
	struct lruvec *lruvec = obj;
	struct mlf_state_cell c;
	int slot;

	if (!w)
		return;
	slot = lruvec_memcg(lruvec)->id;
	if (slot < 0 || slot >= w->cs.pool_size)
		return;
	mlf_state_cell_of(&w->cs, slot, lruvec->pgdat->node_id, MLF_OP_RECLAIM,
			  &c);
	mlf_state_note(&c);
}

/* ---- reclaim walk probe: what the walk met ---- */

struct walk_record {
	int failed[MLF_MAX_POOL];
	int nr_failed;
	unsigned long restarts;
};

static struct walk_record *current_walk;

static struct mlf_world *walking;

static void walk_probe(enum mlf_walk_event event, void *obj, long arg)
{
	struct walk_record *rec = current_walk;

	(void)arg;
	if (!rec)
		return;
	if (event == MLF_WALK_VISIT && mlf_states)
		note_visit(walking, obj);
	if (event == MLF_WALK_TRYGET_FAILED && rec->nr_failed < MLF_MAX_POOL)
		rec->failed[rec->nr_failed++] = ((struct mem_cgroup *)obj)->id;
	else if (event == MLF_WALK_RESTART)
		rec->restarts++;
}

/* ---- checks after an op ---- */

static void fail_if(bool ok, struct mlf_failure *f)
{
	if (!ok)
		mlf_fail(f);
}

void world_check_all(struct mlf_world *w)
{
	struct mlf_failure *f = mlf_failure_scratch();
	int nid;

	if (fast_world_full(&w->cs))
		return;
	for (nid = 0; nid < w->cs.nr_nodes; nid++)
		fail_if(check_node_full(&w->cs, nid, f), f);
}

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

static void check_after_op(struct mlf_world *w)
{
	bool full = full_check_due(w);
	struct mlf_failure *f = mlf_failure_scratch();
	int nid;

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

/* ---- ops ---- */

static bool slot_has_ref(const struct mlf_slot *slot)
{
	return slot->state == SLOT_ONLINE || slot->state == SLOT_OFFLINE;
}

static void drop_ref(struct mlf_slot *slot)
{
	if (mem_cgroup_put(slot->memcg))
		slot->state = SLOT_DEAD;
}

struct rotate_before {
	int gen, seg;
};

/*
 * Where the model has memcg @id before the op: seg.semantics's "before",
 * from the model (the port's own fields agreed with it after the last
 * op, but the expected place must not be the port's to give)
 */
static void note_before(struct mlf_world *w, int id,
			struct rotate_before *before)
{
	const struct mlf_model_memcg *mc = &w->cs.model.memcgs[id];
	int nid;

	for (nid = 0; nid < w->cs.nr_nodes; nid++) {
		before[nid].gen = mc->gen[nid];
		before[nid].seg = mc->seg[nid];
	}
}

static void check_rotation(struct mlf_world *w, const struct mlf_op *op,
			   int nid, int rotate_op,
			   const struct rotate_before *before)
{
	struct mlf_failure *f = mlf_failure_scratch();

	fail_if(check_seg_semantics(&w->cs, op, nid, rotate_op, before[nid].gen,
				    before[nid].seg, w->cs.seq_before[nid], f),
		f);
}

static bool apply_reclaim(struct mlf_world *w, const struct mlf_op *op,
			  int nid)
{
	static struct walk_record rec;
	struct scan_control sc = {
		.nr_to_reclaim = mlf_nr_to_reclaim(op->target),
		.priority = 12,
		.proactive = 1,
	};
	struct mlf_failure *f = mlf_failure_scratch();
	int walk_gen = get_memcg_gen(w->cs.seq_before[nid]);
	bool aborted;
	int i;

	rec.nr_failed = 0;
	rec.restarts = 0;
	current_walk = &rec;
	walking = w;
	mlf_walk_probe = walk_probe;
	mlf_shrink_many(NODE_DATA(nid), &sc);
	mlf_walk_probe = NULL;
	current_walk = NULL;
	walking = NULL;

	w->walks++;
	w->restarts += rec.restarts;
	w->last_nr_reclaimed = sc.nr_reclaimed;
	w->last_nr_scanned = sc.nr_scanned;
	aborted = mlf_reclaim_met(&sc);
	/* the walk may touch any bin of its node, and release anywhere */
	w->touched.full_node[nid] = true;
	for (i = 0; i < rec.nr_failed && i < w->cs.pool_size; i++) {
		w->touched.released[w->touched.nr_released++] = rec.failed[i];
		touch_bins(w, rec.failed[i], MLF_NONE);
	}
	model_apply(&w->cs.model, op);
	fail_if(check_reclaim_progress(&w->cs, nid, walk_gen, aborted,
				       rec.failed, rec.nr_failed, f),
		f);
	return true;
}

bool world_apply(struct mlf_world *w, const struct mlf_op *op_in)
{
	struct rotate_before before[MAX_NUMNODES];
	struct mlf_op op = *op_in;
	struct mlf_slot *slot;
	int nid;

	op.memcg %= w->cs.pool_size;
	op.node %= w->cs.nr_nodes;
	if (op.nr_draws > MLF_OP_MAX_DRAWS)
		op.nr_draws = MLF_OP_MAX_DRAWS;
	slot = &w->cs.slots[op.memcg];

	w->cs.map_kept = true;
	w->checked_in_full = false;
	w->last_draws = w->last_nr_reclaimed = w->last_nr_scanned = 0;
	mlf_current_op = w->op_index++;
	w->cs.cur_op_kind = op.kind;
	w->cs.cur_op_node = op.node;
	memset(w->touched.full_node, 0, sizeof(w->touched.full_node));
	memset(w->touched.bins, 0, sizeof(w->touched.bins));
	memset(w->touched.nr_seams, 0, sizeof(w->touched.nr_seams));
	w->touched.memcg = op.memcg;
	w->touched.nr_released = 0;
	/*
	 * seq and the old generation's size before the op, for seq.monotonic,
	 * seq.advance, seg.semantics and reclaim.progress: the model's
	 */
	for (nid = 0; nid < w->cs.nr_nodes; nid++) {
		w->cs.seq_before[nid] = w->cs.model.nodes[nid].seq;
		w->cs.old_count_before[nid] =
			model_gen_count(&w->cs.model, nid,
					get_memcg_gen(w->cs.seq_before[nid]));
	}
	mlf_entropy_bytes(op.draws, op.nr_draws);

	switch (op.kind) {
	case MLF_OP_ONLINE:
		if (slot->state != SLOT_EMPTY)
			goto skip;
		note_op(w, &op);
		slot->memcg = mem_cgroup_alloc(op.memcg);
		slot->state = SLOT_ONLINE;
		slot->refs = 0;
		slot->css_offlined = false;
		map_memcg(w, op.memcg, true);
		mem_cgroup_css_online(slot->memcg);
		model_apply(&w->cs.model, &op);
		touch_bins(w, op.memcg, MLF_NONE);
		break;
	case MLF_OP_CSS_OFFLINE:
		/* offline_css() up to the callback: CSS_ONLINE stays set */
		if (slot->state != SLOT_ONLINE || slot->css_offlined)
			goto skip;
		note_op(w, &op);
		note_before(w, op.memcg, before);
		touch_bins(w, op.memcg, MLF_NONE);
		mem_cgroup_css_offline(slot->memcg);
		slot->css_offlined = true;
		model_apply(&w->cs.model, &op);
		touch_bins(w, op.memcg, MLF_NONE);
#ifdef MLF_TREE_HAS_OFFLINE_OLD
		for (nid = 0; nid < w->cs.nr_nodes; nid++)
			check_rotation(w, &op, nid, MEMCG_LRU_OLD, before);
#endif
		break;
	case MLF_OP_OFFLINE:
		if (slot->state != SLOT_ONLINE)
			goto skip;
		note_op(w, &op);
		note_before(w, op.memcg, before);
		touch_bins(w, op.memcg, MLF_NONE);
		/* offline_css(): the callback (unless css_offline ran it) */
		if (!slot->css_offlined)
			mem_cgroup_css_offline(slot->memcg);
		css_clear_online(slot->memcg);
		model_apply(&w->cs.model, &op);
		touch_bins(w, op.memcg, MLF_NONE);
#ifdef MLF_TREE_HAS_OFFLINE_OLD
		if (!slot->css_offlined)
			for (nid = 0; nid < w->cs.nr_nodes; nid++)
				check_rotation(w, &op, nid, MEMCG_LRU_OLD,
					       before);
#endif
		slot->css_offlined = false;
		slot->state = SLOT_OFFLINE;
		drop_ref(slot);		/* the base reference */
		break;
	case MLF_OP_GET:
		if (!slot_has_ref(slot))
			goto skip;
		note_op(w, &op);
		css_get(slot->memcg);
		slot->refs++;
		model_apply(&w->cs.model, &op);
		break;
	case MLF_OP_PUT:
		if (!slot->refs)
			goto skip;
		note_op(w, &op);
		slot->refs--;
		drop_ref(slot);
		model_apply(&w->cs.model, &op);
		break;
	case MLF_OP_RELEASE:
		if (slot->state != SLOT_DEAD)
			goto skip;
		note_op(w, &op);
		touch_bins(w, op.memcg, MLF_NONE);
		/* from now on a pointer to it in a bin is a stale one */
		map_memcg(w, op.memcg, false);
		css_release(slot->memcg);
		slot->memcg = NULL;
		slot->state = SLOT_EMPTY;
		model_apply(&w->cs.model, &op);
		break;
	case MLF_OP_ROTATE:
		/* a rotation the tree does not have is skipped, as bad ones are */
		if (!slot_has_ref(slot) || !mlf_tree_has_rotation(op.rotate_op))
			goto skip;
		note_op(w, &op);
		note_before(w, op.memcg, before);
		touch_bins(w, op.memcg, op.node);
		mlf_rotate_memcg(get_lruvec(slot->memcg, op.node), op.rotate_op);
		model_apply(&w->cs.model, &op);
		touch_bins(w, op.memcg, op.node);
		check_rotation(w, &op, op.node, op.rotate_op, before);
		break;
	case MLF_OP_SOFT:
#ifdef MLF_TREE_HAS_SOFT_RECLAIM
		if (!slot_has_ref(slot))
			goto skip;
		note_op(w, &op);
		note_before(w, op.memcg, before);
		touch_bins(w, op.memcg, op.node);
		if (op.softirq)
			mlf_softirq_enter();
		lru_gen_soft_reclaim(slot->memcg, op.node);
		if (op.softirq)
			mlf_softirq_exit();
		model_apply(&w->cs.model, &op);
		touch_bins(w, op.memcg, op.node);
		if (before[op.node].seg != MEMCG_LRU_HEAD)
			check_rotation(w, &op, op.node, MEMCG_LRU_HEAD, before);
		break;
#else
		/* the tree has no lru_gen_soft_reclaim() (d5d1712c5928) */
		goto skip;
#endif
	case MLF_OP_SET:
		if (slot->state == SLOT_EMPTY)
			goto skip;
		note_op(w, &op);
		slot->memcg->shrink.below_min = op.below_min;
		slot->memcg->shrink.below_low = op.below_low;
		slot->memcg->shrink.success = op.success;
		slot->memcg->shrink.sizable = op.sizable;
		slot->memcg->shrink.nr_reclaimed = op.nr_reclaimed;
		model_apply(&w->cs.model, &op);
		break;
	case MLF_OP_RECLAIM:
		apply_reclaim(w, &op, op.node);
		break;
	default:
		goto skip;
	}
	w->ops_applied++;
	w->last_draws = mlf_entropy_draws();
	check_after_op(w);
	/* the draws live in this frame: later draws (teardown) read zeros */
	mlf_entropy_bytes(NULL, 0);
	return true;
skip:
	w->ops_skipped++;
	mlf_entropy_bytes(NULL, 0);
	return false;
}
