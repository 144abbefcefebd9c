// SPDX-License-Identifier: GPL-2.0
/*
 * Modelled around the code under test: the memcg life cycle around the
 * memcg LRU, after mm/memcontrol.c and kernel/cgroup/cgroup.c: allocation,
 * css online, offline_css()'s order, the references, css_release and
 * css_free after a grace period. The callbacks on the memcg LRU's side
 * are the kernel tree's (below). For the reclaim target, the hierarchy
 * that reclaim's protection is computed over: mem_cgroup_iter() and
 * mem_cgroup_calculate_protection() (and _path(), stable 6.12.y), and
 * the kmem side of going offline that the tree's callback calls.
 */
#include "memcontrol.h"

static atomic_long_t nr_allocated;

struct mem_cgroup *root_mem_cgroup;

struct mem_cgroup *mem_cgroup_alloc(int id)
{
	struct mem_cgroup *memcg = kzalloc(sizeof(*memcg), GFP_KERNEL);
	int nid;

	memcg->id = id;
	atomic_long_set(&memcg->refcnt, 1);
	page_counter_init(&memcg->memory, NULL, true);
#ifdef MLF_EVICTION
	INIT_LIST_HEAD(&memcg->children);
	INIT_LIST_HEAD(&memcg->sibling);
#endif
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

#ifdef MLF_EVICTION
void mem_cgroup_link_parent(struct mem_cgroup *memcg, struct mem_cgroup *parent)
{
	memcg->parent = parent;
	memcg->memory.parent = &parent->memory;
	list_add_tail(&memcg->sibling, &parent->children);
	css_get(parent);
}
#endif

long mem_cgroup_nr_allocated(void)
{
	return atomic_long_read(&nr_allocated);
}

void mem_cgroup_css_online(struct mem_cgroup *memcg)
{
	lru_gen_online_memcg(memcg);
	WRITE_ONCE(memcg->online, true);
}

#ifdef MLF_EVICTION
#include "shrinker.h"

/*
 * memcg_offline_kmem(), which the tree's css_offline callback calls
 * (kernel/tree_memcg_before.h): the list_lru items go to the parent. The
 * objcgs are not modelled (memcg_reparent_objcgs()), nor is kmem ever
 * disabled.
 */
void memcg_offline_kmem(struct mem_cgroup *memcg)
{
	struct mem_cgroup *parent;

	if (unlikely(mem_cgroup_is_root(memcg)))
		return;

	parent = parent_mem_cgroup(memcg);
	if (!parent)
		parent = root_mem_cgroup;

	memcg_reparent_list_lrus(memcg, parent);
}
#endif

/*
 * The css_offline and css_released callbacks (mem_cgroup_css_offline(),
 * mem_cgroup_css_released()) are the tree's, cut from its mm/memcontrol.c
 * (kernel/tree_memcg_after.h): what the tree does at offline (protection
 * reset, the shrinkers' reparenting, lru_gen_offline_memcg()) is the code
 * under test's.
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
#ifdef MLF_EVICTION
	/* css_release_work_fn(): off the parent's children, then the callback */
	if (memcg->parent)
		list_del_init(&memcg->sibling);
#endif
	mem_cgroup_css_released(memcg);

	/* readers may still stand on the lrugens: free after a grace period */
	call_rcu(&memcg->rcu, css_free_rcu_fn);
}

#ifdef MLF_EVICTION
/******************************************************************************
 *                          the hierarchy and protection
 ******************************************************************************/

/* the mount option and sysctl reclaim reads: the harness sets them */
bool mlf_memory_recursiveprot;
int sysctl_numa_balancing_mode;

/*
 * css_next_descendant_pre(): the next memcg after @pos in a pre-order walk
 * of @root's subtree (@root itself first). The kernel follows the css's
 * children and sibling lists under RCU; the harness changes them only
 * between reclaim runs.
 */
static struct mem_cgroup *memcg_next_descendant_pre(struct mem_cgroup *pos,
						    struct mem_cgroup *root)
{
	if (!pos)
		return root;

	/* visit the first child if exists */
	if (!list_empty(&pos->children))
		return list_first_entry(&pos->children, struct mem_cgroup, sibling);

	/* no child, visit my or the closest ancestor's next sibling */
	while (pos != root) {
		if (pos->sibling.next != &pos->parent->children)
			return list_next_entry(pos, sibling);
		pos = pos->parent;
	}

	return NULL;
}

/*
 * mem_cgroup_iter() without a reclaim cookie (a full walk, as kswapd's):
 * each memcg of @root's subtree in pre-order, skipping those whose last
 * reference is gone, with a reference the next call (or the caller) drops.
 */
struct mem_cgroup *mem_cgroup_iter(struct mem_cgroup *root,
				   struct mem_cgroup *prev, void *reclaim)
{
	struct mem_cgroup *pos = prev;

	(void)reclaim;
	if (!root)
		root = root_mem_cgroup;

	rcu_read_lock();
	while ((pos = memcg_next_descendant_pre(pos, root))) {
		/*
		 * Verify the css and acquire a reference.  The root
		 * is provided by the caller, so we know it's alive
		 * and kicking, and don't take an extra reference.
		 */
		if (pos == root || mem_cgroup_tryget(pos))
			break;
	}
	rcu_read_unlock();

	if (prev && prev != root)
		mem_cgroup_put(prev);

	return pos;
}

/**
 * mem_cgroup_calculate_protection - check if memory consumption is in the normal range
 * @root: the top ancestor of the sub-tree being checked
 * @memcg: the memory cgroup to check
 *
 * WARNING: This function is not stateless! It can only be used as part
 *          of a top-down tree iteration, not for isolated queries.
 */
void mem_cgroup_calculate_protection(struct mem_cgroup *root,
				     struct mem_cgroup *memcg)
{
	bool recursive_protection = READ_ONCE(mlf_memory_recursiveprot);

	if (mem_cgroup_disabled())
		return;

	if (!root)
		root = root_mem_cgroup;

	page_counter_calculate_protection(&root->memory, &memcg->memory, recursive_protection);
}

/**
 * mem_cgroup_calculate_protection_path - compute protection along a path
 * @root: the top ancestor of the sub-tree being checked (NULL for root_mem_cgroup)
 * @memcg: the target memory cgroup
 *
 * Walk the ancestor path from @root down to @memcg and compute the effective
 * protection at each level.  This is safe for isolated queries because it
 * ensures parents are computed before children.
 *
 * The kernel indexes the cgroup's ancestors[] by level; the port climbs
 * the parents into an array first (a path is at most as deep as the pool).
 */
void mem_cgroup_calculate_protection_path(struct mem_cgroup *root,
					  struct mem_cgroup *memcg)
{
	bool recursive_protection = READ_ONCE(mlf_memory_recursiveprot);
	struct mem_cgroup *path[MLF_MAX_MEMCG_DEPTH];
	int level = 0, i;

	if (mem_cgroup_disabled())
		return;

	if (!root)
		root = root_mem_cgroup;

	if (memcg == root)
		return;

	for (; memcg && memcg != root && level < MLF_MAX_MEMCG_DEPTH;
	     memcg = parent_mem_cgroup(memcg))
		path[level++] = memcg;

	rcu_read_lock();
	for (i = level - 1; i >= 0; i--)
		page_counter_calculate_protection(&root->memory,
						  &path[i]->memory,
						  recursive_protection);
	rcu_read_unlock();
}
#endif /* MLF_EVICTION */
