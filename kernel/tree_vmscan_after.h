/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included at the end of the generated mlf_tree_vmscan.c: the entry points
 * the harness calls (src/mm/vmscan.h), onto the tree's static functions,
 * each with the walk's events around it (src/kernel/trace.h).
 */
#ifndef _MLF_KERNEL_TREE_VMSCAN_AFTER_H
#define _MLF_KERNEL_TREE_VMSCAN_AFTER_H

/* the walk of @pgdat's memcg LRU, watched while it lives (trace.h) */
#define MLF_WALK_OF(pgdat)                                                   \
	{                                                                    \
		.pgdat = (pgdat), .heads = &(pgdat)->memcg_lru.fifo[0][0],   \
		.head_size = sizeof((pgdat)->memcg_lru.fifo[0][0]),          \
		.nr_gens = MEMCG_NR_GENS, .nr_bins = MEMCG_NR_BINS,          \
	}

void mlf_shrink_many(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct mlf_walk walk = MLF_WALK_OF(pgdat);

	mlf_walk_begin(&walk);
	shrink_many(pgdat, sc);
	mlf_walk_end();
}

void mlf_rotate_memcg(struct lruvec *lruvec, int op)
{
	lru_gen_rotate_memcg(lruvec, op);
}

#ifdef MLF_EVICTION
void mlf_shrink_node(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct mlf_walk walk = MLF_WALK_OF(pgdat);

	mlf_walk_begin(&walk);
	lru_gen_shrink_node(pgdat, sc);
	mlf_walk_end();
}
#endif

#endif
