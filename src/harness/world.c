// SPDX-License-Identifier: GPL-2.0
/*
 * The sequential driver: applies an op to the port and to the model, then
 * hands it to the observers (world_observers.c: state coverage, the map of
 * live lrugens, the touched bins, the checks). It keeps each memcg slot's
 * life cycle honest: an op that does not apply is skipped.
 */
#include "world_observers.h"

#include <stdlib.h>
#include <string.h>

#include "check/model_query.h"


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
		world_map_memcg(w, i, false);
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


/* ---- an op on the port ---- */

static bool slot_has_ref(const struct mlf_slot *slot)
{
	return slot->state == SLOT_ONLINE || slot->state == SLOT_OFFLINE;
}

static void drop_ref(struct mlf_slot *slot)
{
	if (mem_cgroup_put(slot->memcg))
		slot->state = SLOT_DEAD;
}

/* Whether @op applies to its memcg's slot as it is (else it is skipped). */
static bool op_applies(const struct mlf_world *w, const struct mlf_op *op)
{
	const struct mlf_slot *slot = &w->cs.slots[op->memcg];

	switch (op->kind) {
	case MLF_OP_ONLINE:
		return slot->state == SLOT_EMPTY;
	case MLF_OP_CSS_OFFLINE:
		/* offline_css() up to the callback: CSS_ONLINE stays set */
		return slot->state == SLOT_ONLINE && !slot->css_offlined;
	case MLF_OP_OFFLINE:
		return slot->state == SLOT_ONLINE;
	case MLF_OP_GET:
		return slot_has_ref(slot);
	case MLF_OP_PUT:
		return slot->refs;
	case MLF_OP_RELEASE:
		return slot->state == SLOT_DEAD;
	case MLF_OP_ROTATE:
		/* a rotation the tree does not have is skipped, as bad ones are */
		return slot_has_ref(slot) && mlf_tree_has_rotation(op->rotate_op);
	case MLF_OP_SOFT:
#ifdef MLF_TREE_HAS_SOFT_RECLAIM
		return slot_has_ref(slot);
#else
		/* the tree has no lru_gen_soft_reclaim() (d5d1712c5928) */
		return false;
#endif
	case MLF_OP_SET:
		return slot->state != SLOT_EMPTY;
	case MLF_OP_RECLAIM:
		return true;
	default:
		return false;
	}
}

/* the reclaim walk in progress: its world, op and record */
static struct mlf_world *walking;
static struct world_op *walking_op;
static struct walk_record walk_rec;

/* What the walk met: for its op's record, then for the observers. */
static void walk_probe(enum mlf_walk_event event, void *obj, long arg)
{
	int i;

	(void)arg;
	if (!walking)
		return;
	if (event == MLF_WALK_TRYGET_FAILED && walk_rec.nr_failed < MLF_MAX_POOL)
		walk_rec.failed[walk_rec.nr_failed++] =
			((struct mem_cgroup *)obj)->id;
	else if (event == MLF_WALK_RESTART)
		walk_rec.restarts++;
	for (i = 0; i < world_nr_observers; i++)
		if (world_observers[i].walk)
			world_observers[i].walk(walking, walking_op, event, obj);
}

/* shrink_many() on the op's node, as proactive reclaim of its target */
static void reclaim(struct mlf_world *w, struct world_op *o)
{
	struct scan_control sc = {
		.nr_to_reclaim = mlf_nr_to_reclaim(o->op->target),
		.priority = 12,
		.proactive = 1,
	};

	walk_rec.nr_failed = 0;
	walk_rec.restarts = 0;
	walking = w;
	walking_op = o;
	mlf_walk_probe = walk_probe;
	mlf_shrink_many(NODE_DATA(o->op->node), &sc);
	mlf_walk_probe = NULL;
	walking = NULL;
	walking_op = NULL;

	w->walks++;
	w->restarts += walk_rec.restarts;
	w->last_nr_reclaimed = sc.nr_reclaimed;
	w->last_nr_scanned = sc.nr_scanned;
	o->walk = &walk_rec;
	o->aborted = mlf_reclaim_met(&sc);
}

/* The op on the port, and its memcg's slot with it (op_applies()). */
static void port_apply(struct mlf_world *w, struct world_op *o)
{
	const struct mlf_op *op = o->op;
	struct mlf_slot *slot = &w->cs.slots[op->memcg];

	switch (op->kind) {
	case MLF_OP_ONLINE:
		slot->memcg = mem_cgroup_alloc(op->memcg);
		slot->state = SLOT_ONLINE;
		slot->refs = 0;
		slot->css_offlined = false;
		mem_cgroup_css_online(slot->memcg);
		break;
	case MLF_OP_CSS_OFFLINE:
		mem_cgroup_css_offline(slot->memcg);
		slot->css_offlined = true;
		break;
	case MLF_OP_OFFLINE:
		/* offline_css(): the callback (unless css_offline ran it) */
		if (!slot->css_offlined)
			mem_cgroup_css_offline(slot->memcg);
		css_clear_online(slot->memcg);
		slot->css_offlined = false;
		slot->state = SLOT_OFFLINE;
		drop_ref(slot);		/* the base reference */
		break;
	case MLF_OP_GET:
		css_get(slot->memcg);
		slot->refs++;
		break;
	case MLF_OP_PUT:
		slot->refs--;
		drop_ref(slot);
		break;
	case MLF_OP_RELEASE:
		css_release(slot->memcg);
		slot->memcg = NULL;
		slot->state = SLOT_EMPTY;
		break;
	case MLF_OP_ROTATE:
		mlf_rotate_memcg(get_lruvec(slot->memcg, op->node), op->rotate_op);
		break;
#ifdef MLF_TREE_HAS_SOFT_RECLAIM
	case MLF_OP_SOFT:
		if (op->softirq)
			mlf_softirq_enter();
		lru_gen_soft_reclaim(slot->memcg, op->node);
		if (op->softirq)
			mlf_softirq_exit();
		break;
#endif
	case MLF_OP_SET:
		slot->memcg->shrink.below_min = op->below_min;
		slot->memcg->shrink.below_low = op->below_low;
		slot->memcg->shrink.success = op->success;
		slot->memcg->shrink.sizable = op->sizable;
		slot->memcg->shrink.nr_reclaimed = op->nr_reclaimed;
		break;
	case MLF_OP_RECLAIM:
		reclaim(w, o);
		break;
	}
}

/*
 * The op's memcg and node in range, and the notes of the current op that
 * a check may read even after a skipped one (check/state.h): seq and the
 * old generation's size before it, the model's, for seq.monotonic,
 * seq.advance, seg.semantics and reclaim.progress.
 */
static void begin_op(struct mlf_world *w, struct mlf_op *op)
{
	int nid;

	op->memcg %= w->cs.pool_size;
	op->node %= w->cs.nr_nodes;
	if (op->nr_draws > MLF_OP_MAX_DRAWS)
		op->nr_draws = MLF_OP_MAX_DRAWS;
	w->cs.map_kept = true;
	w->checked_in_full = false;
	w->last_draws = w->last_nr_reclaimed = w->last_nr_scanned = 0;
	mlf_current_op = w->op_index++;
	w->cs.cur_op_kind = op->kind;
	w->cs.cur_op_node = op->node;
	for (nid = 0; nid < w->cs.nr_nodes; nid++) {
		w->cs.seq_before[nid] = w->cs.model.nodes[nid].seq;
		w->cs.old_count_before[nid] =
			model_gen_count(&w->cs.model, nid,
					mlf_check_gen(w->cs.seq_before[nid]));
	}
}

bool world_apply(struct mlf_world *w, const struct mlf_op *op_in)
{
	/* one op at a time (as the walk's probe); off the stack, which ASan pads */
	static struct world_op o;
	struct mlf_op op = *op_in;
	int i;

	begin_op(w, &op);
	if (!op_applies(w, &op)) {
		w->ops_skipped++;
		mlf_entropy_bytes(NULL, 0);
		return false;
	}
	mlf_entropy_bytes(op.draws, op.nr_draws);
	o.op = &op;
	o.walk = NULL;
	for (i = 0; i < world_nr_observers; i++)
		if (world_observers[i].before)
			world_observers[i].before(w, &o);
	port_apply(w, &o);
	model_apply(&w->cs.model, &op);
	w->ops_applied++;
	w->last_draws = mlf_entropy_draws();
	for (i = 0; i < world_nr_observers; i++)
		if (world_observers[i].after)
			world_observers[i].after(w, &o);
	/* the draws live in this frame: later draws (teardown) read zeros */
	mlf_entropy_bytes(NULL, 0);
	return true;
}
