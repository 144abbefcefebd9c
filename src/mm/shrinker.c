// SPDX-License-Identifier: GPL-2.0
/*
 * Shrinkers with object counts (shrinker.h): shrink_slab() and
 * do_shrink_slab() of mm/shrinker.c, Linux 6.12, on list_lru counts per
 * memcg and node, and the reparenting at offline.
 */
/*
 * Only the reclaim port (src/mm/reclaim.cmake) defines MLF_EVICTION; a
 * build that compiles every file of src/ gets an empty object here.
 */
#ifdef MLF_EVICTION
#include "shrinker.h"

#include "kernel/atomic.h"

/* <linux/atomic.h>'s xchg of a long, onto the shim's */
#define atomic_long_xchg(v, i) xchg(&(v)->counter, (long)(i))

mlf_slab_probe_t mlf_slab_probe;

static struct mem_cgroup_per_node *pn_of(struct mem_cgroup *memcg, int nid)
{
	return memcg->nodeinfo[nid];
}

long mlf_slab_objects(struct mem_cgroup *memcg, int nid, int id)
{
	return atomic_long_read(&pn_of(memcg, nid)->nr_items[id]);
}

void mlf_slab_add(struct mem_cgroup *memcg, int nid, int id, long nr)
{
	atomic_long_add(nr, &pn_of(memcg, nid)->nr_items[id]);
}

long mlf_slab_deferred(struct mem_cgroup *memcg, int nid, int id)
{
	return atomic_long_read(&pn_of(memcg, nid)->nr_deferred[id]);
}

/* list_lru_shrink_count(): the objects of the memcg on the node */
static unsigned long mlf_count_objects(struct shrinker *shrinker,
				       struct shrink_control *sc)
{
	long nr = mlf_slab_objects(sc->memcg, sc->nid, shrinker->id);

	return nr > 0 ? nr : SHRINK_EMPTY;
}

/* list_lru_shrink_walk() with an isolate callback that frees each one */
static unsigned long mlf_scan_objects(struct shrinker *shrinker,
				      struct shrink_control *sc)
{
	long nr = mlf_slab_objects(sc->memcg, sc->nid, shrinker->id);
	long freed = min((long)sc->nr_to_scan, nr);

	if (freed > 0)
		mlf_slab_add(sc->memcg, sc->nid, shrinker->id, -freed);
	return freed > 0 ? freed : 0;
}

/*
 * Two shrinkers: one of objects that take IO to recreate (the default
 * seeks, SHRINK_BATCH), like the inode and dentry caches; and a cheaper
 * one scanned in small batches.
 */
struct shrinker mlf_shrinkers[MLF_NR_SHRINKERS] = {
	{ .count_objects = mlf_count_objects, .scan_objects = mlf_scan_objects,
	  .batch = 0, .seeks = DEFAULT_SEEKS, .id = 0,
	  .flags = SHRINKER_MEMCG_AWARE | SHRINKER_NUMA_AWARE },
	{ .count_objects = mlf_count_objects, .scan_objects = mlf_scan_objects,
	  .batch = 16, .seeks = 1, .id = 1,
	  .flags = SHRINKER_MEMCG_AWARE | SHRINKER_NUMA_AWARE },
};

/* xchg_nr_deferred_memcg() / add_nr_deferred_memcg() */
static long xchg_nr_deferred(struct shrinker *shrinker,
			     struct shrink_control *sc)
{
	return atomic_long_xchg(&pn_of(sc->memcg, sc->nid)->nr_deferred[shrinker->id], 0);
}

static long add_nr_deferred(long nr, struct shrinker *shrinker,
			    struct shrink_control *sc)
{
	return atomic_long_add_return(nr, &pn_of(sc->memcg, sc->nid)->nr_deferred[shrinker->id]);
}

static unsigned long do_shrink_slab(struct shrink_control *shrinkctl,
				    struct shrinker *shrinker, int priority)
{
	unsigned long freed = 0;
	unsigned long long delta;
	long total_scan;
	long freeable;
	long nr;
	long batch_size = shrinker->batch ? shrinker->batch
					  : SHRINK_BATCH;
	long scanned = 0, next_deferred;

	freeable = shrinker->count_objects(shrinker, shrinkctl);
	if (freeable == 0 || freeable == (long)SHRINK_EMPTY)
		return freeable;

	/*
	 * copy the current shrinker scan count into a local variable
	 * and zero it so that other concurrent shrinker invocations
	 * don't also do this scanning work.
	 */
	nr = xchg_nr_deferred(shrinker, shrinkctl);

	if (shrinker->seeks) {
		delta = freeable >> priority;
		delta *= 4;
		delta /= shrinker->seeks;
	} else {
		/*
		 * These objects don't require any IO to create. Trim
		 * them aggressively under memory pressure to keep
		 * them from causing refetches in the IO caches.
		 */
		delta = freeable / 2;
	}

	total_scan = nr >> priority;
	total_scan += delta;
	total_scan = min(total_scan, (2 * freeable));

	/*
	 * Normally, we should not scan less than batch_size objects in one
	 * pass to avoid too frequent shrinker calls, but if the slab has less
	 * than batch_size objects in total and we are really tight on memory,
	 * we will try to reclaim all available objects, otherwise we can end
	 * up failing allocations although there are plenty of reclaimable
	 * objects spread over several slabs with usage less than the
	 * batch_size.
	 */
	while (total_scan >= batch_size ||
	       total_scan >= freeable) {
		unsigned long ret;
		unsigned long nr_to_scan = min(batch_size, total_scan);

		shrinkctl->nr_to_scan = nr_to_scan;
		shrinkctl->nr_scanned = nr_to_scan;
		ret = shrinker->scan_objects(shrinker, shrinkctl);
		if (ret == SHRINK_STOP)
			break;
		freed += ret;

		total_scan -= shrinkctl->nr_scanned;
		scanned += shrinkctl->nr_scanned;

		cond_resched();
	}

	/*
	 * The deferred work is increased by any new work (delta) that wasn't
	 * done, decreased by old deferred work that was done now.
	 *
	 * And it is capped to two times of the freeable items.
	 */
	next_deferred = max((long)(nr + delta - scanned), 0L);
	next_deferred = min(next_deferred, (2 * freeable));

	/*
	 * move the unused scan count back into the shrinker in a
	 * manner that handles concurrent updates.
	 */
	add_nr_deferred(next_deferred, shrinker, shrinkctl);

	return freed;
}

static unsigned long shrink_slab_memcg(gfp_t gfp_mask, int nid,
				       struct mem_cgroup *memcg, int priority)
{
	unsigned long ret, freed = 0;
	int id;

	if (!mem_cgroup_online(memcg))
		return 0;

	for (id = 0; id < MLF_NR_SHRINKERS; id++) {
		struct shrink_control sc = {
			.gfp_mask = gfp_mask,
			.nid = nid,
			.memcg = memcg,
		};
		struct shrinker *shrinker = &mlf_shrinkers[id];
		struct mlf_slab_call call = {
			.shrinker = shrinker, .memcg = memcg, .nid = nid,
			.priority = priority,
		};
		mlf_slab_probe_t probe = READ_ONCE(mlf_slab_probe);

		ret = do_shrink_slab(&sc, shrinker, priority);
		if (ret == SHRINK_EMPTY)
			ret = 0;
		freed += ret;
		if (probe)
			probe(&call);
	}
	return freed;
}

unsigned long shrink_slab(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg,
			  int priority)
{
	unsigned long ret, freed = 0;
	int id;

	if (!mem_cgroup_disabled() && !mem_cgroup_is_root(memcg))
		return shrink_slab_memcg(gfp_mask, nid, memcg, priority);

	/* the root's: the shrinkers' objects of no memcg, on the node */
	for (id = 0; id < MLF_NR_SHRINKERS; id++) {
		struct shrink_control sc = {
			.gfp_mask = gfp_mask,
			.nid = nid,
			.memcg = memcg,
		};

		ret = do_shrink_slab(&sc, &mlf_shrinkers[id], priority);
		if (ret == SHRINK_EMPTY)
			ret = 0;
		freed += ret;
	}

	cond_resched();
	return freed;
}

/*
 * memcg_reparent_list_lrus(): a memcg going offline hands its list_lru
 * items to its parent (memcg_offline_kmem(), once its objcgs are the
 * parent's), on every node.
 */
void memcg_reparent_list_lrus(struct mem_cgroup *memcg,
			      struct mem_cgroup *parent)
{
	int nid, id;

	for_each_node(nid) {
		for (id = 0; id < MLF_NR_SHRINKERS; id++) {
			long nr = atomic_long_xchg(&pn_of(memcg, nid)->nr_items[id], 0);

			if (nr)
				mlf_slab_add(parent, nid, id, nr);
		}
	}
}

void reparent_shrinker_deferred(struct mem_cgroup *memcg)
{
	int nid, id;
	long nr;
	struct mem_cgroup *parent;

	parent = parent_mem_cgroup(memcg);
	if (!parent)
		parent = root_mem_cgroup;

	for_each_node(nid) {
		for (id = 0; id < MLF_NR_SHRINKERS; id++) {
			nr = atomic_long_read(&pn_of(memcg, nid)->nr_deferred[id]);
			atomic_long_add(nr, &pn_of(parent, nid)->nr_deferred[id]);
		}
	}
}

#endif /* MLF_EVICTION */
