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
 * In the memcg_lru build what reclaim would find in a memcg (protection,
 * success, size) is not modelled from pages: the harness sets it in
 * memcg->shrink, and the modelled shrink_one() reads it. The reclaim build
 * (MLF_EVICTION) has the hierarchy, the hierarchical charge
 * (page_counter.c) and the effective protection mem_cgroup_calculate_
 * protection() computes over it (memcontrol.c).
 */
#ifndef _MLF_MM_MEMCONTROL_H
#define _MLF_MM_MEMCONTROL_H

#include "mmzone.h"
#include "page_counter.h"

/* the deepest memcg below the root that the port walks a path from */
#define MLF_MAX_MEMCG_DEPTH 32

struct mem_cgroup_per_node {
	struct lruvec lruvec;
	struct mem_cgroup *memcg;	/* back pointer */
#ifdef MLF_EVICTION
	MEMCG_PN_EVICTION_FIELDS
#endif
};

/*
 * What shrink_one() finds when it reclaims from this memcg. The modelled
 * build does not derive below_min / below_low from memory.min / low, so
 * the css_offline callback's reset of those does not clear them: an
 * offline memcg can still be found below min (the kernel's is when nothing
 * is charged to it: emin 0 >= usage 0) and, for the walk in flight, below
 * low (elow is recomputed only by the next mem_cgroup_calculate_protection()).
 * The reclaim build computes the effective protection from memory.min /
 * low over the tree and the charge (memcontrol.c, page_counter.c), where
 * the reset takes effect.
 */
struct mem_cgroup_shrink_outcome {
	bool below_min;		/* mem_cgroup_below_min() */
	bool below_low;		/* mem_cgroup_below_low() */
	bool success;		/* try_to_shrink_lruvec() asks for rotation */
	bool sizable;		/* lruvec_is_sizable() */
	u8 nr_reclaimed;	/* pages one visit reclaims */
};

struct mem_cgroup {
	/* the harness's name for this memcg: m<id> in traces */
	int id;
	/*
	 * The hierarchical usage, memory.min and memory.low and their
	 * effective values: what the reclaim build's protection reads; the
	 * modelled build reads memcg->shrink instead
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

/* the root of the hierarchy (the reclaim build's); NULL in the flat worlds */
extern struct mem_cgroup *root_mem_cgroup;

static inline bool mem_cgroup_is_root(struct mem_cgroup *memcg)
{
	return memcg == root_mem_cgroup;
}

/* the memcg LRU is the point of the port: memcgs are never disabled */
static inline bool mem_cgroup_disabled(void)
{
	return false;
}

#ifdef MLF_EVICTION
static inline struct mem_cgroup *parent_mem_cgroup(struct mem_cgroup *memcg)
{
	return memcg->parent;
}

/*
 * <linux/memcontrol.h>'s protection queries, on the effective values that
 * mem_cgroup_calculate_protection() computed last
 */
static inline bool mem_cgroup_unprotected(struct mem_cgroup *target,
					  struct mem_cgroup *memcg)
{
	/*
	 * The root memcg doesn't account charges, and doesn't support
	 * protection. The target memcg's protection is ignored, see
	 * mem_cgroup_calculate_protection() and mem_cgroup_protection()
	 */
	return mem_cgroup_disabled() || mem_cgroup_is_root(memcg) ||
		memcg == target;
}

static inline bool mem_cgroup_below_low(struct mem_cgroup *target,
					struct mem_cgroup *memcg)
{
	if (mem_cgroup_unprotected(target, memcg))
		return false;

	return READ_ONCE(memcg->memory.elow) >=
		page_counter_read(&memcg->memory);
}

static inline bool mem_cgroup_below_min(struct mem_cgroup *target,
					struct mem_cgroup *memcg)
{
	if (mem_cgroup_unprotected(target, memcg))
		return false;

	return READ_ONCE(memcg->memory.emin) >=
		page_counter_read(&memcg->memory);
}

/*
 * cgroup2's memory_recursiveprot mount option (CGRP_ROOT_MEMORY_RECURSIVE_PROT
 * in cgrp_dfl_root.flags): the harness sets it per input
 */
extern bool mlf_memory_recursiveprot;
/* sysctl kernel.numa_balancing: memory tiering (WMARK_PROMO) or not */
#define NUMA_BALANCING_MEMORY_TIERING 0x2
extern int sysctl_numa_balancing_mode;

/* mm/memcontrol.c: src/mm/memcontrol.c */
void mem_cgroup_calculate_protection(struct mem_cgroup *root,
				     struct mem_cgroup *memcg);
void mem_cgroup_calculate_protection_path(struct mem_cgroup *root,
					  struct mem_cgroup *memcg);
/* pre-order over @root's subtree, a reference on each memcg returned */
struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root,
				   struct mem_cgroup *prev, void *reclaim);
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

/*
 * The modelled build reads the outcome from memcg->shrink: nothing is
 * computed, so a shrink_one() that asks for the protection along the
 * path (stable 6.12.y) runs unchanged
 */
static inline void mem_cgroup_calculate_protection_path(struct mem_cgroup *root,
							struct mem_cgroup *memcg)
{
	(void)root, (void)memcg;
}
#endif /* MLF_EVICTION */

struct mem_cgroup *mem_cgroup_alloc(int id);
#ifdef MLF_EVICTION
/*
 * mem_cgroup_css_alloc()'s link to the parent: the page counter's parent,
 * the css's children list and the css's reference on its parent, which
 * the child holds until it is freed (css_free_rwork_fn(); here the caller
 * drops it when it releases the child)
 */
void mem_cgroup_link_parent(struct mem_cgroup *memcg, struct mem_cgroup *parent);
/* the kmem side of the css_offline callback: list_lru items to the parent */
void memcg_offline_kmem(struct mem_cgroup *memcg);
#endif
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
