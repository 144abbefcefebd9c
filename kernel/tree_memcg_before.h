/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included at the top of the generated mlf_tree_memcg.c, before the tree's
 * mem_cgroup_css_offline() and mem_cgroup_css_released() (cut from its
 * mm/memcontrol.c): the css they take, reduced to the memcg it belongs to,
 * and stubs for what they call outside the memcg LRU (zswap, writeback,
 * the per-cpu stock, the id, the reclaim iterators: not modelled; kmem and
 * shrinkers but in the reclaim target, whose shrinker model takes them:
 * src/mm/shrinker.c, memcontrol.c). Their protection reset and the memcg
 * LRU calls are the tree's, on the model's struct mem_cgroup and page
 * counter (src/mm/memcontrol.h, page_counter.h).
 */
#ifndef _MLF_KERNEL_TREE_MEMCG_BEFORE_H
#define _MLF_KERNEL_TREE_MEMCG_BEFORE_H

#include "mm/memcontrol.h"

struct cgroup_subsys_state {
	struct mem_cgroup *memcg;
};

static inline struct mem_cgroup *mem_cgroup_from_css(struct cgroup_subsys_state *css)
{
	return css->memcg;
}

#define MLF_TREE_STUB(name)                                          \
	static inline void name(struct mem_cgroup *memcg)            \
	{                                                            \
		(void)memcg;                                         \
	}

MLF_TREE_STUB(memcg1_css_offline)
MLF_TREE_STUB(zswap_memcg_offline_cleanup)
#ifdef MLF_EVICTION
/* the reclaim target's shrinkers: objects and deferred work to the parent */
#include "mm/shrinker.h"
#else
MLF_TREE_STUB(memcg_offline_kmem)
MLF_TREE_STUB(reparent_shrinker_deferred)
#endif
MLF_TREE_STUB(wb_memcg_offline)
MLF_TREE_STUB(drain_all_stock)
MLF_TREE_STUB(mem_cgroup_id_put)
MLF_TREE_STUB(invalidate_reclaim_iterators)

/*
 * memory.high and swap.high are not modelled; stable 6.12.y's offline
 * callback resets them (page_counter_set_high(&memcg->swap, ...)), so the
 * macro leaves its counter unevaluated: the shim has no swap counter.
 */
#define PAGE_COUNTER_MAX ULONG_MAX
#define page_counter_set_high(counter, nr) ((void)(nr))

#endif
