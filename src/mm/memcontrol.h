/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Modelled around the code under test: the part of struct mem_cgroup that
 * the memcg LRU depends on: a reference
 * count (css refcount: tryget fails once it reached zero), the online flag,
 * one lruvec per node, and the life cycle around them, after
 * mem_cgroup_css_{online,offline,released,free}() in mm/memcontrol.c:
 *
 *   alloc --online--> online --css_offline callback--> still online, in
 *   the old generation --CSS_ONLINE cleared--> offline (base reference
 *   dropped)
 *   --last put--> dead (tryget fails) --released--> unlinked
 *   --grace period--> freed (poisoned first)
 *
 * What reclaim would find in a memcg (protection, success, size) is not
 * modelled from pages here: the harness sets it in memcg->shrink, and the
 * modelled shrink_one() reads it.
 */
#ifndef _MLF_MM_MEMCONTROL_H
#define _MLF_MM_MEMCONTROL_H

#include "mmzone.h"

struct mem_cgroup_per_node {
	struct lruvec lruvec;
	struct mem_cgroup *memcg;	/* back pointer */
};

/*
 * What shrink_one() finds when it reclaims from this memcg. The modelled
 * build does not derive below_min / below_low from memory.min / low, so
 * the css_offline callback's reset of those does not clear them: an
 * offline memcg can still be found below min (the kernel's is when nothing
 * is charged to it: emin 0 >= usage 0) and, for the walk in flight, below
 * low (elow is recomputed only by the next mem_cgroup_calculate_protection()).
 * The reclaim build computes protection from memory.min / low and the
 * charge (eviction.c), where the reset takes effect.
 */
struct mem_cgroup_shrink_outcome {
	bool below_min;		/* mem_cgroup_below_min() */
	bool below_low;		/* mem_cgroup_below_low() */
	bool success;		/* try_to_shrink_lruvec() asks for rotation */
	bool sizable;		/* lruvec_is_sizable() */
	u8 nr_reclaimed;	/* pages one visit reclaims */
};

/* struct page_counter, reduced to memory.min and memory.low, in pages */
struct page_counter {
	unsigned long min;
	unsigned long low;
};

/* mm/page_counter.c, without the propagation to the parent's usage */
static inline void page_counter_set_min(struct page_counter *counter,
					unsigned long nr)
{
	WRITE_ONCE(counter->min, nr);
}

static inline void page_counter_set_low(struct page_counter *counter,
					unsigned long nr)
{
	WRITE_ONCE(counter->low, nr);
}

struct mem_cgroup {
	/* the harness's name for this memcg: m<id> in traces */
	int id;
	/*
	 * memory.min and memory.low: what the reclaim build's protection
	 * reads (eviction.c); the modelled build reads memcg->shrink instead
	 */
	struct page_counter memory;
	/* css reference count; online holds the base reference */
	atomic_long_t refcnt;
	/* css online flag */
	bool online;
	struct mem_cgroup_shrink_outcome shrink;
	struct mem_cgroup_per_node *nodeinfo[MAX_NUMNODES];
	struct rcu_head rcu;
#ifdef MLF_EVICTION
	MEMCG_EVICTION_FIELDS
#endif
};

static inline struct lruvec *get_lruvec(struct mem_cgroup *memcg, int nid)
{
	return &memcg->nodeinfo[nid]->lruvec;
}

static inline struct mem_cgroup *lruvec_memcg(struct lruvec *lruvec)
{
	return container_of(lruvec, struct mem_cgroup_per_node, lruvec)->memcg;
}

static inline bool mem_cgroup_online(struct mem_cgroup *memcg)
{
	return READ_ONCE(memcg->online);
}

static inline bool mem_cgroup_tryget(struct mem_cgroup *memcg)
{
	if (atomic_long_inc_not_zero(&memcg->refcnt))
		return true;
	/* a walk met a memcg whose last reference is gone (trace.h) */
	if (mlf_walk_active())
		trace_mlf_walk(MLF_WALK_TRYGET_FAILED, memcg, 0);
	return false;
}

static inline void css_get(struct mem_cgroup *memcg)
{
	atomic_long_add(1, &memcg->refcnt);
}

/*
 * Drop a reference. In the kernel the last put queues css_release_work,
 * which later calls mem_cgroup_css_released(); here the caller is told, and
 * runs css_release() when it chooses (the harness makes that an op of its
 * own, so inputs can hold a dead but still linked memcg).
 */
bool mem_cgroup_put(struct mem_cgroup *memcg);

#ifdef MLF_EVICTION
/* from memory.min / memory.low and the charge: src/mm/eviction.c */
bool mem_cgroup_below_min(struct mem_cgroup *target, struct mem_cgroup *memcg);
bool mem_cgroup_below_low(struct mem_cgroup *target, struct mem_cgroup *memcg);
#else
static inline bool mem_cgroup_below_min(struct mem_cgroup *target,
					struct mem_cgroup *memcg)
{
	(void)target;
	return READ_ONCE(memcg->shrink.below_min);
}

static inline bool mem_cgroup_below_low(struct mem_cgroup *target,
					struct mem_cgroup *memcg)
{
	(void)target;
	return READ_ONCE(memcg->shrink.below_low);
}
#endif

/*
 * Stable kernels from 6.12.y (the backport of "mm: memcg: compute
 * protection along the path" to shrink_one()) compute the effective
 * protection of each ancestor before shrink_one() asks below_min / low.
 * Neither model here keeps a computed elow / emin: the modelled build reads
 * the outcome, the reclaim build derives protection at the query from
 * memory.min / low and the charge. Nothing is left to compute, so a tree
 * that calls it runs unchanged.
 */
static inline void mem_cgroup_calculate_protection_path(struct mem_cgroup *root,
							struct mem_cgroup *memcg)
{
	(void)root, (void)memcg;
}

struct mem_cgroup *mem_cgroup_alloc(int id);
void mem_cgroup_css_online(struct mem_cgroup *memcg);
/*
 * The css_offline and css_released callbacks: the kernel tree's own
 * (mm/memcontrol.c's, cut by kernel/extract.py; kernel/tree_memcg_after.h)
 */
void mem_cgroup_css_offline(struct mem_cgroup *memcg);
void mem_cgroup_css_released(struct mem_cgroup *memcg);
/* CSS_ONLINE cleared: what offline_css() does after the callback */
void css_clear_online(struct mem_cgroup *memcg);
/* offline_css(): mem_cgroup_css_offline(), then css_clear_online() */
void css_offline(struct mem_cgroup *memcg);
/* css_released, then css_free after a grace period (poisoned first) */
void css_release(struct mem_cgroup *memcg);
/* Number of memcgs allocated and not yet freed. */
long mem_cgroup_nr_allocated(void);

#endif
