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

#include <stdio.h>
#include <string.h>

#include "bin_scan.h"

static const char *const type_name[ANON_AND_FILE] __maybe_unused = { "anon", "file" };

/* the pages of the model's isolated folios, by memcg, node and type */
typedef long mlf_isolated_t[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES][ANON_AND_FILE];

/*
 * Count the pages of the folios on @list, each where and as large as the
 * model says it is.
 */
static void count_held(const struct mlf_reclaim_folio_model *m,
		       const struct list_head *list, mlf_isolated_t iso)
{
	const struct list_head *pos;
	long n = 0;

	list_for_each(pos, list) {
		long i = model_folio(m, list_entry(pos, struct folio, lru));

		/* bounded: a list that does not end is the list checks' */
		if (++n > MLF_RECLAIM_MODEL_FOLIOS)
			return;
		if (i < 0)
			continue;
		iso[m->memcg[i]][m->node[i]][m->type[i]] += model_pages(m, i);
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

/* The model's pages of @memcg on @nid of @type that are on the LRU. */
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
						"NR_ISOLATED_%s = %ld, but %ld pages are isolated",
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
							"lruvec nr_isolated[%s] = %ld, but %ld pages are isolated from it",
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
	 * when more of it is isolated than its evictable size (the pages
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
		long i = model_folio(&rw->model,
				     list_entry(pos, struct folio, lru));

		if (i >= 0)
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
				"count_shadow_nodes counts %lu LRU pages; the model has %ld pages of it on the LRU",
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

/* The pages the model has charged to slot @i itself, on every node. */
static long model_charged(const struct mlf_reclaim_check_state *rw, int i)
{
	long n = 0;
	int nid, t;

	for (nid = 0; nid < MAX_NUMNODES; nid++)
		for (t = 0; t < ANON_AND_FILE; t++)
			n += rw->model.charged[i][nid][t];
	return n;
}

static bool slot_live(const struct mlf_reclaim_check_state *rw, int i)
{
	return i >= 0 && i < rw->w->pool_size && rw->w->slots[i].memcg;
}

/*
 * The usage of every live memcg as the kernel counts it: the pages charged
 * to it and to its descendants (a charge counts at every level up to the
 * root). Returns the root's: all of them.
 */
static long model_usage(const struct mlf_reclaim_check_state *rw,
			long usage[MLF_RECLAIM_MAX_POOL])
{
	long total = 0;
	int i, p, depth;

	memset(usage, 0, sizeof(long) * MLF_RECLAIM_MAX_POOL);
	for (i = 0; i < rw->w->pool_size; i++) {
		long own;

		if (!slot_live(rw, i))
			continue;
		own = model_charged(rw, i);
		total += own;
		for (p = i, depth = 0; p != MLF_ROOT && depth <= MLF_RECLAIM_MAX_POOL;
		     p = rw->model.parent[p], depth++)
			usage[p] += own;
	}
	return total;
}

/*
 * What the children of @p claim and use of their protection: the sum over
 * its live children of min(usage, memory.min) (@low: memory.low). The
 * kernel keeps it as the parent's children_{min,low}_usage, updated at
 * every charge, uncharge and setting.
 */
static unsigned long model_children_protected(const struct mlf_reclaim_check_state *rw,
					      const long *usage, int p, bool low)
{
	unsigned long sum = 0;
	int c;

	for (c = 0; c < rw->w->pool_size; c++) {
		unsigned long setting;

		if (!slot_live(rw, c) || rw->model.parent[c] != p)
			continue;
		setting = low ? rw->model.low[c] : rw->model.min[c];
		sum += min((unsigned long)usage[c], setting);
	}
	return sum;
}

/*
 * The effective protection of a memcg whose parent is not the root, by the
 * rules of mm/page_counter.c (its comment above effective_protection()):
 * the memcg's claim is what it uses of its setting; when its siblings and
 * it claim more than the parent's effective protection, each gets a share
 * of that in proportion to its claim; else it gets its claim, and with
 * memory_recursiveprot also a share of what the parent's protection leaves
 * unclaimed, in proportion to its unprotected usage.
 */
static unsigned long model_effective(unsigned long usage,
				     unsigned long parent_usage,
				     unsigned long setting,
				     unsigned long parent_effective,
				     unsigned long siblings_claim,
				     bool recursive)
{
	unsigned long claim = min(usage, setting);
	unsigned long unprotected, parent_unprotected;

	if (siblings_claim > parent_effective)
		return (unsigned long)((unsigned __int128)claim *
				       parent_effective / siblings_claim);
	if (!recursive || parent_effective <= siblings_claim ||
	    parent_usage <= siblings_claim || usage <= claim)
		return claim;
	parent_unprotected = parent_usage - siblings_claim;
	unprotected = min(usage - claim, parent_unprotected);
	return claim + (unsigned long)((unsigned __int128)(parent_effective -
							   siblings_claim) *
				       unprotected / parent_unprotected);
}

/*
 * The effective memory.min and memory.low of slot @i, computed down its
 * path from the root's child: the top level gets its settings, each level
 * below its share of its parent's. A memcg with nothing charged is below
 * any protection, and so is everything under it: 0 then.
 */
static void model_protection(const struct mlf_reclaim_check_state *rw,
			     const long *usage, int i, unsigned long *emin,
			     unsigned long *elow)
{
	int path[MLF_RECLAIM_MAX_POOL + 1];
	unsigned long pmin = 0, plow = 0;
	int n = 0, k;

	*emin = *elow = 0;
	for (k = i; k != MLF_ROOT && n <= MLF_RECLAIM_MAX_POOL;
	     k = rw->model.parent[k])
		path[n++] = k;
	while (n--) {
		int c = path[n], p = rw->model.parent[c];

		if (!usage[c])
			return;
		if (p == MLF_ROOT) {
			pmin = rw->model.min[c];
			plow = rw->model.low[c];
			continue;
		}
		pmin = model_effective(usage[c], usage[p], rw->model.min[c], pmin,
				       model_children_protected(rw, usage, p, false),
				       rw->model.recursive);
		plow = model_effective(usage[c], usage[p], rw->model.low[c], plow,
				       model_children_protected(rw, usage, p, true),
				       rw->model.recursive);
	}
	*emin = pmin;
	*elow = plow;
}

void model_kswapd_protection(struct mlf_reclaim_check_state *rw)
{
	long usage[MLF_RECLAIM_MAX_POOL];
	int i;

	model_usage(rw, usage);
	for (i = 0; i < rw->w->pool_size; i++)
		if (slot_live(rw, i))
			model_protection(rw, usage, i, &rw->model.kswapd_emin[i],
					 &rw->model.kswapd_elow[i]);
}

/* the memcg of slot @p, or the root for MLF_ROOT */
static struct mem_cgroup *model_memcg(const struct mlf_reclaim_check_state *rw,
				      int p)
{
	return p == MLF_ROOT ? rw->root : rw->w->slots[p].memcg;
}

static void tree_name(char *buf, size_t size, int p)
{
	if (p == MLF_ROOT)
		snprintf(buf, size, "the root");
	else
		snprintf(buf, size, "m%d", p);
}

/* Whether @parent's children list holds exactly the model's children. */
static bool tree_children(const struct mlf_reclaim_check_state *rw, int p,
			  struct mlf_failure *f)
{
	struct mem_cgroup *parent = model_memcg(rw, p), *c;
	int want = 0, got = 0, i;
	char who[16];

	for (i = 0; i < rw->w->pool_size; i++)
		if (slot_live(rw, i) && rw->model.parent[i] == p)
			want++;
	list_for_each_entry(c, &parent->children, sibling) {
		/* bounded: a list that does not end is wrong anyway */
		if (++got > rw->w->pool_size || !slot_live(rw, c->id) ||
		    rw->w->slots[c->id].memcg != c ||
		    rw->model.parent[c->id] != p) {
			tree_name(who, sizeof(who), p);
			mlf_failure_at(f, "tree.links", MLF_NONE, MLF_NONE,
				       MLF_NONE, p == MLF_ROOT ? MLF_NONE : p);
			mlf_failure_msg(f, "the children list of %s holds a memcg that is not a live child of it (entry %d)",
					who, got);
			return false;
		}
	}
	if (got == want)
		return true;
	tree_name(who, sizeof(who), p);
	mlf_failure_at(f, "tree.links", MLF_NONE, MLF_NONE, MLF_NONE,
		       p == MLF_ROOT ? MLF_NONE : p);
	mlf_failure_msg(f, "%d memcgs on the children list of %s, %d live children in the model",
			got, who, want);
	return false;
}

bool check_tree_links(const struct mlf_reclaim_check_state *rw,
		      struct mlf_failure *f)
{
	int i;

	if (!tree_children(rw, MLF_ROOT, f))
		return false;
	for_each_live_slot(rw->w, i) {
		struct mem_cgroup *memcg = rw->w->slots[i].memcg;
		struct mem_cgroup *parent = model_memcg(rw, rw->model.parent[i]);

		if (memcg->parent != parent ||
		    memcg->memory.parent != &parent->memory) {
			mlf_failure_at(f, "tree.links", MLF_NONE, MLF_NONE,
				       MLF_NONE, i);
			mlf_failure_msg(f, "m%d's parent (or its page counter's) is not the memcg it was onlined under",
					i);
			return false;
		}
		if (!tree_children(rw, i, f))
			return false;
	}
	return true;
}

bool check_isolated_zones(const struct mlf_reclaim_check_state *rw,
			  const struct lru_gen_eviction *ev,
			  struct mlf_failure *f)
{
	const struct list_head *pos;
	long n = 0;

	if (!rw->run)
		return true;
	list_for_each(pos, &ev->list) {
		long i = model_folio(&rw->model,
				     list_entry(pos, struct folio, lru));

		if (++n > MLF_RECLAIM_MODEL_FOLIOS)
			return true;
		if (i < 0 || rw->model.zone_of[i] <= rw->run->reclaim_idx)
			continue;
		mlf_failure_at(f, "reclaim.zone", rw->run->nid, MLF_NONE,
			       MLF_NONE, lruvec_memcg(ev->lruvec)->id);
		mlf_failure_msg(f, "isolated f%ld of zone %d; the run reclaims from zones 0 to %d",
				i, rw->model.zone_of[i], rw->run->reclaim_idx);
		return false;
	}
	return true;
}

bool check_usage_charged(const struct mlf_reclaim_check_state *rw,
			 struct mlf_failure *f)
{
	long usage[MLF_RECLAIM_MAX_POOL];
	long total = model_usage(rw, usage), got;
	int i;

	for_each_live_slot(rw->w, i) {
		const struct mem_cgroup *memcg = rw->w->slots[i].memcg;

		got = atomic_long_read(&memcg->memory.usage);
		if (got == usage[i])
			continue;
		mlf_failure_at(f, "usage.charged", MLF_NONE, MLF_NONE, MLF_NONE,
			       i);
		mlf_failure_msg(f, "usage %ld, but %ld pages are charged to it and its descendants (%ld to it)",
				got, usage[i], model_charged(rw, i));
		return false;
	}
	got = atomic_long_read(&rw->root->memory.usage);
	if (got != total) {
		mlf_failure_at(f, "usage.charged", MLF_NONE, MLF_NONE, MLF_NONE,
			       MLF_NONE);
		mlf_failure_msg(f, "the root's usage is %ld, but %ld pages are charged below it",
				got, total);
		return false;
	}
	return true;
}

void protect_visit_begin(const struct mlf_reclaim_check_state *rw,
			 const struct lruvec *lruvec,
			 struct mlf_protect_visit *v)
{
	long usage[MLF_RECLAIM_MAX_POOL];

	memset(v, 0, sizeof(*v));
	v->slot = lruvec_memcg((struct lruvec *)lruvec)->id;
	v->nid = lruvec->pgdat->node_id;
	if (!slot_live(rw, v->slot) || v->slot >= MLF_RECLAIM_MAX_POOL) {
		v->slot = MLF_NONE;
		return;
	}
	v->seg = rw->model.seg[v->slot][v->nid];
	model_usage(rw, usage);
	v->usage = usage[v->slot];
	v->online = rw->w->slots[v->slot].state == SLOT_ONLINE;
	v->min = rw->model.min[v->slot];
	v->low = rw->model.low[v->slot];
	if (rw->run && rw->run->kswapd) {
		/* kswapd's pass over the tree computed it (shrink_one()) */
		v->emin = rw->model.kswapd_emin[v->slot];
		v->elow = rw->model.kswapd_elow[v->slot];
	} else {
		/* recomputed along the path (mem_cgroup_calculate_protection_path()) */
		model_protection(rw, usage, v->slot, &v->emin, &v->elow);
	}
}

/* what shrink_one() decides before the eviction, or 0 if it evicts */
static int protect_due(const struct mlf_protect_visit *v, const char **why)
{
	if (v->emin >= (unsigned long)v->usage) {
		*why = "min";
		return MEMCG_LRU_YOUNG;
	}
	if (v->elow >= (unsigned long)v->usage && v->seg != MEMCG_LRU_TAIL) {
		*why = "low";
		return MEMCG_LRU_TAIL;
	}
	return 0;
}

/* @what: the decision shrink_one() returned, or that it went on to evict */
static bool protect_failed(const struct mlf_protect_visit *v, int want,
			   const char *why, const char *what,
			   struct mlf_failure *f)
{
	mlf_failure_at(f, "protect.decision", v->nid, MLF_NONE, MLF_NONE,
		       v->slot);
	mlf_failure_msg(f, "shrink_one() %s for m%d, below its effective memory.%s (effective min %lu, low %lu; memory.min %lu, memory.low %lu; usage %ld; segment %d): %s was due",
			what, v->slot, why, v->emin, v->elow, v->min, v->low,
			v->usage, v->seg, mlf_rotate_op_name(want));
	return false;
}

bool check_protect_decision(const struct mlf_protect_visit *v, int op,
			    struct mlf_failure *f)
{
	const char *why = NULL;
	char what[40];
	int want;

	if (v->slot == MLF_NONE)
		return true;
	want = protect_due(v, &why);
	if (!want || op == want)
		return true;
	snprintf(what, sizeof(what), "decided %s",
		 op ? mlf_rotate_op_name(op) : "no rotation");
	return protect_failed(v, want, why, what, f);
}

int model_initial_priority(const struct mlf_reclaim_check_state *rw, int nid,
			   int priority, unsigned long nr_to_reclaim)
{
	mlf_isolated_t iso;
	unsigned long reclaimable = 0;
	int i, type, p;

	if (priority != DEF_PRIORITY || nr_to_reclaim < MIN_LRU_BATCH)
		return priority;
	/*
	 * (total >> priority) * reclaimed_to_scanned_ratio = nr_to_reclaim,
	 * where the ratio is inactive / total: the pages of the node on the
	 * LRU (this port counts every one as inactive), anon too (no swap
	 * limit); reclaimable rounded down, nr_to_reclaim up, and capped to
	 * [DEF_PRIORITY / 2, DEF_PRIORITY] against overshooting shrinkers
	 * (3f74e6bd3b84)
	 */
	model_isolated(rw, iso);
	for (i = 0; i < rw->w->pool_size; i++)
		for (type = 0; type < ANON_AND_FILE; type++)
			reclaimable += model_on_lru(rw, iso, i, nid, type);
	p = (int)fls_long(reclaimable) - 1 - (int)fls_long(nr_to_reclaim - 1);
	return p < DEF_PRIORITY / 2 ? DEF_PRIORITY / 2 :
	       p > DEF_PRIORITY	    ? DEF_PRIORITY :
					      p;
}

static bool fail_priority(const struct mlf_reclaim_check_state *rw,
			  int nid, int memcg, int got, const char *where,
			  struct mlf_failure *f)
{
	mlf_failure_at(f, "reclaim.priority", nid, MLF_NONE, MLF_NONE, memcg);
	mlf_failure_msg(f, "%s runs at priority %d; the run asked %lu pages at priority %d, so set_initial_priority() on the model's pages gives %d",
			where, got, rw->run->nr_to_reclaim,
			rw->run->asked_priority, rw->run->priority);
	return false;
}

void aging_picture(struct mlf_reclaim_check_state *rw, struct lruvec *lruvec)
{
	struct mlf_protect_visit *v = rw->run ? &rw->run->visit : NULL;
	const struct mem_cgroup *memcg = lruvec_memcg(lruvec);
	int slot = memcg->id, nid = lruvec->pgdat->node_id, type, k;

	if (!v || v->slot != slot || !slot_live(rw, slot))
		return;
	v->max_seq = rw->model.max_seq[slot][nid];
	v->young = v->old = 0;
	for (type = 0; type < ANON_AND_FILE; type++)
		v->min_seq[type] = rw->model.min_seq[slot][nid][type];
	for_each_lruvec_folio(&rw->model, slot, nid, k) {
		if (rw->model.iso_by[k] ||
		    rw->model.type[k] < !rw->model.swappiness[slot])
			continue;
		if (rw->model.seq[k] == v->max_seq)
			v->young += model_pages(&rw->model, k);
		else if (rw->model.seq[k] == v->max_seq - MIN_NR_GENS)
			v->old += model_pages(&rw->model, k);
	}
}

bool nr_to_scan_aged(const struct mlf_reclaim_check_state *rw,
		     struct lruvec *lruvec, const struct mlf_nr_to_scan *p)
{
	const struct mlf_protect_visit *v = rw->run ? &rw->run->visit : NULL;
	int slot = lruvec_memcg(lruvec)->id;
	long usage[MLF_RECLAIM_MAX_POOL];

	if (p->nr_to_scan != -1 || !slot_live(rw, slot) ||
	    slot >= MLF_RECLAIM_MAX_POOL)
		return false;
	if (!v || v->slot != slot)
		return true;
	/* mem_cgroup_below_min()'s -1 ages nothing */
	model_usage(rw, usage);
	return v->emin < (unsigned long)usage[slot];
}

bool check_nr_to_scan(const struct mlf_reclaim_check_state *rw,
		      struct lruvec *lruvec, const struct mlf_nr_to_scan *p,
		      struct mlf_failure *f)
{
	struct mlf_reclaim_run *run = rw->run;
	const struct mlf_protect_visit *v;
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);
	int slot = memcg->id, nid = lruvec->pgdat->node_id, type;
	int prio = run ? run->priority : p->sc->priority;
	unsigned long total = 0;
	long usage[MLF_RECLAIM_MAX_POOL], got = p->nr_to_scan;
	const char *why;
	mlf_isolated_t iso;
	bool online, can_swap, cold_out, due;
	unsigned long nr;

	if (!run || !slot_live(rw, slot))
		return true;
	v = &run->visit;
	if (p->sc->priority != prio)
		return fail_priority(rw, nid, slot, p->sc->priority,
				     "get_nr_to_scan()", f);
	if (v->slot != slot)
		return true;	/* not the walk's visit (a parked eviction's) */
	/* the eviction begins: shrink_one() found the memcg unprotected */
	if (!v->evicting) {
		int want = protect_due(v, &why);

		run->visit.evicting = true;
		if (want)
			return protect_failed(v, want, why, "went on to evict", f);
	}
	model_usage(rw, usage);
	online = rw->w->slots[slot].state == SLOT_ONLINE;
	/* the effective min of the visit, against the charge now */
	run->visit.last_nr_to_scan = got;
	model_isolated(rw, iso);
	for (type = !rw->model.swappiness[slot]; type < ANON_AND_FILE; type++)
		total += model_on_lru(rw, iso, slot, nid, type);
	if (v->emin >= (unsigned long)usage[slot]) {
		if (got == -1)
			return true;
		why = "below its effective memory.min: -1, rotate it (8aa420617918)";
		goto fail;
	}
	/*
	 * should_run_aging() on the generations as asked: out of cold
	 * folios (nothing to scan), or MIN_NR_GENS + 1 generations spread
	 * unevenly (the youngest over 1/MIN_NR_GENS of the pages, or the
	 * one MIN_NR_GENS older under 1/(MIN_NR_GENS + 2))
	 */
	can_swap = rw->model.swappiness[slot];
	cold_out = v->min_seq[!can_swap] + MIN_NR_GENS > v->max_seq;
	due = cold_out ||
	      (v->min_seq[!can_swap] + MIN_NR_GENS == v->max_seq &&
	       ((unsigned long)v->young * MIN_NR_GENS > total ||
		(unsigned long)v->old * (MIN_NR_GENS + 2) < total));
	nr = cold_out ? 0 : total;
	if (nr && !online) {
		if (got == (long)nr)
			return true;
		why = "offline: all its evictable pages";
	} else if (!due || prio == DEF_PRIORITY) {
		if (got == (long)(nr >> prio))
			return true;
		why = cold_out ? "out of cold folios: none" :
		      due	 ? "its evictable pages >> priority, the aging not tried at DEF_PRIORITY" :
				   "its evictable pages >> priority, the aging not due";
	} else {
		/*
		 * the aging ran (-1): it loses a race (0) only to an aging
		 * between get_nr_to_scan()'s read of max_seq and
		 * try_to_inc_max_seq(), and no reclaimer here yields there
		 */
		if (got == -1)
			return true;
		why = "the aging's -1, as it was due";
	}
fail:
	mlf_failure_at(f, "reclaim.nr_to_scan", nid, MLF_NONE, MLF_NONE, slot);
	mlf_failure_msg(f, "get_nr_to_scan() = %ld for m%d (%s; %lu evictable pages on the LRU, %ld in the youngest generation, %ld in the one MIN_NR_GENS older, seqs %lu-%lu, usage %ld, effective min %lu, priority %d): %s was due",
			got, slot, online ? "online" : "offline", total,
			v->young, v->old, v->min_seq[!rw->model.swappiness[slot]],
			v->max_seq, usage[slot], v->emin, prio, why);
	return false;
}

/* Whether should_abort_scan() must say stop now, on the model's numbers. */
static bool model_abort(const struct mlf_reclaim_check_state *rw,
			const struct mlf_reclaim_run *run, const char **why)
{
	int i;

	if ((unsigned long)run->freed >=
	    max(run->nr_to_reclaim, 2UL << run->order)) {
		*why = "the run freed max(nr_to_reclaim, compact_gap(order)) pages";
		return true;
	}
	if (!run->kswapd || run->order)
		return false;
	for (i = 0; i <= run->reclaim_idx; i++) {
		const struct mlf_zone_model *z = &rw->model.zone[run->nid][i];
		long free;
		unsigned long mark;

		if (!z->managed)
			continue;
		free = model_zone_free(&rw->model, run->nid, i);
		mark = z->wmark[rw->model.tiering ? WMARK_PROMO : WMARK_HIGH] +
		       z->boost + MIN_LRU_BATCH;
		if (free <= (long)mark + z->reserve[run->reclaim_idx])
			return false;
	}
	*why = "kswapd at order 0: every eligible zone is above its high (or promo) watermark + MIN_LRU_BATCH";
	return true;
}

bool check_abort_batch(struct mlf_reclaim_check_state *rw,
		       struct mlf_failure *f)
{
	struct mlf_reclaim_run *run = rw->run;
	const char *why = NULL;

	if (!run)
		return true;
	if (run->abort_due) {
		mlf_failure_at(f, "reclaim.abort", run->nid, MLF_NONE, MLF_NONE,
				run->visit.slot);
		mlf_failure_msg(f, "an eviction batch ran after one that ended with should_abort_scan()'s condition met (%s)",
				run->abort_why);
		return false;
	}
	run->abort_due = model_abort(rw, run, &why);
	run->abort_why = why;
	return true;
}

bool check_abort_end(const struct mlf_reclaim_check_state *rw, bool aborted,
		     struct mlf_failure *f)
{
	const struct mlf_reclaim_run *run = rw->run;
	const char *why;

	if (!run || !aborted || model_abort(rw, run, &why))
		return true;
	mlf_failure_at(f, "reclaim.abort", run->nid, MLF_NONE, MLF_NONE,
		       MLF_NONE);
	mlf_failure_msg(f, "the walk stopped on an entry, but should_abort_scan()'s condition does not hold (%ld of %lu pages freed, order %d%s)",
			run->freed, run->nr_to_reclaim, run->order,
			run->kswapd ? ", kswapd: some eligible zone is at or below its high watermark + MIN_LRU_BATCH" : "");
	return false;
}

bool check_seg_model(const struct mlf_reclaim_check_state *rw,
		     struct mlf_failure *f)
{
	static const char *const names[] = { "default", "head", "tail" };
	int nid, slot;

	for (slot = 0; slot < rw->w->pool_size; slot++) {
		const struct mem_cgroup *memcg = rw->w->slots[slot].memcg;

		if (!memcg || slot >= MLF_RECLAIM_MAX_POOL)
			continue;
		for (nid = 0; nid < rw->w->nr_nodes; nid++) {
			const struct lru_gen_folio *lrugen =
				&get_lruvec((struct mem_cgroup *)memcg, nid)->lrugen;
			int got = mlf_seg_kind(READ_ONCE(lrugen->seg)),
			    want = mlf_seg_kind(rw->model.seg[slot][nid]);

			if (hlist_nulls_unhashed(&lrugen->list) || got == want)
				continue;
			mlf_failure_at(f, "seg.semantics", nid, lrugen->gen,
				       MLF_NONE, slot);
			mlf_failure_msg(f, "m%d is in the %s segment; the rotations asked of it leave it in the %s one",
					slot, got >= 0 ? names[got] : "?",
					want >= 0 ? names[want] : "?");
			return false;
		}
	}
	return true;
}

bool check_zone_alloc(const struct mlf_reclaim_check_state *rw, int nid,
		      int z, long nr, bool got, struct mlf_failure *f)
{
	const struct mlf_zone_model *m = &rw->model.zone[nid][z];
	long free = model_zone_free(&rw->model, nid, z);

	if (got == (free >= nr))
		return true;
	mlf_failure_at(f, "zone.free", nid, MLF_NONE, MLF_NONE, MLF_NONE);
	mlf_failure_msg(f, "the allocator %s %ld pages of zone %d, which has %ld free (%ld managed, %ld held by others, %ld of folios)",
			got ? "gave" : "refused", nr, z, free, m->managed,
			m->used, rw->model.zone_pages[nid][z]);
	return false;
}

bool check_zone_free(const struct mlf_reclaim_check_state *rw,
		     struct mlf_failure *f)
{
	int nid, z;

	for (nid = 0; nid < rw->w->nr_nodes; nid++) {
		for (z = 0; z < MAX_NR_ZONES; z++) {
			const struct mlf_zone_model *m = &rw->model.zone[nid][z];
			long want = model_zone_free(&rw->model, nid, z);
			long got = atomic_long_read(&rw->w->nodes[nid].node_zones[z].vm_stat[NR_FREE_PAGES]);

			if (got == want)
				continue;
			mlf_failure_at(f, "zone.free", nid, MLF_NONE, MLF_NONE,
				       MLF_NONE);
			mlf_failure_msg(f, "zone %d has %ld free pages; %ld managed, %ld held by others and %ld of folios leave %ld",
					z, got, m->managed, m->used,
					rw->model.zone_pages[nid][z], want);
			return false;
		}
	}
	return true;
}

/*
 * The harness's shrinkers as it registers them (mm/shrinker.c): the batch
 * do_shrink_slab() scans in (SHRINK_BATCH for none) and their seeks
 */
static const struct {
	long batch;
	int seeks;
} model_shrinkers[MLF_NR_SHRINKERS] = {
	{ SHRINK_BATCH, DEFAULT_SEEKS },
	{ 16, 1 },
};

bool check_slab_call(struct mlf_reclaim_check_state *rw,
		     const struct mlf_slab_call *call, struct mlf_failure *f)
{
	const struct mlf_reclaim_run *run = rw->run;
	int slot = call->memcg->id, nid = call->nid, id = call->shrinker->id;
	long *objects, *deferred, freeable, nr, delta, total, scanned = 0;
	long batch, left;
	int prio = run ? run->priority : call->priority, seeks;

	if (!slot_live(rw, slot) || id < 0 || id >= MLF_NR_SHRINKERS)
		return true;
	batch = model_shrinkers[id].batch;
	seeks = model_shrinkers[id].seeks;
	if (run && run->visit.slot == slot)
		rw->run->visit.slab_calls++;
	if (call->priority != prio)
		return fail_priority(rw, nid, slot, call->priority,
				     "shrink_slab()", f);
	objects = &rw->model.objects[id][slot + 1][nid];
	deferred = &rw->model.deferred[id][slot + 1][nid];
	/*
	 * do_shrink_slab() on the model's numbers: the deferred work taken;
	 * the new work, freeable >> priority, times 4 / seeks (half of it
	 * all if the objects cost no seeks); scanned in batches of the
	 * shrinker's size, or all at once if that is more than there are;
	 * the work not done deferred, at most twice the objects
	 */
	freeable = *objects;
	if (freeable) {
		nr = *deferred;
		delta = seeks ? (long)(((unsigned long)freeable >> prio) * 4 /
					seeks) :
				freeable / 2;
		total = min((nr >> prio) + delta, 2 * freeable);
		left = total;
		while (left >= batch || left >= freeable) {
			long n = min(batch, left);

			*objects -= min(n, *objects);
			left -= n;
			scanned += n;
		}
		*deferred = min(max(nr + delta - scanned, 0L), 2 * freeable);
	}
	if (mlf_slab_objects(call->memcg, nid, id) == *objects &&
	    mlf_slab_deferred(call->memcg, nid, id) == *deferred)
		return true;
	mlf_failure_at(f, "slab.scan", nid, MLF_NONE, MLF_NONE, slot);
	mlf_failure_msg(f, "shrinker %d at priority %d left %ld objects and %ld deferred; from %ld objects and the deferred work, do_shrink_slab() scans %ld and leaves %ld objects and %ld deferred",
			id, prio, mlf_slab_objects(call->memcg, nid, id),
			mlf_slab_deferred(call->memcg, nid, id), freeable,
			scanned, *objects, *deferred);
	return false;
}

bool check_shrink_decision(const struct mlf_reclaim_check_state *rw,
			   const struct mlf_protect_visit *v, int op,
			   struct mlf_failure *f)
{
	const struct mlf_reclaim_run *run = rw->run;
	unsigned long total = 0;
	const char *why;
	mlf_isolated_t iso;
	bool success, sizable;
	int type, want, seg;

	if (v->slot == MLF_NONE || !run || !v->evicting)
		return true;
	/* now: others that ran while it evicted may have rotated it */
	seg = rw->model.seg[v->slot][v->nid];
	model_isolated(rw, iso);
	for (type = !rw->model.swappiness[v->slot]; type < ANON_AND_FILE; type++)
		total += model_on_lru(rw, iso, v->slot, v->nid, type);
	success = v->last_nr_to_scan < 0;
	sizable = v->online ? total >> run->priority : total;
	if (success && v->online) {
		want = MEMCG_LRU_YOUNG;
		why = "the aging asked for a rotation and it is online";
	} else if (!success && sizable) {
		want = 0;
		why = "it is still sizable";
	} else {
		/* one retry if offlined or too small */
		want = seg != MEMCG_LRU_TAIL ? MEMCG_LRU_TAIL : MEMCG_LRU_YOUNG;
		why = success ? "offline: one more try at the tail" :
				"too small: one more try at the tail";
	}
	if (op == want)
		return true;
	mlf_failure_at(f, "reclaim.decision", v->nid, MLF_NONE, MLF_NONE,
		       v->slot);
	mlf_failure_msg(f, "shrink_one() decided %s for m%d after its eviction; %s was due: %s (%s, %lu evictable pages on the LRU, priority %d, last get_nr_to_scan() %ld, segment %d)",
			op ? mlf_rotate_op_name(op) : "no rotation", v->slot,
			want ? mlf_rotate_op_name(want) : "no rotation", why,
			v->online ? "online" : "offline", total, run->priority,
			v->last_nr_to_scan, seg);
	return false;
}

bool check_slab_visit(const struct mlf_protect_visit *v, int op,
		      struct mlf_failure *f)
{
	const char *why = NULL;
	int want;

	(void)op;
	if (v->slot == MLF_NONE)
		return true;
	/*
	 * shrink_one() shrinks the slab after the eviction, and only then:
	 * shrink_slab_memcg() calls every shrinker of an online memcg
	 */
	if (protect_due(v, &why))
		want = 0;
	else
		want = v->online ? MLF_NR_SHRINKERS : 0;
	if (v->slab_calls == want)
		return true;
	mlf_failure_at(f, "slab.scan", v->nid, MLF_NONE, MLF_NONE, v->slot);
	mlf_failure_msg(f, "shrink_one() called %d shrinkers for m%d; %d were due (%s%s)",
			v->slab_calls, v->slot, want,
			why ? "returned before the eviction: below memory." : "",
			why ? why : v->online ? "reclaimed from, online" :
						"reclaimed from, offline");
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
