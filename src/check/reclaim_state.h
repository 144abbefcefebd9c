/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the reclaim accounting checks read (reclaim_checks.h), beyond the
 * memcg LRU's check state: the evictions parked between isolation and
 * their end, the one in flight, the root memcg, and the event counts the
 * harness attributes itself (stats.reparent). The reclaim target's world
 * (harness/reclaim_world.h) embeds one and keeps it up to date.
 */
#ifndef _MLF_CHECK_RECLAIM_STATE_H
#define _MLF_CHECK_RECLAIM_STATE_H

#include "mm/eviction.h"

#include "state.h"

#define MLF_RECLAIM_MAX_PARKED 4
#define MLF_RECLAIM_MAX_POOL 16
/*
 * the lruvec items that follow a live memcg (stats.h): the refault events,
 * which 6.12 keeps per lruvec; the redirection is seed 001's, reconstructed
 */
#define MLF_NR_EVENT_ITEMS (NR_VM_NODE_STAT_ITEMS - WORKINGSET_REFAULT_ANON)

struct mlf_reclaim_parked {
	bool used;
	int memcg;		/* pool slot; holds a css reference */
	struct lru_gen_eviction ev;
};

struct mlf_reclaim_check_state {
	/* the memcg LRU's check state: nodes, pool, slots */
	const struct mlf_check_state *w;
	struct mem_cgroup *root;
	struct mlf_reclaim_parked parked[MLF_RECLAIM_MAX_PARKED];
	/* the eviction of the current reclaim op between its probes */
	const struct lru_gen_eviction *in_flight;
	/*
	 * stats.reparent: the memcg-local event counts each lruvec should
	 * hold, attributed by the harness itself to the nearest memcg that
	 * is online (or the root), and the node totals.
	 */
	long expect[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES][MLF_NR_EVENT_ITEMS];
	long expect_root[MAX_NUMNODES][MLF_NR_EVENT_ITEMS];
	long expect_node[MAX_NUMNODES][MLF_NR_EVENT_ITEMS];
};

#endif
