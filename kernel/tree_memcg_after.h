/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included at the end of the generated mlf_tree_memcg.c: the port's names
 * for the life cycle's callbacks (src/mm/memcontrol.h), onto the tree's
 * static ones, so that css_offline() / css_release() of the port's
 * memcontrol.c (offline_css()'s order, the references, the free) run the
 * tree's code.
 */
#ifndef _MLF_KERNEL_TREE_MEMCG_AFTER_H
#define _MLF_KERNEL_TREE_MEMCG_AFTER_H

void mem_cgroup_css_offline(struct mem_cgroup *memcg)
{
	struct cgroup_subsys_state css = { .memcg = memcg };

	tree_mem_cgroup_css_offline(&css);
}

void mem_cgroup_css_released(struct mem_cgroup *memcg)
{
	struct cgroup_subsys_state css = { .memcg = memcg };

	tree_mem_cgroup_css_released(&css);
}

#endif
