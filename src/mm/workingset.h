/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The workingset shadow-node budget (mm/workingset.c: count_shadow_nodes):
 * how many shadow nodes a memcg may keep, from its number of LRU pages.
 */
#ifndef _MLF_MM_WORKINGSET_H
#define _MLF_MM_WORKINGSET_H

#include "stats.h"

/* the page count the budget is computed from */
unsigned long workingset_lru_pages(struct lruvec *lruvec);
/* count_shadow_nodes() for a memcg on a node with @nodes shadow nodes */
unsigned long count_shadow_nodes(struct lruvec *lruvec, unsigned long nodes);

#endif
