/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The memcg LRU structures of <linux/mmzone.h>: per node, memcgs are kept in
 * MEMCG_NR_GENS generations of MEMCG_NR_BINS bins, each an hlist_nulls of
 * lru_gen_folio (one per memcg per node) whose nulls value is the
 * generation. See the comment above MEMCG_NR_GENS in Linux 6.12 for the
 * design; the essentials are repeated here.
 *
 * Each node has a generation counter seq: seq % 3 is the old generation and
 * (seq + 1) % 3 the young one. The third is never used, so that a reader
 * holding a stale seq (seq - 1) does not wrap around to young. seq advances
 * when the old generation empties. Each bin is virtually split into head,
 * default and tail segments; lrugen->seg records where a memcg was last put.
 */
#ifndef _MLF_MM_MMZONE_H
#define _MLF_MM_MMZONE_H

#include "kernel/kernel.h"
#include "variant.h"
#ifdef MLF_EVICTION
#include "eviction_types.h"
#endif

#define MEMCG_NR_GENS 3
#define MEMCG_NR_BINS 8

struct pglist_data;

struct lru_gen_folio {
	/* the memcg generation this lru_gen_folio belongs to */
	u8 gen;
	/* the list segment this lru_gen_folio belongs to */
	u8 seg;
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
	/* the memcg bin, protected by memcg_lru.lock */
	u8 bin;
#endif
	/* per-node lru_gen_folio list for global reclaim */
	struct hlist_nulls_node list;
#ifdef MLF_EVICTION
	LRU_GEN_FOLIO_EVICTION_FIELDS
#endif
};

struct lru_gen_memcg {
	/* the per-node memcg generation counter */
	unsigned long seq;
	/* each memcg has one lru_gen_folio per node */
	unsigned long nr_memcgs[MEMCG_NR_GENS];
	/* per-node lru_gen_folio list for global reclaim */
	struct hlist_nulls_head fifo[MEMCG_NR_GENS][MEMCG_NR_BINS];
#ifdef CONFIG_LRU_GEN_TAIL_CACHE
	/* last entry in each bin, or NULL if empty */
	struct hlist_nulls_node *tail[MEMCG_NR_GENS][MEMCG_NR_BINS];
#endif
	/* protects the above */
	spinlock_t lock;
};

struct lruvec {
	struct lru_gen_folio lrugen;
	/* the node this lruvec belongs to */
	struct pglist_data *pgdat;
#ifdef MLF_EVICTION
	LRUVEC_EVICTION_FIELDS
#endif
};

/* the zones: what should_abort_scan() reads */
#include "zone.h"

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

#define get_memcg_gen(seq) ((seq) % MEMCG_NR_GENS)
#define get_memcg_bin(bin) ((bin) % MEMCG_NR_BINS)

/* see the comment on MEMCG_NR_GENS */
enum {
	MEMCG_LRU_NOP,
	MEMCG_LRU_HEAD,
	MEMCG_LRU_TAIL,
	MEMCG_LRU_OLD,
	MEMCG_LRU_YOUNG,
};

struct mem_cgroup;

void lru_gen_init_pgdat(struct pglist_data *pgdat);
void lru_gen_init_lruvec(struct lruvec *lruvec);
void lru_gen_exit_memcg(struct mem_cgroup *memcg);
void lru_gen_online_memcg(struct mem_cgroup *memcg);
void lru_gen_offline_memcg(struct mem_cgroup *memcg);
void lru_gen_release_memcg(struct mem_cgroup *memcg);
void lru_gen_soft_reclaim(struct mem_cgroup *memcg, int nid);

#endif
