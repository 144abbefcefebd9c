/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Modelled around the code under test: what the memcg LRU is embedded in.
 * The memcg LRU's own structures, constants and enums (struct
 * lru_gen_memcg, the memcg LRU members of struct lru_gen_folio,
 * MEMCG_NR_GENS, MEMCG_NR_BINS, MEMCG_LRU_*) and the seed series'
 * features are the kernel tree's, cut into the build directory
 * (mlf_tree_gen.h, kernel/extract.py); the comment above MEMCG_NR_GENS in
 * the tree's include/linux/mmzone.h has the design. Here: struct lruvec
 * and struct pglist_data reduced to what the memcg LRU touches (and what
 * the eviction model adds, MLF_EVICTION), a zone reduced to what
 * should_abort_scan() reads, and the node table.
 */
#ifndef _MLF_MM_MMZONE_H
#define _MLF_MM_MMZONE_H

#include "kernel/kernel.h"
#include "variant.h"
#ifdef MLF_EVICTION
#include "eviction_types.h"
/* the eviction model's members of struct lru_gen_folio, after the tree's */
#define MLF_LRU_GEN_FOLIO_MODEL LRU_GEN_FOLIO_EVICTION_FIELDS
#else
#define MLF_LRU_GEN_FOLIO_MODEL
#endif
#include "mlf_tree_gen.h"

struct pglist_data;

struct lruvec {
	struct lru_gen_folio lrugen;
	/* the node this lruvec belongs to */
	struct pglist_data *pgdat;
#ifdef MLF_EVICTION
	LRUVEC_EVICTION_FIELDS
#endif
};

#ifndef MAX_NR_ZONES
#define MAX_NR_ZONES 2
#endif

/* struct zone, reduced to what should_abort_scan() reads (shrink_one.h) */
struct zone {
	/* !managed_zone(): zone_managed_pages() == 0 */
	bool unmanaged;
	/* zone_watermark_ok() for kswapd's mark: the zone is safe */
	bool watermark_ok;
};

typedef struct pglist_data {
	int node_id;
	struct zone node_zones[MAX_NR_ZONES];
	struct lru_gen_memcg memcg_lru;
#ifdef MLF_EVICTION
	PGDAT_EVICTION_FIELDS
#endif
} pg_data_t;

extern struct pglist_data *node_data[MAX_NUMNODES];
#define NODE_DATA(nid) (node_data[(nid)])

static inline struct pglist_data *lruvec_pgdat(struct lruvec *lruvec)
{
	return lruvec->pgdat;
}

struct mem_cgroup;

/* the tree's (lru_gen_init_pgdat: its memcg part) and the glue's */
void lru_gen_init_pgdat(struct pglist_data *pgdat);
void lru_gen_init_lruvec(struct lruvec *lruvec);
void lru_gen_exit_memcg(struct mem_cgroup *memcg);
void lru_gen_online_memcg(struct mem_cgroup *memcg);
void lru_gen_offline_memcg(struct mem_cgroup *memcg);
void lru_gen_release_memcg(struct mem_cgroup *memcg);
void lru_gen_soft_reclaim(struct mem_cgroup *memcg, int nid);

#endif
