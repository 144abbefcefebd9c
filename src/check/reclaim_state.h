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
/* the folios of a reclaim world (MLF_RECLAIM_MAX_FOLIOS) */
#define MLF_RECLAIM_MODEL_FOLIOS 512
/*
 * the lruvec items that follow a live memcg (stats.h): the refault events,
 * which 6.12 keeps per lruvec; the redirection is seed 001's, reconstructed
 */
#define MLF_NR_EVENT_ITEMS (NR_VM_NODE_STAT_ITEMS - WORKINGSET_REFAULT_ANON)

/*
 * The folio model: what the harness did to each folio, kept by the harness
 * from its own ops (add, refault, drain) and from the frees the port
 * reports, never read from the port's counters. A folio is charged to the
 * (memcg, node) the op that added it named, with the type that op gave
 * it; it is isolated while it sits on the list of an eviction the harness
 * holds (parked, or in flight between its probes); it is on the LRU when
 * charged and not isolated. The reclaim checks take their expected values
 * from it (reclaim_checks.c).
 */
struct mlf_reclaim_folio_model {
	const struct folio *base;	/* folio i is base + i */
	int nr;
	/* no folio below this one is unused: where a new one is looked for */
	int first_free;
	bool used[MLF_RECLAIM_MODEL_FOLIOS];
	u8 memcg[MLF_RECLAIM_MODEL_FOLIOS];
	u8 node[MLF_RECLAIM_MODEL_FOLIOS];
	u8 type[MLF_RECLAIM_MODEL_FOLIOS];
	/* folios charged and not yet freed or drained */
	long charged[MLF_RECLAIM_MAX_POOL][MAX_NUMNODES][ANON_AND_FILE];
	/* each memcg's swappiness, as the harness set it */
	int swappiness[MLF_RECLAIM_MAX_POOL];
	/*
	 * each memcg's memory.min and memory.low: what the harness wrote
	 * while it was online, and 0 once css_offline ran (the callback
	 * resets both)
	 */
	unsigned long min[MLF_RECLAIM_MAX_POOL], low[MLF_RECLAIM_MAX_POOL];
	/* the op's reclaimer is kswapd (exempt from the throttle) */
	bool kswapd;
	/* the types the model allowed at the last throttle decision */
	unsigned int allowed;
};

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
	struct mlf_reclaim_folio_model model;
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
