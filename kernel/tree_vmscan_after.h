/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Included at the end of the generated mlf_tree_vmscan.c: the entry points
 * the harness calls (src/mm/vmscan.h), onto the tree's static functions.
 */
#ifndef _MLF_KERNEL_TREE_VMSCAN_AFTER_H
#define _MLF_KERNEL_TREE_VMSCAN_AFTER_H

void mlf_shrink_many(struct pglist_data *pgdat, struct scan_control *sc)
{
	mlf_tree_walk_pgdat = pgdat;
	mlf_tree_walk_started = false;
	shrink_many(pgdat, sc);
	mlf_tree_walk_pgdat = NULL;
	trace_mlf_walk(MLF_WALK_END, pgdat, 0);
}

void mlf_rotate_memcg(struct lruvec *lruvec, int op)
{
	lru_gen_rotate_memcg(lruvec, op);
}

#endif
