/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included at the top of the generated mlf_tree_vmscan.c, before the
 * tree's code: the port's view of memcgs and reclaim (memcontrol.h,
 * struct scan_control), the modelled shrink_one(), and the walk's
 * tracepoints. The tree's shrink_many() has none of the port's
 * trace_mlf_walk() calls, yet the world (reclaim.progress) and the
 * concurrent engine (reader.terminates, reader.nulls, rcu.uaf) rely on them,
 * so three names the tree's code uses are wrapped here, for this file only:
 *
 *   hlist_nulls_first_rcu()  a pass over a bin begins (the first pass of a
 *                            walk is its START, with the walk's generation)
 *   get_nulls_value()        a walk ended on another generation's nulls: a
 *                            RESTART
 *   mem_cgroup_tryget()      a failed tryget: TRYGET_FAILED
 *
 * They fire only inside mlf_shrink_many(), and the wrapped names keep their
 * meaning; nothing of the tree's code is edited.
 */
#ifndef _MLF_KERNEL_TREE_VMSCAN_BEFORE_H
#define _MLF_KERNEL_TREE_VMSCAN_BEFORE_H

#include "mm/vmscan.h"

#include "tree_reclaim.h"

/* the walk in progress on this thread (NULL: none) */
static __thread struct pglist_data *mlf_tree_walk_pgdat;
static __thread bool mlf_tree_walk_started;
static __thread unsigned long mlf_tree_walk_gen;

static inline struct hlist_nulls_head *
mlf_tree_bin_pass(struct hlist_nulls_head *head)
{
	struct pglist_data *pgdat = mlf_tree_walk_pgdat;
	long idx;

	if (!pgdat)
		return head;
	idx = head - &pgdat->memcg_lru.fifo[0][0];
	if (idx < 0 || idx >= MEMCG_NR_GENS * MEMCG_NR_BINS)
		return head;
	if (!mlf_tree_walk_started) {
		mlf_tree_walk_started = true;
		mlf_tree_walk_gen = idx / MEMCG_NR_BINS;
		trace_mlf_walk(MLF_WALK_START, pgdat, mlf_tree_walk_gen);
	}
	trace_mlf_walk(MLF_WALK_BIN, pgdat, idx % MEMCG_NR_BINS);
	return head;
}

#undef hlist_nulls_first_rcu
#define hlist_nulls_first_rcu(head) \
	(*((struct hlist_nulls_node __rcu __force **)&mlf_tree_bin_pass(head)->first))

static inline unsigned long
mlf_tree_nulls_value(const struct hlist_nulls_node *ptr)
{
	unsigned long value = (get_nulls_value)(ptr);

	if (mlf_tree_walk_pgdat && mlf_tree_walk_started &&
	    value != mlf_tree_walk_gen)
		trace_mlf_walk(MLF_WALK_RESTART, mlf_tree_walk_pgdat, value);
	return value;
}

#define get_nulls_value(ptr) mlf_tree_nulls_value(ptr)

static inline bool mlf_tree_tryget(struct mem_cgroup *memcg)
{
	if ((mem_cgroup_tryget)(memcg))
		return true;
	if (mlf_tree_walk_pgdat)
		trace_mlf_walk(MLF_WALK_TRYGET_FAILED, memcg, 0);
	return false;
}

#define mem_cgroup_tryget(memcg) mlf_tree_tryget(memcg)

#endif
