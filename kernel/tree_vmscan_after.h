/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included at the end of the generated mlf_tree_vmscan.c: the entry points
 * the harness calls (src/mm/vmscan.h), onto the tree's static functions.
 */
#ifndef _MLF_KERNEL_TREE_VMSCAN_AFTER_H
#define _MLF_KERNEL_TREE_VMSCAN_AFTER_H

void mlf_shrink_many(struct pglist_data *pgdat, struct scan_control *sc)
{
	struct mlf_walk walk = {
		.pgdat = pgdat,
		.heads = &pgdat->memcg_lru.fifo[0][0],
		.head_size = sizeof(pgdat->memcg_lru.fifo[0][0]),
		.nr_gens = MEMCG_NR_GENS,
		.nr_bins = MEMCG_NR_BINS,
	};

	mlf_walk_begin(&walk);
	shrink_many(pgdat, sc);
	mlf_walk_end();
}

void mlf_rotate_memcg(struct lruvec *lruvec, int op)
{
	lru_gen_rotate_memcg(lruvec, op);
}

#endif
