/* SPDX-License-Identifier: GPL-2.0 */
/*
 * One side of the kernel_diff target: a world (port or tree's code, with
 * its own checks and model) behind an API that shows no kernel structure,
 * so that fuzz/kernel_diff.c can hold both sides. diff_side.c is compiled
 * twice: against the port's v6.12 variant (these names) and, inside
 * mlf_port_kernel, against the tree's code, whose global symbols
 * kernel/rename_syms.py then prefixes with "kernel_" (so the second set
 * below is the tree's).
 */
#ifndef _MLF_KERNEL_DIFF_SIDE_H
#define _MLF_KERNEL_DIFF_SIDE_H

#include "check/op.h"
#include "kernel/nodemask.h"

#define MLF_DIFF_GENS 3
#define MLF_DIFF_BINS 8
/* the world's MLF_MAX_POOL: a bin never holds more memcgs than that */
#define MLF_DIFF_MAX_POOL 4096
/* the visits of one op's walk that are compared (the count always is) */
#define MLF_DIFF_MAX_VISITS 4096
/* what an unlinked lrugen's next points to, besides a memcg id */
#define MLF_DIFF_LINK_NULL (-2)		/* NULL */
#define MLF_DIFF_LINK_UNKNOWN (-1)	/* no live lrugen: freed, or foreign */
#define MLF_DIFF_LINK_NULLS 100000	/* + the nulls value */

/* What both sides must agree on after every op. */
struct mlf_diff_snapshot {
	int nr_nodes;
	int pool_size;
	bool applied;		/* world_apply() applied the op */
	unsigned long seq[MAX_NUMNODES];
	unsigned long nr_memcgs[MAX_NUMNODES][MLF_DIFF_GENS];
	/* bin contents as memcg ids, head first; -1: a node no memcg owns */
	int len[MAX_NUMNODES][MLF_DIFF_GENS][MLF_DIFF_BINS];
	int ids[MAX_NUMNODES][MLF_DIFF_GENS][MLF_DIFF_BINS][MLF_DIFF_MAX_POOL + 1];
	/*
	 * per memcg slot: life-cycle state, per node gen and seg, and
	 * for an unlinked lrugen where its next still points (readers that
	 * stood on it follow it: MLF_DIFF_LINK_*, or a memcg id) and whether
	 * its pprev is NULL
	 */
	signed char state[MLF_DIFF_MAX_POOL];
	unsigned char gen[MLF_DIFF_MAX_POOL][MAX_NUMNODES];
	unsigned char seg[MLF_DIFF_MAX_POOL][MAX_NUMNODES];
	bool unlinked[MLF_DIFF_MAX_POOL][MAX_NUMNODES];
	int unlinked_next[MLF_DIFF_MAX_POOL][MAX_NUMNODES];
	bool unlinked_pprev_null[MLF_DIFF_MAX_POOL][MAX_NUMNODES];
	/* the op: draws consumed; a reclaim: its walk's counts and visits */
	unsigned long draws, nr_reclaimed, nr_scanned;
	int nr_visits;
	struct mlf_diff_visit {
		int memcg;	/* the memcg shrink_one() ran on */
		int node;
		int op;		/* what it decided: MEMCG_LRU_*, 0: none */
	} visits[MLF_DIFF_MAX_VISITS];
};

#define MLF_DIFF_SIDE_API(prefix)                                           \
	const char *prefix##mlf_diff_side_name(void);                       \
	void prefix##mlf_diff_side_init(int nr_nodes, int pool_size);       \
	bool prefix##mlf_diff_side_apply(const struct mlf_op *op);          \
	void prefix##mlf_diff_side_snapshot(struct mlf_diff_snapshot *s);   \
	void prefix##mlf_diff_side_finish(void);                            \
	void prefix##mlf_diff_side_destroy(void);

MLF_DIFF_SIDE_API()
MLF_DIFF_SIDE_API(kernel_)

#endif
