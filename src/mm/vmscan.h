/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Modelled around the code under test: reclaim's view of a request
 * (struct scan_control, reduced to what the memcg LRU walk reads), and
 * the entry points the harness calls into the tree's cut of mm/vmscan.c,
 * which keeps the kernel's static functions static (the glue defines them:
 * kernel/tree_vmscan_after.h, kernel/tree_glue.c).
 */
#ifndef _MLF_MM_VMSCAN_H
#define _MLF_MM_VMSCAN_H

#include <limits.h>

#include "memcontrol.h"

struct scan_control {
	/* How many pages shrink_list() should reclaim */
	unsigned long nr_to_reclaim;
	/* The memcg of memcg reclaim; NULL: root (global) reclaim */
	struct mem_cgroup *target_mem_cgroup;
	/* The highest zone to reclaim from */
	s8 reclaim_idx;
	/* Allocation order */
	s8 order;
	/* This context's GFP mask */
	gfp_t gfp_mask;
	/* Incremented by the number of pages reclaimed */
	unsigned long nr_reclaimed;
	/* Incremented by the number of lruvecs visited */
	unsigned long nr_scanned;
	/* Scan (total_size >> priority) pages at once */
	s8 priority;
	/* Proactive reclaim invoked by userspace through memory.reclaim */
	unsigned int proactive : 1;
	/* Writepage and unmapping: the reclaim port's node reclaim wants both */
	unsigned int may_writepage : 1;
	unsigned int may_unmap : 1;
};

/*
 * The harness's reclaim target (0: never met) as nr_to_reclaim, and
 * whether a walk's counts meet the request as 6.12's should_abort_scan()
 * puts it for root reclaim outside kswapd: nr_reclaimed >=
 * max(nr_to_reclaim, compact_gap(order)), compact_gap(order) = 2UL << order.
 * For the harness's own bookkeeping (which walk counts as aborted).
 */
static inline unsigned long mlf_nr_to_reclaim(unsigned long target)
{
	return target ? target : ULONG_MAX;
}

static inline bool mlf_reclaim_met(const struct scan_control *sc)
{
	return sc->nr_reclaimed >= max(sc->nr_to_reclaim, 2UL << sc->order);
}

/* shrink_many() on one node: the memcg LRU walk of global reclaim */
void mlf_shrink_many(struct pglist_data *pgdat, struct scan_control *sc);
/* lru_gen_rotate_memcg() */
void mlf_rotate_memcg(struct lruvec *lruvec, int op);
#ifdef MLF_EVICTION
/* lru_gen_shrink_node(): a node's global reclaim (the reclaim target) */
void mlf_shrink_node(struct pglist_data *pgdat, struct scan_control *sc);
#endif

/*
 * Where a function of the code under test is in the kernel tree it was
 * cut from (NULL: not one of them), and what that tree is ("Linux
 * 6.12.118 (linux-source-6.12.tar.xz) + p1-5-lockrand"), for the reports.
 */
struct mlf_tree_function {
	const char *name;
	const char *file;	/* in the tree: "mm/vmscan.c" */
	int line;
};
const struct mlf_tree_function *mlf_tree_where(const char *fn);
extern const char mlf_tree_name[];

#endif
