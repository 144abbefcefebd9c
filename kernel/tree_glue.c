// SPDX-License-Identifier: GPL-2.0
/*
 * What the port's memcontrol.c and world.c expect next to the memcg LRU and
 * the tree's code does not provide in the part that is cut out: the node
 * table, and the memcg LRU's share of lru_gen_init_lruvec() and
 * lru_gen_exit_memcg() (the rest of those kernel functions sets up the
 * folio generations, which the harness does not model).
 */
#include "mm/memcontrol.h"

struct pglist_data *node_data[MAX_NUMNODES];
int nr_node_ids = 1;

void lru_gen_init_lruvec(struct lruvec *lruvec)
{
	/* unhashed until lru_gen_online_memcg() */
	lruvec->lrugen.list.next = NULL;
	lruvec->lrugen.list.pprev = NULL;
	lruvec->lrugen.gen = 0;
	lruvec->lrugen.seg = 0;
}

void lru_gen_exit_memcg(struct mem_cgroup *memcg)
{
	int nid;

	for_each_node(nid) {
		struct lruvec *lruvec = get_lruvec(memcg, nid);

		/* a reader that meets a freed lrugen sees poison */
		lruvec->lrugen.list.next = LIST_POISON1;
	}
}
