/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The folio side of the multi-gen LRU (after include/linux/mmzone.h and
 * mm_inline.h of Linux 6.12), for the eviction port (MLF_EVICTION): folios,
 * the generation constants, the stat items, and the fields that mmzone.h
 * and memcontrol.h add to struct lru_gen_folio, lruvec, pglist_data and
 * mem_cgroup when MLF_EVICTION is defined.
 *
 * Scaled down: two zones, folios of one to eight pages (order 0..3), and
 * small LRU batches, so that inputs of a few dozen folios reach every
 * branch a kernel batch of 64 does.
 */
#ifndef _MLF_MM_EVICTION_TYPES_H
#define _MLF_MM_EVICTION_TYPES_H

#include "kernel/kernel.h"
#include "kernel/list.h"
#include "variant.h"

#define MIN_NR_GENS 2
#define MAX_NR_GENS 4
#define MAX_NR_ZONES 2
#define ANON_AND_FILE 2
#define LRU_GEN_ANON 0
#define LRU_GEN_FILE 1
#define DEF_PRIORITY 12
#define MAX_SWAPPINESS 200
/* kernel: BITS_PER_LONG and MAX_LRU_BATCH = 64 * BITS_PER_LONG */
#define MIN_LRU_BATCH 8
#define MAX_LRU_BATCH 64
/* xarray nodes hold 64 slots (count_shadow_nodes) */
#define XA_CHUNK_SHIFT 6

enum lru_list {
	LRU_INACTIVE_ANON,
	LRU_ACTIVE_ANON,
	LRU_INACTIVE_FILE,
	LRU_ACTIVE_FILE,
	LRU_UNEVICTABLE,
	NR_LRU_LISTS
};

/* node_stat_item, reduced to what reclaim accounting here touches */
enum node_stat_item {
	NR_LRU_BASE,
	NR_INACTIVE_ANON = NR_LRU_BASE,
	NR_ACTIVE_ANON,
	NR_INACTIVE_FILE,
	NR_ACTIVE_FILE,
	NR_UNEVICTABLE,
	NR_ISOLATED_ANON,
	NR_ISOLATED_FILE,
	WORKINGSET_REFAULT_ANON,
	WORKINGSET_REFAULT_FILE,
	NR_VM_NODE_STAT_ITEMS
};

/*
 * vm_event_item, reduced likewise: global events (count_vm_events()), not
 * per node or memcg. 6.12's evict_folios() counts PGSTEAL_ANON + type here
 * and nowhere else (the per-memcg PGSTEAL_KSWAPD / _DIRECT it also counts
 * are not ported).
 */
enum vm_event_item {
	PGSTEAL_ANON,
	PGSTEAL_FILE,
	NR_VM_EVENT_ITEMS
};

/* folio->flags bits */
enum pageflags {
	PG_lru,
	PG_active,
	PG_referenced,
	PG_dirty,
	PG_writeback,
	PG_reclaim,
	PG_swapbacked,	/* anon */
	PG_swapcache,
	PG_workingset,
};

struct lruvec;

/*
 * 1 << order pages (folio_nr_pages()). The harness owns the memory; the
 * port never frees it.
 */
struct folio {
	struct list_head lru;
	unsigned long flags;
	/* generation + 1 while on an MGLRU list, 0 otherwise */
	u8 gen;
	u8 zone;
	u8 order;
	/* the lruvec (memcg, node) it is charged to */
	struct lruvec *lruvec;
	/* the harness's name for it */
	int id;
};

#ifdef CONFIG_LRU_GEN_ISO_THROTTLE
/* the pages isolated from this lruvec and being reclaimed */
#define __LRU_GEN_NR_ISOLATED atomic_long_t nr_isolated[ANON_AND_FILE];
#else
#define __LRU_GEN_NR_ISOLATED
#endif

/* struct lru_gen_folio: the generations of folios of one lruvec */
#define LRU_GEN_FOLIO_EVICTION_FIELDS                                      \
	unsigned long max_seq;                                             \
	unsigned long min_seq[ANON_AND_FILE];                              \
	long nr_pages[MAX_NR_GENS][ANON_AND_FILE][MAX_NR_ZONES];           \
	struct list_head folios[MAX_NR_GENS][ANON_AND_FILE][MAX_NR_ZONES]; \
	__LRU_GEN_NR_ISOLATED

/*
 * struct lruvec: the lru lock, the memcg-local per-node stats
 * (lruvec_page_state_local), and the classic LRU's per-zone sizes, which
 * MGLRU never maintains (mem_cgroup_update_lru_size() is not on its path).
 */
#define LRUVEC_EVICTION_FIELDS                         \
	spinlock_t lru_lock;                           \
	atomic_long_t state_local[NR_VM_NODE_STAT_ITEMS]; \
	unsigned long lru_zone_size[NR_LRU_LISTS][MAX_NR_ZONES];

/*
 * struct pglist_data: node stats, the isolation throttle's events, and
 * kswapd's count of runs that reclaimed nothing (it gives up on the node at
 * MAX_RECLAIM_RETRIES)
 */
#define PGDAT_EVICTION_FIELDS                           \
	atomic_long_t vm_stat[NR_VM_NODE_STAT_ITEMS];   \
	atomic_long_t nr_throttled_isolated;            \
	int kswapd_failures;		/* Number of 'reclaimed == 0' runs */

/* the shrinkers of the reclaim port (shrinker.h) */
#define MLF_NR_SHRINKERS 2

/*
 * struct mem_cgroup_per_node: for each shrinker, the work deferred for
 * this memcg on this node (the shrinker_info's nr_deferred) and the
 * objects on its list_lru for this memcg and node
 */
#define MEMCG_PN_EVICTION_FIELDS                          \
	atomic_long_t nr_deferred[MLF_NR_SHRINKERS];      \
	atomic_long_t nr_items[MLF_NR_SHRINKERS];

/*
 * struct mem_cgroup: the hierarchy (the css's parent, children and
 * sibling: a tree below root_mem_cgroup), and swappiness (the charge and
 * memory.min / memory.low: memcg->memory, page_counter.h)
 */
#define MEMCG_EVICTION_FIELDS            \
	struct mem_cgroup *parent;       \
	struct list_head children;       \
	struct list_head sibling;        \
	int swappiness;

#endif
