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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check/checks.h"
#include "check/fast_checks.h"
#include "check/gen_model.h"
#include "check/reclaim_checks.h"
#include "check/sort_checks.h"

#include "states.h"

static const char *const op_names[RECLAIM_OP_NR] = {
	[RECLAIM_OP_ONLINE] = "online",	  [RECLAIM_OP_OFFLINE] = "offline",
	[RECLAIM_OP_RELEASE] = "release", [RECLAIM_OP_ADD] = "add",
	[RECLAIM_OP_REFAULT] = "refault", [RECLAIM_OP_TOUCH] = "touch",
	[RECLAIM_OP_WBDONE] = "wbdone",	  [RECLAIM_OP_AGE] = "age",
	[RECLAIM_OP_PROTECT] = "protect", [RECLAIM_OP_SWAPPINESS] = "swappiness",
	[RECLAIM_OP_RECLAIM] = "reclaim", [RECLAIM_OP_PARK] = "park",
	[RECLAIM_OP_UNPARK] = "unpark",	  [RECLAIM_OP_SHADOW] = "shadow",
	[RECLAIM_OP_SOFT] = "soft",	  [RECLAIM_OP_ZONE] = "zone",
	[RECLAIM_OP_SLAB] = "slab",	  [RECLAIM_OP_SYSCTL] = "sysctl",
	[RECLAIM_OP_FREE] = "free",
};

const char *mlf_reclaim_op_name(int kind)
{
	return kind >= 0 && kind < RECLAIM_OP_NR ? op_names[kind] : "?";
}

/* the hooks are global: one world at a time (one per fuzzing process) */
static struct mlf_reclaim_world *cur;

static void resched_hook(const char *where);

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
	fail_if(check_isolated_quiescent(&rw->rcs, f), f);
}

/* @nr events go to @slot's nearest online ancestor-or-self, or the root */
static void expect_event(struct mlf_reclaim_world *rw, int slot, int nid,
			 int idx, long nr)
{
	int e = idx - WORKINGSET_REFAULT_ANON;

	while (slot != MLF_ROOT && rw->w.cs.slots[slot].state != SLOT_ONLINE)
		slot = rw->rcs.model.parent[slot];
	if (slot != MLF_ROOT)
		rw->rcs.expect[slot][nid][e] += nr;
	else
		rw->rcs.expect_root[nid][e] += nr;
	rw->rcs.expect_node[nid][e] += nr;
}

/* The folio model (reclaim_state.h) forgets folio @i: freed or drained. */
static void model_uncharge(struct mlf_reclaim_world *rw, int i)
{
	struct mlf_reclaim_folio_model *m = &rw->rcs.model;
	long nr = model_pages(m, i);

	m->used[i] = false;
	__clear_bit(i, m->lruvec_folios[m->memcg[i]][m->node[i]]);
	m->iso_by[i] = NULL;
	if (i < m->first_free)
		m->first_free = i;
	m->charged[m->memcg[i]][m->node[i]][m->type[i]] -= nr;
	m->zone_pages[m->node[i]][m->zone_of[i]] -= nr;
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
	if (rw->rcs.run)
		rw->rcs.run->freed += model_pages(&rw->rcs.model, i);
}

/* the pool slot of @lruvec's memcg, or -1 (the root's) */
static int slot_of(const struct mlf_reclaim_world *rw,
		   const struct lruvec *lruvec)
{
	int slot = lruvec_memcg((struct lruvec *)lruvec)->id;

	return slot >= 0 && slot < rw->w.cs.pool_size &&
			       slot < MLF_RECLAIM_MAX_POOL ?
		       slot :
		       -1;
}

/* the oldest generations as an isolation pass began (reclaim.sort) */
static struct mlf_sort_picture pass_picture;

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
		fail_if(check_isolated_zones(&rw->rcs, arg, f), f);
		check_isolation(rw);
		break;
	case MLF_EVICT_DONE:
		rw->rcs.in_flight = NULL;
		gen_model_put_back(&rw->rcs.model, arg);
		check_isolation(rw);
		break;
	case MLF_EVICT_AGING:
		aging_picture(&rw->rcs, lruvec);
		break;
	case MLF_EVICT_NR_TO_SCAN:
		fail_if(check_nr_to_scan(&rw->rcs, lruvec, arg, f), f);
		if (nr_to_scan_aged(&rw->rcs, lruvec, arg))
			gen_model_age(&rw->rcs.model, lruvec_memcg(lruvec)->id,
				      lruvec->pgdat->node_id);
		break;
	case MLF_EVICT_BATCH:
		fail_if(check_abort_batch(&rw->rcs, f), f);
		break;
	case MLF_EVICT_SCAN:
		sort_picture(&pass_picture, &rw->rcs, lruvec);
		break;
	case MLF_EVICT_SCANNED:
		fail_if(check_sort(&pass_picture, &rw->rcs, arg, f), f);
		/* a parked eviction's reclaim_idx is every zone (apply_park()) */
		if (slot_of(rw, lruvec) >= 0)
			fail_if(gen_model_scanned(&rw->rcs.model,
						  slot_of(rw, lruvec),
						  lruvec->pgdat->node_id,
						  rw->rcs.run ?
							  rw->rcs.run->reclaim_idx :
							  MAX_NR_ZONES - 1,
						  arg, f),
				f);
		break;
	}
}

static void slab_probe(const struct mlf_slab_call *call)
{
	struct mlf_failure *f = mlf_failure_scratch();

	if (cur)
		fail_if(check_slab_call(&cur->rcs, call, f), f);
}

/* ---- state coverage (states.h) ---- */

void reclaim_world_states_attach(unsigned char *feedback, size_t size)
{
	static char tree_names[RECLAIM_OP_NR][24];
	static const char *names[ST_NR_KINDS];
	int k;

	for (k = 0; k < RECLAIM_OP_NR; k++) {
		names[k] = op_names[k];
		snprintf(tree_names[k], sizeof(tree_names[k]), "tree:%s",
			 op_names[k]);
		names[ST_TREE_KIND + k] = tree_names[k];
	}
	mlf_states_attach("reclaim", names, ST_NR_KINDS, feedback, size);
}

/*
 * One folio and one parked eviction of each memcg (@only >= 0: of that
 * one) on each node, -1 where it has none
 */
static void find_handles(const struct mlf_reclaim_world *rw, int only,
			 int folio[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES],
			 int parked[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES])
{
	const struct mlf_reclaim_folio_model *m = &rw->rcs.model;
	int k;

	memset(folio, -1, sizeof(int[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES]));
	memset(parked, -1, sizeof(int[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES]));
	for (k = 0; k < m->nr; k++)
		if (m->used[k] && m->memcg[k] < MLF_RECLAIM_MAX_POOL &&
		    m->node[k] < MAX_NUMNODES && (only < 0 || m->memcg[k] == only))
			folio[m->memcg[k]][m->node[k]] = k;
	for (k = 0; k < MLF_RECLAIM_MAX_PARKED; k++) {
		const struct mlf_reclaim_parked *pk = &rw->rcs.parked[k];

		if (pk->used && pk->memcg >= 0 && pk->memcg < MLF_RECLAIM_MAX_POOL)
			parked[pk->memcg][pk->ev.lruvec->pgdat->node_id] = k;
	}
}

/*
 * @slot's nearest online ancestor, -1 for the root; a gone slot's parent
 * is stale, so the walk up is bounded
 */
static int online_ancestor(const struct mlf_reclaim_world *rw, int slot)
{
	int up = rw->rcs.model.parent[slot], depth;

	for (depth = 0; up != MLF_ROOT; depth++) {
		if (rw->w.cs.slots[up].state == SLOT_ONLINE)
			return up;
		if (depth == rw->w.cs.pool_size)
			break;
		up = rw->rcs.model.parent[up];
	}
	return -1;
}

/* how far below @up @slot is (0: not below it; a bounded walk, as above) */
static int depth_below(const struct mlf_reclaim_world *rw, int slot, int up)
{
	int depth;

	for (depth = 1; depth <= rw->w.cs.pool_size; depth++) {
		slot = rw->rcs.model.parent[slot];
		if (slot == up)
			return depth;
		if (slot == MLF_ROOT)
			break;
	}
	return 0;
}

/*
 * The online memcgs below @s's @up, deepest first, so that each goes
 * offline before its parent: an online memcg's ancestors are all online
 */
static void online_below(const struct mlf_reclaim_world *rw,
			 struct reclaim_stand *s)
{
	int depth[RECLAIM_STAND_MAX_BELOW], k, i, n = 0;

	s->nr_below = 0;
	if (s->up < 0)
		return;
	for (k = 0; k < rw->w.cs.pool_size && k < MLF_RECLAIM_MAX_POOL; k++) {
		int d = rw->w.cs.slots[k].state == SLOT_ONLINE ?
				depth_below(rw, k, s->up) :
				0;

		if (!d)
			continue;
		if (n == RECLAIM_STAND_MAX_BELOW) {
			s->nr_below = -1;
			return;
		}
		/* insertion by depth, deepest first */
		for (i = n++; i > 0 && depth[i - 1] < d; i--) {
			depth[i] = depth[i - 1];
			s->below[i] = s->below[i - 1];
		}
		depth[i] = d;
		s->below[i] = k;
	}
	s->nr_below = n;
}

/*
 * Where @s's memcg is among the bins of its generation on its node, and
 * the nearest online memcg ahead of it there
 */
static void find_bin(const struct mlf_reclaim_world *rw,
		     struct reclaim_stand *s)
{
	const struct lru_gen_memcg *lru = &rw->w.cs.nodes[s->nid].memcg_lru;
	const struct lru_gen_folio *lrugen =
		&get_lruvec(rw->w.cs.slots[s->slot].memcg, s->nid)->lrugen;
	const struct hlist_nulls_node *n;
	int bin, slot, nid;

	s->bin = s->index = s->bin_len = s->ahead = -1;
	if (hlist_nulls_unhashed(&lrugen->list))
		return;
	for (bin = 0; bin < MEMCG_NR_BINS && s->bin < 0; bin++) {
		s->ahead = -1;
		s->bin_len = 0;
		for (n = lru->fifo[lrugen->gen][bin].first; !is_a_nulls(n);
		     n = n->next) {
			if (n == &lrugen->list) {
				s->bin = bin;
				s->index = s->bin_len;
			}
			s->bin_len++;
			slot = mlf_lrugen_map_lookup(&rw->w.cs.map, n, &nid);
			if (s->bin < 0 && slot >= 0 &&
			    rw->w.cs.slots[slot].state == SLOT_ONLINE)
				s->ahead = slot;
		}
	}
	if (s->bin < 0)
		s->index = s->bin_len = s->ahead = -1;
}

/*
 * @s's memcg's handles on every node: its nearest online ancestor, the
 * nodes it has folios on (@folio: find_handles()), its parked evictions
 * and their nodes, the slot the next park takes, another memcg's eviction
 */
static void memcg_handles(const struct mlf_reclaim_world *rw,
			  int folio[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES],
			  struct reclaim_stand *s)
{
	int k;

	s->up = online_ancestor(rw, s->slot);
	online_below(rw, s);
	s->free_park = s->other_parked = -1;
	s->folio_nodes = s->parked_slots = s->parked_nodes = 0;
	for (k = 0; k < rw->w.cs.nr_nodes; k++)
		if (folio[s->slot][k] >= 0)
			s->folio_nodes |= 1 << k;
	for (k = MLF_RECLAIM_MAX_PARKED - 1; k >= 0; k--) {
		const struct mlf_reclaim_parked *pk = &rw->rcs.parked[k];

		if (!pk->used) {
			s->free_park = k;
		} else if (pk->memcg != s->slot) {
			s->other_parked = k;
		} else {
			s->parked_slots |= 1 << k;
			s->parked_nodes |= 1 << pk->ev.lruvec->pgdat->node_id;
		}
	}
}

/* the first bin of @nid's old generation with no memcg in it (-1: none) */
static int old_empty_bin(const struct mlf_reclaim_world *rw, int nid)
{
	const struct lru_gen_memcg *lru = &rw->w.cs.nodes[nid].memcg_lru;
	int bin;

	for (bin = 0; bin < MEMCG_NR_BINS; bin++)
		if (is_a_nulls(lru->fifo[get_memcg_gen(lru->seq)][bin].first))
			return bin;
	return -1;
}

/* the folio alloc_folio() would give: the lowest unused; -1 if none */
static int next_folio(const struct mlf_reclaim_folio_model *m)
{
	int i;

	for (i = m->first_free; i < m->nr; i++)
		if (!m->used[i])
			return i;
	return m->nr < MLF_RECLAIM_MAX_FOLIOS ? m->nr : -1;
}

/* the model's zone of @nid with the most free pages; -1 if none has any */
static int room_zone(const struct mlf_reclaim_world *rw, int nid)
{
	const struct mlf_reclaim_folio_model *m = &rw->rcs.model;
	long most = 0, free;
	int z, best = -1;

	for (z = 0; z < MAX_NR_ZONES; z++) {
		free = model_zone_free(m, nid, z);
		if (free > most) {
			most = free;
			best = z;
		}
	}
	return best;
}

void reclaim_world_stands(const struct mlf_reclaim_world *rw, int only,
			  bool handles, reclaim_stand_fn fn, void *arg)
{
	int folio[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES];
	int parked[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES];
	int old_empty[MAX_NUMNODES], room[MAX_NUMNODES];
	int k;
	struct mlf_state_cell c;
	struct reclaim_stand s = { .c = &c,
				   .up = -1,
				   .folio = -1,
				   .parked = -1,
				   .free_park = -1,
				   .other_parked = -1,
				   .bin = -1,
				   .index = -1,
				   .bin_len = -1,
				   .ahead = -1,
				   .empty = -1,
				   .old_empty = -1,
				   .room_zone = -1,
				   .next_folio = -1 };

	if (!mlf_states)
		return;
	if (handles) {
		find_handles(rw, only, folio, parked);
		for (k = rw->w.cs.pool_size - 1; k >= 0; k--)
			if (rw->w.cs.slots[k].state == SLOT_EMPTY)
				s.empty = k;
		for (k = 0; k < rw->w.cs.nr_nodes; k++) {
			old_empty[k] = old_empty_bin(rw, k);
			room[k] = room_zone(rw, k);
		}
		s.next_folio = next_folio(&rw->rcs.model);
	}
	for (s.slot = 0; s.slot < rw->w.cs.pool_size; s.slot++) {
		if (only >= 0 && s.slot != only)
			continue;
		if (handles)
			memcg_handles(rw, folio, &s);
		for (s.nid = 0; s.nid < rw->w.cs.nr_nodes; s.nid++) {
			mlf_state_cell_of(&rw->w.cs, s.slot, s.nid, 0, &c);
			if (handles) {
				s.folio = folio[s.slot][s.nid];
				s.parked = parked[s.slot][s.nid];
				s.old_empty = old_empty[s.nid];
				s.room_zone = room[s.nid];
				if (c.stage != ST_GONE)
					find_bin(rw, &s);
			}
			fn(arg, &s);
			/* no memcg: one place, not one per node */
			if (c.stage == ST_GONE)
				break;
		}
	}
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
	case RECLAIM_OP_ZONE:
	case RECLAIM_OP_SYSCTL:
		return;		/* no memcg */
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
	case RECLAIM_OP_SOFT:
	case RECLAIM_OP_SLAB:
	case RECLAIM_OP_FREE:
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

/* a memcg's two cells: on the memcg LRU, and in the tree (states.h) */
static void note_cell(const struct mlf_state_cell *c)
{
	struct mlf_state_cell lru = *c, tree = {
		.kind = ST_TREE_KIND + c->kind, .stage = c->stage,
		.gen = ST_NO_GEN, .seg = ST_NO_SEG, .pos = ST_NO_POS,
		.len = ST_NO_LEN, .depth = c->depth, .dying = c->dying,
	};

	lru.depth = ST_DEPTH1;
	lru.dying = ST_DYING0;
	mlf_state_note(&lru);
	mlf_state_note(&tree);
}

static void note_cells(const struct op_cells *oc)
{
	int i;

	for (i = 0; i < oc->n; i++)
		note_cell(&oc->c[i]);
}

/*
 * ---- the walk: failed trygets, for reclaim.progress; shrink_one()'s
 * decisions, for protect.decision; whether it stopped on an entry ----
 */

/*
 * MLF_VISITS=file: a line appended for each memcg a walk visits and for
 * each run's end, the others' runs in a walk's yield too: what a stale
 * walk meets, which state coverage counts but does not order. Line
 * buffered, so a run that fails leaves the lines up to its failure.
 */
static FILE *visits;

static void visits_open(void)
{
	static bool tried;
	const char *path = getenv("MLF_VISITS");

	if (tried)
		return;
	tried = true;
	if (!path || !*path)
		return;
	visits = fopen(path, "a");
	if (!visits) {
		fprintf(stderr, "mlf: MLF_VISITS: cannot write %s\n", path);
		exit(2);
	}
	setvbuf(visits, NULL, _IOLBF, 0);
}

static const char *run_name(const struct mlf_reclaim_run *run)
{
	return run->outer ? "others" : "walk";
}

/*
 * lru_gen_rotate_memcg()'s segment rule, on the model: HEAD and TAIL set
 * their own segment, OLD and YOUNG the default one (YOUNG's skip leaves a
 * memcg only in the default segment, p1-4 on)
 */
static void model_rotate(struct mlf_reclaim_world *rw, int slot, int nid,
			 int op)
{
	rw->rcs.model.seg[slot][nid] = op == MEMCG_LRU_HEAD ? MEMCG_LRU_HEAD :
				       op == MEMCG_LRU_TAIL ? MEMCG_LRU_TAIL :
							      0;
}

/*
 * shrink_many() applies what shrink_one() returned after its yield (where
 * others may rotate the same memcg) and before anything else the walk
 * reports: a visit, a failed tryget, the end of a pass or of the walk
 */
static void rotation_applied(struct mlf_reclaim_world *rw,
			     struct mlf_reclaim_run *run)
{
	if (!run->rotation.op)
		return;
	model_rotate(rw, run->rotation.slot, run->rotation.nid,
		     run->rotation.op);
	run->rotation.op = 0;
}

/* a walk's visit of @lruvec: its state cell, and its line of MLF_VISITS */
static void visit_cell(const struct mlf_reclaim_run *run, struct lruvec *lruvec)
{
	int slot = lruvec_memcg(lruvec)->id, nid = lruvec->pgdat->node_id;
	struct mlf_state_cell c;
	char place[64];

	if ((!mlf_states && !visits) || slot < 0 || slot >= cur->w.cs.pool_size)
		return;
	mlf_state_cell_of(&cur->w.cs, slot, nid, RECLAIM_OP_RECLAIM, &c);
	if (mlf_states)
		note_cell(&c);
	if (visits) {
		mlf_state_place_name(&c, place, sizeof(place));
		fprintf(visits, "op %ld %s n%d visit m%d %s seq %lu\n",
			mlf_current_op, run_name(run), nid, slot, place,
			lruvec->pgdat->memcg_lru.seq);
	}
}

static void walk_probe(enum mlf_walk_event event, void *obj, long arg)
{
	struct mlf_reclaim_run *run = cur ? cur->rcs.run : NULL;

	(void)arg;
	if (!run)
		return;
	rotation_applied(cur, run);
	switch (event) {
	case MLF_WALK_VISIT:
		protect_visit_begin(&cur->rcs, obj, &run->visit);
		visit_cell(run, obj);
		break;
	case MLF_WALK_TRYGET_FAILED:
		if (run->nr_failed < (int)ARRAY_SIZE(run->failed))
			run->failed[run->nr_failed++] =
				((struct mem_cgroup *)obj)->id;
		break;
	case MLF_WALK_BIN:
		run->pass_open = true;
		break;
	case MLF_WALK_NULLS:
		run->pass_open = false;
		break;
	default:
		break;
	}
}

static void result_probe(void *lruvec, int op)
{
	struct mlf_failure *f = mlf_failure_scratch();
	struct mlf_reclaim_run *run = cur ? cur->rcs.run : NULL;
	int slot;

	if (!run)
		return;
	/* what shrink_one() returned, after the visit's line of MLF_VISITS */
	slot = lruvec_memcg(lruvec)->id;
	if (visits && slot >= 0 && slot < cur->w.cs.pool_size)
		fprintf(visits, "op %ld %s n%d result m%d %s\n", mlf_current_op,
			run_name(run), lruvec_pgdat(lruvec)->node_id, slot,
			mlf_rotate_op_name(op));
	fail_if(check_protect_decision(&run->visit, op, f), f);
	fail_if(check_shrink_decision(&cur->rcs, &run->visit, op, f), f);
	fail_if(check_slab_visit(&run->visit, op, f), f);
	if (op && slot >= 0 && slot < MLF_RECLAIM_MAX_POOL) {
		run->rotation.slot = slot;
		run->rotation.nid = lruvec_pgdat(lruvec)->node_id;
		run->rotation.op = op;
	}
	run->visit.slot = MLF_NONE;
}

/*
 * the pages of a zone the harness has not set: more than every folio, at
 * the largest order (MLF_RECLAIM_MAX_ORDER)
 */
#define MLF_DEFAULT_ZONE_PAGES (MLF_RECLAIM_MAX_FOLIOS << MLF_RECLAIM_MAX_ORDER)

/*
 * What a zone op sets, as the page allocator and the watermark sysctls
 * would leave it: the managed pages (at least the zone's folios), the
 * watermarks from min in steps of gap (__setup_per_zone_wmarks()'s low,
 * high and promo, with gap for its step), the boost, the reserve of zone
 * 0 against allocations that may use zone 1, and free pages as asked, as
 * far as the folios leave any: others hold the rest.
 */
static void set_zone(struct mlf_reclaim_world *rw,
		     const struct mlf_reclaim_op *op, long managed, long free,
		     unsigned long wmin)
{
	struct mlf_zone_model *m = &rw->rcs.model.zone[op->node][op->zone];
	struct zone *zone = &rw->w.cs.nodes[op->node].node_zones[op->zone];
	long pages = rw->rcs.model.zone_pages[op->node][op->zone];
	int k;

	if (managed < pages)
		managed = pages;
	if (free > managed - pages)
		free = managed - pages;
	m->managed = managed;
	m->used = managed - pages - free;
	for (k = 0; k < NR_WMARK; k++)
		m->wmark[k] = wmin + k * op->zone_gap;
	m->boost = op->zone_boost;
	memset(m->reserve, 0, sizeof(m->reserve));
	if (op->zone == 0)
		m->reserve[1] = op->zone_reserve;

	for (k = 0; k < NR_WMARK; k++)
		zone->_watermark[k] = m->wmark[k];
	zone->watermark_boost = m->boost;
	for (k = 0; k < MAX_NR_ZONES; k++)
		zone->lowmem_reserve[k] = m->reserve[k];
	atomic_long_set(&zone->managed_pages, managed);
	atomic_long_set(&zone->vm_stat[NR_FREE_PAGES], free);
}

void reclaim_world_init(struct mlf_reclaim_world *rw, int nr_nodes,
			int pool_size)
{
	int i, nid, z;

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
	root_mem_cgroup = rw->rcs.root;
	mlf_memory_recursiveprot = false;
	sysctl_numa_balancing_mode = 0;
	rw->rcs.model.base = rw->folios;
	for (i = 0; i < MLF_RECLAIM_MAX_POOL; i++)
		rw->rcs.model.parent[i] = MLF_ROOT;
	/*
	 * The zones, until a zone op says otherwise: managed and all free,
	 * with watermarks at the top (kswapd never finds them balanced)
	 */
	for (nid = 0; nid < rw->w.cs.nr_nodes; nid++) {
		for (z = 0; z < MAX_NR_ZONES; z++) {
			struct mlf_reclaim_op zop = { .node = nid, .zone = z };

			set_zone(rw, &zop, MLF_DEFAULT_ZONE_PAGES,
				 MLF_DEFAULT_ZONE_PAGES, MLF_DEFAULT_ZONE_PAGES);
		}
	}
	/*
	 * The map of live lrugens, kept here as world_apply() keeps it; the
	 * world's final check compares with a model this world does not feed
	 */
	rw->w.cs.map_kept = true;
	rw->w.final_check = false;
	cur = rw;
	mlf_free_folio_hook = free_hook;
	mlf_evict_probe = evict_probe;
	mlf_slab_probe = slab_probe;
	mlf_set_resched_hook(resched_hook);
	visits_open();
}

static int alloc_folio(struct mlf_reclaim_world *rw)
{
	struct mlf_reclaim_folio_model *m = &rw->rcs.model;
	/* the lowest unused index, as ever (a trace names folios by it) */
	int i = next_folio(m);

	if (i < 0)
		return -1;
	m->first_free = i;
	if (i == m->nr)
		m->nr++;
	return i;
}

static bool apply_add(struct mlf_reclaim_world *rw,
		      const struct mlf_reclaim_op *op, bool refault)
{
	struct lruvec *lruvec =
		get_lruvec(rw->w.cs.slots[op->memcg].memcg, op->node);
	struct mlf_failure *f = mlf_failure_scratch();
	long nr = 1L << op->order;
	int n, i;
	bool ok;

	for (n = 0; n < op->count; n++) {
		struct zone *zone = &NODE_DATA(op->node)->node_zones[op->zone % MAX_NR_ZONES];
		struct folio *folio;

		i = alloc_folio(rw);
		if (i < 0)
			return n > 0;
		/* the page allocator: free pages of the zone, or no folio */
		ok = zone_alloc_pages(zone, nr);
		fail_if(check_zone_alloc(&rw->rcs, op->node,
					 op->zone % MAX_NR_ZONES, nr, ok, f),
			f);
		if (!ok) {
			if (i == rw->rcs.model.nr - 1)
				rw->rcs.model.nr--;
			return n > 0;
		}
		folio = &rw->folios[i];
		memset(folio, 0, sizeof(*folio));
		folio->id = i;
		rw->rcs.model.used[i] = true;
		rw->rcs.model.memcg[i] = op->memcg;
		rw->rcs.model.node[i] = op->node;
		__set_bit(i, rw->rcs.model.lruvec_folios[op->memcg][op->node]);
		rw->rcs.model.type[i] = op->type;
		rw->rcs.model.order[i] = op->order;
		rw->rcs.model.zone_of[i] = op->zone % MAX_NR_ZONES;
		rw->rcs.model.zone_pages[op->node][rw->rcs.model.zone_of[i]] += nr;
		rw->rcs.model.charged[op->memcg][op->node][op->type] += nr;
		folio->zone = op->zone % MAX_NR_ZONES;
		folio->order = op->order;
		if (op->type == LRU_GEN_ANON)
			folio_set(folio, PG_swapbacked);
		if (op->dirty)
			folio_set(folio, PG_dirty);
		if (op->writeback)
			folio_set(folio, PG_writeback);
		if (op->referenced)
			folio_set(folio, PG_referenced);
		/* the flags the model's rules read, as the op gives them */
		rw->rcs.model.flags[i] =
			(op->dirty ? BIT(PG_dirty) : 0) |
			(op->writeback ? BIT(PG_writeback) : 0) |
			(op->referenced ? BIT(PG_referenced) : 0) |
			(refault ? BIT(PG_active) | BIT(PG_workingset) : 0);
		if (refault) {
			lru_gen_refault_folio(lruvec, folio);
			expect_event(rw, op->memcg, op->node,
				     WORKINGSET_REFAULT_ANON + op->type, nr);
		} else {
			lru_gen_add_new_folio(lruvec, folio);
		}
		gen_model_add(&rw->rcs.model, i);
	}
	return true;
}

/*
 * Folios of a memcg going away, uncharged and off the LRU: every one
 * (@nid < 0: the memcg is released), or those on node @nid's LRU
 * (truncation and unmap; one that a parked eviction holds isolated stays,
 * as truncate_inode_pages() waits on the folio lock its reclaimer holds)
 */
static void drain_folios(struct mlf_reclaim_world *rw, int slot, int nid)
{
	int i, n;

	for (n = 0; n < rw->w.cs.nr_nodes; n++) {
		if (nid >= 0 && n != nid)
			continue;
		for_each_lruvec_folio(&rw->rcs.model, slot, n, i) {
			if (nid >= 0 && rw->rcs.model.iso_by[i])
				continue;
			lru_gen_remove_folio(&rw->folios[i]);
			rw->folios[i].flags = 0;
			model_uncharge(rw, i);
		}
	}
}

static void put_ref(struct mlf_reclaim_world *rw, int slot)
{
	struct mlf_slot *s = &rw->w.cs.slots[slot];

	if (mem_cgroup_put(s->memcg))
		s->state = SLOT_DEAD;
}

/* the folios the model has charged to @slot itself (each holds its css) */
static long model_own_charge(const struct mlf_reclaim_world *rw, int slot)
{
	long n = 0;
	int nid, t;

	for (nid = 0; nid < MAX_NUMNODES; nid++)
		for (t = 0; t < ANON_AND_FILE; t++)
			n += rw->rcs.model.charged[slot][nid][t];
	return n;
}

static bool has_online_child(const struct mlf_reclaim_world *rw, int slot)
{
	int i;

	for (i = 0; i < rw->w.cs.pool_size; i++)
		if (rw->w.cs.slots[i].state == SLOT_ONLINE &&
		    rw->rcs.model.parent[i] == slot)
			return true;
	return false;
}

/*
 * What going offline does to the shrinkers' objects, as the model has it:
 * they go to the parent (the root's are index 0), and the deferred work
 * is added to the parent's (the memcg keeps its own, never used again)
 */
static void model_offline_kmem(struct mlf_reclaim_world *rw, int slot)
{
	int p = rw->rcs.model.parent[slot] + 1, id, nid;

	for (id = 0; id < MLF_NR_SHRINKERS; id++) {
		for (nid = 0; nid < MAX_NUMNODES; nid++) {
			rw->rcs.model.objects[id][p][nid] +=
				rw->rcs.model.objects[id][slot + 1][nid];
			rw->rcs.model.objects[id][slot + 1][nid] = 0;
			rw->rcs.model.deferred[id][p][nid] +=
				rw->rcs.model.deferred[id][slot + 1][nid];
		}
	}
}

static void apply_reclaim(struct mlf_reclaim_world *rw,
			  const struct mlf_reclaim_op *op);

/*
 * A sweeping run of the others (resched_hook()): its first draw, the bin
 * shrink_many() starts in, comes from the others' generator; every later
 * one names the bin before it, the last the run walks. So the run meets
 * again each memcg it rotates to a tail before its end, and it empties
 * the old generation unless a memcg stays there (shrink_one() returns 0)
 * or the last it meets goes to a tail. Any bin is one
 * get_random_u32_below() may return: these are draws the kernel can
 * make. Past SWEEP_DRAWS, the run draws from a generator of its own.
 */
#define SWEEP_DRAWS 64

static void sweep(struct mlf_reclaim_world *rw,
		  const struct mlf_reclaim_op *nested)
{
	struct mlf_entropy *e = &mlf_current()->entropy;
	struct mlf_entropy others;
	u8 draws[SWEEP_DRAWS];
	int first = get_random_u32_below(MEMCG_NR_BINS);

	memset(draws, get_memcg_bin(first + MEMCG_NR_BINS - 1), sizeof(draws));
	draws[0] = first;
	others = *e;
	mlf_entropy_seed_after(draws, sizeof(draws),
			       0x737770ULL + (u64)rw->ops_applied);
	apply_reclaim(rw, nested);
	*e = others;
}

/* the bin of generation @gen on node @nid with the most memcgs (-1: none) */
static int crowded_bin(const struct mlf_reclaim_world *rw, int nid, int gen)
{
	const struct lru_gen_memcg *lru = &rw->w.cs.nodes[nid].memcg_lru;
	const struct hlist_nulls_node *n;
	int bin, len, most = 0, crowded = -1;

	for (bin = 0; bin < MEMCG_NR_BINS; bin++) {
		len = 0;
		for (n = lru->fifo[gen][bin].first; !is_a_nulls(n); n = n->next)
			len++;
		if (len > most) {
			most = len;
			crowded = bin;
		}
	}
	return crowded;
}

/*
 * Another reclaimer runs while this one yields (a scheduling point of the
 * walk, where it holds no lock and is outside RCU, its memcg pinned by a
 * reference): @others_due kswapd runs of the same node, to the end, at the
 * walk's first yield. What they rotate and release, and the seq they
 * advance, the yielding walk meets when it goes on: a walk whose seq two
 * advances left behind walks the young generation. Of three runs, the
 * first two sweep (sweep()): seq advances twice unless a memcg stays, and
 * the third, drawing at random, may move memcgs to the young generation
 * without emptying the old, for the walk to meet there; left to chance,
 * two advances and such a third run rarely come together.
 */
static void resched_hook(const char *where)
{
	struct mlf_reclaim_world *rw = cur;
	struct mlf_reclaim_op nested = {
		.kind = RECLAIM_OP_RECLAIM,
		.priority = DEF_PRIORITY,
		.kswapd = 1,
	};

	struct mlf_entropy *e = &mlf_current()->entropy;
	struct mlf_entropy walk;
	int sweeps;

	(void)where;
	if (!rw || !rw->others_due || !rw->rcs.run || rw->rcs.run->outer)
		return;
	nested.node = rw->rcs.run->nid;
	/*
	 * The walk keeps the op's draws that are left, then a generator
	 * seeded by the op: a walk that others left on the young generation
	 * sends the memcgs it meets to the bins its draws name, in the
	 * generation it walks, and may meet them again (draws of 0 once the
	 * op's run out would send them to one bin, and the walk would meet
	 * them forever). The others draw from a generator of their own,
	 * seeded by how many ops applied before this one alone: a change of
	 * the walk's draws leaves what they do as it was, and so does taking
	 * out an op that the world skipped (a reproducer's minimization, a
	 * meeting making room in a full input).
	 */
	mlf_entropy_seed_after(e->bytes + e->pos, e->len - e->pos,
			       0x6d6c66ULL + (u64)rw->ops_applied);
	walk = *e;
	mlf_entropy_seed(0x6f7468ULL + (u64)rw->ops_applied);
	sweeps = rw->others_due == 3 ? 2 : 0;
	while (rw->others_due) {
		rw->others_due--;
		if (sweeps) {
			sweeps--;
			sweep(rw, &nested);
		} else {
			apply_reclaim(rw, &nested);
		}
	}
	*e = walk;
	rw->crowded_bin =
		crowded_bin(rw, nested.node,
			    get_memcg_gen(rw->w.cs.seq_before[nested.node]));
}

/*
 * One reclaim run on a node: for kswapd, its pass over the memcg tree
 * (lru_gen_age_node(), as kswapd_age_node() runs it before shrinking),
 * then lru_gen_shrink_node(), which the kernel enters for global reclaim;
 * nested in another's yield, or not. The model's expectations of the run
 * (reclaim_state.h) are set before it starts; its checks run after.
 */
static void apply_reclaim(struct mlf_reclaim_world *rw,
			  const struct mlf_reclaim_op *op)
{
	struct scan_control sc = {
		.nr_to_reclaim = mlf_nr_to_reclaim(op->target),
		.priority = op->priority,
		.order = op->order,
		.reclaim_idx = op->zones ? op->zones - 1 : MAX_NR_ZONES - 1,
		.may_writepage = 1,
		.may_unmap = 1,
	};
	struct mlf_reclaim_run run = {
		.outer = rw->rcs.run,
		.nid = op->node,
		.kswapd = op->kswapd,
		.order = sc.order,
		.reclaim_idx = sc.reclaim_idx,
		.nr_to_reclaim = sc.nr_to_reclaim,
		.asked_priority = op->priority,
		.visit = { .slot = MLF_NONE },
	};
	struct pglist_data *pgdat = NODE_DATA(op->node);
	struct mlf_task *task = mlf_current();
	struct mlf_walk *walk = task->walk;
	bool kswapd = task->is_kswapd, dying = task->is_dying;
	int walk_gen = mlf_check_gen(pgdat->memcg_lru.seq);
	struct mlf_failure *f = mlf_failure_scratch();
	bool aborted;

	run.priority = model_initial_priority(&rw->rcs, op->node, op->priority,
					      sc.nr_to_reclaim);
	rw->rcs.run = &run;
	/* a nested run is another task: no walk of its own in progress */
	task->walk = NULL;
	mlf_walk_probe = walk_probe;
	mlf_walk_result_probe = result_probe;
	mlf_current_is_kswapd = op->kswapd;
	rw->rcs.model.kswapd = op->kswapd;
	mlf_current_is_dying = op->dying;
	if (op->kswapd) {
		/* balance_pgdat(): kswapd_age_node(), then kswapd_shrink_node() */
		model_kswapd_protection(&rw->rcs);
		mlf_age_node(pgdat, &sc);
	}
	mlf_shrink_node(pgdat, &sc);
	rotation_applied(rw, &run);
	if (visits)
		fprintf(visits, "op %ld %s n%d end reclaimed %lu seq %lu\n",
			mlf_current_op, run_name(&run), op->node,
			sc.nr_reclaimed, pgdat->memcg_lru.seq);
	aborted = run.pass_open;
	if (!run.outer) {
		mlf_walk_probe = NULL;
		mlf_walk_result_probe = NULL;
	}
	mlf_current_is_kswapd = kswapd;
	rw->rcs.model.kswapd = kswapd;
	mlf_current_is_dying = dying;
	task->walk = walk;
	rw->w.walks++;
	/* balance_pgdat(), whose one pass this run stands for */
	if (op->kswapd && !sc.nr_reclaimed)
		pgdat->kswapd_failures++;
	/* the pages this run freed, not those of runs nested in it */
	fail_if(check_kswapd_failures(&rw->kswapd, op->node, op->kswapd,
				      run.freed, pgdat->kswapd_failures, f),
		f);
	fail_if(check_reclaim_progress(&rw->w.cs, op->node, walk_gen, aborted,
				       run.failed, run.nr_failed, f),
		f);
	fail_if(check_abort_end(&rw->rcs, aborted, f), f);
	rw->rcs.run = run.outer;
}

static bool apply_park(struct mlf_reclaim_world *rw,
		       const struct mlf_reclaim_op *op)
{
	struct mlf_slot *s = &rw->w.cs.slots[op->memcg];
	struct scan_control sc = { .priority = DEF_PRIORITY,
				   .reclaim_idx = MAX_NR_ZONES - 1 };
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
	struct scan_control sc = { .priority = DEF_PRIORITY,
				   .reclaim_idx = MAX_NR_ZONES - 1 };

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
	fail_if(check_tree_links(&rw->rcs, f), f);
	fail_if(check_zone_free(&rw->rcs, f), f);
	fail_if(check_seg_model(&rw->rcs, f), f);
	fail_if(check_gen_model(&rw->rcs, f), f);
}

/*
 * The op on the port, with its slot's life cycle and the map of live
 * lrugens, and on the model, which follows the port: as the op sets it up
 * and as the eviction's probes report. False: the op does not apply in
 * this state (some find it out only while they apply, e.g. an add that
 * finds no free page).
 */
static bool apply_op(struct mlf_reclaim_world *rw,
		     const struct mlf_reclaim_op *op)
{
	struct mlf_slot *s = &rw->w.cs.slots[op->memcg];
	int nid, i;

	switch (op->kind) {
	case RECLAIM_OP_ONLINE:
		/* mkdir: in an online parent (or the root) */
		if (s->state != SLOT_EMPTY ||
		    (op->parent && rw->w.cs.slots[op->parent - 1].state != SLOT_ONLINE))
			return false;
		s->memcg = mem_cgroup_alloc(op->memcg);
		rw->rcs.model.parent[op->memcg] = op->parent ? op->parent - 1 : MLF_ROOT;
		mem_cgroup_link_parent(s->memcg,
				       op->parent ? rw->w.cs.slots[op->parent - 1].memcg :
						   rw->rcs.root);
		s->memcg->swappiness = 60;
		rw->rcs.model.swappiness[op->memcg] = 60;
		model_protect(rw, op->memcg, 0, 0);
		for (nid = 0; nid < MAX_NUMNODES; nid++)
			rw->rcs.model.seg[op->memcg][nid] = 0;
		gen_model_online(&rw->rcs.model, op->memcg);
		for (i = 0; i < MLF_NR_SHRINKERS; i++)
			for (nid = 0; nid < MAX_NUMNODES; nid++)
				rw->rcs.model.objects[i][op->memcg + 1][nid] =
					rw->rcs.model.deferred[i][op->memcg + 1][nid] = 0;
		mlf_lrugen_map_add_memcg(&rw->w.cs.map, s->memcg, op->memcg,
					 rw->w.cs.nr_nodes);
		s->state = SLOT_ONLINE;
		s->refs = 0;
		memset(rw->rcs.expect[op->memcg], 0,
		       sizeof(rw->rcs.expect[op->memcg]));
		mem_cgroup_css_online(s->memcg);
		break;
	case RECLAIM_OP_OFFLINE:
		/* rmdir: not while a child is online (-EBUSY) */
		if (s->state != SLOT_ONLINE || has_online_child(rw, op->memcg))
			return false;
		if (model_own_charge(rw, op->memcg)) {
			css_get(s->memcg);
			rw->charge_ref[op->memcg] = true;
		}
		css_offline(s->memcg);
		/* mem_cgroup_css_offline() resets memory.min and memory.low */
		model_protect(rw, op->memcg, 0, 0);
#ifdef MLF_TREE_HAS_OFFLINE_OLD
		/* lru_gen_offline_memcg(): OLD on every node */
		for (nid = 0; nid < MAX_NUMNODES; nid++)
			model_rotate(rw, op->memcg, nid, MEMCG_LRU_OLD);
#endif
		model_offline_kmem(rw, op->memcg);
		s->state = SLOT_OFFLINE;
		put_ref(rw, op->memcg);	/* the base reference */
		break;
	case RECLAIM_OP_RELEASE:
		if (s->state != SLOT_DEAD)
			return false;
		drain_folios(rw, op->memcg, -1);
		mlf_lrugen_map_del_memcg(&rw->w.cs.map, s->memcg, op->memcg,
					 rw->w.cs.nr_nodes);
		css_release(s->memcg);
		s->memcg = NULL;
		s->state = SLOT_EMPTY;
		/*
		 * the child's reference on its parent, which the kernel drops
		 * when the child is freed a grace period later
		 */
		if (rw->rcs.model.parent[op->memcg] != MLF_ROOT)
			put_ref(rw, rw->rcs.model.parent[op->memcg]);
		else
			mem_cgroup_put(rw->rcs.root);
		break;
	case RECLAIM_OP_ADD:
	case RECLAIM_OP_REFAULT:
		/*
		 * A charge goes to an online memcg, or to an offline one
		 * that still has references through remote charging
		 * (set_active_memcg(): get_mem_cgroup_from_mm() takes the
		 * active memcg without asking whether it is online)
		 */
		if ((s->state != SLOT_ONLINE && s->state != SLOT_OFFLINE) ||
		    !op->count)
			return false;
		if (!apply_add(rw, op, op->kind == RECLAIM_OP_REFAULT))
			return false;
		/* the charges hold the offline memcg's css */
		if (s->state == SLOT_OFFLINE && !rw->charge_ref[op->memcg]) {
			css_get(s->memcg);
			rw->charge_ref[op->memcg] = true;
		}
		break;
	case RECLAIM_OP_TOUCH:
		i = op->folio % MLF_RECLAIM_MAX_FOLIOS;
		if (!rw->rcs.model.used[i])
			return false;
		folio_set(&rw->folios[i], PG_referenced);
		rw->rcs.model.flags[i] |= BIT(PG_referenced);
		break;
	case RECLAIM_OP_WBDONE:
		if (s->state == SLOT_EMPTY)
			return false;
		for (nid = 0; nid < rw->w.cs.nr_nodes; nid++)
			for_each_lruvec_folio(&rw->rcs.model, op->memcg, nid,
					      i) {
				lru_gen_end_writeback(&rw->folios[i]);
				rw->rcs.model.flags[i] &= ~BIT(PG_writeback);
			}
		break;
	case RECLAIM_OP_AGE:
		if (s->state == SLOT_EMPTY)
			return false;
		lru_gen_age(get_lruvec(s->memcg, op->node));
		/* nothing else ages it meanwhile: try_to_inc_max_seq() succeeds */
		gen_model_age(&rw->rcs.model, op->memcg, op->node);
		break;
	case RECLAIM_OP_FREE:
		/*
		 * Truncation and unmap: of a memcg whose folios hold it (a
		 * dying one has none); the last charge of an offline one
		 * takes its reference with it (below)
		 */
		if (s->state != SLOT_ONLINE && s->state != SLOT_OFFLINE)
			return false;
		drain_folios(rw, op->memcg, op->node);
		break;
	case RECLAIM_OP_PROTECT:
		/* memory.min / memory.low: files of an online cgroup only */
		if (s->state != SLOT_ONLINE)
			return false;
		page_counter_set_min(&s->memcg->memory, op->min);
		page_counter_set_low(&s->memcg->memory, op->low);
		model_protect(rw, op->memcg, op->min, op->low);
		break;
	case RECLAIM_OP_SWAPPINESS:
		if (s->state == SLOT_EMPTY)
			return false;
		WRITE_ONCE(s->memcg->swappiness, op->swappiness);
		rw->rcs.model.swappiness[op->memcg] = op->swappiness;
		break;
	case RECLAIM_OP_RECLAIM:
		rw->others_due = op->others;
		rw->crowded_bin = -1;
		apply_reclaim(rw, op);
		rw->others_due = 0;
		break;
	case RECLAIM_OP_PARK:
		if (!apply_park(rw, op))
			return false;
		break;
	case RECLAIM_OP_UNPARK:
		if (!apply_unpark(rw, op->slot))
			return false;
		break;
	case RECLAIM_OP_SHADOW:
		if (s->state == SLOT_EMPTY)
			return false;
		count_shadow_nodes(get_lruvec(s->memcg, op->node), op->nodes);
		break;
	case RECLAIM_OP_SOFT:
		/*
		 * memcg v1's soft limit (memcg1_update_tree() from a charge
		 * or an uncharge, which may run in softirq): a memcg the
		 * harness holds a reference to
		 */
		if (s->state != SLOT_ONLINE && s->state != SLOT_OFFLINE)
			return false;
		mlf_softirq_enter();
		lru_gen_soft_reclaim(s->memcg, op->node);
		mlf_softirq_exit();
		/* HEAD, unless it is in the head segment already */
		model_rotate(rw, op->memcg, op->node, MEMCG_LRU_HEAD);
		break;
	case RECLAIM_OP_ZONE:
		set_zone(rw, op, op->zone_managed, op->zone_free, op->zone_min);
		break;
	case RECLAIM_OP_SLAB:
		/* kmem objects are charged to an online memcg */
		if (s->state != SLOT_ONLINE)
			return false;
		mlf_slab_add(s->memcg, op->node, op->shrinker, op->objects);
		rw->rcs.model.objects[op->shrinker][op->memcg + 1][op->node] +=
			op->objects;
		break;
	case RECLAIM_OP_SYSCTL:
		WRITE_ONCE(mlf_memory_recursiveprot, op->recursiveprot);
		WRITE_ONCE(sysctl_numa_balancing_mode,
			   op->tiering ? NUMA_BALANCING_MEMORY_TIERING : 0);
		rw->rcs.model.recursive = op->recursiveprot;
		rw->rcs.model.tiering = op->tiering;
		break;
	default:
		return false;
	}
	/* the last charge of an offline memcg went: its reference goes too */
	for (i = 0; i < rw->w.cs.pool_size; i++) {
		if (rw->charge_ref[i] && !model_own_charge(rw, i)) {
			rw->charge_ref[i] = false;
			put_ref(rw, i);
		}
	}
	return true;
}

/*
 * What runs around every op besides the op itself, in this order: before
 * it (it may yet be skipped) and after it (it applied). A new concern is
 * one more entry here, not one more line in reclaim_world_apply().
 */
struct reclaim_observer {
	const char *name;
	void (*before)(struct mlf_reclaim_world *rw,
		       const struct mlf_reclaim_op *op);
	void (*after)(struct mlf_reclaim_world *rw,
		      const struct mlf_reclaim_op *op);
};

/* the cells the op meets, noted only if it applies (cells_before()) */
static struct op_cells op_cells;

static void states_before(struct mlf_reclaim_world *rw,
			  const struct mlf_reclaim_op *op)
{
	cells_before(rw, op, &op_cells);
}

static void states_after(struct mlf_reclaim_world *rw,
			 const struct mlf_reclaim_op *op)
{
	note_cells(&op_cells);
}

static void checks_after(struct mlf_reclaim_world *rw,
			 const struct mlf_reclaim_op *op)
{
	reclaim_world_check(rw);
}

static const struct reclaim_observer observers[] = {
	{ "states", states_before, states_after },
	{ "checks after an op", NULL, checks_after },
};

bool reclaim_world_apply(struct mlf_reclaim_world *rw,
			 const struct mlf_reclaim_op *op_in)
{
	struct mlf_reclaim_op op = *op_in;
	bool applied;
	int nid, i;

	op.memcg %= rw->w.cs.pool_size;
	op.node %= rw->w.cs.nr_nodes;
	op.type %= ANON_AND_FILE;
	op.zone %= MAX_NR_ZONES;
	op.order %= MLF_RECLAIM_MAX_ORDER + 1;
	op.zones %= MAX_NR_ZONES + 1;
	op.others %= 4;
	op.shrinker %= MLF_NR_SHRINKERS;
	op.parent %= rw->w.cs.pool_size + 1;
	if (!op.objects)
		op.objects = 1;
	if (op.nr_draws > MLF_RECLAIM_MAX_DRAWS)
		op.nr_draws = MLF_RECLAIM_MAX_DRAWS;
	if (op.priority > DEF_PRIORITY)
		op.priority = DEF_PRIORITY;
	if (op.swappiness > MAX_SWAPPINESS)
		op.swappiness = MAX_SWAPPINESS;

	mlf_current_op = rw->w.op_index++;
	for (nid = 0; nid < rw->w.cs.nr_nodes; nid++)
		rw->w.cs.seq_before[nid] = rw->w.cs.nodes[nid].memcg_lru.seq;
	for (i = 0; i < ARRAY_SIZE(observers); i++)
		if (observers[i].before)
			observers[i].before(rw, &op);
	mlf_entropy_bytes(op.draws, op.nr_draws);
	applied = apply_op(rw, &op);
	if (applied) {
		rw->ops_applied++;
		for (i = 0; i < ARRAY_SIZE(observers); i++)
			if (observers[i].after)
				observers[i].after(rw, &op);
	} else {
		rw->ops_skipped++;
	}
	/* op is a local: later draws (teardown) must not read it */
	mlf_entropy_bytes(NULL, 0);
	return applied;
}

/* Offline and release one memcg with no child left; false if none is left. */
static bool teardown_leaf(struct mlf_reclaim_world *rw)
{
	int i, c;

	for (i = 0; i < rw->w.cs.pool_size; i++) {
		struct mlf_slot *s = &rw->w.cs.slots[i];
		int parent = rw->rcs.model.parent[i];

		if (!s->memcg)
			continue;
		for (c = 0; c < rw->w.cs.pool_size; c++)
			if (rw->w.cs.slots[c].memcg && rw->rcs.model.parent[c] == i)
				break;
		if (c < rw->w.cs.pool_size)
			continue;
		if (s->state == SLOT_ONLINE) {
			css_offline(s->memcg);
			mem_cgroup_put(s->memcg);
		}
		mlf_lrugen_map_del_memcg(&rw->w.cs.map, s->memcg, i,
					 rw->w.cs.nr_nodes);
		css_release(s->memcg);
		memset(s, 0, sizeof(*s));
		mem_cgroup_put(parent != MLF_ROOT ? rw->w.cs.slots[parent].memcg :
						    rw->rcs.root);
		return true;
	}
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
		drain_folios(rw, i, -1);
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
	fail_if(check_zone_free(&rw->rcs, f), f);
	/*
	 * Every memcg goes, children before their parents: a child's
	 * offline and release reach its parent (the protected usage, the
	 * shrinkers' objects, the children list, its reference)
	 */
	while (teardown_leaf(rw))
		;
	mlf_free_folio_hook = NULL;
	mlf_evict_probe = NULL;
	mlf_slab_probe = NULL;
	mlf_set_resched_hook(NULL);
	cur = NULL;
	css_release(rw->rcs.root);
	rw->rcs.root = NULL;
	root_mem_cgroup = NULL;
	world_destroy(&rw->w);
}

#endif /* MLF_EVICTION */
