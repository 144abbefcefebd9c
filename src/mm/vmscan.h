/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Reclaim's view of a request (struct scan_control, reduced to what the
 * memcg LRU walk reads) and the entry points the harness calls into
 * vmscan.c, which keeps the kernel's static functions static.
 */
#ifndef _MLF_MM_VMSCAN_H
#define _MLF_MM_VMSCAN_H

#include "memcontrol.h"

struct scan_control {
	/* How many pages shrink_list() should reclaim; 0: never enough */
	unsigned long nr_to_reclaim;
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
	/* The memcg reclaim is limited to; NULL: global (root) reclaim */
	struct mem_cgroup *target_mem_cgroup;
};

/* Global reclaim: the memcg LRU's walk is only for it */
static inline bool root_reclaim(struct scan_control *sc)
{
	return !sc->target_mem_cgroup;
}

/* shrink_many() on one node: the memcg LRU walk of global reclaim */
void mlf_shrink_many(struct pglist_data *pgdat, struct scan_control *sc);
/* lru_gen_rotate_memcg() */
void mlf_rotate_memcg(struct lruvec *lruvec, int op);
#ifdef MLF_EVICTION
/* lru_gen_shrink_node(): a node's global reclaim (the reclaim port) */
void mlf_shrink_node(struct pglist_data *pgdat, struct scan_control *sc);
#endif

#endif
