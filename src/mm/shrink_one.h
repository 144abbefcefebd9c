/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Modelled below the code under test: what the tree's shrink_one(),
 * should_abort_scan() and lru_gen_shrink_node() call below the memcg LRU,
 * for the one translation unit of the tree's cut (included by
 * kernel/tree_vmscan_before.h): try_to_shrink_lruvec() and
 * lruvec_is_sizable(), modelled (outcomes read from memcg->shrink) or,
 * with MLF_EVICTION, the eviction model of eviction.c; and stubs for what
 * the harness does not model (events, slab shrinking, vmpressure, the
 * reclaim state, NUMA tiering; every zone is managed and below kswapd's
 * watermark, so kswapd does not stop early).
 */
#ifndef _MLF_MM_SHRINK_ONE_H
#define _MLF_MM_SHRINK_ONE_H

/* root_reclaim(): global reclaim, or reclaim of the root memcg */
static inline bool root_reclaim(struct scan_control *sc)
{
	/* the root memcg is the one without a pool slot (id < 0) */
	return !sc->target_mem_cgroup || sc->target_mem_cgroup->id < 0;
}

#define compact_gap(order) (2UL << (order))

/* sysctl kernel.numa_balancing: off (no memory tiering) */
#define NUMA_BALANCING_MEMORY_TIERING 0x2
#define sysctl_numa_balancing_mode 0

enum zone_watermarks {
	WMARK_MIN,
	WMARK_LOW,
	WMARK_HIGH,
	WMARK_PROMO,
	NR_WMARK,
};

#ifndef MIN_LRU_BATCH
#define MIN_LRU_BATCH 8
#endif

#define wmark_pages(zone, mark) ((void)(zone), (unsigned long)(mark))

static inline bool managed_zone(struct zone *zone)
{
	return !READ_ONCE(zone->unmanaged);
}

static inline bool zone_watermark_ok(struct zone *z, unsigned int order,
				     unsigned long mark, int highest_zoneidx,
				     unsigned int alloc_flags)
{
	(void)order, (void)mark, (void)highest_zoneidx, (void)alloc_flags;
	return READ_ONCE(z->watermark_ok);
}

/* events, slab shrinking, vmpressure and the reclaim state: not modelled */
#define MEMCG_LOW 0
#define memcg_memory_event(memcg, event) ((void)(memcg), (void)(event))
static inline unsigned long shrink_slab(gfp_t gfp_mask, int nid,
					struct mem_cgroup *memcg, int priority)
{
	(void)gfp_mask, (void)nid, (void)memcg, (void)priority;
	return 0;
}
#define vmpressure(gfp, memcg, tree, scanned, reclaimed)                    \
	((void)(gfp), (void)(memcg), (void)(tree), (void)(scanned),          \
	 (void)(reclaimed))
#define flush_reclaim_state(sc) ((void)(sc))

#ifdef MLF_EVICTION
/* The real eviction, from folio state: src/mm/eviction.c. */
static bool try_to_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)
{
	return lru_gen_try_to_shrink_lruvec(lruvec, sc);
}

static bool lruvec_is_sizable(struct lruvec *lruvec, struct scan_control *sc)
{
	return lru_gen_lruvec_is_sizable(lruvec, sc);
}
#else
/*
 * Modelled: whether the aging finished and the lruvec should be rotated,
 * and what the eviction reclaimed, come from memcg->shrink.
 */
static bool try_to_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)
{
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);

	sc->nr_scanned++;
	sc->nr_reclaimed += READ_ONCE(memcg->shrink.nr_reclaimed);
	return READ_ONCE(memcg->shrink.success);
}

static bool lruvec_is_sizable(struct lruvec *lruvec, struct scan_control *sc)
{
	(void)sc;
	return READ_ONCE(lruvec_memcg(lruvec)->shrink.sizable);
}
#endif /* MLF_EVICTION */

#endif
