// SPDX-License-Identifier: GPL-2.0
/*
 * The sequential driver: applies ops to the port and the model, keeps each
 * memcg slot's life cycle honest (an op that does not apply is skipped), and
 * runs the checks after every op.
 */
#include "world.h"

#include <stdlib.h>
#include <string.h>

#include "../check/checks.h"

static const char *const op_kind_names[MLF_OP_NR] = {
	[MLF_OP_ONLINE] = "online",   [MLF_OP_OFFLINE] = "offline",
	[MLF_OP_GET] = "get",	      [MLF_OP_PUT] = "put",
	[MLF_OP_RELEASE] = "release", [MLF_OP_ROTATE] = "rotate",
	[MLF_OP_SOFT] = "soft",	      [MLF_OP_SET] = "set",
	[MLF_OP_RECLAIM] = "reclaim",
};

static const char *const rotate_op_names[] = {
	[MEMCG_LRU_NOP] = "NOP",   [MEMCG_LRU_HEAD] = "HEAD",
	[MEMCG_LRU_TAIL] = "TAIL", [MEMCG_LRU_OLD] = "OLD",
	[MEMCG_LRU_YOUNG] = "YOUNG",
};

const char *mlf_op_kind_name(int kind)
{
	return kind >= 0 && kind < MLF_OP_NR ? op_kind_names[kind] : "?";
}

const char *mlf_rotate_op_name(int op)
{
	return op >= 0 && op <= MEMCG_LRU_YOUNG ? rotate_op_names[op] : "?";
}

static struct mlf_model_features variant_features(void)
{
	struct mlf_model_features features = { 0 };

#ifdef CONFIG_LRU_GEN_YOUNG_SKIP
	features.young_skip = true;
#endif
#ifdef CONFIG_LRU_GEN_LOCKRAND
	features.lockrand = true;
#endif
	return features;
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
	w->nr_nodes = nr_nodes;
	w->pool_size = pool_size;
	w->full_checks = true;
	/* one thread: frees run at rcu_barrier(), after a grace period */
	mlf_rcu_defer_callbacks(true);
	nr_node_ids = nr_nodes;
	for (nid = 0; nid < nr_nodes; nid++) {
		w->nodes[nid].node_id = nid;
		lru_gen_init_pgdat(&w->nodes[nid]);
		node_data[nid] = &w->nodes[nid];
	}
	w->slots = calloc(pool_size, sizeof(*w->slots));
	model_init(&w->model, nr_nodes, pool_size, variant_features());
}

void world_destroy(struct mlf_world *w)
{
	int i;

	mlf_current_op = MLF_NONE;
	for (i = 0; i < w->pool_size; i++) {
		struct mlf_slot *slot = &w->slots[i];

		if (slot->state == SLOT_EMPTY)
			continue;
		if (slot->state == SLOT_ONLINE) {
			mem_cgroup_css_offline(slot->memcg);
			mem_cgroup_put(slot->memcg);
		}
		while (slot->refs-- > 0)
			mem_cgroup_put(slot->memcg);
		css_release(slot->memcg);
		slot->memcg = NULL;
		slot->state = SLOT_EMPTY;
	}
	/* wait for every css_free, so the next run starts from nothing */
	rcu_barrier();
	free(w->slots);
	w->slots = NULL;
	model_destroy(&w->model);
	lockdep_reset();
}

/* ---- reclaim walk probe: what the walk met ---- */

struct walk_record {
	int failed[MLF_MAX_POOL];
	int nr_failed;
	unsigned long restarts;
};

static struct walk_record *current_walk;

static void walk_probe(enum mlf_walk_event event, void *obj, long arg)
{
	struct walk_record *rec = current_walk;

	(void)arg;
	if (!rec)
		return;
	if (event == MLF_WALK_TRYGET_FAILED && rec->nr_failed < MLF_MAX_POOL)
		rec->failed[rec->nr_failed++] = ((struct mem_cgroup *)obj)->id;
	else if (event == MLF_WALK_RESTART)
		rec->restarts++;
}

/* ---- checks after an op ---- */

static unsigned long count_gen(const struct pglist_data *pgdat, int gen)
{
	return pgdat->memcg_lru.nr_memcgs[gen];
}

static void fail_if(bool ok, struct mlf_failure *f)
{
	if (!ok)
		mlf_fail(f);
}

void world_check_all(struct mlf_world *w)
{
	struct mlf_failure f;
	int nid;

	for (nid = 0; nid < w->nr_nodes; nid++) {
		fail_if(check_structure(w, nid, &f), &f);
		fail_if(check_model_order(w, nid, &f), &f);
	}
}

static void check_after_op(struct mlf_world *w)
{
	struct mlf_failure f;
	int nid;

	for (nid = 0; nid < w->nr_nodes; nid++) {
		fail_if(check_seq_monotonic(w, nid, &f), &f);
		fail_if(check_seq_advance(w, nid, &f), &f);
	}
	if (w->full_checks ||
	    (w->full_check_interval &&
	     w->ops_applied % w->full_check_interval == 0))
		world_check_all(w);
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

static void note_before(struct mlf_world *w, struct mem_cgroup *memcg,
			struct rotate_before *before)
{
	int nid;

	for (nid = 0; nid < w->nr_nodes; nid++) {
		before[nid].gen = get_lruvec(memcg, nid)->lrugen.gen;
		before[nid].seg = get_lruvec(memcg, nid)->lrugen.seg;
	}
}

static void check_rotation(struct mlf_world *w, const struct mlf_op *op,
			   int nid, int rotate_op,
			   const struct rotate_before *before)
{
	struct mlf_failure f;

	fail_if(check_seg_semantics(w, op, nid, rotate_op, before[nid].gen,
				    before[nid].seg, w->seq_before[nid], &f),
		&f);
}

static bool apply_reclaim(struct mlf_world *w, const struct mlf_op *op,
			  int nid)
{
	static struct walk_record rec;
	struct scan_control sc = {
		.nr_to_reclaim = op->target,
		.priority = 12,
		.proactive = 1,
	};
	struct mlf_failure f;
	int walk_gen = get_memcg_gen(w->seq_before[nid]);
	bool aborted;

	rec.nr_failed = 0;
	rec.restarts = 0;
	current_walk = &rec;
	mlf_walk_probe = walk_probe;
	mlf_shrink_many(NODE_DATA(nid), &sc);
	mlf_walk_probe = NULL;
	current_walk = NULL;

	w->walks++;
	w->restarts += rec.restarts;
	aborted = sc.nr_to_reclaim && sc.nr_reclaimed >= sc.nr_to_reclaim;
	model_apply(&w->model, op);
	fail_if(check_reclaim_progress(w, nid, walk_gen, aborted, rec.failed,
				       rec.nr_failed, &f),
		&f);
	return true;
}

bool world_apply(struct mlf_world *w, const struct mlf_op *op_in)
{
	struct rotate_before before[MAX_NUMNODES];
	struct mlf_op op = *op_in;
	struct mlf_slot *slot;
	int nid;

	op.memcg %= w->pool_size;
	op.node %= w->nr_nodes;
	if (op.nr_draws > MLF_OP_MAX_DRAWS)
		op.nr_draws = MLF_OP_MAX_DRAWS;
	slot = &w->slots[op.memcg];

	mlf_current_op = w->op_index++;
	w->cur_op_kind = op.kind;
	w->cur_op_node = op.node;
	for (nid = 0; nid < w->nr_nodes; nid++) {
		w->seq_before[nid] = w->nodes[nid].memcg_lru.seq;
		w->old_count_before[nid] =
			count_gen(&w->nodes[nid], get_memcg_gen(w->seq_before[nid]));
	}
	mlf_entropy_bytes(op.draws, op.nr_draws);

	switch (op.kind) {
	case MLF_OP_ONLINE:
		if (slot->state != SLOT_EMPTY)
			goto skip;
		slot->memcg = mem_cgroup_alloc(op.memcg);
		slot->state = SLOT_ONLINE;
		slot->refs = 0;
		mem_cgroup_css_online(slot->memcg);
		model_apply(&w->model, &op);
		break;
	case MLF_OP_OFFLINE:
		if (slot->state != SLOT_ONLINE)
			goto skip;
		note_before(w, slot->memcg, before);
		mem_cgroup_css_offline(slot->memcg);
		slot->state = SLOT_OFFLINE;
		drop_ref(slot);		/* the base reference */
		model_apply(&w->model, &op);
		for (nid = 0; nid < w->nr_nodes; nid++)
			check_rotation(w, &op, nid, MEMCG_LRU_OLD, before);
		break;
	case MLF_OP_GET:
		if (!slot_has_ref(slot))
			goto skip;
		css_get(slot->memcg);
		slot->refs++;
		model_apply(&w->model, &op);
		break;
	case MLF_OP_PUT:
		if (!slot->refs)
			goto skip;
		slot->refs--;
		drop_ref(slot);
		model_apply(&w->model, &op);
		break;
	case MLF_OP_RELEASE:
		if (slot->state != SLOT_DEAD)
			goto skip;
		css_release(slot->memcg);
		slot->memcg = NULL;
		slot->state = SLOT_EMPTY;
		model_apply(&w->model, &op);
		break;
	case MLF_OP_ROTATE:
		if (!slot_has_ref(slot) || op.rotate_op < MEMCG_LRU_HEAD ||
		    op.rotate_op > MEMCG_LRU_YOUNG)
			goto skip;
		note_before(w, slot->memcg, before);
		mlf_rotate_memcg(get_lruvec(slot->memcg, op.node), op.rotate_op);
		model_apply(&w->model, &op);
		check_rotation(w, &op, op.node, op.rotate_op, before);
		break;
	case MLF_OP_SOFT:
		if (!slot_has_ref(slot))
			goto skip;
		note_before(w, slot->memcg, before);
		if (op.softirq)
			mlf_softirq_enter();
		lru_gen_soft_reclaim(slot->memcg, op.node);
		if (op.softirq)
			mlf_softirq_exit();
		model_apply(&w->model, &op);
		if (before[op.node].seg != MEMCG_LRU_HEAD)
			check_rotation(w, &op, op.node, MEMCG_LRU_HEAD, before);
		break;
	case MLF_OP_SET:
		if (slot->state == SLOT_EMPTY)
			goto skip;
		slot->memcg->shrink.below_min = op.below_min;
		slot->memcg->shrink.below_low = op.below_low;
		slot->memcg->shrink.success = op.success;
		slot->memcg->shrink.sizable = op.sizable;
		slot->memcg->shrink.nr_reclaimed = op.nr_reclaimed;
		model_apply(&w->model, &op);
		break;
	case MLF_OP_RECLAIM:
		apply_reclaim(w, &op, op.node);
		break;
	default:
		goto skip;
	}
	w->ops_applied++;
	check_after_op(w);
	return true;
skip:
	w->ops_skipped++;
	return false;
}
