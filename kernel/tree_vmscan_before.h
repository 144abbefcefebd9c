/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included at the top of the generated mlf_tree_vmscan.c, before the
 * tree's code: the harness's view of memcgs and reclaim (memcontrol.h,
 * struct scan_control), what shrink_one() and should_abort_scan() call
 * below the memcg LRU (src/mm/shrink_one.h: modelled, or the eviction
 * model's), and the walk's events. Two names of the tree's list headers
 * raise the walk's events (src/kernel/trace.h), for this file only:
 *
 *   hlist_nulls_first_rcu()  a pass over a bin begins (the first pass of a
 *                            walk is its START, with the walk's generation)
 *   get_nulls_value()        a pass ended on a nulls marker (NULLS, and a
 *                            RESTART if it is another generation's)
 *
 * (mem_cgroup_tryget() is memcontrol.h's, and raises its own.) They fire
 * only inside mlf_shrink_many(), and the wrapped names keep their meaning;
 * nothing of the tree's code is edited.
 */
#ifndef _MLF_KERNEL_TREE_VMSCAN_BEFORE_H
#define _MLF_KERNEL_TREE_VMSCAN_BEFORE_H

#include "mm/vmscan.h"
#ifdef MLF_EVICTION
#include "mm/eviction.h"
#endif

#include "mm/shrink_one.h"

/*
 * A pass over a bin: the shim's hook (trace.h), which ignores the writers'
 * use of the same name (rotations in the walk hold the node lock).
 */
static inline struct hlist_nulls_head *
mlf_tree_bin_pass(struct hlist_nulls_head *head)
{
	(void)mlf_walk_pass(head);
	return head;
}

#undef hlist_nulls_first_rcu
#define hlist_nulls_first_rcu(head) \
	(*((struct hlist_nulls_node __rcu __force **)&mlf_tree_bin_pass(head)->first))

/* the end of a pass on a nulls marker */
#define get_nulls_value(ptr) mlf_walk_nulls((get_nulls_value)(ptr))

#endif
