// SPDX-License-Identifier: GPL-2.0
/*
 * What memcontrol.c and the harness expect next to the memcg LRU and the
 * tree's code does not provide in the part that is cut out: the node
 * table, the memcg LRU's share of lru_gen_init_lruvec() and
 * lru_gen_exit_memcg() (the rest of those kernel functions sets up the
 * folio generations, which only the eviction model has), and where the
 * tree's functions are, for the reports.
 */
#include <string.h>

#include "mm/memcontrol.h"
#include "mm/vmscan.h"
#ifdef MLF_EVICTION
#include "mm/eviction.h"
#endif

struct pglist_data *node_data[MAX_NUMNODES];
int nr_node_ids = 1;

void lru_gen_init_lruvec(struct lruvec *lruvec)
{
	/* unhashed until lru_gen_online_memcg() */
	lruvec->lrugen.list.next = NULL;
	lruvec->lrugen.list.pprev = NULL;
	lruvec->lrugen.gen = 0;
	lruvec->lrugen.seg = 0;
#ifdef MLF_EVICTION
	lru_gen_init_folios(lruvec);
#endif
}

void lru_gen_exit_memcg(struct mem_cgroup *memcg)
{
	int nid;

	for_each_node(nid) {
		struct lruvec *lruvec = get_lruvec(memcg, nid);

		/*
		 * a reader that meets a freed lrugen sees poison: the
		 * harness's, not the kernel's, so a relaxed atomic store,
		 * which ThreadSanitizer does not pit against a marked load
		 * of a reader still holding the object: that reader is the
		 * RCU model's to judge (rcu.stale)
		 */
		__atomic_store_n(&lruvec->lrugen.list.next, LIST_POISON1,
				 __ATOMIC_RELAXED);
	}
}

#define MLF_TREE_FUNCTION(fn, file, line) { #fn, file, line },
static const struct mlf_tree_function mlf_tree_functions[] = {
	MLF_TREE_FUNCTIONS(MLF_TREE_FUNCTION)
};

const char mlf_tree_name[] = MLF_TREE_NAME;

const struct mlf_tree_function *mlf_tree_where(const char *fn)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(mlf_tree_functions); i++)
		if (!strcmp(mlf_tree_functions[i].name, fn))
			return &mlf_tree_functions[i];
	return NULL;
}
