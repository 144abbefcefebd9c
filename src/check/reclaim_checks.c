// SPDX-License-Identifier: GPL-2.0
/*
 * The reclaim accounting checks (reclaim_checks.h). What the harness knows
 * independently of the counters they check: which folios sit on an
 * isolated list (parked evictions and the one in flight), the folios on
 * each lruvec's generation lists (walked here, not read from nr_pages), and
 * which memcg each stat event was meant for (reclaim_world.c attributes
 * them itself).
 */
/*
 * Only the reclaim port (src/mm/reclaim.cmake) defines MLF_EVICTION; a
 * build that compiles every file of src/ gets an empty object here.
 */
#ifdef MLF_EVICTION
#include "reclaim_checks.h"

static const char *const type_name[ANON_AND_FILE] __maybe_unused = { "anon", "file" };

unsigned long mlf_lruvec_count_folios(struct lruvec *lruvec, int type)
{
	unsigned long n = 0;
	int gen, zone;

	for (gen = 0; gen < MAX_NR_GENS; gen++)
		for (zone = 0; zone < MAX_NR_ZONES; zone++)
			n += list_count_nodes(&lruvec->lrugen.folios[gen][type][zone]);
	return n;
}

/* folios the harness knows are isolated from @lruvec (NULL: any) of @nid */
static __maybe_unused long
known_isolated(const struct mlf_reclaim_check_state *rw, int nid,
	       const struct lruvec *lruvec, int type)
{
	long n = 0;
	int k;

	for (k = 0; k < MLF_RECLAIM_MAX_PARKED; k++) {
		const struct lru_gen_eviction *ev = &rw->parked[k].ev;

		if (!rw->parked[k].used || ev->type != type ||
		    ev->lruvec->pgdat->node_id != nid ||
		    (lruvec && ev->lruvec != lruvec))
			continue;
		n += list_count_nodes(&ev->list);
	}
	if (rw->in_flight && rw->in_flight->type == type &&
	    rw->in_flight->lruvec->pgdat->node_id == nid &&
	    (!lruvec || rw->in_flight->lruvec == lruvec))
		n += list_count_nodes(&rw->in_flight->list);
	return n;
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
	int nid, type, i;

	for (nid = 0; nid < rw->w->nr_nodes; nid++) {
		for (type = 0; type < ANON_AND_FILE; type++) {
#ifdef CONFIG_LRU_GEN_ISO_COUNT
			long want = known_isolated(rw, nid, NULL, type);
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
				want = known_isolated(rw, nid, lruvec, type);
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
	int nid, type, i;

	for (nid = 0; nid < rw->w->nr_nodes; nid++) {
		for (type = 0; type < ANON_AND_FILE; type++) {
			long sum = 0;
			long v = node_page_state_raw(&rw->w->nodes[nid],
						     NR_ISOLATED_ANON + type);

			for (i = 0; i < rw->w->pool_size; i++) {
				struct lruvec *lruvec = slot_lruvec(rw, i, nid);

				if (lruvec)
					sum += atomic_long_read(&lruvec->lrugen.nr_isolated[type]);
			}
			if (v != sum) {
				mlf_failure_at(f, "isolated.sum", nid, MLF_NONE,
					       MLF_NONE, MLF_NONE);
				mlf_failure_msg(f,
						"NR_ISOLATED_%s = %ld, its lruvecs' nr_isolated[%s] sum to %ld",
						type ? "FILE" : "ANON", v,
						type_name[type], sum);
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

bool check_throttle_decision(const struct mlf_throttle_decision *d,
			     struct mlf_failure *f)
{
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
	struct lruvec *lruvec = d->lruvec;
	unsigned int evictable = 0, over = 0, want;
	int type;

	for (type = !d->swappiness; type < ANON_AND_FILE; type++) {
		unsigned long size = mlf_lruvec_count_folios(lruvec, type);
		long isolated = atomic_long_read(&lruvec->lrugen.nr_isolated[type]);

		if (!size)
			continue;
		evictable |= BIT(type);
		if (!d->exempt && isolated > (long)(size / MIN_NR_GENS))
			over |= BIT(type);
	}
	want = evictable & ~over;

	if (d->sleep && (d->exempt || !evictable || over != evictable)) {
		mlf_failure_at(f, "throttle.only_when_all",
			       lruvec->pgdat->node_id, MLF_NONE, MLF_NONE,
			       lruvec_memcg(lruvec)->id);
		mlf_failure_msg(f,
				"sleeps with evictable types %#x, over-isolated %#x%s",
				evictable, over, d->exempt ? " (kswapd: exempt)" : "");
		return false;
	}
	if (d->allowed != want) {
		mlf_failure_at(f, "throttle.allowed", lruvec->pgdat->node_id,
			       MLF_NONE, MLF_NONE, lruvec_memcg(lruvec)->id);
		mlf_failure_msg(f,
				"allows types %#x; evictable and not over-isolated: %#x",
				d->allowed, want);
		return false;
	}
#endif
	return true;
}

bool check_throttle_isolated(const struct lru_gen_eviction *ev,
			     struct mlf_failure *f)
{
#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
	if (!list_empty(&ev->list) && !(ev->allowed & BIT(ev->type))) {
		mlf_failure_at(f, "throttle.allowed",
			       ev->lruvec->pgdat->node_id, MLF_NONE, MLF_NONE,
			       lruvec_memcg(ev->lruvec)->id);
		mlf_failure_msg(f, "isolated %zu %s folios; allowed types %#x",
				list_count_nodes(&ev->list),
				type_name[ev->type], ev->allowed);
		return false;
	}
#endif
	return true;
}

bool check_shadow_budget(struct lruvec *lruvec, int memcg,
			 struct mlf_failure *f)
{
	unsigned long pages = workingset_lru_pages(lruvec);
	unsigned long folios = mlf_lruvec_count_folios(lruvec, LRU_GEN_ANON) +
			       mlf_lruvec_count_folios(lruvec, LRU_GEN_FILE);

	if (pages != folios) {
		mlf_failure_at(f, "shadow.budget", lruvec->pgdat->node_id,
			       MLF_NONE, MLF_NONE, memcg);
		mlf_failure_msg(f,
				"count_shadow_nodes counts %lu LRU pages; the lruvec has %lu folios on its lists",
				pages, folios);
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

#endif /* MLF_EVICTION */
