// SPDX-License-Identifier: GPL-2.0
/*
 * The reclaim accounting checks (reclaim_checks.h). Their expected values
 * come from the folio model (reclaim_state.h), never from the port's
 * counters: which folios the harness charged where, which of them sit on
 * the list of an eviction it holds (isolated), and so which are on the
 * LRU; and which memcg each stat event was meant for (reclaim_world.c
 * attributes them itself). The kernel's formulas (the throttle's
 * threshold) are recomputed on the model's numbers.
 */
/*
 * Only the reclaim port (src/mm/reclaim.cmake) defines MLF_EVICTION; a
 * build that compiles every file of src/ gets an empty object here.
 */
#ifdef MLF_EVICTION
#include "reclaim_checks.h"

#include <string.h>

#include "walk.h"

static const char *const type_name[ANON_AND_FILE] __maybe_unused = { "anon", "file" };

/* the model's isolated folios, by memcg, node and type */
typedef long mlf_isolated_t[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES][ANON_AND_FILE];

/* Count the folios on @list, each where the model says it belongs. */
static void count_held(const struct mlf_reclaim_folio_model *m,
		       const struct list_head *list, mlf_isolated_t iso)
{
	const struct list_head *pos;
	long n = 0;

	list_for_each(pos, list) {
		const struct folio *folio = list_entry(pos, struct folio, lru);
		long i = folio - m->base;

		/* bounded: a list that does not end is the list checks' */
		if (++n > MLF_RECLAIM_MODEL_FOLIOS)
			return;
		if (i < 0 || i >= m->nr || !m->used[i])
			continue;
		iso[m->memcg[i]][m->node[i]][m->type[i]]++;
	}
}

/*
 * The folios the model has isolated: those on the lists of the evictions
 * the harness holds (parked, and the one in flight), counted by the memcg,
 * node and type the harness charged them to.
 */
static void model_isolated(const struct mlf_reclaim_check_state *rw,
			   mlf_isolated_t iso)
{
	int k;

	memset(iso, 0, sizeof(mlf_isolated_t));
	for (k = 0; k < MLF_RECLAIM_MAX_PARKED; k++)
		if (rw->parked[k].used)
			count_held(&rw->model, &rw->parked[k].ev.list, iso);
	if (rw->in_flight)
		count_held(&rw->model, &rw->in_flight->list, iso);
}

static __maybe_unused long node_sum(mlf_isolated_t iso, int pool, int nid, int type)
{
	long n = 0;
	int i;

	for (i = 0; i < pool; i++)
		n += iso[i][nid][type];
	return n;
}

/* The model's folios of @memcg on @nid of @type that are on the LRU. */
static long model_on_lru(const struct mlf_reclaim_check_state *rw,
			 mlf_isolated_t iso, int memcg, int nid, int type)
{
	return rw->model.charged[memcg][nid][type] - iso[memcg][nid][type];
}

static struct lruvec *slot_lruvec(const struct mlf_reclaim_check_state *rw,
				  int i, int nid)
{
	struct mem_cgroup *memcg = rw->w->slots[i].memcg;

	return memcg ? get_lruvec(memcg, nid) : NULL;
}

bool check_isolated_nonneg(const struct mlf_reclaim_check_state *rw,
			   struct mlf_failure *f)
{
	int nid, type, i;

	for (nid = 0; nid < rw->w->nr_nodes; nid++) {
		for (type = 0; type < ANON_AND_FILE; type++) {
			long v = node_page_state_raw(&rw->w->nodes[nid],
						     NR_ISOLATED_ANON + type);

			if (v < 0) {
				mlf_failure_at(f, "isolated.nonneg", nid,
					       MLF_NONE, MLF_NONE, MLF_NONE);
				mlf_failure_msg(f, "NR_ISOLATED_%s = %ld",
						type ? "FILE" : "ANON", v);
				return false;
			}
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
			for (i = 0; i < rw->w->pool_size; i++) {
				struct lruvec *lruvec = slot_lruvec(rw, i, nid);

				if (!lruvec)
					continue;
				v = atomic_long_read(&lruvec->lrugen.nr_isolated[type]);
				if (v < 0) {
					mlf_failure_at(f, "isolated.nonneg",
						       nid, MLF_NONE, MLF_NONE,
						       i);
					mlf_failure_msg(f, "lruvec nr_isolated[%s] = %ld",
							type_name[type], v);
					return false;
				}
			}
#else
			(void)i;
#endif
		}
	}
	return true;
}

bool check_isolated_exact(const struct mlf_reclaim_check_state *rw,
			  struct mlf_failure *f)
{
	mlf_isolated_t iso;
	int nid, type, i;

	model_isolated(rw, iso);
	for (nid = 0; nid < rw->w->nr_nodes; nid++) {
		for (type = 0; type < ANON_AND_FILE; type++) {
#ifdef CONFIG_LRU_GEN_ISO_COUNT
			long want = node_sum(iso, rw->w->pool_size, nid, type);
			long v = node_page_state_raw(&rw->w->nodes[nid],
						     NR_ISOLATED_ANON + type);

			if (v != want) {
				mlf_failure_at(f, "isolated.exact", nid,
					       MLF_NONE, MLF_NONE, MLF_NONE);
				mlf_failure_msg(f,
						"NR_ISOLATED_%s = %ld, but %ld folios are isolated",
						type ? "FILE" : "ANON", v, want);
				return false;
			}
#endif
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
			for (i = 0; i < rw->w->pool_size; i++) {
				struct lruvec *lruvec = slot_lruvec(rw, i, nid);
				long got;

				if (!lruvec)
					continue;
				want = iso[i][nid][type];
				got = atomic_long_read(&lruvec->lrugen.nr_isolated[type]);
				if (got != want) {
					mlf_failure_at(f, "isolated.exact", nid,
						       MLF_NONE, MLF_NONE, i);
					mlf_failure_msg(f,
							"lruvec nr_isolated[%s] = %ld, but %ld folios are isolated from it",
							type_name[type], got, want);
					return false;
				}
			}
#else
			(void)i;
#endif
		}
	}
	return true;
}

bool check_isolated_sum(const struct mlf_reclaim_check_state *rw,
			struct mlf_failure *f)
{
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
	mlf_isolated_t iso;
	int nid, type;

	model_isolated(rw, iso);
	for (nid = 0; nid < rw->w->nr_nodes; nid++) {
		for (type = 0; type < ANON_AND_FILE; type++) {
			/* the model's lruvecs of the node, summed */
			long sum = node_sum(iso, rw->w->pool_size, nid, type);
			long v = node_page_state_raw(&rw->w->nodes[nid],
						     NR_ISOLATED_ANON + type);

			if (v != sum) {
				mlf_failure_at(f, "isolated.sum", nid, MLF_NONE,
					       MLF_NONE, MLF_NONE);
				mlf_failure_msg(f,
						"NR_ISOLATED_%s = %ld, the model's lruvecs of the node have %ld %s folios isolated",
						type ? "FILE" : "ANON", v, sum,
						type_name[type]);
				return false;
			}
		}
	}
#endif
	return true;
}

bool check_isolated_quiescent(const struct mlf_reclaim_check_state *rw,
			      struct mlf_failure *f)
{
	int nid, type, k, i;

	if (rw->in_flight)
		return true;
	for (k = 0; k < MLF_RECLAIM_MAX_PARKED; k++)
		if (rw->parked[k].used)
			return true;
	for (nid = 0; nid < rw->w->nr_nodes; nid++) {
		for (type = 0; type < ANON_AND_FILE; type++) {
			long v = node_page_state_raw(&rw->w->nodes[nid],
						     NR_ISOLATED_ANON + type);

			if (v) {
				mlf_failure_at(f, "isolated.quiescent", nid,
					       MLF_NONE, MLF_NONE, MLF_NONE);
				mlf_failure_msg(f, "NR_ISOLATED_%s = %ld with no reclaim in flight",
						type ? "FILE" : "ANON", v);
				return false;
			}
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
			for (i = 0; i < rw->w->pool_size; i++) {
				struct lruvec *lruvec = slot_lruvec(rw, i, nid);

				if (!lruvec)
					continue;
				v = atomic_long_read(&lruvec->lrugen.nr_isolated[type]);
				if (v) {
					mlf_failure_at(f, "isolated.quiescent",
						       nid, MLF_NONE, MLF_NONE,
						       i);
					mlf_failure_msg(f, "lruvec nr_isolated[%s] = %ld with no reclaim in flight",
							type_name[type], v);
					return false;
				}
			}
#else
			(void)i;
#endif
		}
	}
	return true;
}

bool check_throttle_decision(const struct mlf_reclaim_check_state *rw,
			     const struct mlf_throttle_decision *d,
			     struct mlf_failure *f)
{
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
	struct mlf_reclaim_check_state *mut = (struct mlf_reclaim_check_state *)rw;
	struct lruvec *lruvec = d->lruvec;
	int memcg = lruvec_memcg(lruvec)->id;
	int nid = lruvec->pgdat->node_id;
	unsigned int evictable = 0, over = 0, want;
	bool exempt = rw->model.kswapd;
	int swappiness, type;
	mlf_isolated_t iso;

	if (memcg < 0 || memcg >= rw->w->pool_size)
		return true;
	model_isolated(rw, iso);
	swappiness = rw->model.swappiness[memcg];
	/*
	 * lru_gen_too_many_isolated() on the model's numbers: a type is over
	 * when more of it is isolated than its evictable size (the folios
	 * of it on the LRU) / MIN_NR_GENS; kswapd never is
	 */
	for (type = !swappiness; type < ANON_AND_FILE; type++) {
		long size = model_on_lru(rw, iso, memcg, nid, type);

		if (size <= 0)
			continue;
		evictable |= BIT(type);
		if (!exempt && iso[memcg][nid][type] > size / MIN_NR_GENS)
			over |= BIT(type);
	}
	want = evictable & ~over;
	mut->model.allowed = want;

	if (d->sleep && (exempt || !evictable || over != evictable)) {
		mlf_failure_at(f, "throttle.only_when_all", nid, MLF_NONE,
			       MLF_NONE, memcg);
		mlf_failure_msg(f,
				"sleeps with evictable types %#x, over-isolated %#x%s",
				evictable, over, exempt ? " (kswapd: exempt)" : "");
		return false;
	}
	if (d->allowed != want) {
		mlf_failure_at(f, "throttle.allowed", nid, MLF_NONE, MLF_NONE,
			       memcg);
		mlf_failure_msg(f,
				"allows types %#x; evictable and not over-isolated: %#x",
				d->allowed, want);
		return false;
	}
#endif
	return true;
}

bool check_throttle_isolated(const struct mlf_reclaim_check_state *rw,
			     const struct lru_gen_eviction *ev,
			     struct mlf_failure *f)
{
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
	/* the type isolated: the model's, of the folios on the list */
	const struct list_head *pos;
	unsigned int types = 0;

	list_for_each(pos, &ev->list) {
		long i = list_entry(pos, struct folio, lru) - rw->model.base;

		if (i >= 0 && i < rw->model.nr && rw->model.used[i])
			types |= BIT(rw->model.type[i]);
	}
	if (types & ~rw->model.allowed) {
		mlf_failure_at(f, "throttle.allowed",
			       ev->lruvec->pgdat->node_id, MLF_NONE, MLF_NONE,
			       lruvec_memcg(ev->lruvec)->id);
		mlf_failure_msg(f, "isolated %zu folios of types %#x; the throttle allowed %#x",
				list_count_nodes(&ev->list), types,
				rw->model.allowed);
		return false;
	}
#endif
	return true;
}

bool check_shadow_budget(const struct mlf_reclaim_check_state *rw,
			 struct lruvec *lruvec, int memcg,
			 struct mlf_failure *f)
{
	int nid = lruvec->pgdat->node_id;
	unsigned long pages = workingset_lru_pages(lruvec);
	mlf_isolated_t iso;
	long want;

	model_isolated(rw, iso);
	want = model_on_lru(rw, iso, memcg, nid, LRU_GEN_ANON) +
	       model_on_lru(rw, iso, memcg, nid, LRU_GEN_FILE);
	if ((long)pages != want) {
		mlf_failure_at(f, "shadow.budget", nid, MLF_NONE, MLF_NONE,
			       memcg);
		mlf_failure_msg(f,
				"count_shadow_nodes counts %lu LRU pages; the model has %ld folios of it on the LRU",
				pages, want);
		return false;
	}
	return true;
}

static const char *const event_name[MLF_NR_EVENT_ITEMS] = {
	"WORKINGSET_REFAULT_ANON", "WORKINGSET_REFAULT_FILE",
};

bool check_stats_reparent(const struct mlf_reclaim_check_state *rw,
			  struct mlf_failure *f)
{
	int nid, e, i;

	for (nid = 0; nid < rw->w->nr_nodes; nid++) {
		for (e = 0; e < MLF_NR_EVENT_ITEMS; e++) {
			int idx = WORKINGSET_REFAULT_ANON + e;
			long v = node_page_state_raw(&rw->w->nodes[nid], idx);

			if (v != rw->expect_node[nid][e]) {
				mlf_failure_at(f, "stats.reparent", nid,
					       MLF_NONE, MLF_NONE, MLF_NONE);
				mlf_failure_msg(f, "node %s = %ld, expected %ld",
						event_name[e], v,
						rw->expect_node[nid][e]);
				return false;
			}
			v = lruvec_page_state_local_raw(get_lruvec(rw->root, nid), idx);
			if (v != rw->expect_root[nid][e]) {
				mlf_failure_at(f, "stats.reparent", nid,
					       MLF_NONE, MLF_NONE, MLF_NONE);
				mlf_failure_msg(f, "root memcg local %s = %ld, expected %ld",
						event_name[e], v,
						rw->expect_root[nid][e]);
				return false;
			}
			for (i = 0; i < rw->w->pool_size; i++) {
				struct lruvec *lruvec = slot_lruvec(rw, i, nid);

				if (!lruvec)
					continue;
				v = lruvec_page_state_local_raw(lruvec, idx);
				if (v != rw->expect[i][nid][e]) {
					mlf_failure_at(f, "stats.reparent", nid,
						       MLF_NONE, MLF_NONE, i);
					mlf_failure_msg(f,
							"local %s = %ld, expected %ld (updates while dying go to the parent)",
							event_name[e], v,
							rw->expect[i][nid][e]);
					return false;
				}
			}
		}
	}
	return true;
}

bool check_protect_reset(const struct mlf_reclaim_check_state *rw,
			 struct mlf_failure *f)
{
	int i;

	for_each_live_slot(rw->w, i) {
		const struct mem_cgroup *memcg = rw->w->slots[i].memcg;
		unsigned long min, low;

		min = READ_ONCE(memcg->memory.min);
		low = READ_ONCE(memcg->memory.low);
		if (min == rw->model.min[i] && low == rw->model.low[i])
			continue;
		mlf_failure_at(f, "protect.reset", MLF_NONE, MLF_NONE, MLF_NONE,
			       i);
		mlf_failure_msg(f, "memory.min %lu and memory.low %lu, expected %lu and %lu (%s)",
				min, low, rw->model.min[i], rw->model.low[i],
				rw->w->slots[i].state == SLOT_ONLINE ?
					"as the harness wrote them" :
					"css_offline resets both");
		return false;
	}
	return true;
}

/* The folios the model has charged to slot @i, on every node. */
static long model_charged(const struct mlf_reclaim_check_state *rw, int i)
{
	long n = 0;
	int nid, t;

	for (nid = 0; nid < MAX_NUMNODES; nid++)
		for (t = 0; t < ANON_AND_FILE; t++)
			n += rw->model.charged[i][nid][t];
	return n;
}

bool check_usage_charged(const struct mlf_reclaim_check_state *rw,
			 struct mlf_failure *f)
{
	int i;

	for_each_live_slot(rw->w, i) {
		const struct mem_cgroup *memcg = rw->w->slots[i].memcg;
		long usage, want;

		usage = atomic_long_read(&memcg->usage);
		want = model_charged(rw, i);
		if (usage == want)
			continue;
		mlf_failure_at(f, "usage.charged", MLF_NONE, MLF_NONE, MLF_NONE,
			       i);
		mlf_failure_msg(f, "usage %ld, but %ld folios are charged to it",
				usage, want);
		return false;
	}
	return true;
}

void protect_visit_begin(const struct mlf_reclaim_check_state *rw,
			 const struct lruvec *lruvec,
			 struct mlf_protect_visit *v)
{
	v->slot = lruvec_memcg((struct lruvec *)lruvec)->id;
	v->nid = lruvec->pgdat->node_id;
	v->seg = READ_ONCE(lruvec->lrugen.seg);
	if (v->slot < 0 || v->slot >= rw->w->pool_size ||
	    v->slot >= MLF_RECLAIM_MAX_POOL) {
		v->slot = MLF_NONE;
		return;
	}
	v->charged = model_charged(rw, v->slot);
	v->min = rw->model.min[v->slot];
	v->low = rw->model.low[v->slot];
}

bool check_protect_decision(const struct mlf_protect_visit *v, int op,
			    struct mlf_failure *f)
{
	const char *why;
	int want;

	if (v->slot == MLF_NONE)
		return true;
	/* eviction.c's protection, on the model's numbers at the visit */
	if (v->min >= v->charged) {
		want = MEMCG_LRU_YOUNG;
		why = "min";
	} else if (v->low >= v->charged && v->seg != MEMCG_LRU_TAIL) {
		want = MEMCG_LRU_TAIL;
		why = "low";
	} else {
		return true;
	}
	if (op == want)
		return true;
	mlf_failure_at(f, "protect.decision", v->nid, MLF_NONE, MLF_NONE,
		       v->slot);
	mlf_failure_msg(f, "shrink_one() decided %s for a memcg below memory.%s (min %lu, low %lu, %lu folios charged, segment %d): %s was due",
			op ? mlf_rotate_op_name(op) : "no rotation", why,
			v->min, v->low, v->charged, v->seg,
			mlf_rotate_op_name(want));
	return false;
}

/*
 * isolated.* and shadow.budget in one pass, with the model's isolated
 * folios counted once: true only if each of them would pass. Nothing is
 * named here; the driver runs the checks one by one when this says no.
 */
bool fast_reclaim_accounting(const struct mlf_reclaim_check_state *rw,
			     bool shadow)
{
	bool quiet = !rw->in_flight;
	mlf_isolated_t iso;
	int nid, type, i, k;

	for (k = 0; k < MLF_RECLAIM_MAX_PARKED; k++)
		quiet &= !rw->parked[k].used;
	model_isolated(rw, iso);
	for (nid = 0; nid < rw->w->nr_nodes; nid++) {
		for (type = 0; type < ANON_AND_FILE; type++) {
			long v = node_page_state_raw(&rw->w->nodes[nid],
						     NR_ISOLATED_ANON + type);

			if (v < 0 || (quiet && v))
				return false;
#ifdef CONFIG_LRU_GEN_ISO_COUNT
			if (v != node_sum(iso, rw->w->pool_size, nid, type))
				return false;
#endif
		}
		for (i = next_live_slot(rw->w, 0); i >= 0;
		     i = next_live_slot(rw->w, i + 1)) {
			struct lruvec *lruvec = slot_lruvec(rw, i, nid);

			if (!lruvec)
				continue;
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
			for (type = 0; type < ANON_AND_FILE; type++)
				if (atomic_long_read(&lruvec->lrugen.nr_isolated[type]) !=
				    iso[i][nid][type])
					return false;
#endif
			if (shadow &&
			    (long)workingset_lru_pages(lruvec) !=
				    model_on_lru(rw, iso, i, nid, LRU_GEN_ANON) +
					    model_on_lru(rw, iso, i, nid, LRU_GEN_FILE))
				return false;
		}
	}
	return true;
}

#endif /* MLF_EVICTION */
