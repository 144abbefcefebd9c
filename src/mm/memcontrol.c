// SPDX-License-Identifier: GPL-2.0
/*
 * Modelled around the code under test: the memcg life cycle around the
 * memcg LRU, after mm/memcontrol.c and kernel/cgroup/cgroup.c: allocation,
 * css online, offline_css()'s order, the references, css_release and
 * css_free after a grace period. The callbacks on the memcg LRU's side
 * are the kernel tree's (below).
 */
#include "memcontrol.h"

static atomic_long_t nr_allocated;

struct mem_cgroup *mem_cgroup_alloc(int id)
{
	struct mem_cgroup *memcg = kzalloc(sizeof(*memcg), GFP_KERNEL);
	int nid;

	memcg->id = id;
	atomic_long_set(&memcg->refcnt, 1);
	for (nid = 0; nid < MAX_NUMNODES; nid++) {
		struct mem_cgroup_per_node *pn;

		if (nid >= nr_node_ids)
			break;
		pn = kzalloc(sizeof(*pn), GFP_KERNEL);
		pn->memcg = memcg;
		pn->lruvec.pgdat = NODE_DATA(nid);
		lru_gen_init_lruvec(&pn->lruvec);
		memcg->nodeinfo[nid] = pn;
	}
	atomic_long_add(1, &nr_allocated);
	return memcg;
}

long mem_cgroup_nr_allocated(void)
{
	return atomic_long_read(&nr_allocated);
}

void mem_cgroup_css_online(struct mem_cgroup *memcg)
{
	lru_gen_online_memcg(memcg);
	WRITE_ONCE(memcg->online, true);
}

/*
 * The css_offline and css_released callbacks (mem_cgroup_css_offline(),
 * mem_cgroup_css_released()) are the tree's, cut from its mm/memcontrol.c
 * (kernel/tree_memcg_after.h): what the tree does at offline (protection
 * reset, lru_gen_offline_memcg()) is the code under test's.
 */

/*
 * The end of offline_css() (kernel/cgroup/cgroup.c): after the callback,
 * css->flags &= ~CSS_ONLINE. Between the two a reclaim walk can find the
 * memcg in the old generation and still online, and shrink_one() may send
 * it back YOUNG.
 */
void css_clear_online(struct mem_cgroup *memcg)
{
	WRITE_ONCE(memcg->online, false);
}

/*
 * offline_css() in the kernel's order: the css_offline callback, then
 * CSS_ONLINE cleared. The caller then drops the base reference (the one
 * kill_css() kept until after ->css_offline()).
 */
void css_offline(struct mem_cgroup *memcg)
{
	mem_cgroup_css_offline(memcg);
	css_clear_online(memcg);
}

bool mem_cgroup_put(struct mem_cgroup *memcg)
{
	long refs;

	if (!memcg)
		return false;
	refs = atomic_long_dec_return(&memcg->refcnt);
	VM_BUG_ON(refs < 0);
	return refs == 0;
}

static void mem_cgroup_free(struct mem_cgroup *memcg)
{
	int nid;

	lru_gen_exit_memcg(memcg);
	for (nid = 0; nid < MAX_NUMNODES; nid++)
		kfree_poisoned(memcg->nodeinfo[nid],
			       sizeof(*memcg->nodeinfo[nid]));
	kfree_poisoned(memcg, sizeof(*memcg));
	atomic_long_add(-1, &nr_allocated);
}

static void css_free_rcu_fn(struct rcu_head *head)
{
	mem_cgroup_free(container_of(head, struct mem_cgroup, rcu));
}

void css_release(struct mem_cgroup *memcg)
{
	mem_cgroup_css_released(memcg);

	/* readers may still stand on the lrugens: free after a grace period */
	call_rcu(&memcg->rcu, css_free_rcu_fn);
}
