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
};

/* shrink_many() on one node: the memcg LRU walk of global reclaim */
void mlf_shrink_many(struct pglist_data *pgdat, struct scan_control *sc);
/* lru_gen_rotate_memcg() */
void mlf_rotate_memcg(struct lruvec *lruvec, int op);

#endif
