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

/*
 * The rotations the harness's ops name (HEAD, TAIL, OLD, YOUNG: 6.12's
 * four, by which a trace names them), in the tree's values. A tree that
 * lacks one (d5d1712c5928 removed MEMCG_LRU_HEAD, mm-new MEMCG_LRU_OLD)
 * gets a value none of its enumerators has: mlf_tree_has_rotation() is
 * false for it, and the harness skips the ops that need it. A memcg's seg
 * is the tree's value too; mlf_seg_kind() names it as the model does.
 */
#define MLF_NOT_IN_TREE 0x40
#ifndef MLF_TREE_HAS_MEMCG_LRU_HEAD
#define MEMCG_LRU_HEAD (MLF_NOT_IN_TREE + 1)
#endif
#ifndef MLF_TREE_HAS_MEMCG_LRU_OLD
#define MEMCG_LRU_OLD (MLF_NOT_IN_TREE + 3)
#endif
#define MLF_NR_ROTATIONS 4

/* the @i-th rotation (0..3: HEAD, TAIL, OLD, YOUNG) in the tree's values */
static inline int mlf_rotation(int i)
{
	static const int rotations[MLF_NR_ROTATIONS] = {
		MEMCG_LRU_HEAD, MEMCG_LRU_TAIL, MEMCG_LRU_OLD, MEMCG_LRU_YOUNG,
	};

	return rotations[i % MLF_NR_ROTATIONS];
}

/* which of the four @op is (0..3), -1 for none */
static inline int mlf_rotation_index(int op)
{
	int i;

	for (i = 0; i < MLF_NR_ROTATIONS; i++)
		if (mlf_rotation(i) == op)
			return i;
	return -1;
}

static inline bool mlf_tree_has_rotation(int op)
{
	return mlf_rotation_index(op) >= 0 && op < MLF_NOT_IN_TREE;
}

/* a seg as the model has it: 0 default, 1 head, 2 tail, -1 none of them */
static inline int mlf_seg_kind(int seg)
{
	return seg == 0 ? 0 : seg == MEMCG_LRU_HEAD ? 1 : seg == MEMCG_LRU_TAIL ? 2 : -1;
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
