/* SPDX-License-Identifier: GPL-2.0 */
/*
 * shrink_one() and what it calls below the memcg LRU: should_abort_scan(),
 * try_to_shrink_lruvec(), lruvec_is_sizable(). Modelled, their outcomes read
 * from memcg->shrink; with MLF_EVICTION the real eviction of eviction.c.
 * Static functions for the one translation unit that runs shrink_many():
 * the port's vmscan.c, or a kernel tree's cut (kernel/tree_reclaim.h), so
 * that both walk the same shrink_one().
 */
#ifndef _MLF_MM_SHRINK_ONE_H
#define _MLF_MM_SHRINK_ONE_H

static __maybe_unused bool should_abort_scan(struct lruvec *lruvec,
					     struct scan_control *sc)
{
	(void)lruvec;
	/* root reclaim: abort once the request is met */
	return sc->nr_to_reclaim && sc->nr_reclaimed >= sc->nr_to_reclaim;
}

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

static __maybe_unused int shrink_one(struct lruvec *lruvec, struct scan_control *sc)
{
	bool success;
	struct mem_cgroup *memcg = lruvec_memcg(lruvec);

	trace_mlf_walk(MLF_WALK_VISIT, lruvec, 0);

	/* lru_gen_age_node() called mem_cgroup_calculate_protection() */
	if (mem_cgroup_below_min(NULL, memcg))
		return MEMCG_LRU_YOUNG;

	if (mem_cgroup_below_low(NULL, memcg)) {
		/* see the comment on MEMCG_NR_GENS */
		if (READ_ONCE(lruvec->lrugen.seg) != MEMCG_LRU_TAIL)
			return MEMCG_LRU_TAIL;
	}

	success = try_to_shrink_lruvec(lruvec, sc);

	if (success && mem_cgroup_online(memcg))
		return MEMCG_LRU_YOUNG;

	if (!success && lruvec_is_sizable(lruvec, sc))
		return 0;

	/* one retry if offlined or too small */
	return READ_ONCE(lruvec->lrugen.seg) != MEMCG_LRU_TAIL ?
		       MEMCG_LRU_TAIL :
		       MEMCG_LRU_YOUNG;
}

/* each call in shrink_many() reports what it decided (kernel/trace.h) */
#define shrink_one(lruvec, sc) \
	mlf_walk_visit_result((lruvec), (shrink_one)((lruvec), (sc)))

#endif
