/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Modelled below the code under test: what the tree's shrink_one(),
 * should_abort_scan(), lru_gen_age_node() and lru_gen_shrink_node() call
 * below the memcg LRU,
 * for the one translation unit of the tree's cut (included by
 * kernel/tree_vmscan_before.h): try_to_shrink_lruvec() and
 * lruvec_is_sizable(), modelled (outcomes read from memcg->shrink) or,
 * with MLF_EVICTION, the eviction model of eviction.c and the shrinkers of
 * shrinker.c; and stubs for what the harness does not model (events,
 * vmpressure, the reclaim state, NUMA tiering). The zones should_abort_scan()
 * reads are zone.h's.
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

/* sysctl kernel.numa_balancing: the reclaim build's is memcontrol.h's */
#ifndef MLF_EVICTION
#define NUMA_BALANCING_MEMORY_TIERING 0x2
#define sysctl_numa_balancing_mode 0
#endif

#ifndef MIN_LRU_BATCH
#define MIN_LRU_BATCH 8
#endif

/* events, vmpressure and the reclaim state: not modelled */
#define MEMCG_LOW 0
#define memcg_memory_event(memcg, event) ((void)(memcg), (void)(event))
#define vmpressure(gfp, memcg, tree, scanned, reclaimed)                    \
	((void)(gfp), (void)(memcg), (void)(tree), (void)(scanned),          \
	 (void)(reclaimed))
#define flush_reclaim_state(sc) ((void)(sc))

#ifdef MLF_EVICTION
/* the shrinkers, with their objects: src/mm/shrinker.c */
#include "shrinker.h"

/*
 * The real eviction, from folio state: src/mm/eviction.c. Its loop stops
 * where the kernel's try_to_shrink_lruvec() does, on should_abort_scan()
 * (the tree.s own, cut below this header).
 */
static bool should_abort_scan(struct lruvec *lruvec, struct scan_control *sc);

static bool try_to_shrink_lruvec(struct lruvec *lruvec, struct scan_control *sc)
{
	return lru_gen_try_to_shrink_lruvec(lruvec, sc, should_abort_scan);
}

static bool lruvec_is_sizable(struct lruvec *lruvec, struct scan_control *sc)
{
	return lru_gen_lruvec_is_sizable(lruvec, sc);
}

/*
 * What the tree's lru_gen_age_node() reads besides the memcg tree: the
 * sysctl min_ttl_ms (/sys/kernel/mm/lru_gen/min_ttl_ms) is 0, its
 * default, so every memcg counts as reclaimable, no generation's age is
 * judged (the model keeps no birth times) and no OOM kill is tried. The
 * branch that would is compiled, not run: lruvec_is_reclaimable() and
 * the OOM path warn if it ever is.
 */
static unsigned long lru_gen_min_ttl;

static inline bool lruvec_is_reclaimable(struct lruvec *lruvec,
					 struct scan_control *sc,
					 unsigned long min_ttl)
{
	(void)lruvec, (void)sc, (void)min_ttl;
	VM_WARN_ON_ONCE(1);
	return true;
}

struct oom_control {
	gfp_t gfp_mask;
};
struct mutex {
	int unused;
};
static struct mutex oom_lock;
#define mutex_trylock(lock) ((void)(lock), VM_WARN_ON_ONCE(1), false)
#define mutex_unlock(lock) ((void)(lock))
static inline bool out_of_memory(struct oom_control *oc)
{
	(void)oc;
	VM_WARN_ON_ONCE(1);
	return false;
}
#else
/* slab shrinking: not modelled in this build */
static inline unsigned long shrink_slab(gfp_t gfp_mask, int nid,
					struct mem_cgroup *memcg, int priority)
{
	(void)gfp_mask, (void)nid, (void)memcg, (void)priority;
	return 0;
}

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
