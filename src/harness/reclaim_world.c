// SPDX-License-Identifier: GPL-2.0
/*
 * The reclaim target's sequential driver. Each op acts on the port; then
 * every structure check of the memcg LRU (check_structure per node,
 * reclaim.progress after a walk) and every reclaim accounting check runs.
 * The eviction probes check isolation and the throttle where they happen:
 * at each throttle decision, right after isolation (nothing freed or put
 * back yet, so each counter must equal the isolated lists exactly) and
 * when the eviction is done.
 */
/*
 * Only the reclaim port (src/mm/reclaim.cmake) defines MLF_EVICTION; a
 * build that compiles every file of src/ gets an empty object here.
 */
#ifdef MLF_EVICTION
#include "reclaim_world.h"

#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "check/checks.h"
#include "check/fast_checks.h"
#include "check/reclaim_checks.h"

#include "states.h"

static const char *const op_names[RECLAIM_OP_NR] = {
	[RECLAIM_OP_ONLINE] = "online",	  [RECLAIM_OP_OFFLINE] = "offline",
	[RECLAIM_OP_RELEASE] = "release", [RECLAIM_OP_ADD] = "add",
	[RECLAIM_OP_REFAULT] = "refault", [RECLAIM_OP_TOUCH] = "touch",
	[RECLAIM_OP_WBDONE] = "wbdone",	  [RECLAIM_OP_AGE] = "age",
	[RECLAIM_OP_PROTECT] = "protect", [RECLAIM_OP_SWAPPINESS] = "swappiness",
	[RECLAIM_OP_RECLAIM] = "reclaim", [RECLAIM_OP_PARK] = "park",
	[RECLAIM_OP_UNPARK] = "unpark",	  [RECLAIM_OP_SHADOW] = "shadow",
};

const char *mlf_reclaim_op_name(int kind)
{
	return kind >= 0 && kind < RECLAIM_OP_NR ? op_names[kind] : "?";
}

/* the hooks are global: one world at a time (one per fuzzing process) */
static struct mlf_reclaim_world *cur;

static void fail_if(bool ok, struct mlf_failure *f)
{
	if (!ok)
		mlf_fail(f);
}

static void check_isolation(struct mlf_reclaim_world *rw)
{
	struct mlf_failure *f = mlf_failure_scratch();

	if (fast_reclaim_accounting(&rw->rcs, false))
		return;
	fail_if(check_isolated_nonneg(&rw->rcs, f), f);
	fail_if(check_isolated_exact(&rw->rcs, f), f);
	fail_if(check_isolated_sum(&rw->rcs, f), f);
	fail_if(check_isolated_quiescent(&rw->rcs, f), f);
}

/* the event goes to @slot if online, else to the root (its parent) */
static void expect_event(struct mlf_reclaim_world *rw, int slot, int nid,
			 int idx)
{
	int e = idx - WORKINGSET_REFAULT_ANON;

	if (rw->w.cs.slots[slot].state == SLOT_ONLINE)
		rw->rcs.expect[slot][nid][e]++;
	else
		rw->rcs.expect_root[nid][e]++;
	rw->rcs.expect_node[nid][e]++;
}

/* The folio model (reclaim_state.h) forgets folio @i: freed or drained. */
static void model_uncharge(struct mlf_reclaim_world *rw, int i)
{
	struct mlf_reclaim_folio_model *m = &rw->rcs.model;

	m->used[i] = false;
	if (i < m->first_free)
		m->first_free = i;
	m->charged[m->memcg[i]][m->node[i]][m->type[i]]--;
}

/* memory.min and memory.low of @slot as the model has them (protect.*) */
static void model_protect(struct mlf_reclaim_world *rw, int slot,
			  unsigned long min, unsigned long low)
{
	rw->rcs.model.min[slot] = min;
	rw->rcs.model.low[slot] = low;
}

static void free_hook(struct folio *folio)
{
	struct mlf_reclaim_world *rw = cur;
	int i = folio - rw->folios;

	folio->flags = 0;
	model_uncharge(rw, i);
	rw->folios_freed++;
}

static void evict_probe(enum mlf_evict_event event, struct lruvec *lruvec,
			const void *arg)
{
	struct mlf_reclaim_world *rw = cur;
	struct mlf_failure *f = mlf_failure_scratch();

	switch (event) {
	case MLF_EVICT_THROTTLE: {
		const struct mlf_throttle_decision *d = arg;

		fail_if(check_throttle_decision(&rw->rcs, d, f), f);
		if (d->sleep)
			rw->throttle_sleeps++;
		break;
	}
	case MLF_EVICT_ISOLATED:
		rw->evictions++;
		rw->rcs.in_flight = arg;
		fail_if(check_throttle_isolated(&rw->rcs, arg, f), f);
		check_isolation(rw);
		break;
	case MLF_EVICT_DONE:
		rw->rcs.in_flight = NULL;
		check_isolation(rw);
		break;
	}
}

/* ---- state coverage (states.h) ---- */

void reclaim_world_states_attach(unsigned char *feedback, size_t size)
{
	mlf_states_attach("reclaim", op_names, RECLAIM_OP_NR, feedback, size);
}

/* The cells an op would meet, noted only if it applies. */
struct op_cells {
	int n;
	struct mlf_state_cell c[MAX_NUMNODES];
};

static void cells_before(const struct mlf_reclaim_world *rw,
			 const struct mlf_reclaim_op *op, struct op_cells *oc)
{
	const struct mlf_reclaim_folio_model *m = &rw->rcs.model;
	int slot = op->memcg, node = -1, nid, k;

	oc->n = 0;
	if (!mlf_states)
		return;
	switch (op->kind) {
	case RECLAIM_OP_RECLAIM:
		return;		/* its cells are the memcgs it visits */
	case RECLAIM_OP_TOUCH:
		k = op->folio % MLF_RECLAIM_MAX_FOLIOS;
		if (k >= m->nr || !m->used[k])
			return;
		slot = m->memcg[k];
		node = m->node[k];
		break;
	case RECLAIM_OP_UNPARK:
		k = op->slot % MLF_RECLAIM_MAX_PARKED;
		if (!rw->rcs.parked[k].used)
			return;
		slot = rw->rcs.parked[k].memcg;
		node = rw->rcs.parked[k].ev.lruvec->pgdat->node_id;
		break;
	case RECLAIM_OP_ADD:
	case RECLAIM_OP_REFAULT:
	case RECLAIM_OP_AGE:
	case RECLAIM_OP_PARK:
	case RECLAIM_OP_SHADOW:
		node = op->node;
		break;
	}
	for (nid = 0; nid < rw->w.cs.nr_nodes; nid++) {
		if (node >= 0 && nid != node)
			continue;
		mlf_state_cell_of(&rw->w.cs, slot, nid, op->kind, &oc->c[oc->n]);
		/* no memcg yet: one cell, not one per node */
		if (oc->c[oc->n++].stage == ST_GONE)
			break;
	}
}

static void note_cells(const struct op_cells *oc)
{
	int i;

	for (i = 0; i < oc->n; i++)
		mlf_state_note(&oc->c[i]);
}

/*
 * ---- the walk: failed trygets, for reclaim.progress; shrink_one()'s
 * decisions, for protect.decision ----
 */

static int walk_failed[MLF_RECLAIM_MAX_POOL * 4];
static int walk_nr_failed;
/* the memcg the walk visits, as shrink_one() finds it */
static struct mlf_protect_visit visit;

static void walk_probe(enum mlf_walk_event event, void *obj, long arg)
{
	if (event == MLF_WALK_VISIT && cur)
		protect_visit_begin(&cur->rcs, obj, &visit);
	if (event == MLF_WALK_TRYGET_FAILED &&
	    walk_nr_failed < (int)ARRAY_SIZE(walk_failed))
		walk_failed[walk_nr_failed++] = ((struct mem_cgroup *)obj)->id;
	if (event == MLF_WALK_VISIT && mlf_states && cur) {
		struct lruvec *lruvec = obj;
		int slot = lruvec_memcg(lruvec)->id;
		struct mlf_state_cell c;

		if (slot < 0 || slot >= cur->w.cs.pool_size)
			return;
		mlf_state_cell_of(&cur->w.cs, slot, lruvec->pgdat->node_id,
				  RECLAIM_OP_RECLAIM, &c);
		mlf_state_note(&c);
	}
}

static void result_probe(void *lruvec, int op)
{
	struct mlf_failure *f = mlf_failure_scratch();

	(void)lruvec;
	if (cur)
		fail_if(check_protect_decision(&visit, op, f), f);
}

void reclaim_world_init(struct mlf_reclaim_world *rw, int nr_nodes,
			int pool_size)
{
	memset(rw, 0, offsetof(struct mlf_reclaim_world, folios));
	if (pool_size > MLF_RECLAIM_MAX_POOL)
		pool_size = MLF_RECLAIM_MAX_POOL;
	if (nr_nodes > 2)
		nr_nodes = 2;
	world_init(&rw->w, nr_nodes, pool_size);
	rw->rcs.w = &rw->w.cs;
	mlf_kswapd_check_init(&rw->kswapd);
	rw->rcs.root = mem_cgroup_alloc(-1);
	rw->rcs.root->swappiness = 60;
	WRITE_ONCE(rw->rcs.root->online, true);
	rw->rcs.model.base = rw->folios;
	/*
	 * The map of live lrugens, kept here as world_apply() keeps it; the
	 * world's final check compares with a model this world does not feed
	 */
	rw->w.cs.map_kept = true;
	rw->w.final_check = false;
	cur = rw;
	mlf_free_folio_hook = free_hook;
	mlf_evict_probe = evict_probe;
}

static int alloc_folio(struct mlf_reclaim_world *rw)
{
	struct mlf_reclaim_folio_model *m = &rw->rcs.model;
	int i;

	/* the lowest unused index, as ever (a trace names folios by it) */
	for (i = m->first_free; i < m->nr; i++)
		if (!m->used[i])
			return m->first_free = i;
	m->first_free = m->nr;
	return m->nr < MLF_RECLAIM_MAX_FOLIOS ? m->nr++ : -1;
}

static bool apply_add(struct mlf_reclaim_world *rw,
		      const struct mlf_reclaim_op *op, bool refault)
{
	struct lruvec *lruvec =
		get_lruvec(rw->w.cs.slots[op->memcg].memcg, op->node);
	int n, i;

	for (n = 0; n < op->count; n++) {
		struct folio *folio;

		i = alloc_folio(rw);
		if (i < 0)
			return n > 0;
		folio = &rw->folios[i];
		memset(folio, 0, sizeof(*folio));
		folio->id = i;
		rw->rcs.model.used[i] = true;
		rw->rcs.model.memcg[i] = op->memcg;
		rw->rcs.model.node[i] = op->node;
		rw->rcs.model.type[i] = op->type;
		rw->rcs.model.charged[op->memcg][op->node][op->type]++;
		folio->zone = op->zone % MAX_NR_ZONES;
		if (op->type == LRU_GEN_ANON)
			folio_set(folio, PG_swapbacked);
		if (op->dirty)
			folio_set(folio, PG_dirty);
		if (op->writeback)
			folio_set(folio, PG_writeback);
		if (op->referenced)
			folio_set(folio, PG_referenced);
		if (refault) {
			lru_gen_refault_folio(lruvec, folio);
			expect_event(rw, op->memcg, op->node,
				     WORKINGSET_REFAULT_ANON + op->type);
		} else {
			lru_gen_add_new_folio(lruvec, folio);
		}
	}
	return true;
}

/* folios of a memcg going away: uncharged and off the LRU (truncation) */
static void drain_folios(struct mlf_reclaim_world *rw, int slot)
{
	int i;

	for (i = 0; i < rw->rcs.model.nr; i++) {
		if (!rw->rcs.model.used[i] || rw->rcs.model.memcg[i] != slot)
			continue;
		lru_gen_remove_folio(&rw->folios[i]);
		rw->folios[i].flags = 0;
		model_uncharge(rw, i);
	}
}

static void put_ref(struct mlf_reclaim_world *rw, int slot)
{
	struct mlf_slot *s = &rw->w.cs.slots[slot];

	if (mem_cgroup_put(s->memcg))
		s->state = SLOT_DEAD;
}

static void apply_reclaim(struct mlf_reclaim_world *rw,
			  const struct mlf_reclaim_op *op)
{
	struct scan_control sc = {
		.nr_to_reclaim = mlf_nr_to_reclaim(op->target),
		.priority = op->priority,
		.may_writepage = 1,
		.may_unmap = 1,
	};
	struct pglist_data *pgdat = NODE_DATA(op->node);
	int walk_gen = get_memcg_gen(rw->w.cs.seq_before[op->node]);
	unsigned long freed = rw->folios_freed;
	struct mlf_failure *f = mlf_failure_scratch();

	walk_nr_failed = 0;
	mlf_walk_probe = walk_probe;
	mlf_walk_result_probe = result_probe;
	mlf_current_is_kswapd = op->kswapd;
	rw->rcs.model.kswapd = op->kswapd;
	mlf_current_is_dying = op->dying;
	mlf_shrink_node(pgdat, &sc);
	mlf_current_is_kswapd = false;
	rw->rcs.model.kswapd = false;
	mlf_current_is_dying = false;
	mlf_walk_probe = NULL;
	mlf_walk_result_probe = NULL;
	rw->w.walks++;
	/* balance_pgdat(), whose one pass this run stands for */
	if (op->kswapd && !sc.nr_reclaimed)
		pgdat->kswapd_failures++;
	fail_if(check_kswapd_failures(&rw->kswapd, op->node, op->kswapd,
				      rw->folios_freed - freed,
				      pgdat->kswapd_failures, f),
		f);
	fail_if(check_reclaim_progress(&rw->w.cs, op->node, walk_gen,
				       mlf_reclaim_met(&sc), walk_failed,
				       walk_nr_failed, f),
		f);
}

static bool apply_park(struct mlf_reclaim_world *rw,
		       const struct mlf_reclaim_op *op)
{
	struct mlf_slot *s = &rw->w.cs.slots[op->memcg];
	struct scan_control sc = { .priority = DEF_PRIORITY };
	struct lruvec *lruvec;
	int k;

	if (s->state != SLOT_ONLINE && s->state != SLOT_OFFLINE)
		return false;
	for (k = 0; k < MLF_RECLAIM_MAX_PARKED; k++)
		if (!rw->rcs.parked[k].used)
			break;
	if (k == MLF_RECLAIM_MAX_PARKED)
		return false;
	/* isolated folios keep their memcg alive, as charged pages do */
	css_get(s->memcg);
	lruvec = get_lruvec(s->memcg, op->node);
	mlf_current_is_kswapd = op->kswapd;
	rw->rcs.model.kswapd = op->kswapd;
	lru_gen_evict_begin(lruvec, &sc, get_swappiness(lruvec, &sc),
			    &rw->rcs.parked[k].ev);
	mlf_current_is_kswapd = false;
	rw->rcs.model.kswapd = false;
	rw->rcs.parked[k].used = true;
	rw->rcs.parked[k].memcg = op->memcg;
	rw->rcs.in_flight = NULL;
	return true;
}

static bool apply_unpark(struct mlf_reclaim_world *rw, int k)
{
	struct mlf_reclaim_parked *p =
		&rw->rcs.parked[k % MLF_RECLAIM_MAX_PARKED];
	struct scan_control sc = { .priority = DEF_PRIORITY };

	if (!p->used)
		return false;
	rw->rcs.in_flight = NULL;
	lru_gen_evict_finish(&p->ev, &sc);
	p->used = false;
	put_ref(rw, p->memcg);
	return true;
}

void reclaim_world_check(struct mlf_reclaim_world *rw)
{
	struct mlf_failure *f = mlf_failure_scratch();
	int nid, i;

	for (nid = 0; nid < rw->w.cs.nr_nodes; nid++)
		if (!fast_structure(&rw->w.cs, nid))
			fail_if(check_structure(&rw->w.cs, nid, f), f);
	/* the accounting in one pass; the checks one by one if it fails */
	if (!fast_reclaim_accounting(&rw->rcs, true)) {
		check_isolation(rw);
		for (nid = 0; nid < rw->w.cs.nr_nodes; nid++) {
			for (i = 0; i < rw->w.cs.pool_size; i++) {
				struct mem_cgroup *memcg = rw->w.cs.slots[i].memcg;

				if (memcg)
					fail_if(check_shadow_budget(
							&rw->rcs,
							get_lruvec(memcg, nid),
							i, f),
						f);
			}
		}
	}
	fail_if(check_stats_reparent(&rw->rcs, f), f);
	fail_if(check_protect_reset(&rw->rcs, f), f);
	fail_if(check_usage_charged(&rw->rcs, f), f);
}

bool reclaim_world_apply(struct mlf_reclaim_world *rw,
			 const struct mlf_reclaim_op *op_in)
{
	struct mlf_reclaim_op op = *op_in;
	struct op_cells cells;
	struct mlf_slot *s;
	int nid, i;

	op.memcg %= rw->w.cs.pool_size;
	op.node %= rw->w.cs.nr_nodes;
	op.type %= ANON_AND_FILE;
	if (op.nr_draws > MLF_RECLAIM_MAX_DRAWS)
		op.nr_draws = MLF_RECLAIM_MAX_DRAWS;
	if (op.priority > DEF_PRIORITY)
		op.priority = DEF_PRIORITY;
	if (op.swappiness > MAX_SWAPPINESS)
		op.swappiness = MAX_SWAPPINESS;
	s = &rw->w.cs.slots[op.memcg];

	mlf_current_op = rw->w.op_index++;
	for (nid = 0; nid < rw->w.cs.nr_nodes; nid++)
		rw->w.cs.seq_before[nid] = rw->w.cs.nodes[nid].memcg_lru.seq;
	cells_before(rw, &op, &cells);
	mlf_entropy_bytes(op.draws, op.nr_draws);

	switch (op.kind) {
	case RECLAIM_OP_ONLINE:
		if (s->state != SLOT_EMPTY)
			goto skip;
		s->memcg = mem_cgroup_alloc(op.memcg);
		s->memcg->parent = rw->rcs.root;
		s->memcg->swappiness = 60;
		rw->rcs.model.swappiness[op.memcg] = 60;
		model_protect(rw, op.memcg, 0, 0);
		mlf_lrugen_map_add_memcg(&rw->w.cs.map, s->memcg, op.memcg,
					 rw->w.cs.nr_nodes);
		s->state = SLOT_ONLINE;
		s->refs = 0;
		memset(rw->rcs.expect[op.memcg], 0,
		       sizeof(rw->rcs.expect[op.memcg]));
		mem_cgroup_css_online(s->memcg);
		break;
	case RECLAIM_OP_OFFLINE:
		if (s->state != SLOT_ONLINE)
			goto skip;
		if (atomic_long_read(&s->memcg->usage)) {
			css_get(s->memcg);
			rw->charge_ref[op.memcg] = true;
		}
		css_offline(s->memcg);
		/* mem_cgroup_css_offline() resets memory.min and memory.low */
		model_protect(rw, op.memcg, 0, 0);
		s->state = SLOT_OFFLINE;
		put_ref(rw, op.memcg);	/* the base reference */
		break;
	case RECLAIM_OP_RELEASE:
		if (s->state != SLOT_DEAD)
			goto skip;
		drain_folios(rw, op.memcg);
		mlf_lrugen_map_del_memcg(&rw->w.cs.map, s->memcg, op.memcg,
					 rw->w.cs.nr_nodes);
		css_release(s->memcg);
		s->memcg = NULL;
		s->state = SLOT_EMPTY;
		break;
	case RECLAIM_OP_ADD:
	case RECLAIM_OP_REFAULT:
		if (s->state != SLOT_ONLINE || !op.count ||
		    !apply_add(rw, &op, op.kind == RECLAIM_OP_REFAULT))
			goto skip;
		break;
	case RECLAIM_OP_TOUCH:
		i = op.folio % MLF_RECLAIM_MAX_FOLIOS;
		if (!rw->rcs.model.used[i])
			goto skip;
		folio_set(&rw->folios[i], PG_referenced);
		break;
	case RECLAIM_OP_WBDONE:
		if (s->state == SLOT_EMPTY)
			goto skip;
		for (i = 0; i < rw->rcs.model.nr; i++)
			if (rw->rcs.model.used[i] &&
			    rw->rcs.model.memcg[i] == op.memcg)
				lru_gen_end_writeback(&rw->folios[i]);
		break;
	case RECLAIM_OP_AGE:
		if (s->state == SLOT_EMPTY)
			goto skip;
		lru_gen_age(get_lruvec(s->memcg, op.node));
		break;
	case RECLAIM_OP_PROTECT:
		/* memory.min / memory.low: files of an online cgroup only */
		if (s->state != SLOT_ONLINE)
			goto skip;
		page_counter_set_min(&s->memcg->memory, op.min);
		page_counter_set_low(&s->memcg->memory, op.low);
		model_protect(rw, op.memcg, op.min, op.low);
		break;
	case RECLAIM_OP_SWAPPINESS:
		if (s->state == SLOT_EMPTY)
			goto skip;
		WRITE_ONCE(s->memcg->swappiness, op.swappiness);
		rw->rcs.model.swappiness[op.memcg] = op.swappiness;
		break;
	case RECLAIM_OP_RECLAIM:
		apply_reclaim(rw, &op);
		break;
	case RECLAIM_OP_PARK:
		if (!apply_park(rw, &op))
			goto skip;
		break;
	case RECLAIM_OP_UNPARK:
		if (!apply_unpark(rw, op.slot))
			goto skip;
		break;
	case RECLAIM_OP_SHADOW:
		if (s->state == SLOT_EMPTY)
			goto skip;
		count_shadow_nodes(get_lruvec(s->memcg, op.node), op.nodes);
		break;
	default:
		goto skip;
	}
	/* the last charge of an offline memcg went: its reference goes too */
	for (i = 0; i < rw->w.cs.pool_size; i++) {
		s = &rw->w.cs.slots[i];
		if (rw->charge_ref[i] && !atomic_long_read(&s->memcg->usage)) {
			rw->charge_ref[i] = false;
			put_ref(rw, i);
		}
	}
	rw->ops_applied++;
	note_cells(&cells);
	reclaim_world_check(rw);
	/* op is a local: later draws (teardown) must not read it */
	mlf_entropy_bytes(NULL, 0);
	return true;
skip:
	mlf_entropy_bytes(NULL, 0);
	rw->ops_skipped++;
	return false;
}

void reclaim_world_destroy(struct mlf_reclaim_world *rw)
{
	struct mlf_failure *f;
	int k, i;

	mlf_current_op = MLF_NONE;
	for (k = 0; k < MLF_RECLAIM_MAX_PARKED; k++)
		apply_unpark(rw, k);
	check_isolation(rw);
	for (i = 0; i < rw->w.cs.pool_size; i++) {
		if (!rw->w.cs.slots[i].memcg)
			continue;
		drain_folios(rw, i);
		if (rw->charge_ref[i]) {
			rw->charge_ref[i] = false;
			put_ref(rw, i);
		}
	}
	/*
	 * The folios were truncated: nothing stays charged (the only
	 * removal of charged folios is this drain, the end of an input)
	 */
	f = mlf_failure_scratch();
	fail_if(check_usage_charged(&rw->rcs, f), f);
	mlf_free_folio_hook = NULL;
	mlf_evict_probe = NULL;
	cur = NULL;
	css_release(rw->rcs.root);
	rw->rcs.root = NULL;
	world_destroy(&rw->w);
}

#endif /* MLF_EVICTION */
