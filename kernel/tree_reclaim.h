/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the tree's shrink_many() calls outside the memcg LRU section,
 * modelled exactly as the port's src/mm/vmscan.c models it: shrink_one()
 * with its protection / success / size outcomes read from memcg->shrink,
 * and should_abort_scan() for root reclaim. Static, in the one translation
 * unit of the tree's code (included by tree_vmscan_before.h).
 */
#ifndef _MLF_KERNEL_TREE_RECLAIM_H
#define _MLF_KERNEL_TREE_RECLAIM_H

static __maybe_unused bool should_abort_scan(struct lruvec *lruvec,
					     struct scan_control *sc)
{
	(void)lruvec;
	/* root reclaim: abort once the request is met */
	return sc->nr_to_reclaim && sc->nr_reclaimed >= sc->nr_to_reclaim;
}

/* whether the aging finished and the lruvec should be rotated */
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

static __maybe_unused int shrink_one(struct lruvec *lruvec,
				     struct scan_control *sc)
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

#endif
