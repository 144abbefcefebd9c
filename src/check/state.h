/* SPDX-License-Identifier: GPL-2.0 */
/*
 * What the checks read: the nodes of the port, the pool of memcg slots, the
 * reference model beside the port, the map of live lrugens, and the notes
 * of the op being checked (seq and the old generation's count before it,
 * its kind and node). The harness's world (harness/world.h) embeds one and
 * keeps it up to date; the checks take a pointer to it and never write it
 * (beyond their own caches), so they need nothing of the harness.
 */
#ifndef _MLF_CHECK_STATE_H
#define _MLF_CHECK_STATE_H

#include "mm/vmscan.h"

#include "lrugen_map.h"
#include "model.h"
#include "slot.h"

/*
 * The generation of the memcg LRU that @seq names old (@seq + 1: young):
 * the kernel's get_memcg_gen() written in the checks, so that what they
 * expect of generations does not come from the port's own macro
 */
static inline int mlf_check_gen(unsigned long seq)
{
	return seq % MEMCG_NR_GENS;
}

struct mlf_check_state {
	int nr_nodes;
	int pool_size;
	struct pglist_data nodes[MAX_NUMNODES];
	struct mlf_slot *slots;		/* pool_size of them */
	struct mlf_model model;
	/*
	 * seq of each node before the current op, and the size of its old
	 * generation then (seq.monotonic/advance): the model's, in the
	 * sequential driver; the port's where no model is fed
	 */
	unsigned long seq_before[MAX_NUMNODES];
	unsigned long old_count_before[MAX_NUMNODES];
	struct mlf_lrugen_map map;
	/*
	 * The driver keeps the map (the sequential driver does from its first
	 * op). A driver that fills slots[] itself (src/harness/stress.c)
	 * leaves it unset, and the checks then build a map of their own per
	 * call, O(pool).
	 */
	bool map_kept;
	/* the op being checked: its kind and node (after clamping) */
	int cur_op_kind;
	int cur_op_node;
};

#endif
