/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Node and memcg-local lruvec stat counters (after mm/vmstat.c and
 * mm/memcontrol.c) for the eviction port: __mod_node_page_state(),
 * __mod_lruvec_state(), lruvec_page_state_local(), lruvec_lru_size(), the
 * global vm events (count_vm_events(): PGSTEAL_*), and the redirection of
 * a dying memcg's updates to its parent (seed 001, patch 2).
 *
 * The redirection is a reconstruction, not the patch: 001's patch text is
 * not public (its cover letter is all we have: "extend the dying-memcg
 * stat redirection (previously cgroup v1 only) to all hierarchies", and
 * patch 3 "moves the dying check out of the RCU read-side critical
 * section"). Which updates it redirects is inferred: the refault events,
 * which 6.12 keeps per lruvec (workingset.c's mod_lruvec_state()); the
 * LRU sizes describe lists that stay with their lruvec (6.12 does not
 * reparent folios at offline), so they stay where the folios are. See
 * docs/reconstructions.md.
 */
#ifndef _MLF_MM_STATS_H
#define _MLF_MM_STATS_H

#include "memcontrol.h"

static inline struct pglist_data *lruvec_pgdat_of(struct lruvec *lruvec)
{
	return lruvec->pgdat;
}

static inline struct lruvec *mem_cgroup_lruvec(struct mem_cgroup *memcg,
					       struct pglist_data *pgdat)
{
	return get_lruvec(memcg, pgdat->node_id);
}

/* css_is_dying(): offlined; the root never dies */
static inline bool memcg_is_dying(struct mem_cgroup *memcg)
{
	return memcg->parent && !mem_cgroup_online(memcg);
}

/* LRU sizes follow the folios; everything else follows a live memcg */
static inline bool memcg_stat_redirected(enum node_stat_item idx)
{
	return idx >= WORKINGSET_REFAULT_ANON;
}

void __mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item idx,
			   long val);
void mod_node_page_state(struct pglist_data *pgdat, enum node_stat_item idx,
			 long val);
/* as the kernel's: a transiently negative sum reads as 0 */
unsigned long node_page_state(struct pglist_data *pgdat,
			      enum node_stat_item idx);
/* the raw value, for checks */
long node_page_state_raw(const struct pglist_data *pgdat,
			 enum node_stat_item idx);

/* global vm events: count_vm_events() / __count_vm_events() */
void __count_vm_events(enum vm_event_item item, long delta);
void count_vm_events(enum vm_event_item item, long delta);
/* the global sum (all_vm_events()'s entry for @item) */
unsigned long global_vm_event(enum vm_event_item item);

/* node counter and the memcg-local one (of a live ancestor if dying) */
void __mod_lruvec_state(struct lruvec *lruvec, enum node_stat_item idx,
			long val);
void mod_lruvec_state(struct lruvec *lruvec, enum node_stat_item idx,
		      long val);
unsigned long lruvec_page_state_local(struct lruvec *lruvec,
				      enum node_stat_item idx);
long lruvec_page_state_local_raw(const struct lruvec *lruvec,
				 enum node_stat_item idx);

/* the classic LRU's size of @lru up to @zone_idx (lru_zone_size) */
unsigned long lruvec_lru_size(struct lruvec *lruvec, enum lru_list lru,
			      int zone_idx);

#endif
