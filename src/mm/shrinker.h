/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shrinkers with object counts (include/linux/shrinker.h and mm/shrinker.c
 * of Linux 6.12), for the reclaim port: shrink_slab() as shrink_one()
 * calls it for a memcg, do_shrink_slab()'s scan of a shrinker's objects at
 * the reclaim's priority with the work deferred from earlier calls, and
 * the reparenting of a memcg's objects and deferred work to its parent
 * when it goes offline (memcg_reparent_list_lrus(),
 * reparent_shrinker_deferred()). Built with MLF_EVICTION only.
 *
 * Reduced: MLF_NR_SHRINKERS memcg- and NUMA-aware shrinkers registered at
 * start, whose objects are counts on a list_lru per memcg and node
 * (count_objects() reads the count, scan_objects() frees from it); no
 * shrinker bitmap (every shrinker of an online memcg is called, and an
 * empty one answers SHRINK_EMPTY), no registration or unregistration, no
 * objcg. The objects freed are not pages: reclaim's nr_reclaimed does not
 * count them (flush_reclaim_state() is a stub).
 */
#ifndef _MLF_MM_SHRINKER_H
#define _MLF_MM_SHRINKER_H

#include "memcontrol.h"

#define BIT(nr) (1UL << (nr))

#define SHRINK_STOP (~0UL)
#define SHRINK_EMPTY (~0UL - 1)
#define DEFAULT_SEEKS 2 /* A good number if you don't know better. */
#define SHRINK_BATCH 128

/* shrinker flags */
#define SHRINKER_MEMCG_AWARE BIT(2)
#define SHRINKER_NUMA_AWARE BIT(3)

struct shrink_control {
	gfp_t gfp_mask;
	/* current node being shrunk (for NUMA aware shrinkers) */
	int nid;
	/* How many objects scan_objects should scan and try to reclaim */
	unsigned long nr_to_scan;
	/* How many objects did scan_objects process? */
	unsigned long nr_scanned;
	/* current memcg being shrunk (for memcg aware shrinkers) */
	struct mem_cgroup *memcg;
};

struct shrinker {
	unsigned long (*count_objects)(struct shrinker *,
				       struct shrink_control *sc);
	unsigned long (*scan_objects)(struct shrinker *,
				      struct shrink_control *sc);

	long batch;	/* reclaim batch size, 0 = default */
	int seeks;	/* seeks to recreate an obj */
	unsigned flags;
	int id;
};

/* the registered shrinkers: their seeks and batch (shrinker.c) */
extern struct shrinker mlf_shrinkers[MLF_NR_SHRINKERS];

unsigned long shrink_slab(gfp_t gfp_mask, int nid, struct mem_cgroup *memcg,
			  int priority);

/* a memcg's objects of shrinker @id on node @nid: its list_lru's count */
long mlf_slab_objects(struct mem_cgroup *memcg, int nid, int id);
/* objects allocated and put on that list_lru (list_lru_add()) */
void mlf_slab_add(struct mem_cgroup *memcg, int nid, int id, long nr);
/* the work deferred for that memcg, node and shrinker (nr_deferred) */
long mlf_slab_deferred(struct mem_cgroup *memcg, int nid, int id);

/* memcg_offline_kmem()'s move of a memcg's list_lru items to @parent */
void memcg_reparent_list_lrus(struct mem_cgroup *memcg,
			      struct mem_cgroup *parent);
void reparent_shrinker_deferred(struct mem_cgroup *memcg);

/*
 * Where the checks look: each call of a shrinker by shrink_slab_memcg()
 * (after do_shrink_slab() returned), like eviction.h's probe.
 */
struct mlf_slab_call {
	const struct shrinker *shrinker;
	struct mem_cgroup *memcg;
	int nid;
	int priority;
};

typedef void (*mlf_slab_probe_t)(const struct mlf_slab_call *call);
extern mlf_slab_probe_t mlf_slab_probe;

#endif
