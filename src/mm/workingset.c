// SPDX-License-Identifier: GPL-2.0
/*
 * count_shadow_nodes()'s page count, both ways: lruvec_page_state_local()
 * (seed 001, patch 1; what MGLRU maintains) or, in bug-shadow-lru-size,
 * lruvec_lru_size() (7404bd37cfbe), which reads lru_zone_size, never
 * maintained under MGLRU, so the budget collapses to 0.
 */
/*
 * Only the reclaim port (src/mm/reclaim.cmake) defines MLF_EVICTION; a
 * build that compiles every file of src/ gets an empty object here.
 */
#ifdef MLF_EVICTION
#include "workingset.h"

unsigned long workingset_lru_pages(struct lruvec *lruvec)
{
	unsigned long pages = 0;
	int i;

	for (i = 0; i < NR_LRU_LISTS; i++)
		pages += lruvec_page_state_local(lruvec, NR_LRU_BASE + i);
	return pages;
}

unsigned long count_shadow_nodes(struct lruvec *lruvec, unsigned long nodes)
{
	unsigned long max_nodes;

	if (!nodes)
		return 0;
	/*
	 * No more shadow entries than pages the LRU could refault, at a
	 * worst-case density of 1/8th per node (see the kernel's comment).
	 */
	max_nodes = workingset_lru_pages(lruvec) >> (XA_CHUNK_SHIFT - 3);
	return nodes <= max_nodes ? 0 : nodes - max_nodes;
}

#endif /* MLF_EVICTION */
